"""Validation of Tarok.net scorecards: every impossible entry is refused with the contract's
error list (each error names the hand and the field), and nothing is scored then; a valat
the counted points cannot hold, and announcements that cannot be true together (naming the
pair), are refused."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import ScorecardInvalid, evaluate

P4 = ["A", "B", "C", "D"]


def errors_of(scorecard: dict[str, Any]) -> list[dict[str, Any]]:
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate(scorecard)
    return exc.value.errors


def one_hand(hand: dict[str, Any], mode: str = "tri+1", ruleset: str = "tarok-net-2007",
             players=None, **extra) -> list[dict[str, Any]]:
    return errors_of({"ruleset": ruleset, "mode": mode, "players": players or P4,
                      "hands": [hand], **extra})


def codes(errs):
    return {(e["hand"], e["field"], e["code"]) for e in errs}


OK = {"game": "trojka", "declarer": "A", "resting": "D", "points": 40}


@pytest.mark.parametrize("hand,mode,expected", [
    (dict(OK, game="solo_tri"), "tri+1", ("game", "game_not_in_mode")),
    (dict(OK, game="pikolo"), "tri+1", ("game", "unknown_game")),
    (dict(OK, game=5), "tri+1", ("game", "not_a_string")),
    ({k: v for k, v in OK.items() if k != "game"}, "tri+1", ("game", "missing")),
    (dict(OK, points=71), "tri+1", ("points", "points_out_of_range")),
    (dict(OK, points=-1), "tri+1", ("points", "points_out_of_range")),
    (dict(OK, points="40"), "tri+1", ("points", "not_an_integer")),
    (dict(OK, points=True), "tri+1", ("points", "not_an_integer")),
    ({k: v for k, v in OK.items() if k != "points"}, "tri+1", ("points", "missing")),
    (dict(OK, declarer="X"), "tri+1", ("declarer", "declarer_not_a_player")),
    (dict(OK, declarer="D"), "tri+1", ("declarer", "resting_player_declares")),
    ({k: v for k, v in OK.items() if k != "resting"}, "tri+1", ("resting", "missing")),
    (dict(OK, partner="B"), "tri+1", ("partner", "partner_not_allowed")),
    (dict(OK, won=True), "tri+1", ("won", "field_not_allowed")),
    (dict(OK, colour="red"), "tri+1", ("colour", "unknown_field")),
    ({"game": "trojka", "declarer": "A", "partner": "A", "points": 40}, "four",
     ("partner", "partner_is_declarer")),
    ({"game": "solo_tri", "declarer": "A", "partner": "B", "points": 40}, "four",
     ("partner", "partner_not_allowed")),
    ({"game": "trojka", "declarer": "A", "resting": "D", "points": 40}, "four",
     ("resting", "resting_not_allowed")),
    ({"game": "berac", "declarer": "A", "resting": "D"}, "tri+1", ("won", "missing")),
    ({"game": "berac", "declarer": "A", "resting": "D", "won": "yes"}, "tri+1",
     ("won", "not_a_boolean")),
    ({"game": "berac", "declarer": "A", "resting": "D", "won": True, "points": 0}, "tri+1",
     ("points", "field_not_allowed")),
])
def test_hand_field_errors(hand, mode, expected):
    errs = one_hand(hand, mode)
    assert (0, *expected) in codes(errs)
    for e in errs:
        assert e["hand"] == 0 and e["field"] and e["code"] and e["message"]


@pytest.mark.parametrize("ann,expected", [
    ({"name": "kralj_ultimo", "by": "A", "announced": True, "achieved": True},
     ("announcements[0].name", "announcement_not_allowed")),
    ({"name": "valat", "by": "A", "announced": True, "achieved": True},
     ("announcements[0].announced", "announcement_not_allowed")),
    ({"name": "bogus", "by": "A", "announced": True, "achieved": True},
     ("announcements[0].name", "unknown_announcement")),
    ({"name": "trula", "by": "D", "announced": True, "achieved": True},
     ("announcements[0].by", "announcement_by_resting_player")),
    ({"name": "trula", "by": "A", "achieved": True},
     ("announcements[0].announced", "missing")),
    ({"name": "trula", "by": "A", "announced": True},
     ("announcements[0].achieved", "missing")),
    ({"name": "kralji", "by": "A", "announced": False, "achieved": False},
     ("announcements[0].achieved", "silent_not_realised")),
    ({"name": "trula", "by": "A", "announced": False, "achieved": True, "held": True},
     ("announcements[0].held", "held_not_used")),
    ({"name": "valat", "by": "A", "announced": False, "achieved": True},
     ("announcements[0].achieved", "valat_points_mismatch")),
])
def test_announcement_errors(ann, expected):
    errs = one_hand(dict(OK, announcements=[ann]))
    assert (0, *expected) in codes(errs)


def test_announcements_not_allowed_in_high_games():
    hand = {"game": "berac", "declarer": "A", "resting": "D", "won": True,
            "announcements": [{"name": "trula", "by": "A", "announced": True,
                               "achieved": True}]}
    assert (0, "announcements[0].name", "announcement_not_allowed") in codes(one_hand(hand))


def test_kralj_ultimo_needs_called_king_and_playing_side():
    hand = {"game": "solo_tri", "declarer": "A", "points": 40,
            "announcements": [{"name": "kralj_ultimo", "by": "A", "announced": True,
                               "achieved": True}]}
    assert (0, "announcements[0].name", "announcement_not_allowed") in codes(
        one_hand(hand, "four"))
    hand = {"game": "trojka", "declarer": "A", "partner": "C", "points": 40,
            "announcements": [{"name": "kralj_ultimo", "by": "B", "announced": True,
                               "achieved": True}]}
    assert (0, "announcements[0].by", "announcement_by_wrong_side") in codes(
        one_hand(hand, "four"))


TRULA = [{"name": "trula", "by": "A", "announced": True, "achieved": True}]
SILENT = [{"name": "trula", "by": "A", "announced": False, "achieved": True}]


@pytest.mark.parametrize("anns,contras,expected", [
    (SILENT, [{"on": "trula", "by": "B", "level": 1}], ("contras[0].on", "contra_on_silent")),
    ([], [{"on": "trula", "by": "B", "level": 1}],
     ("contras[0].on", "contra_on_missing_announcement")),
    ([], [{"on": "game", "by": "A", "level": 1}], ("contras[0].by", "contra_by_wrong_side")),
    ([], [{"on": "game", "by": "B", "level": 1}, {"on": "game", "by": "C", "level": 2}],
     ("contras[1].by", "contra_by_wrong_side")),
    ([], [{"on": "game", "by": "D", "level": 1}], ("contras[0].by", "contra_by_wrong_side")),
    ([], [{"on": "game", "by": "B", "level": 2}], ("contras[0].level", "contra_out_of_order")),
    ([], [{"on": "game", "by": "B", "level": 3}],
     ("contras[0].level", "contra_level_not_allowed")),
    ([], [{"on": "game", "by": "B", "level": 1}, {"on": "game", "by": "A", "level": 2},
          {"on": "game", "by": "C", "level": 1}], ("contras[2]", "too_many_contras")),
    ([], [{"on": "klop", "by": "B", "level": 1}], ("contras[0].on", "contra_not_allowed")),
    (TRULA, [{"on": "trula", "by": "B", "level": 1}, {"on": "trula", "by": "C", "level": 2}],
     ("contras[1].by", "contra_by_wrong_side")),
])
def test_contra_errors(anns, contras, expected):
    errs = one_hand(dict(OK, announcements=anns, contras=contras))
    assert (0, *expected) in codes(errs)


@pytest.mark.parametrize("hand,mode,expected", [
    ({"game": "klop", "resting": "D",
      "points_by_player": {"A": 20, "B": 20, "C": 20, "D": 20}}, "tri+1",
     ("points_by_player", "klop_points_do_not_add_up")),
    ({"game": "klop", "resting": "D",
      "points_by_player": {"A": 20, "B": 20, "C": 30}}, "tri+1",
     ("points_by_player.D", "missing")),
    ({"game": "klop", "resting": "D", "points_by_player": {"A": 20, "B": 20, "C": 20, "D": 10},
      "contras": [{"on": "klop", "by": "D", "level": 1}]}, "tri+1",
     ("contras[0].by", "contra_by_wrong_side")),
    ({"game": "klop", "points_by_player": {"A": 20, "B": 20, "C": 20, "D": 10},
      "contras": [{"on": "klop", "by": "B", "level": 1}]}, "four",
     ("contras[0].on", "contra_not_allowed")),
    ({"game": "klop", "resting": "D", "declarer": "A",
      "points_by_player": {"A": 20, "B": 20, "C": 20, "D": 10}}, "tri+1",
     ("declarer", "field_not_allowed")),
    ({"game": "klop", "points_by_player": {"A": 20, "B": 20, "C": 20, "D": 10},
      "tricks_by_player": {"A": 3, "B": 3, "C": 3, "D": 2}}, "four",
     ("tricks_by_player", "tricks_do_not_add_up")),
    ({"game": "klop", "points_by_player": {"A": 20, "B": 20, "C": 30, "D": 0},
      "tricks_by_player": {"A": 3, "B": 3, "C": 3, "D": 3}}, "four",
     ("tricks_by_player.D", "tricks_do_not_match_points")),
])
def test_klop_errors(hand, mode, expected):
    assert (0, *expected) in codes(one_hand(hand, mode))


def test_klop_points_tolerance_is_one_by_default():
    card = {"ruleset": "tarok-net-2007", "mode": "four", "players": P4,
            "hands": [{"game": "klop", "points_by_player": {"A": 20, "B": 20, "C": 20,
                                                            "D": 11}}]}
    assert evaluate(card)["totals"]["D"] == -11
    card["options"] = {"klop_points_tolerance": 0}
    assert {e["code"] for e in errors_of(card)} == {"klop_points_do_not_add_up"}


@pytest.mark.parametrize("pen,expected", [
    ({"kind": "fine", "player": "A"}, ("penalties[0].kind", "invalid_penalty")),
    ({"kind": "renons", "player": "X"}, ("penalties[0].player", "invalid_penalty")),
    ({"kind": "mond"}, ("penalties[0].player", "invalid_penalty")),
    ({"kind": "mond", "player": "A", "clause": "a"}, ("penalties[0].clause",
                                                      "invalid_penalty")),
    ({"kind": "no_tarok", "player": "A"}, ("penalties[0].kind", "no_tarok_on_played_hand")),
    ("renons", ("penalties[0]", "not_an_object")),
])
def test_penalty_errors(pen, expected):
    assert (0, *expected) in codes(one_hand(dict(OK, penalties=[pen])))


def test_void_hand_allows_only_misdeal_and_no_tarok():
    errs = one_hand({"penalties": [{"kind": "misdeal", "player": "A"}], "points": 40})
    assert (0, "points", "field_not_allowed") in codes(errs)
    errs = one_hand({"penalties": [{"kind": "mond", "player": "A"}]})
    assert (0, "game", "missing") in codes(errs)


def test_every_problem_of_every_hand_is_reported_and_nothing_scored():
    hands = [
        OK,
        dict(OK, points=99, declarer="D"),
        {"game": "solo_tri", "declarer": "Z", "resting": "D", "points": 40},
        {"game": "klop", "resting": "D", "points_by_player": {"A": 1, "B": 1, "C": 1, "D": 1}},
        "not a hand",
    ]
    errs = errors_of({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": P4,
                      "hands": hands})
    # the engine reports a non-object hand before the ruleset sees the card
    assert codes(errs) == {(4, "hand", "not_an_object")}
    errs = errors_of({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": P4,
                      "hands": hands[:4]})
    assert codes(errs) == {
        (1, "points", "points_out_of_range"),
        (1, "declarer", "resting_player_declares"),
        (2, "game", "game_not_in_mode"),
        (3, "points_by_player", "klop_points_do_not_add_up"),
    }


def test_unknown_ruleset_and_mode():
    errs = errors_of({"ruleset": "tarok-net-1999", "mode": "tri+1", "players": P4,
                      "hands": []})
    assert errs[0]["code"] == "unknown_ruleset"
    errs = errors_of({"ruleset": "tarok-net-2007", "mode": "five", "players": P4,
                      "hands": []})
    assert errs[0]["code"] == "unknown_mode"
    errs = errors_of({"ruleset": "tarok-net-2007", "players": P4, "hands": []})
    assert errs[0]["code"] == "missing" and errs[0]["field"] == "mode"


def test_player_counts_per_mode():
    for mode, n in (("tri+1", 3), ("tri+1", 4), ("three", 3), ("four", 4)):
        evaluate({"ruleset": "tarok-net-revised", "mode": mode, "players": P4[:n],
                  "hands": []})
    for mode, n in (("tri+1", 5), ("three", 4), ("four", 3)):
        errs = errors_of({"ruleset": "tarok-net-revised", "mode": mode, "players": P4[:n]
                          if n <= 4 else P4 + ["E"], "hands": []})
        assert errs[0]["code"] == "wrong_player_count"


def test_initial_state_errors():
    errs = errors_of({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": P4,
                      "hands": [], "initial_state": {"radelci": {"A": -1, "Z": 1},
                                                     "extra": {}}})
    assert codes(errs) == {(None, "initial_state.radelci.A", "invalid_count"),
                           (None, "initial_state.radelci.Z", "not_a_player"),
                           (None, "initial_state.extra", "unknown_field")}


# -- Found on a second reading of the rulebooks (issue 15, findings 1 and 3) -------------------

def silent(name: str, by: str) -> dict[str, Any]:
    return {"name": name, "by": by, "announced": False, "achieved": True}


def pairs(errors: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    return [(e["field"], e["code"], e["params"]["first"], e["params"]["second"])
            for e in errors]


def test_a_valat_with_points_no_talon_rest_can_hold_is_still_refused():
    """A trojka's defenders hold only the three talon cards the declarer left (§2.3), at most
    13 points: 30 points for them cannot go with the declarer's valat."""
    errors = one_hand({"game": "trojka", "declarer": "A", "resting": "D", "points": 40,
                       "announcements": [silent("valat", "A")]})
    assert [(e["field"], e["code"]) for e in errors] == \
        [("announcements[0].achieved", "valat_points_mismatch")]


