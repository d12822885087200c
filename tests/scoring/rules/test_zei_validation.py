"""Validation of `slovenski-tarok-zei` hands: every problem reported with hand and field,
nothing scored when anything is wrong, malformed input never crashing."""

from __future__ import annotations

import pytest

from scoring import ScorecardInvalid, evaluate

RULESET = "slovenski-tarok-zei"
FOUR = ["A", "B", "C", "D"]
THREE = ["A", "B", "C"]


def errors_of(hands, mode="four", **extra):
    card = {"ruleset": RULESET, "mode": mode, "players": FOUR if mode == "four" else THREE,
            "hands": hands, **extra}
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate(card)
    return [(e["hand"], e["field"], e["code"]) for e in exc.value.errors]


def test_mode_is_required_and_player_count_checked():
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate({"ruleset": RULESET, "players": THREE, "hands": []})
    assert exc.value.errors[0]["field"] == "mode"
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate({"ruleset": RULESET, "mode": "four", "players": THREE, "hands": []})
    assert exc.value.errors[0]["code"] == "wrong_player_count"


def test_partner_rules():
    assert errors_of([{"game": "tri", "declarer": "A", "partner": "B", "points": 40}],
                     mode="three") == [(0, "partner", "partner_not_allowed")]
    assert errors_of([{"game": "tri", "declarer": "A", "points": 40}]) == \
        [(0, "partner", "missing")]
    assert errors_of([{"game": "tri", "declarer": "A", "partner": "A", "points": 40}]) == \
        [(0, "partner", "partner_is_declarer")]
    assert errors_of([{"game": "berac", "declarer": "A", "partner": "B", "won": True}]) == \
        [(0, "partner", "partner_not_allowed")]


def test_points_and_won_as_the_game_needs():
    assert errors_of([{"game": "tri", "declarer": "A"}], mode="three") == \
        [(0, "points", "missing")]
    assert errors_of([{"game": "tri", "declarer": "A", "points": 71}], mode="three") == \
        [(0, "points", "points_out_of_range")]
    assert errors_of([{"game": "pikolo", "declarer": "A", "points": 3}], mode="three") == \
        [(0, "points", "field_not_allowed"), (0, "won", "missing")]
    assert errors_of([{"game": "tri", "declarer": "A", "points": 40, "won": True}],
                     mode="three") == [(0, "won", "field_not_allowed")]


def test_klop_points_must_add_up():
    assert errors_of([{"game": "klop", "points_by_player": {"A": 30, "B": 20, "C": 10,
                                                            "D": 5}}]) == \
        [(0, "points_by_player", "klop_points_do_not_add_up")]
    assert errors_of([{"game": "klop", "points_by_player": {"A": 30, "B": 20, "C": 20,
                                                            "D": 0},
                       "tricks_by_player": {"A": 4, "B": 4, "C": 4, "D": 1}}]) == \
        [(0, "tricks_by_player", "tricks_do_not_add_up"),
         (0, "tricks_by_player.D", "tricks_contradict_points")]
    assert errors_of([{"game": "klop", "points_by_player": {"A": 30, "B": 20, "C": 20,
                                                            "D": 0},
                       "contras": [{"on": "klop", "by": "A", "level": 1}]}]) == \
        [(0, "contras", "contra_not_allowed")]


def test_announcement_rules():
    solo = {"name": "solo", "by": "A", "announced": True}
    assert errors_of([{"game": "tri", "declarer": "A", "points": 40,
                       "announcements": [solo]}], mode="three") == \
        [(0, "announcements[0].name", "announcement_not_in_mode")]
    assert errors_of([{"game": "tri", "declarer": "A", "partner": "B", "points": 40,
                       "announcements": [solo]}]) == \
        [(0, "announcements[0].name", "solo_with_partner")]
    trula_def = {"name": "trula", "by": "C", "announced": True, "achieved": True}
    assert errors_of([{"game": "tri", "declarer": "A", "partner": "B", "points": 40,
                       "announcements": [trula_def]}]) == \
        [(0, "announcements[0].by", "announcement_by_defender")]
    both = [{"name": "trulapagat", "by": "A", "announced": True, "achieved": True},
            {"name": "trula", "by": "A", "announced": True, "achieved": True}]
    assert errors_of([{"game": "tri", "declarer": "A", "points": 40, "announcements": both}],
                     mode="three") == [(0, "announcements[0].name", "announcement_conflict")]
    silent_lost = {"name": "pagat_ultimo", "by": "A", "announced": False, "achieved": False}
    assert errors_of([{"game": "tri", "declarer": "A", "points": 40,
                       "announcements": [silent_lost]}], mode="three") == \
        [(0, "announcements[0].achieved", "silent_not_achieved")]
    assert errors_of([{"game": "berac", "declarer": "A", "won": True,
                       "announcements": [dict(trula_def, by="A")]}], mode="three") == \
        [(0, "announcements[0].name", "announcement_not_allowed")]


