"""Every write of the tournament domain: validate first, then change the database in one
transaction and leave an audit entry for every change of results, seating, penalties,
disputes and standings.

Views, serializers, management commands and Celery tasks call these functions and only
these; they never save models themselves.
"""

from __future__ import annotations

import copy
import csv
import datetime as dt
import io
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from scoring import rules
from tournaments import audit, lifecycle, limits, rights, search, selectors, table_links
from tournaments.countries import country_code
from tournaments.errors import Conflict, Forbidden, NotFound, ServiceError, validation_errors
from tournaments.models import (
    Dispute,
    Event,
    Hand,
    MoneySheetRow,
    Penalty,
    Player,
    Registration,
    Round,
    Scorecard,
    Seat,
    StandingsAdjustment,
    Table,
)
from tournaments.rights import CardAction
from tournaments.rulesets import effective_mode, is_money_ruleset, ruleset_config_errors
from tournaments.seating_options import seating_option_errors

# ---------------------------------------------------------------------------------------
# Players, events, registrations
# ---------------------------------------------------------------------------------------

EVENT_FIELDS = {
    "name", "slug", "venue", "starts_on", "ends_on", "time_zone", "language", "ruleset_code",
    "ruleset_mode", "ruleset_options", "seating_system", "seating_options", "planned_rounds",
    "hands_per_round", "round_duration_minutes", "table_size", "min_table_size", "stake_haler",
    "status", "is_public", "card_confirmation", "seating_pool", "rated",
}


def _field_errors(exc: ValidationError) -> list[dict[str, Any]]:
    return validation_errors(exc)


def _full_clean(obj: Any, **kwargs: Any) -> None:
    try:
        obj.full_clean(**kwargs)
    except ValidationError as exc:
        raise ServiceError(_field_errors(exc)) from exc


def _refuse_bad_text(values: dict[str, Any], *, multiline: tuple[str, ...] = ()) -> None:
    """Refuse texts that no field may store: NUL, control and invisible characters
    (tournaments.limits), naming the field."""
    errors = limits.text_errors(values, multiline=set(multiline))
    if errors:
        raise ServiceError(errors)


def _refuse_bad_json(value: Any, field: str) -> None:
    errors = limits.json_problems(value, field)
    if errors:
        raise ServiceError(errors)


@transaction.atomic
def player_create(*, first_name: str, last_name: str, club: str = "", country: str = "",
                  federation_id: str = "", user: Any = None, actor: Any = None) -> Player:
    if not rights.can_manage_players(actor):
        raise Forbidden(_("only event organisers may add players to the registry"),
                        code="not_organiser")
    player = Player(first_name=first_name.strip(), last_name=last_name.strip(), club=club.strip(),
                    country=country.strip().upper(), federation_id=federation_id.strip(), user=user)
    _full_clean(player)
    player.save()
    # Who entered a player into the registry is on record, like every other write.
    audit.record(actor=actor, action="player.create", target=player,
                 after={"name": str(player), "club": player.club,
                        "federation_id": player.federation_id})
    return player


@transaction.atomic
def event_create(*, actor: Any, organisers: list[Any] | None = None, **fields: Any) -> Event:
    if not rights.can_create_events(actor):
        raise Forbidden(_("you may not create events"), code="not_allowed")
    unknown = set(fields) - EVENT_FIELDS
    if unknown:
        raise ServiceError(f"unknown event fields: {', '.join(sorted(unknown))}")
    event = Event(**fields)
    event.ruleset_mode = effective_mode(event.ruleset_code, event.ruleset_mode)
    _check_event(event)
    event.save()
    for user in organisers or ([actor] if getattr(actor, "is_authenticated", False) else []):
        event.organisers.add(user)
    audit.record(actor=actor, action="event.create", target=event, event=event,
                 after={"name": event.name, "ruleset": event.ruleset_code})
    return event


@transaction.atomic
def event_update(*, event: Event, actor: Any, **fields: Any) -> Event:
    rights.require_organiser(actor, event)
    unknown = set(fields) - EVENT_FIELDS
    if unknown:
        raise ServiceError(f"unknown event fields: {', '.join(sorted(unknown))}")
    rules_fields = {"ruleset_code", "ruleset_mode", "ruleset_options"} & set(fields)
    if rules_fields and Scorecard.objects.filter(table__round__event=event).exists():
        raise ServiceError("the ruleset cannot change once scorecards exist",
                           field=sorted(rules_fields)[0], code="ruleset_locked")
    before = {k: _jsonable(getattr(event, k)) for k in fields}
    for k, v in fields.items():
        setattr(event, k, v)
    event.ruleset_mode = effective_mode(event.ruleset_code, event.ruleset_mode)
    _check_event(event)
    event.save()
    audit.record(actor=actor, action="event.update", target=event, event=event, before=before,
                 after={k: _jsonable(getattr(event, k)) for k in fields})
    return event


