"""Bridges events to the scoring registry: checks an event's ruleset choice (code, mode,
options) with the engine's own check, and its table size against the table form, so an
event can only hold a ruleset it can score."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import rules
from scoring.engine import check_configuration
from tournaments.engine_text import error_text
from tournaments.text import ruleset_text

_FIELD_OF = {"ruleset": "ruleset_code", "mode": "ruleset_mode", "options": "ruleset_options"}


def ruleset_config_errors(code: str, mode: str, options: Any) -> dict[str, list[str]]:
    """Problems with a ruleset configuration, keyed by the Event field they concern, in the
    active language (the engine's English for an English reader)."""
    problems: dict[str, list[str]] = {}
    for error in check_configuration(code, mode, options):
        root = error["field"].split(".", 1)[0]
        problems.setdefault(_FIELD_OF.get(root, "ruleset_options"), []).append(error_text(error, code))
    return problems


def table_size_error(code: str, mode: str, table_size: int) -> str | None:
    """Why a table of `table_size` cannot play the ruleset's table form, in words, or None:
    two-player tarok seats two, four-handed games four, TRI + 1 four or three."""
    ruleset = rules.get(code)
    if ruleset is None or mode not in ruleset.modes:
        return None
    counts = ruleset.seat_counts(mode)
    if table_size in counts:
        return None
    return ngettext("The table form “%(form)s” seats %(sizes)s player at a table, not %(count)s.",
                    "The table form “%(form)s” seats %(sizes)s players at a table, not %(count)s.",
                    max(counts)) % {
        "form": ruleset_text.mode_name(mode), "count": table_size,
        "sizes": _sizes(counts)}


def _sizes(counts: tuple[int, ...]) -> str:
    """4, or "4 or 3" """
    text = str(counts[-1])
    for n in reversed(counts[:-1]):
        text = _("%(first)s or %(second)s") % {"first": n, "second": text}
    return text


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
