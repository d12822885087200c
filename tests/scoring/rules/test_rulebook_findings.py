"""What a second reading of the five rulebooks found (project issue 15), one test per finding,
each citing the clause of the seed it reads (seed files in the project's seeds, named by
their number: 000 Tarok.net 2007, 001 Steirischer Tarockcup, 002 Tarok.net revision, 003
Lada Zei, 004 GP Vysočiny). Every test failed before the fix it belongs to."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import ScorecardInvalid, evaluate
from scoring.errors import MAX_ERRORS

P4 = ["A", "B", "C", "D"]
P3 = ["A", "B", "C"]
TAROK_NET = ["tarok-net-2007", "tarok-net-revised"]


def run(ruleset: str, hands: list[dict[str, Any]], mode: str | None = None,
        players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    card: dict[str, Any] = {"ruleset": ruleset, "players": players or P4, "hands": hands,
                            **extra}
    if mode is not None:
        card["mode"] = mode
    return evaluate(card)


def errors_of(card: dict[str, Any]) -> list[dict[str, Any]]:
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate(card)
    return exc.value.errors


def silent(name: str, by: str, achieved: bool = True) -> dict[str, Any]:
    return {"name": name, "by": by, "announced": False, "achieved": achieved}


# -- 1. a silent valat is scored with the points as they were counted --------------------------

@pytest.mark.parametrize("ruleset", TAROK_NET)
def test_silent_valat_of_the_declarer_with_the_talon_rest_counted_by_the_defenders(ruleset):
    """000/002 §2.3: "Ostanek talona pa pripade nasprotnikoma" — after a trojka the three talon
    cards the declarer did not take count for the defenders, so his side never has all 70.
    §3.6 a) "*valat: 50" with "*opomba: tihi valat se prišteva k igri": the game with its
    difference as counted (62 points: 10 + 27) plus the valat's 50."""
    r = run(ruleset, [{"game": "trojka", "declarer": "A", "resting": "D", "points": 62,
                       "announcements": [silent("valat", "A")]}], mode="tri+1")
    assert r["hands"][0]["scores"] == {"A": 10 + 27 + 50, "B": 0, "C": 0, "D": 0}


@pytest.mark.parametrize("ruleset", TAROK_NET)
def test_silent_valat_in_solo_brez_by_four(ruleset):
    """000/002 §2.4: "Solo brez ... Talon se v tem primeru ne odkrije in pripade nasprotnikom":
    the six talon cards are the defenders'; "valat (tihi) 50 / 50"."""
    r = run(ruleset, [{"game": "solo_brez", "declarer": "A", "points": 50,
                       "announcements": [silent("valat", "A")]}], mode="four")
    assert r["hands"][0]["scores"] == {"A": 80 + 15 + 50, "B": 0, "C": 0, "D": 0}


@pytest.mark.parametrize("ruleset", TAROK_NET)
def test_silent_valat_of_the_defenders_leaves_the_declarer_his_discards(ruleset):
    """000/002 §2.3: the exchanged cards "pripadajo njemu ter se njihova vrednost (točke)
    prištejejo številu točk" — the declarer keeps 2 points of discards after the defenders'
    valat; §3.6 b.1 "*valat: 50 50"."""
    r = run(ruleset, [{"game": "trojka", "declarer": "A", "points": 2,
                       "announcements": [silent("valat", "B")]}], mode="three", players=P3)
    assert r["hands"][0]["scores"] == {"A": -(10 + 33), "B": 50, "C": 50}


def test_a_valat_with_points_no_talon_rest_can_hold_is_still_refused():
    """A trojka's defenders hold only the three talon cards the declarer left (§2.3), at most
    13 points: 30 points for them cannot go with the declarer's valat."""
    errors = errors_of({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": P4,
                        "hands": [{"game": "trojka", "declarer": "A", "resting": "D",
                                   "points": 40,
                                   "announcements": [silent("valat", "A")]}]})
    assert [(e["field"], e["code"]) for e in errors] == \
        [("announcements[0].achieved", "valat_points_mismatch")]


# -- 2. the called tarok of a Czech povinnost is optional --------------------------------------

def test_povinnost_without_the_called_tarok_is_scored():
    """004 Základní povinnost: "volí se před kupem XIX nebo XVIII nebo XVII nebo XVI, v případě
    dokoupení volané karty hraje hráč sám" — the money depends on the partner (or none), not on
    which tarok was called; the contract's `called` is "validated when given, never
    required"."""
    hand = {"game": "povinnost", "declarer": "A", "partner": "C", "points": 18}
    without = run("gp-vysociny-2004", [hand])["hands"][0]
    with_called = run("gp-vysociny-2004", [dict(hand, called="XIX")])["hands"][0]
    assert without["scores"] == with_called["scores"] == {"A": -90, "B": 90, "C": -90, "D": 90}
    errors = errors_of({"ruleset": "gp-vysociny-2004", "players": P4,
                        "hands": [dict(hand, called="XX")]})
    assert [(e["field"], e["code"]) for e in errors] == [("called", "invalid_called_tarok")]


# -- 3. announcements that cannot be true together are refused, naming the pair ----------------

