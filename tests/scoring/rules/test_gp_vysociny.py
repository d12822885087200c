"""Hands of the ruleset gp-vysociny-2004 (seed 004_9497e23b33a39f39.txt, Czech taroky, GP
Vysočiny, Bystré 2004): every worked example and every tariff row of the seed, the options,
and the validation errors, all through the public `scoring.evaluate` contract.

Why one module of 620 lines: one test per worked example and clause of seed 004, in the
seed's order, so a reader checks the rulebook against the tests top to bottom.
"""

from __future__ import annotations

import pytest

from scoring import ScorecardInvalid, evaluate, rules
from scoring.rules.base import Coin
from scoring.rules.gp_vysociny.tables import DEFAULT_STAKE, GAME_CAP, round_up

PLAYERS = ["A", "B", "C", "D"]


def card(*hands, **options):
    sc = {"ruleset": "gp-vysociny-2004", "players": PLAYERS, "hands": list(hands)}
    if options:
        sc["options"] = options
    return sc


def one(hand, **options):
    return evaluate(card(hand, **options))["hands"][0]


def errors_of(scorecard):
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate(scorecard)
    return exc.value.errors


def codes(scorecard):
    return {(e["hand"], e["field"], e["code"]) for e in errors_of(scorecard)}


def povinnost(points, partner="C", **extra):
    return {"game": "povinnost", "declarer": "A", "partner": partner, "called": "XIX",
            "points": points, **extra}


def fleks(n, declarer_side=("A",), opponents=("B",)):
    order = [opponents[0], declarer_side[0], opponents[0]]
    return [{"on": "game", "by": order[k], "level": k + 1} for k in range(n)]


# --- the registry and the data --------------------------------------------------------------

def test_registered_with_mode_unit_and_sheet():
    r = rules.get("gp-vysociny-2004")
    assert r is not None
    d = r.describe()
    assert d["unit"] == "haler"
    assert d["default_mode"] == "four"
    assert d["modes"] == [{"code": "four", "seats": 4, "players_in_hand": 4, "seat_counts": [4],
                           "contras": True}]
    assert d["accepts_sheet"] is True
    assert [g["code"] for g in d["games"]] == [
        "povinnost", "druha_povinnost", "preferanc_1", "preferanc_2", "preferanc_3",
        "solo", "varsava"]
    assert [a["code"] for a in d["announcements"]] == [
        "barvicky", "tarocky", "barvy", "trul", "taroky", "kralovske_honery", "honery",
        "trulhonery", "pagat", "valat"]
    assert [(c["level"], c["name"]) for c in d["contra_levels"]] == [
        (1, "flek"), (2, "re"), (3, "sup")]
    assert d["docs"] == "docs/rulesets/gp-vysociny-2004.md"
    assert d["hand_schema"]["properties"]["called"] == {"enum": ["XIX", "XVIII", "XVII", "XVI"]}


def test_stake_bag_is_the_seeds_bag_and_sums_to_20_kc():
    # seed 004, under the sheet: "5,- Kč 2x, 1,- Kč 6x, 50 hal 6x, 10 hal 10x"
    ruleset = rules.get("gp-vysociny-2004")
    assert ruleset.money.stake_bag == (Coin(500, 2), Coin(100, 6), Coin(50, 6), Coin(10, 10))
    assert DEFAULT_STAKE == ruleset.money.stake == 2000
    money = ruleset.describe()["money"]
    assert {k: money[k] for k in ("stake", "stake_bag", "top_up_step", "game_cap",
                                  "rounding_step", "smallest_coin", "currency")} == {
        "stake": 2000, "stake_bag": [{"coin": 500, "count": 2}, {"coin": 100, "count": 6},
                                     {"coin": 50, "count": 6}, {"coin": 10, "count": 10}],
        "top_up_step": 1000, "game_cap": 2000, "rounding_step": 10, "smallest_coin": 10,
        "currency": "Kč"}


def test_hlasky_values_from_the_seed_table():
    # seed 004, "Hlášky:" table
    d = {a["code"]: (a["announced_value"], a["silent_value"])
         for a in rules.get("gp-vysociny-2004").describe()["announcements"]}
    assert d == {
        "barvicky": (20, None), "tarocky": (20, None), "barvy": (40, None),
        "trul": (20, None), "taroky": (40, None), "kralovske_honery": (40, None),
        "honery": (20, None), "trulhonery": (40, None),
        "pagat": (200, 100), "valat": (400, 200)}


def test_round_up_to_ten_haler():
    assert [round_up(x) for x in (0, 5, 10, 85, 340, 341)] == [0, 10, 10, 90, 340, 350]


# --- seed 004 worked examples ---------------------------------------------------------------

