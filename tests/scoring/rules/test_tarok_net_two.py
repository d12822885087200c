"""Two-player tarok of the Tarok.net rules (seed 000 / 002 §2.2 "Tarok v dveh"), from the
clause's own words: igram won (points over 35 doubled), lost (tripled, negative), the ordinary
game when both passed (the single value for whoever has more than 35), and what a hand of two
refuses."""

from __future__ import annotations

import pytest

from scoring import ScorecardInvalid, evaluate

RULESETS = ("tarok-net-2007", "tarok-net-revised")


def _card(hands, ruleset="tarok-net-2007", **extra):
    return {"ruleset": ruleset, "mode": "two", "players": ["A", "B"], "hands": hands, **extra}


def _scores(hands, **extra):
    return [h["scores"] for h in evaluate(_card(hands, **extra))["hands"]]


def _errors(hands, **extra):
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate(_card(hands, **extra))
    return [(e["hand"], e["field"], e["code"]) for e in exc.value.errors]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("points", "expected"), [
    # "Če zmaga, se vrednost dobljenih točk podvoji (dobljene točke so 'razlika' nad 35)"
    (36, 2), (44, 18), (70, 70),
    # "v izgubljeni igri pa se vrednost točk potroji in se beležijo za negativne točke"
    (35, 0), (30, -15), (0, -105),
])
def test_igram_won_doubled_lost_tripled(ruleset, points, expected):
    assert _scores([{"game": "igram", "declarer": "B", "points": points}],
                   ruleset=ruleset) == [{"A": 0, "B": expected}]


@pytest.mark.parametrize(("choice", "points", "expected"), [
    ("under_35", 30, -15), ("under_35", 35, 0), ("under_35", 36, 2),
    ("under_36", 30, -18), ("under_36", 35, -3), ("under_36", 36, 2),
])
def test_lost_difference_option(choice, points, expected):
    assert _scores([{"game": "igram", "declarer": "A", "points": points}],
                   options={"two_lost_difference": choice}) == [{"A": expected, "B": 0}]


def test_the_dealer_may_take_the_game_on_the_same_terms():
    # "Če pa prvi igralec pasira, lahko delilec prevzame igro pod istimi pogoji": either
    # player of the card may be the one who said igram, scored alike.
    assert _scores([{"game": "igram", "declarer": "A", "points": 50, "forehand": "B"},
                    {"game": "igram", "declarer": "B", "points": 50, "forehand": "B"}]) == \
        [{"A": 30, "B": 0}, {"A": 0, "B": 30}]


@pytest.mark.parametrize(("a", "b", "expected"), [
    # "zmaga tisti, ki je zbral nad 35 točk, vendar je vrednost teh točk enojna"
    (40, 30, {"A": 5, "B": 0}),
    (12, 58, {"A": 0, "B": 23}),
    (35, 35, {"A": 0, "B": 0}),  # nobody has more than 35
    (36, 35, {"A": 1, "B": 0}),  # counted by threes, 71 is within the tolerance
])
def test_ordinary_game_single_value_to_the_winner(a, b, expected):
    assert _scores([{"game": "navadna", "points_by_player": {"A": a, "B": b}}]) == [expected]


def test_totals_lines_and_value():
    result = evaluate(_card([{"game": "igram", "declarer": "A", "points": 44},
                             {"game": "igram", "declarer": "B", "points": 30},
                             {"game": "navadna", "points_by_player": {"A": 40, "B": 30}}]))
    assert result["totals"] == {"A": 23, "B": -15}
    first, second, third = result["hands"]
    assert first["value"] == 18 and second["value"] == 15 and third["value"] == 5
    assert [line["code"] for line in first["lines"]] == ["two_igram_won"]
    assert first["lines"][0]["params"] == {"game": "igram", "points": 44, "difference": 9,
                                           "factor": 2}
    assert second["lines"][0]["code"] == "two_igram_lost"
    assert third["lines"][0]["code"] == "two_ordinary_won"
    # no radelci carry in two
    assert result["hands"][-1]["state"]["radelci"] == {"A": 0, "B": 0}


def test_a_hand_of_two_refuses_what_the_clause_does_not_name():
    errors = _errors([
        {"game": "igram", "declarer": "A", "points": 40,
         "contras": [{"on": "game", "by": "B", "level": 1}]},
        {"game": "igram", "declarer": "A", "points": 40,
         "announcements": [{"name": "trula", "by": "A", "announced": False, "achieved": True}]},
        {"game": "igram", "declarer": "A", "points": 40,
         "penalties": [{"kind": "mond", "player": "A"}]},
        {"game": "igram", "declarer": "A", "points": 40, "won": True},
        {"game": "navadna", "declarer": "A", "points_by_player": {"A": 40, "B": 30}},
        {"game": "trojka", "declarer": "A", "points": 40},
        {"game": "igram", "points": 40},
        {"game": "igram", "declarer": "C", "points": 71},
        {"game": "navadna", "points_by_player": {"A": 40, "B": 20}},
        {"game": "navadna", "points_by_player": {"A": 40}},
        {"penalties": [{"kind": "misdeal", "player": "A"}]},
    ])
    assert errors == [
        (0, "contras", "field_not_allowed"),
        (1, "announcements", "field_not_allowed"),
        (2, "penalties", "field_not_allowed"),
        (3, "won", "field_not_allowed"),
        (4, "declarer", "field_not_allowed"),
        (5, "game", "game_not_in_mode"),
        (6, "declarer", "missing"),
        (7, "declarer", "declarer_not_a_player"),
        (7, "points", "points_out_of_range"),
        (8, "points_by_player", "points_do_not_add_up"),
        (9, "points_by_player.B", "missing"),
        (10, "game", "missing"),
    ]


def test_two_players_only():
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate({"ruleset": "tarok-net-2007", "mode": "two", "players": ["A", "B", "C"],
                  "hands": []})
    assert exc.value.errors[0]["code"] == "wrong_player_count"
    with pytest.raises(ScorecardInvalid):
        evaluate({"ruleset": "tarok-net-2007", "mode": "three", "players": ["A", "B", "C"],
                  "hands": [{"game": "igram", "declarer": "A", "points": 40}]})


def test_the_registry_describes_the_mode():
    from scoring import rules
    desc = rules.get("tarok-net-2007").describe()
    mode = next(m for m in desc["modes"] if m["code"] == "two")
    assert mode == {"code": "two", "seats": 2, "players_in_hand": 2, "seat_counts": [2],
                    "contras": False, "penalty_kinds": [], "carries_state": False}
    games = {g["code"]: g for g in desc["games"] if "two" in g["modes"]}
    assert set(games) == {"igram", "navadna"}
    assert games["igram"]["won_factor"] == 2 and games["igram"]["lost_factor"] == 3
    assert all("two" not in a["modes"] for a in desc["announcements"])