def _pair(errors: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    return [(e["field"], e["code"], e["params"]["first"], e["params"]["second"])
            for e in errors]


@pytest.mark.parametrize("ruleset", TAROK_NET)
def test_declarers_trula_and_a_defenders_pagat_ultimo(ruleset):
    """000/002 §2.3: "Trula pomeni, da mora ob koncu igre igralec ... imeti v svojih vzetkih
    pagata, monda in škisa" and "Pagat ultimo pomeni, da ... bo realiziral z njim zadnji
    vzetek": one pagat cannot end in both sides' tricks."""
    errors = errors_of({"ruleset": ruleset, "mode": "tri+1", "players": P4, "hands": [
        {"game": "trojka", "declarer": "A", "resting": "D", "points": 40,
         "announcements": [silent("trula", "A"), silent("pagat_ultimo", "B")]}]})
    assert _pair(errors) == [("announcements[1]", "impossible_together", "trula",
                              "pagat ultimo")]


@pytest.mark.parametrize("ruleset", TAROK_NET)
def test_silent_valat_and_the_defenders_kralji(ruleset):
    """000/002 §2.3: "Kralji pomeni, da bo imel napovedovalec v svojih vzetkih vse štiri
    kralje" — defenders who took no trick (the declarer's valat) have no kings in their
    tricks."""
    errors = errors_of({"ruleset": ruleset, "mode": "tri+1", "players": P4, "hands": [
        {"game": "trojka", "declarer": "A", "resting": "D", "points": 70,
         "announcements": [silent("valat", "A"), silent("kralji", "C")]}]})
    assert _pair(errors) == [("announcements[1]", "impossible_together", "valat", "kralji")]


def test_czech_solo_valat_and_the_opponents_pagat():
    """004 Sólo: "je hra jednoho proti třem"; Valát: "Při uhraném valátu" the declarer takes
    every trick, so no opponent wins the last one with the pagát (Hlášky: "pagát")."""
    errors = errors_of({"ruleset": "gp-vysociny-2004", "players": P4, "hands": [
        {"game": "solo", "declarer": "A", "points": 60,
         "announcements": [silent("valat", "A"), silent("pagat", "B")]}]})
    assert _pair(errors) == [("announcements[1]", "impossible_together", "valát", "pagát")]


def test_tarockcup_silent_valat_and_a_defenders_pagat():
    """001 Valat: "Sobald ein Valat angesagt oder still erzielt wird" the declarer's side has
    every trick; Die Prämien "Pagat (I)" is won in the last trick, which a defender did not
    take."""
    errors = errors_of({"ruleset": "steirischer-tarockcup-2017", "players": P4, "hands": [
        {"game": "dreier", "declarer": "A", "won": True,
         "announcements": [silent("valat", "A"), silent("pagat", "B")]}]})
    assert _pair(errors) == [("announcements[1]", "impossible_together", "Valat", "Pagat")]


def test_zei_valat_with_forty_points_is_refused():
    """003 Valat: "nasprotnikom pa ne bo pustil nobenega vzetka" — the opponents of a valat
    count only the talon cards the declarer left them (TAROK ZA ŠTIRI: "porine ostanek
    talona nasprotnemu paru"), never 30 points after a tri."""
    errors = errors_of({"ruleset": "slovenski-tarok-zei", "mode": "three", "players": P3,
                        "hands": [{"game": "tri", "declarer": "A", "points": 40,
                                   "announcements": [silent("valat", "A")]}]})
    assert [(e["field"], e["code"]) for e in errors] == \
        [("announcements[0].achieved", "valat_contradicts_points")]


# -- 4. Zei: more than 35 points in klop is a punishment ---------------------------------------

def test_zei_klop_over_35_punishes_by_default():
    """003 KLOPECKI: "Če pa je kateri od igralcev sam nabral več kot 35 pik ... si zato za kazen
    piše kar 35 pik minusa" — a punishment ("za kazen") adds to what he took: 50 points
    write −85, not −35 (which would reward him)."""
    r = run("slovenski-tarok-zei", [{"game": "klop", "points_by_player":
                                     {"A": 50, "B": 20, "C": 0}}], mode="three", players=P3)
    assert r["hands"][0]["scores"] == {"A": -85, "B": -20, "C": 10}
    assert r["options"]["klop_over_35"] == "added"


# -- 5. the money sheet is in whole coins ------------------------------------------------------

def test_money_sheet_amounts_are_whole_ten_haler_coins():
    """004, the personal money under the sheet: "5,- Kč 2x / 1,- Kč 6x / 50 hal 6x / 10 hal
    10x" — the smallest coin is 10 haléř, so 6,55 Kč cannot lie on the table."""
    rows = [{"player": "8", "money": 655}, {"player": "23", "bought": 1000, "money": 230},
            {"player": "45", "money": 4200}, {"player": "98", "money": 3915}]
    errors = errors_of({"ruleset": "gp-vysociny-2004",
                        "sheet": {"table": 4, "round": 2, "players": rows}})
    assert [(e["field"], e["code"], e["params"]) for e in errors] == [
        ("sheet.players[0].money", "amount_not_in_coins", {"step": 10, "got": 655}),
        ("sheet.players[3].money", "amount_not_in_coins", {"step": 10, "got": 3915})]


# -- 6. the error list has a cap ---------------------------------------------------------------

def test_the_error_list_is_capped_with_a_closing_entry():
    """Every problem is reported (contract, Errors), but not without end: after MAX_ERRORS a
    closing entry says how many more there were."""
    bad = [{"game": "bogus", "declarer": "A", "resting": "D", "points": 40}] * (MAX_ERRORS + 50)
    errors = errors_of({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": P4,
                        "hands": bad})
    assert len(errors) == MAX_ERRORS + 1
    assert all(e["code"] == "unknown_game" for e in errors[:MAX_ERRORS])
    assert errors[-1] == {"hand": None, "field": "hands", "code": "more_errors",
                          "message": "and 50 more errors", "params": {"count": 50}}
