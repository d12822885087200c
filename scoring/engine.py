"""`evaluate`: the Python entry point of the scorecard contract.

It checks what every scorecard must have (a known ruleset and mode, a list of distinct
players, hands or a money sheet, known options), hands the card to the ruleset, and adds the
totals. Pure Python, no database: the CLI, the API and the services all call this.
"""

from __future__ import annotations

from typing import Any

from scoring import rules
from scoring.errors import ErrorCollector, ScorecardInvalid

CONTRACT_VERSION = 1


def evaluate(scorecard: dict[str, Any]) -> dict[str, Any]:
    """Score a whole scorecard, or raise `ScorecardInvalid` listing every problem."""
    errors = ErrorCollector()
    if not isinstance(scorecard, dict):
        errors.add(None, "scorecard", "not_an_object", "the scorecard must be a JSON object")
        errors.raise_if_any()
    ruleset = _check_ruleset(scorecard.get("ruleset"), errors)
    _check_fields(scorecard, ruleset, errors)
    options = _check_options(ruleset, scorecard.get("options"), errors)
    if "sheet" in scorecard:
        return _evaluate_sheet(ruleset, scorecard, options, errors)
    return _evaluate_hands(ruleset, scorecard, options, errors)


# The fields of a scorecard (docs/contracts/scorecard.md, Input). Any other is refused by name:
# a misspelt "option" would otherwise score silently under the default options.
FIELDS = frozenset({"ruleset", "mode", "players", "hands", "sheet", "options", "initial_state"})
# What a money sheet leaves out: its rows name the players, and nothing carries over.
NOT_WITH_SHEET = ("players", "initial_state")


def _check_fields(scorecard: dict[str, Any], ruleset: rules.Ruleset,
                  errors: ErrorCollector) -> None:
    """An error for every field the contract does not know (`unknown_field`) and for the
    fields of a card of hands given with a money sheet (`field_not_allowed`)."""
    for key in scorecard:
        if key not in FIELDS:
            # an empty name still gets a field a reader can see
            errors.add(None, str(key) or "scorecard", "unknown_field",
                       f"a scorecard has no field {key!r} (fields: {', '.join(sorted(FIELDS))})")
    if "sheet" in scorecard and ruleset.accepts_sheet:
        for key in NOT_WITH_SHEET:
            if key in scorecard:
                errors.add(None, key, "field_not_allowed",
                           f"{key} is not used with a money sheet (its rows name the players)")


def _check_ruleset(code: Any, errors: ErrorCollector) -> rules.Ruleset:
    """The ruleset the card names; without one nothing more can be read (raises)."""
    ruleset = rules.get(code) if isinstance(code, str) else None
    if ruleset is None:
        known = ", ".join(r.code for r in rules.all_rulesets())
        if code is None:
            errors.add(None, "ruleset", "missing", f"ruleset is required (one of: {known})")
        else:
            errors.add(None, "ruleset", "unknown_ruleset",
                       f"unknown ruleset {code!r} (known: {known})", ruleset=code)
        errors.raise_if_any()
    assert ruleset is not None
    return ruleset


def _evaluate_sheet(ruleset: rules.Ruleset, scorecard: dict[str, Any], options: dict[str, Any],
                    errors: ErrorCollector) -> dict[str, Any]:
    """A money sheet instead of hands: only a ruleset that scores sheets takes one, and never
    together with hands."""
    if not ruleset.accepts_sheet:
        errors.add(None, "sheet", "sheet_not_supported",
                   f"ruleset {ruleset.code} scores hands, not a money sheet")
        errors.raise_if_any()
    if "hands" in scorecard:
        errors.add(None, "hands", "hands_and_sheet",
                   "give either hands or a money sheet, not both")
    if scorecard.get("mode") is not None:
        # a sheet is the result of a round of the ruleset's one table form; a mode, where
        # given, must be one of the ruleset's
        _check_mode(ruleset, scorecard["mode"], errors)
    sheet = scorecard.get("sheet")
    if not isinstance(sheet, dict):
        errors.add(None, "sheet", "not_an_object", "sheet must be an object")
    errors.raise_if_any()
    result = ruleset.score_sheet(sheet, options, errors)
    errors.raise_if_any()
    assert result is not None
    return {"ruleset": ruleset.code, "unit": ruleset.unit, **result}


def _evaluate_hands(ruleset: rules.Ruleset, scorecard: dict[str, Any], options: dict[str, Any],
                    errors: ErrorCollector) -> dict[str, Any]:
    """The hands of the card in the ruleset's mode, with the state a continued card carries
    in ("initial_state"), scored by the ruleset; the totals added here."""
    mode = _check_mode(ruleset, scorecard.get("mode"), errors)
    players = _check_players(ruleset, mode, scorecard.get("players"), errors)
    hands = scorecard.get("hands")
    _check_hands(hands, errors)
    errors.raise_if_any()
    assert mode is not None and players is not None and isinstance(hands, list)

    # Extension of the contract: a card continued from an earlier one carries its state
    # (radelci...) in "initial_state"; only a ruleset that carries state accepts one.
    initial_state = scorecard.get("initial_state")
    if initial_state is not None and not ruleset.carries_state:
        errors.add(None, "initial_state", "initial_state_not_supported",
                   f"ruleset {ruleset.code} does not carry state between hands")
        errors.raise_if_any()
    scored = ruleset.score(mode, players, hands, options, errors, initial_state)
    errors.raise_if_any()
    assert scored is not None

    totals, payout_totals = _totals(players, scored)
    out: dict[str, Any] = {
        "ruleset": ruleset.code,
        "mode": mode,
        "unit": ruleset.unit,
        "options": options,
        "hands": scored,
        "totals": totals,
    }
    if payout_totals is not None:
        out["payout_totals"] = payout_totals
    return out


