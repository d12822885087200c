"""Writing the audit trail. Every service that changes results, seating, penalties,
disputes or standings calls `record` inside its transaction, so the entry exists exactly when
the change does; apps that derive something from an event's results hear of it through
`tournaments.hooks.audited`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.db.models import F

from tournaments import hooks
from tournaments.domain import lifecycle
from tournaments.domain.rights import TableSeat
from tournaments.errors import Conflict
from tournaments.models import AuditEntry, Event, Table
from tournaments.runtime.page_cache import forget_event


def record(
    *,
    actor: Any,
    action: str,
    target: models.Model,
    event: Event | None = None,
    table: Table | None = None,
    before: Any = None,
    after: Any = None,
    reason: str = "",
    event_pages: bool = True,
    by_holder: bool = False,
) -> AuditEntry:
    """`event_pages=False` for a change that only its own table's or round's public pages
    show (a hand typed or confirmed on a card that does not count yet, a card handed in): the
    caller has bumped that card's or round's version, and the event's `results_version`, on
    which the standings and the event page are cached, stays.

    An event lent to a venue's laptop is written by nobody here but the laptop's pushes
    (`by_holder`, tournaments.venue): every other change is refused here, in the change's own
    transaction, whichever edge it came from (the edges refuse it before, with the same words:
    tournaments.venue.edges)."""
    if event is not None and not by_holder:
        refuse_if_lent(event)
    if event is not None:
        _event_changed(event, event_pages=event_pages)
        hooks.audited(action, event, target)
    entry = _entry(actor=actor, action=action, target=target, event=event, table=table,
                   before=before, after=after, reason=reason)
    entry.save()
    return entry


def record_many(*, actor: Any, action: str, changes: list[tuple[models.Model, Any]],
                event: Event | None = None, befores: list[Any] | None = None) -> list[AuditEntry]:
    """One entry per (target, after) of one kind of change made to many objects together
    (players entered into the registry, an event's registrations imported from a file, the
    desk checking everybody in), written with one insert per 500 entries; `befores`, one per
    change, what each target was. With `event`, each entry belongs to it, as `record` would
    write it; the event's public pages are told once for the whole change, and the audit
    listeners hear of every target."""
    if event is not None and changes:
        refuse_if_lent(event)
        _event_changed(event, event_pages=True)
        for target, _after in changes:
            hooks.audited(action, event, target)
    befores = befores if befores is not None else [None] * len(changes)
    entries = [_entry(actor=actor, action=action, target=target, event=event, before=before,
                      after=after)
               for (target, after), before in zip(changes, befores, strict=True)]
    return AuditEntry.objects.bulk_create(entries, batch_size=500)


def player_label(registration: Any) -> str:
    """Who changed something through a player's personal link, for the trail: the player
    himself, named as a table link names a seat (the link is his alone)."""
    return f"#{registration.start_number} {registration.player}"[:200]


def refuse_if_lent(event: Event) -> None:
    """Conflict (409) when the event is not written on this installation now: run at a venue,
    or handed back by this laptop (lifecycle.venue_refusal). On a venue's laptop, a change of
    an event it holds is sent to the server after the commit (hooks.held_event_changed)."""
    hold = lifecycle.hold_of(event.pk)
    refusal = lifecycle.venue_refusal(event.pk, hold)
    if refusal is not None:
        raise Conflict(refusal, field="event", code="run_at_venue")
    if lifecycle.pushes_to_server(hold):
        hooks.held_event_changed(event)


def lock_event(event: Event, *, fresh: Iterable[str] = ()) -> None:
    """Lock the event's row for the rest of this transaction, before any of its registrations.

    Every audited change of an event writes that row (its results version), and closing a
    round writes every registration's carried totals after taking it
    (services.refresh_carried_totals). A writer that locked a registration first and the
    event's row second met the close in the other order: each waited for the other, and
    PostgreSQL cancelled one of them (a server error for a check-in, an absence, a withdrawal
    or a link reissued while the organiser closed a round). So one order everywhere: a card,
    a round, the event, its registrations. FOR NO KEY UPDATE, the lock the results version's
    UPDATE takes anyway: rows that only refer to the event (an audit entry) are still written
    beside it.

    `fresh` names fields of the event read again with the lock, onto `event`: what the caller
    computes from them is then what the row holds while it is locked."""
    fresh = list(fresh)
    row = Event.objects.select_for_update(no_key=True).filter(pk=event.pk).values("pk", *fresh).first()
    for name in fresh if row else ():
        setattr(event, name, row[name])


def event_changed(event: Event) -> None:
    """What an audited change tells the event's public pages (a new results version, the
    caches forgotten, the derived PDFs queued), for a change written past `record` (a venue's
    push, which brings the event's own trail)."""
    _event_changed(event, event_pages=True)


def _event_changed(event: Event, *, event_pages: bool) -> None:
    # An audited change of an event may change what all its public pages show.
    if event_pages:
        Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
        # What is derived from the results hears of it (a large event's PDFs are rendered
        # again in the background once this change commits, tournaments.printing).
        hooks.results_changed(event)
    # Now, and again once committed, in case this process read the old version between.
    forget_event(event.slug)
    transaction.on_commit(lambda: forget_event(event.slug))


def _entry(*, actor: Any, action: str, target: models.Model, event: Event | None = None,
           table: Table | None = None, before: Any = None, after: Any = None,
           reason: str = "") -> AuditEntry:
    user = actor if getattr(actor, "is_authenticated", False) else None
    via, device = "", ""
    if isinstance(actor, TableSeat):
        # A player's phone through the table link: his seat, and the phone's opaque id.
        label, via, device = str(actor)[:200], AuditEntry.Via.TABLE_LINK, actor.device[:32]
    else:
        label = getattr(user, "get_username", lambda: "")() if user else (actor if isinstance(actor, str) else "")
    return AuditEntry(
        actor=user,
        actor_label=label or "system",
        via=via,
        device=device,
        action=action,
        content_type=ContentType.objects.get_for_model(target, for_concrete_model=False),
        object_id=str(target.pk),
        object_repr=str(target)[:300],
        event=event,
        table=table,
        before=before,
        after=after,
        reason=reason,
    )
