"""Writes of an event's registrations: a player registered with his start number (one, or
many together with the same checks for an import), and a registration's status (checked in,
late entry, withdrawn). Players typed in at the desk or imported from a file come in through
`tournaments.services.player_entry`."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.domain import lifecycle, rights
from tournaments.errors import CONSTRAINT_MESSAGES, ServiceError
from tournaments.models import (
    Event,
    Player,
    Registration,
)
from tournaments.services import audit, player_links
from tournaments.services.scorecards import refresh_carried_totals
from tournaments.services.validation import full_clean


@transaction.atomic
def registration_create(*, event: Event, player: Player, actor: Any,
                        start_number: int | None = None,
                        status: str = Registration.Status.REGISTERED) -> Registration:
    rights.require_organiser(actor, event)
    return registration_insert(event=event, player=player, actor=actor,
                               start_number=start_number, status=status)


@transaction.atomic
def registration_insert(*, event: Event, player: Player, actor: Any,
                        start_number: int | None = None,
                        status: str = Registration.Status.REGISTERED) -> Registration:
    """`registration_create` after its caller settled who may: the organiser
    (`registration_create`), or an online entry taking its place
    (tournaments.services.entries, where the event's settings are the right)."""
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
    player_links.links_ensure(event=event, actor=actor, audited=False)
    audit.record(actor=actor, action="registration.create", target=reg, event=event,
                 after=_registration_created(reg))
    return reg


def _registration_created(reg: Registration) -> dict[str, Any]:
    return {"player": reg.player_id, "start_number": reg.start_number, "status": reg.status}


# The constraints of Registration that `registrations_create_many` checks itself over the
# whole list, instead of a query per registration (tests hold this to Registration.Meta).
BULK_CHECKED_CONSTRAINTS = frozenset({"registration_start_number_unique",
                                      "registration_player_once_per_event",
                                      "registration_start_number_positive"})


@transaction.atomic
def registrations_create_many(*, event: Event, entries: list[tuple[Player, int, str]],
                              actor: Any) -> list[Registration]:
    """`registration_create` for many players at once (the rows of a CSV import), in a number
    of queries that does not grow with the list: the same checks (the organiser's right,
    entries still open, each player registered once, each start number free and given once,
    the registration's own validation and constraints), made over the whole list, then one
    insert per 500 registrations and one audit entry for each. All or none.

    `entries` are (player, start number, status); the players are saved. Refusals name
    `entries[i].<field>`, i counting from 0."""
    rights.require_organiser(actor, event)
    # Lock the event row, as registration_create does, so no registration slips in between.
    Event.objects.select_for_update().get(pk=event.pk)
    _refuse_entry_after_draw(event)
    registered = set(event.registrations.values_list("player_id", flat=True))
    taken = set(event.registrations.values_list("start_number", flat=True))
    errors: list[dict[str, Any]] = []
    new = []
    for i, (player, start_number, status) in enumerate(entries):
        # Called only within this iteration, so i is this entry's.
        def bad(field: str, code: str, message: str) -> None:
            errors.append({"hand": None, "field": f"entries[{i}].{field}", "code": code,  # noqa: B023
                           "message": message})

        if player.pk in registered:
            bad("player", "already_registered",
                _("%(player)s is already registered") % {"player": player})
        if start_number in taken:
            bad("start_number", "start_number_taken",
                _("start number %(number)s is taken") % {"number": start_number})
        if start_number < 1:
            where, message = CONSTRAINT_MESSAGES["registration_start_number_positive"]
            bad(where, "registration_start_number_positive", str(message))
        registered.add(player.pk)
        taken.add(start_number)
        reg = Registration(event=event, player=player, start_number=start_number, status=status)
        try:
            # The constraints are BULK_CHECKED_CONSTRAINTS, just checked over the list.
            full_clean(reg, exclude=["event", "player"], validate_unique=False,
                       validate_constraints=False)
        except ServiceError as exc:
            for error in exc.errors:
                bad(error["field"], error["code"], error["message"])
        new.append(reg)
    if errors:
        raise ServiceError(errors)
    created = Registration.objects.bulk_create(new, batch_size=500)
    if any(r.pk is None for r in created):  # pragma: no cover - PostgreSQL and SQLite return keys
        raise ServiceError(_("the database returned no keys for the new registrations"),
                           code="no_keys_returned")
    player_links.links_ensure(event=event, actor=actor, audited=False)
    audit.record_many(actor=actor, action="registration.create", event=event,
                      changes=[(r, _registration_created(r)) for r in created])
    return created


def _refuse_entry_after_draw(event: Event) -> None:
    if lifecycle.entries_closed(event):
        raise ServiceError(_("entries are closed: the knock-out's draw is made, and after the "
                             "draw no one may enter (Tarok.net rules §4.1)"),
                           field="event", code="entries_closed")


@transaction.atomic
def registration_set_status(*, registration: Registration, status: str, actor: Any) -> Registration:
    rights.require_organiser(actor, registration.event)
    return status_change(registration=registration, status=status, actor=actor)


@transaction.atomic
def status_change(*, registration: Registration, status: str, actor: Any) -> Registration:
    """`registration_set_status` after its caller settled who may (the organiser, or the
    player withdrawing himself where the event allows it: tournaments.services.entries). A
    place given up before the first round goes to the first of the waiting list."""
    if status not in Registration.Status.values:
        raise ServiceError(_("unknown status %(status)r") % {"status": status}, field="status",
                           code="invalid_choice")
    audit.lock_event(registration.event)
    # The row as it is now, not as the caller read it: of two changes at once, the second
    # records the first one's status as its "before".
    registration = Registration.objects.select_for_update(of=("self",)).select_related(
        "event", "player").get(pk=registration.pk)
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
    if (before == Registration.Status.WITHDRAWN) != (status == Registration.Status.WITHDRAWN):
        # A withdrawn player with no counted card has no line in the standings, and so
        # carries nothing: his carried totals follow at once, as the next round's seating
        # reads them.
        refresh_carried_totals(registration.event, actor=actor,
                               start_numbers=[registration.start_number])
    if status == Registration.Status.WITHDRAWN and before != status:
        # entries builds on this module (it registers through registration_insert).
        from tournaments.services import entries
        entries.waiting_list_move_up(event=registration.event, actor=actor)
    return registration
