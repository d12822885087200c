"""The options of the ruleset gp-vysociny-2004 added for issue #34 (seed
004_9497e23b33a39f39.txt): each value of each option through the public `scoring.evaluate`,
every expected amount in haléř worked out by hand in the comment beside it."""

from __future__ import annotations

from scoring import evaluate, rules

PLAYERS = ["A", "B", "C", "D"]
FLEK_BY_A = [{"on": "game", "by": "A", "level": 1}]
FLEK_BY_B = [{"on": "game", "by": "B", "level": 1}]


def one(hand, **options):
    card = {"ruleset": "gp-vysociny-2004", "players": PLAYERS, "hands": [hand]}
    if options:
        card["options"] = options
    return evaluate(card)["hands"][0]


def scores(a, b, c, d):
    return {"A": a, "B": b, "C": c, "D": d}


def test_the_new_options_and_their_literal_defaults():
    defaults = rules.get("gp-vysociny-2004").option_defaults()
    assert {k: defaults[k] for k in (
        "equal_eyes_rate", "equal_eyes_rounded_up", "preferanc_renonc_multiplied_by_flek",
        "cap_applies_to_renonc", "varsava_tie_with_forehand")} == {
        "equal_eyes_rate": "flek_level", "equal_eyes_rounded_up": True,
        "preferanc_renonc_multiplied_by_flek": True, "cap_applies_to_renonc": True,
        "varsava_tie_with_forehand": "own_scale"}


def test_equal_eyes_rate_flek_level_and_base():
    # "V případě, že protihráči dají flek, platí oni dražiteli hry hodnotu jednoho oka."
    # Sólo of B, 35:35, fleked by A: the eye at the flek rate is 80 hal, without flek 40 hal;
    # each opponent pays the declarer one eye.
    hand = {"game": "solo", "declarer": "B", "points": 35, "contras": FLEK_BY_A}
    for options, eye in (({}, 80), ({"equal_eyes_rate": "flek_level"}, 80),
                         ({"equal_eyes_rate": "base"}, 40)):
        h = one(hand, **options)
        assert h["value"] == eye
        assert h["scores"] == scores(-eye, 3 * eye, -eye, -eye)


def test_equal_eyes_rounded_up_or_paid_as_it_is():
    # "dražitel hry platí za hru částku, která odpovídá hodnotě jednoho oka": one eye of a
    # povinnost without flek is 5 hal; rounded up ("zaokrouhluje se nahoru") it is 10 hal.
    # A and his partner C each pay one opponent (B, D) in seat order.
    hand = {"game": "povinnost", "declarer": "A", "partner": "C", "points": 35}
    assert one(hand)["scores"] == scores(-10, 10, -10, 10)
    assert one(hand, equal_eyes_rounded_up=True)["scores"] == scores(-10, 10, -10, 10)
    h = one(hand, equal_eyes_rounded_up=False)
    assert h["value"] == 5
    assert h["scores"] == scores(-5, 5, -5, 5)
    # both options off the default: the flek does not raise the eye and 5 hal stays 5 hal;
    # the opponents (B fleked) pay it
    fleked = dict(hand, contras=FLEK_BY_B)
    assert one(fleked, equal_eyes_rate="base", equal_eyes_rounded_up=False)["scores"] == \
        scores(5, -5, 5, -5)
    assert one(fleked)["scores"] == scores(10, -10, 10, -10)


