"""Validation errors of the scoring contract: one shape for every entry point.

An error names the hand (0-based index, or None for the scorecard as a whole), the field,
a stable machine code and an English message. The engine collects every problem before it
refuses a scorecard, so this module offers a collector as well as the exception.

The list is capped at `MAX_ERRORS` entries: a card of 100,000 bad hands would otherwise give
100,000 errors, more than any reader or client can use. The problems beyond the cap are still
counted, and a closing entry `{"hand": null, "field": "hands", "code": "more_errors",
"params": {"count": N}}` says how many were left out (docs/contracts/scorecard.md, Errors).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The most errors a refusal lists before its closing "and N more" entry.
MAX_ERRORS = 100


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

    `.errors` is the list of error dicts of the contract (every problem, not only the first,
    up to `MAX_ERRORS` and a closing `more_errors` entry).
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
    """Gathers every problem of a scorecard so that all of them are reported at once.

    `len()` counts every problem added, also those beyond the cap, so a caller can still tell
    whether a step added any."""

    def __init__(self) -> None:
        self._errors: list[ScoringError] = []
        self._left_out = 0

    def add(self, hand: int | None, field: str, code: str, message: str, **params: Any) -> None:
        if len(self._errors) < MAX_ERRORS:
            self._errors.append(ScoringError(hand, field, code, message, params))
        else:
            self._left_out += 1

    def __bool__(self) -> bool:
        return bool(self._errors)

    def __len__(self) -> int:
        return len(self._errors) + self._left_out

    def as_list(self) -> list[dict[str, Any]]:
        out = [e.as_dict() for e in self._errors]
        if self._left_out:
            n = self._left_out
            out.append(ScoringError(None, "hands", "more_errors",
                                    f"and {n} more error{'' if n == 1 else 's'}",
                                    {"count": n}).as_dict())
        return out

    def raise_if_any(self) -> None:
        if self._errors:
            raise ScorecardInvalid(self.as_list())
