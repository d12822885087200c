"""Property tests of gp-vysociny-2004 (hypothesis): money only changes hands at the table
(every hand sums to zero), the herní strop of 20 Kč holds (seed 004: "Herní strop -
maximální. částka zaplacená jednomu hráči v jedné hře"), the money sheet conserves money,
and malformed input is refused with errors, never with a crash."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScorecardInvalid, evaluate
from scoring.rules.gp_vysociny.tables import GAME_CAP, HELD_HLASKY

pytestmark = pytest.mark.slow

PLAYERS = ["A", "B", "C", "D"]
POINT_GAMES = ["povinnost", "druha_povinnost", "preferanc_1", "preferanc_2", "preferanc_3",
               "solo"]


@st.composite
def point_game_hands(draw):
    game = draw(st.sampled_from(POINT_GAMES))
    declarer = draw(st.sampled_from(PLAYERS))
    hand = {"game": game, "declarer": declarer}
    side = [declarer]
    if game in ("povinnost", "druha_povinnost"):
        partner = draw(st.sampled_from([None] + [p for p in PLAYERS if p != declarer]))
        hand["partner"] = partner
        hand["called"] = draw(st.sampled_from(["XIX", "XVIII", "XVII", "XVI"]))
        if partner is not None:
            side.append(partner)
    opponents = [p for p in PLAYERS if p not in side]

    level = draw(st.integers(0, 3))
    hand["contras"] = [
        {"on": "game", "by": draw(st.sampled_from(side if k % 2 else opponents)),
         "level": k + 1}
        for k in range(level)
    ]

    ending = draw(st.sampled_from([None, None, None, "renons", "misdeal"]))
    points = draw(st.integers(0, 70))
    if ending != "misdeal":
        hand["points"] = points

    announcements = []
    pagat_by = declarer if game == "druha_povinnost" else (
        draw(st.sampled_from(PLAYERS)) if draw(st.booleans()) else None)
    for name in draw(st.lists(st.sampled_from(sorted(HELD_HLASKY)), max_size=4, unique=True)):
        # the trul is the pagát, the mond and the škýz in one hand: the pagát's player's
        by = pagat_by if name == "trul" and pagat_by is not None else \
            draw(st.sampled_from(PLAYERS))
        announcements.append({"name": name, "by": by})
    if pagat_by is not None:
        pagat = {"name": "pagat", "by": pagat_by,
                 "announced": True if game == "druha_povinnost" else draw(st.booleans())}
        if ending is None:
            pagat["achieved"] = draw(st.booleans())
        announcements.append(pagat)
    if draw(st.booleans()):
        # after a valát the other side holds at most the six talon cards (26 points, and
        # one for counting)
        if ending is None and (points >= 43 or points <= 27) and draw(st.booleans()):
            by = draw(st.sampled_from(side if points >= 43 else opponents))
            announcements.append({"name": "valat", "by": by, "announced": draw(st.booleans()),
                                  "achieved": True})
            for a in announcements:
                # the side without a trick does not win the last one with the pagát
                if a["name"] == "pagat" and (a["by"] in side) != (by in side):
                    a["achieved"] = False
        else:
            valat = {"name": "valat", "by": draw(st.sampled_from(PLAYERS)),
                     "announced": draw(st.booleans())}
            if ending is None:
                valat["achieved"] = False
            announcements.append(valat)
    hand["announcements"] = announcements

    penalties = []
    if ending is not None:
        offenders = draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=2,
                                  unique=True))
        penalties += [{"kind": ending, "player": p} for p in offenders]
    for p in draw(st.lists(st.sampled_from(PLAYERS), max_size=2, unique=True)):
        penalties.append({"kind": "renons_play_continues", "player": p})
    hand["penalties"] = penalties
    return hand


@st.composite
def varsava_hands(draw):
    forehand = draw(st.sampled_from(PLAYERS))
    if draw(st.integers(0, 5)) == 0:
        return {"game": "varsava", "forehand": forehand,
                "penalties": [{"kind": "renons", "player": draw(st.sampled_from(PLAYERS))}]}
    with_tricks = draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=4, unique=True))
    tricks = dict.fromkeys(PLAYERS, 0)
    eyes = dict.fromkeys(PLAYERS, 0)
    for p in with_tricks:
        tricks[p] = 1
        eyes[p] = 0
    for _ in range(12 - len(with_tricks)):
        tricks[draw(st.sampled_from(with_tricks))] += 1
    for _ in range(70):
        eyes[draw(st.sampled_from(with_tricks))] += 1
    return {"game": "varsava", "forehand": forehand, "points_by_player": eyes,
            "tricks_by_player": tricks}


hands_strategy = st.one_of(point_game_hands(), varsava_hands())
options_strategy = st.fixed_dictionaries({
    "partner_payment": st.sampled_from(["each_pays_one", "each_pays_each"]),
    "cap_applies_to": st.sampled_from(["payment", "receiver"]),
    "silent_lost_pays": st.booleans(),
    # the options of issue #34
    "equal_eyes_rate": st.sampled_from(["flek_level", "base"]),
    "equal_eyes_rounded_up": st.booleans(),
    "preferanc_renonc_multiplied_by_flek": st.booleans(),
    "cap_applies_to_renonc": st.booleans(),
    "varsava_tie_with_forehand": st.sampled_from(["own_scale", "same_scale"]),
})


@settings(max_examples=400, deadline=None)
@given(hands=st.lists(hands_strategy, min_size=1, max_size=6), options=options_strategy)
def test_money_only_changes_hands_and_the_cap_holds(hands, options):
    out = evaluate({"ruleset": "gp-vysociny-2004", "players": PLAYERS, "hands": hands,
                    "options": options})
    assert sum(out["totals"].values()) == 0
    # an equal-eyes eye not rounded up may be 5 hal; a renonc outside the cap may exceed it
    coin = 10 if options["equal_eyes_rounded_up"] else 5
    for entered, hand in zip(hands, out["hands"], strict=True):
        assert set(hand["scores"]) == set(PLAYERS)
        assert sum(hand["scores"].values()) == 0
        capped = options["cap_applies_to_renonc"] or not entered.get("penalties")
        assert 0 <= hand["value"] and (hand["value"] <= GAME_CAP or not capped)
        payments = [ln["params"] for ln in hand["lines"] if ln["code"] == "payment"]
        # the scores are exactly the payments written on the lines
        from_lines = dict.fromkeys(PLAYERS, 0)
        for pay in payments:
            assert pay["amount"] > 0
            assert pay["amount"] % coin == 0  # the smallest coin of the bag
            from_lines[pay["payer"]] -= pay["amount"]
            from_lines[pay["receiver"]] += pay["amount"]
        assert from_lines == hand["scores"]
        if not capped:
            continue
        if options["cap_applies_to"] == "payment":
            assert all(pay["amount"] <= GAME_CAP for pay in payments)
        else:
            for p in PLAYERS:
                assert sum(pay["amount"] for pay in payments if pay["receiver"] == p) <= GAME_CAP


@st.composite
def balanced_sheets(draw):
    stake = draw(st.sampled_from([2000, 3000, 5000]))
    ids = draw(st.lists(st.text("0123456789", min_size=1, max_size=3), min_size=4,
                        max_size=4, unique=True))
    bought = [draw(st.integers(0, 3)) * 1000 for _ in ids]
    pot = stake * 4 + sum(bought)
    cuts = sorted(draw(st.integers(0, pot // 10)) for _ in range(3))
    bounds = [0] + [c * 10 for c in cuts] + [pot]
    money = [bounds[k + 1] - bounds[k] for k in range(4)]
    rows = [{"player": p, "bought": b, "money": m} for p, b, m in zip(ids, bought, money,
                                                                       strict=True)]
    return {"stake": stake, "players": rows}


@settings(max_examples=200, deadline=None)
@given(sheet=balanced_sheets())
def test_money_sheet_conserves_money(sheet):
    out = evaluate({"ruleset": "gp-vysociny-2004", "sheet": sheet})
    assert sum(out["totals"].values()) == 0
    for row in sheet["players"]:
        assert out["totals"][row["player"]] == row["money"] - sheet["stake"] - row["bought"]


@settings(max_examples=100, deadline=None)
@given(sheet=balanced_sheets(),
       delta=st.integers(-50, 50).filter(lambda d: d != 0).map(lambda d: d * 10),
       who=st.integers(0, 3))
def test_money_sheet_that_does_not_add_up_is_refused(sheet, delta, who):
    row = sheet["players"][who]
    if row["money"] + delta < 0:
        row["money"] -= delta
    else:
        row["money"] += delta
    try:
        evaluate({"ruleset": "gp-vysociny-2004", "sheet": sheet})
    except ScorecardInvalid as exc:
        assert [e["code"] for e in exc.errors] == ["sheet_does_not_add_up"]
    else:
        raise AssertionError("a sheet that does not add up was accepted")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 80) | st.sampled_from(
        ["A", "B", "C", "D", "X", "game", "povinnost", "solo", "varsava", "XIX", "trul",
         "pagat", "renons", "misdeal"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["game", "declarer", "partner", "called", "forehand", "points",
                         "points_by_player", "tricks_by_player", "announcements", "contras",
                         "penalties", "name", "by", "announced", "achieved", "on", "level",
                         "kind", "player", "A", "B", "C", "D"]),
        children, max_size=6),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(hands=st.lists(json_values, max_size=3))
def test_malformed_hands_give_errors_not_crashes(hands):
    try:
        out = evaluate({"ruleset": "gp-vysociny-2004", "players": PLAYERS, "hands": hands})
    except ScorecardInvalid as exc:
        assert exc.errors
        for e in exc.errors:
            assert set(e) >= {"hand", "field", "code", "message"}
    else:
        assert sum(out["totals"].values()) == 0


@settings(max_examples=200, deadline=None)
@given(sheet=json_values)
def test_malformed_sheets_give_errors_not_crashes(sheet):
    try:
        evaluate({"ruleset": "gp-vysociny-2004", "sheet": sheet})
    except ScorecardInvalid as exc:
        assert exc.errors