def test_seed_example_povinnost_18_eyes_pays_90_haler():
    # seed 004, "Hra se počítá následovně": "hra na základní povinnosti bez fleku, forhont
    # uhrál 18 očí, platí rozdíl tj.17x5=85hal., zaokrouhleně 90 hal.+hlášky"
    h = one(povinnost(18))
    assert h["value"] == 90
    assert h["scores"] == {"A": -90, "B": 90, "C": -90, "D": 90}
    game_line = h["lines"][0]
    assert game_line["code"] == "game_lost"
    assert game_line["params"]["difference"] == 17
    assert game_line["params"]["raw"] == 85
    assert game_line["params"]["amount"] == 90


def test_seed_example_povinnost_18_eyes_plus_hlasky():
    # "... zaokrouhleně 90 hal.+hlášky": the declarer's trul (20 hal) is paid to his side,
    # the opponent's taroky (40 hal) to theirs, all in the one amount per payment.
    h = one(povinnost(18, announcements=[
        {"name": "trul", "by": "A"}, {"name": "taroky", "by": "B"}]))
    # per payment: -90 (game) + 20 (trul, declarer side) - 40 (taroky, opponents) = -110
    assert h["value"] == 110
    assert h["scores"] == {"A": -110, "B": 110, "C": -110, "D": 110}


def test_seed_example_preferanc_third_17_eyes_pays_3_40():
    # seed 004: "Hra při preferanci třetí zdvih stejný rozdíl očí tj.17x20=3,40 Kč+- hlášky"
    h = one({"game": "preferanc_3", "declarer": "B", "points": 18})
    assert h["value"] == 340
    assert h["scores"] == {"A": 340, "B": -1020, "C": 340, "D": 340}
    won = one({"game": "preferanc_3", "declarer": "B", "points": 52})
    assert won["value"] == 340
    assert won["scores"] == {"A": -340, "B": 1020, "C": -340, "D": -340}


@pytest.mark.parametrize("level,rate", [(0, 5), (1, 10), (2, 20), (3, 40)])
def test_povinnost_rate_table_per_flek_level(level, rate):
    # seed 004, povinnost table: "hra bez fleku 5 hal. za oko", "hra s flekem 10 hal.",
    # "re 20 hal.", "sup 40 hal. za oko"; 40 eyes = difference 5
    h = one(povinnost(40, contras=fleks(level, ("A",), ("B",))))
    assert h["value"] == round_up(5 * rate)
    assert h["scores"]["A"] == round_up(5 * rate)
    assert h["lines"][0]["params"]["rate"] == rate


@pytest.mark.parametrize("game,rate", [("preferanc_1", 5), ("preferanc_2", 10),
                                       ("preferanc_3", 20), ("solo", 40)])
def test_one_against_three_rates(game, rate):
    # seed 004, preferanc table "první zdvih 5 hal., druhý zdvih 10hal., třetí zdvih 20hal.
    # za oko"; sólo "hra 40 hal. za oko"; 45 eyes = difference 10
    h = one({"game": game, "declarer": "D", "points": 45})
    assert h["value"] == 10 * rate
    assert h["scores"] == {"A": -10 * rate, "B": -10 * rate, "C": -10 * rate, "D": 30 * rate}


def test_flek_doubles_the_preferanc_and_solo_rate():
    # the povinnost table doubles per level; the same doubling is applied to preferanc and
    # sólo ("při fleku či re atd. se renonc násobí").
    h = one({"game": "solo", "declarer": "D", "points": 40,
             "contras": [{"on": "game", "by": "A", "level": 1}]})
    assert h["value"] == 5 * 80
    h = one({"game": "preferanc_2", "declarer": "D", "points": 30,
             "contras": [{"on": "game", "by": "A", "level": 1},
                         {"on": "game", "by": "D", "level": 2}]})
    assert h["value"] == 5 * 40
    assert h["scores"]["D"] == -600


def test_povinnost_alone_after_buying_the_called_tarok():
    # seed 004: "v případě dokoupení volané karty hraje hráč sám"
    h = one(povinnost(50, partner=None))
    assert h["value"] == 15 * 5 + 5  # 75 rounded up to 80
    assert h["scores"] == {"A": 240, "B": -80, "C": -80, "D": -80}


def test_equal_eyes_the_bidder_pays_one_eye():
    # seed 004: "Při rovnosti očí ve všech hrách dražitel hry platí za hru částku, která
    # odpovídá hodnotě jednoho oka." One eye of a povinnost is 5 hal, rounded up to 10 hal.
    h = one(povinnost(35))
    assert h["value"] == 10
    assert h["scores"] == {"A": -10, "B": 10, "C": -10, "D": 10}
    assert h["lines"][0]["code"] == "game_equal_eyes"
    solo = one({"game": "solo", "declarer": "B", "points": 35})
    assert solo["scores"] == {"A": 40, "B": -120, "C": 40, "D": 40}