def _check_event(event: Event) -> None:
    problems = ruleset_config_errors(event.ruleset_code, event.ruleset_mode, event.ruleset_options)
    errors = [{"hand": None, "field": f, "code": "invalid_ruleset", "message": m}
              for f, ms in problems.items() for m in ms]
    if is_money_ruleset(event.ruleset_code) and not event.stake_haler:
        errors.append({"hand": None, "field": "stake_haler", "code": "required",
                       "message": "a money ruleset needs the stake per player"})
    errors.extend(seating_option_errors(event.seating_system, event.seating_options))
    if event.min_table_size == 1 and event.seating_system != "points":
        errors.append({"hand": None, "field": "min_table_size", "code": "lone_player_points_only",
                       "message": _("a table of one player is for the points system only (seed "
                                    "000 §4.1 b); the smallest table of other systems seats at "
                                    "least 2")})
    errors.extend(limits.json_problems(event.ruleset_options, "ruleset_options"))
    try:
        event.full_clean(exclude=["organisers", "referees"])
    except ValidationError as exc:
        errors.extend(e for e in _field_errors(exc) if not e["field"].startswith("ruleset"))
    if errors:
        raise ServiceError(errors)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


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
        raise ServiceError(f"{player} is already registered", field="player", code="already_registered")
    if event.registrations.filter(start_number=start_number).exists():
        raise ServiceError(f"start number {start_number} is taken", field="start_number",
                           code="start_number_taken")
    reg = Registration(event=event, player=player, start_number=start_number, status=status)
    _full_clean(reg, exclude=["event", "player"])
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
        raise ServiceError(f"unknown status {status!r}", field="status", code="invalid_choice")
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


# ---------------------------------------------------------------------------------------
# Rounds and seating
# ---------------------------------------------------------------------------------------

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
        raise Conflict(f"round {number} of {event.slug} already exists", field="number",
                       code="round_exists")
    regs = {str(r.start_number): r for r in event.registrations.all()}
    errors = []
    seen: set[str] = set()
    for t, table in enumerate(tables, start=1):
        for pid in table:
            if pid not in regs:
                errors.append({"hand": None, "field": f"tables[{t - 1}]", "code": "unknown_player",
                               "message": f"table {t}: no registration with start number {pid}"})
            elif pid in seen:
                errors.append({"hand": None, "field": f"tables[{t - 1}]", "code": "seated_twice",
                               "message": f"start number {pid} is seated twice"})
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
        raise Conflict(f"round {number} of {event.slug} already exists", field="number",
                       code="round_exists") from exc
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
        raise ServiceError("only a draft round can be edited", field="round", code="round_not_draft")
    seats = {str(s.registration.start_number): s
             for s in rnd.seats.select_related("registration", "table")}
    for pid in (first, second):
        if pid not in seats:
            raise ServiceError(f"start number {pid} is not seated in round {rnd.number}",
                               field="players", code="not_seated")
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
        f"{CHECKER_NOTE}{v['message']}" for v in seating_violations(rnd)]
    rnd.save(update_fields=["seating_version", "notes"])
    audit.record(actor=actor, action="round.swap", target=rnd, event=rnd.event, before=before,
                 after={"first": [b_table.number, b_pos], "second": [a_table.number, a_pos]})
    return rnd


CHECKER_NOTE = "checker: "


def is_checker_note(note: Any) -> bool:
    """The checker's words on a swapped round (plain strings; the engine's notes are
    {code, params, text})."""
    return isinstance(note, str) and note.startswith(CHECKER_NOTE)


def seating_violations(rnd: Round) -> list[dict[str, Any]]:
    """What the independent checker says of a stored round, against the request the round
    was (or would have been) generated from. An organiser may keep a swap that breaks a rule;
    the round then carries the checker's words so nobody is surprised."""
    from tournaments.seating.checker import check_seating

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
        raise ServiceError("the round is already published", field="round", code="round_not_draft")
    rnd.status = Round.Status.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    table_links.links_ensure(rnd=rnd, actor=actor)
    audit.record(actor=actor, action="round.publish", target=rnd, event=rnd.event,
                 after={"status": rnd.status})
    event_status_follow(rnd.event, lifecycle.status_after_publish(rnd.event), actor=actor)
    return rnd


def event_status_follow(event: Event, status: str | None, *, actor: Any) -> None:
    """Move the event to the status its rounds imply (lifecycle.status_after_*), audited.
    An organiser's own choice in the event form stands until the next publish or close."""
    if status is None or status == event.status:
        return
    before = event.status
    event.updated_at = timezone.now()
    Event.objects.filter(pk=event.pk).update(status=status, updated_at=event.updated_at)
    event.status = status
    audit.record(actor=actor, action="event.status", target=event, event=event,
                 before={"status": before}, after={"status": status})


# ---------------------------------------------------------------------------------------
# Scorecards and hands
# ---------------------------------------------------------------------------------------

def _card_dict(card: Scorecard, records: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleset": card.ruleset_code,
        "players": list(card.player_ids),
        "hands": records,
    }
    if card.ruleset_mode:
        out["mode"] = card.ruleset_mode
    if card.ruleset_options:
        out["options"] = card.ruleset_options
    return out


def _who(actor: Any) -> tuple[Any, int | None]:
    """(the account, the table-link seat) a write is recorded under; one of them or neither
    (the system)."""
    if rights.is_table_seat(actor):
        return None, actor.start_number
    return (actor if rights.is_signed_in(actor) else None), None


def _lock_card(card: Scorecard, expected_version: int | None) -> Scorecard:
    # The table, round and event come in the same query (every write asks its rights and
    # names its event); only the card's row is locked.
    locked = (Scorecard.objects.select_for_update(of=("self",))
              .select_related("table__round__event").get(pk=card.pk))
    if expected_version is not None and locked.version != expected_version:
        raise Conflict(
            f"the scorecard changed since you read it (version {expected_version}, now "
            f"{locked.version}); reload and enter the hand again",
            field="version", code="stale_version",
        )
    return locked


_HAND_RESULT_FIELDS = ("record", "value", "scores", "running_totals", "state", "lines", "payout")
_HAND_ENTRY_FIELDS = ("entered_by", "entered_by_seat", "confirmed_by", "confirmed_by_seat",
                      "confirmed_at")


