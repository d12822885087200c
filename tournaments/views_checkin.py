"""The check-in desk's bulk actions on the players page: check in everybody, check in or
withdraw the ticked players. The rule of who is then seated is lifecycle.sits_out_reason; the
event page shows its outcome before the next round is seated."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments import rights, services_checkin
from tournaments.errors import ServiceError
from tournaments.models import Event
from tournaments.views_public import event_role_required

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
    ids = [int(v) for v in request.POST.getlist("registration") if v.isdigit() and len(v) < 12]
    try:
        changed = services_checkin.registrations_bulk_status(
            event=event, action=action, actor=request.user, registration_ids=ids)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        if changed:
            messages.success(request, DONE_MESSAGES[action](len(changed)) % {"n": len(changed)})
        else:
            messages.info(request, _("Nothing to change: the chosen players already have that status."))
    return redirect("manage-players", event.slug)