def test_preferanc_renonc_multiplied_by_flek_or_not():
    # Preferanc, druhý zdvih: renonc 2 Kč. B fleks, C (an opponent) commits the renonc: he
    # pays the declarer three times, the others once. Multiplied by the flek: 4 Kč, so
    # 12 + 4 + 4 Kč; not multiplied: 2 Kč, so 6 + 2 + 2 Kč.
    hand = {"game": "preferanc_2", "declarer": "A", "contras": FLEK_BY_B,
            "penalties": [{"kind": "renons", "player": "C"}]}
    for options in ({}, {"preferanc_renonc_multiplied_by_flek": True}):
        h = one(hand, **options)
        assert h["value"] == 400
        assert h["scores"] == scores(1200, 400, -2000, 400)
    h = one(hand, preferanc_renonc_multiplied_by_flek=False)
    assert h["value"] == 200
    assert h["scores"] == scores(600, 200, -1000, 200)
    # the sólo keeps "při fleku či re atd. se renonc násobí" either way: 4 Kč x 2
    solo = {"game": "solo", "declarer": "A", "contras": FLEK_BY_B,
            "penalties": [{"kind": "renons", "player": "D"}]}
    assert one(solo, preferanc_renonc_multiplied_by_flek=False)["value"] == 800


def test_cap_applies_to_renonc_or_not():
    # Sólo of A fleked by B, renonc by B: 8 Kč, three times to the declarer = 24 Kč. With the
    # cap the declarer gets 20 Kč from B; without it the full 24 Kč.
    hand = {"game": "solo", "declarer": "A", "contras": FLEK_BY_B,
            "penalties": [{"kind": "renons", "player": "B"}]}
    for options in ({}, {"cap_applies_to_renonc": True}):
        h = one(hand, **options)
        assert h["scores"] == scores(2000, -3600, 800, 800)
        assert any(ln["code"] == "cap_applied" for ln in h["lines"])
    h = one(hand, cap_applies_to_renonc=False)
    assert h["value"] == 800
    assert h["scores"] == scores(2400, -4000, 800, 800)
    assert not any(ln["code"] == "cap_applied" for ln in h["lines"])


def test_without_the_cap_on_renonc_the_game_is_still_capped():
    # Sólo sup of A with 65 eyes: 30 x 320 = 96 Kč from each opponent, held at 20 Kč; B also
    # commits a renonc after which play continues, 1 Kč to each other player. With the cap on
    # renonc, B's 96 + 1 Kč to A is one capped payment of 20 Kč; without it the game's 20 Kč
    # and the renonc's 1 Kč.
    contras = [{"on": "game", "by": "B", "level": 1}, {"on": "game", "by": "A", "level": 2},
               {"on": "game", "by": "C", "level": 3}]
    hand = {"game": "solo", "declarer": "A", "points": 65, "contras": contras,
            "penalties": [{"kind": "renons_play_continues", "player": "B"}]}
    assert one(hand)["scores"] == scores(6000, -2200, -1900, -1900)
    h = one(hand, cap_applies_to_renonc=False)
    assert h["value"] == 2000
    assert h["scores"] == scores(6100, -2300, -1900, -1900)


def varsava(eyes, tricks, forehand="A"):
    return {"game": "varsava", "forehand": forehand,
            "points_by_player": dict(zip(PLAYERS, eyes, strict=True)),
            "tricks_by_player": dict(zip(PLAYERS, tricks, strict=True))}


def test_varsava_forehand_tied_for_the_most_eyes():
    # A (forehand) and B both have 30 eyes; C has no trick, D has 10 eyes.
    # own_scale: A pays C 6 Kč and D 4 Kč ("Pokud nejvíce očí uhraje forhont ..."), B pays C
    # 4 Kč and D 2 Kč. same_scale ("platí oba stejným způsobem"): both pay 4 Kč and 2 Kč.
    hand = varsava([30, 30, 0, 10], [5, 4, 0, 3])
    for options in ({}, {"varsava_tie_with_forehand": "own_scale"}):
        assert one(hand, **options)["scores"] == scores(-1000, -600, 1000, 600)
    assert one(hand, varsava_tie_with_forehand="same_scale")["scores"] == \
        scores(-600, -600, 800, 400)
    # the forehand alone with the most eyes pays his own scale under both values
    alone = varsava([40, 20, 10, 0], [6, 4, 2, 0])
    assert one(alone, varsava_tie_with_forehand="same_scale")["scores"] == \
        scores(-1400, 400, 400, 600)
