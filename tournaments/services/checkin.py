"""Check-in at the desk: changing the status of many registrations of one event at once
(check in everybody, check in or withdraw the chosen ones), each change audited as the single
row buttons do, all of them or none; and marking a player absent for a round he will miss
while staying in the event (the rule of who is seated is tournaments.domain.lifecycle)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.domain import lifecycle, rights
from tournaments.errors import ServiceError
from tournaments.models import Event, Registration
from tournaments.services import audit
from tournaments.services.registrations import statuses_change

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
    # The event's row locked, no other writer changes its registrations until this commits
    # (audit.lock_event); statuses_change locks and reads again the ones it changes.
    audit.lock_event(event)
    regs = event.registrations.order_by("start_number")
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
    changing = [reg for reg in regs if reg.status in touches and reg.status != status]
    if not changing:
        return []
    return statuses_change(event=event, registrations=changing, status=status, actor=actor)


_ABSENCE_REFUSALS = {
    "absent_in_knockout": lambda n: _(
        "a knock-out player who misses a round is out of the knock-out: withdraw him instead"),
    "withdrawn": lambda n: _("a withdrawn player is seated in no round: reinstate him first"),
    "round_not_ahead": lambda n: _(
        "round %(n)s is already seated or not planned: mark a player absent for a round not "
        "seated yet") % {"n": n},
}


@transaction.atomic
def registration_set_absent(*, registration: Registration, number: int, absent: bool,
                            actor: Any) -> Registration:
    """Mark the player absent for round `number` (he sits it out and stays in the event; seed
    000 §4.1 b seats him after those who played in the round after), or back in it. Only a
    round not seated yet; audited."""
    rights.require_organiser(actor, registration.event)
    return absence_change(registration=registration, number=number, absent=absent, actor=actor)


@transaction.atomic
def absence_change(*, registration: Registration, number: int, absent: bool,
                   actor: Any) -> Registration:
    """`registration_set_absent` after its caller settled who may (the organiser, or the
    player himself on his personal page where the event allows it:
    tournaments.services.entries)."""
    event = registration.event
    audit.lock_event(event)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    refusal = lifecycle.absence_refusal(event, reg, number, selectors.next_round_number(event))
    if refusal is not None:
        field, code = refusal
        raise ServiceError(_ABSENCE_REFUSALS[code](number), field=field, code=code)
    before = sorted(reg.absent_rounds or [])
    after = sorted(set(before) | {number}) if absent else [n for n in before if n != number]
    if after != before:
        reg.absent_rounds = after
        reg.save(update_fields=["absent_rounds"])
        audit.record(actor=actor, action="registration.absent", target=reg, event=event,
                     before={"absent_rounds": before}, after={"absent_rounds": after})
    return reg
