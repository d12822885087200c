"""Presets of the event form (issue #21, finding 9): choosing the Czech GP, the Tarockcup or the
knock-out offers the day its rulebook describes, filled into a new form's initial values only.

Seed 004: "Hrací doba: 4x55 minut", "Herní strop: 20,- Kč". Seed 001: "Es entscheidet ein
Zufallsgenerator." … "Es werden 3 Runden gespielt." Seed 000 §4.1 a: "V kolikor ni prijavljeno
točno toliko igralcev ... se odigra predtekmovanje".
"""

from __future__ import annotations

import re

import pytest

from tests.tournaments.pages.support import client_for, make_user
from tournaments.domain import presets
from tournaments.forms import EventForm
from tournaments.models import Event


def _value(html: str, name: str) -> str | None:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    return found.group(1) if found else None


def _selected(html: str, name: str) -> str | None:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S)
    if not select:
        return None
    chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(0))
    return chosen.group(1) if chosen else None


def test_every_preset_fills_a_form_that_creates_a_valid_event(db):
    for preset in presets.PRESETS:
        form = EventForm(initial=dict(preset.values))
        data = {name: form[name].value() for name in form.fields}
        data.update(name=f"Day {preset.code}", starts_on="2026-10-31", status="registration",
                    is_public="on")
        data = {k: ("" if v is None else v) for k, v in data.items() if v is not False}
        bound = EventForm(data)
        assert bound.is_valid(), (preset.code, bound.errors)
        fields = bound.service_fields()
        for name, value in preset.values.items():
            if name == "stake_kc":
                assert fields["stake_haler"] == value * 100
            else:
                assert fields[name] == value, (preset.code, name)


@pytest.mark.parametrize("code, expected", [
    ("gp-vysociny-day", {"planned_rounds": "4", "round_duration_minutes": "55", "stake_kc": "20"}),
    ("tarockcup-day", {"planned_rounds": "3"}),
    ("tarok-net-knockout", {"hands_per_round": "24", "min_table_size": "3"}),
])
def test_the_create_page_starts_from_a_preset(db, code, expected):
    organiser = make_user(f"preset-{code}", can_create=True)
    page = client_for(organiser).get(f"/manage/events/new/?preset={code}")
    assert page.status_code == 200
    html = page.content.decode()
    preset = presets.get(code)
    assert _selected(html, "ruleset_code") == preset.values["ruleset_code"]
    assert _selected(html, "seating_system") == preset.values["seating_system"]
    for name, value in expected.items():
        assert _value(html, name) == value, (name, _value(html, name))


def test_a_preset_never_changes_what_is_posted_nor_an_event(db):
    """The preset is a GET of a new form: a posted form (what the organiser typed) is created
    as typed, and the edit page offers no preset."""
    organiser = make_user("preset-post", can_create=True)
    client = client_for(organiser)
    form = EventForm(initial=dict(presets.get("gp-vysociny-day").values))
    data = {name: form[name].value() for name in form.fields}
    data.update(name="Bystré", starts_on="2026-10-31", planned_rounds=5, stake_kc="10",
                status="registration")
    data = {k: ("" if v is None else v) for k, v in data.items() if v is not False}
    answer = client.post("/manage/events/new/?preset=tarockcup-day", data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    event = Event.objects.get(name="Bystré")
    assert (event.planned_rounds, event.stake_haler, event.ruleset_code) == (5, 1000, "gp-vysociny-2004")
    edit = client.get(f"/manage/e/{event.slug}/edit/").content.decode()
    assert "?preset=" not in edit
    fields = client.get("/manage/events/ruleset-fields/?ruleset_code=gp-vysociny-2004&editing=1")
    assert "?preset=" not in fields.content.decode()


def test_choosing_a_ruleset_offers_its_day(db):
    organiser = make_user("preset-offer", can_create=True)
    fields = client_for(organiser).get(
        "/manage/events/ruleset-fields/?ruleset_code=steirischer-tarockcup-2017").content.decode()
    assert "?preset=tarockcup-day" in fields
    assert client_for(organiser).get("/manage/events/new/?preset=nonsense").status_code == 404
