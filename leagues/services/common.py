"""What the league services share: contract-shaped errors, a model's own validation, values
for the audit trail, and the names of divisions (seed 000 §4.2: "I. II. in III. liga",
composed in `leagues.names`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError

from leagues import names
from tournaments.errors import ServiceError, validation_errors


def err(field_name: str, code: str, message: str) -> dict[str, Any]:
    return {"hand": None, "field": field_name, "code": code, "message": message}


def full_clean(obj: Any, exclude: Sequence[str] = ()) -> None:
    try:
        obj.full_clean(exclude=list(exclude))
    except ValidationError as exc:
        raise ServiceError(validation_errors(exc)) from exc


def jsonable(value: Any) -> Any:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return value


def default_division_name(level: int, language: str | None = None) -> str:
    # Seed 000 §4.2: "I. II. in III. liga"; composed in leagues.names.
    return names.division_name(level, language)
