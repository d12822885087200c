"""The table link: the page a table's players open from the QR code of their sheet (or by
typing its short code at /t/), on their own phones, with no account.

A player first says who he is on this phone (his seat: start number and name); every hand,
submission and confirmation made there is then his seat's, with the phone's opaque id, in the
audit trail. The page shows the card as it stands and enters the next hand with the engine's
live check; money-sheet rulesets enter the sheet instead. A second player of the table
confirms the card on his own phone (on the same phone only where the event plays one phone
per table, `Event.one_phone_per_table`). What a seat may
do is `tournaments.domain.rights`' answer for a `TableSeat`: the link writes while the round is on
and the card open or submitted, and is read-only after.

Wrong tokens and codes answer 404 and are counted per phone and per address, 429 once a phone
guessed too often (`tournaments.services.table_links` says how a venue behind one address is spared).
A right token always opens its table.
"""

from __future__ import annotations

import functools
import secrets
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from guard.client_address import limit_key
from tournaments import selectors, services
from tournaments.domain import lifecycle, limits, rights
from tournaments.domain.rights import CardAction, TableSeat
from tournaments.errors import Conflict, NotFound, ServiceError, TooManyAttempts
from tournaments.forms import (
    CardWriteForm,
    HandForm,
    MoneySheetForm,
    RefereeCallForm,
    add_service_errors,
)
from tournaments.models import Registration, Scorecard, TableLink
from tournaments.pages import hand_entry as hand_entry
from tournaments.pages.common import seat_labels
from tournaments.services import player_links, referee_calls, table_links

DEVICE_COOKIE = "tarok_device"
SEATS_KEY = "table_link_seats"
DEVICES_KEY = "table_link_devices"
FOLLOW_KEY = "table_link_follow"


# ---------------------------------------------------------------------------------------
# Finding the link, the seat and the phone
# ---------------------------------------------------------------------------------------

def _device(request: HttpRequest) -> str:
    return table_links.device_id(request.COOKIES.get(DEVICE_COOKIE))


def _throttled(request: HttpRequest) -> HttpResponse:
    return _with_device(request, render(request, "tournaments/table_link/code.html", {
        "throttled": True}, status=429))


def _link(request: HttpRequest, token: str) -> TableLink:
    """The live link of the token; a wrong, revoked or draft one is 404 (and counted), 429
    once this phone guessed too often. A right token always opens its table."""
    try:
        return table_links.open_by_token(token, device=_device(request),
                                         address=limit_key(request))
    except NotFound:
        raise Http404(_("There is no table with this link.")) from None


def _with_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Gives a phone its opaque id on its first visit; the audit trail names the phone by it."""
    if not _device(request):
        response.set_cookie(DEVICE_COOKIE, getattr(request, "_new_device", secrets.token_hex(8)),
                            max_age=365 * 24 * 3600, httponly=True, samesite="Lax",
                            secure=request.is_secure())
    return response


def _phone_id(request: HttpRequest) -> str:
    """This phone's id: its cookie's, or a new one it is given with the answer."""
    if not _device(request) and not getattr(request, "_new_device", ""):
        request._new_device = secrets.token_hex(8)
    return _device(request) or request._new_device


def _seat(request: HttpRequest, link: TableLink) -> TableSeat | None:
    """The seat chosen on this phone for this table, if it is still one of the table's."""
    start_number = (request.session.get(SEATS_KEY) or {}).get(link.token)
    if start_number is None:
        return None
    seat = next((s for s in link.table.seats.select_related("registration__player")
                 if s.registration.start_number == start_number), None)
    if seat is None:
        return None
    device = (request.session.get(DEVICES_KEY) or {}).get(link.token) or _phone_id(request)
    return TableSeat(table_id=link.table_id, event_id=link.table.round.event_id,
                     start_number=start_number, name=str(seat.registration.player), device=device)


