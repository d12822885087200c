"""Errors raised by services: the views and the API turn them into clear 4xx answers naming
the field (and the hand), never a 500."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


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


class TooLarge(ServiceError):
    """An input larger than its limit, refused by its size before it is read (a CSV file over
    CSV_IMPORT_MAX_BYTES, tournaments.domain.limits)."""

    status = 413


class TooManyLogins(ServiceError):
    """Too many failed sign-ins from this address or for this username (guard.login_limit)."""

    status = 429


class TooManyAttempts(ServiceError):
    """Too many wrong table codes or links from this phone or address
    (tournaments.services.table_links)."""

    status = 429


# The database's check constraints in words, by name: (the field a person corrects, what to
# say). Django's own message names the constraint, which no person should read.
CONSTRAINT_MESSAGES = {
    "player_has_a_name": ("last_name", _("A player needs a first or a last name.")),
    # Whose it is is not said: the owner may play only in another organiser's private events.
    "player_federation_id_unique": ("federation_id",
                                    _("This federation id belongs to another player.")),
    "event_dates_ordered": ("ends_on", _("The last day cannot be before the first day.")),
    "event_table_size_2_to_5": ("table_size", _("A table seats 2 to 5 players.")),
    "event_min_table_size_valid": ("min_table_size",
                                   _("The smallest table seats at least 1 and no more than a full table.")),
    "event_hands_positive": ("hands_per_round", _("A round plays at least one hand.")),
    "event_rounds_positive": ("planned_rounds", _("An event plays at least one round.")),
    "registration_start_number_positive": ("start_number", _("Start numbers begin at 1.")),
    "adjustment_has_reason": ("reason", _("An adjustment needs a reason.")),
    "scorecard_annulled_with_reason": ("reason", _("Annulling a table's round needs a reason.")),
    "dispute_decided_with_reason": ("decision", _("A decision needs a written reason.")),
    "league_division_size_min": ("division_size", _("A division has at least 4 players.")),
    "league_division_count_min": ("division_count", _("A league has at least one division.")),
    "league_table_sizes_valid": ("min_table_size",
                                 _("A table seats 2 to 5 players, the smallest no more than a full one.")),
    "cup_counts_at_least_one": ("best_results_counted", _("At least one result counts.")),
}


def validation_errors(exc: ValidationError) -> list[dict[str, Any]]:
    """A model's validation errors in the contract's shape, each at the field it names; a
    violated check constraint is said in words at the field a person corrects."""
    out = []
    for field, errors in exc.error_dict.items() if hasattr(exc, "error_dict") else [("non_field_errors", exc.error_list)]:
        for error in errors:
            # Django words a violated constraint with its name already filled in.
            text = str(error.message % error.params if error.params else error.message)
            name = next((n for n in CONSTRAINT_MESSAGES if f"“{n}”" in text or f'"{n}"' in text), None)
            if name is not None:
                where, message = CONSTRAINT_MESSAGES[name]
                out.append({"hand": None, "field": where, "code": name, "message": str(message)})
                continue
            out.append({"hand": None, "field": field if field != "__all__" else "non_field_errors",
                        "code": error.code or "invalid", "message": text})
    return out
