"""Validation of `steirischer-tarockcup-2017` hands: every problem is reported with its hand
and field, nothing is scored when anything is wrong, and malformed input never crashes."""

from __future__ import annotations

import pytest

from scoring import ScorecardInvalid, evaluate

RULESET = "steirischer-tarockcup-2017"
P = ["A", "B", "C", "D"]


def errors_of(hands, **extra):
    card = {"ruleset": RULESET, "players": P, "hands": hands, **extra}
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate(card)
    return [(e["hand"], e["field"], e["code"]) for e in exc.value.errors]


def tri(points, **extra):
    return {"game": "trischaken", "forehand": "A",
            "points_by_player": dict(zip(P, points, strict=True)), **extra}


def test_no_contra_in_trischaken():
    """Seed 001, Trischaken: "Kein Kontra möglich!"."""
    assert errors_of([tri((15, 30, 13, 12), contras=[{"on": "game", "by": "B", "level": 1}])]
                     ) == [(0, "contras", "contra_not_allowed")]


def test_only_kontra_re_sub():
    """"Es gibt nur Kontra (doppelt), Re (vierfach) und Sub (achtfach)": level 4 refused."""
    hand = {"game": "dreier", "declarer": "A", "won": True,
            "contras": [{"on": "game", "by": "B", "level": 1},
                        {"on": "game", "by": "A", "level": 2},
                        {"on": "game", "by": "B", "level": 3},
                        {"on": "game", "by": "A", "level": 4}]}
    assert errors_of([hand]) == [(0, "contras[3].level", "contra_level_not_allowed")]


def test_partner_only_in_rufer_type_games():
    assert errors_of([{"game": "dreier", "declarer": "A", "partner": "B", "won": True}]) == \
        [(0, "partner", "partner_not_allowed")]
    assert errors_of([{"game": "rufer", "declarer": "A", "won": True}]) == \
        [(0, "partner", "missing")]
    assert errors_of([{"game": "rufer", "declarer": "A", "partner": "A", "won": True}]) == \
        [(0, "partner", "partner_is_declarer")]


def test_points_and_won_as_the_game_needs():
    assert errors_of([{"game": "dreier", "declarer": "A"}]) == [(0, "won", "missing")]
    assert errors_of([{"game": "bettler", "declarer": "A", "points": 10, "won": True}]) == \
        [(0, "points", "field_not_allowed")]
    assert errors_of([{"game": "dreier", "declarer": "A", "points": 35}]) == \
        [(0, "won", "missing")]
    assert errors_of([{"game": "dreier", "declarer": "A", "points": 40, "won": False}]) == \
        [(0, "won", "won_contradicts_points")]
    assert errors_of([{"game": "dreier", "declarer": "A", "points": 71, "won": True}]) == \
        [(0, "points", "points_out_of_range")]


def test_trischaken_needs_points_adding_up_and_forehand():
    assert errors_of([{"game": "trischaken",
                       "points_by_player": {"A": 15, "B": 30, "C": 13, "D": 12}}]) == \
        [(0, "forehand", "missing")]
    assert errors_of([tri((15, 30, 13, 5))]) == \
        [(0, "points_by_player", "trischaken_points_do_not_add_up")]
    assert errors_of([tri((15, 30, 13, 12), blatt_by_player={"A": 1, "B": 0, "C": 0,
                                                            "D": 0})]) == \
        [(0, "points_by_player", "trischaken_points_do_not_add_up")]
    # 69 points with two at the top: the dropped Blatt decide who lost
    assert errors_of([tri((25, 25, 10, 9))]) == \
        [(0, "blatt_by_player", "trischaken_blatt_needed")]
    assert errors_of([{"game": "trischaken", "forehand": "A"}]) == \
        [(0, "points_by_player", "missing")]


