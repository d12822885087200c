"""Writes of rounds: a seating stored as a draft round (with its tables, seats, cards and table
links), two players swapped in a draft, a round published, its clock started."""

from __future__ import annotations

import copy
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.domain import lifecycle, rights
from tournaments.domain.rulesets import effective_mode
from tournaments.errors import Conflict, ServiceError
from tournaments.models import (
    Event,
    Registration,
    Round,
    Scorecard,
    Seat,
    Table,
)
from tournaments.seating.checker import check_seating
from tournaments.services import audit, messages, table_links
from tournaments.services.events import event_status_follow
from tournaments.services.scorecards import refresh_carried_totals
from tournaments.services.validation import required_reason


@transaction.atomic
def round_store(*, event: Event, number: int, seating_system: str, seed: int,
                tables: list[list[str]], actor: Any, generation_key: str = "",
                byes: list[Any] | None = None, eliminated: list[Any] | None = None,
                notes: list[str] | None = None, repeat_pairs: int = 0,
                sections: list[str] | None = None) -> Round:
    """Store a generated round as a draft: tables of start numbers (as strings) in seat order.

    Idempotent by (event, number): a retry with the same generation key returns the round
    already stored; a different key for an existing number is refused.
    """
    rights.require_organiser(actor, event)
    existing = Round.objects.filter(event=event, number=number).first()
    if existing is not None:
        if generation_key and existing.generation_key == generation_key:
            return existing
        raise Conflict(_("round %(number)s of %(event)s already exists") % {
            "number": number, "event": event.slug}, field="number", code="round_exists")
    regs = {str(r.start_number): r for r in event.registrations.all()}
    errors = []
    seen: set[str] = set()
    for t, table in enumerate(tables, start=1):
        for pid in table:
            if pid not in regs:
                errors.append({"hand": None, "field": f"tables[{t - 1}]", "code": "unknown_player",
                               "message": _("table %(table)s: no registration with start number "
                                            "%(number)s") % {"table": t, "number": pid}})
            elif pid in seen:
                errors.append({"hand": None, "field": f"tables[{t - 1}]", "code": "seated_twice",
                               "message": _("start number %(number)s is seated twice") % {
                                   "number": pid}})
            seen.add(pid)
    if errors:
        raise ServiceError(errors)
    try:
        with transaction.atomic():
            rnd = Round.objects.create(
                event=event, number=number, seating_system=seating_system, seed=seed,
                generation_key=generation_key, byes=byes or [], eliminated=eliminated or [],
                notes=notes or [], repeat_pairs=repeat_pairs,
            )
    except IntegrityError as exc:
        # Someone stored this round between our check and our insert: a concurrent retry.
        existing = Round.objects.filter(event=event, number=number).first()
        if existing is not None and generation_key and existing.generation_key == generation_key:
            return existing
        raise Conflict(_("round %(number)s of %(event)s already exists") % {
            "number": number, "event": event.slug}, field="number", code="round_exists") from exc
    _store_tables(rnd, tables, regs, sections)
    # The sheets of a draft may be printed before it is published: they carry the links.
    table_links.links_ensure(rnd=rnd, actor=actor)
    audit.record(actor=actor, action="round.create", target=rnd, event=event,
                 after={"tables": tables, "seed": seed, "system": seating_system})
    return rnd


def _store_tables(rnd: Round, tables: list[list[str]], regs: dict[str, Registration],
                  sections: list[str] | None) -> None:
    # Three inserts and one read whatever the number of tables.
    event = rnd.event
    mode = effective_mode(event.ruleset_code, event.ruleset_mode)
    sections = sections or [""] * len(tables)
    Table.objects.bulk_create(Table(round=rnd, number=t, section=sections[t - 1])
                              for t in range(1, len(tables) + 1))
    stored = {table.number: table for table in rnd.tables.all()}
    Seat.objects.bulk_create(
        Seat(round=rnd, table=stored[t], registration=regs[pid], position=pos)
        for t, player_ids in enumerate(tables, start=1) for pos, pid in enumerate(player_ids)
    )
    cards = [Scorecard(table=stored[t], ruleset_code=event.ruleset_code, ruleset_mode=mode,
                       ruleset_options=copy.deepcopy(event.ruleset_options),
                       player_ids=list(player_ids))
             for t, player_ids in enumerate(tables, start=1)]
    for card in cards:
        _lone_card_fill(card)
    Scorecard.objects.bulk_create(cards)


