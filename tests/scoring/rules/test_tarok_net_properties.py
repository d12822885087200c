"""Property tests (hypothesis) of the Tarok.net scoring: carried state, zero-sum facts the
rules imply, and the radelc's exact factor of two."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import evaluate

P4 = ["A", "B", "C", "D"]
RULESETS = st.sampled_from(["tarok-net-2007", "tarok-net-revised"])
POINTS_GAMES = ["trojka", "dvojka", "enka", "solo_brez"]
HIGH_GAMES = ["berac", "barvni_valat_tri", "valat_dva", "valat_brez"]


@st.composite
def tri1_hand(draw, with_extras: bool = True) -> dict[str, Any]:
    resting = draw(st.sampled_from(P4))
    playing = [p for p in P4 if p != resting]
    kind = draw(st.sampled_from(["points", "high", "klop"]))
    if kind == "klop":
        cuts = sorted(draw(st.lists(st.integers(0, 70), min_size=3, max_size=3)))
        pts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 70 - cuts[2]]
        hand: dict[str, Any] = {"game": "klop", "resting": resting,
                                "points_by_player": dict(zip(P4, pts, strict=True))}
        if with_extras and draw(st.booleans()):
            a, b = draw(st.permutations(playing))[:2]
            hand["contras"] = [{"on": "klop", "by": a, "level": 1}]
            if draw(st.booleans()):
                hand["contras"].append({"on": "klop", "by": b, "level": 2})
        return hand
    declarer = draw(st.sampled_from(playing))
    defenders = [p for p in playing if p != declarer]
    if kind == "high":
        hand = {"game": draw(st.sampled_from(HIGH_GAMES)), "declarer": declarer,
                "resting": resting, "won": draw(st.booleans())}
    else:
        hand = {"game": draw(st.sampled_from(POINTS_GAMES)), "declarer": declarer,
                "resting": resting, "points": draw(st.integers(0, 70))}
    if with_extras and kind == "points":
        anns = []
        # one pagat: the trula and the pagat ultimo of a hand are one player's (two sides
        # cannot both have it in their tricks)
        pagat_side = draw(st.sampled_from(playing))
        for name in draw(st.lists(st.sampled_from(["kralji", "trula", "pagat_ultimo"]),
                                  unique=True, max_size=3)):
            announced = draw(st.booleans())
            achieved = draw(st.booleans()) if (announced or name == "pagat_ultimo") else True
            by = draw(st.sampled_from(playing)) if name == "kralji" else pagat_side
            anns.append({"name": name, "by": by, "announced": announced,
                         "achieved": achieved})
        hand["announcements"] = anns
        contras = []
        if draw(st.booleans()):
            contras.append({"on": "game", "by": draw(st.sampled_from(defenders)), "level": 1})
            if draw(st.booleans()):
                contras.append({"on": "game", "by": declarer, "level": 2})
        hand["contras"] = contras
    return hand


@settings(max_examples=150, deadline=None)
@given(RULESETS, st.lists(tri1_hand(), min_size=1, max_size=10), st.data())
def test_hand_by_hand_with_carried_state_equals_whole_card(ruleset, hands, data):
    whole = evaluate({"ruleset": ruleset, "mode": "tri+1", "players": P4, "hands": hands})
    cut = data.draw(st.integers(0, len(hands)))
    first = evaluate({"ruleset": ruleset, "mode": "tri+1", "players": P4,
                      "hands": hands[:cut]})
    state = first["hands"][-1]["state"] if cut else None
    second = evaluate({"ruleset": ruleset, "mode": "tri+1", "players": P4,
                       "hands": hands[cut:], "initial_state": state})
    assert first["hands"] + second["hands"] == whole["hands"]
    for p in P4:
        assert first["totals"][p] + second["totals"][p] == whole["totals"][p]


@settings(max_examples=150, deadline=None)
@given(RULESETS, tri1_hand(with_extras=False))
def test_without_contras_and_announcements_defenders_write_zero(ruleset, hand):
    if hand["game"] == "klop":
        return
    r = evaluate({"ruleset": ruleset, "mode": "tri+1", "players": P4, "hands": [hand]})
    scores = r["hands"][0]["scores"]
    assert all(v == 0 for p, v in scores.items() if p != hand["declarer"])
    assert abs(scores[hand["declarer"]]) == r["hands"][0]["value"]


@settings(max_examples=150, deadline=None)
@given(RULESETS, tri1_hand())
def test_radelc_doubles_the_declarer_exactly(ruleset, hand):
    if hand["game"] == "klop":
        return
    card = {"ruleset": ruleset, "mode": "tri+1", "players": P4, "hands": [hand]}
    plain = evaluate(card)["hands"][0]["scores"]
    doubled = evaluate(dict(card, initial_state={"radelci": {hand["declarer"]: 1}}))
    d = doubled["hands"][0]["scores"]
    assert d[hand["declarer"]] == 2 * plain[hand["declarer"]]
    for p in P4:
        if p != hand["declarer"]:
            assert d[p] == plain[p]  # default: the radelc is the declarer's alone
    both = evaluate(dict(card, initial_state={"radelci": {hand["declarer"]: 1}},
                         options={"radelc_doubles_defenders": True}))["hands"][0]["scores"]
    assert both == {p: 2 * v for p, v in plain.items()}


@settings(max_examples=100, deadline=None)
@given(RULESETS, st.integers(0, 70), st.sampled_from(["trojka", "dvojka", "enka"]))
def test_four_partner_writes_half_of_declarer(ruleset, points, game):
    r = evaluate({"ruleset": ruleset, "mode": "four", "players": P4,
                  "hands": [{"game": game, "declarer": "A", "partner": "B",
                             "points": points}], "options": {"rounding": "half_to_even"}})
    s = r["hands"][0]["scores"]
    assert abs(s["B"] * 2 - s["A"]) <= 1
    assert s["C"] == s["D"] == 0


@settings(max_examples=100, deadline=None)
@given(RULESETS, tri1_hand())
def test_lines_add_up_to_scores(ruleset, hand):
    r = evaluate({"ruleset": ruleset, "mode": "tri+1", "players": P4, "hands": [hand]})
    h = r["hands"][0]
    sums = dict.fromkeys(P4, 0)
    for line in h["lines"]:
        assert line["code"] and isinstance(line["params"], dict)
        sums[line["player"]] += line["points"]
    assert sums == h["scores"]


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 80), st.text(max_size=3),
                 st.sampled_from(P4 + ["trojka", "klop", "game", "trula", "renons"]),
                 st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=2),
                                                                      st.integers(),
                                                                      max_size=2))
FIELDS = ["game", "declarer", "partner", "resting", "forehand", "points", "won",
          "points_by_player", "tricks_by_player", "announcements", "contras", "penalties"]
ITEM = st.dictionaries(st.sampled_from(["name", "by", "announced", "achieved", "held", "on",
                                        "level", "kind", "player", "clause"]), JUNK,
                       max_size=5)


@settings(max_examples=300, deadline=None)
@given(RULESETS, st.sampled_from(["tri+1", "three", "four"]),
       st.lists(st.dictionaries(st.sampled_from(FIELDS),
                                st.one_of(JUNK, st.lists(ITEM, max_size=3)), max_size=8),
                max_size=4))
def test_malformed_hands_never_crash(ruleset, mode, hands):
    from scoring import ScorecardInvalid
    players = P4[:3] if mode == "three" else P4
    try:
        evaluate({"ruleset": ruleset, "mode": mode, "players": players, "hands": hands})
    except ScorecardInvalid as exc:
        for e in exc.errors:
            assert e["field"] and e["code"] and e["message"]
            assert e["hand"] is None or 0 <= e["hand"] < len(hands)