def test_equal_eyes_after_flek_the_opponents_pay_one_eye():
    # seed 004: "V případě, že protihráči dají flek, platí oni dražiteli hry hodnotu jednoho
    # oka." With flek one eye of a sólo is 80 hal.
    h = one({"game": "solo", "declarer": "B", "points": 35,
             "contras": [{"on": "game", "by": "A", "level": 1}]})
    assert h["value"] == 80
    assert h["scores"] == {"A": -80, "B": 240, "C": -80, "D": -80}


def test_valat_game_is_35_minus_the_talon_in_solo_plus_the_hlaska():
    # seed 004, "Valát": "od hodnoty 35 očí se odečte hodnota karet shozu protistrany (při
    # hraném sólu se odečte hodnota talonu)". A talon of 8 eyes: the declarer has 62 eyes,
    # game 35 - 8 = 27 eyes x 40 hal = 10.80 Kč, plus "valát hlášený 4,- Kč".
    h = one({"game": "solo", "declarer": "C", "points": 62, "announcements": [
        {"name": "valat", "by": "C", "announced": True, "achieved": True}]})
    assert h["lines"][0]["params"]["difference"] == 27
    assert h["value"] == 1080 + 400
    assert h["scores"] == {"A": -1480, "B": -1480, "C": 4440, "D": -1480}


def test_silent_valat_and_pagat_values():
    # seed 004: "valát tichý 2,- Kč", "pagát tichý 1,- Kč"
    h = one(povinnost(66, announcements=[
        {"name": "valat", "by": "C", "announced": False, "achieved": True},
        {"name": "pagat", "by": "A", "announced": False, "achieved": True}]))
    assert h["value"] == 31 * 5 + 5 + 200 + 100  # 155 -> 160
    assert h["scores"] == {"A": 460, "B": -460, "C": 460, "D": -460}


def test_announced_pagat_lost_is_paid_by_the_announcer_side():
    # seed 004: "pagát hlášený 2,- Kč (platí pro každou hru)", "+ - hlášky"
    h = one({"game": "solo", "declarer": "A", "points": 38, "announcements": [
        {"name": "pagat", "by": "A", "announced": True, "achieved": False}]})
    assert h["value"] == 200 - 3 * 40  # game +1.20 Kč, pagát -2 Kč
    assert h["scores"] == {"A": -240, "B": 80, "C": 80, "D": 80}


def test_hlasky_are_not_multiplied_by_flek():
    # the tables read "10 hal. za oko + - hlášky" (flek): the flat hláška is added as it is
    h = one(povinnost(40, contras=fleks(1), announcements=[{"name": "barvy", "by": "D"}]))
    assert h["value"] == 50 - 40
    assert h["scores"] == {"A": 10, "B": -10, "C": 10, "D": -10}


def test_silent_pagat_lost_option():
    hand = povinnost(40, announcements=[
        {"name": "pagat", "by": "A", "announced": False, "achieved": False}])
    default = one(hand)
    assert default["scores"]["A"] == 25 - 100 + 5  # 25 -> 30, minus 1 Kč
    off = one(hand, silent_lost_pays=False)
    assert off["scores"]["A"] == 30
    assert any(line["code"] == "announcement_not_paid" for line in off["lines"])


def test_druha_povinnost_counts_as_povinnost_plus_the_pagat():
    # seed 004: "Druhá povinnost: ... musí uhrát pagátem poslední zdvih. Hra při druhé
    # povinnosti se počítá stejně jako při základní povinnosti + všechny ohlášené hlášky."
    hand = {"game": "druha_povinnost", "declarer": "B", "partner": "D", "called": "XVIII",
            "points": 45, "announcements": [
                {"name": "pagat", "by": "B", "announced": True, "achieved": True}]}
    h = one(hand)
    assert h["value"] == 50 + 200
    assert h["scores"] == {"A": -250, "B": 250, "C": -250, "D": 250}
    hand["announcements"][0]["achieved"] = False
    h = one(hand)
    assert h["value"] == 150
    assert h["scores"] == {"A": 150, "B": -150, "C": 150, "D": -150}


def test_partner_payment_option_each_pays_each():
    h = one(povinnost(18), partner_payment="each_pays_each")
    assert h["value"] == 90
    assert h["scores"] == {"A": -180, "B": 180, "C": -180, "D": 180}
    pays = sorted((ln["params"]["payer"], ln["params"]["receiver"])
                  for ln in h["lines"] if ln["code"] == "payment")
    assert pays == [("A", "B"), ("A", "D"), ("C", "B"), ("C", "D")]


