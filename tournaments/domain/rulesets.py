"""Bridges events to the scoring registry: checks an event's ruleset choice (code, mode,
options) with the engine's own check, so an event can only hold a ruleset it can score."""

from __future__ import annotations

from typing import Any

from scoring import rules
from scoring.engine import check_configuration
from tournaments.engine_text import error_text

_FIELD_OF = {"ruleset": "ruleset_code", "mode": "ruleset_mode", "options": "ruleset_options"}


def ruleset_config_errors(code: str, mode: str, options: Any) -> dict[str, list[str]]:
    """Problems with a ruleset configuration, keyed by the Event field they concern, in the
    active language (the engine's English for an English reader)."""
    problems: dict[str, list[str]] = {}
    for error in check_configuration(code, mode, options):
        root = error["field"].split(".", 1)[0]
        problems.setdefault(_FIELD_OF.get(root, "ruleset_options"), []).append(error_text(error, code))
    return problems


def effective_mode(code: str, mode: str) -> str:
    ruleset = rules.get(code)
    if not mode and ruleset is not None and ruleset.default_mode:
        return ruleset.default_mode
    return mode


def is_money_ruleset(code: str) -> bool:
    ruleset = rules.get(code)
    return ruleset is not None and ruleset.unit == "haler"


def penalty_points(code: str, kind: str) -> int:
    """What a penalty costs its player in points when the rulebook gives it a fixed value
    (tarok.net's lost mond: 21), as a negative score; 0 where the value depends on the hand or
    the ruleset plays for money (a fine there is paid to the others, not scored)."""
    ruleset = rules.get(code)
    if ruleset is None or ruleset.money is not None:
        return 0
    value = next((p.value for p in ruleset.penalties if p.kind == kind), None)
    return -value if value else 0
