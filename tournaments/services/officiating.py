"""The referee's writes: penalties (scored on their hand by the engine), disputes opened and
decided, and standings adjustments."""

from __future__ import annotations

import copy
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import rules
from tournaments.domain import lifecycle, limits, rights
from tournaments.domain.exact_points import (
    INVALID_MESSAGE,
    POINTS_RANGE_MESSAGE,
    parse_points,
    points_text,
)
from tournaments.errors import NotFound, ServiceError
from tournaments.models import (
    Dispute,
    Event,
    Hand,
    Penalty,
    Registration,
    StandingsAdjustment,
    Table,
)
from tournaments.services import audit, referee_calls
from tournaments.services.scorecards import hand_save, refresh_carried_totals
from tournaments.services.validation import refuse_bad_text


@transaction.atomic
def penalty_record(*, table: Table, registration: Registration, kind: str, actor: Any,
                   hand_number: int | None = None, description: str = "",
                   call_id: int | None = None) -> Penalty:
    """Record a penalty; on a hand it also enters the hand record so the engine scores it.
    The kind must be one the table's ruleset knows (its list in the scoring registry).
    Recorded from a referee call (`call_id`), it resolves that call, linked to the penalty."""
    rights.require_official(actor, table.round.event)
    table.round.refresh_from_db(fields=["status"])
    if lifecycle.is_draft(table.round):
        raise ServiceError(_("round %(n)s is not published yet") % {"n": table.round.number},
                           field="round", code="round_not_published")
    refuse_bad_text({"kind": kind, "description": description}, multiline=("description",))
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
            raise NotFound(_("hand %(n)s does not exist") % {"n": hand_number}, field="hand",
                           code="no_such_hand")
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
    referee_calls.link_outcome(call_id=call_id, table=table, actor=actor, penalty=penalty)
    return penalty


@transaction.atomic
def dispute_open(*, event: Event, description: str, actor: Any, table: Table | None = None,
                 hand: Hand | None = None, raised_by_name: str = "",
                 call_id: int | None = None) -> Dispute:
    """A player of the table or an official raises a dispute about a table (or one of its
    hands); a dispute about the whole event is an official's. Opened by an official from a
    referee call (`call_id`), it resolves that call, linked to the dispute."""
    if table is None or not rights.sits_at(actor, table):
        rights.require_official(actor, event)
    if table is not None and not rights.can_view_table(actor, table):
        raise NotFound(_("there is no table %(n)s") % {"n": table.number}, field="table",
                       code="not_found")
    if not description.strip():
        raise ServiceError(_("describe the dispute"), field="description", code="required")
    refuse_bad_text({"description": description, "raised_by_name": raised_by_name},
                     multiline=("description",))
    dispute = Dispute.objects.create(
        event=event, table=table, hand=hand, description=description.strip(),
        raised_by=actor if getattr(actor, "is_authenticated", False) else None,
        raised_by_name=raised_by_name,
    )
    audit.record(actor=actor, action="dispute.open", target=dispute, event=event, table=table,
                 after={"description": dispute.description})
    if table is not None and rights.is_official(actor, event):
        referee_calls.link_outcome(call_id=call_id, table=table, actor=actor, dispute=dispute)
    return dispute


@transaction.atomic
def dispute_decide(*, dispute: Dispute, decision: str, actor: Any, correction: Any = None) -> Dispute:
    rights.require_official(actor, dispute.event)
    dispute = Dispute.objects.select_for_update().get(pk=dispute.pk)
    if dispute.status != Dispute.Status.OPEN:
        raise ServiceError(_("the dispute is already closed"), field="status", code="not_open")
    if not decision.strip():
        raise ServiceError(_("a decision needs a written reason"), field="decision", code="required")
    refuse_bad_text({"decision": decision}, multiline=("decision",))
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
                     points_delta: Fraction | Decimal | int | str = 0,
                     score_delta: int = 0) -> StandingsAdjustment:
    """Add `points_delta` table points (exact: "1/3" is a third) and `score_delta` to a
    registration's standing, with the reason; the carried totals follow."""
    rights.require_official(actor, registration.event)
    if not reason.strip():
        raise ServiceError(_("an adjustment needs a reason"), field="reason", code="required")
    refuse_bad_text({"reason": reason}, multiline=("reason",))
    errors = limits.bounded_whole("score_delta", score_delta, -limits.MAX_SCORE_ADJUSTMENT,
                                  limits.MAX_SCORE_ADJUSTMENT)
    try:
        points = parse_points(points_delta)
    except ValueError:
        points = None
        errors.append({"hand": None, "field": "points_delta", "code": "invalid",
                       "message": str(INVALID_MESSAGE)})
    if points is not None and abs(points) > limits.MAX_POINTS_ADJUSTMENT:
        errors.append({"hand": None, "field": "points_delta", "code": "out_of_range",
                       "message": str(POINTS_RANGE_MESSAGE) % {
                           "max": limits.MAX_POINTS_ADJUSTMENT}})
    if errors:
        raise ServiceError(errors)
    adj = StandingsAdjustment.objects.create(
        event=registration.event, registration=registration, points_delta=points,
        score_delta=score_delta, reason=reason.strip(), created_by=actor,
    )
    refresh_carried_totals(registration.event, actor=actor, start_numbers=[registration.start_number])
    audit.record(actor=actor, action="standings.adjust", target=adj, event=registration.event,
                 after={"points_delta": points_text(points), "score_delta": score_delta},
                 reason=reason)
    return adj