def _rescore(card: Scorecard, records: list[dict[str, Any]], actor: Any,
             changed_numbers: set[int], hands: list[Hand] | None = None) -> dict[int, Hand]:
    """Evaluate the whole card and store what changed: a hand is written only when its record,
    scores, running totals or state differ from what is stored (a hand typed at the end of a
    card writes one row, not the whole card). `hands` are the card's stored hands when the
    caller has read them. Returns the card's hands by number."""
    try:
        result = scoring.evaluate(_card_dict(card, records))
    except scoring.ScorecardInvalid as exc:
        raise ServiceError(exc.errors) from exc
    existing = {h.number: h for h in (card.hands.all() if hands is None else hands)}
    running = {p: 0 for p in card.player_ids}
    out: dict[int, Hand] = {}
    changed: list[Hand] = []
    entry_changed = False
    for i, (record, scored) in enumerate(zip(records, result["hands"], strict=True), start=1):
        for p, s in scored["scores"].items():
            running[p] += s
        hand = existing.get(i) or Hand(scorecard=card, number=i)
        new = {"record": record, "value": scored["value"], "scores": scored["scores"],
               "running_totals": dict(running), "state": scored.get("state", {}),
               "lines": scored.get("lines", []), "payout": scored.get("payout")}
        record_changed = hand.pk is None or hand.record != record
        dirty = hand.pk is None or any(getattr(hand, f) != v for f, v in new.items())
        for field_name, value in new.items():
            setattr(hand, field_name, value)
        if record_changed or i in changed_numbers:
            hand.entered_by, hand.entered_by_seat = _who(actor)
            hand.confirmed_by, hand.confirmed_by_seat = None, None
            hand.confirmed_at = None
            dirty = entry_changed = True
        if hand.pk is None:
            hand.save()
        elif dirty:
            changed.append(hand)
        out[i] = hand
    if changed:
        fields = _HAND_RESULT_FIELDS + (_HAND_ENTRY_FIELDS if entry_changed else ())
        Hand.objects.bulk_update(changed, fields)
    if len(existing) > len(records):
        card.hands.filter(number__gt=len(records)).delete()
    card.totals = result["totals"]
    card.state = result["hands"][-1].get("state", {}) if result["hands"] else {}
    card.version += 1
    if card.status == Scorecard.Status.SUBMITTED:
        # The table changed what it handed in: it hands it in again. A change of a confirmed
        # or verified card is an official's correction and keeps the card's state.
        card.status = Scorecard.Status.OPEN
        card.confirmed_by, card.confirmed_by_seat = None, None
        _card_state_shown(card)
    card.save()
    return out


def _card_state_shown(card: Scorecard) -> None:
    """A card's state changed in a way the standings do not show (handed in, or opened again):
    its round's public page, which shows every card's state, is stale (tournaments.page_cache)."""
    Round.objects.filter(pk=card.table.round_id).update(cards_version=F("cards_version") + 1)


@transaction.atomic
def hand_save(*, scorecard: Scorecard, number: int, record: dict[str, Any], actor: Any,
              expected_version: int | None, reason: str = "") -> Hand:
    """Enter hand `number` (1-based; the next one appends) or replace it, rescoring the whole
    card because state such as radelci carries forward."""
    _refuse_bad_text({"reason": reason}, multiline=("reason",))
    _refuse_bad_json(record, "record")
    card = _lock_card(scorecard, expected_version)
    rights.require_card(actor, card, CardAction.ENTER, reason=reason)
    if not isinstance(record, dict):
        raise ServiceError("the hand must be an object", field="hand", code="not_an_object")
    stored = list(card.hands.order_by("number"))
    records = [h.record for h in stored]
    if number < 1 or number > len(records) + 1:
        raise ServiceError(f"hand number must be between 1 and {len(records) + 1}",
                           field="number", code="hand_number_out_of_range")
    before = records[number - 1] if number <= len(records) else None
    if number <= len(records):
        records[number - 1] = record
    else:
        records.append(record)
    hand = _rescore(card, records, actor, {number}, stored)[number]
    _after_result_change(card, actor)
    # Typing a hand changes the table's page (the card's version), not the standings: only a
    # correction of a card that counts does.
    audit.record(actor=actor, action="hand.update" if before is not None else "hand.create",
                 target=hand, event=card.table.round.event, table=card.table, before=before,
                 after=record, reason=reason, event_pages=lifecycle.counts(card))
    return hand


@transaction.atomic
def hand_delete(*, scorecard: Scorecard, number: int, actor: Any, expected_version: int | None,
                reason: str = "") -> None:
    _refuse_bad_text({"reason": reason}, multiline=("reason",))
    card = _lock_card(scorecard, expected_version)
    rights.require_card(actor, card, CardAction.ENTER, reason=reason)
    hands = list(card.hands.order_by("number"))
    if not 1 <= number <= len(hands):
        raise NotFound(f"hand {number} does not exist", field="number", code="no_such_hand")
    removed = hands[number - 1]
    records = [h.record for h in hands if h.number != number]
    _rescore(card, records, actor, set(), hands)
    _after_result_change(card, actor)
    audit.record(actor=actor, action="hand.delete", target=card, event=card.table.round.event,
                 table=card.table, before=removed.record, after=None, reason=reason,
                 event_pages=lifecycle.counts(card))


