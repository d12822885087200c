"""The options of the ruleset `steirischer-tarockcup-2017` added for issue #34 (seed
001_7e38f3a78edb814f.txt): each value of each option through the public `scoring.evaluate`.
Players A, B, C, D sit in this order; every expected number is worked out by hand."""

from __future__ import annotations

from scoring import ScorecardInvalid, evaluate
from scoring.rules import get

RULESET = "steirischer-tarockcup-2017"
P = ["A", "B", "C", "D"]


def run(hand, options=None):
    card = {"ruleset": RULESET, "players": P, "hands": [hand]}
    if options is not None:
        card["options"] = options
    return evaluate(card)["hands"][0]


def errors_of(hand, options=None):
    try:
        run(hand, options)
    except ScorecardInvalid as exc:
        return [(e["hand"], e["field"], e["code"]) for e in exc.errors]
    raise AssertionError("the hand was accepted")


def ann(name, by, announced=True, achieved=True):
    return {"name": name, "by": by, "announced": announced, "achieved": achieved}


def sc(a, b, c, d):
    return {"A": a, "B": b, "C": c, "D": d}


def test_the_new_options_and_their_literal_defaults():
    defaults = get(RULESET).option_defaults()
    assert {k: defaults[k] for k in ("silent_premium_lost_pays", "lost_valat_keeps_game",
                                     "mondfang", "renonce_pays_premiums")} == {
        "silent_premium_lost_pays": True, "lost_valat_keeps_game": False,
        "mondfang": "refused", "renonce_pays_premiums": "all"}


def test_silent_premium_lost_pays_or_not():
    # Dreier 5 won by A; his silent Uhu (II, silent 2) lost in the second-last trick. Paid:
    # 5 - 2 = 3 from each defender; not paid: the game alone, 5 from each.
    hand = {"game": "dreier", "declarer": "A", "won": True,
            "announcements": [ann("uhu", "A", announced=False, achieved=False)]}
    for options in (None, {"silent_premium_lost_pays": True}):
        assert run(hand, options)["scores"] == sc(9, -3, -3, -3)
    h = run(hand, {"silent_premium_lost_pays": False})
    assert h["scores"] == sc(15, -5, -5, -5)
    assert [ln["code"] for ln in h["lines"]] == ["game_won", "announcement_not_paid"]
    # an announced premium lost is paid under both values: Uhu announced 4
    announced = dict(hand, announcements=[ann("uhu", "A", achieved=False)])
    assert run(announced, {"silent_premium_lost_pays": False})["scores"] == sc(3, -1, -1, -1)


def test_lost_valat_keeps_game_or_not():
    # Rufer (1) of A with B; A announced Valat and failed, but A and B won the game.
    # Replaced: the eightfold game, -8 each. Kept: +1 for the game and -8 for the Valat.
    hand = {"game": "rufer", "declarer": "A", "partner": "B", "won": True,
            "announcements": [ann("valat", "A", achieved=False)]}
    for options in (None, {"lost_valat_keeps_game": False}):
        assert run(hand, options)["scores"] == sc(-8, -8, 8, 8)
    h = run(hand, {"lost_valat_keeps_game": True})
    assert h["scores"] == sc(-7, -7, 7, 7)
    assert [ln["code"] for ln in h["lines"]] == ["valat_lost", "game_won"]
    lost = dict(hand, won=False)
    assert run(lost, {"lost_valat_keeps_game": True})["scores"] == sc(-9, -9, 9, 9)
    # the game is then scored, so it must be given
    no_won = {k: v for k, v in hand.items() if k != "won"}
    assert run(no_won)["scores"] == sc(-8, -8, 8, 8)
    assert errors_of(no_won, {"lost_valat_keeps_game": True}) == [(0, "won", "missing")]


def test_mondfang_refused_or_written_for_zero():
    # "Mondfang wird nicht honoriert."
    hand = {"game": "rufer", "declarer": "A", "partner": "B", "won": True,
            "penalties": [{"kind": "mond", "player": "C"}]}
    for options in (None, {"mondfang": "refused"}):
        assert errors_of(hand, options) == [(0, "penalties[0].kind", "invalid_penalty")]
    h = run(hand, {"mondfang": "zero"})
    assert h["scores"] == sc(1, 1, -1, -1)
    assert h["lines"][-1]["code"] == "mondfang"
    assert h["lines"][-1]["points"] == 0
    trischaken = {"game": "trischaken", "forehand": "A",
                  "points_by_player": sc(30, 20, 20, 0),
                  "penalties": [{"kind": "mond", "player": "B"}]}
    assert run(trischaken, {"mondfang": "zero"})["scores"] == sc(-9, 0, 0, 9)


def test_renonce_pays_premiums_all_or_own_side():
    # Rufer of A with B; C (a defender) announced Uhu, A claims his silent Pagat; D renounces.
    # all: A and B are paid the game 1, C's Uhu as failed 4 and the Pagat 1 = 6 each, C the
    # game 1 and his Uhu 4 = 5. own_side: A and B 1 + 1 = 2 each, C 1 + 4 = 5.
    hand = {"game": "rufer", "declarer": "A", "partner": "B",
            "announcements": [{"name": "uhu", "by": "C", "announced": True},
                              ann("pagat", "A", announced=False, achieved=True)],
            "penalties": [{"kind": "renons", "player": "D"}]}
    for options in (None, {"renonce_pays_premiums": "all"}):
        assert run(hand, options)["scores"] == sc(6, 6, 5, -17)
    assert run(hand, {"renonce_pays_premiums": "own_side"})["scores"] == sc(2, 2, 5, -9)
