"""A table's page under /manage/ (/manage/e/<slug>/rounds/<n>/tables/<t>/): an official or a
signed-in player of the table enters the hands, checks them against the engine as they are
typed, submits, confirms, or enters the money sheet; officials also change a hand. The
referee's correction page reuses the hand saving and the hand page from here.

Views parse the request, call one service or selector, and answer; a refused write comes back
as the service's message at the field it names, never as a server error.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import selectors, services
from tournaments.domain import lifecycle, limits, rights
from tournaments.domain.rights import CardAction
from tournaments.errors import Conflict, ServiceError
from tournaments.forms import (
    HandForm,
    MoneySheetForm,
    is_money,
)
from tournaments.models import Hand, Scorecard, Table
from tournaments.pages import hand_entry as hand_entry
from tournaments.pages.public import (
    event_role_required,
    login_redirect,
    raise_refusal,
    seat_labels,
    sheet_context,
    table_or_404,
    viewable_event,
)

organiser_required = event_role_required(rights.is_organiser)



def _table_url(table: Table) -> str:
    return reverse("manage-table", args=[table.round.event.slug, table.round.number, table.number])


def _entry_table(request: HttpRequest, slug: str, number: int, table_number: int) -> Table | HttpResponse:
    """The table if the user may follow its own page: its players and the officials. A table
    of a draft round, or of an event the user may not see, does not exist for him."""
    if not request.user.is_authenticated:
        return login_redirect(request)
    event = viewable_event(request, slug)
    table = table_or_404(event, number, table_number)
    if not rights.can_view_table(request.user, table):
        raise Http404(_("No such table."))
    if not rights.is_table_party(request.user, table):
        raise PermissionDenied(_("Only the players of this table and the officials enter its hands."))
    return table


def _refused(request: HttpRequest, table: Table, action: str, *, reason: str = "-",
             paper_checked: bool = False) -> HttpResponse | None:
    """What the page answers when `tournaments.domain.rights` refuses the action now: 404 or 403 for
    a missing right, the reason as a message on the table page for the card's state."""
    refusal = rights.card_refusal(request.user, table.scorecard, action, reason=reason, table=table,
                                  paper_checked=paper_checked)
    if refusal is None:
        return None
    raise_refusal(refusal.error())
    messages.error(request, refusal.message)
    return redirect(_table_url(table))


def _posted_number(request: HttpRequest, name: str, maximum: int) -> int | None:
    """A whole number posted by the table page (hand number, version), or None when it is
    missing or not a number from 1 to `maximum`; the forms then say what is wrong."""
    return limits.whole_number(request.POST.get(name), low=1, high=maximum)


def _table_page(request: HttpRequest, table: Table, *, form: HandForm | None = None,
                money_form: MoneySheetForm | None = None, status: int = 200) -> HttpResponse:
    event = table.round.event
    sheet = sheet_context(table, event=event)
    card = sheet["card"]
    next_number = len(sheet["hands"]) + 1
    user = request.user
    playable = lifecycle.is_playable(table.round)
    # The table's own page enters while the table writes its card; an official's change of a
    # confirmed or verified card is a correction, made on the referee's page with a reason.
    editable = playable and card.status in lifecycle.TABLE_WRITABLE_CARDS and rights.may(
        user, card, CardAction.ENTER, table=table)
    if sheet["money"]:
        rows = {str(r.registration.start_number): (r.bought_haler, r.money_haler)
                for r in sheet["money_rows"]}
        money_form = money_form or MoneySheetForm(players=sheet["players"], rows=rows)
    elif form is None and editable and card.status == Scorecard.Status.OPEN:
        # A submitted card takes no new hand: a change of one of its hands reopens it.
        form = hand_entry.hand_form(table, card, number=next_number)
    return render(request, "tournaments/manage/table.html", {
        "event": event, "round": table.round, "table": table, **sheet,
        "form": form, "money_form": money_form, "next_number": next_number,
        "playable": playable, "editable": editable,
        "can_submit": rights.may(user, card, CardAction.SUBMIT, table=table) and bool(
            sheet["hands"] or sheet["money_rows"]),
        "short_of_hands": (not sheet["money"] and len(sheet["hands"]) < event.hands_per_round),
        "can_confirm_card": rights.may(user, card, CardAction.CONFIRM, table=table),
        "can_confirm_alone": rights.submitted_by_actor(card, user) and rights.card_refusal(
            user, card, CardAction.CONFIRM, table=table, paper_checked=True) is None,
        # A card of fewer or more hands than the round plays: the referee confirms it with a
        # reason (tournaments.domain.rights), asked by the confirm form.
        "hand_count_off": (lifecycle.hand_count_off(card, event)
                           if card.status == Scorecard.Status.SUBMITTED else None),
        "can_confirm_hands": rights.may(user, card, CardAction.CONFIRM_HAND, table=table),
        "is_official": rights.is_official(user, event),
        "organiser": rights.is_organiser(user, event),
        "game_fields": form.ctx.game_fields_json() if form else {},
        "penalties": list(selectors.penalties_of_table(table)),
    }, status=status)