def test_each_pays_one_pairs_in_seat_order():
    h = one({"game": "povinnost", "declarer": "B", "partner": "A", "called": "XVI",
             "points": 60})
    pays = [(ln["params"]["payer"], ln["params"]["receiver"])
            for ln in h["lines"] if ln["code"] == "payment"]
    # opponents after B in seat order: C, D; C pays the declarer B, D pays the partner A
    assert sorted(pays) == [("C", "B"), ("D", "A")]


# --- the herní strop ------------------------------------------------------------------------

def test_cap_20_kc_per_payment():
    # seed 004: "Herní strop: 20,- Kč" / "Herní strop - maximální. částka zaplacená jednomu
    # hráči v jedné hře." Sólo sup, 65 eyes: 30 x 320 hal = 96 Kč, capped at 20 Kč.
    h = one({"game": "solo", "declarer": "A", "points": 65, "contras": [
        {"on": "game", "by": "B", "level": 1}, {"on": "game", "by": "A", "level": 2},
        {"on": "game", "by": "C", "level": 3}]})
    assert h["value"] == GAME_CAP
    assert h["scores"] == {"A": 6000, "B": -2000, "C": -2000, "D": -2000}
    caps = [ln for ln in h["lines"] if ln["code"] == "cap_applied"]
    assert len(caps) == 3
    assert caps[0]["params"]["before"] == 9600 and caps[0]["params"]["after"] == 2000


def test_cap_option_per_receiver():
    # the declarer receives at most 20 Kč in all; his three payers share it 6.70/6.70/6.60
    hand = {"game": "solo", "declarer": "A", "points": 65, "contras": [
        {"on": "game", "by": "B", "level": 1}]}
    h = one(hand, cap_applies_to="receiver")
    assert h["scores"] == {"A": 2000, "B": -670, "C": -670, "D": -660}
    # a losing sólo declarer pays three players: each receives less than 20 Kč, no cap
    lost = one({"game": "solo", "declarer": "A", "points": 5},
               cap_applies_to="receiver")
    assert lost["scores"] == {"A": -3600, "B": 1200, "C": 1200, "D": 1200}
    assert one({"game": "solo", "declarer": "A", "points": 5})["scores"]["A"] == -3600


# --- renonc ---------------------------------------------------------------------------------

@pytest.mark.parametrize("level,fine", [(0, 100), (1, 200), (2, 400), (3, 800)])
def test_povinnost_renonc_table_each_other_player_once(level, fine):
    # seed 004, povinnost table, column "renonc": 1,- Kč / 2,- Kč / 4,- Kč / 8,- Kč; "Při
    # základní i druhé povinnosti dostane licitující hráč jednonásobek a zbývající dva hráči
    # také jednonásobek."
    h = one({"game": "povinnost", "declarer": "A", "partner": "C", "called": "XIX",
             "contras": fleks(level), "penalties": [{"kind": "renons", "player": "D"}]})
    assert h["value"] == fine
    assert h["scores"] == {"A": fine, "B": fine, "C": fine, "D": -3 * fine}


def test_renonc_adds_all_announced_hlasky():
    # seed 004: "platí hráč, který se provinil výši hry + všechny ohlášené hlášky"; the
    # silent pagát is not announced and does not count
    h = one({"game": "povinnost", "declarer": "A", "partner": "C", "called": "XIX",
             "announcements": [{"name": "trul", "by": "A"},
                               {"name": "pagat", "by": "A", "announced": True},
                               {"name": "valat", "by": "C", "announced": False}],
             "penalties": [{"kind": "renons", "player": "B"}]})
    assert h["value"] == 100 + 20 + 200
    assert h["scores"] == {"A": 320, "B": -960, "C": 320, "D": 320}


@pytest.mark.parametrize("game,fine", [("preferanc_1", 100), ("preferanc_2", 200),
                                       ("preferanc_3", 300), ("solo", 400)])
def test_one_against_three_renonc_triple_to_the_declarer(game, fine):
    # seed 004: preferanc "renonc 1,- Kč / 2,- Kč / 3,- Kč", sólo "4,- Kč"; "Při sólu nebo
    # preferanci platí provinilec licitujícímu hráči trojnásobek tohoto renoncu, ostatním
    # dvěma hráčům jednonásobek."
    h = one({"game": game, "declarer": "A", "penalties": [{"kind": "renons", "player": "C"}]})
    assert h["value"] == fine
    assert h["scores"] == {"A": 3 * fine, "B": fine, "C": -5 * fine, "D": fine}


