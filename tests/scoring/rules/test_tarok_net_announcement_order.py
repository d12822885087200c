"""Tarok.net announcements read whole: each announcement of a hand is checked in its order
and every problem of it is listed (its name first, then who, announced, achieved, held), in
both versions of the rules; a held trula is the revision's (Posebnosti)."""

from __future__ import annotations

import pytest

from scoring import ScorecardInvalid, evaluate

P4 = ["A", "B", "C", "D"]


def refusals(ruleset: str, mode: str, hands: list[dict]) -> list[tuple]:
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate({"ruleset": ruleset, "mode": mode, "players": P4, "hands": hands})
    return [(e["hand"], e["field"], e["code"], e["message"]) for e in exc.value.errors]


@pytest.mark.parametrize("ruleset", ["tarok-net-2007", "tarok-net-revised"])
def test_every_problem_of_every_announcement_is_listed_in_order(ruleset):
    anns = [
        {"name": "bogus", "by": "A", "announced": True, "achieved": True},
        {"name": "kralj_ultimo", "by": "A", "announced": True, "achieved": True},
        {"name": "trula", "by": "A", "announced": True, "achieved": True},
        {"name": "trula", "by": "A", "announced": True, "achieved": True},
        {"name": "kralji", "by": "X", "announced": "yes", "achieved": "no", "held": "x"},
        {"name": "pagat_ultimo", "by": "D", "announced": False, "achieved": False},
        {"name": "valat", "by": "A", "announced": True, "achieved": True},
        {"name": "pagat_ultimo", "by": "A", "announced": True, "held": True},
    ]
    hand = {"game": "trojka", "declarer": "A", "resting": "D", "points": 40, "announcements": anns}
    assert refusals(ruleset, "tri+1", [hand]) == [
        (0, "announcements[0].name", "unknown_announcement",
         "unknown announcement 'bogus' (announcements: kralji, trula, pagat_ultimo, kralj_ultimo, valat)"),
        (0, "announcements[1].name", "announcement_not_allowed", "kralj ultimo is a four-handed announcement (§2.4)"),
        (0, "announcements[3].name", "duplicate_announcement", "trula is listed twice in this hand"),
        (0, "announcements[4].by", "not_a_player", "'X' is not a player of this card"),
        (0, "announcements[4].announced", "not_a_boolean",
         "announced is true (napoved) or false (silent realisation)"),
        (0, "announcements[4].achieved", "not_a_boolean", "achieved must be true or false"),
        (0, "announcements[4].held", "not_a_boolean", "held must be true or false"),
        (0, "announcements[5].by", "announcement_by_resting_player",
         "D rests this hand and cannot announce or realise anything"),
        (0, "announcements[6].announced", "announcement_not_allowed",
         "an announced valat is a game (valat_tri ...), not an announcement"),
        (0, "announcements[7].name", "duplicate_announcement", "pagat_ultimo is listed twice in this hand"),
    ]


def test_a_held_announcement_is_the_revisions_and_only_for_trula_and_pagat_ultimo():
    hand = {"game": "trojka", "declarer": "A", "resting": "D", "points": 40, "announcements": [
        {"name": "trula", "by": "A", "announced": True, "achieved": True, "held": True},
        {"name": "kralji", "by": "B", "announced": True, "achieved": False, "held": True},
        {"name": "pagat_ultimo", "by": "C", "announced": False, "achieved": False, "held": False}]}
    assert refusals("tarok-net-2007", "tri+1", [hand]) == [
        (0, "announcements[0].held", "held_not_used",
         "the 2007 rules score a held trula like any other (no 'Posebnosti')"),
        (0, "announcements[1].held", "held_not_used",
         "the 2007 rules score a held trula like any other (no 'Posebnosti')"),
    ]
    assert refusals("tarok-net-revised", "tri+1", [hand]) == [
        (0, "announcements[1].held", "held_not_used",
         "held (trula in hand from the start) only changes trula and pagat ultimo (Posebnosti)"),
    ]


def test_kralj_ultimo_and_the_high_games_in_four():
    hands = [
        {"game": "solo_tri", "declarer": "A", "points": 40, "announcements": [
            {"name": "kralj_ultimo", "by": "A", "announced": True, "achieved": True}]},
        {"game": "trojka", "declarer": "A", "partner": "C", "points": 40, "announcements": [
            {"name": "kralj_ultimo", "by": "B", "announced": True, "achieved": True}]},
        {"game": "berac", "declarer": "A", "won": True, "announcements": [
            {"name": "trula", "by": "A", "announced": True, "achieved": True}]},
    ]
    assert refusals("tarok-net-revised", "four", hands) == [
        (0, "announcements[0].name", "announcement_not_allowed",
         "kralj ultimo needs a called king; solo_tri has none"),
        (1, "announcements[0].by", "announcement_by_wrong_side",
         "kralj ultimo is the playing pair's announcement ('bo pripadel igralcema, ki igrata igro skupaj')"),
        (2, "announcements[0].name", "announcement_not_allowed",
         "in berac only the game's own value counts ('Pri visokih igrah ... se upoštevajo le točke, "
         "ki veljajo za to igro')"),
    ]


def test_after_a_renons_an_announcement_needs_no_outcome():
    """In a hand with a renons (§3.9) an announcement needs no outcome: the offender pays the
    game and what was announced."""
    out = evaluate({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": P4, "hands": [
        {"game": "trojka", "declarer": "A", "resting": "D", "penalties": [{"kind": "renons", "player": "B"}],
         "announcements": [{"name": "trula", "by": "A", "announced": True}]}]})
    assert out["totals"] == {"A": 0, "B": -65, "C": 0, "D": 0}
    assert [line["what"] for line in out["hands"][0]["lines"]] == ["renons: -(game 10 + 35 + trula 20)"]
