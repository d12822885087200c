"""Errors raised by services: the views and the API turn them into clear 4xx answers naming
the field (and the hand), never a 500."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refused write. `errors` uses the scorecard contract's shape:
    [{"hand": int|None, "field": str, "code": str, "message": str}, ...]."""

    status = 400

    def __init__(self, errors: list[dict[str, Any]] | str, *, field: str = "non_field_errors",
                 code: str = "invalid"):
        if isinstance(errors, str):
            errors = [{"hand": None, "field": field, "code": code, "message": errors}]
        self.errors = errors
        super().__init__("; ".join(e["message"] for e in errors))


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    """The object changed since the client read it (stale version) or the write collides."""

    status = 409


class Forbidden(ServiceError):
    status = 403