def _check_hands(hands: Any, errors: ErrorCollector) -> None:
    """The hands are a list (it may be empty) of objects."""
    if hands is None:
        errors.add(None, "hands", "missing", "hands is required (it may be an empty list)")
    elif not isinstance(hands, list):
        errors.add(None, "hands", "not_a_list", "hands must be a list")
    else:
        for i, hand in enumerate(hands):
            if not isinstance(hand, dict):
                errors.add(i, "hand", "not_an_object", f"hand {i} must be an object")


def _totals(players: list[str], scored: list[dict[str, Any]]
            ) -> tuple[dict[str, int], dict[str, int] | None]:
    """Each player's total over the scored hands, and the total of the payouts when the
    ruleset pays out hand by hand (None when no hand has a payout)."""
    totals = {p: 0 for p in players}
    payout_totals: dict[str, int] | None = None
    for hand in scored:
        for p, s in hand["scores"].items():
            totals[p] += s
        if "payout" in hand:
            if payout_totals is None:
                payout_totals = {p: 0 for p in players}
            for p, s in hand["payout"].items():
                payout_totals[p] += s
    return totals, payout_totals


def _check_options(ruleset: rules.Ruleset, given: Any, errors: ErrorCollector) -> dict[str, Any]:
    options = ruleset.option_defaults()
    if given is None:
        return options
    if not isinstance(given, dict):
        errors.add(None, "options", "not_an_object", "options must be an object")
        return options
    by_name = {o.name: o for o in ruleset.options}
    for name, value in given.items():
        opt = by_name.get(name)
        if opt is None:
            known = ", ".join(by_name) or "none"
            errors.add(None, f"options.{name}", "unknown_option",
                       f"ruleset {ruleset.code} has no option {name!r} (options: {known})")
        elif not opt.accepts(value):
            errors.add(None, f"options.{name}", "invalid_option",
                       f"option {name} must be one of {list(opt.values)}, got {value!r}")
        else:
            options[name] = value
    return options


def _check_mode(ruleset: rules.Ruleset, mode: Any, errors: ErrorCollector) -> str | None:
    if mode is None:
        if ruleset.default_mode is not None:
            return ruleset.default_mode
        errors.add(None, "mode", "missing",
                   f"ruleset {ruleset.code} needs a mode (one of: {', '.join(ruleset.modes)})")
        return None
    if mode not in ruleset.modes:
        errors.add(None, "mode", "unknown_mode",
                   f"ruleset {ruleset.code} has no mode {mode!r} "
                   f"(modes: {', '.join(ruleset.modes)})", mode=mode)
        return None
    return mode


def _check_players(
    ruleset: rules.Ruleset, mode: str | None, players: Any, errors: ErrorCollector
) -> list[str] | None:
    if players is None:
        errors.add(None, "players", "missing", "players is required")
        return None
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        errors.add(None, "players", "invalid_players",
                   "players must be a list of non-empty strings (player ids in seat order)")
        return None
    if len(set(players)) != len(players):
        errors.add(None, "players", "duplicate_player", "a player is listed twice")
        return None
    if mode is not None:
        seats = ruleset.modes[mode].seats
        if len(players) not in ruleset.seat_counts(mode):
            errors.add(None, "players", "wrong_player_count",
                       f"mode {mode} of {ruleset.code} needs {seats} players, got {len(players)}",
                       expected=seats, got=len(players))
            return None
    return players


def check_configuration(code: Any, mode: Any, options: Any) -> list[dict[str, Any]]:
    """The problems of a ruleset choice (code, mode, options) as contract errors; an event is
    checked with this before it is saved, so every event can be scored."""
    errors = ErrorCollector()
    ruleset = rules.get(code) if isinstance(code, str) else None
    if ruleset is None:
        known = ", ".join(r.code for r in rules.all_rulesets())
        errors.add(None, "ruleset", "unknown_ruleset",
                   f"unknown ruleset {code!r} (known: {known})", ruleset=code)
        return errors.as_list()
    _check_mode(ruleset, mode or None, errors)
    _check_options(ruleset, options, errors)
    return errors.as_list()


def describe_rulesets() -> list[dict[str, Any]]:
    return [r.describe() for r in rules.all_rulesets()]


__all__ = [
    "CONTRACT_VERSION",
    "ScorecardInvalid",
    "check_configuration",
    "describe_rulesets",
    "evaluate",
]
