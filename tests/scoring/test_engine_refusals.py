"""`scoring.evaluate` reads a scorecard in one order and stops where nothing more can be
read: the object, the ruleset, the options, then a money sheet or the mode, players and
hands, then the optional initial state; every problem found up to there is listed, up to
a cap and a closing entry that counts the rest."""

from __future__ import annotations

import pytest

from scoring import ScorecardInvalid, evaluate
from scoring.errors import MAX_ERRORS

P4 = ["A", "B", "C", "D"]
KNOWN = ("gp-vysociny-2004, slovenski-tarok-zei, steirischer-tarockcup-2017, tarok-net-2007, "
         "tarok-net-revised")


def refusals(scorecard) -> list[tuple]:
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate(scorecard)
    return [(e["hand"], e["field"], e["code"]) for e in exc.value.errors]


def messages(scorecard) -> list[str]:
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate(scorecard)
    return [e["message"] for e in exc.value.errors]


def test_a_scorecard_that_is_no_object_or_names_no_ruleset_stops_there():
    assert refusals([]) == [(None, "scorecard", "not_an_object")]
    assert messages({"hands": []}) == [f"ruleset is required (one of: {KNOWN})"]
    assert messages({"ruleset": "x"}) == [f"unknown ruleset 'x' (known: {KNOWN})"]


def test_a_money_sheet_is_only_for_a_ruleset_that_scores_sheets_and_never_with_hands():
    assert refusals({"ruleset": "tarok-net-2007", "sheet": {}, "hands": [], "options": {"bogus": 1}}) == [
        (None, "options.bogus", "unknown_option"), (None, "sheet", "sheet_not_supported")]
    assert messages({"ruleset": "tarok-net-2007", "sheet": {}})[-1] == (
        "ruleset tarok-net-2007 scores hands, not a money sheet")
    assert refusals({"ruleset": "gp-vysociny-2004", "sheet": [], "hands": [], "options": {"bogus": 1}}) == [
        (None, "options.bogus", "unknown_option"), (None, "hands", "hands_and_sheet"),
        (None, "sheet", "not_an_object")]


def test_the_hands_are_a_list_of_objects():
    assert refusals({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": P4,
                     "options": {"bogus": 1}}) == [
        (None, "options.bogus", "unknown_option"), (None, "hands", "missing")]
    assert refusals({"ruleset": "tarok-net-2007", "mode": "x", "players": P4, "hands": {}}) == [
        (None, "mode", "unknown_mode"), (None, "hands", "not_a_list")]
    assert refusals({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": ["A"],
                     "hands": [1, {}, "h"]}) == [
        (None, "players", "wrong_player_count"), (0, "hand", "not_an_object"), (2, "hand", "not_an_object")]
    assert messages({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": P4, "hands": None}) == [
        "hands is required (it may be an empty list)"]


def test_only_a_ruleset_that_carries_state_takes_an_initial_state():
    assert refusals({"ruleset": "steirischer-tarockcup-2017", "mode": "four", "players": P4, "hands": [],
                     "initial_state": {}}) == [(None, "initial_state", "initial_state_not_supported")]


def test_an_empty_card_is_scored_with_the_rulesets_options_and_zero_totals():
    out = evaluate({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": P4, "hands": []})
    assert list(out) == ["ruleset", "mode", "unit", "options", "hands", "totals"]
    assert (out["ruleset"], out["mode"], out["unit"], out["hands"]) == ("tarok-net-2007", "tri+1", "points", [])
    assert out["totals"] == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_the_error_list_is_capped_with_a_closing_entry():
    """Every problem is reported (contract, Errors), but not without end: after MAX_ERRORS a
    closing entry says how many more there were (issue 15, finding 6)."""
    bad = [{"game": "bogus", "declarer": "A", "resting": "D", "points": 40}] * (MAX_ERRORS + 50)
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": P4, "hands": bad})
    errors = exc.value.errors
    assert len(errors) == MAX_ERRORS + 1
    assert all(e["code"] == "unknown_game" for e in errors[:MAX_ERRORS])
    assert errors[-1] == {"hand": None, "field": "hands", "code": "more_errors",
                          "message": "and 50 more errors", "params": {"count": 50}}