def test_solo_renonc_multiplied_by_flek():
    # seed 004, sólo: "při fleku či re atd. se renonc násobí": 4 Kč x 2 with flek
    h = one({"game": "solo", "declarer": "A", "contras": [{"on": "game", "by": "B", "level": 1}],
             "penalties": [{"kind": "renons", "player": "B"}]})
    assert h["value"] == 800
    # the declarer's triple, 24 Kč, is held at the herní strop of 20 Kč
    assert h["scores"] == {"A": 2000, "B": -3600, "C": 800, "D": 800}


def test_declarer_renonc_pays_every_other_player_once():
    # seed 004: "Pokud udělá renonc hráč, který licitoval hru, platí ostatním hráčům výši
    # vytočené hry + všechny ohlášené hlášky."
    h = one({"game": "solo", "declarer": "A", "announcements": [{"name": "taroky", "by": "A"}],
             "penalties": [{"kind": "renons", "player": "A"}]})
    assert h["value"] == 440
    assert h["scores"] == {"A": -1320, "B": 440, "C": 440, "D": 440}


def test_renonc_hand_may_carry_points_that_are_not_scored():
    h = one({"game": "preferanc_1", "declarer": "A", "points": 60,
             "penalties": [{"kind": "renons", "player": "A"}]})
    assert h["scores"] == {"A": -300, "B": 100, "C": 100, "D": 100}


def test_renonc_after_which_play_continues():
    # seed 004: "Renonc, po kterém hra pokračuje: ... Hráč, který se provinil platí 1,-Kč
    # ostatním hráčům u stolu. Po zaplacení této pokuty se hra dohrává."
    h = one(povinnost(18, penalties=[{"kind": "renons_play_continues", "player": "B"}]))
    # game: B and D +90, A and C -90; B's fine: -300 for B, +100 to each other
    assert h["scores"] == {"A": 10, "B": -210, "C": 10, "D": 190}
    assert sum(h["scores"].values()) == 0


def test_wrong_card_count_before_the_lead():
    # seed 004: "zaplatí hráči, kteří měli nesprávný počet karet ostatním hráčům renonc ve
    # výši 1,- Kč a rozdává se znovu."
    h = one({"game": "povinnost", "declarer": "A", "partner": "B", "called": "XVII",
             "penalties": [{"kind": "misdeal", "player": "C"},
                           {"kind": "misdeal", "player": "D"}]})
    assert h["value"] == 100
    # C and D pay each other too, which cancels out
    assert h["scores"] == {"A": 200, "B": 200, "C": -200, "D": -200}


def test_wrong_card_count_after_the_lead_is_a_renonc_of_each():
    # seed 004: "Pozdější nesrovnalost karet ... zaplatí hráči, kteří neměli správný počet
    # karet ... renonc ve výši hry + všechny ohlášené hlášky."
    h = one({"game": "povinnost", "declarer": "A", "partner": "B", "called": "XVII",
             "penalties": [{"kind": "renons", "player": "C"},
                           {"kind": "renons", "player": "D"}]})
    assert h["scores"] == {"A": 200, "B": 200, "C": -200, "D": -200}


# --- Varšava --------------------------------------------------------------------------------

def varsava(eyes, tricks, forehand="A", **extra):
    return {"game": "varsava", "forehand": forehand,
            "points_by_player": dict(zip(PLAYERS, eyes, strict=True)),
            "tricks_by_player": dict(zip(PLAYERS, tricks, strict=True)), **extra}


def test_varsava_most_eyes_pays_4_to_no_trick_and_2_to_others():
    # seed 004: "Hráč, který uhraje nejvíce očí platí ostatním hráčům a to tak, že hráči,
    # který nemá zdvih zaplatí 4,-Kč, ostatním hráčům zaplatí 2,-Kč."
    h = one(varsava([10, 40, 0, 20], [3, 6, 0, 3]))
    assert h["value"] == 0
    assert h["scores"] == {"A": 200, "B": -800, "C": 400, "D": 200}


def test_varsava_two_with_most_eyes_both_pay():
    # seed 004: "V případě, že nejvíce očí mají dva hráči, platí oba stejným způsobem
    # ostatním hráčům."
    h = one(varsava([5, 30, 30, 5], [2, 5, 4, 1]))
    assert h["scores"] == {"A": 400, "B": -400, "C": -400, "D": 400}
    h = one(varsava([10, 30, 30, 0], [3, 5, 4, 0]))
    assert h["scores"] == {"A": 400, "B": -600, "C": -600, "D": 800}


def test_varsava_forehand_with_most_eyes_pays_his_own_scale():
    # seed 004: "Pokud nejvíce očí uhraje forhont platí hráčům, kteří uhrají méně očí 4,-Kč a
    # hráči, který nemá zdvih, zaplatí 6,-Kč."
    h = one(varsava([40, 20, 10, 0], [6, 4, 2, 0], forehand="A"))
    assert h["scores"] == {"A": -1400, "B": 400, "C": 400, "D": 600}


