"""The worked examples of the seeds, each with its clause, and the exact shapes the systems
promise (seed 000 §4.1 a and b, seed 002 §4.2, seed 001 on seating)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from tests.tournaments.seating.tournament_generator import player_ids
from tournaments.seating import SeatingInvalid, seat_round
from tournaments.seating.checker import check_seating
from tournaments.seating.points import table_points


def everyone(count):
    return [{"id": p} for p in player_ids(count)]


# --- seed 000 §4.1 a: "prijavilo se je 72 igralcev; najbližje tekmovalno število je 64; izpasti
# mora 8 igralcev, kar pomeni, da je potrebno izžrebat 16 igralcev, ki bodo odigrali predtekmovanje"

def test_72_registered_give_a_pre_competition_of_16_players():
    request = {"system": "knockout", "round": 1, "seed": 72, "players": everyone(72)}
    result = seat_round(request)
    assert [len(t) for t in result["tables"]] == [4, 4, 4, 4]
    assert len(result["byes"]) == 56
    assert result["eliminated"] == []
    assert check_seating(request, result) == []

    previous = [{"players": t, "placing": t} for t in result["tables"]]
    second = {"system": "knockout", "round": 2, "seed": 73, "players": everyone(72),
              "previous_round": previous, "history": [result["tables"]]}
    main = seat_round(second)
    assert len(main["tables"]) == 16 and all(len(t) == 4 for t in main["tables"])
    assert len(main["eliminated"]) == 8
    assert sorted(main["eliminated"]) == sorted(p for t in result["tables"] for p in t[2:])
    assert check_seating(second, main) == []


@pytest.mark.parametrize("count, sizes, byes", [(4, [4], 0), (8, [4, 4], 0), (6, [4], 2), (5, [3], 2),
                                                (7, [4, 3], 0), (12, [4, 4], 4), (73, [4, 4, 4, 4, 3], 54)])
def test_pre_competition_sizes(count, sizes, byes):
    request = {"system": "knockout", "round": 1, "seed": 1, "players": everyone(count)}
    result = seat_round(request)
    assert [len(t) for t in result["tables"]] == sizes
    assert len(result["byes"]) == byes
    assert check_seating(request, result) == []


# --- seed 000 §4.1 a: "prvo mizo sestavljajo prva dva zmagovalca iz polovice A in prva dva drugo
# uvrščena iz polovice B, drugo mizo sestavljajo prva dva drugo uvrščena iz polovice A in prva dva
# zmagovalca iz B polovice, tretjo mizo ... naslednja dva zmagovalca iz A polovice in naslednja
# dva drugo uvrščena iz B polovice, itd."

def test_halves_rule_for_eight_tables():
    tables = [[f"w{t}", f"s{t}", f"x{t}", f"y{t}"] for t in range(1, 9)]
    previous = [{"players": t, "placing": t} for t in tables]
    request = {"system": "knockout", "round": 3, "seed": 1, "previous_round": previous,
               "players": [{"id": p} for t in tables for p in t]}
    result = seat_round(request)
    assert result["tables"] == [
        ["w1", "w2", "s5", "s6"],
        ["s1", "s2", "w5", "w6"],
        ["w3", "w4", "s7", "s8"],
        ["s3", "s4", "w7", "w8"],
    ]
    assert sorted(result["eliminated"]) == sorted(p for t in tables for p in t[2:])
    assert check_seating(request, result) == []


def test_halves_rule_for_four_tables_and_the_final():
    tables = [[f"w{t}", f"s{t}", f"x{t}", f"y{t}"] for t in range(1, 5)]
    previous = [{"players": t, "placing": list(reversed(t))} for t in tables]
    request = {"system": "knockout", "round": 2, "seed": 1, "previous_round": previous,
               "players": [{"id": p} for t in tables for p in t]}
    result = seat_round(request)
    # the placing is reversed: y is the winner, x the second
    assert result["tables"] == [["y1", "y2", "x3", "x4"], ["x1", "x2", "y3", "y4"]]
    final_previous = [{"players": t, "placing": t} for t in result["tables"]]
    final_request = dict(request, round=3, previous_round=final_previous, history=[tables])
    final = seat_round(final_request)
    # "Ko ostanejo le štirje igralci, je finalna igra."
    assert final["tables"] == [["y1", "y2", "x1", "x2"]]
    assert any(note["code"] == "knockout_final" for note in final["notes"])
    assert check_seating(final_request, final) == []


def test_knockout_totals_with_a_tie_are_decided_by_the_seeded_draw_and_noted():
    previous = [{"players": ["a", "b", "c", "d"], "totals": {"a": 90, "b": 40, "c": 40, "d": -20}},
                {"players": ["e", "f", "g", "h"], "totals": {"e": 10, "f": 70, "g": 0, "h": 5}}]
    request = {"system": "knockout", "round": 2, "seed": 9, "previous_round": previous,
               "players": [{"id": p} for p in "abcdefgh"]}
    result = seat_round(request)
    finalists = set(result["tables"][0])
    assert {"a", "f", "e"} <= finalists and len(finalists & {"b", "c"}) == 1
    assert any(note["code"] == "knockout_tie" for note in result["notes"])
    assert check_seating(request, result) == []
    assert result == seat_round(request)


# --- seed 000 §4.1 b: "Zmagovalec mize dobi 4 točke, drugi 3 točke, tretji 2 točki in četrti 1 točko."

def test_table_points_of_a_full_table():
    assert table_points(["a", "b", "c", "d"], 4) == {"a": 4, "b": 3, "c": 2, "d": 1}


# "prijavilo se je 41 tekmovalcev --> za 11. mizo je en sam tekmovalec), se točke zmanjšajo za
# 0.333 za vsakega manjkajočega igralca (npr., če je sam: 4 – (0.333+0.333+0.333) = 3)"

def test_41_players_put_one_player_at_the_eleventh_table():
    request = {"system": "points", "round": 1, "seed": 41, "min_table_size": 1, "players": everyone(41)}
    result = seat_round(request)
    assert [len(t) for t in result["tables"]] == [4] * 10 + [1]
    assert "table 11 has 1 players: 41 is not a multiple of 4" in [n["text"] for n in result["notes"]]
    assert check_seating(request, result) == []


def test_the_lone_player_scores_4_minus_three_deductions():
    # the default, the exact third, gives the seed's stated result "= 3"
    assert table_points(["alone"], 4) == {"alone": Fraction(3)}
    # the option "0.333", the number the seed writes taken literally: 4 - 0.999
    assert table_points(["alone"], 4, missing_seat_deduction="0.333") == {"alone": Fraction("3.001")}


def test_a_table_of_three_loses_one_deduction_each():
    assert table_points(["a", "b", "c"], 4) == {
        "a": Fraction(11, 3), "b": Fraction(8, 3), "c": Fraction(5, 3)}
    assert table_points(["a", "b", "c"], 4, missing_seat_deduction="0.333") == {
        "a": Fraction("3.667"), "b": Fraction("2.667"), "c": Fraction("1.667")}


def test_41_players_with_tables_of_three_allowed():
    request = {"system": "points", "round": 1, "seed": 41, "players": everyone(41)}
    result = seat_round(request)
    assert [len(t) for t in result["tables"]] == [4] * 8 + [3] * 3


# "Organizator lahko k osnovnim točkam po vnaprej izdelani formuli pripisuje še točke za razlike"

def test_extra_points_for_the_score_difference():
    # 0.25 points per 100 of score above the table's mean (0 here), at most 0.5 either way
    formula = {"per": 100, "points": "0.25", "reference": "table_mean", "cap": "0.5"}
    points = table_points(["a", "b", "c", "d"], 4, extra=formula,
                          scores={"a": 300, "b": 100, "c": -100, "d": -300})
    assert points == {"a": Fraction(9, 2), "b": Fraction(13, 4), "c": Fraction(7, 4), "d": Fraction(1, 2)}
    below_last = table_points(["a", "b", "c"], 4, extra={"per": 50, "points": 1, "reference": "last_at_table"},
                              scores={"a": 100, "b": 25, "c": 0})
    assert below_last == {"a": Fraction(11, 3) + 2, "b": Fraction(8, 3) + Fraction(1, 2),
                          "c": Fraction(5, 3)}


def test_extra_points_formula_is_validated():
    with pytest.raises(SeatingInvalid) as caught:
        table_points(["a", "b"], 4, extra={"per": 0, "points": "x", "reference": "median"}, scores={})
    assert {e["field"] for e in caught.value.errors} == {"extra.per", "extra.points", "extra.reference"}


# "Naslednji krogi se formirajo avtomatsko in sicer tako, da se za 1. mizo zberejo tisti, ki imajo
# zbranih največ točk in so tekmovali v predhodnem krogu, za 2. mizo naslednji štirje, itd. Nato
# sledijo novo prijavljeni in nato glede na zbrane skupne točke tisti, ki v zadnjem krogu niso
# tekmovali."

def test_points_order_played_then_late_entries_then_absentees():
    players = [
        {"id": "absent-top", "points": 20, "score": 500, "played_last_round": False},
        {"id": "low", "points": 5, "score": 0, "played_last_round": True},
        {"id": "late", "new": True},
        {"id": "mid-better-score", "points": 8, "score": 120, "played_last_round": True},
        {"id": "mid", "points": 8, "score": 30, "played_last_round": True},
        {"id": "top", "points": 11, "score": -50, "played_last_round": True},
        {"id": "absent-low", "points": 3, "score": 0, "played_last_round": False},
        {"id": "second-low", "points": 6, "score": 0, "played_last_round": True},
    ]
    request = {"system": "points", "round": 3, "seed": 5, "players": players}
    result = seat_round(request)
    assert result["tables"] == [["top", "mid-better-score", "mid", "second-low"],
                                ["low", "late", "absent-top", "absent-low"]]
    assert check_seating(request, result) == []


def test_equal_points_and_score_are_decided_by_the_seeded_draw():
    players = [{"id": p, "points": 4, "score": 0, "played_last_round": True} for p in player_ids(8)]
    orders = set()
    for seed in range(12):
        result = seat_round({"system": "points", "round": 2, "seed": seed, "players": players})
        orders.add(tuple(result["tables"][0]))
        assert result == seat_round({"system": "points", "round": 2, "seed": seed, "players": players})
    assert len(orders) > 1


# --- seed 002 §4.2: "Ligo praviloma igra 28 ali 32 igralcev."

def pair_counts(rounds):
    counts = {}
    for tables in rounds:
        for table in tables:
            for a, b in combinations(sorted(table), 2):
                counts[a, b] = counts.get((a, b), 0) + 1
    return counts


def test_league_of_28_meets_every_pair_exactly_once_in_9_matchdays():
    request = {"system": "league", "rounds": 9, "seed": 2026, "players": everyone(28)}
    result = seat_round(request)
    counts = pair_counts(result["rounds"])
    assert len(counts) == 28 * 27 // 2 and set(counts.values()) == {1}
    assert result["repeat_pairs"] == 0
    assert all(len(day) == 7 and all(len(t) == 4 for t in day) for day in result["rounds"])
    assert check_seating(request, result) == []


def test_league_of_32_has_no_repeat_in_9_matchdays():
    request = {"system": "league", "rounds": 9, "seed": 2026, "players": everyone(32)}
    result = seat_round(request)
    assert result["repeat_pairs"] == 0
    assert max(pair_counts(result["rounds"]).values()) == 1
    assert check_seating(request, result) == []


def test_league_of_32_plays_10_matchdays_without_a_repeat():
    # the social golfer problem 8-4-10 (tests/tournaments/seating/test_league_optimum.py has them all)
    request = {"system": "league", "rounds": 10, "seed": 2026, "players": everyone(32)}
    result = seat_round(request)
    assert result["repeat_pairs"] == 0
    assert check_seating(request, result) == []


# --- seed 001: "Es entscheidet ein Zufallsgenerator." / "Es werden 3 Runden gespielt."

def test_three_random_rounds_of_a_cup_without_repeats():
    history = []
    for round_number in (1, 2, 3):
        request = {"system": "random", "round": round_number, "seed": 17 + round_number,
                   "players": everyone(40), "history": history}
        result = seat_round(request)
        assert result["repeat_pairs"] == 0
        assert check_seating(request, result) == []
        history = history + [result["tables"]]
    assert max(pair_counts(history).values()) == 1
