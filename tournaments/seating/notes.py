"""Round notes of the seating engine: what an organiser should know about a seating.

A note is `{"code", "params", "text"}`, like the scoring engine's breakdown lines: a stable
machine `code`, its `params` (numbers and player ids only, JSON-serialisable) and the English
`text`. The Django side renders code + params in the reader's language from its catalogues
(tournaments/engine_text/); the English text is what the engine itself says and what is
shown when a code is not known there. Every note is made here, so that code, params and
text cannot drift apart.
"""

from __future__ import annotations

from typing import Any


def note(code: str, text: str, **params: Any) -> dict[str, Any]:
    """A note: `text` is an English template filled with `params` by name."""
    return {"code": code, "params": dict(params), "text": text.format(**params)}


def counted(count: int, one: str, other: str) -> str:
    """The English template for `count` things: `one` for a single one, `other` for any other
    number (the catalogues have each language's own forms)."""
    return one if count == 1 else other


def in_matchday(number: int, inner: dict[str, Any]) -> dict[str, Any]:
    """A note about one matchday of a league schedule: the inner note with its matchday."""
    params = dict(inner["params"], matchday=number)
    return {"code": inner["code"], "params": params, "text": f"matchday {number}: {inner['text']}"}


def short_table(table: int, count: int, total: int, size: int) -> dict[str, Any]:
    return note("short_table", "table {table} has {count} players: {total} is not a multiple of {size}",
                table=table, count=count, total=total, size=size)
