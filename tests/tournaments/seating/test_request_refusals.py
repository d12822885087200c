"""`parse_request` lists every problem of a request in one order: unknown fields, the system,
its rounds, the table sizes, the seed, the players, history and previous round, the
knock-out's previous round, the fixed system's tables, the league's own fields."""

from __future__ import annotations

import pytest

from tests.tournaments.seating.tournament_generator import player_ids
from tournaments.seating import SeatingInvalid
from tournaments.seating.request import parse_request

PLAYERS = [{"id": p} for p in player_ids(8)]


def refusals(request) -> list[tuple[str, str]]:
    with pytest.raises(SeatingInvalid) as caught:
        parse_request(request)
    return [(e["field"], e["code"]) for e in caught.value.errors]


def messages(request) -> list[str]:
    with pytest.raises(SeatingInvalid) as caught:
        parse_request(request)
    return [e["message"] for e in caught.value.errors]


def test_a_league_request_wrong_in_every_field_is_refused_in_the_order_of_the_checks():
    request = {"system": "league", "rounds": 0, "round": "x", "table_size": 11, "min_table_size": 0,
               "seed": "s", "players": PLAYERS, "history": "h", "previous_round": "p", "tables": [],
               "absences": [{"matchday": 9, "players": ["zz"]}],
               "fixed_seats": [{"player": "zz", "table": 1}], "club_weight": -1, "colour": 1}
    assert refusals(request) == [
        ("colour", "unknown_field"), ("rounds", "bad_rounds"), ("round", "bad_round"),
        ("table_size", "bad_table_size"), ("min_table_size", "bad_min_table_size"), ("seed", "bad_seed"),
        ("history", "not_a_list"), ("previous_round", "not_a_list"), ("tables", "tables_not_allowed"),
        ("absences[0].matchday", "bad_matchday"), ("fixed_seats[0].player", "unknown_player"),
        ("club_weight", "bad_club_weight"),
    ]
    assert messages(request)[-1] == "club_weight must be a number >= 0, got -1"


def test_a_knockout_request_wrong_in_every_field_is_refused_in_the_order_of_the_checks():
    request = {"system": "knockout", "round": 2, "rounds": 3, "table_size": 3, "min_table_size": 4,
               "players": PLAYERS, "previous_round": [{"players": ["p001", "p002", "p003", "p004"]}],
               "tables": [["p001"]], "fixed_seats": [], "club_weight": 1}
    assert refusals(request) == [
        ("rounds", "rounds_not_allowed"), ("min_table_size", "bad_min_table_size"),
        ("table_size", "knockout_needs_four"), ("seed", "missing_seed"),
        ("previous_round[0]", "missing_placing"), ("tables", "tables_not_allowed"),
        ("fixed_seats", "league_only"), ("club_weight", "league_only"),
    ]
    assert messages(request)[:4] == [
        "rounds (a whole season) is only for the league system; give round instead",
        "min_table_size (4) is larger than table_size (3)",
        "the knock-out system seats four at a table, two go through (Tarok.net rules §4.1 a)",
        "the knockout system draws, so it needs a whole-number seed",
    ]


def test_a_league_round_when_given_is_a_whole_number_from_one():
    assert refusals({"system": "league", "rounds": 2, "round": 0, "seed": 1, "players": PLAYERS}) == [
        ("round", "bad_round")]


def test_a_drawing_system_needs_a_seed():
    assert messages({"system": "random", "round": 1, "players": PLAYERS}) == [
        "the random system draws, so it needs a whole-number seed"]


def test_the_first_round_of_a_knockout_takes_no_previous_round():
    request = {"system": "knockout", "round": 1, "seed": 1, "players": PLAYERS,
               "previous_round": [{"players": ["p001", "p002", "p003", "p004"]}]}
    assert refusals(request) == [("previous_round", "previous_round_in_first_round"),
                                 ("previous_round[0]", "missing_placing")]


def test_the_fixed_system_needs_its_tables_and_checks_each():
    assert refusals({"system": "fixed", "round": 1, "players": PLAYERS}) == [("tables", "missing_tables")]
    request = {"system": "fixed", "round": 1, "players": PLAYERS,
               "tables": [["p001", "p002", "p003", "p004"], "x", ["p005", 7]]}
    assert refusals(request) == [("tables[1]", "not_a_list"), ("tables[2][1]", "bad_player_id")]


def test_other_systems_take_neither_tables_nor_the_league_fields():
    request = {"system": "random", "round": 1, "seed": 2, "players": PLAYERS, "tables": [["p001"]],
               "absences": [], "club_weight": 2}
    assert refusals(request) == [("tables", "tables_not_allowed"), ("absences", "league_only"),
                                 ("club_weight", "league_only")]


def test_an_unknown_system_leaves_out_every_check_that_depends_on_it():
    request = {"system": "swiss", "round": 0, "rounds": 5, "tables": 1, "absences": 1, "players": PLAYERS}
    assert refusals(request) == [("system", "unknown_system")]
    assert refusals([1]) == [("request", "not_an_object")]
