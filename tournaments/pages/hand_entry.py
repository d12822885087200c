"""A table's card on a page, shared by the officials' table page, the referee's correction
page and the players' table link: what both table pages show of the card (`card_page`, each
page adding only its own buttons), the hand form of a table's ruleset with the next hand's
dealer and resting player filled in, and the engine's live check of the hand being typed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import selectors
from tournaments.domain import lifecycle, limits, rights
from tournaments.domain.rights import CardAction
from tournaments.forms import HandForm, MoneySheetForm, entry_context, hand_feedback
from tournaments.models import Scorecard, Table
from tournaments.pages.common import seat_labels, sheet_context


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


def card_actions(actor: Any, table: Table, sheet: dict[str, Any]) -> dict[str, Any]:
    """What `actor` may do with the table's card now, as every page that shows the card offers
    it (the table's entry page, the referee's page): submit it, confirm it (with a reason when
    it has fewer or more hands than the round plays; alone, against the paper sheet, where the
    event lets officials confirm alone)."""
    event, card = table.round.event, sheet["card"]
    return {
        "can_submit": rights.may(actor, card, CardAction.SUBMIT, table=table) and bool(
            sheet["hands"] or sheet["money_rows"]),
        "can_confirm_card": rights.may(actor, card, CardAction.CONFIRM, table=table),
        "can_confirm_alone": rights.submitted_by_actor(card, actor) and rights.card_refusal(
            actor, card, CardAction.CONFIRM, table=table, paper_checked=True) is None,
        # A card of fewer or more hands than the round plays is the referee's to confirm,
        # with a reason (tournaments.domain.rights).
        "hand_count_off": (lifecycle.hand_count_off(card, event)
                           if card.status == Scorecard.Status.SUBMITTED else None),
        "short_of_hands": (not sheet["money"] and len(sheet["hands"]) < event.hands_per_round),
    }


def card_page(actor: Any, table: Table, *, new_hand: Callable[[Scorecard], bool],
              form: HandForm | None = None, money_form: MoneySheetForm | None = None
              ) -> dict[str, Any]:
    """What both table pages show of a table's card, as `actor` may act on it: the sheet so
    far, the form of the next hand (when `new_hand(card)` says this page offers one) or the
    money sheet's, and whether he may submit or confirm the card. Each page adds its own."""
    event = table.round.event
    sheet = sheet_context(table, event=event)
    card = sheet["card"]
    next_number = len(sheet["hands"]) + 1
    if sheet["money"]:
        rows = {str(r.registration.start_number): (r.bought_haler, r.money_haler)
                for r in sheet["money_rows"]}
        money_form = money_form or MoneySheetForm(players=sheet["players"], rows=rows)
    elif form is None and new_hand(card):
        form = hand_form(table, card, number=next_number)
    return {
        "event": event, "round": table.round, "table": table, **sheet,
        "form": form, "money_form": money_form, "next_number": next_number,
        **card_actions(actor, table, sheet),
        "game_fields": form.ctx.game_fields_json() if form else {},
        "penalties": list(selectors.penalties_of_table(table)),
    }