@transaction.atomic
def hand_confirm(*, hand: Hand, actor: Any) -> Hand:
    hand = Hand.objects.select_for_update().select_related("scorecard__table__round__event").get(pk=hand.pk)
    rights.require_card(actor, hand.scorecard, CardAction.CONFIRM_HAND)
    if rights.entered_by_actor(hand, actor):
        raise ServiceError(_("a hand is confirmed by a second person, not the one who entered it"),
                           field="confirmed_by", code="same_person")
    hand.confirmed_by, hand.confirmed_by_seat = _who(actor)
    hand.confirmed_at = timezone.now()
    hand.save(update_fields=["confirmed_by", "confirmed_by_seat", "confirmed_at"])
    # No public page shows a hand's confirmation (only the officials' and the table's own
    # pages, never cached): the cached pages stay.
    audit.record(actor=actor, action="hand.confirm", target=hand,
                 event=hand.scorecard.table.round.event, table=hand.scorecard.table,
                 event_pages=lifecycle.counts(hand.scorecard))
    return hand


@transaction.atomic
def scorecard_submit(*, scorecard: Scorecard, actor: Any, expected_version: int | None = None) -> Scorecard:
    """The table hands in its card: the first layer of verification."""
    card = _lock_card(scorecard, expected_version)
    rights.require_card(actor, card, CardAction.SUBMIT)
    event = card.table.round.event
    entered = card.hands.count() if not is_money_ruleset(card.ruleset_code) else card.money_rows.count()
    if entered == 0:
        raise ServiceError("enter the hands (or the money sheet) before submitting",
                           field="hands", code="empty_scorecard")
    card.status = Scorecard.Status.SUBMITTED
    card.submitted_by, card.submitted_by_seat = _who(actor)
    card.version += 1
    card.save()
    _card_state_shown(card)
    # Still pending in the standings, as it was: only the round's and the table's pages change.
    audit.record(actor=actor, action="scorecard.submit", target=card, event=event, table=card.table,
                 after={"status": card.status, "hands": entered}, event_pages=False)
    return card


@transaction.atomic
def scorecard_confirm(*, scorecard: Scorecard, actor: Any, paper_checked: bool = False,
                      reason: str = "") -> Scorecard:
    """A second person (a player of the table or an official) confirms the submitted card; in
    an event whose officials confirm alone, an official who compared the card with the signed
    paper sheet (`paper_checked`) may confirm the card he entered himself. A card with fewer or
    more hands than the event plays is confirmed by an official, with a `reason` kept in the
    audit trail (`tournaments.rights`)."""
    _refuse_bad_text({"reason": reason}, multiline=("reason",))
    card = _lock_card(scorecard, None)
    rights.require_card(actor, card, CardAction.CONFIRM, paper_checked=paper_checked, reason=reason)
    off = lifecycle.hand_count_off(card)
    alone = rights.submitted_by_actor(card, actor)
    card.status = Scorecard.Status.CONFIRMED
    card.confirmed_by, card.confirmed_by_seat = _who(actor)
    card.confirmed_against_paper = alone
    card.version += 1
    card.save()
    audit.record(actor=actor, action="scorecard.confirm", target=card, event=card.table.round.event,
                 table=card.table, after={"status": card.status,
                                          **({"compared_with_paper": True} if alone else {}),
                                          **({"hands": off[0], "hands_per_round": off[1]}
                                             if off else {})},
                 reason=reason.strip() if off else "")
    return card


@transaction.atomic
def scorecard_verify(*, scorecard: Scorecard, actor: Any) -> Scorecard:
    """An official has checked a confirmed card: the last layer of verification."""
    card = _lock_card(scorecard, None)
    rights.require_card(actor, card, CardAction.VERIFY)
    card.status = Scorecard.Status.VERIFIED
    card.verified_by = actor if rights.is_signed_in(actor) else None
    card.version += 1
    card.save()
    audit.record(actor=actor, action="scorecard.verify", target=card, event=card.table.round.event,
                 table=card.table, before={"status": Scorecard.Status.CONFIRMED},
                 after={"status": card.status})
    return card


@transaction.atomic
def scorecard_annul(*, scorecard: Scorecard, actor: Any, reason: str) -> Scorecard:
    if not reason.strip():
        raise ServiceError("annulling a table's round needs a reason", field="reason",
                           code="reason_required")
    _refuse_bad_text({"reason": reason}, multiline=("reason",))
    card = _lock_card(scorecard, None)
    rights.require_card(actor, card, CardAction.ANNUL)
    before = card.status
    card.status = Scorecard.Status.ANNULLED
    card.annulled_reason = reason.strip()
    card.version += 1
    card.save()
    _after_result_change(card, actor)
    audit.record(actor=actor, action="scorecard.annul", target=card, event=card.table.round.event,
                 table=card.table, before={"status": before}, after={"status": card.status},
                 reason=reason)
    return card


@transaction.atomic
def money_sheet_save(*, scorecard: Scorecard, rows: dict[str, dict[str, int]], actor: Any,
                     expected_version: int | None, reason: str = "") -> Scorecard:
    """Store a money ruleset's round result: {start number: {"bought": h, "money": h}}."""
    _refuse_bad_text({"reason": reason}, multiline=("reason",))
    card = _lock_card(scorecard, expected_version)
    rights.require_card(actor, card, CardAction.ENTER, reason=reason)
    event = card.table.round.event
    sheet = {
        "table": card.table.number,
        "round": card.table.round.number,
        "stake": event.stake_haler,
        "players": [
            {"player": pid, "bought": (rows.get(pid) or {}).get("bought", 0),
             "money": (rows.get(pid) or {}).get("money")}
            for pid in card.player_ids
        ],
    }
    unknown = set(rows) - set(card.player_ids)
    if unknown:
        raise ServiceError(f"not at this table: {', '.join(sorted(unknown))}", field="players",
                           code="unknown_player")
    try:
        result = scoring.evaluate({"ruleset": card.ruleset_code, "sheet": sheet,
                                   **({"options": card.ruleset_options} if card.ruleset_options else {})})
    except scoring.ScorecardInvalid as exc:
        raise ServiceError(exc.errors) from exc
    regs = {str(s.registration.start_number): s.registration
            for s in card.table.seats.select_related("registration")}
    before = {str(r.registration.start_number): [r.bought_haler, r.money_haler]
              for r in card.money_rows.select_related("registration")}
    for entry in sheet["players"]:
        MoneySheetRow.objects.update_or_create(
            scorecard=card, registration=regs[entry["player"]],
            defaults={"bought_haler": entry["bought"], "money_haler": entry["money"],
                      "result_haler": result["totals"][entry["player"]]},
        )
    card.totals = result["totals"]
    card.version += 1
    card.save()
    _after_result_change(card, actor)
    audit.record(actor=actor, action="money_sheet.save", target=card, event=event, table=card.table,
                 before=before or None, after=sheet, reason=reason,
                 event_pages=lifecycle.counts(card))
    return card


