"""Bad requests are refused with SeatingInvalid naming every problem (field, player, code)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.seating.tournament_generator import player_ids
from tournaments.seating import SeatingInvalid, seat_round
from tournaments.seating.request import LARGEST_ROUNDS


def errors_of(request):
    with pytest.raises(SeatingInvalid) as caught:
        seat_round(request)
    return caught.value.errors


def test_every_problem_is_listed_at_once():
    errors = errors_of({"system": "points", "round": 0, "table_size": 1, "seed": "x",
                        "players": [{"id": "a"}, {"id": "a"}, {"id": ""}, "b"], "colour": "red"})
    codes = {(e["field"], e["code"]) for e in errors}
    assert codes == {("round", "bad_round"), ("table_size", "bad_table_size"), ("seed", "bad_seed"),
                     ("players[1].id", "duplicate_player"), ("players[2].id", "bad_player_id"),
                     ("players[3]", "not_an_object"), ("colour", "unknown_field")}
    duplicate = next(e for e in errors if e["code"] == "duplicate_player")
    assert duplicate["player"] == "a"
    assert all(set(e) == {"player", "field", "code", "message", "params"} for e in errors)
    # the params are plain values (the player named by the error among them), for the catalogues
    assert duplicate["params"] == {"player": "a"}
    assert json.loads(json.dumps([e["params"] for e in errors])) == [e["params"] for e in errors]


def test_unknown_system():
    assert [e["code"] for e in errors_of({"system": "swiss", "round": 1, "players": [{"id": "a"}]})] \
        == ["unknown_system"]


def test_min_table_size_above_table_size():
    errors = errors_of({"system": "random", "round": 1, "seed": 1, "table_size": 4, "min_table_size": 5,
                        "players": [{"id": p} for p in player_ids(8)]})
    assert [e["code"] for e in errors] == ["bad_min_table_size"]


def test_knockout_without_previous_round_after_the_first():
    errors = errors_of({"system": "knockout", "round": 2, "seed": 1,
                        "players": [{"id": p} for p in player_ids(8)]})
    assert [e["code"] for e in errors] == ["knockout_needs_previous_round"]


def test_knockout_previous_round_needs_placing_or_totals():
    errors = errors_of({"system": "knockout", "round": 2, "seed": 1,
                        "players": [{"id": p} for p in player_ids(8)],
                        "previous_round": [{"players": player_ids(8)[:4]},
                                           {"players": player_ids(8)[4:], "placing": player_ids(8)[:4]}]})
    assert [e["code"] for e in errors] == ["placing_mismatch", "missing_placing", "missing_placing"]


def test_knockout_needs_tables_of_four():
    errors = errors_of({"system": "knockout", "round": 1, "seed": 1, "table_size": 5,
                        "players": [{"id": p} for p in player_ids(8)]})
    assert [e["code"] for e in errors] == ["knockout_needs_four"]


def test_knockout_field_that_is_not_a_main_draw_size():
    ids = player_ids(8)
    previous = [{"players": ids[:4], "placing": ids[:4]}, {"players": ids[4:], "placing": ids[4:]}]
    errors = errors_of({"system": "knockout", "round": 2, "seed": 1, "previous_round": previous,
                        "players": [{"id": p} for p in ids + ["late"]]})
    assert [e["code"] for e in errors] == ["field_not_main_draw_size"]


def test_after_the_final_there_is_no_next_round():
    ids = player_ids(4)
    errors = errors_of({"system": "knockout", "round": 5, "seed": 1,
                        "previous_round": [{"players": ids, "placing": ids}],
                        "players": [{"id": p} for p in ids]})
    assert [e["code"] for e in errors] == ["final_played"]


def test_points_system_needs_standings_from_round_two():
    errors = errors_of({"system": "points", "round": 2, "seed": 1,
                        "players": [{"id": "a", "points": 3}, {"id": "b", "new": True},
                                    {"id": "c", "points": 1, "score": 0, "played_last_round": True}]})
    assert [(e["field"], e["player"]) for e in errors] == [("players[0].score", "a"),
                                                            ("players[0].played_last_round", "a")]


def test_late_entry_cannot_have_played_the_last_round():
    errors = errors_of({"system": "points", "round": 2, "seed": 1,
                        "players": [{"id": "a", "new": True, "played_last_round": True}]})
    assert [e["code"] for e in errors] == ["late_entry_played"]


@pytest.mark.parametrize("count", [1, 2, 5])
def test_counts_that_cannot_be_seated_at_three_or_four(count):
    errors = errors_of({"system": "random", "round": 1, "seed": 1,
                        "players": [{"id": p} for p in player_ids(count)]})
    assert [e["code"] for e in errors] == ["cannot_seat"]


def test_fixed_lists_are_checked():
    errors = errors_of({"system": "fixed", "round": 1, "players": [{"id": p} for p in "abcdefg"],
                        "tables": [["a", "b", "c", "d", "e"], ["f", "x"], ["a"]]})
    codes = [(e["code"], e["player"]) for e in errors]
    assert ("bad_table_size", None) in codes
    assert ("unknown_player", "x") in codes
    assert ("duplicate_player", "a") in codes
    assert ("player_not_seated", "g") in codes


def test_league_needs_rounds_and_others_refuse_them():
    assert [e["code"] for e in errors_of({"system": "league", "seed": 1, "players": [{"id": "a"}]})] \
        == ["bad_rounds"]
    assert [e["code"] for e in errors_of({"system": "random", "round": 1, "rounds": 3, "seed": 1,
                                          "players": [{"id": p} for p in "abcd"]})] == ["rounds_not_allowed"]


def test_a_league_of_more_matchdays_than_a_season_can_have_is_refused_at_once():
    """The fuzzer found a league asked for 10**18 matchdays: the engine set out to schedule
    them all. A season has at most LARGEST_ROUNDS matchdays, and the refusal says so."""
    players = [{"id": p} for p in player_ids(12)]
    for rounds in (LARGEST_ROUNDS + 1, 10**18):
        errors = errors_of({"system": "league", "rounds": rounds, "seed": 1, "players": players})
        assert [(e["code"], e["params"]) for e in errors] == [("bad_rounds", {"largest": LARGEST_ROUNDS})]
    assert len(seat_round({"system": "league", "rounds": 3, "seed": 1, "players": players})["rounds"]) == 3


def test_history_must_be_rounds_of_tables():
    errors = errors_of({"system": "random", "round": 2, "seed": 1, "players": [{"id": p} for p in "abcd"],
                        "history": [[["a", "b"], ["b", 7]], "x"]})
    assert [e["code"] for e in errors] == ["bad_player_id", "not_a_list"]


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["system", "round", "rounds", "seed", "players", "id", "history",
                                         "previous_round", "tables", "placing", "table_size",
                                         "min_table_size", "points", "new"]), inner, max_size=6),
                    max_leaves=20))
def test_garbage_never_crashes(garbage):
    try:
        seat_round(garbage)
    except SeatingInvalid as refused:
        assert refused.errors
