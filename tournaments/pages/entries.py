"""Online entry's pages (issue #31, docs/entries.md): the form anybody fills to enter an event
(`/e/<slug>/enter/`), the public entry list with its places and waiting list
(`/e/<slug>/entries/`), an entry's own page where its address is confirmed and where it is
withdrawn while it waits (`/e/<slug>/entry/<token>/`), and the organiser's decisions on the
players page (approve, refuse). Views only parse, call selectors or services and render.

What a player does later on his personal page (withdraw, sit out the next round) is there
(tournaments.pages.player_link), through the same services."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from guard.client_address import limit_key
from tournaments import selectors
from tournaments.domain import lifecycle, limits, rights
from tournaments.errors import NotFound, ServiceError
from tournaments.forms import EntryForm, add_service_errors
from tournaments.models import Entry, Event, Player
from tournaments.pages.common import event_role_required, viewable_event
from tournaments.printing import links
from tournaments.services import entries
from tournaments.services import messages as messages_service

organiser_required = event_role_required(rights.is_organiser)


def _private(response: HttpResponse) -> HttpResponse:
    # An entry's token is the key to its page: kept out of Referers and search engines.
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _entry_form(event: Event, data: dict | None = None) -> EntryForm:
    return EntryForm(data, initial={"language": get_language() or "en"},
                     federation_id_required=event.entry_federation_id,
                     email_required=messages_service.mail_configured())


def _form_page(request: HttpRequest, event: Event, form: EntryForm, status: int = 200
               ) -> HttpResponse:
    return render(request, "tournaments/entries/form.html", {
        "event": event, "form": form, "board": selectors.entry_board(event),
        "closed": lifecycle.online_entry_refusal(event, timezone.now()),
        "mail_configured": messages_service.mail_configured(),
    }, status=status)


@never_cache
def entry_form(request: HttpRequest, slug: str) -> HttpResponse:
    """The entry form; a refusal is said at its field in the visitor's language, and nothing
    is kept."""
    event = viewable_event(request, slug)
    if request.method != "POST":
        return _form_page(request, event, _entry_form(event))
    form = _entry_form(event, request.POST)
    status = 400
    if form.is_valid():
        try:
            entry = entries.entry_submit(
                event=event, values=form.cleaned_data, client=limit_key(request),
                base_url=links.base_url_of(request), honeypot=form.cleaned_data["website"],
                actor=request.user)
        except NotFound:
            raise Http404(_("No such event.")) from None
        except ServiceError as exc:
            add_service_errors(form, exc.errors, {"event": "__all__"})
            status = exc.status
        else:
            if entry.status == Entry.Status.UNCONFIRMED:
                # The page of the entry is reached only through the mail: that is what
                # confirms the address.
                return render(request, "tournaments/entries/sent.html", {
                    "event": event, "entry": entry, "entry_hours": settings.ENTRY_CONFIRM_HOURS})
            return _private(redirect(links.entry_path(event.slug, entry.token)))
    return _form_page(request, event, form, status=status)


def entry_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Who has a place and who waits, with name and club (never an address)."""
    event = viewable_event(request, slug)
    return render(request, "tournaments/entries/list.html", {
        "event": event, "board": selectors.entry_board(event),
        "closed": lifecycle.online_entry_refusal(event, timezone.now()),
    })


def _entry_or_404(slug: str, token: str) -> Entry:
    try:
        entry = entries.open_by_token(token)
    except NotFound:
        entry = None
    if entry is None or entry.event.slug != slug:
        raise Http404(_("There is no entry with this link."))
    return entry


def _entry_page(request: HttpRequest, entry: Entry, status: int = 200) -> HttpResponse:
    return _private(render(request, "tournaments/entries/entry.html", {
        "event": entry.event, "entry": entry, "expired": entries.is_expired(entry),
        "waiting_place": selectors.waiting_place(entry),
        "mail_configured": messages_service.mail_configured(),
    }, status=status))


@never_cache
def entry_page(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    return _entry_page(request, _entry_or_404(slug, token))


@require_POST
def entry_confirm(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    entry = _entry_or_404(slug, token)
    try:
        entry = entries.entry_confirm(token=token)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return _entry_page(request, entry, status=exc.status)
    messages.success(request, _("Your e-mail address is confirmed."))
    return _private(redirect(links.entry_path(slug, token)))


@require_POST
def entry_withdraw(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    entry = _entry_or_404(slug, token)
    try:
        entries.entry_withdraw(token=token)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return _entry_page(request, entry, status=exc.status)
    messages.success(request, _("Your entry is withdrawn."))
    return _private(redirect(links.entry_path(slug, token)))


# ---------------------------------------------------------------------------------------
# The organiser's decisions (shown on the players page)
# ---------------------------------------------------------------------------------------

def _organisers_entry(event: Event, entry_id: int) -> Entry:
    entry = event.entries.filter(pk=entry_id).first()
    if entry is None:
        raise Http404(_("No such entry."))
    return entry


@require_POST
@organiser_required
def entry_approve(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    entry = _organisers_entry(event, entry_id)
    choice = request.POST.get("use_player", "")
    use_player = None
    if choice and choice != "new":
        use_player = Player.objects.filter(pk=limits.whole_number(choice, default=0)).first()
        if use_player is None:
            messages.error(request, _("That player is no longer in the registry."))
            return redirect(reverse("manage-players", args=[event.slug]) + "#entries")
    try:
        entry = entries.entry_approve(entry=entry, actor=request.user, use_player=use_player,
                                      new_player=choice == "new")
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        if entry.status == Entry.Status.ACCEPTED:
            messages.success(request, _("%(name)s has a place: start number %(number)s.") % {
                "name": entry, "number": entry.registration.start_number})
        else:
            messages.success(request, _("%(name)s is on the waiting list: the event is full.")
                             % {"name": entry})
    return redirect(reverse("manage-players", args=[event.slug]) + "#entries")


@require_POST
@organiser_required
def entry_refuse(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    entry = _organisers_entry(event, entry_id)
    try:
        entries.entry_refuse(entry=entry, actor=request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The entry of %(name)s is refused.") % {"name": entry})
    return redirect(reverse("manage-players", args=[event.slug]) + "#entries")
