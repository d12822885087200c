"""The options an event stores for its seating system (Event.seating_options), checked
against what that system reads: an object holding only those options, each of its type. An
option no code reads is refused rather than stored, so what the organiser sets is what
applies.

Which system reads which option follows the engine (tournaments.seating): `seed` is the base
of the seeded draw (services.round_jobs.round_seed) of every system that draws; the points system
also reads how a missing seat reduces table points, the organiser's extra-points formula
(tournaments.seating.points; docs/seating.md), the final order (the last round's tables,
the default, or total points) and how equal scores at a table share points, which the
standings apply.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from tournaments.domain import limits
from tournaments.domain.standings import FINAL_ORDERS, TABLE_TIES
from tournaments.seating import SeatingInvalid
from tournaments.seating.points import (
    EXTRA_REFERENCES,
    MISSING_SEAT_DEDUCTIONS,
    ExtraPointsFormula,
)

# Seed 000 §4.1 b: the organiser's extra points must keep "optimalno razmerje do osnovnih
# točk". Capped at ±1/2 each, two players' extras differ by at most one table point: they
# never outweigh a place at the table (they can at most draw level with it).
MAX_EXTRA_CAP = Fraction(1, 2)

SEATING_OPTIONS = {
    "random": ("seed",),
    "points": ("seed", "missing_seat_deduction", "extra", "final_order", "table_ties"),
    "knockout": ("seed",),
    "league": ("seed",),
    "fixed": (),
}
_FORMULA_MESSAGES = {
    "not_an_object": lambda key: _("the extra-points formula must be an object"),
    "unknown_field": lambda key: _("%(key)s is not part of the extra-points formula") % {"key": key},
    "missing_field": lambda key: _("the extra-points formula needs %(key)s") % {"key": key},
    "bad_number": lambda key: _("%(key)s must be a positive number") % {"key": key},
    "bad_reference": lambda key: _("reference must be one of %(choices)s") % {
        "choices": ", ".join(EXTRA_REFERENCES)},
}


def seating_option_errors(system: str, options: Any) -> list[dict[str, Any]]:
    """Problems of an event's seating options for its seating system: an object holding only
    the options that system reads, each of its type. Nothing else is stored, so nothing is
    stored that no code reads."""
    def error(field: str, code: str, message: str) -> dict[str, Any]:
        return {"hand": None, "field": field, "code": code, "message": message}

    if not isinstance(options, dict):
        return [error("seating_options", "not_an_object",
                      _("seating_options must be an object of option names and values"))]
    known = SEATING_OPTIONS.get(system, ())
    errors = []
    for key in sorted(options, key=str):
        if key not in known:
            errors.append(error(f"seating_options.{key}", "unknown_option",
                                _("the seating system %(system)s has no option %(key)s (it has: "
                                  "%(known)s)") % {"system": system, "key": key,
                                                   "known": ", ".join(known) or _("none")}))
    if "seed" in options and "seed" in known:
        errors.extend(limits.bounded_whole("seating_options.seed", options["seed"], 0,
                                           limits.INT_MAX))
    if "missing_seat_deduction" in options and "missing_seat_deduction" in known:
        if options["missing_seat_deduction"] not in MISSING_SEAT_DEDUCTIONS:
            errors.append(error("seating_options.missing_seat_deduction", "invalid_choice",
                                _("missing_seat_deduction must be one of %(choices)s") % {
                                    "choices": ", ".join(MISSING_SEAT_DEDUCTIONS)}))
    if "final_order" in options and "final_order" in known:
        if options["final_order"] not in FINAL_ORDERS:
            errors.append(error("seating_options.final_order", "invalid_choice",
                                _("final_order must be one of %(choices)s") % {
                                    "choices": ", ".join(FINAL_ORDERS)}))
    if "table_ties" in options and "table_ties" in known:
        if options["table_ties"] not in TABLE_TIES:
            errors.append(error("seating_options.table_ties", "invalid_choice",
                                _("table_ties must be one of %(choices)s") % {
                                    "choices": ", ".join(TABLE_TIES)}))
    if "extra" in options and "extra" in known:
        try:
            formula = ExtraPointsFormula.from_dict(options["extra"])
        except SeatingInvalid as exc:
            for problem in exc.errors:
                key = problem["field"].removeprefix("extra").lstrip(".")
                errors.append(error(f"seating_options.{problem['field']}", problem["code"],
                                    _FORMULA_MESSAGES[problem["code"]](key)))
        else:
            if formula.cap is None or formula.cap > MAX_EXTRA_CAP:
                errors.append(error("seating_options.extra.cap", "cap_above_half",
                                    _("the extra points need a cap of at most 1/2 a table "
                                      "point, so that they never outweigh one table point")))
    return errors
