"""A damaged cup archive is refused with every problem at its path, in the order of the file:
the series' own fields, its organisers, the points table, the tournaments (named by slug) and
the cup's trail. One damage per rule of `leagues.archive_cups`' check of the cup."""

from __future__ import annotations

import copy
import datetime as dt

import pytest

from leagues import archive_cups
from leagues import services as league_services
from tests.conftest import built_once
from tests.leagues.helpers import make_players, single_table_event, users

pytestmark = pytest.mark.django_db


def _exported_cup() -> dict:
    """A cup of two one-table tournaments of three (the second is the final) with a points
    table of three places."""
    organiser, referee = users()
    players = make_players(3, "c")
    series = league_services.cup_create(actor=organiser, name="Cup", slug="cup", organisers=[organiser])
    for n in (1, 2):
        event = single_table_event(f"cup-{n}", players, organiser, referee, starts_on=dt.date(2026, 1, n))
        league_services.cup_event_add(series=series, event=event, actor=organiser, is_final=n == 2)
    league_services.cup_points_set(series=series, table={1: 10, 2: 5, 3: 1}, actor=organiser,
                                   reason="the organiser's table")
    return archive_cups.export_cup(series)


@pytest.fixture(scope="module")
def _exported(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, _exported_cup)


@pytest.fixture
def cup_doc(_exported):
    return copy.deepcopy(_exported)


def _entry(audit: list, type_label: str, ref) -> dict:
    return {**audit[0], "target": {"type": type_label, "ref": ref}}


def test_every_damage_of_a_cup_is_refused_at_its_path_in_the_order_of_the_file(cup_doc):
    body = cup_doc["cup"]
    body["best_results_counted"] = 0
    body["organisers"] += ["", 5]  # an empty name is left out; a number is no name
    body["points_table"] += ["x", {"place": "a", "points": 1}, {"place": 2, "points": 0},
                             {"place": 5, "points": 7}]
    body["events"] += ["x", {"order": 3, "is_final": True, "event": "cup-1"},
                       {"order": "z", "is_final": False, "event": "nope"},
                       {"order": 4, "is_final": False, "event": 5}]
    audit = body["audit"]
    audit += [_entry(audit, "leagues.season", {"slug": "cup"}), _entry(audit, "leagues.cupseries", "x"),
              _entry(audit, "leagues.cupseries", {"slug": "other"})]
    errors = archive_cups.validate_cup(cup_doc)
    assert [(e["field"], e["code"], e["message"]) for e in errors] == [
        ("cup", "constraint", "cup: breaks the rule cup_counts_at_least_one"),
        ("cup.slug", "cup_exists", "cup.slug: a cup series 'cup' exists in this database; delete or "
         "rename it first, or import into another database"),
        ("cup.organisers[2]", "wrong_type", "cup.organisers[2]: must be text, got a whole number"),
        ("cup.points_table[3]", "not_an_object", "cup.points_table[3]: must be an object, got text"),
        ("cup.points_table[4].place", "wrong_type",
         "cup.points_table[4].place: must be a whole number, got text"),
        ("cup.points_table[5].place", "invalid_place",
         "cup.points_table[5].place: places begin at 1, are given once and in order, got 2"),
        ("cup.points_table[6].points", "not_decreasing",
         "cup.points_table[6].points: place 5 would get more points than the place before it"),
        ("cup.events[2]", "not_an_object", "cup.events[2]: must be an object, got text"),
        ("cup.events[3].event", "duplicate", "cup.events[3].event: the event 'cup-1' is in the series twice"),
        ("cup.events[4].order", "wrong_type", "cup.events[4].order: must be a whole number, got text"),
        ("cup.events[4].event", "unknown_event",
         "cup.events[4].event: this database has no event 'nope': import the cup's events (their "
         "own archives or their seasons') before the cup"),
        ("cup.events[5].event", "unknown_event",
         "cup.events[5].event: this database has no event 5: import the cup's events (their own "
         "archives or their seasons') before the cup"),
        ("cup.events", "two_finals", "cup.events: a series has one final"),
        ("cup.audit[2].target.ref", "unknown_ref",
         "cup.audit[2].target.ref: a cup's trail names only the cup, not 'leagues.season'"),
        ("cup.audit[3].target.ref", "not_an_object", "cup.audit[3].target.ref: must be an object, got text"),
        ("cup.audit[4].target.ref.slug", "unknown_cup",
         "cup.audit[4].target.ref.slug: names another cup series than this one"),
    ]


def test_a_cup_whose_fields_are_wrong_skips_the_checks_that_need_them(cup_doc):
    cup_doc["cup"]["slug"] = 5
    assert [(e["field"], e["code"]) for e in archive_cups.validate_cup(cup_doc)] == [
        ("cup.slug", "wrong_type"),
        ("cup.audit[0].target.ref.slug", "unknown_cup"),
        ("cup.audit[1].target.ref.slug", "unknown_cup"),
    ]


def test_a_cup_that_is_no_object_is_refused_alone(cup_doc):
    cup_doc["cup"] = []
    assert [(e["field"], e["code"]) for e in archive_cups.validate_cup(cup_doc)] == [
        ("cup", "not_an_object")]