@transaction.atomic
def refresh_carried_totals(event: Event, *, actor: Any = None) -> None:
    """Set each registration's carried tournament points and score to what the confirmed
    results of the closed rounds give. Recomputed, never accumulated, so a correction after
    closing (a referee's decision, an annulled table) is carried too. A refresh that changes
    somebody's carried totals is on the audit trail with the old and new values."""
    last_closed = event.rounds.filter(status=Round.Status.CLOSED).aggregate(m=Max("number"))["m"]
    rows = {}
    if last_closed is not None:
        from tournaments.standings import event_standings

        rows = {r.start_number: r for r in event_standings(event, up_to_round=last_closed).rows}
    before: dict[str, list[Any]] = {}
    after: dict[str, list[Any]] = {}
    changed = []
    for reg in event.registrations.all():
        row = rows.get(reg.start_number)
        old = [str(reg.tournament_points), reg.score]
        reg.tournament_points = row.points if row else Decimal(0)
        reg.score = row.score if row else 0
        new = [str(reg.tournament_points), reg.score]
        if Decimal(old[0]) != reg.tournament_points or old[1] != reg.score:
            before[str(reg.start_number)], after[str(reg.start_number)] = old, new
            changed.append(reg)
    # Only the registrations whose totals moved: a correction at one table of a 1,024-player
    # event writes four rows, not all of them.
    if changed:
        Registration.objects.bulk_update(changed, ["tournament_points", "score"])
    if after:
        audit.record(actor=actor, action="standings.refresh", target=event, event=event,
                     before=before, after=after)


def _after_result_change(card: Scorecard, actor: Any = None) -> None:
    if card.table.round.status == Round.Status.CLOSED:
        refresh_carried_totals(card.table.round.event, actor=actor)


# ---------------------------------------------------------------------------------------
# Penalties, disputes, standings adjustments
# ---------------------------------------------------------------------------------------

@transaction.atomic
def penalty_record(*, table: Table, registration: Registration, kind: str, actor: Any,
                   hand_number: int | None = None, description: str = "") -> Penalty:
    """Record a penalty; on a hand it also enters the hand record so the engine scores it.
    The kind must be one the table's ruleset knows (its list in the scoring registry)."""
    rights.require_official(actor, table.round.event)
    table.round.refresh_from_db(fields=["status"])
    if lifecycle.is_draft(table.round):
        raise ServiceError(_("round %(n)s is not published yet") % {"n": table.round.number},
                           field="round", code="round_not_published")
    _refuse_bad_text({"kind": kind, "description": description}, multiline=("description",))
    card = table.scorecard
    ruleset = rules.get(card.ruleset_code)
    kinds = tuple(ruleset.penalty_kinds) if ruleset is not None else ()
    if kind not in kinds:
        raise ServiceError(
            _("%(kind)s is not a penalty of the ruleset %(ruleset)s (it has: %(kinds)s)") % {
                "kind": kind, "ruleset": card.ruleset_code, "kinds": ", ".join(kinds) or _("none")},
            field="kind", code="unknown_penalty_kind")
    hand = None
    if hand_number is not None:
        hand = card.hands.filter(number=hand_number).first()
        if hand is None:
            raise NotFound(f"hand {hand_number} does not exist", field="hand", code="no_such_hand")
        record = copy.deepcopy(hand.record)
        record.setdefault("penalties", []).append(
            {"kind": kind, "player": str(registration.start_number)})
        hand_save(scorecard=card, number=hand_number, record=record, actor=actor,
                  expected_version=None, reason=description or f"penalty {kind}")
        hand = card.hands.get(number=hand_number)
    penalty = Penalty.objects.create(event=table.round.event, table=table, hand=hand,
                                     registration=registration, kind=kind,
                                     description=description, recorded_by=actor)
    audit.record(actor=actor, action="penalty.record", target=penalty, event=table.round.event,
                 table=table, after={"kind": kind, "player": registration.start_number,
                                     "hand": hand_number}, reason=description)
    return penalty


@transaction.atomic
def dispute_open(*, event: Event, description: str, actor: Any, table: Table | None = None,
                 hand: Hand | None = None, raised_by_name: str = "") -> Dispute:
    """A player of the table or an official raises a dispute about a table (or one of its
    hands); a dispute about the whole event is an official's."""
    if table is None or not rights.sits_at(actor, table):
        rights.require_official(actor, event)
    if table is not None and not rights.can_view_table(actor, table):
        raise NotFound(_("there is no table %(n)s") % {"n": table.number}, field="table",
                       code="not_found")
    if not description.strip():
        raise ServiceError("describe the dispute", field="description", code="required")
    _refuse_bad_text({"description": description, "raised_by_name": raised_by_name},
                     multiline=("description",))
    dispute = Dispute.objects.create(
        event=event, table=table, hand=hand, description=description.strip(),
        raised_by=actor if getattr(actor, "is_authenticated", False) else None,
        raised_by_name=raised_by_name,
    )
    audit.record(actor=actor, action="dispute.open", target=dispute, event=event, table=table,
                 after={"description": dispute.description})
    return dispute