def link_view(view):
    """A view of one table link: too many wrong links from an address answer 429."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, token, *args, **kwargs)
        except TooManyAttempts:
            return _throttled(request)

    return wrapper


def _page_url(link: TableLink) -> str:
    return reverse("table-link", args=[link.token])


# ---------------------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------------------

@never_cache
def code_entry(request: HttpRequest) -> HttpResponse:
    """/t/: type the code printed on the sheet."""
    device, address = _device(request), limit_key(request)
    if table_links.is_throttled(device, address):
        return _throttled(request)
    error = ""
    code = ""
    if request.method == "POST":
        code = request.POST.get("code", "")
        try:
            link = table_links.open_by_code(code, device=device, address=address)
        except TooManyAttempts:
            return _throttled(request)
        except NotFound as exc:
            error = str(exc)
        else:
            return _with_device(request, redirect(_page_url(link)))
    return _with_device(request, render(request, "tournaments/table_link/code.html",
                                        {"error": error, "code": code},
                                        status=404 if error else 200))


def _table_page(request: HttpRequest, link: TableLink, seat: TableSeat, *,
                form: HandForm | None = None, money_form: MoneySheetForm | None = None,
                conflict: str = "", status: int = 200,
                call_form: RefereeCallForm | None = None) -> HttpResponse:
    table = link.table
    table.refresh_from_db()
    page = hand_entry.card_page(
        seat, table, form=form, money_form=money_form,
        new_hand=lambda card: rights.may(seat, card, CardAction.ENTER, table=table))
    card, event, form = page["card"], page["event"], page["form"]
    rotation = form.ctx.rotation_of(page["next_number"]) if form is not None else None
    response = render(request, "tournaments/table_link/table.html", {
        **page,
        "link": link, "seat": seat, "conflict": conflict, "next_turn": rotation,
        "others": [(pid, label) for pid, label in page["players"]
                   if pid != str(seat.start_number)],
        "names": {str(s.registration.start_number): str(s.registration.player)
                  for s in table.seats.all()},
        "totals_by_pid": dict(page["totals"]),
        "can_enter": rights.may(seat, card, CardAction.ENTER, table=table),
        "entry_done": (card.status != Scorecard.Status.OPEN
                       or len(page["hands"]) >= event.hands_per_round),
        "submitted_by_me": rights.submitted_by_actor(card, seat),
        # A second person is a second phone, unless the event plays one phone per table.
        "on_submitting_phone": rights.on_submitting_phone(card, seat),
        "validate_url": reverse("table-link-validate", args=[link.token]),
        **_later_table(request, link, seat),
        **_call_context(link, seat, call_form),
    }, status=status)
    return _with_device(request, response)


def _call_context(link: TableLink, seat: TableSeat,
                  form: RefereeCallForm | None = None) -> dict[str, Any]:
    """The table's call for the referee (or the form to make one) and the hall's notices."""
    table = link.table
    event = table.round.event
    return {
        "referee_call": selectors.open_call_of_table(table),
        "call_form": form or RefereeCallForm(hands=event.hands_per_round),
        "may_call": rights.call_refusal(seat, table) is None,
        "notices": selectors.hall_notices_of(event),
    }


def _later_table(request: HttpRequest, link: TableLink, seat: TableSeat) -> dict[str, Any]:
    """Once the round is over, where the player who sat at this table on this phone sits in
    the round being played now, with that table's link: a round-1 QR code scanned in round 2
    leads on to the right table.

    Only a seat taken while the round was being played is followed (a seat chosen on a
    finished round's sheet would lead anybody who kept the sheet to anybody's next table), and
    not one taken through a personal link that has since been reissued (its old holder is
    cut off from the player's later tables)."""
    table = link.table
    if lifecycle.is_playable(table.round):
        return {}
    followed = (request.session.get(FOLLOW_KEY) or {}).get(link.token)
    if followed is None or (followed and not player_links.is_live(followed)):
        return {}
    registration = Registration.objects.filter(event_id=seat.event_id,
                                               start_number=seat.start_number).first()
    found = selectors.later_table_of(registration, table.round) if registration else None
    if found is None:
        return {}
    later, later_link = found
    return {"later_table": later,
            "later_link_path": _page_url(later_link) if later_link else ""}


@never_cache
@link_view
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    """The table's own page: who are you (once per phone), then the card and the next hand."""
    link = _link(request, token)
    table_links.device_opened(_device(request), link)
    seat = _seat(request, link)
    if seat is None or request.GET.get("seat") == "change":
        return _with_device(request, render(request, "tournaments/table_link/seat.html", {
            "link": link, "table": link.table, "round": link.table.round,
            "event": link.table.round.event, "players": seat_labels(link.table),
            "current": seat.start_number if seat else None,
        }))
    return _table_page(request, link, seat)


@require_POST
@link_view
def choose_seat(request: HttpRequest, token: str) -> HttpResponse:
    link = _link(request, token)
    number = limits.whole_number(request.POST.get("seat"))
    numbers = {s.registration.start_number for s in link.table.seats.select_related("registration")}
    if number not in numbers:
        messages.error(request, _("Choose one of the seats of this table."))
        return redirect(_page_url(link) + "?seat=change")
    return seated_at(request, link, number)


def seated_at(request: HttpRequest, link: TableLink, start_number: int, *,
              personal_link_id: int = 0) -> HttpResponse:
    """This phone is now the seat of `start_number` at the link's table (chosen on the table's
    page, or known from the player's personal link `personal_link_id`); on to the table's page.
    The callers have checked that the seat is one of the table's."""
    seats = dict(request.session.get(SEATS_KEY) or {})
    seats[link.token] = start_number
    request.session[SEATS_KEY] = seats
    # Which seats lead on to the player's later tables once the round is over (_later_table):
    # those taken while it is played, remembering the personal link they came through.
    follow = dict(request.session.get(FOLLOW_KEY) or {})
    if lifecycle.is_playable(link.table.round):
        follow[link.token] = personal_link_id
    else:
        follow.pop(link.token, None)
    request.session[FOLLOW_KEY] = follow
    # The phone is fixed for this table when its first seat is chosen: choosing another seat
    # (or sending another cookie) later does not make it another phone (tournaments.domain.rights).
    devices = dict(request.session.get(DEVICES_KEY) or {})
    devices.setdefault(link.token, _phone_id(request))
    request.session[DEVICES_KEY] = devices
    return _with_device(request, redirect(_page_url(link)))


def _seat_or_redirect(request: HttpRequest, token: str) -> tuple[TableLink, TableSeat | HttpResponse]:
    link = _link(request, token)
    seat = _seat(request, link)
    if seat is None:
        messages.error(request, _("First say which seat is yours."))
        return link, redirect(_page_url(link))
    return link, seat


def _refused(request: HttpRequest, link: TableLink, exc: ServiceError) -> HttpResponse:
    if exc.status == 404:
        raise Http404(str(exc))
    messages.error(request, str(exc))
    return redirect(_page_url(link))


@require_POST
@link_view
def hand_new(request: HttpRequest, token: str) -> HttpResponse:
    """The next hand. When another phone of the table entered a hand meanwhile, nothing is
    lost: the page shows that hand and keeps this one in the form to save as the next."""
    link, seat = _seat_or_redirect(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    card = link.table.scorecard
    card.refresh_from_db()
    next_number = card.hands.count() + 1
    form = hand_entry.hand_form(link.table, card, data=request.POST, number=next_number)
    if not form.is_valid():
        return _table_page(request, link, seat, form=form, status=400)
    if form.cleaned_data["number"] != next_number or (
            form.cleaned_data.get("version") not in (None, card.version)):
        return _conflict(request, link, seat, form, next_number)
    try:
        services.hand_save(scorecard=card, number=next_number, record=form.record, actor=seat,
                           expected_version=form.cleaned_data.get("version"))
    except Conflict:
        card.refresh_from_db()
        return _conflict(request, link, seat, form, card.hands.count() + 1)
    except ServiceError as exc:
        if exc.status in (403, 404):
            return _refused(request, link, exc)
        form.add_engine_errors(exc.errors, next_number)
        return _table_page(request, link, seat, form=form, status=exc.status)
    messages.success(request, _("Hand %(n)s saved.") % {"n": next_number})
    return redirect(_page_url(link) + f"#hand-{next_number}")


def _conflict(request: HttpRequest, link: TableLink, seat: TableSeat, form: HandForm,
              next_number: int) -> HttpResponse:
    card = link.table.scorecard
    card.refresh_from_db()
    data = form.data.copy()
    data["number"], data["version"] = str(next_number), str(card.version)
    retry = hand_entry.hand_form(link.table, card, data=data, number=next_number)
    retry.is_valid()
    message = _("Another phone of this table saved hand %(n)s meanwhile (it is on the card above). "
                "Your entry is kept below: save it as hand %(next)s if it is a new hand, or leave "
                "it.") % {"n": next_number - 1, "next": next_number}
    return _table_page(request, link, seat, form=retry, conflict=message, status=409)


@link_view
def hand_edit(request: HttpRequest, token: str, hand_number: int) -> HttpResponse:
    link, seat = _seat_or_redirect(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    card = link.table.scorecard
    hand = card.hands.filter(number=hand_number).first()
    if hand is None:
        raise Http404(_("No such hand."))
    if not rights.may(seat, card, CardAction.ENTER, table=link.table):
        return _refused(request, link, rights.card_refusal(
            seat, card, CardAction.ENTER, table=link.table).error())
    if request.method == "POST":
        form = hand_entry.hand_form(link.table, card, data=request.POST, number=hand_number,
                                    record=hand.record)
        status = 400
        if form.is_valid():
            try:
                services.hand_save(scorecard=card, number=hand_number, record=form.record,
                                   actor=seat, expected_version=form.cleaned_data.get("version"))
            except ServiceError as exc:
                if exc.status in (403, 404):
                    return _refused(request, link, exc)
                status = exc.status
                if isinstance(exc, Conflict):
                    form.add_error(None, str(exc))
                else:
                    form.add_engine_errors(exc.errors, hand_number)
            else:
                messages.success(request, _("Hand %(n)s saved.") % {"n": hand_number})
                return redirect(_page_url(link) + f"#hand-{hand_number}")
    else:
        form = hand_entry.hand_form(link.table, card, number=hand_number, record=hand.record)
        status = 200
    return _with_device(request, render(request, "tournaments/table_link/hand_edit.html", {
        "link": link, "seat": seat, "table": link.table, "round": link.table.round,
        "event": link.table.round.event, "form": form, "number": hand_number,
        "game_fields": form.ctx.game_fields_json(),
        "validate_url": reverse("table-link-validate", args=[link.token]),
    }, status=status))


@require_POST
@link_view
def hand_delete(request: HttpRequest, token: str, hand_number: int) -> HttpResponse:
    link, seat = _seat_or_redirect(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    written = CardWriteForm(request.POST)
    if not written.is_valid():
        messages.error(request, written.first_error())
        return redirect(_page_url(link))
    try:
        services.hand_delete(scorecard=link.table.scorecard, number=hand_number, actor=seat,
                             expected_version=written.values["version"])
    except ServiceError as exc:
        return _refused(request, link, exc)
    messages.success(request, _("Hand %(n)s deleted.") % {"n": hand_number})
    return redirect(_page_url(link))


@require_POST
@link_view
def validate(request: HttpRequest, token: str) -> HttpResponse:
    link, seat = _seat_or_redirect(request, token)
    if isinstance(seat, HttpResponse):
        return HttpResponse(status=403)
    return hand_entry.feedback_response(request, link.table)


@require_POST
@link_view
def submit(request: HttpRequest, token: str) -> HttpResponse:
    link, seat = _seat_or_redirect(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    try:
        services.scorecard_submit(scorecard=link.table.scorecard, actor=seat)
    except ServiceError as exc:
        return _refused(request, link, exc)
    if link.table.round.event.one_phone_per_table:
        messages.success(request, _("Card submitted. Another player of the table confirms it now: "
                                    "on his phone, or here after choosing his seat."))
    else:
        messages.success(request, _("Card submitted. Another player of the table confirms it now "
                                    "on his own phone, or the referee does."))
    return redirect(_page_url(link))


@require_POST
@link_view
def confirm(request: HttpRequest, token: str) -> HttpResponse:
    link, seat = _seat_or_redirect(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    try:
        services.scorecard_confirm(scorecard=link.table.scorecard, actor=seat)
    except ServiceError as exc:
        return _refused(request, link, exc)
    messages.success(request, _("Card confirmed. The officials verify it; it counts in the standings."))
    return redirect(_page_url(link))


@require_POST
@link_view
def money_sheet(request: HttpRequest, token: str) -> HttpResponse:
    link, seat = _seat_or_redirect(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    card = link.table.scorecard
    form = MoneySheetForm(request.POST, players=seat_labels(link.table))
    rows: dict[str, Any] = form.rows() if form.is_valid() else {}
    if not form.is_valid() or form.errors:
        return _table_page(request, link, seat, money_form=form, status=400)
    written = CardWriteForm(request.POST)
    if not written.is_valid():
        form.add_error(None, written.first_error())
        return _table_page(request, link, seat, money_form=form, status=400)
    try:
        services.money_sheet_save(scorecard=card, rows=rows, actor=seat,
                                  expected_version=written.values["version"])
    except ServiceError as exc:
        if exc.status in (403, 404):
            return _refused(request, link, exc)
        form.add_engine_errors(exc.errors)
        return _table_page(request, link, seat, money_form=form, status=exc.status)
    messages.success(request, _("Money sheet saved."))
    return redirect(_page_url(link))


@never_cache
@link_view
def referee_call(request: HttpRequest, token: str) -> HttpResponse:
    """The table calls its referee (POST), with the hand and a short note; GET is the call's
    state and the hall's notices, which the table's page asks for every few seconds. Without
    JavaScript the form posts the whole page and comes back to it."""
    link, seat = _seat_or_redirect(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    fragment = bool(request.headers.get("HX-Request"))
    form = None
    if request.method == "POST":
        form = RefereeCallForm(request.POST, hands=link.table.round.event.hands_per_round)
        if form.is_valid():
            try:
                referee_calls.referee_call(table=link.table, actor=seat,
                                           hand_number=form.cleaned_data["hand_number"],
                                           note=form.cleaned_data["note"])
            except ServiceError as exc:
                if exc.status == 404:
                    raise Http404(str(exc)) from None
                add_service_errors(form, exc.errors)
            else:
                if not fragment:
                    messages.success(request, _("The referee is called: this page says who "
                                                "takes the call."))
                    return redirect(_page_url(link) + "#referee-call")
                form = None
        if form is not None and not fragment:
            return _table_page(request, link, seat, call_form=form, status=400)
    if not fragment:
        return redirect(_page_url(link) + "#referee-call")
    # htmx swaps only a 2xx answer: a refused call comes back as the form with its errors.
    return _with_device(request, render(request, "tournaments/table_link/_call.html", {
        "link": link, **_call_context(link, seat, form)}))