@pytest.mark.parametrize("ruleset", ["tarok-net-2007", "tarok-net-revised"])
def test_declarers_trula_and_a_defenders_pagat_ultimo(ruleset):
    """000/002 §2.3: "Trula pomeni, da mora ob koncu igre igralec ... imeti v svojih vzetkih
    pagata, monda in škisa" and "Pagat ultimo pomeni, da ... bo realiziral z njim zadnji
    vzetek": one pagat cannot end in both sides' tricks."""
    errors = one_hand({"game": "trojka", "declarer": "A", "resting": "D", "points": 40,
                       "announcements": [silent("trula", "A"), silent("pagat_ultimo", "B")]},
                      ruleset=ruleset)
    assert pairs(errors) == [("announcements[1]", "impossible_together", "trula",
                              "pagat ultimo")]


@pytest.mark.parametrize("ruleset", ["tarok-net-2007", "tarok-net-revised"])
def test_silent_valat_and_the_defenders_kralji(ruleset):
    """000/002 §2.3: "Kralji pomeni, da bo imel napovedovalec v svojih vzetkih vse štiri
    kralje" — defenders who took no trick (the declarer's valat) have no kings in their
    tricks."""
    errors = one_hand({"game": "trojka", "declarer": "A", "resting": "D", "points": 70,
                       "announcements": [silent("valat", "A"), silent("kralji", "C")]},
                      ruleset=ruleset)
    assert pairs(errors) == [("announcements[1]", "impossible_together", "valat", "kralji")]