@transaction.atomic
def dispute_decide(*, dispute: Dispute, decision: str, actor: Any, correction: Any = None) -> Dispute:
    rights.require_official(actor, dispute.event)
    dispute = Dispute.objects.select_for_update().get(pk=dispute.pk)
    if dispute.status != Dispute.Status.OPEN:
        raise ServiceError("the dispute is already closed", field="status", code="not_open")
    if not decision.strip():
        raise ServiceError("a decision needs a written reason", field="decision", code="required")
    _refuse_bad_text({"decision": decision}, multiline=("decision",))
    dispute.status = Dispute.Status.DECIDED
    dispute.decision = decision.strip()
    dispute.decided_by = actor
    dispute.decided_at = timezone.now()
    dispute.correction = correction
    dispute.save()
    audit.record(actor=actor, action="dispute.decide", target=dispute, event=dispute.event,
                 table=dispute.table, after={"decision": dispute.decision}, reason=dispute.decision)
    return dispute


@transaction.atomic
def standings_adjust(*, registration: Registration, actor: Any, reason: str,
                     points_delta: Decimal | int = 0, score_delta: int = 0) -> StandingsAdjustment:
    rights.require_official(actor, registration.event)
    if not reason.strip():
        raise ServiceError("an adjustment needs a reason", field="reason", code="required")
    _refuse_bad_text({"reason": reason}, multiline=("reason",))
    errors = limits.bounded_whole("score_delta", score_delta, -limits.MAX_SCORE_ADJUSTMENT,
                                  limits.MAX_SCORE_ADJUSTMENT)
    points = Decimal(points_delta)
    if not points.is_finite() or abs(points) > limits.MAX_POINTS_ADJUSTMENT:
        errors.append({"hand": None, "field": "points_delta", "code": "out_of_range",
                       "message": _("points_delta must be between -%(max)s and %(max)s") % {
                           "max": limits.MAX_POINTS_ADJUSTMENT}})
    if errors:
        raise ServiceError(errors)
    adj = StandingsAdjustment.objects.create(
        event=registration.event, registration=registration, points_delta=Decimal(points_delta),
        score_delta=score_delta, reason=reason.strip(), created_by=actor,
    )
    refresh_carried_totals(registration.event, actor=actor)
    audit.record(actor=actor, action="standings.adjust", target=adj, event=registration.event,
                 after={"points_delta": str(adj.points_delta), "score_delta": score_delta},
                 reason=reason)
    return adj


# ---------------------------------------------------------------------------------------
# Round clock; registrations imported from a CSV file
# ---------------------------------------------------------------------------------------

@transaction.atomic
def round_start_clock(*, rnd: Round, actor: Any) -> Round:
    """Start the clock of a published round: the tables play from now on, and the pages count
    the round's duration from this moment."""
    rights.require_organiser(actor, rnd.event)
    rnd = Round.objects.select_for_update().select_related("event").get(pk=rnd.pk)
    if rnd.status == Round.Status.DRAFT:
        raise ServiceError("publish the round before starting its clock", field="round",
                           code="round_not_published")
    if rnd.status == Round.Status.PLAYING:
        raise ServiceError(f"the clock of round {rnd.number} is already running", field="round",
                           code="clock_running")
    if rnd.status == Round.Status.CLOSED:
        raise ServiceError(f"round {rnd.number} is closed", field="round", code="round_closed")
    before = rnd.status
    rnd.status = Round.Status.PLAYING
    rnd.clock_started_at = timezone.now()
    rnd.save(update_fields=["status", "clock_started_at"])
    audit.record(actor=actor, action="round.start_clock", target=rnd, event=rnd.event,
                 before={"status": before},
                 after={"status": rnd.status, "clock_started_at": rnd.clock_started_at.isoformat()})
    return rnd


PLAYER_IMPORT_COLUMNS = ("first_name", "last_name", "club", "country", "federation_id")
IMPORT_COLUMNS = (*PLAYER_IMPORT_COLUMNS, "start_number", "status")
IMPORT_STATUSES = (Registration.Status.REGISTERED, Registration.Status.CHECKED_IN,
                   Registration.Status.LATE_ENTRY)


def import_error(index: int | None, column: str, code: str, message: str) -> dict[str, Any]:
    field = "header" if index is None else (f"rows[{index}].{column}" if column else f"rows[{index}]")
    return {"hand": None, "field": field, "code": code, "message": message}