def test_varsava_renonc_and_forgotten_talon_card():
    # seed 004: "Při renoncu u hry Varšava platí provinivší se hráč ostatním hráčům 2,- Kč a
    # hra končí." and "při zapomenutí přiložit kartu, platí forhont ostatním hráčům 2,- Kč a
    # hra končí!" (entered as the forehand's renons)
    h = one({"game": "varsava", "forehand": "B", "penalties": [{"kind": "renons", "player": "B"}]})
    assert h["scores"] == {"A": 200, "B": -600, "C": 200, "D": 200}


# --- totals over several hands --------------------------------------------------------------

def test_totals_sum_the_hands():
    out = evaluate(card(povinnost(18), {"game": "preferanc_3", "declarer": "B", "points": 18},
                        varsava([10, 40, 0, 20], [3, 6, 0, 3])))
    assert out["unit"] == "haler"
    assert out["totals"] == {"A": -90 + 340 + 200, "B": 90 - 1020 - 800,
                             "C": -90 + 340 + 400, "D": 90 + 340 + 200}
    assert sum(out["totals"].values()) == 0
    for hand in out["hands"]:
        assert hand["state"] == {}
        for line in hand["lines"]:
            assert set(line) == {"player", "what", "points", "code", "params"}


# --- validation -----------------------------------------------------------------------------

def test_every_problem_is_listed_with_hand_and_field():
    errs = codes(card(
        {"game": "povinnost", "declarer": "A", "partner": "C", "points": 18},
        {"game": "varsava", "forehand": "A"},
        {"game": "solo", "declarer": "Z", "points": 71, "partner": "B"},
        {"game": "trojka", "declarer": "A"},
    ))
    assert not any(field == "called" for _hand, field, _code in errs)  # optional
    assert (1, "points_by_player", "missing") in errs
    assert (1, "tricks_by_player", "missing") in errs
    assert (2, "declarer", "declarer_not_a_player") in errs
    assert (2, "points", "points_out_of_range") in errs
    assert (2, "partner", "partner_not_allowed") in errs
    assert (3, "game", "unknown_game") in errs


def test_errors_carry_messages():
    errs = errors_of(card({"game": "povinnost", "declarer": "A", "partner": "C",
                           "called": "XX", "points": 18}))
    assert errs == [{"hand": 0, "field": "called", "code": "invalid_called_tarok",
                     "message": "called must be one of ['XIX', 'XVIII', 'XVII', 'XVI'], "
                                "got 'XX'",
                     "params": {"called": "XX"}}]


