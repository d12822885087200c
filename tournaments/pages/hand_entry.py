"""Entering a hand on a page, shared by the organiser's table page, the referee's correction
page and the players' table link: the hand form of a table's ruleset with the next hand's
dealer and resting player filled in, and the engine's live check of the hand being typed."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.domain import limits
from tournaments.forms import HandForm, entry_context, hand_feedback
from tournaments.models import Scorecard, Table
from tournaments.pages.public import seat_labels


def hand_form(table: Table, card: Scorecard, *, data: Any = None, number: int,
              record: dict[str, Any] | None = None) -> HandForm:
    event = table.round.event
    ctx = entry_context(code=card.ruleset_code, mode=card.ruleset_mode, players=seat_labels(table),
                        hands_per_round=event.hands_per_round)
    initial: dict[str, Any] = {"number": number, "version": card.version}
    if record is None:
        turn = ctx.rotation_of(number)
        if turn:
            if ctx.uses_resting and turn.get("resting"):
                initial["resting"] = turn["resting"]
            if "forehand" in ctx.props:
                initial["forehand"] = turn["forehand"]
    return HandForm(data, ctx=ctx, record=record, initial=initial)


def posted_number(request: HttpRequest, card: Scorecard) -> int:
    """The hand number a live check is about: the posted one when it is a number in range,
    else the next hand."""
    count = card.hands.count()
    return limits.whole_number(request.POST.get("number"), low=1, high=count + 1,
                               default=count + 1)


def feedback_response(request: HttpRequest, table: Table) -> HttpResponse:
    """The engine's verdict on the hand in the request, as the fragment the hand form shows."""
    card = table.scorecard
    hand_number = posted_number(request, card)
    form = hand_form(table, card, data=request.POST, number=hand_number)
    slots = form.error_slots()
    if not form.is_valid():
        by_slot = {k: [str(m) for m in v] for k, v in form.errors.items() if k != "__all__"}
        general = [str(m) for m in form.errors.get("__all__", [])]
        feedback: dict[str, Any] = {"ok": False, "by_slot": by_slot, "general": general, "scores": None}
        if "game" in by_slot and not request.POST.get("game"):
            # Nothing chosen yet: say nothing rather than shout at an empty form.
            feedback = {"ok": False, "by_slot": {}, "general": [], "scores": None, "empty": True}
    else:
        records = [h.record for h in card.hands.order_by("number")]
        feedback = hand_feedback(form, code=card.ruleset_code, mode=card.ruleset_mode,
                                 options=card.ruleset_options, records=records, number=hand_number)
    oob = [(slot, feedback["by_slot"].get(slot, [])) for slot in slots]
    return render(request, "tournaments/manage/_hand_feedback.html", {
        "feedback": feedback, "oob": oob, "players": seat_labels(table),
    })