def read_import_csv(text: str, columns: tuple[str, ...] = IMPORT_COLUMNS
                    ) -> tuple[list[tuple[int, int, dict[str, str]]], list[dict[str, Any]]]:
    """The data rows of an import file as (row index, file line, {column: value}), or the
    problems of its header. Spreadsheets export with commas, semicolons or tabs; the header
    line says which. `columns` are the columns a file may have (a league season's import
    has its own, leagues.services_import)."""
    text = (text or "").lstrip("\ufeff")
    if not text.strip():
        return [], [import_error(None, "", "empty", "the file is empty")]
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        return [], [import_error(None, "", "invalid_text",
                                  _("line %(line)s: the file contains NUL characters, so it is "
                                    "not a text file") % {"line": line})]
    first_line = text.splitlines()[0]
    # Only the delimiter is taken from the header line; quoting stays the csv module's own
    # (doubled quotes inside quoted cells, "TK ""Kranj"""), which a sniffer reading one plain
    # line cannot see and would switch off.
    try:
        delimiter = csv.Sniffer().sniff(first_line, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(io.StringIO(text), csv.excel, delimiter=delimiter)
    header = [h.strip().lower().replace(" ", "_").replace("-", "_") for h in next(reader)]
    errors = []
    unknown = [h for h in header if h not in columns]
    if unknown:
        errors.append(import_error(None, "", "unknown_column",
                                    f"unknown columns: {', '.join(unknown)} (known: "
                                    f"{', '.join(columns)})"))
    repeated = sorted({h for h in header if header.count(h) > 1})
    if repeated:
        errors.append(import_error(None, "", "repeated_column",
                                    f"columns named twice: {', '.join(repeated)}"))
    missing = [c for c in ("first_name", "last_name") if c not in header]
    if missing:
        errors.append(import_error(None, "", "missing_column",
                                    f"missing columns: {', '.join(missing)}"))
    if errors:
        return [], errors
    rows = []
    index = -1
    try:
        for cells in reader:
            index += 1
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > len(header):
                errors.append(import_error(index, "", "too_many_cells",
                                            f"line {reader.line_num}: {len(cells)} cells, the "
                                            f"header has {len(header)}"))
                continue
            values = {c: "" for c in columns}
            values.update({h: cell.strip() for h, cell in zip(header, cells, strict=False)})
            rows.append((index, reader.line_num, values))
    except csv.Error as exc:
        errors.append(import_error(index + 1, "", "malformed",
                                    f"line {reader.line_num + 1}: not readable as CSV ({exc})"))
    if not rows and not errors:
        errors.append(import_error(None, "", "empty", "the file has a header but no players"))
    return rows, errors


def _plan_import(event: Event, rows: list[tuple[int, int, dict[str, str]]], *,
                 match_names: bool = True) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Check every row against the event and the player registry and decide, per row, the
    player (an existing one or a new one), the start number and the status. A row without a
    federation id is the registry's player of the same name and club, whatever the case and
    diacritics (the search columns, tournaments.search), unless `match_names` is off."""
    errors: list[dict[str, Any]] = []
    taken = set(event.registrations.values_list("start_number", flat=True))
    registered = set(event.registrations.values_list("player_id", flat=True))
    registry = ImportRegistry(rows, match_names=match_names)
    seen_players: dict[Any, int] = {}
    seen_numbers: dict[int, int] = {}
    plan = []
    for index, line, v in rows:
        # Called only within this iteration, so index and line are this row's.
        def bad(column: str, code: str, message: str) -> None:
            errors.append(import_error(index, column, code, f"line {line}: {message}"))  # noqa: B023

        new_player = registry.check_values(v, bad)
        number = None
        if v["start_number"]:
            try:
                number = int(v["start_number"])
            except ValueError:
                number = None
            if number is None or number < 1:
                bad("start_number", "invalid", f"start number must be a whole number from 1, "
                                               f"got {v['start_number']!r}")
                number = None
            elif number in taken:
                bad("start_number", "start_number_taken", f"start number {number} is taken")
            elif number in seen_numbers:
                bad("start_number", "duplicate", f"start number {number} is also on line "
                                                 f"{seen_numbers[number]}")
            else:
                seen_numbers[number] = line
        status = v["status"].lower().replace(" ", "_").replace("-", "_") or Registration.Status.REGISTERED
        if status not in IMPORT_STATUSES:
            bad("status", "invalid_choice", f"status must be one of {', '.join(IMPORT_STATUSES)}, "
                                            f"got {v['status']!r}")
        player, matched_by, key = registry.match(v, bad)
        if player is not None and player.pk in registered:
            bad("last_name", "already_registered", f"{player} is already registered")
        if key in seen_players:
            bad("last_name", "duplicate", f"the same player as on line {seen_players[key]}")
        else:
            seen_players[key] = line
        plan.append({"player": player, "matched_by": matched_by, "start_number": number,
                     "status": status, "new_player": new_player})
    # Rows without a number continue after the highest number in use or named in the file,
    # so that no automatic number collides with a later row's own.
    following = max([*taken, *seen_numbers, 0]) + 1
    for item in plan:
        if item["start_number"] is None:
            item["start_number"] = following
            following += 1
    return plan, errors


class ImportRegistry:
    """The player registry as a CSV import sees it: the checks of a row's player columns
    (first_name, last_name, club, country, federation_id) and the player a row names. Shared
    by an event's registration import and a league season's (leagues.services_import), so
    both find the same player where the other would."""

    def __init__(self, rows: list[tuple[int, int, dict[str, str]]], *, match_names: bool = True) -> None:
        fed_ids = {v["federation_id"] for _, _, v in rows if v["federation_id"]}
        self.by_fed = {p.federation_id: p for p in Player.objects.filter(federation_id__in=fed_ids)}
        names = {search.player_key(v["first_name"], v["last_name"], v["club"])[0]
                 for _, _, v in rows if not v["federation_id"]}
        self.by_name: dict[tuple[str, str], list[Player]] = {}
        for p in Player.objects.filter(search_name__in=names).order_by("pk") if match_names else ():
            self.by_name.setdefault((p.search_name, p.search_club), []).append(p)

    @staticmethod
    def check_values(v: dict[str, str], bad: Any) -> dict[str, str]:
        """Report (through `bad(column, code, message)`) what is wrong with a row's player
        columns; the values of a new player made from the row."""
        missing = [c for c in ("first_name", "last_name") if not v[c]]
        for column in missing:
            bad(column, "required", f"the {column.replace('_', ' ')} is missing")
        country = country_code(v["country"])
        if country is None:
            bad("country", "invalid", _("%(value)s is not a country: give its name or its "
                                        "two-letter code (SI, AT, CZ)") % {"value": v["country"]})
        candidate = Player(first_name=v["first_name"], last_name=v["last_name"], club=v["club"],
                           country=country or "", federation_id=v["federation_id"])
        try:
            candidate.full_clean(exclude=["user", *missing], validate_unique=False,
                                 validate_constraints=False)
        except ValidationError as exc:
            for column, messages in exc.message_dict.items():
                for message in messages:
                    bad(column if column in PLAYER_IMPORT_COLUMNS else "", "invalid", message)
        return {"first_name": v["first_name"], "last_name": v["last_name"], "club": v["club"],
                "country": country or "", "federation_id": v["federation_id"]}

    def match(self, v: dict[str, str], bad: Any) -> tuple[Player | None, str, tuple]:
        """(the registry's player the row names or None, "name" when found by name and club,
        the row's identity for spotting the same person twice in one file)."""
        player = None
        matched_by = ""
        if v["federation_id"]:
            key: tuple = ("federation_id", v["federation_id"])
            player = self.by_fed.get(v["federation_id"])
            if player is not None and v["last_name"] and player.last_name.lower() != v["last_name"].lower():
                bad("federation_id", "federation_id_mismatch",
                    f"federation id {v['federation_id']} belongs to {player}, not "
                    f"{v['first_name']} {v['last_name']}".rstrip())
        else:
            key = ("name", *search.player_key(v["first_name"], v["last_name"], v["club"]))
            matches = self.by_name.get(key[1:], [])
            if len(matches) > 1:
                bad("last_name", "ambiguous_player",
                    f"{len(matches)} players named {v['first_name']} {v['last_name']} of "
                    f"{v['club'] or 'no club'}: add the federation id")
            elif matches:
                player = matches[0]
                matched_by = "name"
        return player, matched_by, key


class ImportedRegistrations(list):
    """The registrations an import created, in the file's order, and the players it found
    in the registry by name and club (`reused`) rather than creating them again."""

    def __init__(self) -> None:
        super().__init__()
        self.reused: list[Player] = []


@transaction.atomic
def registrations_import_csv(*, event: Event, text: str, actor: Any) -> ImportedRegistrations:
    """Register the players of a CSV file (columns first_name, last_name, club, country,
    federation_id, start_number, status; a header line names them).

    All or nothing: every row is checked first, and one bad row refuses the whole file with
    every problem listed as `rows[i].<column>` (i counts data rows from 0, blank lines
    included; each message names the file line too). A row names an existing player by
    federation id, or by first name, last name and club (ignoring case and diacritics: the
    result lists him under `reused`); otherwise a new player is created. The country is a
    code or a name (tournaments.countries). Rows without a start number get the next ones
    after the highest number in use or in the file. Delimiters may be commas, semicolons or
    tabs.
    """
    rights.require_organiser(actor, event)
    # Lock the event so no registration slips in between the check and the writes.
    event = Event.objects.select_for_update().get(pk=event.pk)
    rows, errors = read_import_csv(text)
    plan: list[dict[str, Any]] = []
    if not errors:
        plan, errors = _plan_import(event, rows)
    if errors:
        raise ServiceError(errors)
    created = ImportedRegistrations()
    for item in plan:
        player = item["player"] or player_create(**item["new_player"], actor=actor)
        created.append(registration_create(event=event, player=player, actor=actor,
                                           start_number=item["start_number"],
                                           status=item["status"]))
        if item["matched_by"] == "name":
            created.reused.append(player)
    audit.record(actor=actor, action="registration.import", target=event, event=event,
                 after={"rows": len(created),
                        "start_numbers": [r.start_number for r in created],
                        "reused_players": [p.pk for p in created.reused]})
    return created


# ---------------------------------------------------------------------------------------
# One player added from the organiser's page
# ---------------------------------------------------------------------------------------

@transaction.atomic
def registration_add(*, event: Event, actor: Any, first_name: str, last_name: str,
                     club: str = "", country: str = "", federation_id: str = "",
                     start_number: int | None = None,
                     status: str = Registration.Status.REGISTERED,
                     use_player: Player | None = None, new_player: bool = False) -> Registration:
    """Register one player typed in by the organiser, with the same checks as a row of the
    CSV import: an existing player is found by federation id (or by name and club, ignoring
    case and diacritics) rather than created twice; the start number is the next free one
    unless given. The organiser may settle who it is himself: `use_player`, the registry's
    player to register, or `new_player`, a new player even though one of the same name and
    club exists (a namesake; a federation id still names its owner)."""
    rights.require_organiser(actor, event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    values = {column: "" for column in IMPORT_COLUMNS}
    values.update(first_name=first_name.strip(), last_name=last_name.strip(), club=club.strip(),
                  country=country.strip(), federation_id=federation_id.strip(),
                  start_number=str(start_number) if start_number else "", status=status)
    plan, errors = _plan_import(event, [(0, 1, values)],
                                match_names=use_player is None and not new_player)
    if use_player is not None and event.registrations.filter(player=use_player).exists():
        errors.append({"hand": None, "field": "use_player", "code": "already_registered",
                       "message": _("%(player)s is already registered") % {"player": use_player}})
    if errors:
        raise ServiceError([{**e, "field": e["field"].removeprefix("rows[0]").lstrip(".") or "last_name",
                             "message": e["message"].removeprefix("line 1: ")} for e in errors])
    item = plan[0]
    if use_player is not None:
        item["player"] = use_player
    player = item["player"] or player_create(**item["new_player"], actor=actor)
    return registration_create(event=event, player=player, actor=actor,
                               start_number=item["start_number"], status=item["status"])
