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

from tournaments import services
from tournaments.domain import lifecycle, rights
from tournaments.domain.rights import CardAction
from tournaments.errors import Conflict, ServiceError
from tournaments.forms import (
    CardWriteForm,
    HandForm,
    MoneySheetForm,
    is_money,
)
from tournaments.models import Hand, Scorecard, Table
from tournaments.pages import hand_entry as hand_entry
from tournaments.pages.common import (
    back_or,
    event_role_required,
    login_redirect,
    raise_refusal,
    seat_labels,
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


def _written(request: HttpRequest) -> dict:
    """The reason and the paper check a write posts (CardWriteForm), for asking the rights
    before the write's own form is read; a bad version is the write's own form's to refuse."""
    written = CardWriteForm(request.POST)
    written.is_valid()
    data = written.cleaned_data
    return {"reason": data.get("reason") or "", "paper_checked": bool(data.get("paper_checked"))}


def _editable(user, table: Table, card: Scorecard) -> bool:
    """The table's own page enters while the table writes its card; an official's change of a
    confirmed or verified card is a correction, made on the referee's page with a reason."""
    return (lifecycle.is_playable(table.round) and card.status in lifecycle.TABLE_WRITABLE_CARDS
            and rights.may(user, card, CardAction.ENTER, table=table))


def _table_page(request: HttpRequest, table: Table, *, form: HandForm | None = None,
                money_form: MoneySheetForm | None = None, status: int = 200) -> HttpResponse:
    user = request.user
    # A submitted card takes no new hand: a change of one of its hands reopens it.
    page = hand_entry.card_page(
        user, table, form=form, money_form=money_form,
        new_hand=lambda card: card.status == Scorecard.Status.OPEN and _editable(user, table, card))
    card, event = page["card"], page["event"]
    return render(request, "tournaments/manage/table.html", {
        **page,
        "playable": lifecycle.is_playable(table.round), "editable": _editable(user, table, card),
        "can_confirm_hands": rights.may(user, card, CardAction.CONFIRM_HAND, table=table),
        "is_official": rights.is_official(user, event),
        "organiser": rights.is_organiser(user, event),
    }, status=status)


def table_entry(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    """The table page: the sheet so far and the form for the next hand (GET); a hand saved
    (POST)."""
    table = _entry_table(request, slug, number, table_number)
    if isinstance(table, HttpResponse):
        return table
    if request.method != "POST":
        return _table_page(request, table)
    refused = _refused(request, table, CardAction.ENTER, reason=_written(request)["reason"])
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
    written = CardWriteForm(request.POST)
    if not written.is_valid():
        messages.error(request, written.first_error())
        return redirect(_table_url(table))
    version, reason = written.values["version"], written.values["reason"]
    refused = _refused(request, table, CardAction.ENTER, reason=reason)
    if refused:
        return refused
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
    return back_or(request, _table_url(table))


@require_POST
def scorecard_confirm(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    table = _entry_table(request, slug, number, table_number)
    if isinstance(table, HttpResponse):
        return table
    written = _written(request)
    paper_checked, reason = written["paper_checked"], written["reason"]
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
    return back_or(request, _table_url(table))


@require_POST
def money_sheet(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    table = _entry_table(request, slug, number, table_number)
    if isinstance(table, HttpResponse):
        return table
    card = table.scorecard
    if not is_money(card.ruleset_code):
        raise Http404(_("This ruleset scores hands, not a money sheet."))
    written = CardWriteForm(request.POST)
    reason = written.values["reason"] if written.is_valid() else ""
    refused = _refused(request, table, CardAction.ENTER, reason=reason)
    if refused:
        return refused
    form = MoneySheetForm(request.POST, players=seat_labels(table))
    if not form.is_valid():
        return _table_page(request, table, money_form=form, status=400)
    rows = form.rows()
    if form.errors:
        return _table_page(request, table, money_form=form, status=400)
    if not written.is_valid():
        form.add_error(None, written.first_error())
        return _table_page(request, table, money_form=form, status=400)
    try:
        services.money_sheet_save(scorecard=card, rows=rows, actor=request.user,
                                  expected_version=written.values["version"], reason=reason)
    except ServiceError as exc:
        raise_refusal(exc)
        form.add_engine_errors(exc.errors)
        return _table_page(request, table, money_form=form, status=exc.status)
    messages.success(request, _("Money sheet saved."))
    return redirect(_table_url(table))