@pytest.mark.parametrize("hand,expected", [
    ({"game": "povinnost", "declarer": "A", "called": "XIX", "points": 18},
     (0, "partner", "missing")),
    (povinnost(18, partner="A"), (0, "partner", "partner_is_declarer")),
    (povinnost(18, partner="Q"), (0, "partner", "partner_not_a_player")),
    (povinnost("18"), (0, "points", "not_an_integer")),
    (povinnost(True), (0, "points", "not_an_integer")),
    (povinnost(-1), (0, "points", "points_out_of_range")),
    (povinnost(18, forehand="B"), (0, "declarer", "declarer_not_forehand")),
    (povinnost(18, won=True), (0, "won", "field_not_allowed")),
    (povinnost(18, resting="B"), (0, "resting", "field_not_allowed")),
    (povinnost(18, colour="red"), (0, "colour", "unknown_field")),
    (povinnost(18, tricks_by_player={}), (0, "tricks_by_player", "field_not_allowed")),
    ({"game": "solo", "declarer": "A", "points": 40, "called": "XIX"},
     (0, "called", "field_not_allowed")),
    ({"game": "solo", "points": 40}, (0, "declarer", "missing")),
    ({"declarer": "A", "points": 40}, (0, "game", "missing")),
    ({"game": "solo", "declarer": "A"}, (0, "points", "missing")),
    (povinnost(18, announcements={}), (0, "announcements", "not_a_list")),
    (povinnost(18, announcements=["trul"]), (0, "announcements[0]", "not_an_object")),
    (povinnost(18, announcements=[{"name": "kralji", "by": "A"}]),
     (0, "announcements[0].name", "unknown_announcement")),
    (povinnost(18, announcements=[{"name": "trul", "by": "X"}]),
     (0, "announcements[0].by", "announcement_by_not_a_player")),
    (povinnost(18, announcements=[{"name": "trul", "by": "A", "announced": False}]),
     (0, "announcements[0].announced", "silent_not_allowed")),
    (povinnost(18, announcements=[{"name": "trul", "by": "A", "achieved": False}]),
     (0, "announcements[0].achieved", "held_announcement_cannot_fail")),
    (povinnost(18, announcements=[{"name": "trul", "by": "A", "held": True}]),
     (0, "announcements[0].held", "field_not_allowed")),
    (povinnost(18, announcements=[{"name": "pagat", "by": "A", "achieved": True}]),
     (0, "announcements[0].announced", "missing")),
    (povinnost(18, announcements=[{"name": "pagat", "by": "A", "announced": True}]),
     (0, "announcements[0].achieved", "missing")),
    (povinnost(18, announcements=[{"name": "pagat", "by": "A", "announced": "yes",
                                   "achieved": True}]),
     (0, "announcements[0].announced", "not_a_boolean")),
    (povinnost(18, announcements=[
        {"name": "pagat", "by": "A", "announced": True, "achieved": True},
        {"name": "pagat", "by": "B", "announced": True, "achieved": False}]),
     (0, "announcements[1]", "duplicate_announcement")),
    (povinnost(18, announcements=[{"name": "taroky", "by": "A"}, {"name": "taroky", "by": "A"}]),
     (0, "announcements[1]", "duplicate_announcement")),
    (povinnost(30, announcements=[{"name": "valat", "by": "A", "announced": True,
                                   "achieved": True}]),
     (0, "points", "valat_points_inconsistent")),
    ({"game": "druha_povinnost", "declarer": "A", "partner": "B", "called": "XIX",
      "points": 40}, (0, "announcements", "druha_povinnost_needs_pagat")),
    (povinnost(18, contras=[{"on": "pagat", "by": "B", "level": 1}]),
     (0, "contras[0].on", "contra_not_allowed")),
    (povinnost(18, contras=[{"on": "game", "by": "C", "level": 1}]),
     (0, "contras[0].by", "contra_by_wrong_side")),
    (povinnost(18, contras=[{"on": "game", "by": "B", "level": 1},
                            {"on": "game", "by": "D", "level": 2}]),
     (0, "contras[1].by", "contra_by_wrong_side")),
    (povinnost(18, contras=[{"on": "game", "by": "B", "level": 2}]),
     (0, "contras[0].level", "contra_out_of_order")),
    (povinnost(18, contras=[{"on": "game", "by": "B", "level": 4}]),
     (0, "contras[0].level", "contra_level_not_allowed")),
    (povinnost(18, contras=[{"on": "game", "by": "X", "level": 1}]),
     (0, "contras[0].by", "contra_by_not_a_player")),
    (povinnost(18, contras="flek"), (0, "contras", "not_a_list")),
    (povinnost(18, penalties=[{"kind": "mond", "player": "A"}]),
     (0, "penalties[0].kind", "invalid_penalty")),
    (povinnost(18, penalties=[{"kind": "renons", "player": "Q"}]),
     (0, "penalties[0].player", "penalty_player_not_a_player")),
    (povinnost(18, penalties=[{"kind": "renons", "player": "B"},
                              {"kind": "renons", "player": "B"}]),
     (0, "penalties[1]", "duplicate_penalty")),
    (povinnost(18, penalties=[{"kind": "renons", "player": "B"},
                              {"kind": "misdeal", "player": "C"}]),
     (0, "penalties", "conflicting_penalties")),
    (povinnost(18, penalties=[{"kind": "misdeal", "player": "C"}]),
     (0, "points", "not_allowed_after_misdeal")),
    (povinnost(18, penalties="renons"), (0, "penalties", "not_a_list")),
])
def test_invalid_hand(hand, expected):
    assert expected in codes(card(hand))


def test_four_contras_refused():
    errs = codes(card(povinnost(18, contras=[
        {"on": "game", "by": "B", "level": 1}, {"on": "game", "by": "A", "level": 2},
        {"on": "game", "by": "B", "level": 3}, {"on": "game", "by": "A", "level": 4}])))
    assert (0, "contras", "too_many_contras") in errs
    assert (0, "contras[3].level", "contra_level_not_allowed") in errs


