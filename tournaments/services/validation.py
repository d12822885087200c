"""Checks every write shares: a model's own validation as contract-shaped errors (the field,
the code, the message), and text and JSON that no stored value may hold."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournaments.domain import limits
from tournaments.errors import ServiceError, validation_errors


def field_errors(exc: ValidationError) -> list[dict[str, Any]]:
    return validation_errors(exc)


def full_clean(obj: Any, **kwargs: Any) -> None:
    try:
        obj.full_clean(**kwargs)
    except ValidationError as exc:
        raise ServiceError(field_errors(exc)) from exc


def refuse_bad_text(values: dict[str, Any], *, multiline: tuple[str, ...] = ()) -> None:
    """Refuse texts that no field may store: NUL, control and invisible characters
    (tournaments.domain.limits), naming the field."""
    errors = limits.text_errors(values, multiline=set(multiline))
    if errors:
        raise ServiceError(errors)


def required_reason(reason: Any) -> str:
    """The written reason an undo needs (kept in the history), checked as every text is."""
    refuse_bad_text({"reason": reason}, multiline=("reason",))
    if not isinstance(reason, str) or not reason.strip():
        raise ServiceError(_("say why (the reason is kept in the history)"), field="reason",
                           code="required")
    return reason.strip()


def refuse_bad_json(value: Any, field: str) -> None:
    errors = limits.json_problems(value, field)
    if errors:
        raise ServiceError(errors)


def jsonable(value: Any) -> Any:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value
