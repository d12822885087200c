"""The check-in desk's bulk actions on the players page: check in everybody, check in or
withdraw the ticked players; and a player's absence from a round not seated yet (one button per
row). The rule of who is then seated is lifecycle.sits_out_reason; the event page shows its
outcome before the next round is seated."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments import selectors
from tournaments.domain import limits, rights
from tournaments.errors import ServiceError
from tournaments.models import Event, Registration
from tournaments.pages.common import event_role_required
from tournaments.services import checkin

organiser_required = event_role_required(rights.is_organiser)

DONE_MESSAGES = {
    "check_in_all": lambda n: ngettext("%(n)s player checked in.", "%(n)s players checked in.", n),
    "check_in": lambda n: ngettext("%(n)s player checked in.", "%(n)s players checked in.", n),
    "withdraw": lambda n: ngettext("%(n)s player withdrawn.", "%(n)s players withdrawn.", n),
}


@require_POST
@organiser_required
def registrations_bulk(request: HttpRequest, event: Event) -> HttpResponse:
    action = request.POST.get("action", "")
    # What is no whole number chooses nobody; with nobody chosen the service asks for a choice.
    ids = [n for n in map(limits.whole_number, request.POST.getlist("registration")) if n is not None]
    try:
        changed = checkin.registrations_bulk_status(
            event=event, action=action, actor=request.user, registration_ids=ids)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        if changed:
            messages.success(request, DONE_MESSAGES[action](len(changed)) % {"n": len(changed)})
        else:
            messages.info(request, _("Nothing to change: the chosen players already have that status."))
    return redirect("manage-players", event.slug)


@require_POST
@organiser_required
def registration_absent(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """Mark a player absent for a round not seated yet (`absent=1`), or back in it (`absent=0`);
    htmx swaps the row."""
    reg = get_object_or_404(Registration.objects.select_related("player"), pk=registration_id,
                            event=event)
    number = limits.whole_number(request.POST.get("round"), low=1, high=limits.SMALL_MAX)
    error, status = "", 200
    if number is None:
        error, status = _("Choose the round the player misses."), 400
    else:
        try:
            reg = checkin.registration_set_absent(
                registration=reg, number=number, absent=request.POST.get("absent") != "0",
                actor=request.user)
        except ServiceError as exc:
            error, status = str(exc), exc.status
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/manage/_player_row.html", {
            "event": event, "reg": reg, "error": error,
            "next_number": selectors.next_round_number(event),
        }, status=status)
    if error:
        messages.error(request, error)
    return redirect("manage-players", event.slug)
