"""The personal link (/p/<token>/): a player's own page for one event, opened from the QR code
of his badge or entry confirmation, on his phone, with no account. It shows his table and seat
in the round being played with that table's link (he enters hands without scanning the
sheet), his rounds and results so far, and his place. Who holds the link sees what is public
and this player's own seats, never another player's private data (tournaments.selectors.
player_day).

And the organiser's list of his players' personal links with their QR codes, printable for
badges, where a link seen by the wrong people is reissued.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournaments import selectors
from tournaments.domain import lifecycle, limits, rights
from tournaments.errors import NotFound, ServiceError
from tournaments.forms import MessagesForm, add_service_errors, score_label
from tournaments.models import Event, PlayerLink, Registration
from tournaments.pages import table_link
from tournaments.pages.common import event_role_required
from tournaments.printing import links, qr
from tournaments.services import entries, player_links
from tournaments.services import messages as messages_service

organiser_required = event_role_required(rights.is_organiser)


def _private(response: HttpResponse) -> HttpResponse:
    # The token is the key to the page: it must not leave for another site in a Referer, nor
    # be kept by a search engine (never_cache keeps it out of shared caches). Same-origin,
    # not no-referrer: with no-referrer the browser sends "Origin: null" with the page's own
    # form, which Django's CSRF check rightly refuses.
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _link_or_404(token: str) -> PlayerLink:
    try:
        return player_links.open_by_token(token)
    except NotFound:
        raise Http404(_("There is no player with this link.")) from None


def _page(request: HttpRequest, link: PlayerLink, form: MessagesForm | None = None,
          status: int = 200) -> HttpResponse:
    registration = link.registration
    if form is None:
        form = MessagesForm(initial={
            "round_messages": registration.round_messages,
            "correction_messages": registration.correction_messages,
            "language": registration.message_language or get_language() or "en"})
    return _private(render(request, "tournaments/player_link/page.html", {
        "link": link, "event": registration.event, "registration": registration,
        "player": registration.player, "day": selectors.player_day(registration),
        "score_label": score_label(registration.event),
        "messages_form": form, "mail_configured": messages_service.mail_configured(),
        "saved_address": messages_service.masked(registration.email),
        "may_withdraw": rights.can_withdraw_self(registration.event),
        "next_round": _next_round(registration),
    }, status=status))


def _next_round(registration: Registration) -> int | None:
    """The round the player may say he sits out: the next one not seated yet, if planned and
    the event's system lets a player miss a round (lifecycle.absence_refusal)."""
    event = registration.event
    number = selectors.next_round_number(event)
    if lifecycle.absence_refusal(event, registration, number, number) is not None:
        return None
    return number


@require_POST
def personal_withdraw(request: HttpRequest, token: str) -> HttpResponse:
    """The player withdraws himself, where the event allows it."""
    link = _link_or_404(token)
    try:
        entries.withdraw_self(link=link)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You have withdrawn from this event."))
    return _private(redirect(links.player_link_path(token)))


@require_POST
def personal_absent(request: HttpRequest, token: str) -> HttpResponse:
    """The player sits out the next round (or plays it after all), where the event allows it."""
    link = _link_or_404(token)
    number = limits.whole_number(request.POST.get("round", ""), default=0)
    absent = request.POST.get("absent") == "1"
    try:
        entries.absent_self(link=link, number=number, absent=absent)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, (_("You sit out round %(n)s.") if absent else
                                   _("You play round %(n)s.")) % {"n": number})
    return _private(redirect(links.player_link_path(token)))


@never_cache
def personal_page(request: HttpRequest, token: str) -> HttpResponse:
    return _page(request, _link_or_404(token))


@require_POST
def personal_messages(request: HttpRequest, token: str) -> HttpResponse:
    """The player's choice of messages, saved; refused at its field in his language."""
    link = _link_or_404(token)
    form = MessagesForm(request.POST)
    if form.is_valid():
        try:
            messages_service.messages_choose(
                link=link, email=form.cleaned_data["email"],
                round_messages=form.cleaned_data["round_messages"],
                correction_messages=form.cleaned_data["correction_messages"],
                language=form.cleaned_data["language"], forget=form.cleaned_data["forget"])
        except ServiceError as exc:
            add_service_errors(form, exc.errors)
        else:
            messages.success(request, _("Saved."))
            return _private(redirect(links.player_link_path(token) + "#messages"))
    return _page(request, link, form, status=400)


@require_POST
def personal_table(request: HttpRequest, token: str) -> HttpResponse:
    """From the personal page to his table's page, his seat already chosen on this phone: the
    link says who he is, so the table's page does not ask."""
    link = _link_or_404(token)
    day = selectors.player_day(link.registration)
    if day.table_link is None:
        # The round ended (or was taken back) between the page and the click: the page says so.
        return redirect(links.player_link_path(token))
    return _private(table_link.seated_at(request, day.table_link, link.registration.start_number,
                                         personal_link_id=link.pk))


@never_cache
@organiser_required
def personal_links(request: HttpRequest, event: Event) -> HttpResponse:
    """Every player's personal link and its QR code, in start-number order: a page to print
    for badges, or to read a link out to a player."""
    base = links.base_url_of(request)
    live = player_links.live_links(event)
    rows = []
    for reg in selectors.registrations_of(event):
        link = live.get(reg.pk)
        url = links.player_link_url(base, link.token) if link else ""
        rows.append({"registration": reg, "url": url, "qr": qr.qr_data_uri(url) if url else ""})
    return _private(render(request, "tournaments/manage/player_links.html", {
        "event": event, "rows": rows}))


@require_POST
@organiser_required
def personal_link_reissue(request: HttpRequest, event: Event, start_number: int) -> HttpResponse:
    registration = event.registrations.filter(start_number=start_number).first()
    if registration is None:
        raise Http404(_("No such player."))
    player_links.link_reissue(registration=registration, actor=request.user)
    messages.success(request, _("%(player)s has a new personal link; the old one no longer works.")
                     % {"player": registration.player})
    return redirect(reverse("manage-player-links", args=[event.slug]) + f"#p{start_number}")
