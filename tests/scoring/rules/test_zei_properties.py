"""Property tests of `slovenski-tarok-zei`: Slovenian scoring is not zero-sum; the side that
plays writes the result, the opponents write nothing, radelci only ever double."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import evaluate

# Like the other rulesets' property modules: over 5 s, out of `make test-fast`.
pytestmark = pytest.mark.slow

FOUR = ["A", "B", "C", "D"]
THREE = ["A", "B", "C"]
POINT_GAMES = ["tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena", "solo_brez"]
TRICK_GAMES = ["pikolo", "berac", "odprti_berac"]


@st.composite
def declared_hand(draw, mode):
    players = FOUR if mode == "four" else THREE
    game = draw(st.sampled_from(POINT_GAMES + TRICK_GAMES))
    declarer = draw(st.sampled_from(players))
    hand = {"game": game, "declarer": declarer}
    partner = None
    if mode == "four" and game in ("tri", "dva", "ena"):
        partner = draw(st.one_of(st.none(), st.sampled_from(
            [p for p in players if p != declarer])))
        hand["partner"] = partner
    opponents = [p for p in players if p not in (declarer, partner)]
    if game in POINT_GAMES:
        hand["points"] = draw(st.integers(0, 70))
        anns = []
        for name in ("trula", "kralji", "pagat_ultimo"):
            if draw(st.booleans()):
                announced = draw(st.booleans())
                anns.append({"name": name, "by": declarer, "announced": announced,
                             "achieved": True if not announced else draw(st.booleans())})
        hand["announcements"] = anns
    else:
        hand["won"] = draw(st.booleans())
    level = draw(st.integers(0, 3))
    hand["contras"] = [{"on": "game", "by": declarer if lv == 2 else
                        draw(st.sampled_from(opponents)), "level": lv}
                       for lv in range(1, level + 1)]
    return hand


@st.composite
def klop_hand(draw, mode):
    players = FOUR if mode == "four" else THREE
    cuts = sorted(draw(st.lists(st.integers(0, 70), min_size=len(players) - 1,
                                max_size=len(players) - 1)))
    bounds = [0] + cuts + [70]
    points = [bounds[k + 1] - bounds[k] for k in range(len(players))]
    return {"game": "klop", "points_by_player": dict(zip(players, points, strict=True))}


@st.composite
def card(draw):
    mode = draw(st.sampled_from(["three", "four"]))
    hands = draw(st.lists(st.one_of(declared_hand(mode), klop_hand(mode)), max_size=8))
    options = {"radelci": draw(st.sampled_from(["personal", "collective"]))}
    return {"ruleset": "slovenski-tarok-zei", "mode": mode,
            "players": FOUR if mode == "four" else THREE, "hands": hands, "options": options}


@settings(max_examples=300, deadline=None)
@given(card())
def test_opponents_write_nothing_and_radelci_only_double(sc):
    result = evaluate(sc)
    for hand, out in zip(sc["hands"], result["hands"], strict=True):
        if hand["game"] == "klop":
            for p, pts in hand["points_by_player"].items():
                # klop_over_35 "added" (the default): the punishment comes on top
                assert out["scores"][p] in ({10} if pts == 0 else
                                            {-pts - 35} if pts > 35 else {-pts})
            continue
        side = {hand["declarer"], hand.get("partner")} - {None}
        alone = evaluate(dict(sc, hands=[hand]))["hands"][0]["scores"]
        for p in sc["players"]:
            if p not in side:
                assert out["scores"][p] == 0
            else:
                assert out["scores"][p] in (alone[p], 2 * alone[p])
    for out in result["hands"]:
        state = out["state"]
        if "radelci" in state:
            assert all(v >= 0 for v in state["radelci"].values())
        else:
            assert state["collective_radelci"] >= 0


@settings(max_examples=300, deadline=None)
@given(declared_hand("four"))
def test_the_partner_writes_what_the_declarer_writes(hand):
    out = evaluate({"ruleset": "slovenski-tarok-zei", "mode": "four", "players": FOUR,
                    "hands": [hand]})["hands"][0]
    if hand.get("partner"):
        assert out["scores"][hand["partner"]] == out["scores"][hand["declarer"]]


@settings(max_examples=300, deadline=None)
@given(declared_hand("three"))
def test_the_game_part_is_signed_by_the_result(hand):
    out = evaluate({"ruleset": "slovenski-tarok-zei", "mode": "three", "players": THREE,
                    "hands": [hand]})["hands"][0]
    game_line = out["lines"][0]
    won = hand["points"] > 35 if "points" in hand else hand["won"]
    assert (game_line["points"] > 0) == won
    assert abs(game_line["points"]) == out["value"] * 2 ** len(hand["contras"])


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 80) | st.sampled_from(
        FOUR + ["game", "tri", "trula", "solo", "mond", "renons"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(FOUR + ["name", "by", "on", "level", "kind", "player", "announced",
                                "achieved"]), inner, max_size=5),
    max_leaves=12,
)
FIELDS = ["game", "declarer", "partner", "points", "won", "points_by_player",
          "tricks_by_player", "announcements", "contras", "penalties"]


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=8),
       st.sampled_from(POINT_GAMES + TRICK_GAMES + ["klop"]),
       st.sampled_from(["three", "four"]))
def test_malformed_hands_never_crash(hand, game, mode):
    from scoring import ScorecardInvalid
    hand.setdefault("game", game)
    try:
        evaluate({"ruleset": "slovenski-tarok-zei", "mode": mode,
                  "players": FOUR if mode == "four" else THREE, "hands": [hand]})
    except ScorecardInvalid as exc:
        assert all(e["hand"] == 0 and e["field"] for e in exc.errors)
