"""Writes of an event's registrations: a player registered with his start number, and a
registration's status (checked in, late entry, withdrawn). Players typed in at the desk or
imported from a file come in through `tournaments.services.player_entry`."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import audit, lifecycle, rights
from tournaments.errors import ServiceError
from tournaments.models import (
    Event,
    Player,
    Registration,
)
from tournaments.services.validation import full_clean


@transaction.atomic
def registration_create(*, event: Event, player: Player, actor: Any,
                        start_number: int | None = None,
                        status: str = Registration.Status.REGISTERED) -> Registration:
    rights.require_organiser(actor, event)
    # Lock the event row so two concurrent registrations cannot take the same next number.
    Event.objects.select_for_update().get(pk=event.pk)
    _refuse_entry_after_draw(event)
    if start_number is None:
        start_number = (event.registrations.aggregate(m=Max("start_number"))["m"] or 0) + 1
    if event.registrations.filter(player=player).exists():
        raise ServiceError(_("%(player)s is already registered") % {"player": player}, field="player",
                           code="already_registered")
    if event.registrations.filter(start_number=start_number).exists():
        raise ServiceError(_("start number %(number)s is taken") % {"number": start_number},
                           field="start_number",
                           code="start_number_taken")
    reg = Registration(event=event, player=player, start_number=start_number, status=status)
    full_clean(reg, exclude=["event", "player"])
    reg.save()
    audit.record(actor=actor, action="registration.create", target=reg, event=event,
                 after={"player": player.pk, "start_number": start_number, "status": status})
    return reg


def _refuse_entry_after_draw(event: Event) -> None:
    if lifecycle.entries_closed(event):
        raise ServiceError(_("entries are closed: the knock-out's draw is made, and after the "
                             "draw no one may enter (seed 000 §4.1)"),
                           field="event", code="entries_closed")


@transaction.atomic
def registration_set_status(*, registration: Registration, status: str, actor: Any) -> Registration:
    rights.require_organiser(actor, registration.event)
    if status not in Registration.Status.values:
        raise ServiceError(_("unknown status %(status)r") % {"status": status}, field="status",
                           code="invalid_choice")
    before = registration.status
    if (before == Registration.Status.WITHDRAWN and status != before
            and not registration.seats.exists()):
        # Back from withdrawn without having been drawn is an entry after the draw.
        _refuse_entry_after_draw(registration.event)
    registration.status = status
    if status == Registration.Status.CHECKED_IN and registration.checked_in_at is None:
        registration.checked_in_at = timezone.now()
    registration.save(update_fields=["status", "checked_in_at"])
    audit.record(actor=actor, action="registration.status", target=registration,
                 event=registration.event, before={"status": before}, after={"status": status})
    return registration
