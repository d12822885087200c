"""Check-in at the desk: changing the status of many registrations of one event at once
(check in everybody, check in or withdraw the chosen ones), each change audited as the single
row buttons do, all of them or none."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import rights
from tournaments.errors import ServiceError
from tournaments.models import Event, Registration
from tournaments.services import registration_set_status

REG = Registration.Status

# What a bulk action does: the status it sets and which registrations it may touch.
BULK_ACTIONS: dict[str, tuple[str, frozenset[str]]] = {
    # Check in everybody still only registered; withdrawn players stay withdrawn.
    "check_in_all": (REG.CHECKED_IN, frozenset({REG.REGISTERED})),
    "check_in": (REG.CHECKED_IN, frozenset({REG.REGISTERED, REG.WITHDRAWN})),
    "withdraw": (REG.WITHDRAWN, frozenset({REG.REGISTERED, REG.CHECKED_IN, REG.LATE_ENTRY})),
}


@transaction.atomic
def registrations_bulk_status(*, event: Event, action: str, actor: Any,
                              registration_ids: list[int] | None = None) -> list[Registration]:
    """Apply a bulk action (BULK_ACTIONS) to the chosen registrations of the event, or to all
    of them for "check_in_all". Returns the registrations that changed; those already in the
    target status are left alone."""
    rights.require_organiser(actor, event)
    if action not in BULK_ACTIONS:
        raise ServiceError(_("Unknown action."), field="action", code="invalid_choice")
    status, touches = BULK_ACTIONS[action]
    regs = event.registrations.select_for_update().select_related("player").order_by("start_number")
    if action != "check_in_all":
        ids = set(registration_ids or [])
        if not ids:
            raise ServiceError(_("Choose at least one player."), field="registrations",
                               code="required")
        regs = regs.filter(pk__in=ids)
        found = {r.pk for r in regs}
        if found != ids:
            raise ServiceError(_("Some of the chosen players are not registered in this event."),
                               field="registrations", code="not_found")
    changed = []
    for reg in regs:
        if reg.status in touches and reg.status != status:
            changed.append(registration_set_status(registration=reg, status=status, actor=actor))
    return changed
