"""Template filters that write the engines' text in the active language: the breakdown lines
and validation errors of the scoring engine (`{{ line|engine_line:card.ruleset_code }}`,
`{{ error|engine_error }}`) and the round notes of the seating engine (`{{ note|engine_note }}`).
The rendering itself (and its fallback to the engines' English) is tournaments.engine_text."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.engine_text import error_text, line_text, note_text

register = template.Library()


@register.filter
def engine_line(line: Any, ruleset: str | None = None) -> str:
    """A line of Hand.lines in the reader's language; the ruleset code picks the names."""
    return line_text(line, ruleset or None)


@register.filter
def engine_error(error: Any) -> str:
    """A contract error {hand, field, code, message, params} in the reader's language."""
    return error_text(error)


@register.filter
def engine_note(note: Any) -> str:
    """A round note of the seating engine in the reader's language."""
    return note_text(note)
