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
    assert re.search(r'<span class="field">points</span>: <del>\d+</del> → <ins>55</ins>', table)
    with translation.override("sl"):
        assert str(audit_text.action_label("hand.update")) != "hand changed"
