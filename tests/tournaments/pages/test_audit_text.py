"""The audit trail in words (issue #14, finding 7): every action a service records has a label
in the reader's language, and the history pages show what changed as "field: before → after",
never an action code or a stored Python dict."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tests.project.test_audit_walk import NEEDS_ON_COMMIT, WRITES
from tests.project.test_audit_walk import World as WalkWorld
from tests.tournaments.pages.support import World, client_for, world_fixture, world_of_the_module  # noqa: F401
from tournaments import services
from tournaments.models import AuditEntry
from tournaments.text import audit_text

pytestmark = pytest.mark.django_db


# The audit walk's builders, one world per service (tests/project/test_audit_walk.py, slow too).
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(WRITES))
def test_every_action_the_services_record_has_a_label(name, django_capture_on_commit_callbacks):
    builder = WRITES[name]
    call = (builder(WalkWorld(), django_capture_on_commit_callbacks) if name in NEEDS_ON_COMMIT
            else builder(WalkWorld()))
    with django_capture_on_commit_callbacks(execute=True):
        call.run()
    for action in AuditEntry.objects.values_list("action", flat=True).distinct():
        assert action in audit_text.ACTION_LABELS, f"{name} records {action!r} without a label"


def test_the_history_shows_words_and_changes_not_codes(world: World):
    card = world.table1.scorecard
    card.refresh_from_db()
    record = dict(card.hands.get(number=1).record, points=55)
    services.hand_save(scorecard=card, number=1, record=record, actor=world.referee,
                       expected_version=card.version, reason="recounted")
    page = client_for(world.referee).get("/referee/e/event-a/history/").content.decode()
    table = page.split('<table class="data audit">', 1)[1].split("</table>", 1)[0]
    assert "hand changed" in table and "card confirmed" in table
    assert not re.search(r"\b(hand|scorecard|round|registration)\.[a-z_]+\b", table)
    assert "{&#x27;" not in table and "{'" not in table and "[{" not in table
    assert re.search(r'<span class="diff-field">points:</span> <del>\d+</del> → <ins>55</ins>', table)
    with translation.override("sl"):
        assert str(audit_text.action_label("hand.update")) != "hand changed"


def test_stored_values_read_as_words_in_the_readers_language():
    """Codes, numbers and money under the keys that say what they are (issue #33)."""
    from tournaments.models import Event

    czech = audit_text.rules_words(Event(ruleset_code="gp-vysociny-2004"))
    slovenian = audit_text.rules_words(Event(ruleset_code="tarok-net-2007"))
    with translation.override("sl"):
        assert audit_text.value_text("points", "4.000") == "4"
        assert audit_text.value_text("points", "10/3") == "3⅓"
        assert audit_text.value_text("points", "7.25") == "7,25"
        assert audit_text.value_text("score", "300", slovenian) == "300"
        assert audit_text.value_text("score", "-1240", czech) == "−12,40 Kč"
        assert audit_text.value_text("stake", 2000, czech) == "20,00 Kč"
        assert audit_text.value_text("system", "points") == "Točkovni sistem"
        assert audit_text.value_text("ruleset", "tarok-net-2007").startswith("Pravila Tarok.net")
        assert audit_text.value_text("game", "berac", slovenian) == "berač (brez talona)"
        assert audit_text.value_text("contras", [{"on": "game", "by": "11", "level": 1}],
                                     slovenian) == "kontra: igra (igralec 11)"
        assert audit_text.value_text("announcements", [{"name": "pagat_ultimo", "by": "4", "announced": True,
                                                        "achieved": False}], slovenian) == \
            "pagat ultimo (igralec 4, napovedano, ni uspelo)"
        assert audit_text.value_text("date", "2025-12-02") == "02. december 2025"  # as the pages write dates
        assert audit_text.field_label("seed") == "številka žreba"
