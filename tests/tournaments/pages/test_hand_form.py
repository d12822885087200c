"""The hand form of every ruleset and mode (`tournaments.forms.hands.HandForm`): the fields it
offers, in order, with their labels, choices and limits, as recorded in hand_forms.json (the
form as it was before its construction was split into steps, issue #30); and the record a
posted form gives for each kind of game, with the rows of announcements, contras and
penalties it was read from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from scoring import rules
from tests.tournaments.api.test_roles import build_world, trojka
from tournaments.forms.common import ruleset_description
from tournaments.forms.hands import EntryContext, HandForm, entry_context
from tournaments.models import Hand, Scorecard

RECORDED = Path(__file__).with_name("hand_forms.json")


def _context(code: str, mode: str, seats: int):
    players = [(str(n), f"{n} · P{n}") for n in range(1, seats + 1)]
    return entry_context(code=code, mode=mode, players=players, hands_per_round=4)


def forms_of_every_ruleset() -> dict[str, tuple[str, str, int]]:
    return {f"{rs.code}/{m['code']}": (rs.code, m["code"], m.get("seats", 4))
            for rs in rules.all_rulesets() for m in ruleset_description(rs.code).get("modes", [])}


def inventory(form: HandForm) -> list[list[Any]]:
    """Every field in order: name, kind, label, required, choices (the players' choices as
    "players"), the label screen readers hear, the largest number it takes."""
    players = [[pid, label] for pid, label in form.ctx.players]
    out = []
    for name, field in form.fields.items():
        choices = [[str(value), str(label)] for value, label in getattr(field, "choices", [])]
        if choices[-len(players):] == players:
            choices = [*choices[:-len(players)], "players"]
        out.append([name, type(field).__name__, str(field.label), field.required, choices,
                    field.widget.attrs.get("aria-label"), getattr(field, "max_value", None)])
    return out


def record_the_forms() -> dict[str, Any]:
    """What hand_forms.json holds (written once: `python -c "from tests.tournaments.pages.
    test_hand_form import write; write()"` with Django set up)."""
    with translation.override("en"):
        return {key: inventory(HandForm(ctx=_context(*spec)))
                for key, spec in forms_of_every_ruleset().items()}


def write() -> None:
    """One line per field, so a change shows as the fields it changed."""
    forms = record_the_forms()
    blocks = [f" {json.dumps(key)}: [\n" + ",\n".join(f"  {json.dumps(f, ensure_ascii=False)}" for f in fields)
              + "\n ]" for key, fields in forms.items()]
    RECORDED.write_text("{\n" + ",\n".join(blocks) + "\n}\n", "utf-8")


@pytest.mark.parametrize("key", sorted(forms_of_every_ruleset()))
def test_the_form_of_each_ruleset_and_mode_offers_the_fields_it_did(key):
    recorded = json.loads(RECORDED.read_text("utf-8"))
    assert set(recorded) == set(forms_of_every_ruleset())
    with translation.override("en"):
        got = inventory(HandForm(ctx=_context(*forms_of_every_ruleset()[key])))
    assert json.loads(json.dumps(got)) == recorded[key]


def _posted(code: str, mode: str, seats: int, data: dict[str, Any]) -> HandForm:
    form = HandForm({"number": 1, "version": 1, **data}, ctx=_context(code, mode, seats))
    form.is_valid()
    return form


def test_a_played_game_gives_its_fields_and_the_rows_it_was_read_from():
    form = _posted("tarok-net-2007", "tri+1", 4, {
        "game": "trojka", "declarer": "1", "resting": "4", "points": 41, "forehand": "2",
        "ann-1-name": "trula", "ann-1-by": "1", "ann-1-announced": "on", "ann-1-achieved": "1",
        "ann-1-held": "on", "ann-3-name": "kralji", "ann-3-achieved": "0",
        "con-1-level": "2", "con-1-by": "2", "con-2-on": "trula", "con-2-by": "3",
        "pen-1-kind": "renons", "pen-1-player": "2", "pbp-1": 5})
    assert form.is_valid(), form.errors
    assert form.record == {
        "game": "trojka", "declarer": "1", "points": 41, "resting": "4", "forehand": "2",
        "announcements": [{"name": "trula", "announced": True, "by": "1", "achieved": True, "held": True},
                          {"name": "kralji", "announced": False, "achieved": False}],
        "contras": [{"on": "game", "by": "2", "level": 2}, {"on": "trula", "by": "3", "level": 1}],
        "penalties": [{"kind": "renons", "player": "2"}],
    }
    assert form.row_of == {("announcements", 0): 1, ("announcements", 1): 3, ("contras", 0): 1,
                           ("contras", 1): 2, ("penalties", 0): 1}
    assert form.field_for("announcements[1].achieved") == "ann-3-achieved"
    assert form.field_for("contras[0]") == "con-1-on"


def test_klop_gives_the_points_and_tricks_that_were_written():
    form = _posted("tarok-net-2007", "tri+1", 4, {
        "game": "klop", "resting": "1", "pbp-1": 10, "pbp-2": 0, "pbp-4": 35, "tbp-3": 2,
        "declarer": "2", "points": 40, "ann-0-name": "trula"})
    assert form.is_valid(), form.errors
    # Klop takes no declarer, points or announcements: what was typed there is left out.
    assert form.record == {"game": "klop", "points_by_player": {"1": 10, "2": 0, "4": 35},
                           "tricks_by_player": {"3": 2}, "resting": "1"}
    assert form.row_of == {}


def test_a_called_partner_alone_a_lost_game_and_a_concession():
    form = _posted("steirischer-tarockcup-2017", "four", 4, {
        "game": "rufer", "declarer": "1", "partner": "-", "won": "0", "conceded": "on", "points": "",
        "con-0-on": "game", "con-0-by": "2", "con-0-level": "", "con-0-against": "1"})
    assert form.is_valid(), form.errors
    assert form.record == {"game": "rufer", "declarer": "1", "partner": None, "won": False,
                           "conceded": True,
                           "contras": [{"on": "game", "by": "2", "level": 1, "against": "1"}]}
    form = _posted("steirischer-tarockcup-2017", "four", 4, {
        "game": "rufer", "declarer": "1", "partner": "3", "won": "1", "points": 36})
    assert form.record == {"game": "rufer", "declarer": "1", "partner": "3", "points": 36, "won": True}
    form = _posted("gp-vysociny-2004", "four", 4, {
        "game": "povinnost", "declarer": "2", "partner": "4", "called": "XIX", "points": 40})
    assert form.record == {"game": "povinnost", "declarer": "2", "called": "XIX", "partner": "4",
                           "points": 40}


def test_without_a_game_there_is_no_record():
    form = _posted("slovenski-tarok-zei", "three", 3, {"game": "", "declarer": "1", "points": 40})
    assert form.record == {} and form.row_of == {}
    form = _posted("slovenski-tarok-zei", "three", 3, {"game": "bogus", "points": 40})
    assert not form.is_valid() and "game" in form.errors and form.record == {}
    # A field out of its range is an error of the form; the record leaves it out.
    form = _posted("slovenski-tarok-zei", "three", 3, {"game": "tri", "declarer": "1", "points": 71})
    assert not form.is_valid() and form.record == {"game": "tri", "declarer": "1"}


def test_rows_and_groups_left_empty_give_nothing():
    form = _posted("tarok-net-2007", "tri+1", 4, {
        "game": "klop", "resting": "2",
        "ann-0-name": "trula", "con-0-on": "klop", "pen-0-kind": "mond"})
    # No points and no tricks written: klop's groups are left out; a contra and a penalty
    # without a player are kept as written (the engine names what is missing).
    assert form.record == {"game": "klop", "resting": "2", "contras": [{"on": "klop", "level": 1}],
                           "penalties": [{"kind": "mond"}]}
    form = _posted("tarok-net-2007", "tri+1", 4, {
        "game": "trojka", "declarer": "1", "resting": "4", "points": 41,
        "ann-0-name": "trula", "ann-0-by": "1"})
    assert form.record["announcements"] == [{"name": "trula", "announced": False, "by": "1"}]


def test_a_stored_hand_fills_the_form_in():
    ctx = _context("tarok-net-2007", "tri+1", 4)
    record = {"game": "trojka", "declarer": "1", "resting": "4", "points": 41, "partner": None,
              "won": False, "conceded": True, "points_by_player": {"2": 7},
              "announcements": [{"name": "trula", "by": "1", "announced": True, "achieved": False,
                                 "held": True}],
              "contras": [{"on": "game", "by": "2", "level": 2, "against": "1"}],
              "penalties": [{"kind": "renons", "player": "3"}]}
    form = HandForm(ctx=ctx, record=record, initial={"number": 3, "game": "enka"})
    assert form.initial == {
        "number": 3, "game": "trojka", "declarer": "1", "resting": "4", "points": 41,
        "partner": "-", "won": "0", "conceded": True, "pbp-2": 7,
        "ann-0-name": "trula", "ann-0-by": "1", "ann-0-announced": True, "ann-0-achieved": "0",
        "ann-0-held": True, "con-0-on": "game", "con-0-by": "2", "con-0-level": "2",
        "con-0-against": "1", "pen-0-kind": "renons", "pen-0-player": "3"}


def test_a_ruleset_offers_only_the_fields_its_games_need():
    """A ruleset that describes fields no game of the mode uses (here: a partner, points of
    each player and announcements for a game of a declarer alone) does not offer them."""
    ctx = EntryContext(
        description={}, mode="m", players=[("1", "1 · P1"), ("2", "2 · P2")], hands_per_round=1,
        games=[{"code": "solo", "name": "Solo", "fields": ["declarer", "won"]}],
        announcements=[{"code": "trula", "name": "Trula"}],
        props={"declarer": {}, "partner": {}, "won": {}, "points_by_player": {}},
        announcement_props={"name", "by"})
    assert list(HandForm(ctx=ctx).fields) == ["number", "version", "game", "reason", "declarer", "won"]
    ctx.props = {"won": {}}
    assert list(HandForm(ctx=ctx).fields) == ["number", "version", "game", "reason", "won"]


@pytest.mark.django_db
def test_the_hand_form_without_a_version_does_not_skip_the_lock():
    world = build_world()
    client = Client()
    client.force_login(world.users["referee"])
    card = world.card(1)
    response = client.post("/manage/e/cup/rounds/1/tables/1/", {"number": 2, **trojka("2", 50)})
    assert response.status_code == 400
    assert Hand.objects.filter(scorecard=card).count() == 1
    saved = client.post("/manage/e/cup/rounds/1/tables/1/",
                        {"number": 2, "version": card.version, **trojka("2", 50)})
    assert saved.status_code == 302
    assert Scorecard.objects.get(pk=card.pk).hands.count() == 2