@pytest.mark.parametrize("hand,expected", [
    ({"game": "varsava", "points_by_player": {}, "tricks_by_player": {}},
     (0, "forehand", "missing")),
    (varsava([10, 40, 0, 20], [3, 6, 0, 3], forehand="Q"),
     (0, "forehand", "forehand_not_a_player")),
    (varsava([10, 40, 0, 21], [3, 6, 0, 3]), (0, "points_by_player", "points_do_not_add_up")),
    (varsava([10, 40, 0, 20], [3, 6, 0, 4]), (0, "tricks_by_player", "tricks_do_not_add_up")),
    (varsava([10, 40, 0, 20], [3, 6, 0, 13]), (0, "tricks_by_player.D", "out_of_range")),
    (varsava([10, 40, 1, 19], [3, 6, 0, 3]), (0, "points_by_player.C", "eyes_without_tricks")),
    ({"game": "varsava", "forehand": "A", "points_by_player": {"A": 70},
      "tricks_by_player": {"A": 12, "B": 0, "C": 0, "D": 0}},
     (0, "points_by_player.B", "missing")),
    ({"game": "varsava", "forehand": "A", "points_by_player": {"A": 70, "B": 0, "C": 0, "X": 0},
      "tricks_by_player": {"A": 12, "B": 0, "C": 0, "D": 0}},
     (0, "points_by_player.X", "not_a_player")),
    ({"game": "varsava", "forehand": "A", "points_by_player": [70],
      "tricks_by_player": {"A": 12, "B": 0, "C": 0, "D": 0}},
     (0, "points_by_player", "not_an_object")),
    (varsava([10, 40, 0, 20], [3, 6, 0, 3], declarer="A"), (0, "declarer", "field_not_allowed")),
    (varsava([10, 40, 0, 20], [3, 6, 0, 3], announcements=[{"name": "trul", "by": "A"}]),
     (0, "announcements", "announcement_not_allowed")),
    (varsava([10, 40, 0, 20], [3, 6, 0, 3], contras=[{"on": "game", "by": "A", "level": 1}]),
     (0, "contras", "contra_not_allowed")),
    (varsava([10, 40, 0, 20], [3, 6, 0, 3],
             penalties=[{"kind": "renons_play_continues", "player": "A"}]),
     (0, "penalties[0].kind", "penalty_not_allowed_in_game")),
])
def test_invalid_varsava(hand, expected):
    assert expected in codes(card(hand))


def test_wrong_player_count_and_mode():
    errs = codes({"ruleset": "gp-vysociny-2004", "players": ["A", "B", "C"], "hands": []})
    assert (None, "players", "wrong_player_count") in errs
    errs = codes({"ruleset": "gp-vysociny-2004", "mode": "three", "players": PLAYERS,
                  "hands": []})
    assert (None, "mode", "unknown_mode") in errs


def test_unknown_option_value_refused():
    errs = codes(card(povinnost(18), partner_payment="winner_takes_all"))
    assert (None, "options.partner_payment", "invalid_option") in errs


def test_empty_card_scores_nothing():
    out = evaluate(card())
    assert out["hands"] == []
    assert out["totals"] == {p: 0 for p in PLAYERS}


def test_unhashable_and_wrongly_typed_values_are_errors_not_crashes():
    errs = codes(card({"game": ["solo"], "declarer": {}, "partner": [], "called": ["XIX"],
                       "points": [40], "announcements": [{"name": ["x"], "by": []}],
                       "contras": [{"on": [], "by": {}, "level": [1]}],
                       "penalties": [{"kind": {}, "player": []}]},
                      {"game": "povinnost", "declarer": "A", "partner": {}, "called": ["XIX"],
                       "points": 40}))
    assert (0, "game", "unknown_game") in errs
    assert (0, "announcements[0].name", "unknown_announcement") in errs
    assert (0, "contras[0].level", "contra_level_not_allowed") in errs
    assert (0, "penalties[0].kind", "invalid_penalty") in errs
    assert (1, "partner", "partner_not_a_player") in errs
    assert (1, "called", "invalid_called_tarok") in errs


# -- Found on a second reading of the rulebook (issue 15, findings 2 and 3) --------------------

def test_povinnost_without_the_called_tarok_is_scored():
    """004 Základní povinnost: "volí se před kupem XIX nebo XVIII nebo XVII nebo XVI, v případě
    dokoupení volané karty hraje hráč sám" — the money depends on the partner (or none), not on
    which tarok was called; the contract's `called` is "validated when given, never
    required"."""
    hand = {"game": "povinnost", "declarer": "A", "partner": "C", "points": 18}
    without = one(hand)
    with_called = one(dict(hand, called="XIX"))
    assert without["scores"] == with_called["scores"] == {"A": -90, "B": 90, "C": -90, "D": 90}
    errors = errors_of(card(dict(hand, called="XX")))
    assert [(e["field"], e["code"]) for e in errors] == [("called", "invalid_called_tarok")]


def test_czech_solo_valat_and_the_opponents_pagat():
    """004 Sólo: "je hra jednoho proti třem"; Valát: "Při uhraném valátu" the declarer takes
    every trick, so no opponent wins the last one with the pagát (Hlášky: "pagát")."""
    silent = {"announced": False, "achieved": True}
    errors = errors_of(card({"game": "solo", "declarer": "A", "points": 60, "announcements": [
        {"name": "valat", "by": "A", **silent}, {"name": "pagat", "by": "B", **silent}]}))
    assert [(e["field"], e["code"], e["params"]["first"], e["params"]["second"])
            for e in errors] == [("announcements[1]", "impossible_together", "valát", "pagát")]
