"""The checker refuses broken rounds: each test breaks one rule of a valid result and
expects the violation code that names it."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.seating.tournament_generator import (
    play_knockout,
    player_ids,
    points_requests,
    random_requests,
)
from tournaments.seating import SeatingInvalid, seat_round
from tournaments.seating.checker import check_seating


def codes(request, result):
    return {v["code"] for v in check_seating(request, result)}


def seated(request):
    return seat_round(request), copy.deepcopy(request)


@settings(max_examples=40, deadline=None)
@given(st.one_of(random_requests(), points_requests()), st.data())
def test_a_player_seated_twice_is_refused(request, data):
    result = seat_round(request)
    tables = result["tables"]
    if len(tables) < 2:
        return
    i = data.draw(st.integers(0, len(tables) - 1))
    j = data.draw(st.integers(0, len(tables) - 1).filter(lambda x: x != i))
    broken = copy.deepcopy(result)
    broken["tables"][j][0] = tables[i][0]
    found = codes(request, broken)
    assert "seated_twice" in found and "player_missing" in found


@settings(max_examples=40, deadline=None)
@given(st.one_of(random_requests(), points_requests()), st.data())
def test_a_missing_player_is_refused(request, data):
    result = seat_round(request)
    broken = copy.deepcopy(result)
    table = data.draw(st.integers(0, len(broken["tables"]) - 1))
    gone = broken["tables"][table].pop()
    found = check_seating(request, broken)
    assert any(v["code"] == "player_missing" and v["player"] == gone for v in found)


def test_a_table_of_five_is_refused():
    request = {"system": "random", "round": 1, "seed": 1, "players": [{"id": p} for p in player_ids(12)]}
    result = seat_round(request)
    result["tables"][0].append(result["tables"][1].pop())
    assert {"table_too_big", "table_too_small"} >= codes(request, result) - {"not_swap_optimal"}
    assert "table_too_big" in codes(request, result)


def test_a_table_of_two_is_refused():
    request = {"system": "points", "round": 1, "seed": 1, "players": [{"id": p} for p in player_ids(10)]}
    result = seat_round(request)
    assert [len(t) for t in result["tables"]] == [4, 3, 3]
    result["tables"][0].append(result["tables"][2].pop())
    assert "table_too_small" in codes(request, result)
    assert "table_too_big" in codes(request, result)


def test_more_tables_than_needed_are_refused():
    request = {"system": "random", "round": 1, "seed": 1, "players": [{"id": p} for p in player_ids(12)]}
    result = seat_round(request)
    flat = [p for t in result["tables"] for p in t]
    result["tables"] = [flat[0:3], flat[3:6], flat[6:9], flat[9:12]]
    assert "too_many_tables" in codes(request, result)


def test_an_unknown_player_is_refused():
    request = {"system": "random", "round": 1, "seed": 1, "players": [{"id": p} for p in player_ids(8)]}
    result = seat_round(request)
    result["tables"][0][0] = "stranger"
    assert {"unknown_player", "player_missing"} <= codes(request, result)


def standings_request():
    players = [{"id": f"s{i}", "points": float(12 - i), "score": 0, "played_last_round": True}
               for i in range(8)]
    return {"system": "points", "round": 2, "seed": 7, "players": players}


def test_points_order_is_enforced():
    request = standings_request()
    result = seat_round(request)
    assert result["tables"] == [["s0", "s1", "s2", "s3"], ["s4", "s5", "s6", "s7"]]
    assert check_seating(request, result) == []
    broken = copy.deepcopy(result)
    broken["tables"][0][3], broken["tables"][1][0] = broken["tables"][1][0], broken["tables"][0][3]
    found = check_seating(request, broken)
    assert [v["code"] for v in found] == ["points_order"]
    assert found[0]["table"] == 2


def test_seat_order_inside_a_table_is_free_in_the_points_system():
    request = standings_request()
    result = seat_round(request)
    result["tables"][0].reverse()
    assert check_seating(request, result) == []


def test_a_short_table_before_a_full_one_is_refused_in_the_points_system():
    request = {"system": "points", "round": 1, "seed": 2, "players": [{"id": p} for p in player_ids(7)]}
    result = seat_round(request)
    result["tables"].reverse()
    assert "short_table_not_last" in codes(request, result)


@settings(max_examples=40, deadline=None)
@given(points_requests(), st.data())
def test_moving_a_better_player_down_is_refused(request, data):
    if request["round"] == 1:
        return
    result = seat_round(request)
    tables = result["tables"]
    keyed = {p["id"]: p for p in request["players"]}

    def rank(player_id):
        entry = keyed[player_id]
        if entry.get("new"):
            return (1, 0, 0)
        return (0 if entry["played_last_round"] else 2, -entry["points"], -entry["score"])

    pairs = [(i, a, j, b) for i in range(len(tables)) for j in range(i + 1, len(tables))
             for a in tables[i] for b in tables[j] if rank(a) < rank(b)]
    if not pairs:
        return
    i, a, j, b = data.draw(st.sampled_from(pairs))
    broken = copy.deepcopy(result)
    broken["tables"][i][broken["tables"][i].index(a)] = b
    broken["tables"][j][broken["tables"][j].index(b)] = a
    assert "points_order" in codes(request, broken)


def test_wrong_repeat_count_is_refused():
    ids = player_ids(8)
    request = {"system": "points", "round": 1, "seed": 3, "players": [{"id": p} for p in ids],
               "history": [[ids[:4], ids[4:]]]}
    result = seat_round(request)
    assert check_seating(request, result) == []
    result["repeat_pairs"] += 1
    assert codes(request, result) == {"repeat_pairs_wrong"}


def test_random_round_that_a_swap_would_improve_is_refused():
    ids = player_ids(8)
    history = [[ids[:4], ids[4:]]]
    request = {"system": "random", "round": 2, "seed": 3, "players": [{"id": p} for p in ids],
               "history": history}
    result = seat_round(request)
    assert check_seating(request, result) == []
    # Seating round 1 again repeats all twelve pairs, which swaps can avoid.
    repeated = {"tables": [ids[:4], ids[4:]], "byes": [], "eliminated": [], "repeat_pairs": 12, "notes": []}
    assert codes(request, repeated) == {"not_swap_optimal"}


def test_fixed_tables_must_come_back_unchanged():
    ids = player_ids(8)
    request = {"system": "fixed", "round": 1, "players": [{"id": p} for p in ids],
               "tables": [ids[:4], ids[4:]]}
    result = seat_round(request)
    result["tables"] = [ids[4:], ids[:4]]
    assert codes(request, result) == {"fixed_changed"}


def test_byes_are_refused_where_the_system_seats_everyone():
    ids = player_ids(9)
    request = {"system": "random", "round": 1, "seed": 1, "players": [{"id": p} for p in ids]}
    result = seat_round(request)
    bye = result["tables"][0].pop()
    result["byes"] = [bye]
    assert "unexpected_bye" in codes(request, result)


def knockout_rounds(count, seed=11):
    return list(play_knockout(count, seed))


def test_knockout_pairs_meeting_again_are_refused():
    rounds = knockout_rounds(64)
    request, result = rounds[2]  # second main-draw round: built by the halves rule
    assert result["notes"][-1]["code"] == "knockout_halves"
    assert check_seating(request, result) == []
    table_of = {p: i for i, t in enumerate(request["previous_round"]) for p in t["players"]}
    broken = copy.deepcopy(result)
    # Put both players who went through from previous table 1 at the same new table.
    first_table = request["previous_round"][0]["placing"][:2]
    a, b = first_table
    ta = next(i for i, t in enumerate(broken["tables"]) if a in t)
    tb = next(i for i, t in enumerate(broken["tables"]) if b in t)
    victim = next(p for p in broken["tables"][ta] if table_of[p] != 0)
    broken["tables"][ta][broken["tables"][ta].index(victim)] = b
    broken["tables"][tb][broken["tables"][tb].index(b)] = victim
    found = codes(request, broken)
    assert "met_again" in found and "halves_rule" in found


def test_knockout_seating_an_eliminated_player_is_refused():
    request, result = knockout_rounds(16)[1]
    loser = request["previous_round"][0]["placing"][3]
    broken = copy.deepcopy(result)
    swapped_out = broken["tables"][0][0]
    broken["tables"][0][0] = loser
    broken["eliminated"] = [loser if p == loser else p for p in broken["eliminated"] if p != loser] + [swapped_out]
    found = codes(request, broken)
    assert "eliminated_player_seated" in found and "halves_rule" in found
    # Leaving the eliminated list as it was is a second, separate mistake.
    broken["eliminated"] = result["eliminated"]
    assert "eliminated_list" in codes(request, broken)


def test_knockout_pre_competition_of_the_wrong_size_is_refused():
    request, result = knockout_rounds(72)[0]
    assert len(result["tables"]) == 4 and len(result["byes"]) == 56
    broken = copy.deepcopy(result)
    broken["byes"].extend(broken["tables"].pop())
    assert "knockout_draw_size" in codes(request, broken)


def test_league_repeat_where_a_perfect_schedule_exists_is_refused():
    request = {"system": "league", "rounds": 9, "seed": 5, "players": [{"id": p} for p in player_ids(28)]}
    result = seat_round(request)
    assert result["repeat_pairs"] == 0 and check_seating(request, result) == []
    broken = copy.deepcopy(result)
    day = broken["rounds"][4]
    day[0][0], day[1][0] = day[1][0], day[0][0]
    broken["repeat_pairs"] = 6
    found = codes(request, broken)
    assert "known_schedule_missed" in found and "not_swap_optimal" in found


def test_league_matchday_missing_a_player_is_refused():
    request = {"system": "league", "rounds": 3, "seed": 5, "players": [{"id": p} for p in player_ids(12)]}
    result = seat_round(request)
    result["rounds"][1][0].pop()
    found = check_seating(request, result)
    assert any(v["code"] == "player_missing" and v["matchday"] == 2 for v in found)


@pytest.mark.parametrize("result", [None, [], {"tables": "x"}, {"tables": [[1, 2]]},
                                    {"tables": [], "byes": "p1"}, {"rounds": 3}])
def test_malformed_results_are_reported_not_crashed_on(result):
    request = {"system": "random", "round": 1, "seed": 1, "players": [{"id": p} for p in player_ids(8)]}
    found = check_seating(request, result)
    assert found and all(isinstance(v["message"], str) for v in found)


@pytest.mark.parametrize("request_", [None, {}, {"system": "nope"}, {"system": "points", "players": []},
                                      {"system": "random", "players": [{"id": 3}]}])
def test_malformed_requests_are_reported_not_crashed_on(request_):
    assert [v["code"] for v in check_seating(request_, {"tables": []})] == ["request_invalid"]


garbage = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["system", "round", "rounds", "players", "id", "history", "previous_round",
                         "tables", "placing", "totals", "byes", "eliminated", "repeat_pairs", "notes"]),
        inner, max_size=6),
    max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(garbage, garbage)
def test_the_checker_never_crashes_on_garbage(request, result):
    found = check_seating(request, result)
    assert isinstance(found, list) and all("code" in v and "message" in v for v in found)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["random", "points", "knockout", "fixed", "league"]), garbage)
def test_the_checker_never_crashes_on_a_garbage_result(system, result):
    request = {"system": system, "round": 2, "rounds": 2, "seed": 1,
               "players": [{"id": p, "points": 1, "score": 0} for p in player_ids(8)],
               "previous_round": [{"players": player_ids(8)[:4], "placing": player_ids(8)[:4]},
                                  {"players": player_ids(8)[4:], "totals": {p: 1 for p in player_ids(8)[4:]}}],
               "tables": [player_ids(8)[:4], player_ids(8)[4:]]}
    found = check_seating(request, result)
    assert isinstance(found, list)


def _nodes(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _nodes(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nodes(item, path + (index,))


def _replaced(value, path, new):
    if not path:
        return new
    copied = copy.copy(value)
    copied[path[0]] = _replaced(value[path[0]], path[1:], new)
    return copied


def _valid_pairs():
    pairs = [pair for pair in play_knockout(20, 4, use_totals=True)][:2]
    pairs.append(next(iter(play_knockout(16, 3))))
    league = {"system": "league", "rounds": 2, "seed": 1, "players": [{"id": p} for p in player_ids(9)]}
    pairs.append((league, seat_round(league)))
    points = {"system": "points", "round": 2, "seed": 1, "history": [[player_ids(4)]],
              "players": [{"id": p, "points": 1, "score": 2, "played_last_round": True} for p in player_ids(7)]}
    pairs.append((points, seat_round(points)))
    return pairs


VALID_PAIRS = _valid_pairs()


@settings(max_examples=300, deadline=None)
@given(st.data(), garbage)
def test_one_corrupted_value_anywhere_is_reported_not_crashed_on(data, replacement):
    request, result = data.draw(st.sampled_from(VALID_PAIRS))
    in_request = data.draw(st.booleans())
    target = request if in_request else result
    path = data.draw(st.sampled_from(list(_nodes(target))))
    corrupted = _replaced(target, path, replacement)
    found = check_seating(corrupted, result) if in_request else check_seating(request, corrupted)
    assert isinstance(found, list)
    if in_request:
        try:
            seat_round(corrupted)
        except SeatingInvalid:
            pass
