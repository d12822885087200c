"""Every worked example and value table of the Tarok.net seeds (000: rules of 2007, 002: the
revision), as table-driven tests through the public `scoring.evaluate` contract.

Each case cites its clause. Contra rows use an item of value T = 30 (a trojka won or lost by
20) or T = 50 (announced pagat ultimo), as in the seeds' examples.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import ScorecardInvalid, evaluate

P4 = ["A", "B", "C", "D"]
P3 = ["A", "B", "C"]


def card(ruleset: str, mode: str, hands: list[dict[str, Any]], players=None, **extra):
    if players is None:
        players = P3 if mode == "three" else P4
    return evaluate({"ruleset": ruleset, "mode": mode, "players": players, "hands": hands,
                     **extra})


def item_points(hand_result: dict[str, Any], item: str) -> dict[str, int]:
    """What each player writes for one item (a game code or an announcement name)."""
    out: dict[str, int] = {}
    for line in hand_result["lines"]:
        params = line["params"]
        if line["code"] == "radelc":
            continue
        if params.get("name") == item or params.get("game") == item:
            out[line["player"]] = out.get(line["player"], 0) + line["points"]
    return out


def scores(result: dict[str, Any], i: int = 0) -> dict[str, int]:
    return result["hands"][i]["scores"]


# -- §3.5 / §2.3 / §2.4 value tables ------------------------------------------------------------

THREE_HANDED_HIGH = [
    ("berac", 70), ("barvni_valat_tri", 125), ("barvni_valat_dva", 150),
    ("barvni_valat_ena", 175), ("barvni_valat_brez", 250), ("valat_tri", 250),
    ("valat_dva", 300), ("valat_ena", 350), ("valat_brez", 500),
]
THREE_HANDED_POINTS = [("trojka", 10), ("dvojka", 30), ("enka", 50), ("solo_brez", 80)]
FOUR_HANDED_HIGH = [
    ("berac", 70, None), ("barvni_valat_tri", 100, 50), ("barvni_valat_dva", 110, 55),
    ("barvni_valat_ena", 120, 60), ("barvni_valat_solo_tri", 125, None),
    ("barvni_valat_solo_dva", 150, None), ("barvni_valat_solo_ena", 175, None),
    ("barvni_valat_brez", 250, None), ("valat_tri", 200, 100), ("valat_dva", 220, 110),
    ("valat_ena", 240, 120), ("valat_solo_tri", 250, None), ("valat_solo_dva", 300, None),
    ("valat_solo_ena", 350, None), ("valat_brez", 500, None),
]
FOUR_HANDED_POINTS = [
    ("trojka", 10, 5), ("dvojka", 20, 10), ("enka", 30, 15), ("solo_tri", 40, None),
    ("solo_dva", 50, None), ("solo_ena", 60, None), ("solo_brez", 80, None),
]
RULESETS = ["tarok-net-2007", "tarok-net-revised"]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("mode", ["tri+1", "three"])
@pytest.mark.parametrize("game,value", THREE_HANDED_HIGH)
@pytest.mark.parametrize("won", [True, False])
def test_high_games_three_handed_only_their_own_value(ruleset, mode, game, value, won):
    # §3.5 / §2.3 table; "Pri visokih igrah ... se upoštevajo le točke, ki veljajo za to igro"
    hand = {"game": game, "declarer": "A", "won": won}
    if mode == "tri+1":
        hand["resting"] = "D"
    r = card(ruleset, mode, [hand])
    assert r["hands"][0]["value"] == value
    assert scores(r)["A"] == (value if won else -value)
    assert all(v == 0 for p, v in scores(r).items() if p != "A")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("mode", ["tri+1", "three"])
@pytest.mark.parametrize("game,value", THREE_HANDED_POINTS)
@pytest.mark.parametrize("points,won,diff", [(36, True, 1), (35, False, 0), (50, True, 15),
                                             (20, False, 15), (70, True, 35), (0, False, 35)])
def test_points_games_three_handed_value_plus_difference(ruleset, mode, game, value, points,
                                                         won, diff):
    # §3.7: "Igra je dobljena, če igralec zbere 36 točk ali več ... Če ima igralec 35 točk ali
    # manj, pade. K vrednosti igre se prišteva (odšteva) še dejanska razlika (od 35 točk)."
    hand = {"game": game, "declarer": "A", "points": points}
    if mode == "tri+1":
        hand["resting"] = "D"
    r = card(ruleset, mode, [hand])
    assert r["hands"][0]["value"] == value + diff
    assert scores(r)["A"] == (value + diff) * (1 if won else -1)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("game,value,partner_value", FOUR_HANDED_HIGH)
@pytest.mark.parametrize("won", [True, False])
def test_high_games_four_handed_table(ruleset, game, value, partner_value, won):
    # §2.4 table "glavni igralec / soigralec"
    hand = {"game": game, "declarer": "A", "won": won}
    if partner_value is not None:
        hand["partner"] = "C"
    r = card(ruleset, "four", [hand])
    sign = 1 if won else -1
    assert r["hands"][0]["value"] == value
    assert scores(r)["A"] == sign * value
    assert scores(r)["C"] == (sign * partner_value if partner_value else 0)
    assert scores(r)["B"] == scores(r)["D"] == 0


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("game,value,partner_value", FOUR_HANDED_POINTS)
def test_points_games_four_handed_partner_writes_half(ruleset, game, value, partner_value):
    # §2.4: "Soigralec ... piše polovico točk glavnega igralca (velja za igre, razliko in
    # napovedi)". Won by 11: the partner writes half of value + 11.
    hand = {"game": game, "declarer": "A", "points": 46}
    if partner_value is not None:
        hand["partner"] = "B"
    r = card(ruleset, "four", [hand])
    assert scores(r)["A"] == value + 11
    if partner_value is not None:
        total = value + 11
        assert scores(r)["B"] == (total + 1) // 2  # half rounded away from zero (§3.3)
    else:
        assert scores(r)["B"] == 0


def test_four_partner_half_rounding_options():
    # trojka won by 5 = 15; partner half = 7.5 (§2.4), rounded per option (§3.3 "zaokrožuje
    # se na 1").
    hand = {"game": "trojka", "declarer": "A", "partner": "B", "points": 40}
    lost = {"game": "trojka", "declarer": "A", "partner": "B", "points": 30}
    expected = {"half_away_from_zero": (8, -8), "half_toward_zero": (7, -7),
                "half_to_even": (8, -8)}
    for rounding, (w, lo) in expected.items():
        r = card("tarok-net-2007", "four", [hand, lost], options={"rounding": rounding})
        assert scores(r, 0)["B"] == w
        assert scores(r, 1)["B"] == lo


# -- announcements (§3.5, §2.4) -----------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name,silent,announced", [
    ("kralji", 10, 20), ("trula", 10, 20), ("pagat_ultimo", 25, 50)])
def test_declarer_announcements_tri1(ruleset, name, silent, announced):
    # §3.5: "kralji 10 (napovedani 20), trula 10 (napovedana 20), pagat ultimo 25 (napovedani
    # 50)"; "Izgubljene ... napovedi se pišejo v minus"; §3.6 a) tiha realizacija rows.
    base = {"game": "trojka", "declarer": "A", "resting": "D", "points": 40}
    for ann, exp in [({"announced": False, "achieved": True}, silent),
                     ({"announced": True, "achieved": True}, announced),
                     ({"announced": True, "achieved": False}, -announced)]:
        r = card(ruleset, "tri+1", [dict(base, announcements=[dict(name=name, by="A", **ann)])])
        assert item_points(r["hands"][0], name) == {"A": exp}
        assert scores(r)["A"] == 15 + exp


@pytest.mark.parametrize("ruleset", RULESETS)
def test_lost_silent_pagat_in_minus(ruleset):
    # §3.5: "izgubljeni tihi pagat ... se pišejo v minus"; §3.6 a.2 "Tiha realizacija pagat: -25"
    r = card(ruleset, "tri+1", [{"game": "trojka", "declarer": "A", "resting": "D",
                                 "points": 40, "announcements": [
                                     {"name": "pagat_ultimo", "by": "A", "announced": False,
                                      "achieved": False}]}])
    assert item_points(r["hands"][0], "pagat_ultimo") == {"A": -25}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_silent_valat_of_declarer_adds_to_game(ruleset):
    # §3.6 a) "*valat: 50" and "tihi valat se prišteva k igri"
    r = card(ruleset, "tri+1", [{"game": "trojka", "declarer": "A", "resting": "D",
                                 "points": 70, "announcements": [
                                     {"name": "valat", "by": "A", "announced": False,
                                      "achieved": True}]}])
    assert scores(r) == {"A": 10 + 35 + 50, "B": 0, "C": 0, "D": 0}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name,silent_xy,announced_xy", [
    ("pagat_ultimo", (25, 10), (50, 25)), ("trula", (10, 10), (20, 10)),
    ("kralji", (10, 10), (20, 10))])
def test_defender_announcements_tri1_rows(ruleset, name, silent_xy, announced_xy):
    # §3.6 b.1 rows "Tiha realizacija" and "Napoved" (Brani1-N, Brani2); b.2 "Napoved" -T, -T/2
    base = {"game": "trojka", "declarer": "A", "resting": "D", "points": 40}
    rows = [({"announced": False, "achieved": True}, silent_xy),
            ({"announced": True, "achieved": True}, announced_xy),
            ({"announced": True, "achieved": False}, (-announced_xy[0], -announced_xy[1]))]
    for ann, (x, y) in rows:
        r = card(ruleset, "tri+1", [dict(base, announcements=[dict(name=name, by="B", **ann)])])
        assert item_points(r["hands"][0], name) == {"B": x, "C": y}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_defender_silent_valat(ruleset):
    # §3.6 b.1 "*valat: 50 50"; the declarer lost with 0 points.
    r = card(ruleset, "tri+1", [{"game": "trojka", "declarer": "A", "resting": "D",
                                 "points": 0, "announcements": [
                                     {"name": "valat", "by": "C", "announced": False,
                                      "achieved": True}]}])
    assert scores(r) == {"A": -45, "B": 50, "C": 50, "D": 0}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name,partner_present,silent_xy,announced_xy", [
    ("trula", True, (10, 10), (20, 10)), ("kralji", True, (10, 10), (20, 10)),
    ("pagat_ultimo", True, (25, 10), (50, 25)), ("valat", True, (50, 50), None),
    ("kralj_ultimo", True, (10, 10), (20, 10)), ("kralj_ultimo", False, (25, None), (50, None)),
])
def test_four_handed_announcement_x_y_columns(ruleset, name, partner_present, silent_xy,
                                              announced_xy):
    # §2.4 "Ostale realizacije in napovedi" with the "x / y" columns; kralj ultimo "vleče
    # soigralec" with a partner, "vleče sam" when the declarer plays alone.
    hand = {"game": "trojka", "declarer": "A", "points": 70 if name == "valat" else 40}
    if partner_present:
        hand["partner"] = "C"
    r = card(ruleset, "four", [dict(hand, announcements=[
        {"name": name, "by": "A", "announced": False, "achieved": True}])])
    exp = {"A": silent_xy[0]}
    if partner_present:
        exp["C"] = silent_xy[1]
    assert item_points(r["hands"][0], name) == exp
    if announced_xy is None:
        return
    r = card(ruleset, "four", [dict(hand, announcements=[
        {"name": name, "by": "A", "announced": True, "achieved": True}])])
    exp = {"A": announced_xy[0]}
    if partner_present:
        exp["C"] = announced_xy[1]
    assert item_points(r["hands"][0], name) == exp


# -- contra tables ----------------------------------------------------------------------------

def _game_hand(mode: str, points: int, contras: list, partner: str | None = None):
    hand = {"game": "trojka", "declarer": "A", "points": points, "contras": contras}
    if mode == "tri+1":
        hand["resting"] = "D"
    if partner:
        hand["partner"] = partner
    return hand


KONTRA = [{"on": "game", "by": "B", "level": 1}]
REKONTRA = KONTRA + [{"on": "game", "by": "A", "level": 2}]

# (ruleset, mode, clause, points of the declarer (T = 30 either way), contras, A, B, C, D)
GAME_CONTRA_ROWS = [
    # 2007 §3.6 a.1 and a.2 (TRI+1): Igralec, Brani1-K, Brani2, Talon
    ("tarok-net-2007", "tri+1", "§3.6 a.1 igra", 55, [], 30, 0, 0, 0),
    ("tarok-net-2007", "tri+1", "§3.6 a.1 kontra", 55, KONTRA, 60, -30, 0, 0),
    ("tarok-net-2007", "tri+1", "§3.6 a.1 rekontra", 55, REKONTRA, 120, -90, 0, 0),
    ("tarok-net-2007", "tri+1", "§3.6 a.2 igra", 15, [], -30, 0, 0, 0),
    ("tarok-net-2007", "tri+1", "§3.6 a.2 kontra", 15, KONTRA, -60, 30, 0, 0),
    ("tarok-net-2007", "tri+1", "§3.6 a.2 rekontra", 15, REKONTRA, -120, 90, 0, 0),
    # 2007 §2.3 a) and b) (TRI): Igralec, Brani1-K, Brani2
    ("tarok-net-2007", "three", "§2.3 a igra", 55, [], 30, 0, 0, None),
    ("tarok-net-2007", "three", "§2.3 a kontra", 55, KONTRA, 60, -30, 0, None),
    ("tarok-net-2007", "three", "§2.3 a rekontra", 55, REKONTRA, 120, -90, 0, None),
    ("tarok-net-2007", "three", "§2.3 b igra", 15, [], -30, 0, 0, None),
    ("tarok-net-2007", "three", "§2.3 b kontra", 15, KONTRA, -60, 30, 0, None),
    ("tarok-net-2007", "three", "§2.3 b rekontra", 15, REKONTRA, -120, 90, 0, None),
    # revision §2.3 a) and b) (TRI)
    ("tarok-net-revised", "three", "§2.3 a igra", 55, [], 30, 0, 0, None),
    ("tarok-net-revised", "three", "§2.3 a kontra", 55, KONTRA, 60, 0, 15, None),
    ("tarok-net-revised", "three", "§2.3 a rekontra", 55, REKONTRA, 120, 0, 45, None),
    ("tarok-net-revised", "three", "§2.3 b igra", 15, [], -30, 0, 0, None),
    ("tarok-net-revised", "three", "§2.3 b kontra", 15, KONTRA, -60, 15, 0, None),
    ("tarok-net-revised", "three", "§2.3 b rekontra", 15, REKONTRA, -120, 45, 0, None),
]


@pytest.mark.parametrize("ruleset,mode,clause,points,contras,a,b,c,d", GAME_CONTRA_ROWS)
def test_game_contra_rows(ruleset, mode, clause, points, contras, a, b, c, d):
    r = card(ruleset, mode, [_game_hand(mode, points, contras)])
    exp = {"A": a, "B": b, "C": c}
    if d is not None:
        exp["D"] = d
    assert scores(r) == exp, clause


# Revision §3.6 a) with T = 50 (announced pagat ultimo of the declarer; the game is a trojka
# won with 36 points = 11, kept out of the comparison by item_points).
PAGAT_K = [{"on": "pagat_ultimo", "by": "B", "level": 1}]
PAGAT_RK = PAGAT_K + [{"on": "pagat_ultimo", "by": "A", "level": 2}]
DECLARER_PAGAT_ROWS = [
    ("tarok-net-revised", "§3.6 a.1 napoved", True, [], {"A": 50}),
    ("tarok-net-revised", "§3.6 a.1 kontra", True, PAGAT_K, {"A": 100, "C": 25, "D": 25}),
    ("tarok-net-revised", "§3.6 a.1 rekontra", True, PAGAT_RK, {"A": 200, "C": 75, "D": 75}),
    ("tarok-net-revised", "§3.6 a.2 napoved", False, [], {"A": -50}),
    ("tarok-net-revised", "§3.6 a.2 kontra", False, PAGAT_K, {"A": -100, "B": 25}),
    ("tarok-net-revised", "§3.6 a.2 rekontra", False, PAGAT_RK, {"A": -200, "B": 75}),
    ("tarok-net-2007", "§3.6 a.1 kontra (T=50)", True, PAGAT_K, {"A": 100, "B": -50}),
    ("tarok-net-2007", "§3.6 a.2 rekontra (T=50)", False, PAGAT_RK, {"A": -200, "B": 150}),
]


@pytest.mark.parametrize("ruleset,clause,achieved,contras,expected", DECLARER_PAGAT_ROWS)
def test_declarer_announcement_contra_rows_tri1(ruleset, clause, achieved, contras, expected):
    r = card(ruleset, "tri+1", [{
        "game": "trojka", "declarer": "A", "resting": "D", "points": 36,
        "announcements": [{"name": "pagat_ultimo", "by": "A", "announced": True,
                           "achieved": achieved}],
        "contras": contras}])
    assert item_points(r["hands"][0], "pagat_ultimo") == expected, clause


def _defender_rows():
    # §3.6 b) with B announcing, A (declarer) giving the kontra, C = Brani2, D = Talon.
    k = lambda name: [{"on": name, "by": "A", "level": 1}]  # noqa: E731
    rk = lambda name: k(name) + [{"on": name, "by": "C", "level": 2}]  # noqa: E731
    rows = []
    for name, t in (("pagat_ultimo", 50), ("trula", 20), ("kralji", 20)):
        # 2007 §3.6 b.1 / b.2: Brani1-N, Brani2, Igralec, Talon
        rows += [
            ("tarok-net-2007", f"§3.6 b.1 kontra {name}", name, True, k(name),
             {"B": 2 * t, "C": t // 2, "A": -t}),
            ("tarok-net-2007", f"§3.6 b.1 rekontra {name}", name, True, rk(name),
             {"B": 4 * t, "C": t // 2, "A": -3 * t}),
            ("tarok-net-2007", f"§3.6 b.2 kontra {name}", name, False, k(name),
             {"B": -2 * t, "C": -t // 2, "A": t}),
            ("tarok-net-2007", f"§3.6 b.2 rekontra {name}", name, False, rk(name),
             {"B": -4 * t, "C": -t // 2, "A": 3 * t}),
        ]
    # revision §3.6 b.1 / b.2, the printed example numbers
    rows += [
        ("tarok-net-revised", "§3.6 b.1 kontra pagat", "pagat_ultimo", True, k("pagat_ultimo"),
         {"B": 100, "C": 50, "D": 25}),
        ("tarok-net-revised", "§3.6 b.1 kontra trula", "trula", True, k("trula"),
         {"B": 40, "C": 20, "D": 10}),
        ("tarok-net-revised", "§3.6 b.1 rekontra pagat", "pagat_ultimo", True,
         rk("pagat_ultimo"), {"B": 200, "C": 100, "D": 75}),
        ("tarok-net-revised", "§3.6 b.1 rekontra kralji", "kralji", True, rk("kralji"),
         {"B": 80, "C": 40, "D": 30}),
        ("tarok-net-revised", "§3.6 b.2 kontra pagat", "pagat_ultimo", False,
         k("pagat_ultimo"), {"B": -100, "C": -33, "A": 25}),
        ("tarok-net-revised", "§3.6 b.2 kontra trula", "trula", False, k("trula"),
         {"B": -40, "C": -13, "A": 10}),
        ("tarok-net-revised", "§3.6 b.2 rekontra pagat", "pagat_ultimo", False,
         rk("pagat_ultimo"), {"B": -200, "C": -50, "A": 75}),
        ("tarok-net-revised", "§3.6 b.2 rekontra kralji", "kralji", False, rk("kralji"),
         {"B": -80, "C": -20, "A": 30}),
    ]
    return rows


@pytest.mark.parametrize("ruleset,clause,name,achieved,contras,expected", _defender_rows())
def test_defender_announcement_contra_rows_tri1(ruleset, clause, name, achieved, contras,
                                                expected):
    r = card(ruleset, "tri+1", [{
        "game": "trojka", "declarer": "A", "resting": "D", "points": 40,
        "announcements": [{"name": name, "by": "B", "announced": True, "achieved": achieved}],
        "contras": contras}])
    assert item_points(r["hands"][0], name) == expected, clause


@pytest.mark.parametrize("ruleset", RULESETS)
def test_defender_lost_silent_pagat(ruleset):
    # §3.6 b.2 "Tiha realizacija pagat: -25 -10"
    r = card(ruleset, "tri+1", [{
        "game": "trojka", "declarer": "A", "resting": "D", "points": 40,
        "announcements": [{"name": "pagat_ultimo", "by": "B", "announced": False,
                           "achieved": False}]}])
    assert item_points(r["hands"][0], "pagat_ultimo") == {"B": -25, "C": -10}


# §2.4 a) / b) (ŠTIRI), T = 30 with the partner C: Igralec, Soigralec, Brani1-K, Brani2
FOUR_CONTRA_ROWS = [
    ("tarok-net-2007", "§2.4 a igra", 55, [], (30, 15, 0, 0)),
    ("tarok-net-2007", "§2.4 a kontra", 55, KONTRA, (60, 15, -30, 0)),
    ("tarok-net-2007", "§2.4 a rekontra", 55, REKONTRA, (120, 15, -90, 0)),
    ("tarok-net-2007", "§2.4 b igra", 15, [], (-30, -15, 0, 0)),
    ("tarok-net-2007", "§2.4 b kontra", 15, KONTRA, (-60, -15, 30, 0)),
    ("tarok-net-2007", "§2.4 b rekontra", 15, REKONTRA, (-120, -15, 90, 0)),
    ("tarok-net-revised", "§2.4 a igra", 55, [], (30, 15, 0, 0)),
    ("tarok-net-revised", "§2.4 a kontra", 55, KONTRA, (60, 30, 0, 15)),
    ("tarok-net-revised", "§2.4 a rekontra", 55, REKONTRA, (120, 60, 0, 45)),
    ("tarok-net-revised", "§2.4 b igra", 15, [], (-30, -15, 0, 0)),
    ("tarok-net-revised", "§2.4 b kontra", 15, KONTRA, (-60, -20, 15, 0)),
    ("tarok-net-revised", "§2.4 b rekontra", 15, REKONTRA, (-120, -30, 45, 0)),
]


@pytest.mark.parametrize("ruleset,clause,points,contras,row", FOUR_CONTRA_ROWS)
def test_four_handed_contra_rows(ruleset, clause, points, contras, row):
    r = card(ruleset, "four", [_game_hand("four", points, contras, partner="C")])
    a, c, b, d = row
    assert scores(r) == {"A": a, "C": c, "B": b, "D": d}, clause


def test_four_handed_defender_announcement_roles_swapped():
    # §2.4: "V primeru, da gre za tiho realizacijo ali napoved s strani branilca, se točkuje
    # enako, le da so vloge igralcev zamenjane." B announces trula (20 / 10), partner C of
    # declarer A gives the kontra; B wins it. Revision: B 40, D 20, C 0, A compensated 10.
    hand = {"game": "trojka", "declarer": "A", "partner": "C", "points": 40,
            "announcements": [{"name": "trula", "by": "B", "announced": True,
                               "achieved": True}],
            "contras": [{"on": "trula", "by": "C", "level": 1}]}
    r = card("tarok-net-revised", "four", [hand])
    assert item_points(r["hands"][0], "trula") == {"B": 40, "D": 20, "A": 10}
    r = card("tarok-net-2007", "four", [hand])
    assert item_points(r["hands"][0], "trula") == {"B": 40, "D": 10, "C": -20}


# -- Posebnosti of the revision (held trula) ----------------------------------------------------

@pytest.mark.parametrize("name,announced,achieved,expected", [
    ("trula", False, True, 5), ("trula", True, True, 10), ("trula", True, False, -10),
    ("pagat_ultimo", False, True, 5), ("pagat_ultimo", False, False, -5),
    ("pagat_ultimo", True, True, 10), ("pagat_ultimo", True, False, -10),
])
def test_revised_posebnosti_held_trula(name, announced, achieved, expected):
    # revision §3.5 Posebnosti: "se realizirana trula piše le +5 točk, napovedana pa -/+10
    # točk in realiziran pagat ultimo -/+5 točk, napovedani -/+10 točk"
    r = card("tarok-net-revised", "tri+1", [{
        "game": "trojka", "declarer": "A", "resting": "D", "points": 40,
        "announcements": [{"name": name, "by": "A", "announced": announced,
                           "achieved": achieved, "held": True}]}])
    assert item_points(r["hands"][0], name) == {"A": expected}


def test_revised_posebnosti_defenders_both_write():
    # "V kolikor ima igralec (oz. branilca) v listu ... trulo, se realizirana trula piše le +5"
    hand = {"game": "trojka", "declarer": "A", "resting": "D", "points": 30,
            "announcements": [{"name": "trula", "by": "B", "announced": False,
                               "achieved": True, "held": True}]}
    r = card("tarok-net-revised", "tri+1", [hand])
    assert item_points(r["hands"][0], "trula") == {"B": 5, "C": 5}
    r = card("tarok-net-revised", "tri+1", [hand],
             options={"held_trula_second_share": "half"})
    assert item_points(r["hands"][0], "trula") == {"B": 5, "C": 3}


# -- klop (§3.8 and §2.3/§2.4) ------------------------------------------------------------------

KLOP_EXAMPLES = [
    # 2007 §3.8 Primer 1: A kontra, D talon; A=20, B=20, C=20, D=10 -> -80, -40, -40, -20
    ("tarok-net-2007", "§3.8 Primer 1", [("A", 1)], (20, 20, 20, 10), (-80, -40, -40, -20)),
    # 2007 §3.8 Primer 2: A kontra, B rekontra -> -120, -160, -80, -40
    ("tarok-net-2007", "§3.8 Primer 2", [("A", 1), ("B", 2)], (20, 20, 20, 10),
     (-120, -160, -80, -40)),
    # 2007 §3.8, the 1/4 limit: at 17 the kontra giver only writes double
    ("tarok-net-2007", "§3.8 'največ 17'", [("A", 1)], (17, 23, 20, 10),
     (-34, -46, -40, -20)),
    # revision §3.8 Primer 1: A=15, B=16, C=20, D=19 -> -30, -32, -40, -38
    ("tarok-net-revised", "§3.8 Primer 1", [("A", 1)], (15, 16, 20, 19),
     (-30, -32, -40, -38)),
    # revision §3.8 Primer 2: A=16, B=16, C=20, D=18 -> -67, -32, -40, -36
    ("tarok-net-revised", "§3.8 Primer 2", [("A", 1)], (16, 16, 20, 18),
     (-67, -32, -40, -36)),
    # revision §3.8 Primer 3: A kontra, B rekontra -> -99, -134, -80, -72
    ("tarok-net-revised", "§3.8 Primer 3", [("A", 1), ("B", 2)], (16, 16, 20, 18),
     (-99, -134, -80, -72)),
    ("tarok-net-2007", "§3.8 no contra", [], (20, 20, 20, 10), (-20, -20, -20, -10)),
]


@pytest.mark.parametrize("ruleset,clause,contras,points,expected", KLOP_EXAMPLES)
def test_klop_examples(ruleset, clause, contras, points, expected):
    hand = {"game": "klop", "resting": "D",
            "points_by_player": dict(zip(P4, points, strict=True)),
            "contras": [{"on": "klop", "by": p, "level": lvl} for p, lvl in contras]}
    r = card(ruleset, "tri+1", [hand])
    assert scores(r) == dict(zip(P4, expected, strict=True)), clause
    assert r["hands"][0]["value"] == 0
    # "Radelc pridobijo vsi igralci pri ... klopu"
    assert r["hands"][0]["state"]["radelci"] == {p: 1 for p in P4}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("clause,points,tricks,expected", [
    # "Če je talon brez vzetka, igralci pišejo glede na zbrane točke"
    ("talon brez vzetka", (30, 20, 20, 0), (6, 5, 5, 0), (-30, -20, -20, 0)),
    # "če pa je kateri drugi brez vzetka, piše le ta +70 točk, ostali 0 točk"
    ("brez vzetka", (0, 30, 30, 10), (0, 8, 7, 1), (70, 0, 0, 0)),
    # "Če je eden od igralcev (tudi talon) poln ... piše - 70 točk, ostali 0"
    ("poln", (40, 10, 10, 10), (9, 3, 2, 2), (-70, 0, 0, 0)),
    ("talon poln", (10, 10, 10, 40), (5, 5, 4, 2), (0, 0, 0, -70)),
    # "Če je en igralec poln, drugi pa brez vzetka, piše prvi - 70, drugi +70 točk"
    ("poln in brez vzetka", (50, 0, 10, 10), (12, 0, 2, 2), (-70, 70, 0, 0)),
])
def test_klop_full_and_no_trick(ruleset, clause, points, tricks, expected):
    hand = {"game": "klop", "resting": "D", "points_by_player": dict(zip(P4, points, strict=True)),
            "tricks_by_player": dict(zip(P4, tricks, strict=True))}
    r = card(ruleset, "tri+1", [hand])
    assert scores(r) == dict(zip(P4, expected, strict=True)), clause


def test_klop_full_with_contra_option():
    hand = {"game": "klop", "resting": "D", "points_by_player": {"A": 40, "B": 10, "C": 10,
                                                                  "D": 10},
            "contras": [{"on": "klop", "by": "B", "level": 1}]}
    assert scores(card("tarok-net-2007", "tri+1", [hand]))["A"] == -70
    r = card("tarok-net-2007", "tri+1", [hand],
             options={"klop_contra_on_full_and_no_trick": True})
    assert scores(r)["A"] == -140


@pytest.mark.parametrize("ruleset", RULESETS)
def test_general_klop_three_and_four(ruleset):
    # §2.3 / §2.4: "Vse točke ... so negativne ... Igralcu, ki se mu je posrečilo realizirati
    # 35 ali več točk, pa se izkupiček šteje dvojno." Everyone gains a radelc.
    r = card(ruleset, "three", [{"game": "klop", "points_by_player":
                                 {"A": 40, "B": 30, "C": 0}}])
    assert scores(r) == {"A": -80, "B": -30, "C": 0}
    assert r["hands"][0]["state"]["radelci"] == {"A": 1, "B": 1, "C": 1}
    r = card(ruleset, "four", [{"game": "klop", "points_by_player":
                                {"A": 35, "B": 5, "C": 20, "D": 10}}])
    assert scores(r) == {"A": -70, "B": -5, "C": -20, "D": -10}


# -- radelci (§3.4, §2.3, §2.4) -----------------------------------------------------------------

def test_radelc_doubles_declarer_and_is_erased_when_won():
    # §3.4: "Radelc podvoji celoten seštevek točk igre in se briše igralcu, ki igra, v primeru
    # dobljene igre."
    klop = {"game": "klop", "resting": "D",
            "points_by_player": {"A": 20, "B": 20, "C": 20, "D": 10}}
    won = {"game": "trojka", "declarer": "A", "resting": "D", "points": 40,
           "announcements": [{"name": "trula", "by": "A", "announced": False,
                              "achieved": True}]}
    lost = {"game": "dvojka", "declarer": "B", "resting": "C", "points": 30}
    r = card("tarok-net-2007", "tri+1", [klop, won, lost])
    assert scores(r, 1)["A"] == (15 + 10) * 2
    assert r["hands"][1]["state"]["radelci"] == {"A": 0, "B": 1, "C": 1, "D": 1}
    assert scores(r, 2)["B"] == -35 * 2
    assert r["hands"][2]["state"]["radelci"]["B"] == 1  # lost: not erased


@pytest.mark.parametrize("ruleset,game,gains", [
    ("tarok-net-2007", "berac", True), ("tarok-net-2007", "solo_brez", True),
    ("tarok-net-2007", "valat_tri", True), ("tarok-net-2007", "trojka", False),
    ("tarok-net-revised", "berac", True), ("tarok-net-revised", "solo_brez", False),
    ("tarok-net-revised", "barvni_valat_brez", True),
])
def test_radelci_from_high_games_tri1(ruleset, game, gains):
    # 2007 §3.4: "visokih igrah (berač, solo brez, barvni valat in valat)"; revision §3.4:
    # "visokih igrah (berač, barvni valat in valat)"
    hand = {"game": game, "declarer": "A", "resting": "D"}
    hand.update({"points": 40} if game in ("trojka", "solo_brez") else {"won": False})
    r = card(ruleset, "tri+1", [hand])
    n = 1 if gains else 0
    assert r["hands"][0]["state"]["radelci"] == {"A": n, "B": n, "C": n, "D": n}


def test_no_radelci_from_high_games_in_three_and_four():
    # §2.3 / §2.4: only "Po končanem klopu ... beleži vsak od igralcev refe"
    r = card("tarok-net-2007", "three", [{"game": "berac", "declarer": "A", "won": True}])
    assert r["hands"][0]["state"]["radelci"] == {"A": 0, "B": 0, "C": 0}


def test_four_partner_doubled_by_declarer_radelc():
    # §2.4: "Če ima igralec refe, se mu točke pri igri podvojijo (tudi soigralcu)."
    hand = {"game": "trojka", "declarer": "A", "partner": "C", "points": 45}
    r = card("tarok-net-2007", "four", [hand], initial_state={"radelci": {"A": 1}})
    assert scores(r) == {"A": 40, "B": 0, "C": 20, "D": 0}
    r = card("tarok-net-2007", "four", [hand], initial_state={"radelci": {"C": 1}})
    assert scores(r) == {"A": 20, "B": 0, "C": 10, "D": 0}
    r = card("tarok-net-2007", "four", [hand], initial_state={"radelci": {"C": 1}},
             options={"partner_radelc": "own"})
    assert scores(r) == {"A": 20, "B": 0, "C": 20, "D": 0}
    assert r["hands"][0]["state"]["radelci"]["C"] == 0


def test_klop_points_not_under_radelc():
    # §3.8: "Točke klopa ne gredo pod radelc."
    hand = {"game": "klop", "resting": "D",
            "points_by_player": {"A": 20, "B": 20, "C": 20, "D": 10}}
    r = card("tarok-net-2007", "tri+1", [hand, hand])
    assert scores(r, 1) == {"A": -20, "B": -20, "C": -20, "D": -10}
    assert r["hands"][1]["state"]["radelci"] == {p: 2 for p in P4}


# -- renons and other penalties (§3.9) -----------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_renons_formula_with_contras_and_radelc(ruleset):
    # §3.9: "-vrednost igre + -35 + -napovedane posebne napovedi. Upoštevajo se tudi radelci in
    # kontre"; §3.4: "Pri renonsu se radelc upošteva le, če ga ima igralec, ki igro igra"
    hand = {"game": "dvojka", "declarer": "A", "resting": "D",
            "announcements": [{"name": "trula", "by": "A", "announced": True}],
            "contras": [{"on": "game", "by": "B", "level": 1}],
            "penalties": [{"kind": "renons", "player": "C"}]}
    r = card(ruleset, "tri+1", [hand])
    assert scores(r) == {"A": 0, "B": 0, "C": -((30 + 35) * 2 + 20), "D": 0}
    r = card(ruleset, "tri+1", [hand], initial_state={"radelci": {"A": 1}})
    assert scores(r)["C"] == -((30 + 35) * 2 + 20) * 2
    r = card(ruleset, "tri+1", [hand], initial_state={"radelci": {"C": 1}})
    assert scores(r)["C"] == -((30 + 35) * 2 + 20)
    # a) "nepravilna založitev (pri tej napaki kontre ne veljajo)"
    hand_a = dict(hand, penalties=[{"kind": "renons", "player": "A", "clause": "a"}])
    assert scores(card(ruleset, "tri+1", [hand_a]))["A"] == -(30 + 35 + 20)


def test_mond_outside_contras_and_radelc():
    # §3.9 i: "-21 točk igralcu, ki je izgubil monda ... ne gre pod kontre in pod radelc"
    hand = {"game": "trojka", "declarer": "A", "resting": "D", "points": 40,
            "contras": [{"on": "game", "by": "B", "level": 1}],
            "penalties": [{"kind": "mond", "player": "A"}]}
    r = card("tarok-net-2007", "tri+1", [hand], initial_state={"radelci": {"A": 1}})
    assert scores(r)["A"] == 30 * 2 - 21


def test_misdeal_scale():
    # §3.9 g: "nepravilna razdelitev kart, (v vsakem primeru: 1. -20, 2. -40, 3. -60 itd.)"
    void = {"penalties": [{"kind": "misdeal", "player": "B"}]}
    r = card("tarok-net-2007", "tri+1", [void, void, void])
    assert [scores(r, i)["B"] for i in range(3)] == [-20, -40, -60]
    assert r["hands"][2]["state"]["misdeals"]["B"] == 3


def test_no_tarok_annuls_the_hand():
    # §3.9 h: "vsaj en igralec nima taroka => ... igra se razveljavi"
    r = card("tarok-net-revised", "tri+1", [{"penalties": [{"kind": "no_tarok",
                                                             "player": "A"}]}])
    assert scores(r) == {p: 0 for p in P4}
    assert r["hands"][0]["lines"][0]["code"] == "no_tarok"


def test_tri1_at_a_table_of_three():
    r = card("tarok-net-revised", "tri+1", [_game_hand("three", 55, KONTRA)], players=P3)
    assert scores(r) == {"A": 60, "B": 0, "C": 15}


def test_lines_carry_code_and_params():
    r = card("tarok-net-2007", "tri+1", [_game_hand("tri+1", 55, KONTRA)])
    codes = {(ln["player"], ln["code"]) for ln in r["hands"][0]["lines"]}
    assert codes == {("A", "game_won"), ("B", "contra_wrong")}
    for ln in r["hands"][0]["lines"]:
        assert isinstance(ln["what"], str) and isinstance(ln["params"], dict)


def test_describe_lists_games_and_options():
    from scoring import rules
    d = rules.get("tarok-net-revised").describe()
    codes = {g["code"] for g in d["games"]}
    assert {"trojka", "solo_tri", "valat_solo_ena", "barvni_valat_brez", "klop"} <= codes
    assert "held_trula_second_share" in {o["name"] for o in d["options"]}
    with pytest.raises(ScorecardInvalid):
        card("tarok-net-2007", "tri+1", [{"game": "solo_tri", "declarer": "A",
                                          "resting": "D", "points": 40}])


def test_misdeal_count_per_table_and_carried():
    # §3.9 g, option misdeal_count; the count carries in state.misdeals
    hands = [{"penalties": [{"kind": "misdeal", "player": "A"}]},
             {"penalties": [{"kind": "misdeal", "player": "B"}]}]
    r = card("tarok-net-2007", "tri+1", hands)
    assert [scores(r, 0)["A"], scores(r, 1)["B"]] == [-20, -20]
    r = card("tarok-net-2007", "tri+1", hands, options={"misdeal_count": "table"})
    assert [scores(r, 0)["A"], scores(r, 1)["B"]] == [-20, -40]
    r = card("tarok-net-2007", "tri+1", hands[:1], initial_state={"misdeals": {"A": 2}})
    assert scores(r)["A"] == -60


def test_renons_in_klop_and_high_game_radelci():
    # §3.9 with game value 0 in klop; §3.4 radelci still given (option radelci_after_renons)
    hand = {"game": "klop", "resting": "D", "penalties": [{"kind": "renons", "player": "B"}],
            "contras": [{"on": "klop", "by": "A", "level": 1}]}
    r = card("tarok-net-2007", "tri+1", [hand])
    assert scores(r) == {"A": 0, "B": -70, "C": 0, "D": 0}
    assert r["hands"][0]["state"]["radelci"] == {p: 1 for p in P4}
    r = card("tarok-net-2007", "tri+1", [hand], options={"radelci_after_renons": False})
    assert r["hands"][0]["state"]["radelci"] == {p: 0 for p in P4}


def test_resting_player_radelc_option():
    hand = {"game": "berac", "declarer": "A", "resting": "D", "won": True}
    r = card("tarok-net-2007", "tri+1", [hand],
             options={"radelci_for_resting_player": False})
    assert r["hands"][0]["state"]["radelci"] == {"A": 1, "B": 1, "C": 1, "D": 0}


def test_won_high_game_erases_then_gives():
    # §3.4: the declarer's radelc doubles the won berač and is erased, then the berač gives
    # every player a new one.
    hand = {"game": "berac", "declarer": "A", "resting": "D", "won": True}
    r = card("tarok-net-2007", "tri+1", [hand], initial_state={"radelci": {"A": 1}})
    assert scores(r)["A"] == 140
    assert r["hands"][0]["state"]["radelci"] == {"A": 1, "B": 1, "C": 1, "D": 1}


def test_four_solo_defender_item_every_other_defender_writes_y():
    # §2.4: "Če gre za solo igro, soigralca ni in nastopa tretji branitelj, ki se točkuje
    # enako kot ostala branitelja." B realises a silent pagat against A's solo tri.
    r = card("tarok-net-2007", "four", [{
        "game": "solo_tri", "declarer": "A", "points": 30,
        "announcements": [{"name": "pagat_ultimo", "by": "B", "announced": False,
                           "achieved": True}]}])
    assert item_points(r["hands"][0], "pagat_ultimo") == {"B": 25, "C": 10, "D": 10}
    assert scores(r) == {"A": -45, "B": 25, "C": 10, "D": 10}


def test_kralj_ultimo_contra_revised():
    # kralj ultimo with a partner: announced 20 / 10 (§2.4); a defender's kontra is wrong:
    # revision §2.4 a) "T * 2, T, _, T / 2" -> 40, 20, 0, 10
    r = card("tarok-net-revised", "four", [{
        "game": "dvojka", "declarer": "A", "partner": "B", "points": 40,
        "announcements": [{"name": "kralj_ultimo", "by": "B", "announced": True,
                           "achieved": True}],
        "contras": [{"on": "kralj_ultimo", "by": "C", "level": 1}]}])
    assert item_points(r["hands"][0], "kralj_ultimo") == {"A": 40, "B": 20, "D": 10}


def test_describe_is_json():
    import json

    from scoring import describe_rulesets
    described = [d for d in describe_rulesets() if d["code"].startswith("tarok-net")]
    assert len(described) == 2
    json.dumps(described)


# -- A silent valat is scored with the points as they were counted (issue 15, finding 1) -------

def silent(name: str, by: str) -> dict[str, Any]:
    return {"name": name, "by": by, "announced": False, "achieved": True}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_silent_valat_of_the_declarer_with_the_talon_rest_counted_by_the_defenders(ruleset):
    """000/002 §2.3: "Ostanek talona pa pripade nasprotnikoma" — after a trojka the three talon
    cards the declarer did not take count for the defenders, so his side never has all 70.
    §3.6 a) "*valat: 50" with "*opomba: tihi valat se prišteva k igri": the game with its
    difference as counted (62 points: 10 + 27) plus the valat's 50."""
    r = card(ruleset, "tri+1", [{"game": "trojka", "declarer": "A", "resting": "D", "points": 62,
                                 "announcements": [silent("valat", "A")]}])
    assert scores(r) == {"A": 10 + 27 + 50, "B": 0, "C": 0, "D": 0}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_silent_valat_in_solo_brez_by_four(ruleset):
    """000/002 §2.4: "Solo brez ... Talon se v tem primeru ne odkrije in pripade nasprotnikom":
    the six talon cards are the defenders'; "valat (tihi) 50 / 50"."""
    r = card(ruleset, "four", [{"game": "solo_brez", "declarer": "A", "points": 50,
                                "announcements": [silent("valat", "A")]}])
    assert scores(r) == {"A": 80 + 15 + 50, "B": 0, "C": 0, "D": 0}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_silent_valat_of_the_defenders_leaves_the_declarer_his_discards(ruleset):
    """000/002 §2.3: the exchanged cards "pripadajo njemu ter se njihova vrednost (točke)
    prištejejo številu točk" — the declarer keeps 2 points of discards after the defenders'
    valat; §3.6 b.1 "*valat: 50 50"."""
    r = card(ruleset, "three", [{"game": "trojka", "declarer": "A", "points": 2,
                                 "announcements": [silent("valat", "B")]}])
    assert scores(r) == {"A": -(10 + 33), "B": 50, "C": 50}
