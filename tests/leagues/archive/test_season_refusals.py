"""A damaged season archive is refused with every problem at its path, in the order of the
file: the season's own fields, its players, the schedule and formation that name them by
index, the divisions and their members, the matchdays and the season's trail. One damage per
rule of the season's part of `leagues.archive`."""

from __future__ import annotations

import copy

import pytest

from leagues import archive as season_archive
from tests.conftest import built_once
from tests.leagues.helpers import users
from tests.leagues.services.test_next_season import _finished_season

pytestmark = pytest.mark.django_db

MEMBER = {"seed_position": 1, "origin": "new", "final_rank": None}


def _entry(audit: list, type_label: str, ref) -> dict:
    return {**audit[0], "target": {"type": type_label, "ref": ref}}


def _refusals(doc) -> list[tuple[str, str]]:
    return [(e["field"], e["code"]) for e in season_archive.validate_season(doc)]


def _exported_season() -> dict:
    organiser, referee = users()
    season, _a, _b, _q = _finished_season(organiser, referee)
    return season_archive.export_season(season)


@pytest.fixture(scope="module")
def _exported(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, _exported_season)


@pytest.fixture
def season_doc(_exported):
    """A finished season of 19 players (two leagues of 8, a qualification group of 3) and its
    one matchday, exported; the season and the matchday's event are still in the database."""
    return copy.deepcopy(_exported)


