"""Property tests of `steirischer-tarockcup-2017`: Königrufen is played plus and minus, so the
Schrift and the money payout of every hand sum to zero at the table, whatever was played."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import evaluate
from scoring.rules.tarockcup.tables import (
    GAME_RULES,
    NEGATIV,
    PREMIUMS_BY_FAMILY,
    RUFER,
    TRISCHAKEN,
)

pytestmark = pytest.mark.slow

P = ["A", "B", "C", "D"]
TWO_SIDED = [g for g in GAME_RULES if g.family != TRISCHAKEN]


@st.composite
def two_sided_hand(draw):
    game = draw(st.sampled_from(TWO_SIDED))
    declarer = draw(st.sampled_from(P))
    hand = {"game": game.code, "declarer": declarer}
    partner = None
    if game.family == RUFER:
        partner = draw(st.one_of(st.none(), st.sampled_from([p for p in P if p != declarer])))
        hand["partner"] = partner
    decl_side = {declarer, partner} - {None}
    defenders = [p for p in P if p not in decl_side]
    renons = draw(st.booleans()) and draw(st.booleans())
    won = draw(st.booleans())
    anns = []
    for code in PREMIUMS_BY_FAMILY[game.family]:
        if not draw(st.booleans()):
            continue
        holders = sorted(decl_side) if code == "koenig_ultimo" else P
        anns.append({"name": code, "by": draw(st.sampled_from(holders)),
                     "announced": draw(st.booleans()), "achieved": draw(st.booleans())})
    if game.vogerl:
        anns = [a for a in anns if a["name"] != game.vogerl]
        anns.append({"name": game.vogerl, "by": declarer, "announced": True,
                     "achieved": draw(st.booleans())})
    valat = next((a for a in anns if a["name"] == "valat"), None)
    for a in anns:
        if not a["announced"] and a["name"] in ("trull", "vier_koenige", "valat"):
            a["achieved"] = True
    if valat is not None and valat["announced"]:
        anns = [a for a in anns if not (a["announced"] and a["name"] in ("trull",
                                                                          "vier_koenige"))]
    # Premiums made by both sides could need one card or one trick twice (Pagat and Trull,
    # a Valat and anything of the other side): the made premiums are one side's, those of
    # the other side were lost, or are left out when silent collections cannot be lost.
    made_side = next((a["by"] in decl_side for a in anns if a["achieved"]), None)
    kept = []
    for a in anns:
        if a["achieved"] and (a["by"] in decl_side) != made_side:
            if not a["announced"] and a["name"] in ("trull", "vier_koenige", "valat"):
                continue
            a["achieved"] = False
        kept.append(a)
    anns = kept
    valat = next((a for a in anns if a["name"] == "valat"), None)
    if valat is not None and valat["achieved"]:
        won = valat["by"] in decl_side
    hand["announcements"] = anns
    hand["won"] = won
    contras = []
    if game.family == NEGATIV:
        for d in defenders:
            level = draw(st.integers(0, 3))
            for lv in range(1, level + 1):
                c = {"on": "game", "by": d if lv != 2 else declarer, "level": lv}
                if lv == 2:
                    c["against"] = d
                contras.append(c)
    else:
        targets = [("game", True)] + [(a["name"], a["by"] in decl_side) for a in anns
                                      if a["announced"]]
        for target, owner_decl in targets:
            level = draw(st.integers(0, 3))
            own = sorted(decl_side) if owner_decl else defenders
            other = defenders if owner_decl else sorted(decl_side)
            for lv in range(1, level + 1):
                contras.append({"on": target, "by": draw(st.sampled_from(
                    own if lv == 2 else other)), "level": lv})
    hand["contras"] = contras
    if renons:
        hand["penalties"] = [{"kind": "renons", "player": draw(st.sampled_from(P))}]
        for a in hand["announcements"]:
            if not a["announced"]:
                a["achieved"] = True
        hand["announcements"] = [a for a in hand["announcements"]
                                 if a["announced"] or a["by"] != hand["penalties"][0]["player"]]
    if game.forehand_only:
        hand["forehand"] = declarer
    return hand


@st.composite
def trischaken_hand(draw):
    cuts = sorted(draw(st.lists(st.integers(0, 70), min_size=3, max_size=3)))
    points = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 70 - cuts[2]]
    return {"game": "trischaken", "forehand": draw(st.sampled_from(P)),
            "points_by_player": dict(zip(P, points, strict=True))}


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(two_sided_hand(), trischaken_hand()), min_size=1, max_size=6))
def test_schrift_and_payout_sum_to_zero(hands):
    result = evaluate({"ruleset": "steirischer-tarockcup-2017", "players": P, "hands": hands})
    for h in result["hands"]:
        assert sum(h["scores"].values()) == 0
        assert sum(h["payout"].values()) == 0
        assert all(v % 10 == 0 for v in h["payout"].values())
        assert h["value"] >= 0
    assert sum(result["totals"].values()) == 0
    assert sum(result["payout_totals"].values()) == 0


@settings(max_examples=300, deadline=None)
@given(two_sided_hand())
def test_without_contras_the_payout_is_the_schrift_in_cents(hand):
    hand = dict(hand, contras=[])
    h = evaluate({"ruleset": "steirischer-tarockcup-2017", "players": P,
                  "hands": [hand]})["hands"][0]
    assert h["payout"] == {p: 10 * v for p, v in h["scores"].items()}


@settings(max_examples=300, deadline=None)
@given(two_sided_hand())
def test_contras_never_change_the_schrift(hand):
    with_contras = evaluate({"ruleset": "steirischer-tarockcup-2017", "players": P,
                             "hands": [hand]})["hands"][0]
    without = evaluate({"ruleset": "steirischer-tarockcup-2017", "players": P,
                        "hands": [dict(hand, contras=[])]})["hands"][0]
    assert with_contras["scores"] == without["scores"]


@settings(max_examples=300, deadline=None)
@given(trischaken_hand())
def test_trischaken_only_the_players_with_most_points_pay(hand):
    h = evaluate({"ruleset": "steirischer-tarockcup-2017", "players": P,
                  "hands": [hand]})["hands"][0]
    pts = hand["points_by_player"]
    top = max(pts.values())
    for p in P:
        if pts[p] == top:
            assert h["scores"][p] < 0
        else:
            assert h["scores"][p] >= 0


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 80) | st.sampled_from(P + ["game", "rufer",
                                                                             "trull", "renons"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(P + ["name", "by", "on", "level", "kind", "player", "announced",
                             "achieved", "against"]), inner, max_size=5),
    max_leaves=12,
)
FIELDS = ["game", "declarer", "partner", "forehand", "points", "won", "points_by_player",
          "blatt_by_player", "tricks_by_player", "announcements", "contras", "penalties",
          "conceded"]


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=8),
       st.sampled_from([g.code for g in GAME_RULES]))
def test_malformed_hands_never_crash(hand, game):
    from scoring import ScorecardInvalid
    hand.setdefault("game", game)
    try:
        result = evaluate({"ruleset": "steirischer-tarockcup-2017", "players": P,
                           "hands": [hand]})
    except ScorecardInvalid as exc:
        assert all(e["hand"] == 0 and e["field"] for e in exc.errors)
    else:
        assert sum(result["totals"].values()) == 0
