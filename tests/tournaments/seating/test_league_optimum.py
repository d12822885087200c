"""League schedules at the combinatorial optimum (issue #16): every row of the issue's table
reaches its "possible" column, the constructions are what they claim, repeats past the
no-repeat limit are spread evenly, the bound of a field is structured data, and the wishes
of real leagues (absentees, officials' fixed tables, home clubs) are kept."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.seating import SeatingInvalid, seat_round
from tournaments.seating.bounds import no_repeat_bound
from tournaments.seating.checker import check_seating, pair_counts
from tournaments.seating.designs import FAMILIES, construction, full_design

ISSUE_TABLE = [(16, 5), (28, 9), (32, 10), (40, 13), (52, 17), (24, 7), (36, 11)]


def league(count: int, rounds: int, seed: int = 2026, **extra) -> dict:
    return {"system": "league", "rounds": rounds, "seed": seed,
            "players": [{"id": f"p{i:02d}"} for i in range(count)], **extra}


@pytest.mark.parametrize(("count", "rounds"), ISSUE_TABLE)
def test_every_row_of_the_issue_table_plays_without_a_repeat(count, rounds):
    request = league(count, rounds)
    result = seat_round(request)
    assert result["repeat_pairs"] == 0
    assert max(pair_counts(result["rounds"]).values()) == 1
    assert check_seating(request, result) == []
    assert result["bound"]["params"]["known"] == rounds == result["bound"]["params"]["upper"]
    assert result["distance"]["params"]["clean"] == rounds


@pytest.mark.parametrize(("count", "rounds"), [(28, 9), (32, 10), (40, 13), (52, 17)])
def test_a_league_of_fours_only_gets_its_design_too(count, rounds):
    """Issue #34: with every table of four asked for (`min_table_size` 4), a field that is a
    multiple of four still plays its design: 0 repeats, as with a smallest table of 3 (the
    engine drew these seasons and met 25, 26, 46 and 80 pairs again)."""
    request = league(count, rounds, min_table_size=4)
    result = seat_round(request)
    assert result["repeat_pairs"] == 0
    assert all(len(t) == 4 for day in result["rounds"] for t in day)
    assert check_seating(request, result) == []


def test_a_design_with_tables_of_three_is_not_used_where_four_are_asked():
    # 30 players cannot all sit at fours; 29 of a 32-design leave tables of three, which a
    # smallest table of 4 refuses: the engine seats the field without the design.
    matchdays, _source, missing = construction(29)
    assert missing == 3 and min(len(t) for day in matchdays for t in day) == 3
    with pytest.raises(SeatingInvalid):
        seat_round(league(30, 9, min_table_size=4))


@pytest.mark.parametrize("count", sorted(FAMILIES) + [32])
def test_each_construction_seats_everyone_and_never_repeats_a_pair(count):
    design = full_design(count)
    counts = pair_counts(design)
    assert max(counts.values()) == 1
    assert all(sorted(p for t in day for p in t) == list(range(count)) for day in design)
    kind = FAMILIES[count].kind if count in FAMILIES else "published"
    if kind == "rbibd":  # every pair exactly once over (v - 1)/3 matchdays
        assert len(design) == (count - 1) // 3 and len(counts) == count * (count - 1) // 2
    elif kind == "rgdd":  # every pair but the groups of three
        assert len(design) == (count - 3) // 3 and len(counts) == count * (count - 1) // 2 - count
    elif kind == "rtd":  # four groups of q: every pair of different groups once
        q = count // 4
        assert len(design) == q and len(counts) == count * (count - 1) // 2 - 4 * q * (q - 1) // 2
    elif kind == "published":  # 8-4-10: only the pairs A-a, B-b, ... never meet
        assert len(design) == 10 and len(counts) == 496 - 16


def test_fields_short_of_a_multiple_of_four_leave_out_players_who_never_meet():
    for count in (21, 22, 23, 33, 41, 45, 57):
        matchdays, _source, missing = construction(count)
        full, _s, _m = construction(count + missing)
        assert len(matchdays) == len(full) and missing == 4 * -(-count // 4) - count
        assert all(sorted(len(t) for t in day) == sorted([4] * (len(day) - missing) + [3] * missing)
                   for day in matchdays)
        assert max(pair_counts(matchdays).values()) == 1


def test_the_bound_is_structured_data_with_english_text():
    bound = no_repeat_bound(32)
    assert bound["code"] == "no_repeat_bound"
    assert bound["params"] == {"players": 32, "upper": 10, "known": 10, "source": "published"}
    assert bound["text"].startswith("32 players: at most 10 matchdays without any pair meeting twice")
    assert no_repeat_bound(12)["params"]["upper"] == 1  # three tables of four: pigeonhole
    assert no_repeat_bound(20)["params"] == {"players": 20, "upper": 6, "known": 5, "source": "rtd"}
    assert no_repeat_bound(17)["params"]["known"] == 5  # the 20-player design without three of a group
    assert no_repeat_bound(54)["params"]["known"] is None


def test_past_the_limit_no_pair_meets_three_times_before_all_have_met_twice():
    request = league(16, 10)
    result = seat_round(request)
    counts = pair_counts(result["rounds"])
    # two copies of the resolvable design: every pair exactly twice
    assert set(counts.values()) == {2} and len(counts) == 120
    assert result["distance"]["params"] == {"matchdays": 10, "clean": 5, "repeats": 120, "floor": 120, "most": 2}
    request = league(28, 10)
    result = seat_round(request)
    assert result["repeat_pairs"] == 42 and max(pair_counts(result["rounds"]).values()) == 2
    assert check_seating(request, result) == []


def test_an_absent_player_is_not_seated_that_matchday_and_the_tables_fit_those_present():
    request = league(28, 9, absences=[{"matchday": 2, "players": ["p03", "p07"]},
                                      {"matchday": 5, "players": ["p11"]}])
    result = seat_round(request)
    assert check_seating(request, result) == []
    seated = [{p for t in day for p in t} for day in result["rounds"]]
    assert "p03" not in seated[1] and "p07" not in seated[1] and len(seated[1]) == 26
    assert "p11" not in seated[4] and len(seated[4]) == 27
    assert sorted(len(t) for t in result["rounds"][1]) == [3, 3, 4, 4, 4, 4, 4]
    assert result["repeat_pairs"] <= 6
    # one absentee a matchday only shortens a table of the design: still no repeat
    request = league(28, 9, absences=[{"matchday": n, "players": [f"p{n:02d}"]} for n in range(1, 10)])
    result = seat_round(request)
    assert check_seating(request, result) == [] and result["repeat_pairs"] == 0
    # the checker refuses a schedule that seats an absentee
    broken = dict(result, rounds=[list(map(list, day)) for day in result["rounds"]])
    broken["rounds"][4] = seat_round(league(28, 9))["rounds"][4]
    assert any(v["code"] == "unknown_player" for v in check_seating(request, broken))


def test_officials_keep_their_table_and_the_checker_notices_a_move():
    request = league(32, 6, fixed_seats=[{"player": "p00", "table": 1}, {"player": "p01", "table": 2},
                                         {"player": "p02", "table": 1, "matchdays": [3]}])
    result = seat_round(request)
    assert check_seating(request, result) == []
    assert all("p00" in day[0] and "p01" in day[1] for day in result["rounds"])
    assert "p02" in result["rounds"][2][0]
    moved = [list(map(list, day)) for day in result["rounds"]]
    first, second = moved[0][0], moved[0][1]
    first[first.index("p00")], second[second.index("p01")] = "p01", "p00"
    codes = {v["code"] for v in check_seating(request, dict(result, rounds=moved))}
    assert "fixed_seat_moved" in codes
    # officials at different tables of the design keep it: no repeat for them
    request = league(32, 10, fixed_seats=[{"player": "p00", "table": 1}])
    result = seat_round(request)
    assert check_seating(request, result) == [] and result["repeat_pairs"] == 0
    assert all("p00" in day[0] for day in result["rounds"])


def test_players_of_one_club_are_kept_apart_when_the_wish_weighs():
    players = [{"id": f"p{i:02d}", "club": f"club{i // 2}"} for i in range(20)]
    request = {"system": "league", "rounds": 4, "seed": 7, "players": players}
    result = seat_round(request)
    assert check_seating(request, result) == []
    together = sum(1 for day in result["rounds"] for t in day for a, b in combinations(t, 2)
                   if a[:-1] == b[:-1] and int(a[1:]) // 2 == int(b[1:]) // 2)
    assert together == 0 and result["repeat_pairs"] == 0
    ignored = seat_round(dict(request, club_weight=0))
    assert check_seating(dict(request, club_weight=0), ignored) == []


@pytest.mark.parametrize(("extra", "code"), [
    ({"absences": [{"matchday": 9, "players": ["p01"]}]}, "bad_matchday"),
    ({"absences": [{"matchday": 1, "players": ["nobody"]}]}, "unknown_player"),
    ({"fixed_seats": [{"player": "p01", "table": 0}]}, "bad_table"),
    ({"fixed_seats": [{"player": "p01", "table": 1}], "absences": [{"matchday": 2, "players": ["p01"]}]},
     "fixed_player_absent"),
    ({"fixed_seats": [{"player": "p01", "table": 9}]}, "no_such_table"),
    ({"fixed_seats": [{"player": f"p0{i}", "table": 1} for i in range(5)]}, "table_overfull"),
    ({"club_weight": -1}, "bad_club_weight"),
])
def test_bad_wishes_are_refused_naming_the_field(extra, code):
    with pytest.raises(SeatingInvalid) as refused:
        seat_round(league(16, 3, **extra))
    assert code in {e["code"] for e in refused.value.errors}


def test_league_wishes_are_refused_outside_the_league():
    with pytest.raises(SeatingInvalid) as refused:
        seat_round({"system": "random", "round": 1, "seed": 1, "players": [{"id": str(i)} for i in range(8)],
                    "absences": []})
    assert [e["code"] for e in refused.value.errors] == ["league_only"]


def test_notes_are_codes_with_params_and_text():
    result = seat_round(league(30, 4))
    assert all(set(n) == {"code", "params", "text"} for n in result["notes"])
    codes = Counter(n["code"] for n in result["notes"])
    assert codes["short_table"] == 8 and codes["no_repeat_bound"] == 1  # two tables of three a matchday
    assert [n["params"]["matchday"] for n in result["notes"] if n["code"] == "short_table"] == [1, 1, 2, 2, 3, 3, 4, 4]
