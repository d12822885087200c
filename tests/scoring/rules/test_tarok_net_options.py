"""Every value of every named option of the Tarok.net rulesets that reads an open clause of
seed 000 (`tarok-net-2007`) or seed 002 (`tarok-net-revised`), through `scoring.evaluate`.
Each test quotes its clause; docs/rulesets/tarok-net-2007.md and tarok-net-revised.md list the
options with the reading of each default."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import ScorecardInvalid, evaluate, rules

P4 = ["A", "B", "C", "D"]
RULESETS = ["tarok-net-2007", "tarok-net-revised"]


def run(ruleset: str, mode: str, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return evaluate({"ruleset": ruleset, "mode": mode, "players": P4, "hands": hands, **extra})


def scores(result: dict[str, Any], i: int = 0) -> dict[str, int]:
    return result["hands"][i]["scores"]


def radelci(result: dict[str, Any], i: int = 0) -> dict[str, int]:
    return result["hands"][i]["state"]["radelci"]


def lines_add_up(result: dict[str, Any]) -> None:
    for h in result["hands"]:
        for p, total in h["scores"].items():
            assert sum(ln["points"] for ln in h["lines"] if ln["player"] == p) == total


TROJKA_WON = {"game": "trojka", "declarer": "A", "resting": "D", "points": 45}  # T = 20
TROJKA_LOST = {"game": "trojka", "declarer": "A", "resting": "D", "points": 30}  # T = -15


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_new_option_is_declared_with_labels(ruleset):
    declared = {o.name: o for o in rules.get(ruleset).options}
    names = {"several_radelci", "radelci_erased", "defenders_own_radelc",
             "partner_radelc_erased", "renons_contra", "kralj_ultimo_row",
             "announcements_in_high_games"}
    if ruleset == "tarok-net-revised":
        names.add("solo_other_defenders_share")
    else:
        assert "solo_other_defenders_share" not in declared
    for name in names:
        option = declared[name]
        assert option.label and option.clause and all(c.label for c in option.choices)
    assert {c.value for c in declared["partner_radelc"].choices} == {
        "declarer", "own", "either"}


# -- §3.4 "Radelc podvoji celoten seštevek točk igre in se briše igralcu, ki igra" ----------------

@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("value,factor", [(None, 2), ("once", 2), ("each", 4)])
def test_several_radelci_double_once_or_once_each(ruleset, value, factor):
    options = {} if value is None else {"several_radelci": value}
    r = run(ruleset, "tri+1", [TROJKA_WON], initial_state={"radelci": {"A": 2}},
            options=options)
    assert scores(r)["A"] == 20 * factor
    doublings = [ln for ln in r["hands"][0]["lines"] if ln["code"] == "radelc"]
    assert [ln["params"]["subtotal"] for ln in doublings] == [20, 40][:factor // 2]
    lines_add_up(r)
    # one radelc: the same under both readings
    r = run(ruleset, "tri+1", [TROJKA_WON], initial_state={"radelci": {"A": 1}},
            options=options)
    assert scores(r)["A"] == 40


def test_several_radelci_each_in_a_renons():
    # §3.4 "Pri renonsu se radelc upošteva le, če ga ima igralec, ki igro igra"
    hand = dict(TROJKA_WON, points=None, penalties=[{"kind": "renons", "player": "B"}])
    del hand["points"]
    once = run("tarok-net-2007", "tri+1", [hand], initial_state={"radelci": {"A": 2}})
    each = run("tarok-net-2007", "tri+1", [hand], initial_state={"radelci": {"A": 2}},
               options={"several_radelci": "each"})
    assert scores(once)["B"] == -(10 + 35) * 2
    assert scores(each)["B"] == -(10 + 35) * 4
    lines_add_up(each)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("value,left", [(None, 1), ("one", 1), ("all", 0)])
def test_won_game_erases_one_or_all_radelci(ruleset, value, left):
    options = {} if value is None else {"radelci_erased": value}
    r = run(ruleset, "tri+1", [TROJKA_WON, TROJKA_LOST],
            initial_state={"radelci": {"A": 2}}, options=options)
    assert radelci(r, 0)["A"] == left
    assert radelci(r, 1)["A"] == left  # a lost game erases nothing


# -- §2.3 "Če ima igralec refe, se mu točke pri igri podvojijo" -----------------------------------

@pytest.mark.parametrize("value", [None, False, True])
def test_defenders_own_radelc_2007(value):
    # B's kontra on A's lost trojka was right (2007 §3.6 a.2: Brani1-K "T"), and B realised an
    # announced trula (§3.5 "trula 10 (napovedana 20)"); B and C hold a radelc, D rests.
    hand = dict(TROJKA_LOST, contras=[{"on": "game", "by": "B", "level": 1}],
                announcements=[{"name": "trula", "by": "B", "announced": True,
                                "achieved": True}])
    options = {} if value is None else {"defenders_own_radelc": value}
    r = run("tarok-net-2007", "tri+1", [hand], options=options,
            initial_state={"radelci": {"B": 1, "C": 1, "D": 1}})
    b = 15 + 20
    c = 10  # the fellow defender's y of the trula
    if value:
        assert scores(r) == {"A": -30, "B": 2 * b, "C": 2 * c, "D": 0}
    else:
        assert scores(r) == {"A": -30, "B": b, "C": c, "D": 0}
    assert radelci(r) == {"A": 0, "B": 1, "C": 1, "D": 1}  # a defender's radelc stays
    lines_add_up(r)


@pytest.mark.parametrize("value", [False, True])
def test_defenders_own_radelc_revised_not_the_resting_player(value):
    # revision §3.6 a.1 "Kontra formula: T * 2, –, T / 2, T / 2": B's kontra on A's won trojka
    # (T = 20) was wrong; C and the resting D write 10 each. D rests: he is no defender.
    hand = dict(TROJKA_WON, contras=[{"on": "game", "by": "B", "level": 1}])
    r = run("tarok-net-revised", "tri+1", [hand], options={"defenders_own_radelc": value},
            initial_state={"radelci": {"C": 1, "D": 1}})
    assert scores(r) == {"A": 40, "B": 0, "C": 20 if value else 10, "D": 10}


# -- §2.4 "(tudi soigralcu)"; "Ob uspešno končani igri se igralcu refe briše" ---------------------

FOUR_TROJKA = {"game": "trojka", "declarer": "A", "partner": "C", "points": 45}  # 20 / 10


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("value,a_holds,c_holds", [
    ("declarer", (40, 20), (20, 10)),
    ("own", (40, 10), (20, 20)),
    ("either", (40, 20), (20, 20)),
])
def test_partner_radelc_every_value(ruleset, value, a_holds, c_holds):
    for holder, expected in (("A", a_holds), ("C", c_holds)):
        r = run(ruleset, "four", [FOUR_TROJKA], options={"partner_radelc": value},
                initial_state={"radelci": {holder: 1}})
        assert (scores(r)["A"], scores(r)["C"]) == expected
        lines_add_up(r)


@pytest.mark.parametrize("partner_radelc,erased,left", [
    ("declarer", None, 1), ("declarer", "if_counted", 1), ("declarer", "always", 0),
    ("declarer", "never", 1),
    ("own", "if_counted", 0), ("own", "always", 0), ("own", "never", 1),
    ("either", "if_counted", 0),
])
def test_partner_radelc_erased_every_value(partner_radelc, erased, left):
    options = {"partner_radelc": partner_radelc}
    if erased is not None:
        options["partner_radelc_erased"] = erased
    lost = dict(FOUR_TROJKA, points=30)
    r = run("tarok-net-2007", "four", [FOUR_TROJKA, lost], options=options,
            initial_state={"radelci": {"C": 1}})
    assert radelci(r, 0)["C"] == left
    assert radelci(r, 1)["C"] == left  # a lost game erases nothing


# -- §3.9 "-vrednost igre + -35 ... Upoštevajo se tudi radelci in kontre" -------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("value", [None, "value_and_35", "value_only"])
def test_renons_contra_every_value(ruleset, value):
    hand = {"game": "dvojka", "declarer": "A", "resting": "D",
            "announcements": [{"name": "trula", "by": "A", "announced": True}],
            "contras": [{"on": "game", "by": "B", "level": 2 - 1},
                        {"on": "game", "by": "A", "level": 2}],
            "penalties": [{"kind": "renons", "player": "C"}]}
    klop = {"game": "klop", "resting": "D", "penalties": [{"kind": "renons", "player": "B"}],
            "contras": [{"on": "klop", "by": "A", "level": 1}]}
    options = {} if value is None else {"renons_contra": value}
    r = run(ruleset, "tri+1", [hand, klop], options=options)
    if value == "value_only":
        assert scores(r, 0)["C"] == -(30 * 4 + 35 + 20)
        assert scores(r, 1)["B"] == -35
    else:
        assert scores(r, 0)["C"] == -((30 + 35) * 4 + 20)
        assert scores(r, 1)["B"] == -70
    lines_add_up(r)
    # clause a) "pri tej napaki kontre ne veljajo": no contra under either reading
    hand_a = dict(hand, penalties=[{"kind": "renons", "player": "C", "clause": "a"}])
    assert scores(run(ruleset, "tri+1", [hand_a], options=options))["C"] == -(30 + 35 + 20)


# -- §2.4 "kralj ultimo (vleče soigralec) 10 / 10 ..., kralj ultimo (vleče sam) 25 / 10 ..." --------

def _kralj_ultimo(by: str, announced: bool = True) -> dict[str, Any]:
    return {"game": "dvojka", "declarer": "A", "partner": "B", "points": 40,
            "announcements": [{"name": "kralj_ultimo", "by": by, "announced": announced,
                               "achieved": True}]}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("value,by_declarer,by_partner", [
    (None, (20, 10), (20, 10)),
    ("partner", (20, 10), (20, 10)),
    ("taker", (50, 25), (20, 10)),
])
def test_kralj_ultimo_row_every_value(ruleset, value, by_declarer, by_partner):
    options = {} if value is None else {"kralj_ultimo_row": value}
    for by, (x, y) in (("A", by_declarer), ("B", by_partner)):
        r = run(ruleset, "four", [_kralj_ultimo(by)], options=options)
        # dvojka won by 5: 25 / 13 (12.5 rounded away from zero), plus the kralj ultimo
        assert (scores(r)["A"], scores(r)["B"]) == (25 + x, 13 + y)
    # silent, declarer alone: "vleče sam" 25 under every reading
    alone = dict(_kralj_ultimo("A", announced=False), partner=None)
    assert scores(run(ruleset, "four", [alone], options=options))["A"] == 20 + 5 + 25


@pytest.mark.parametrize("value,counted", [("partner", 20), ("taker", 50)])
def test_kralj_ultimo_row_in_a_renons(value, counted):
    hand = {"game": "dvojka", "declarer": "A", "partner": "B",
            "announcements": [{"name": "kralj_ultimo", "by": "A", "announced": True}],
            "penalties": [{"kind": "renons", "player": "C"}]}
    r = run("tarok-net-2007", "four", [hand], options={"kralj_ultimo_row": value})
    assert scores(r)["C"] == -(20 + 35 + counted)


# -- §3.5 "Pri visokih igrah ... se upoštevajo le točke, ki veljajo za to igro" --------------------

BERAC_WITH_ITEMS = {"game": "berac", "declarer": "A", "resting": "D", "won": True,
                    "announcements": [{"name": "trula", "by": "B", "announced": True,
                                       "achieved": True},
                                      {"name": "kralji", "by": "C", "announced": False,
                                       "achieved": True}],
                    "contras": [{"on": "trula", "by": "A", "level": 1}]}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("value", [None, "refused"])
def test_announcements_in_high_games_refused(ruleset, value):
    options = {} if value is None else {"announcements_in_high_games": value}
    with pytest.raises(ScorecardInvalid) as exc:
        run(ruleset, "tri+1", [BERAC_WITH_ITEMS], options=options)
    codes = {(e["field"], e["code"]) for e in exc.value.errors}
    assert ("announcements[0].name", "announcement_not_allowed") in codes
    assert ("announcements[1].name", "announcement_not_allowed") in codes


@pytest.mark.parametrize("ruleset", RULESETS)
def test_announcements_in_high_games_kept_and_not_scored(ruleset):
    options = {"announcements_in_high_games": "not_scored"}
    r = run(ruleset, "tri+1", [BERAC_WITH_ITEMS], options=options)
    assert scores(r) == {"A": 70, "B": 0, "C": 0, "D": 0}
    valat = {"game": "valat_tri", "declarer": "A", "partner": "B", "won": False,
             "announcements": [{"name": "pagat_ultimo", "by": "C", "announced": True,
                                "achieved": True}]}
    r = run(ruleset, "four", [valat], options=options)
    assert scores(r) == {"A": -200, "B": -100, "C": 0, "D": 0}
    # a renons counts the game only: "-napovedane posebne napovedi" are not its points
    renons = dict(BERAC_WITH_ITEMS, penalties=[{"kind": "renons", "player": "C"}])
    del renons["won"]
    assert scores(run(ruleset, "tri+1", [renons], options=options))["C"] == -(70 + 35)
    # the other rules of announcements still hold
    with pytest.raises(ScorecardInvalid):
        run(ruleset, "tri+1", [dict(BERAC_WITH_ITEMS, announcements=[
            {"name": "trula", "by": "D", "announced": True, "achieved": True}],
            contras=[])], options=options)


# -- revision §2.4: "nastopa tretji branitelj, ki se točkuje enako kot ostala branitelja" ---------

SOLO = {"game": "solo_tri", "declarer": "A", "points": 45,  # T = 40 + 10 = 50
        "contras": [{"on": "game", "by": "B", "level": 1}]}


@pytest.mark.parametrize("value,rounding,each", [
    (None, None, 25), ("each", None, 25),
    ("split", None, 13), ("split", "half_toward_zero", 12),
])
def test_solo_other_defenders_share_every_value(value, rounding, each):
    options: dict[str, Any] = {}
    if value is not None:
        options["solo_other_defenders_share"] = value
    if rounding is not None:
        options["rounding"] = rounding
    r = run("tarok-net-revised", "four", [SOLO], options=options)
    # a) "Kontra formula: T * 2 T T / 2": A 100, Brani1-K 0, the others T / 2 or a half of it
    assert scores(r) == {"A": 100, "B": 0, "C": each, "D": each}
    lines_add_up(r)


@pytest.mark.parametrize("value,each", [("each", 75), ("split", 38)])
def test_solo_other_defenders_share_rekontra_and_a_pair_game(value, each):
    rekontra = dict(SOLO, contras=SOLO["contras"] + [{"on": "game", "by": "A", "level": 2}])
    options = {"solo_other_defenders_share": value}
    r = run("tarok-net-revised", "four", [rekontra], options=options)
    assert scores(r) == {"A": 200, "B": 0, "C": each, "D": each}
    # with a partner the table's own columns hold under both readings: 60 30 0 15
    pair = {"game": "trojka", "declarer": "A", "partner": "B", "points": 55,
            "contras": [{"on": "game", "by": "C", "level": 1}]}
    assert scores(run("tarok-net-revised", "four", [pair], options=options)) == {
        "A": 60, "B": 30, "C": 0, "D": 15}
    # an odd share: T = 51, split T / 4 = 12.75 -> 13, each T / 2 = 25.5 -> 26
    odd = dict(SOLO, points=46)
    assert scores(run("tarok-net-revised", "four", [odd], options=options))["C"] == (
        26 if value == "each" else 13)


def test_solo_other_defenders_share_is_the_revisions_only():
    with pytest.raises(ScorecardInvalid) as exc:
        run("tarok-net-2007", "four", [SOLO], options={"solo_other_defenders_share": "each"})
    assert exc.value.errors[0]["code"] == "unknown_option"
    # 2007: the third defender writes nothing (§2.4 a "60 15 -30 0" without a partner)
    assert scores(run("tarok-net-2007", "four", [SOLO])) == {"A": 100, "B": -50, "C": 0,
                                                              "D": 0}


# -- options that existed before, each value once more ------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("value,d_gains", [(None, 1), (True, 1), (False, 0)])
def test_radelci_for_resting_player_every_value(ruleset, value, d_gains):
    # §3.4 "Radelc pridobijo vsi igralci pri visokih igrah"
    options = {} if value is None else {"radelci_for_resting_player": value}
    hand = {"game": "berac", "declarer": "A", "resting": "D", "won": False}
    r = run(ruleset, "tri+1", [hand], options=options)
    assert radelci(r) == {"A": 1, "B": 1, "C": 1, "D": d_gains}


@pytest.mark.parametrize("value", [None, False, True])
def test_radelc_doubles_defenders_every_value(value):
    # 2007 §3.6 a.1: B's kontra wrong on A's won trojka: 40, -20; A holds a radelc
    hand = dict(TROJKA_WON, contras=[{"on": "game", "by": "B", "level": 1}])
    options = {} if value is None else {"radelc_doubles_defenders": value}
    r = run("tarok-net-2007", "tri+1", [hand], options=options,
            initial_state={"radelci": {"A": 1}})
    assert scores(r) == {"A": 80, "B": -40 if value else -20, "C": 0, "D": 0}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_option_is_a_row_of_the_docs_options_table(ruleset):
    """docs/rulesets/<ruleset>.md: option, default, choices, why, clause — one row each."""
    from pathlib import Path

    declared = rules.get(ruleset)
    text = (Path(__file__).resolve().parents[3] / declared.docs).read_text(encoding="utf-8")
    table = text.split("## Options", 1)[1]
    rows = {line.split("|")[1].strip().strip("`"): [c.strip() for c in line.split("|")[1:-1]]
            for line in table.splitlines() if line.startswith("| `")}
    for option in declared.options:
        row = rows[option.name]
        default = str(option.default).lower() if isinstance(option.default, bool) \
            else str(option.default)
        assert row[1] == f"`{default}`", option.name
        for choice in option.choices:
            value = str(choice.value).lower() if isinstance(choice.value, bool) \
                else str(choice.value)
            assert f"`{value}`" in row[2], (option.name, value)
        assert '"' in row[4], option.name  # the clause is quoted


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("value,halves", [
    (None, (7, -7, 8)), ("half_away_from_zero", (7, -7, 8)),
    ("half_toward_zero", (6, -6, 7)), ("half_to_even", (6, -6, 8)),
])
def test_rounding_of_an_odd_half_every_value(ruleset, value, halves):
    # §3.3 "zaokrožuje se na 1"; §2.4 the partner "piše polovico točk glavnega igralca":
    # trojka won / lost by 3 is 13, half 6.5; won by 5 is 15, half 7.5
    options = {} if value is None else {"rounding": value}
    hands = [dict(FOUR_TROJKA, points=38), dict(FOUR_TROJKA, points=32),
             dict(FOUR_TROJKA, points=40)]
    r = run(ruleset, "four", hands, options=options)
    assert tuple(scores(r, i)["C"] for i in range(3)) == halves
    assert tuple(scores(r, i)["A"] for i in range(3)) == (13, -13, 15)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("value,by_offender", [
    (None, {"A": 135, "C": 135, "D": 135}),
    ("all", {"A": 135, "C": 135, "D": 135}),
    ("offenders_side", {"A": 85, "C": 115, "D": 65}),
])
def test_renons_announcements_every_value(ruleset, value, by_offender):
    # §3.9 "-vrednost igre + -35 + -napovedane posebne napovedi": A's announced trula (20) and
    # B's announced pagat ultimo (50) in A's dvojka (30); D rests
    options = {} if value is None else {"renons_announcements": value}
    for offender, total in by_offender.items():
        hand = {"game": "dvojka", "declarer": "A", "resting": "D",
                "announcements": [{"name": "trula", "by": "A", "announced": True},
                                  {"name": "pagat_ultimo", "by": "B", "announced": True}],
                "penalties": [{"kind": "renons", "player": offender}]}
        r = run(ruleset, "tri+1", [hand], options=options)
        assert scores(r)[offender] == -total, offender
        lines_add_up(r)


# -- §3.4 "Radelc pridobijo vsi igralci pri visokih igrah" vs §2.3/§2.4 (klop only) -----------

@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("value", "gained"), [(None, 0), ("tri+1", 0), ("every_mode", 1)])
@pytest.mark.parametrize(("mode", "players", "hand"), [
    ("three", ["A", "B", "C"], {"game": "berac", "declarer": "A", "won": False}),
    ("four", P4, {"game": "valat_solo_tri", "declarer": "A", "won": True}),
    ("four", P4, {"game": "barvni_valat_tri", "declarer": "A", "partner": "B", "won": True}),
])
def test_high_game_radelci_in_three_and_four(ruleset, value, gained, mode, players, hand):
    options = {} if value is None else {"options": {"high_game_radelci": value}}
    result = evaluate({"ruleset": ruleset, "mode": mode, "players": players, "hands": [hand],
                       **options})
    assert radelci(result) == dict.fromkeys(players, gained)


@pytest.mark.parametrize("value", ["tri+1", "every_mode"])
def test_high_game_radelci_leave_tri1_and_klop_as_they_are(value):
    result = run("tarok-net-2007", "tri+1",
                 [{"game": "berac", "declarer": "A", "resting": "D", "won": True}],
                 options={"high_game_radelci": value})
    assert radelci(result) == dict.fromkeys(P4, 1)
    klop = evaluate({"ruleset": "tarok-net-2007", "mode": "three", "players": ["A", "B", "C"],
                     "options": {"high_game_radelci": value},
                     "hands": [{"game": "klop", "points_by_player": {"A": 20, "B": 20, "C": 30}}]})
    assert radelci(klop) == {"A": 1, "B": 1, "C": 1}
