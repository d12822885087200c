"""The game families' names for people (the rulesets name them by a code, `Ruleset.family`)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

import scoring.rules

FAMILY_NAMES = {
    "slovenian": _("Slovenian tarok"),
    "koenigrufen": _("Königrufen"),
    "taroky": _("Czech taroky"),
}


def family_name(code: str) -> str:
    return str(FAMILY_NAMES.get(code, code))


def families() -> list[tuple[str, str]]:
    """(code, name) of every game family of the registered rulesets."""
    return [(code, family_name(code)) for code in scoring.rules.families()]


def ruleset_codes(family: str) -> list[str]:
    return [r.code for r in scoring.rules.all_rulesets() if r.family == family]
