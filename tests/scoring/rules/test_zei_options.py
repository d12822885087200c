"""The valat options of the ruleset `slovenski-tarok-zei` added for issue #34 (seed
003_e9ec0a09b3c02de4.txt, NAPOVEDI, IZGUBA, IGRE PO VREDNOSTI): each value through the
public `scoring.evaluate`. Every expected number is worked out by hand beside it."""

from __future__ import annotations

from scoring import evaluate
from scoring.rules import get

RULESET = "slovenski-tarok-zei"
THREE = ["A", "B", "C"]


def run(hands, options=None):
    card = {"ruleset": RULESET, "mode": "three", "players": THREE, "hands": hands}
    if options is not None:
        card["options"] = options
    return evaluate(card)


def one(hand, options=None):
    return run([hand], options)["hands"][0]


def ann(name, announced=True, achieved=True):
    return {"name": name, "by": "A", "announced": announced, "achieved": achieved}


def sc(a, b, c):
    return {"A": a, "B": b, "C": c}


KONTRA = [{"on": "game", "by": "B", "level": 1}]


def test_the_valat_options_and_their_defaults():
    defaults = get(RULESET).option_defaults()
    assert (defaults["silent_valat"], defaults["lost_valat"]) == ("instead", "added")


def test_silent_valat_instead_of_the_game_or_added_to_it():
    # "nenapovedan valat pa je vreden pol manj": 250. ena with all 70 points: the game is
    # 30 + 35 difference = 65; a silent trula made is 10.
    hand = {"game": "ena", "declarer": "A", "points": 70,
            "announcements": [ann("valat", announced=False), ann("trula", announced=False)]}
    for options in (None, {"silent_valat": "instead"}):
        h = one(hand, options)
        assert h["value"] == 250 and h["scores"] == sc(250, 0, 0)
    h = one(hand, {"silent_valat": "added"})
    assert h["value"] == 65
    assert h["scores"] == sc(65 + 10 + 250, 0, 0)
    # a kontra on the game: instead, the valat is the game and doubles (500); added, the
    # game doubles (130) and the valat, an announcement, does not (contra_doubles = game)
    assert one(dict(hand, contras=KONTRA))["scores"] == sc(500, 0, 0)
    assert one(dict(hand, contras=KONTRA), {"silent_valat": "added"})["scores"] == \
        sc(130 + 10 + 250, 0, 0)


def test_announced_valat_made_replaces_the_game_under_both_values():
    # "Tako napovedana igra šteje 500 pik"
    hand = {"game": "tri", "declarer": "A", "points": 70, "announcements": [ann("valat")]}
    assert one(hand, {"silent_valat": "added"})["scores"] == sc(500, 0, 0)


def test_lost_valat_added_to_the_game_or_in_its_place():
    # tri with 60 points: the game is 10 + 25 = 35; the announced trula made is 20; the
    # announced valat failed is -500.
    hand = {"game": "tri", "declarer": "A", "points": 60,
            "announcements": [ann("valat", achieved=False), ann("trula")]}
    for options in (None, {"lost_valat": "added"}):
        assert one(hand, options)["scores"] == sc(35 + 20 - 500, 0, 0)
    h = one(hand, {"lost_valat": "instead"})
    assert h["value"] == 500
    assert h["scores"] == sc(-500, 0, 0)
    assert [ln["code"] for ln in h["lines"]] == ["announcement_lost"]


def test_lost_valat_in_place_of_the_game_keeps_the_radelc():
    # After a klop A has a radelc. added: the game with 60 points is won, -445 doubled and
    # the radelc struck off; instead: the valat was the game and is lost, -500 doubled and
    # the radelc waits "do naslednje zmage".
    hands = [{"game": "klop", "points_by_player": sc(30, 25, 15)},
             {"game": "tri", "declarer": "A", "points": 60,
              "announcements": [ann("valat", achieved=False), ann("trula")]}]
    added = run(hands)["hands"][1]
    assert added["scores"] == sc(-890, 0, 0) and added["state"] == {"radelci": sc(0, 1, 1)}
    instead = run(hands, {"lost_valat": "instead"})["hands"][1]
    assert instead["scores"] == sc(-1000, 0, 0)
    assert instead["state"] == {"radelci": sc(1, 1, 1)}