def test_trischaken_tricks_must_agree_with_points():
    assert errors_of([tri((15, 30, 13, 12), tricks_by_player={"A": 3, "B": 5, "C": 4,
                                                              "D": 0})]) == \
        [(0, "tricks_by_player.D", "tricks_contradict_points")]


def test_premiums_allowed_by_game():
    """"Farbspiele ... Nur die Ansagen 4 Könige und Valat sind möglich."; no premiums in
    negative games; König ultimo needs a called king."""
    a = {"name": "trull", "by": "A", "announced": True, "achieved": True}
    assert errors_of([{"game": "farbendreier", "declarer": "A", "won": True,
                       "announcements": [a]}]) == \
        [(0, "announcements[0].name", "announcement_not_allowed")]
    assert errors_of([{"game": "bettler", "declarer": "A", "won": True,
                       "announcements": [a]}]) == \
        [(0, "announcements[0].name", "announcement_not_allowed")]
    ku = dict(a, name="koenig_ultimo")
    assert errors_of([{"game": "dreier", "declarer": "A", "won": True,
                       "announcements": [ku]}]) == \
        [(0, "announcements[0].name", "announcement_not_allowed")]


def test_announced_valat_forbids_announced_trull():
    """"Im angesagten Valat kann man Trull oder 4 Könige nicht ansagen."""
    anns = [{"name": "valat", "by": "A", "announced": True, "achieved": True},
            {"name": "trull", "by": "A", "announced": True, "achieved": True}]
    assert errors_of([{"game": "dreier", "declarer": "A", "announcements": anns}]) == \
        [(0, "announcements[1].name", "announcement_not_allowed")]


def test_vogerl_rufer_needs_its_vogerl():
    """"Ein Ruferspiel mit Vogerl muss sofort unter Nennung des Vogerls lizitiert werden"."""
    assert errors_of([{"game": "kakadurufer", "declarer": "A", "partner": "B", "won": True}]
                     ) == [(0, "announcements", "named_vogerl_missing")]


def test_contra_checks():
    anns = [{"name": "pagat", "by": "B", "announced": False, "achieved": True}]
    hand = {"game": "dreier", "declarer": "A", "won": True, "announcements": [],
            "contras": [{"on": "pagat", "by": "B", "level": 1},
                        {"on": "game", "by": "A", "level": 1},
                        {"on": "klop", "by": "B", "level": 1},
                        {"on": "game", "by": "B", "level": 2}]}
    assert errors_of([hand]) == [
        (0, "contras[0].on", "contra_on_missing_announcement"),
        (0, "contras[2].on", "contra_not_allowed"),
        (0, "contras[1].by", "contra_by_wrong_side"),
        (0, "contras[3].by", "contra_by_wrong_side"),
    ]
    hand = {"game": "rufer", "declarer": "A", "partner": "B", "won": True,
            "announcements": anns, "contras": [{"on": "pagat", "by": "C", "level": 1}]}
    assert errors_of([hand]) == [(0, "contras[0].on", "contra_on_silent")]
    hand = {"game": "dreier", "declarer": "A", "won": True,
            "contras": [{"on": "game", "by": "B", "level": 2}]}
    assert errors_of([hand]) == [(0, "contras[0].level", "contra_out_of_order")]


def test_individual_contras_need_a_target_when_ambiguous():
    hand = {"game": "piccolo", "declarer": "A", "won": True,
            "contras": [{"on": "game", "by": "B", "level": 1},
                        {"on": "game", "by": "C", "level": 1},
                        {"on": "game", "by": "A", "level": 2}]}
    assert errors_of([hand]) == [(0, "contras[2].against", "missing")]


def test_mondfang_is_not_honoured():
    """"Mondfang wird nicht honoriert."""
    assert errors_of([{"game": "rufer", "declarer": "A", "partner": "B", "won": True,
                       "penalties": [{"kind": "mond", "player": "C"}]}]) == \
        [(0, "penalties[0].kind", "invalid_penalty")]


