"""The organiser's pages of a venue hold (docs/venue.md): on the laptop, *Take an event from
the federation's server* (from the dashboard), and on the event's overview *Send to the server
now* and *Hand the event back*; on the server, the staff's *Take the event back* when a laptop
is lost. Views only call tournaments.venue and say what came of
it; what the hold's box shows is read by `hold_context`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.domain import rights
from tournaments.errors import ServiceError
from tournaments.forms import VenueTakeForm, add_service_errors
from tournaments.models import Event, VenueHold
from tournaments.pages.common import event_role_required, login_redirect
from tournaments.venue import client, services

organiser_required = event_role_required(rights.is_organiser)


def hold_context(request: HttpRequest, event: Event) -> dict[str, Any]:
    """The event's hold for its overview page: where it is written, and what may be done."""
    hold = VenueHold.objects.filter(event=event).first()
    return {"venue_hold": hold, "may_take_back": hold is not None and hold.side == VenueHold.Side.LENT
            and rights.is_staff(request.user)}


def _held(event: Event) -> VenueHold:
    hold = VenueHold.objects.filter(event=event, side=VenueHold.Side.HELD).first()
    if hold is None:
        raise PermissionDenied(_("This event was not taken from a server."))
    return hold


def _said(request: HttpRequest, answer: dict[str, Any], done: str) -> None:
    if answer.get("ok"):
        messages.success(request, done)
    else:
        messages.error(request, answer.get("error") or _("The server did not take it."))


@require_POST
@organiser_required
def venue_push(request: HttpRequest, event: Event) -> HttpResponse:
    _held(event)
    _said(request, client.push(event), _("The server has the event's state."))
    return redirect("manage-event", event.slug)


@require_POST
@organiser_required
def venue_hand_back(request: HttpRequest, event: Event) -> HttpResponse:
    _held(event)
    _said(request, client.hand_back(event),
          _("The event is back on the server; this laptop keeps a copy and writes it no more."))
    return redirect("manage-event", event.slug)


@require_POST
def venue_take_back(request: HttpRequest, slug: str) -> HttpResponse:
    """The server's staff take the event back from a lost laptop."""
    if not request.user.is_authenticated:
        return login_redirect(request)
    event = Event.objects.filter(slug=slug).first()
    if event is None or not rights.is_staff(request.user):
        raise PermissionDenied(_("only the server's staff may take an event back from a venue"))
    try:
        services.hold_force_back(event=event, actor=request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The event is back on this server; the laptop's pushes are "
                                    "refused from now on."))
    return redirect("manage-event", event.slug)


def venue_take(request: HttpRequest) -> HttpResponse:
    """On a venue's laptop: take an event from the federation's server with an organiser's
    API token there; the laptop then writes it and the server shows it."""
    if not request.user.is_authenticated:
        return login_redirect(request)
    if not rights.is_staff(request.user):
        # An import of what another server answers: the staff's, as every archive import is
        # (on a venue's laptop, `make run`'s organiser is its staff).
        raise PermissionDenied(_("Only this installation's staff take an event from a server."))
    form = VenueTakeForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                event = client.take(server_url=data["server"], slug=data["slug"], token=data["token"],
                                    actor=request.user, holder=data["holder"])
            except ServiceError as exc:
                add_service_errors(form, exc.errors, {"server": "server", "archive": "__all__",
                                                      "event": "slug"})
            except client.Unreachable as exc:
                form.add_error("server", _("The server cannot be reached: %(reason)s") % {"reason": exc})
            else:
                messages.success(request, _("%(event)s is on this laptop now; the server shows it "
                                            "read-only.") % {"event": event.name})
                return redirect("manage-event", event.slug)
    return render(request, "tournaments/manage/venue_take.html", {"form": form}, status=status)
