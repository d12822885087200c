"""Validation errors of the seating contract.

An error names the player it concerns (or None for the request as a whole), the field, a
stable machine code and an English message, in the same shape as the scorecard contract's
errors with `hand` replaced by `player`. Every problem of a request is collected before the
engine refuses it.
"""

from __future__ import annotations

from typing import Any


class SeatingInvalid(Exception):
    """Raised by `seat_round` when the request cannot be seated; `.errors` lists every problem."""

    def __init__(self, errors: list[dict[str, Any]]):
        self.errors = errors
        summary = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:5])
        more = f" (+{len(errors) - 5} more)" if len(errors) > 5 else ""
        super().__init__(f"seating request invalid: {summary}{more}")


class ErrorCollector:
    """Gathers every problem of a request so that all of them are reported at once."""

    def __init__(self) -> None:
        self.errors: list[dict[str, Any]] = []

    def add(self, field: str, code: str, message: str, player: str | None = None) -> None:
        self.errors.append({"player": player, "field": field, "code": code, "message": message})

    def __bool__(self) -> bool:
        return bool(self.errors)

    def raise_if_any(self) -> None:
        if self.errors:
            raise SeatingInvalid(list(self.errors))
