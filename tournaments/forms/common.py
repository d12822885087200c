"""What the forms share: the ruleset's description for a form, its choices and score label, and
the services' and engine's contract-shaped errors put back on the field they concern."""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import rules
from tournaments.models import Event
from tournaments.text import ruleset_text

ANNOUNCEMENT_ROWS = 4


CONTRA_ROWS = 3


PENALTY_ROWS = 2


BLANK = [("", "—")]


@lru_cache(maxsize=32)
def _describe(code: str) -> dict[str, Any] | None:
    ruleset = rules.get(code)
    return ruleset.describe() if ruleset is not None else None


def ruleset_description(code: str) -> dict[str, Any] | None:
    """The registry's description of a ruleset (cached: rulesets are data and never change
    while the process runs)."""
    return _describe(code)


def ruleset_choices() -> list[tuple[str, str]]:
    """The rulesets by their titles in the reader's language (the code is the value, never
    the words: two titles are told apart by their dates and versions)."""
    return [(r.code, ruleset_text.title(r.code)) for r in rules.all_rulesets()]


def is_money(code: str) -> bool:
    desc = ruleset_description(code)
    return bool(desc and desc.get("unit") == "haler")


def score_label(event: Event) -> str:
    """What the score column is called where the players know it by their own word (the
    ruleset's `score_label`: "Kč", "Schrift"), else the translated "Score"."""
    ruleset = rules.get(event.ruleset_code)
    if ruleset is not None and ruleset.score_label:
        return ruleset.score_label
    return str(_("Score"))


def add_service_errors(form: forms.Form, errors: list[dict[str, Any]],
                       field_map: dict[str, str] | None = None) -> None:
    """Put a service's contract errors on the form's fields (unknown fields: the form)."""
    field_map = field_map or {}
    for error in errors:
        name = str(error.get("field") or "")
        name = field_map.get(name, name)
        root = name.split(".", 1)[0].split("[", 1)[0]
        target = name if name in form.fields else field_map.get(root, root)
        if target in form.fields:
            form.add_error(target, error["message"])
        else:
            form.add_error(None, error["message"])


def kc_to_haler(value: Decimal | None) -> int | None:
    if value is None:
        return None
    haler = value * 100
    if haler != haler.to_integral_value():
        raise forms.ValidationError(_("Give whole haléř (at most two decimals)."))
    return int(haler)
