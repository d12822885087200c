"""The writes of a venue hold (docs/venue.md), validated first, each in one transaction with
its audit entry.

On the server: lending an event to a laptop (`hold_take`), applying a laptop's push
(`push_apply`: the event brought in place to the state of the laptop's archive, sent whole or
as what changed since the last push, by the archive's own checks; a version the server holds
already changes nothing), taking it back at
the end of the day (`hold_return`) or by force (`hold_force_back`, staff). On the laptop: the
hold of an event taken from a server (`held_record`) and what its pushes learnt
(`push_recorded`, `push_failed`, `hold_revoked`).

The laptop's key is its only credential for a push: 32 random bytes, kept on the server as
its SHA-256 and compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import archive
from tournaments.domain import rights
from tournaments.errors import Conflict, Forbidden, ServiceError
from tournaments.models import Event, VenueHold
from tournaments.runtime import collector
from tournaments.services import audit
from tournaments.venue import state

KEY_BYTES = 32
LENT, HELD = VenueHold.Side.LENT, VenueHold.Side.HELD


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _label(hold: VenueHold) -> str:
    # Who wrote a push, for the audit trail: the laptop, by the name it gave.
    return (_("venue laptop: %(name)s") % {"name": hold.holder or "?"})[:200]


# ---------------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------------

@transaction.atomic
def hold_take(*, event: Event, actor: Any, holder: str = "") -> tuple[VenueHold, str, dict]:
    """Lend the event to a laptop: (the hold, the laptop's key, the event's archive). From
    now on only the laptop's pushes write to it here. An organiser of the event may."""
    rights.require_organiser(actor, event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    existing = VenueHold.objects.filter(event=event).first()
    if existing is not None and existing.side == LENT:
        raise Conflict(_("This event is already run at a venue (taken %(when)s by %(holder)s).")
                       % {"when": timezone.localtime(existing.taken_at).strftime("%Y-%m-%d %H:%M"),
                          "holder": existing.holder or "?"}, field="event", code="already_lent")
    if existing is not None:
        raise Conflict(_("This installation holds the event from another server: it cannot lend it on."),
                       field="event", code="held_from_elsewhere")
    holder = " ".join(str(holder or "").split())[:200]
    # The entry first: the archive the laptop takes holds it, and so keeps it.
    audit.record(actor=actor, action="venue.take", target=event, event=event,
                 after={"holder": holder})
    key = secrets.token_urlsafe(KEY_BYTES)
    hold = VenueHold.objects.create(event=event, side=LENT, key=_digest(key), holder=holder,
                                    taken_by=actor if rights.is_signed_in(actor) else None)
    return hold, key, archive.export_event(event)


def require_holder(*, event: Event, key: str) -> None:
    """Refused (403 `not_holder`) unless `key` holds the event: asked before a push's body is
    read. A read, no lock (the push checks again under its lock)."""
    hold = VenueHold.objects.filter(event=event, side=LENT).first()
    if hold is None or not hmac.compare_digest(hold.key, _digest(key or "")):
        raise _not_holder()


def _not_holder() -> Forbidden:
    return Forbidden(_("This laptop does not hold the event: the server took it back, or it was "
                       "never taken with this key."), field="key", code="not_holder")


def _lent_hold(event: Event, key: str) -> VenueHold:
    hold = VenueHold.objects.select_for_update().filter(event=event, side=LENT).first()
    if hold is None or not hmac.compare_digest(hold.key, _digest(key or "")):
        raise _not_holder()
    return hold


# VenueHold.version's largest value on every database.
MAX_VERSION = 2**31 - 1


def _version(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_VERSION:
        raise ServiceError(_("the push names no version (a whole number from 1)"), field="version",
                           code="invalid")
    return value


def _base_mismatch() -> Conflict:
    return Conflict(_("The server holds another state of the event than this push was made "
                      "against: send the whole archive."), field="base", code="base_mismatch")


@transaction.atomic
def push_apply(*, event: Event, key: str, version: Any, doc: Any = None, base: Any = None,
               delta: Any = None, sha256: Any = None) -> dict[str, Any]:
    """A push from the laptop that holds the event: its archive at its `version`, whole
    (`doc`), or as what changed (`delta`, archive.delta) since the version `base` the server
    holds, with the SHA-256 of the archive it makes (`sha256`). A version the server holds
    already (the same push again, or one overtaken by a later one) changes nothing; a newer
    one brings the event to that state, all or nothing, checked as an import is (a delta's
    unchanged cards were checked when they came). A delta against another state is refused
    (409 `base_mismatch`): the laptop then sends the whole archive. Answers what the server
    now holds."""
    # The kept archive read, the one made, their check and write: a million small objects
    # that die with the push, unwalked by the collector (tournaments.runtime.collector); its
    # passes over them were half of a hand's push at 1,024 players.
    return collector.run_paused(_applied, event=event, key=key, version=version, doc=doc,
                                base=base, delta=delta, sha256=sha256)


def _applied(*, event: Event, key: str, version: Any, doc: Any, base: Any, delta: Any,
             sha256: Any) -> dict[str, Any]:
    version = _version(version)
    event = Event.objects.select_for_update().get(pk=event.pk)
    hold = _lent_hold(event, key)
    if version <= hold.version:
        return {"applied": False, "version": hold.version}
    previous = state.stored(hold)
    if delta is not None:
        if previous is None or base != hold.version:
            raise _base_mismatch()
        try:
            doc = archive.delta.patch(previous, delta)
        except archive.delta.DeltaMismatch as exc:
            raise _base_mismatch() from exc
        kept = state.kept(doc)
        if kept.digest() != sha256:
            raise _base_mismatch()
    else:
        kept = state.kept(doc)
    officials = set(archive.usernames_of(event.organisers)) | set(archive.usernames_of(event.referees))
    archive.update_event(_officials_kept(doc, event), event, accounts_of=officials,
                         previous=_officials_kept(previous, event) if previous is not None else None)
    hold.version, hold.last_push_at, hold.state = version, timezone.now(), kept.packed()
    hold.save(update_fields=["version", "last_push_at", "state"])
    audit.event_changed(event)
    # The event's trail is now the laptop's, which holds every change made there; the push
    # itself is kept in the server's own trail, outside the event's (the next push replaces
    # the event's, and its archive must be the laptop's).
    audit.record(actor=_label(hold), action="venue.push", target=event,
                 after={"event": event.slug, "version": version})
    return {"applied": True, "version": version}


def _officials_kept(doc: Any, event: Event) -> Any:
    """The pushed archive with the server's own officials of the event: the laptop's accounts
    are not the server's (a "referee" made at the venue is not the server's "referee"), so a
    push never names who may organise or referee the event here."""
    if not isinstance(doc, dict) or not isinstance(doc.get("event"), dict):
        return doc  # refused by the archive's checks
    body = dict(doc["event"], organisers=archive.usernames_of(event.organisers),
                referees=archive.usernames_of(event.referees))
    return dict(doc, event=body)


@transaction.atomic
def hold_return(*, event: Event, key: str, version: Any, **push: Any) -> dict[str, Any]:
    """The laptop hands the event back with its last state: applied as a push (`push`: its
    `doc`, or `base`, `delta` and `sha256`), then the server holds the event again
    (corrections, ratings)."""
    answer = push_apply(event=event, key=key, version=version, **push)
    hold = _lent_hold(event, key)
    hold.delete()
    audit.record(actor=_label(hold), action="venue.return", target=event, event=event,
                 after={"holder": hold.holder, "version": answer["version"]})
    return answer


@transaction.atomic
def hold_force_back(*, event: Event, actor: Any) -> None:
    """The server's staff take back an event whose laptop is lost or gone: the server holds
    it again at the last state pushed, and the laptop's pushes are refused from now on."""
    if not rights.is_staff(actor):
        raise Forbidden(_("only the server's staff may take an event back from a venue"),
                        code="not_staff")
    hold = VenueHold.objects.select_for_update().filter(event=event, side=LENT).first()
    if hold is None:
        raise ServiceError(_("This event is not run at a venue."), field="event", code="not_lent")
    hold.delete()
    audit.record(actor=actor, action="venue.force_back", target=event, event=event,
                 before={"holder": hold.holder, "version": hold.version})


# ---------------------------------------------------------------------------------------
# The laptop
# ---------------------------------------------------------------------------------------

@transaction.atomic
def taken_from_server(*, doc: Any, server_url: str, key: str, actor: Any) -> Event:
    """The laptop took an event: the server's archive imported and the hold kept, together
    (a refused archive leaves neither)."""
    event = archive.import_event(doc, actor=actor)
    if rights.is_signed_in(actor):
        # The server's organisers are names here, not accounts: whoever took the event runs it.
        event.organisers.add(actor)
    held_record(event=event, server_url=server_url, key=key, actor=actor)
    return event


@transaction.atomic
def held_record(*, event: Event, server_url: str, key: str, actor: Any) -> VenueHold:
    """The laptop took `event` (just imported from the server's archive): where it pushes to,
    with which key."""
    hold = VenueHold.objects.create(event=event, side=HELD, key=key, server_url=server_url[:200],
                                    taken_by=actor if rights.is_signed_in(actor) else None)
    audit.record(actor=actor, action="venue.held", target=event, event=event,
                 after={"server": hold.server_url})
    return hold


@transaction.atomic
def push_recorded(hold: VenueHold, version: int, state: bytes = b"") -> None:
    """The server acknowledged the laptop's state at `version`: `state` is that archive
    (`state.kept(...).packed()`), the next push's base; empty when the laptop does not know it."""
    VenueHold.objects.filter(pk=hold.pk).update(version=version, last_push_at=timezone.now(),
                                                last_error="", state=state)


@transaction.atomic
def push_failed(hold: VenueHold, error: str) -> None:
    """The push did not reach the server, or the server refused it: why, for the organiser."""
    VenueHold.objects.filter(pk=hold.pk).update(last_error=error[:300])


@transaction.atomic
def hold_revoked(hold: VenueHold, *, returned: bool) -> None:
    """The event went back to the server (handed back, or taken back by its staff): the
    laptop writes nothing more to it (tournaments.domain.lifecycle.venue_refusal)."""
    VenueHold.objects.filter(pk=hold.pk).update(revoked_at=timezone.now(), last_error="")
    audit.record(actor=(_("server: %(url)s") % {"url": hold.server_url})[:200],
                 action="venue.returned" if returned else "venue.taken_back",
                 target=hold.event, event=hold.event, by_holder=True,
                 after={"server": hold.server_url})