def test_sechserdreier_only_by_the_forehand():
    """"*) Muss von der Vorhand sofort lizitiert werden."""
    assert errors_of([{"game": "sechserdreier", "declarer": "B", "forehand": "A",
                       "won": True}]) == [(0, "forehand", "sechserdreier_not_forehand")]


def test_conceding_needs_the_king_in_the_talon():
    assert errors_of([{"game": "rufer", "declarer": "A", "partner": "B", "conceded": True}]
                     ) == [(0, "conceded", "conceded_not_allowed")]


def test_unknown_fields_and_games():
    assert errors_of([{"game": "tri", "declarer": "A"}]) == [(0, "game", "unknown_game")]
    assert errors_of([{"game": "dreier", "declarer": "A", "won": True, "resting": "B"}]) == \
        [(0, "resting", "unknown_field")]


def test_every_problem_of_every_hand_is_listed():
    """Several bad hands give several errors, each naming its hand and field."""
    hands = [
        {"game": "dreier", "declarer": "Z", "won": True},
        {"game": "rufer", "declarer": "A", "partner": "B", "won": "yes"},
        tri((15, 30, 13, 12), contras=[{"on": "game", "by": "B", "level": 1}]),
        {"game": "bettler", "declarer": "A", "won": True,
         "contras": [{"on": "game", "by": "B", "level": 4}]},
    ]
    assert errors_of(hands) == [
        (0, "declarer", "declarer_not_a_player"),
        (1, "won", "not_a_boolean"),
        (2, "contras", "contra_not_allowed"),
        (3, "contras[0].level", "contra_level_not_allowed"),
    ]


@pytest.mark.parametrize("hand", [
    {"game": 5}, {"game": "rufer", "declarer": ["A"], "partner": {}, "won": 1},
    {"game": "dreier", "declarer": "A", "won": True, "announcements": "trull"},
    {"game": "dreier", "declarer": "A", "won": True, "announcements": [None, 3]},
    {"game": "dreier", "declarer": "A", "won": True, "contras": [{"on": None, "level": "x"}]},
    {"game": "trischaken", "forehand": "A", "points_by_player": [1, 2]},
    {"game": "trischaken", "forehand": "A", "points_by_player": {"A": "x", "Q": 3}},
    {"game": "dreier", "declarer": "A", "won": True, "penalties": [{"kind": None}]},
    {"game": "dreier", "declarer": "A", "won": True, "penalties": {}},
    {"game": "dreier", "declarer": "A", "won": True, "conceded": "no"},
])
def test_malformed_input_gives_errors_not_crashes(hand):
    assert errors_of([hand])


def test_koenig_ultimo_belongs_to_the_declarer_side():
    """"Ein Spieler darf ein Vogerl oder König ultimo nur dann ansagen, wenn er die jeweilige
    Karte im Blatt hat": the called king is on the declarer's side."""
    a = {"name": "koenig_ultimo", "by": "C", "announced": True, "achieved": True}
    assert errors_of([{"game": "rufer", "declarer": "A", "partner": "B", "won": True,
                       "announcements": [a]}]) == \
        [(0, "announcements[0].by", "announcement_by_wrong_side")]


def test_tarockcup_silent_valat_and_a_defenders_pagat():
    """Issue 15, finding 3. 001 Valat: "Sobald ein Valat angesagt oder still erzielt wird" the
    declarer's side has every trick; Die Prämien "Pagat (I)" is won in the last trick, which a
    defender did not take."""
    silent = {"announced": False, "achieved": True}
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate({"ruleset": RULESET, "players": P, "hands": [
            {"game": "dreier", "declarer": "A", "won": True, "announcements": [
                {"name": "valat", "by": "A", **silent}, {"name": "pagat", "by": "B", **silent}]}]})
    assert [(e["field"], e["code"], e["params"]["first"], e["params"]["second"])
            for e in exc.value.errors] == [("announcements[1]", "impossible_together", "Valat",
                                            "Pagat")]