def test_every_damage_of_a_season_is_refused_at_its_path_in_the_order_of_the_file(season_doc):
    body = season_doc["season"]
    body["starts_on"], body["ends_on"] = "2025-06-01", "2025-01-01"
    body["players"].append("not a player")
    # A null is a player the database no longer has; 99 is no entry of the 20 players.
    body["schedule"]["divisions"]["1"]["players"][:2] = [None, 99]
    body["formation"] = {"leaving": [None, 0, 77]}
    body["divisions"] += [
        "x",
        {"level": 1, "name": "again", "is_qualification": True, "size": 0, "plays_matchdays": False,
         "members": ["x", {**MEMBER, "seed_position": 0, "player": 0}, {**MEMBER, "player": 18},
                     {**MEMBER, "player": True}, {**MEMBER, "seed_position": "y", "player": 200}]},
        {"level": "z", "name": "bad", "is_qualification": False, "size": 0, "plays_matchdays": False,
         "members": []},
    ]
    body["matchdays"] += ["x", {"number": 1, "date": "2025-09-01", "event": None},
                          {"number": 0, "date": "2025-09-02", "event": None},
                          {"number": "q", "date": None, "event": None}]
    audit = body["audit"]
    first_added = len(audit)
    audit += [_entry(audit, "leagues.league", {"slug": "mini"}),
              _entry(audit, "tournaments.event", {"slug": "x"}),
              _entry(audit, "leagues.division", "x"),
              _entry(audit, "leagues.division", {"level": 9}),
              _entry(audit, "leagues.season", {"slug": "other"}),
              _entry(audit, "leagues.seasonmembership", {"player": 18}),
              _entry(audit, "leagues.matchday", {"matchday": 7}),
              _entry(audit, "leagues.matchday", {"matchday": 1})]
    errors = season_archive.validate_season(season_doc)
    a = first_added
    assert [(e["field"], e["code"]) for e in errors] == [
        ("season.ends_on", "invalid"),
        ("season.slug", "season_exists"),
        ("season.players[19]", "not_an_object"),
        ("season.schedule", "unknown_player"),
        ("season.formation", "unknown_player"),
        ("season.divisions[3]", "not_an_object"),
        ("season.divisions[4].level", "invalid_level"),
        ("season.divisions[4].members[0]", "not_an_object"),
        ("season.divisions[4].members[1].player", "duplicate"),
        ("season.divisions[4].members[1].seed_position", "invalid_position"),
        ("season.divisions[4].members[2].player", "duplicate"),
        ("season.divisions[4].members[3].player", "unknown_player"),
        ("season.divisions[4].members[3].seed_position", "invalid_position"),
        ("season.divisions[4].members[4].seed_position", "wrong_type"),
        ("season.divisions[4].members[4].player", "unknown_player"),
        ("season.divisions[5].level", "wrong_type"),
        ("season.divisions", "two_qualification_groups"),
        ("season.matchdays[0].event.slug", "slug_exists"),
        ("season.matchdays[1]", "not_an_object"),
        ("season.matchdays[2].number", "invalid_number"),
        ("season.matchdays[2].event", "not_an_object"),
        ("season.matchdays[3].number", "invalid_number"),
        ("season.matchdays[3].event", "not_an_object"),
        ("season.matchdays[4].number", "wrong_type"),
        ("season.matchdays[4].event", "not_an_object"),
        (f"season.audit[{a}].target.ref", "unknown_ref"),
        (f"season.audit[{a + 1}].target.ref", "unknown_ref"),
        (f"season.audit[{a + 2}].target.ref", "not_an_object"),
        (f"season.audit[{a + 3}].target.ref", "unknown_ref"),
        (f"season.audit[{a + 4}].target.ref", "unknown_ref"),
        (f"season.audit[{a + 6}].target.ref", "unknown_ref"),
    ]
    messages = {e["field"]: e["message"] for e in errors}
    assert messages["season.ends_on"] == "season.ends_on: the season ends before it starts"
    assert messages["season.slug"] == (
        "season.slug: league 'mini' already has a season '2025' in this database; delete or "
        "rename it first, or import into another database")
    assert messages["season.schedule"] == (
        "season.schedule: must be the index of an entry of season.players (0 to 19), got 99")
    assert messages["season.divisions[4].level"] == (
        "season.divisions[4].level: levels begin at 1 and are given once, got 1")
    assert messages["season.divisions[4].members[3].seed_position"] == (
        "season.divisions[4].members[3].seed_position: seed positions begin at 1 and are given "
        "once per division, got 1")
    assert messages["season.divisions[4].members[1].player"] == (
        "season.divisions[4].members[1].player: the player is a member twice in this season")
    assert messages["season.divisions"] == "season.divisions: a season has one qualification group"
    assert messages["season.matchdays[3].number"] == (
        "season.matchdays[3].number: matchday numbers begin at 1 and are given once, got 0")
    assert messages[f"season.audit[{a}].target.ref"] == (
        f"season.audit[{a}].target.ref: objects of type 'leagues.league' are named by null here")
    assert messages[f"season.audit[{a + 3}].target.ref"] == (
        f"season.audit[{a + 3}].target.ref: names nothing of this season: {{'level': 9}}")


def test_a_schedule_that_is_no_list_of_tables_and_a_formation_that_is_no_object(season_doc):
    body = season_doc["season"]
    # Fields of the wrong type: the season's own checks (its dates, its slug) wait for them.
    body["planned_matchdays"], body["starts_on"], body["ends_on"] = "x", "2025-06-01", "2025-01-01"
    body["schedule"]["divisions"]["1"]["players"][0] = None
    body["schedule"]["divisions"]["2"]["rounds"] = [5]
    body["formation"] = []
    errors = season_archive.validate_season(season_doc)
    assert [(e["field"], e["code"], e["message"]) for e in errors] == [
        ("season.planned_matchdays", "wrong_type", "season.planned_matchdays: must be a whole number, got text"),
        ("season.formation", "not_an_object", "season.formation: must be an object"),
        ("season.schedule", "invalid_schedule",
         "season.schedule: a division's rounds must be lists of tables, each a list of players"),
        ("season.matchdays[0].event.slug", "slug_exists",
         "season.matchdays[0].event.slug: an event with the slug 'mini-2025-1' already exists in "
         "this database; delete or rename it first, or import into another database"),
    ]


def test_a_season_that_is_no_object_is_refused_alone(season_doc):
    season_doc["season"] = "x"
    assert _refusals(season_doc) == [("season", "not_an_object")]
