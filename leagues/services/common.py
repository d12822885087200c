"""What the league services share: contract-shaped errors, a model's own validation, values
for the audit trail, and the names of divisions (seed 000 §4.2: "I. II. in III. liga")."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

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


def roman(number: int) -> str:
    out = []
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                           (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


def default_division_name(level: int) -> str:
    # Seed 000 §4.2: "I. II. in III. liga".
    return _("%(roman)s. league") % {"roman": roman(level)}
