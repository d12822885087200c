"""Writes of a table's scorecard: hands saved, deleted and checked (each time the card is
scored again by the engine), the card submitted, confirmed, verified or annulled, a money
sheet saved, and the carried totals of the registrations refreshed after a correction."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from tournaments.domain import lifecycle, limits, rights
from tournaments.domain.exact_points import parse_points, points_text
from tournaments.domain.rights import CardAction
from tournaments.domain.rulesets import is_money_ruleset
from tournaments.domain.standings import COUNTED_BY, carried_totals, event_standings, round_totals
from tournaments.errors import Conflict, NotFound, ServiceError
from tournaments.models import (
    Event,
    Hand,
    MoneySheetRow,
    Registration,
    Round,
    Scorecard,
)
from tournaments.services import audit, messages
from tournaments.services.validation import refuse_bad_json, refuse_bad_text


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
            _("the scorecard changed since you read it (version %(expected)s, now %(current)s); "
              "reload and enter the hand again") % {"expected": expected_version,
                                                   "current": locked.version},
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
    # Hands to write, grouped by the fields that changed: a correction of an early hand
    # moves only the running totals of the hands after it, and an update of that one field
    # costs a fraction of rewriting every field of every hand.
    changed: dict[tuple[str, ...], list[Hand]] = {}
    for i, (record, scored) in enumerate(zip(records, result["hands"], strict=True), start=1):
        for p, s in scored["scores"].items():
            running[p] += s
        hand = existing.get(i) or Hand(scorecard=card, number=i)
        new = {"record": record, "value": scored["value"], "scores": scored["scores"],
               "running_totals": dict(running), "state": scored.get("state", {}),
               "lines": scored.get("lines", []), "payout": scored.get("payout")}
        record_changed = hand.pk is None or hand.record != record
        fields = tuple(f for f in _HAND_RESULT_FIELDS if getattr(hand, f) != new[f])
        for field_name, value in new.items():
            setattr(hand, field_name, value)
        if record_changed or i in changed_numbers:
            hand.entered_by, hand.entered_by_seat = _who(actor)
            hand.confirmed_by, hand.confirmed_by_seat = None, None
            hand.confirmed_at = None
            fields += _HAND_ENTRY_FIELDS
        if hand.pk is None:
            hand.save()
        elif fields:
            changed.setdefault(fields, []).append(hand)
        out[i] = hand
    for fields, hands_changed in changed.items():
        Hand.objects.bulk_update(hands_changed, list(fields))
    if len(existing) > len(records):
        card.hands.filter(number__gt=len(records)).delete()
    card.totals = result["totals"]
    card.state = result["hands"][-1].get("state", {}) if result["hands"] else {}
    card.version += 1
    if card.status == Scorecard.Status.SUBMITTED and not rights.is_official(actor, card.table.round.event):
        # The table changed what it handed in: it hands it in again. An official's change (a
        # penalty scored on a hand, a correction) keeps the card as handed in, so that the
        # referee who made it can see it confirmed (issue #33: a renons sent a short card back
        # to the table and the referee could not finish); a change of a confirmed or verified
        # card is an official's correction and keeps the card's state too.
        card.status = Scorecard.Status.OPEN
        card.confirmed_by, card.confirmed_by_seat = None, None
        _card_state_shown(card)
    card.save()
    return out


def _card_state_shown(card: Scorecard) -> None:
    """A card's state changed in a way the standings do not show (handed in, or opened again):
    its round's public page, which shows every card's state, is stale (tournaments.runtime.page_cache)."""
    Round.objects.filter(pk=card.table.round_id).update(cards_version=F("cards_version") + 1)


@transaction.atomic
def hand_save(*, scorecard: Scorecard, number: int, record: dict[str, Any], actor: Any,
              expected_version: int | None, reason: str = "") -> Hand:
    """Enter hand `number` (1-based; the next one appends) or replace it, rescoring the whole
    card because state such as radelci carries forward."""
    refuse_bad_text({"reason": reason}, multiline=("reason",))
    refuse_bad_json(record, "record")
    card = _lock_card(scorecard, expected_version)
    rights.require_card(actor, card, CardAction.ENTER, reason=reason)
    if not isinstance(record, dict):
        raise ServiceError(_("the hand must be an object"), field="hand", code="not_an_object")
    stored = list(card.hands.order_by("number"))
    records = [h.record for h in stored]
    if number < 1 or number > len(records) + 1:
        raise ServiceError(_("hand number must be between 1 and %(last)s") % {"last": len(records) + 1},
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
    refuse_bad_text({"reason": reason}, multiline=("reason",))
    card = _lock_card(scorecard, expected_version)
    rights.require_card(actor, card, CardAction.ENTER, reason=reason)
    hands = list(card.hands.order_by("number"))
    if not 1 <= number <= len(hands):
        raise NotFound(_("hand %(n)s does not exist") % {"n": number}, field="number", code="no_such_hand")
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
        raise ServiceError(_("enter the hands (or the money sheet) before submitting"),
                           field="hands", code="empty_scorecard")
    card.status = Scorecard.Status.SUBMITTED
    card.submitted_by, card.submitted_by_seat = _who(actor)
    card.submitted_by_device = actor.device[:32] if rights.is_table_seat(actor) else ""
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
    audit trail (`tournaments.domain.rights`)."""
    refuse_bad_text({"reason": reason}, multiline=("reason",))
    card = _lock_card(scorecard, None)
    rights.require_card(actor, card, CardAction.CONFIRM, paper_checked=paper_checked, reason=reason)
    off = lifecycle.hand_count_off(card)
    alone = rights.submitted_by_actor(card, actor)
    # Allowed only where the event plays one phone per table: marked for the officials.
    same_phone = rights.on_submitting_phone(card, actor)
    card.status = Scorecard.Status.CONFIRMED
    card.confirmed_by, card.confirmed_by_seat = _who(actor)
    card.confirmed_against_paper = alone
    card.confirmed_on_submitting_phone = same_phone
    card.version += 1
    card.save()
    audit.record(actor=actor, action="scorecard.confirm", target=card, event=card.table.round.event,
                 table=card.table, after={"status": card.status,
                                          **({"compared_with_paper": True} if alone else {}),
                                          **({"confirmed_on_submitting_phone": True}
                                             if same_phone else {}),
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
        raise ServiceError(_("annulling a table's round needs a reason"), field="reason",
                           code="reason_required")
    refuse_bad_text({"reason": reason}, multiline=("reason",))
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
    refuse_bad_text({"reason": reason}, multiline=("reason",))
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
        raise ServiceError(_("not at this table: %(players)s") % {"players": ", ".join(sorted(unknown))},
                           field="players", code="unknown_player")
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


class Carried(NamedTuple):
    """A registration's carried totals as refresh_carried_totals writes them."""
    pk: int
    start_number: int
    tournament_points: Fraction
    score: int


@transaction.atomic
def _write_totals(changed: list[Carried]) -> None:
    """Store the carried totals of `changed` in one statement. On PostgreSQL a join with the
    new values: Django's bulk_update writes one CASE branch per row for each row, which at
    1,024 players is a million comparisons (issue #35: 40 % of closing a round)."""
    if connection.vendor != "postgresql" or len(changed) < 2:
        Registration.objects.bulk_update(
            [Registration(pk=c.pk, tournament_points=c.tournament_points, score=c.score) for c in changed],
            ["tournament_points", "score"])
        return
    table = Registration._meta.db_table
    # Three arrays rather than three parameters a row: psycopg converts a query's parameters
    # in Python, a third of this update's time at 1,024 rows.
    with connection.cursor() as cursor:
        cursor.execute(
            f'UPDATE "{table}" AS r SET tournament_points = v.points, score = v.score '  # noqa: S608 - the model's own table name; values are parameters
            "FROM unnest(%s::bigint[], %s::text[], %s::bigint[]) AS v(id, points, score) "
            "WHERE r.id = v.id",
            [[c.pk for c in changed], [points_text(c.tournament_points) for c in changed],
             [int(c.score) for c in changed]])


@transaction.atomic
def refresh_carried_totals(event: Event, *, actor: Any = None,
                           start_numbers: Iterable[int] | None = None) -> list[Any] | None:
    """Set each registration's carried tournament points and score to what the confirmed
    results of the closed rounds give. Recomputed, never accumulated, so a correction after
    closing (a referee's decision, an annulled table) is carried too. A refresh that changes
    somebody's carried totals is on the audit trail with the old and new values.
    `start_numbers` limits it to the players a change can touch (the four of a corrected
    table, the one of an adjustment); without it every registration is refreshed, and the
    standings' rows it computed up to the last closed round are returned (closing a round
    reads what the round awarded from them), else None.

    The event's row is locked before anything is read that the totals are computed from: two
    refreshes that meet (a referee's correction of a closed round while the organiser closes
    the next one) then run one after the other, the second reading what the first committed.
    Before, the second wrote totals computed without the first's change (a lost update, which
    the archive's check then refused). The event's row, in the order of audit.lock_event;
    the fields the standings count by (standings.COUNTED_BY) are read again with it: a change
    of them that committed while this waited for the lock refreshed the totals by the new
    ones, and the caller's copy of the event has the old."""
    audit.lock_event(event, fresh=sorted(COUNTED_BY))
    return _refreshed(event, actor, start_numbers)


def _refreshed(event: Event, actor: Any, start_numbers: Iterable[int] | None) -> list[Any] | None:
    """refresh_carried_totals, the event's row locked."""
    # Plain values, not model objects: a close reads all 1,024 of a big event.
    registrations = event.registrations.values_list("pk", "start_number", "tournament_points", "score")
    if start_numbers is not None:
        numbers = {n for n in map(limits.whole_number, start_numbers) if n is not None}
        registrations = registrations.filter(start_number__in=numbers)
    last_closed = event.rounds.filter(status=Round.Status.CLOSED).aggregate(m=Max("number"))["m"]
    rows = None
    if start_numbers is not None:
        totals = carried_totals(event, up_to_round=last_closed, start_numbers=numbers)
    elif last_closed is not None:
        rows = event_standings(event, up_to_round=last_closed, with_players=False).rows
        totals = {r.start_number: (r.exact_points, r.score) for r in rows}
    else:
        totals = {}
    _store_totals(event, {(pk, start_number, parse_points(stored_text), stored_score):
                          totals.get(start_number, (Fraction(0), 0))
                          for pk, start_number, stored_text, stored_score in registrations}, actor)
    return rows


@transaction.atomic
def carry_closed_round(event: Event, number: int, *, actor: Any = None) -> dict[int, tuple[Fraction, int]]:
    """Closing round `number` (the last closed, as the lifecycle closes rounds in order) adds
    what its counted cards give their players to their carried totals; returns
    {start number: (table points, score)} of what the round awarded.

    Added, not recomputed from every closed round (issue #35: at the fourth close of a
    1,024-player event the cards of three rounds were placed again, for totals they already
    gave). That is exact because the stored totals are the standings up to the last closed
    round at every commit: every change that moves them refreshes them (a correction or
    annulment of a closed round's card, an adjustment, a status change, a change of how the
    tables are counted, a reopened round) and an archive's import checks them. The first
    close, and a withdrawn player of this round (with no line before it, he carried nothing,
    his adjustments neither), are computed whole as refresh_carried_totals does; so is a close
    with a published round below it still open, which the lifecycle never leaves but an
    imported archive may (what such a round's cards give is not among what is stored)."""
    audit.lock_event(event, fresh=sorted(COUNTED_BY))  # as refresh_carried_totals locks and reads it
    below = set(event.rounds.filter(number__lt=number).filter(lifecycle.published_rounds_q())
                .values_list("status", flat=True))
    if below != {Round.Status.CLOSED}:
        rows = _refreshed(event, actor, None) or []
        return {r.start_number: r.exact_per_round[number] for r in rows if number in r.exact_per_round}
    awarded = round_totals(event, number)
    # All of them, filtered here: nearly every registration played the round, and a list of
    # 1,024 start numbers as query parameters costs more than the rows it would leave out.
    registrations = [r for r in event.registrations.values_list(
        "pk", "start_number", "tournament_points", "score", "status") if str(r[1]) in awarded]
    withdrawn = {start for _pk, start, _points, _score, status in registrations
                 if status == Registration.Status.WITHDRAWN}
    whole = carried_totals(event, up_to_round=number, start_numbers=withdrawn) if withdrawn else {}
    new = {}
    for pk, start, stored_text, stored_score, _status in registrations:
        stored, (points, score) = parse_points(stored_text), awarded[str(start)]
        new[(pk, start, stored, stored_score)] = whole[start] if start in whole else (
            stored + points, stored_score + score)
    _store_totals(event, new, actor)
    return {start: awarded[str(start)] for _pk, start, *_rest in registrations}


def _store_totals(event: Event, totals: dict[tuple[int, int, Fraction, int], tuple[Fraction, int]],
                  actor: Any) -> None:
    """Write the carried totals {(pk, start number, stored points, stored score): (points,
    score)} that differ from the stored ones, with one audit entry of their old and new
    values."""
    before: dict[str, list[Any]] = {}
    after: dict[str, list[Any]] = {}
    changed = []
    for (pk, start_number, stored, stored_score), (points, score) in totals.items():
        if stored != points or stored_score != score:
            before[str(start_number)] = [points_text(stored), stored_score]
            after[str(start_number)] = [points_text(points), score]
            changed.append(Carried(pk, start_number, points, score))
    # Only the registrations whose totals moved: a correction at one table of a 1,024-player
    # event writes four rows, not all of them.
    if changed:
        _write_totals(changed)
    if after:
        audit.record(actor=actor, action="standings.refresh", target=event, event=event,
                     before=before, after=after)


def _after_result_change(card: Scorecard, actor: Any = None) -> None:
    if lifecycle.is_correction(card):
        # Its players who asked are told by e-mail, once the correction commits.
        messages.card_messages_queue(card=card)
    if card.table.round.status == Round.Status.CLOSED:
        # A card's result moves the carried totals of its own players only.
        refresh_carried_totals(card.table.round.event, actor=actor, start_numbers=card.player_ids)