def table_entry(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    """The table page: the sheet so far and the form for the next hand (GET); a hand saved
    (POST)."""
    table = _entry_table(request, slug, number, table_number)
    if isinstance(table, HttpResponse):
        return table
    if request.method != "POST":
        return _table_page(request, table)
    refused = _refused(request, table, CardAction.ENTER, reason=request.POST.get("reason", ""))
    if refused:
        return refused
    card = table.scorecard
    # This form only adds the next hand; a hand already on the card is changed on its own
    # page, so a stale or forged number never overwrites one.
    hand_number = card.hands.count() + 1
    form = hand_entry.hand_form(table, card, data=request.POST, number=hand_number)
    if not form.is_valid():
        return _table_page(request, table, form=form, status=400)
    if form.cleaned_data["number"] != hand_number:
        form.add_error(None, _("Hand %(n)s is already on the card: someone at the table entered it "
                               "meanwhile. Check the card and enter the next hand.") % {
            "n": form.cleaned_data["number"]})
        return _table_page(request, table, form=form, status=409)
    return save_hand(request, table, form, hand_number, edit=False)


def save_hand(request: HttpRequest, table: Table, form: HandForm, number: int, *, edit: bool,
               template: str = "") -> HttpResponse:
    card = table.scorecard
    version = form.cleaned_data.get("version")
    try:
        services.hand_save(scorecard=card, number=number, record=form.record, actor=request.user,
                           expected_version=version, reason=form.cleaned_data.get("reason", ""))
    except ServiceError as exc:
        raise_refusal(exc)
        if isinstance(exc, Conflict):
            form.add_error(None, str(exc))
        else:
            form.add_engine_errors(exc.errors, number)
        card.refresh_from_db()
        form.data = form.data.copy()
        form.data["version"] = str(card.version)
        if edit:
            return hand_edit_page(request, table, form, number, status=exc.status, template=template)
        return _table_page(request, table, form=form, status=exc.status)
    messages.success(request, _("Hand %(n)s saved.") % {"n": number})
    if template:
        return redirect("referee-table", table.round.event.slug, table.round.number, table.number)
    return redirect(_table_url(table) + f"#hand-{number}")


def hand_validate(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    """htmx: the hand being typed, checked by the engine in its card; the errors go to the
    fields they name, or the hand's scores are previewed."""
    table = _entry_table(request, slug, number, table_number)
    if isinstance(table, HttpResponse):
        return table
    if request.method != "POST":
        return HttpResponse(status=405)
    return hand_entry.feedback_response(request, table)


def hand_edit_page(request: HttpRequest, table: Table, form: HandForm, number: int, *,
                    status: int = 200, template: str = "") -> HttpResponse:
    event = table.round.event
    return render(request, template or "tournaments/manage/hand_edit.html", {
        "event": event, "round": table.round, "table": table, "form": form, "number": number,
        "card": table.scorecard, "game_fields": form.ctx.game_fields_json(),
        "reason_required": table.scorecard.status in lifecycle.CORRECTED_CARDS or bool(template),
        "validate_url": reverse("manage-hand-validate", args=[event.slug, table.round.number, table.number]),
    }, status=status)


def hand_edit(request: HttpRequest, slug: str, number: int, table_number: int, hand_number: int) -> HttpResponse:
    table = _entry_table(request, slug, number, table_number)
    if isinstance(table, HttpResponse):
        return table
    card = table.scorecard
    hand = card.hands.filter(number=hand_number).first()
    if hand is None:
        raise Http404(_("No such hand."))
    # The reason is asked by the form; whether one is needed is the service's to say.
    refused = _refused(request, table, CardAction.ENTER)
    if refused:
        return refused
    if request.method == "POST":
        form = hand_entry.hand_form(table, card, data=request.POST, number=hand_number, record=hand.record)
        if not form.is_valid():
            return hand_edit_page(request, table, form, hand_number, status=400)
        return save_hand(request, table, form, hand_number, edit=True)
    form = hand_entry.hand_form(table, card, number=hand_number, record=hand.record)
    return hand_edit_page(request, table, form, hand_number)


@require_POST
def hand_delete(request: HttpRequest, slug: str, number: int, table_number: int, hand_number: int) -> HttpResponse:
    table = _entry_table(request, slug, number, table_number)
    if isinstance(table, HttpResponse):
        return table
    card = table.scorecard
    reason = request.POST.get("reason", "")
    refused = _refused(request, table, CardAction.ENTER, reason=reason)
    if refused:
        return refused
    version = _posted_number(request, "version", limits.INT_MAX)
    if version is None and request.POST.get("version"):
        messages.error(request, _("The version of the scorecard must be a whole number."))
        return redirect(_table_url(table))
    try:
        services.hand_delete(scorecard=card, number=hand_number, actor=request.user,
                             expected_version=version, reason=reason)
    except ServiceError as exc:
        raise_refusal(exc)
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Hand %(n)s deleted.") % {"n": hand_number})
    return redirect(_table_url(table))


@require_POST
def hand_confirm(request: HttpRequest, slug: str, number: int, table_number: int, hand_number: int) -> HttpResponse:
    table = _entry_table(request, slug, number, table_number)
    if isinstance(table, HttpResponse):
        return table
    hand = get_object_or_404(Hand, scorecard=table.scorecard, number=hand_number)
    refused = _refused(request, table, CardAction.CONFIRM_HAND)
    if refused:
        return refused
    try:
        services.hand_confirm(hand=hand, actor=request.user)
    except ServiceError as exc:
        raise_refusal(exc)
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Hand %(n)s confirmed.") % {"n": hand_number})
    return redirect(_table_url(table) + f"#hand-{hand_number}")


@require_POST
def scorecard_submit(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    table = _entry_table(request, slug, number, table_number)
    if isinstance(table, HttpResponse):
        return table
    refused = _refused(request, table, CardAction.SUBMIT)
    if refused:
        return refused
    try:
        services.scorecard_submit(scorecard=table.scorecard, actor=request.user)
    except ServiceError as exc:
        raise_refusal(exc)
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Scorecard submitted. A second person confirms it."))
    return redirect(_table_url(table))


@require_POST
def scorecard_confirm(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    table = _entry_table(request, slug, number, table_number)
    if isinstance(table, HttpResponse):
        return table
    paper_checked = request.POST.get("paper_checked") == "on"
    reason = request.POST.get("reason", "")
    refused = _refused(request, table, CardAction.CONFIRM, paper_checked=paper_checked,
                       reason=reason)
    if refused:
        return refused
    try:
        services.scorecard_confirm(scorecard=table.scorecard, actor=request.user,
                                   paper_checked=paper_checked, reason=reason)
    except ServiceError as exc:
        raise_refusal(exc)
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Scorecard confirmed: it counts in the standings."))
    return redirect(_table_url(table))


@require_POST
def money_sheet(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    table = _entry_table(request, slug, number, table_number)
    if isinstance(table, HttpResponse):
        return table
    card = table.scorecard
    if not is_money(card.ruleset_code):
        raise Http404(_("This ruleset scores hands, not a money sheet."))
    refused = _refused(request, table, CardAction.ENTER, reason=request.POST.get("reason", ""))
    if refused:
        return refused
    form = MoneySheetForm(request.POST, players=seat_labels(table))
    if not form.is_valid():
        return _table_page(request, table, money_form=form, status=400)
    rows = form.rows()
    if form.errors:
        return _table_page(request, table, money_form=form, status=400)
    version = _posted_number(request, "version", limits.INT_MAX)
    if version is None and request.POST.get("version"):
        form.add_error(None, _("The version of the scorecard must be a whole number."))
        return _table_page(request, table, money_form=form, status=400)
    try:
        services.money_sheet_save(scorecard=card, rows=rows, actor=request.user,
                                  expected_version=version,
                                  reason=request.POST.get("reason", ""))
    except ServiceError as exc:
        raise_refusal(exc)
        form.add_engine_errors(exc.errors)
        return _table_page(request, table, money_form=form, status=exc.status)
    messages.success(request, _("Money sheet saved."))
    return redirect(_table_url(table))
