"""Validation errors of the seating contract.

An error names the player it concerns (or None for the request as a whole), the field, a
stable machine code, its `params` (numbers and player ids only, JSON-serialisable) and an
English message, in the same shape as the scorecard contract's errors with `hand` replaced by
`player`. The Django side says code + params in the reader's language
(tournaments/engine_text/seating_errors.py); the English message is the engine's own words and
what is shown when a code is not known there. Every problem of a request is collected before
the engine refuses it.
"""

from __future__ import annotations

from typing import Any, NoReturn


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

    def add(self, field: str, code: str, message: str, player: str | None = None, **params: Any) -> None:
        """One problem; `params` are the values its message names (the player among them when
        the message names him), so that another language can say the same."""
        if player is not None and "player" not in params:
            params["player"] = player
        self.errors.append({"player": player, "field": field, "code": code, "message": message,
                            "params": params})

    def __bool__(self) -> bool:
        return bool(self.errors)

    def raise_if_any(self) -> None:
        if self.errors:
            raise SeatingInvalid(list(self.errors))


def refuse(field: str, code: str, message: str, player: str | None = None, **params: Any) -> NoReturn:
    """Refuse with one problem, in the same shape as `ErrorCollector.add`."""
    errors = ErrorCollector()
    errors.add(field, code, message, player, **params)
    errors.raise_if_any()
    raise AssertionError("unreachable")  # raise_if_any raised: the collector holds one error
