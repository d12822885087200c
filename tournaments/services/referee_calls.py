"""Calling the referee from the table, and the organiser's announcements (issue #33).

A player of a table calls the referee from the table link (with the hand and a short note);
one open call per table, so a phone cannot flood the desk's queue. An official takes the call
and resolves it, linking what it led to: a penalty, a dispute or a correction (an audit entry
of the table). A penalty or a dispute recorded from the call links it in its own transaction
(`link_outcome`, called by tournaments.services.officiating).

An organiser posts a short announcement that the projector and every table link of the event
show until he withdraws it.

None of this changes results: the audit entries leave the event's public pages' versions
alone (`event_pages=False`); the projector's cache expires within seconds
(tournaments.runtime.page_cache), so an announcement reaches the hall by its next refresh.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.domain import rights
from tournaments.errors import Conflict, NotFound, ServiceError
from tournaments.models import (
    Announcement,
    AuditEntry,
    Dispute,
    Event,
    Penalty,
    RefereeCall,
    Table,
)
from tournaments.services import audit
from tournaments.services.validation import refuse_bad_text

NOTE_MAX = RefereeCall._meta.get_field("note").max_length
ANNOUNCEMENT_MAX = Announcement._meta.get_field("text").max_length


def _short_text(field: str, value: Any, limit: int) -> str:
    if not isinstance(value, str):
        raise ServiceError(_("write it as text"), field=field, code="invalid")
    refuse_bad_text({field: value})
    value = value.strip()
    if len(value) > limit:
        raise ServiceError(_("at most %(max)s characters (this one has %(n)s)")
                           % {"max": limit, "n": len(value)}, field=field, code="too_long")
    return value


@transaction.atomic
def referee_call(*, table: Table, actor: Any, hand_number: int | None = None,
                 note: str = "") -> RefereeCall:
    """A player of the table calls the referee. A table has one open call at a time: a second
    is refused until the first is resolved."""
    refusal = rights.call_refusal(actor, table)
    if refusal is not None:
        raise refusal.error()
    note = _short_text("note", note, NOTE_MAX)
    event = table.round.event
    if hand_number is not None and (isinstance(hand_number, bool) or not isinstance(hand_number, int)
                                    or not 1 <= hand_number <= event.hands_per_round):
        raise ServiceError(_("a hand of this round: from 1 to %(max)s")
                           % {"max": event.hands_per_round}, field="hand_number", code="out_of_range")
    # The table's row serialises two phones calling at once.
    Table.objects.select_for_update().filter(pk=table.pk).first()
    if RefereeCall.objects.filter(table=table, resolved_at__isnull=True).exists():
        raise Conflict(_("the referee is already called to this table; wait for him"),
                       field="table", code="already_called")
    call = RefereeCall.objects.create(
        event=event, table=table, hand_number=hand_number, note=note,
        called_by=str(actor)[:200], device=getattr(actor, "device", "")[:32])
    audit.record(actor=actor, action="referee_call.call", target=call, event=event, table=table,
                 after={"hand": hand_number, "note": note}, event_pages=False)
    return call


def _user(actor: Any) -> Any:
    """The account an official acts as (the system, `actor=None`, has none)."""
    return actor if rights.is_signed_in(actor) else None


def _locked(call: RefereeCall, actor: Any) -> RefereeCall:
    rights.require_official(actor, call.event)
    call = RefereeCall.objects.select_for_update().get(pk=call.pk)
    if not call.is_open:
        raise Conflict(_("this call is already resolved"), field="call", code="resolved")
    return call


@transaction.atomic
def referee_call_take(*, call: RefereeCall, actor: Any) -> RefereeCall:
    """An official takes the call: the table and the desk see who is coming."""
    call = _locked(call, actor)
    user = _user(actor)
    if call.taken_by_id is not None and call.taken_by_id != getattr(user, "pk", None):
        raise Conflict(_("%(name)s has already taken this call") % {"name": call.taken_by},
                       field="call", code="taken")
    call.taken_by, call.taken_at = user, timezone.now()
    call.save(update_fields=["taken_by", "taken_at"])
    audit.record(actor=actor, action="referee_call.take", target=call, event=call.event,
                 table=call.table, event_pages=False)
    return call


def _check_outcome(call: RefereeCall, penalty: Penalty | None, dispute: Dispute | None,
                   correction: AuditEntry | None) -> None:
    given = [o for o in (penalty, dispute, correction) if o is not None]
    if len(given) > 1:
        raise ServiceError(_("link one penalty, dispute or correction"), field="outcome",
                           code="one_outcome")
    for outcome in given:
        if outcome.event_id != call.event_id:
            raise NotFound(_("there is no such penalty, dispute or correction in this event"),
                           field="outcome", code="not_found")


@transaction.atomic
def referee_call_resolve(*, call: RefereeCall, actor: Any, penalty: Penalty | None = None,
                         dispute: Dispute | None = None,
                         correction: AuditEntry | None = None) -> RefereeCall:
    """An official closes the call, with what it led to (or nothing: a question answered)."""
    call = _locked(call, actor)
    _check_outcome(call, penalty, dispute, correction)
    now = timezone.now()
    if call.taken_by_id is None:
        call.taken_by, call.taken_at = _user(actor), now
    call.resolved_by, call.resolved_at = _user(actor), now
    call.penalty, call.dispute, call.correction = penalty, dispute, correction
    call.save()
    audit.record(actor=actor, action="referee_call.resolve", target=call, event=call.event,
                 table=call.table, event_pages=False, after={
                     "penalty": penalty.pk if penalty else None,
                     "dispute": dispute.pk if dispute else None,
                     "correction": correction.pk if correction else None})
    return call


def link_outcome(*, call_id: int | None, table: Table, actor: Any, penalty: Penalty | None = None,
                 dispute: Dispute | None = None) -> RefereeCall | None:
    """A penalty or dispute an official recorded from a call (its form carried the call):
    the call, if still open and of the same table, is resolved with it, in the caller's
    transaction. A call resolved meanwhile, or of another table, is left as it is."""
    if call_id is None:
        return None
    call = RefereeCall.objects.filter(pk=call_id, table=table, resolved_at__isnull=True).first()
    if call is None:
        return None
    return referee_call_resolve(call=call, actor=actor, penalty=penalty, dispute=dispute)


@transaction.atomic
def announcement_post(*, event: Event, actor: Any, text: str) -> Announcement:
    rights.require_organiser(actor, event)
    text = _short_text("text", text, ANNOUNCEMENT_MAX)
    if not text:
        raise ServiceError(_("write the notice"), field="text", code="required")
    announcement = Announcement.objects.create(
        event=event, text=text, author=_user(actor))
    audit.record(actor=actor, action="announcement.post", target=announcement, event=event,
                 after={"text": text}, event_pages=False)
    return announcement


@transaction.atomic
def announcement_withdraw(*, announcement: Announcement, actor: Any) -> Announcement:
    rights.require_organiser(actor, announcement.event)
    announcement = Announcement.objects.select_for_update().get(pk=announcement.pk)
    if announcement.withdrawn_at is not None:
        raise Conflict(_("this notice is already withdrawn"), field="announcement",
                       code="withdrawn")
    announcement.withdrawn_at = timezone.now()
    announcement.save(update_fields=["withdrawn_at"])
    audit.record(actor=actor, action="announcement.withdraw", target=announcement,
                 event=announcement.event, event_pages=False)
    return announcement
