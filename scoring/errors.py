"""Validation errors of the scoring contract: one shape for every entry point.

An error names the hand (0-based index, or None for the scorecard as a whole), the field,
a stable machine code and an English message. The engine collects every problem before it
refuses a scorecard, so this module offers a collector as well as the exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ScoringError:
    hand: int | None
    field: str
    code: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "field": self.field,
            "code": self.code,
            "message": self.message,
        }
        if self.params:
            out["params"] = dict(self.params)
        return out


class ScorecardInvalid(Exception):
    """Raised by `scoring.evaluate` when anything in the scorecard is wrong.

    `.errors` is the list of error dicts of the contract (every problem, not only the first).
    """

    def __init__(self, errors: list[dict[str, Any]]):
        self.errors = errors
        summary = "; ".join(
            f"hand {e['hand']}: {e['field']}: {e['message']}" if e["hand"] is not None
            else f"{e['field']}: {e['message']}"
            for e in errors[:5]
        )
        more = f" (+{len(errors) - 5} more)" if len(errors) > 5 else ""
        super().__init__(f"scorecard invalid: {summary}{more}")


class ErrorCollector:
    """Gathers every problem of a scorecard so that all of them are reported at once."""

    def __init__(self) -> None:
        self._errors: list[ScoringError] = []

    def add(self, hand: int | None, field: str, code: str, message: str, **params: Any) -> None:
        self._errors.append(ScoringError(hand, field, code, message, params))

    def __bool__(self) -> bool:
        return bool(self._errors)

    def __len__(self) -> int:
        return len(self._errors)

    def as_list(self) -> list[dict[str, Any]]:
        return [e.as_dict() for e in self._errors]

    def raise_if_any(self) -> None:
        if self._errors:
            raise ScorecardInvalid(self.as_list())
