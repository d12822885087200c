"""Writes of an event's registrations: a player registered with his start number (one, or
many together with the same checks for an import), and a registration's status (checked in,
late entry, withdrawn). Players typed in at the desk or imported from a file come in through
`tournaments.services.player_entry`."""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.domain import lifecycle, rights
from tournaments.errors import CONSTRAINT_MESSAGES, NotFound, ServiceError
from tournaments.models import (
    Event,
    Player,
    Registration,
    Seat,
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
    missing = _players_missing([player])
    if missing:
        raise ServiceError(_player_gone(player), field="player", code="not_found")
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
    missing = _players_missing([player for player, _number, _status in entries])
    errors: list[dict[str, Any]] = []
    new = []
    for i, (player, start_number, status) in enumerate(entries):
        # Called only within this iteration, so i is this entry's.
        def bad(field: str, code: str, message: str) -> None:
            errors.append({"hand": None, "field": f"entries[{i}].{field}", "code": code,  # noqa: B023
                           "message": message})

        if player.pk in missing:
            bad("player", "not_found", _player_gone(player))
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


def _players_missing(players: list[Player]) -> set[int]:
    """The ids of `players` no longer in the registry, the others' rows locked FOR KEY SHARE
    until the commit (the lock their registrations' foreign keys take only at the commit,
    which is deferred). A registry merge deletes the duplicate's record: it either commits
    first, and the player is missing here (before, the registration was written and its
    commit failed on the foreign key, a server error), or waits for this transaction and
    then moves the new registration with the others."""
    ids = {p.pk for p in players} - {None}
    found = Player.objects.filter(pk__in=ids).order_by("pk").values_list("pk", flat=True)
    if connection.vendor == "postgresql" and ids:
        # Django's select_for_update has no FOR KEY SHARE, the weakest lock that holds a
        # delete off: a stronger one would make registrations of one player in two events,
        # or a correction of his record, wait for one another.
        sql, params = found.query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute(f"{sql} FOR KEY SHARE", params)
            return ids - {pk for (pk,) in cursor.fetchall()}
    return ids - set(found)


def _player_gone(player: Player) -> str:
    return _("%(player)s is no longer in the player registry (merged into another record or "
             "removed); choose the player again") % {"player": player}


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
    player withdrawing himself where the event allows it: tournaments.services.entries)."""
    changed = statuses_change(event=registration.event, registrations=[registration], status=status,
                              actor=actor)
    if not changed:  # deleted since the caller read it
        raise NotFound(_("no registration with start number %(n)s") % {"n": registration.start_number},
                       field="registration", code="not_found")
    return changed[0]


@transaction.atomic
def statuses_change(*, event: Event, registrations: list[Registration], status: str,
                    actor: Any) -> list[Registration]:
    """Give the registrations of the event `status` together (the desk checking in all 1,024
    players of a big event at once), in a number of queries that does not grow with them: one
    audit entry each, the event's pages told once. A place given up before the first round
    goes to the first of the waiting list. Answers the registrations as now stored, in
    start-number order."""
    if status not in Registration.Status.values:
        raise ServiceError(_("unknown status %(status)r") % {"status": status}, field="status",
                           code="invalid_choice")
    audit.lock_event(event)
    # The rows as they are now, not as the caller read them: of two changes at once, the
    # second records the first one's status as its "before".
    regs = list(Registration.objects.select_for_update(of=("self",)).select_related("event", "player")
                .filter(event=event, pk__in=[r.pk for r in registrations]).order_by("start_number"))
    withdrawn = Registration.Status.WITHDRAWN
    back = [r.pk for r in regs if r.status == withdrawn and status != withdrawn]
    if back and len(set(Seat.objects.filter(registration_id__in=back)
                        .values_list("registration_id", flat=True))) < len(back):
        # Back from withdrawn without having been drawn is an entry after the draw.
        _refuse_entry_after_draw(event)
    before = {r.pk: r.status for r in regs}
    now = timezone.now()
    for reg in regs:
        reg.status = status
        if status == Registration.Status.CHECKED_IN and reg.checked_in_at is None:
            reg.checked_in_at = now
    ids = [r.pk for r in regs]
    Registration.objects.filter(pk__in=ids).update(status=status)
    if status == Registration.Status.CHECKED_IN:
        Registration.objects.filter(pk__in=ids, checked_in_at__isnull=True).update(checked_in_at=now)
    audit.record_many(actor=actor, action="registration.status", event=event,
                      changes=[(r, {"status": status}) for r in regs],
                      befores=[{"status": before[r.pk]} for r in regs])
    moved = [r.start_number for r in regs if (before[r.pk] == withdrawn) != (status == withdrawn)]
    if moved:
        # A withdrawn player with no counted card has no line in the standings, and so
        # carries nothing: his carried totals follow at once, as the next round's seating
        # reads them.
        refresh_carried_totals(event, actor=actor, start_numbers=moved)
    if status == withdrawn and moved:
        # entries builds on this module (it registers through registration_insert).
        from tournaments.services import entries
        entries.waiting_list_move_up(event=event, actor=actor)
    return regs
