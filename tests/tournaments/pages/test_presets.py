"""Presets of the event form (issue #21, finding 9): choosing the Czech GP, the Tarockcup or the
knock-out offers the day its rulebook describes, filled into a new form's initial values only.

Seed 004: "Hrací doba: 4x55 minut", "Herní strop: 20,- Kč". Seed 001: "Es entscheidet ein
Zufallsgenerator." … "Es werden 3 Runden gespielt." Seed 000 §4.1 a: "V kolikor ni prijavljeno
točno toliko igralcev ... se odigra predtekmovanje".
"""

from __future__ import annotations

import re

import pytest

from tests.tournaments.pages.support import client_for, make_event, make_user, seat_round
from tournaments import services
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


def test_a_new_event_form_chooses_no_ruleset_and_refuses_none_at_its_field(db):
    """Issue #33: the form defaulted to the first ruleset of the list (the Czech money rules).
    It starts at "Choose the rules…", shows no mode until one is chosen, and a form posted
    without one is refused at the ruleset field, nothing created."""
    client = client_for(make_user("preset-none", can_create=True))
    html = client.get("/manage/events/new/").content.decode()
    select = re.search(r'<select name="ruleset_code".*?</select>', html, re.S).group(0)
    assert re.search(r'<option value="">[^<]+</option>', select)
    assert _selected(html, "ruleset_code") is None
    assert 'name="ruleset_mode"' not in html and 'name="stake_kc"' not in html
    blank = client.get("/manage/events/ruleset-fields/?ruleset_code=")
    assert blank.status_code == 200 and 'name="ruleset_mode"' not in blank.content.decode()

    form = EventForm(initial=dict(presets.get("tarok-net-points").values))
    data = {name: form[name].value() for name in form.fields}
    data.update(name="Nobody chose", starts_on="2026-10-31", status="registration", ruleset_code="")
    data = {k: ("" if v is None else v) for k, v in data.items() if v is not False}
    answer = client.post("/manage/events/new/", data)
    assert answer.status_code == 400
    assert re.search(r'id="err-ruleset_code"[^>]*>\s*Choose the rules the games are played by',
                     answer.content.decode())
    assert not Event.objects.exists()


def test_the_tarok_net_presets_say_the_round_clock_needs_a_duration(db, django_capture_on_commit_callbacks):
    """The Tarok.net rules give a round 24 games and no time (seed 000 §3 "Igra se 24 iger.");
    their presets leave the duration empty and say the clock needs one, and a round's page
    without a duration says it where the clock would start."""
    organiser = make_user("preset-clock", can_create=True)
    client = client_for(organiser)
    for code in ("tarok-net-points", "tarok-net-knockout"):
        assert "round_duration_minutes" not in presets.get(code).values
        html = client.get(f"/manage/events/new/?preset={code}").content.decode()
        assert _value(html, "round_duration_minutes") is None
        assert re.search(r'class="preset-note">The rulebook sets no time for a round', html)

    event = make_event(organiser, slug="no-clock", players=8, round_duration_minutes=None)
    rnd = services.round_publish(rnd=seat_round(event, organiser, django_capture_on_commit_callbacks), actor=organiser)
    page = client.get(f"/manage/e/no-clock/rounds/{rnd.number}/").content.decode()
    assert "The round clock needs a round duration" in page and "Start the clock" not in page
    assert 'href="/manage/e/no-clock/edit/#id_round_duration_minutes"' in page
    event.round_duration_minutes = 55
    event.save()
    page = client.get(f"/manage/e/no-clock/rounds/{rnd.number}/").content.decode()
    assert "Start the clock (55 minutes)" in page and "needs a round duration" not in page


@pytest.mark.django_db
def test_a_new_events_sheets_speak_the_organisers_language():
    """The new-event form starts its printed sheets' language at the page's language (it
    started at English, the first of the list, on a Slovenian organiser's page)."""
    organiser = make_user("org-lang", can_create=True)
    client = client_for(organiser)
    for lang in ("sl", "de"):
        page = client.get("/manage/events/new/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert f'<option value="{lang}" selected>' in page, lang
