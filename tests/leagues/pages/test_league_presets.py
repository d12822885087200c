"""The league form's ruleset and presets (issue #33): a new league's form chooses no ruleset for
the organiser (it defaulted to the first of the list, the Czech money rules) and offers the
leagues the rulebooks describe (leagues.presets), each filling a new form that creates a valid
league; the ruleset's fields offer the league presets, never the event form's days.

Seed 000 §4.2: "Ligo praviloma igra 32 igralcev." … "Ena tekma zajema 24 iger." Seed 002 §4.2:
"Ligo praviloma igra 28 ali 32 igralcev."
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from leagues import presets
from leagues.forms import LeagueForm
from leagues.models import League
from sample_data.factories import UserFactory, allow_event_creation

pytestmark = pytest.mark.django_db


def _client(username: str) -> Client:
    client = Client()
    client.force_login(allow_event_creation(UserFactory(username=username)))
    return client


def _selected(html: str, name: str) -> str | None:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S)
    if not select:
        return None
    chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(0))
    return chosen.group(1) if chosen else None


def _posted(form: LeagueForm, **overrides) -> dict:
    data = {name: form[name].value() for name in form.fields}
    data.update(overrides)
    return {k: ("" if v is None else ("on" if v is True else v)) for k, v in data.items()
            if v is not False}


def test_a_new_league_form_chooses_no_ruleset_and_refuses_none_at_its_field():
    client = _client("league-none")
    html = client.get("/manage/leagues/new/").content.decode()
    assert _selected(html, "ruleset_code") is None
    assert re.search(r'<select name="ruleset_code"[^>]*>\s*<option value="">', html)
    assert 'name="ruleset_mode"' not in html
    answer = client.post("/manage/leagues/new/", _posted(LeagueForm(), name="Nobody chose"))
    assert answer.status_code == 400
    assert re.search(r'id="err-ruleset_code"[^>]*>\s*Choose the rules the games are played by',
                     answer.content.decode())
    assert not League.objects.exists()


@pytest.mark.parametrize("preset", presets.PRESETS, ids=lambda p: p.code)
def test_every_league_preset_fills_the_page_and_creates_its_league(preset):
    client = _client(f"league-{preset.code}")
    html = client.get(f"/manage/leagues/new/?preset={preset.code}").content.decode()
    assert _selected(html, "ruleset_code") == preset.values["ruleset_code"]
    assert _selected(html, "ruleset_mode") == preset.values["ruleset_mode"]
    assert re.search(rf'name="division_size"[^>]*value="{preset.values["division_size"]}"', html)
    assert "starts from" in html
    form = LeagueForm(initial=dict(preset.values))
    answer = client.post("/manage/leagues/new/", _posted(form, name=f"League {preset.code}"))
    assert answer.status_code == 302, answer.content.decode()[:3000]
    league = League.objects.get(name=f"League {preset.code}")
    for name, value in preset.values.items():
        assert getattr(league, name) == value, name


def test_the_league_form_offers_league_presets_only_on_a_new_league():
    client = _client("league-offer")
    fields = client.get("/manage/leagues/new/ruleset-fields/",
                        {"ruleset_code": "tarok-net-2007"}).content.decode()
    assert "/manage/leagues/new/?preset=tarok-net-league" in fields
    # Not the event form's days (they open the event form).
    assert "/manage/events/new/?preset=" not in fields
    editing = client.get("/manage/leagues/new/ruleset-fields/",
                         {"ruleset_code": "tarok-net-2007", "editing": "1"}).content.decode()
    assert "?preset=" not in editing
    assert client.get("/manage/leagues/new/ruleset-fields/", {"ruleset_code": ""}).status_code == 200
    assert client.get("/manage/leagues/new/ruleset-fields/", {"ruleset_code": "nope"}).status_code == 404
    assert client.get("/manage/leagues/new/?preset=nonsense").status_code == 404
    assert Client().get("/manage/leagues/new/ruleset-fields/").status_code == 302

    form = LeagueForm(initial=dict(presets.get("tarok-net-league").values))
    client.post("/manage/leagues/new/", _posted(form, name="Edited", slug="edited"))
    edit = client.get("/manage/leagues/edited/edit/").content.decode()
    assert "?preset=" not in edit
    assert 'hx-get="/manage/leagues/new/ruleset-fields/?editing=1"' in edit