def _lone_card_fill(card: Scorecard) -> None:
    """A table of one (seed 000 §4.1 b: "prijavilo se je 41 tekmovalcev --> za 11. mizo je en
    sam tekmovalec") plays no hand: its card is confirmed as it is made, with a score of 0,
    and the player takes his table points ("če je sam: 4 − (0.333+0.333+0.333) = 3")."""
    if len(card.player_ids) == 1:
        card.status = Scorecard.Status.CONFIRMED
        card.totals = {card.player_ids[0]: 0}


@transaction.atomic
def round_swap_players(*, rnd: Round, first: str, second: str, actor: Any) -> Round:
    """Swap two players' seats in a draft round (start numbers as strings)."""
    rights.require_organiser(actor, rnd.event)
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.status != Round.Status.DRAFT:
        raise ServiceError(_("only a draft round can be edited"), field="round", code="round_not_draft")
    seats = {str(s.registration.start_number): s
             for s in rnd.seats.select_related("registration", "table")}
    for pid in (first, second):
        if pid not in seats:
            raise ServiceError(_("start number %(number)s is not seated in round %(round)s") % {
                "number": pid, "round": rnd.number}, field="players", code="not_seated")
    a, b = seats[first], seats[second]
    for table in sorted({a.table.pk: a.table, b.table.pk: b.table}.values(), key=lambda t: t.number):
        card = table.scorecard
        entered = card.hands.count() + card.money_rows.count()
        if entered and a.table.pk != b.table.pk:
            # Refused rather than cleared: the entries are results, and deleting them is an
            # act of its own (delete the hands, or annul the table), never a side effect.
            raise ServiceError(
                _("table %(table)s already has %(count)s entries on its scorecard: delete them "
                  "(or annul the table) before swapping its players") % {
                    "table": table.number, "count": entered},
                field="players", code="table_has_results")
    before = {"first": [a.table.number, a.position], "second": [b.table.number, b.position]}
    a_table, a_pos, b_table, b_pos = a.table, a.position, b.table, b.position
    # Park one seat out of the way first: (table, position) is unique at every moment.
    a.table, a.position = b_table, 999
    a.save(update_fields=["table", "position"])
    b.table, b.position = a_table, a_pos
    b.save(update_fields=["table", "position"])
    a.position = b_pos
    a.save(update_fields=["position"])
    for table in {a_table.pk: a_table, b_table.pk: b_table}.values():
        card = table.scorecard
        card.player_ids = [str(s.registration.start_number)
                           for s in table.seats.select_related("registration").order_by("position")]
        _lone_card_fill(card)
        card.save(update_fields=["player_ids", "status", "totals", "updated_at"])
    rnd.seating_version += 1
    rnd.notes = [n for n in rnd.notes if not is_checker_note(n)] + [
        _checker_note(v) for v in seating_violations(rnd)]
    rnd.save(update_fields=["seating_version", "notes"])
    audit.record(actor=actor, action="round.swap", target=rnd, event=rnd.event, before=before,
                 after={"first": [b_table.number, b_pos], "second": [a_table.number, a_pos]})
    return rnd


CHECKER_NOTE = "checker: "
CHECKER_CODE = "checker"


def _checker_note(violation: dict[str, Any]) -> dict[str, Any]:
    """The checker's words on a swapped round, as a note like the engine's: code "checker",
    the violation's code and params (for the reader's language) and its English text."""
    params = {**violation.get("params", {}), "violation": violation["code"]}
    return {"code": CHECKER_CODE, "params": params, "text": f"{CHECKER_NOTE}{violation['message']}"}


def is_checker_note(note: Any) -> bool:
    """The checker's words on a swapped round (a round swapped before they had a code keeps
    them as plain strings)."""
    if isinstance(note, dict):
        return note.get("code") == CHECKER_CODE
    return isinstance(note, str) and note.startswith(CHECKER_NOTE)


def seating_violations(rnd: Round) -> list[dict[str, Any]]:
    """What the independent checker says of a stored round, against the request the round
    was (or would have been) generated from. An organiser may keep a swap that breaks a rule;
    the round then carries the checker's words so nobody is surprised."""
    request = selectors.seating_request(rnd.event, rnd.number, rnd.seed)
    request["system"] = rnd.seating_system
    tables = [[str(s.registration.start_number) for s in t.seats.order_by("position")]
              for t in rnd.tables.order_by("number").prefetch_related("seats__registration")]
    result = {"tables": tables, "byes": rnd.byes, "eliminated": rnd.eliminated,
              "repeat_pairs": rnd.repeat_pairs, "notes": []}
    return check_seating(request, result)