def test_contra_rules():
    assert errors_of([{"game": "tri", "declarer": "A", "points": 40,
                       "contras": [{"on": "trula", "by": "B", "level": 1},
                                   {"on": "game", "by": "A", "level": 1}]}],
                     mode="three") == \
        [(0, "contras[0].on", "contra_not_allowed"), (0, "contras[1].by",
                                                      "contra_by_wrong_side")]
    assert errors_of([{"game": "tri", "declarer": "A", "points": 40,
                       "contras": [{"on": "game", "by": "B", "level": 1},
                                   {"on": "game", "by": "C", "level": 1}]}],
                     mode="three") == [(0, "contras[1].level", "too_many_contras")]
    assert errors_of([{"game": "tri", "declarer": "A", "points": 40,
                       "contras": [{"on": "game", "by": "B", "level": 1},
                                   {"on": "game", "by": "A", "level": 2},
                                   {"on": "game", "by": "B", "level": 3},
                                   {"on": "game", "by": "A", "level": 4}]}],
                     mode="three") == [(0, "contras[3].level", "contra_level_not_allowed")]


def test_every_problem_of_every_hand_is_listed():
    hands = [{"game": "trojka", "declarer": "A", "points": 40},
             {"game": "tri", "declarer": "Q", "points": 40},
             {"game": "klop", "points_by_player": {"A": 10, "B": 10, "C": 10}},
             {"game": "tri", "declarer": "A", "points": 40,
              "penalties": [{"kind": "fine", "player": "B"}]}]
    assert errors_of(hands, mode="three") == [
        (0, "game", "unknown_game"),
        (1, "declarer", "declarer_not_a_player"),
        (2, "points_by_player", "klop_points_do_not_add_up"),
        (3, "penalties[0].kind", "invalid_penalty"),
    ]


@pytest.mark.parametrize("hand", [
    {"game": None}, {"game": "tri", "declarer": 3, "points": "40"},
    {"game": "tri", "declarer": "A", "points": 40, "announcements": {}},
    {"game": "tri", "declarer": "A", "points": 40, "announcements": [7]},
    {"game": "tri", "declarer": "A", "points": 40, "contras": [{"level": None}]},
    {"game": "klop", "points_by_player": "x"},
    {"game": "klop", "points_by_player": {"A": 1.5, "B": None}},
    {"game": "klop", "points_by_player": {"A": 30, "B": 30, "C": 10},
     "tricks_by_player": {"A": "x"}},
    {"game": "berac", "declarer": "A", "won": "yes"},
    {"game": "tri", "declarer": "A", "points": 40, "penalties": [None]},
])
def test_malformed_input_gives_errors_not_crashes(hand):
    assert errors_of([hand], mode="three")


def test_zei_valat_with_forty_points_is_refused():
    """Issue 15, finding 3. 003 Valat: "nasprotnikom pa ne bo pustil nobenega vzetka" — the
    opponents of a valat count only the talon cards the declarer left them (TAROK ZA ŠTIRI:
    "porine ostanek talona nasprotnemu paru"), never 30 points after a tri."""
    errors = errors_of([{"game": "tri", "declarer": "A", "points": 40, "announcements": [
        {"name": "valat", "by": "A", "announced": False, "achieved": True}]}], mode="three")
    assert [(field, code) for _hand, field, code in errors] == \
        [("announcements[0].achieved", "valat_contradicts_points")]
