"""The game families: their names for people (the rulesets name them by a code,
`Ruleset.family`) and how each one's points list counts results (`points_rule`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext_lazy as _

import scoring.rules

FAMILY_NAMES = {
    "slovenian": _("Slovenian tarok"),
    "koenigrufen": _("Königrufen"),
    "taroky": _("Czech taroky"),
}

# Results counted in a points list when no ruleset declares a cup series (seed 001: six).
DEFAULT_BEST_RESULTS = 6


def family_name(code: str) -> str:
    return str(FAMILY_NAMES.get(code, code))


def families() -> list[tuple[str, str]]:
    """(code, name) of every game family of the registered rulesets."""
    return [(code, family_name(code)) for code in scoring.rules.families()]


def ruleset_codes(family: str) -> list[str]:
    return [r.code for r in scoring.rules.all_rulesets() if r.family == family]


@dataclass(frozen=True)
class PointsRule:
    """How a family's points list is counted: points per final place of an event (a place
    the scale does not name gives none), the best `best` results of the `months` before the
    list's date."""

    scale: dict[int, int]
    best: int
    months: int = 12


def points_rule(family: str) -> PointsRule:
    """The family's points rule: the cup points table of seed 001 (the Steirischer
    Tarockcup's, as the registry declares it: 223, 198, 180 for places 1–3 and 1 for place 50,
    nothing guessed in between) and its six best results, unless settings.RANKING_POINTS
    gives the family its own {"scale": {place: points}, "best": N, "months": M}."""
    cup = scoring.rules.cup_points()
    default = PointsRule(scale=dict(cup.places) if cup else {},
                         best=cup.best_results if cup else DEFAULT_BEST_RESULTS)
    own = getattr(settings, "RANKING_POINTS", {}).get(family, {})
    return PointsRule(
        scale={int(place): int(points) for place, points in own["scale"].items()}
        if "scale" in own else default.scale,
        best=int(own.get("best", default.best)), months=int(own.get("months", default.months)))