@transaction.atomic
def round_publish(*, rnd: Round, actor: Any) -> Round:
    rights.require_organiser(actor, rnd.event)
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if not lifecycle.round_may_move(rnd.status, Round.Status.PUBLISHED):
        raise ServiceError(_("the round is already published"), field="round", code="round_not_draft")
    rnd.status = Round.Status.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    table_links.links_ensure(rnd=rnd, actor=actor)
    audit.record(actor=actor, action="round.publish", target=rnd, event=rnd.event,
                 after={"status": rnd.status})
    # Sent by a job once this commits: a mail server that is slow or down never holds it up.
    messages.round_messages_queue(rnd=rnd)
    event_status_follow(rnd.event, lifecycle.status_after_publish(rnd.event), actor=actor)
    return rnd


@transaction.atomic
def round_start_clock(*, rnd: Round, actor: Any) -> Round:
    """Start the clock of a published round: the tables play from now on, and the pages count
    the round's duration from this moment."""
    rights.require_organiser(actor, rnd.event)
    rnd = Round.objects.select_for_update().select_related("event").get(pk=rnd.pk)
    if rnd.status == Round.Status.DRAFT:
        raise ServiceError(_("publish the round before starting its clock"), field="round",
                           code="round_not_published")
    if rnd.status == Round.Status.PLAYING:
        raise ServiceError(_("the clock of round %(number)s is already running") % {"number": rnd.number},
                           field="round", code="clock_running")
    if rnd.status == Round.Status.CLOSED:
        raise ServiceError(_("round %(number)s is closed") % {"number": rnd.number}, field="round",
                           code="round_closed")
    before = rnd.status
    rnd.status = Round.Status.PLAYING
    rnd.clock_started_at = timezone.now()
    rnd.save(update_fields=["status", "clock_started_at"])
    audit.record(actor=actor, action="round.start_clock", target=rnd, event=rnd.event,
                 before={"status": before},
                 after={"status": rnd.status, "clock_started_at": rnd.clock_started_at.isoformat()})
    return rnd


@transaction.atomic
def round_unpublish(*, rnd: Round, actor: Any, reason: str) -> Round:
    """Take a published round back to a draft (a seating published by mistake), before its
    tables have written anything (lifecycle.unpublish_refusal); its table links stay, and
    work again when it is published again. The e-mails its publication sent are not unsent."""
    rnd, reason = _undo_checked(rnd, actor, reason, lifecycle.unpublish_refusal,
                                "round_not_unpublishable")
    before = rnd.status
    rnd.status, rnd.published_at, rnd.clock_started_at = Round.Status.DRAFT, None, None
    rnd.save(update_fields=["status", "published_at", "clock_started_at"])
    audit.record(actor=actor, action="round.unpublish", target=rnd, event=rnd.event,
                 before={"status": before}, after={"status": rnd.status}, reason=reason)
    return rnd


@transaction.atomic
def round_reopen(*, rnd: Round, actor: Any, reason: str) -> Round:
    """Open a closed round again (closed too early, a correction that needs the table), while
    no later round is published (lifecycle.reopen_refusal): it plays again, its cards keep
    their state, the carried totals go back to the rounds still closed, and a draft of the
    next round, seated from the standings this round closed with, is discarded."""
    rnd, reason = _undo_checked(rnd, actor, reason, lifecycle.reopen_refusal, "round_not_reopenable")
    event = rnd.event
    drafts = list(event.rounds.filter(number__gt=rnd.number, status=Round.Status.DRAFT)
                  .values_list("number", flat=True))
    event.rounds.filter(number__in=drafts).delete()
    rnd.status = Round.Status.PLAYING if rnd.clock_started_at else Round.Status.PUBLISHED
    rnd.closed_at = None
    rnd.save(update_fields=["status", "closed_at"])
    refresh_carried_totals(event, actor=actor)
    audit.record(actor=actor, action="round.reopen", target=rnd, event=event,
                 before={"status": Round.Status.CLOSED},
                 after={"status": rnd.status, **({"drafts_discarded": drafts} if drafts else {})},
                 reason=reason)
    if event.status == Event.Status.FINISHED:
        event_status_follow(event, Event.Status.RUNNING, actor=actor)
    return rnd


def _undo_checked(rnd: Round, actor: Any, reason: Any, refusal_of: Any, code: str) -> tuple[Round, str]:
    """An undo's checks, before it writes: an organiser, the round locked, a reason, and the
    lifecycle's word that the round may move back now."""
    rights.require_organiser(actor, rnd.event)
    rnd = Round.objects.select_for_update().select_related("event").get(pk=rnd.pk)
    reason = required_reason(reason)
    refusal = refusal_of(rnd)
    if refusal:
        raise ServiceError(refusal, field="round", code=code)
    return rnd, reason
