"""The referee desk's queue of calls from the tables (issue #33), under /referee/e/<slug>/.

The queue is a fragment the desk asks for every few seconds (htmx): the open calls, the
longest waiting first, with Take and Resolve, and the last calls resolved with what they led
to. Taking a call leads to the table's referee page carrying the call, so that a penalty or
dispute recorded there resolves it (tournaments.pages.referee); resolving it here links a
penalty, dispute or correction chosen from what happened at the table since.

Officials take and resolve calls; the services ask the rights again. The organiser's notices
to the hall are posted on the desk too (tournaments.pages.referee).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournaments import selectors
from tournaments.domain import limits, rights
from tournaments.errors import ServiceError
from tournaments.forms import CallResolveForm, HallNoticeForm, add_service_errors
from tournaments.models import Event, RefereeCall
from tournaments.pages.common import event_role_required, raise_refusal
from tournaments.services import referee_calls
from tournaments.text import audit_text, ruleset_text

referee_required = event_role_required(rights.is_official)

QUEUE_SECONDS = 4


def queue_context(user: Any, event: Event, notice_form: HallNoticeForm | None = None) -> dict[str, Any]:
    """What the desk shows of the calls and the notices (the desk's page and its fragment)."""
    return {
        "event": event, "calls": list(selectors.open_calls_of(event)),
        "resolved_calls": selectors.resolved_calls_of(event),
        "queue_seconds": QUEUE_SECONDS,
        "notices": selectors.hall_notices_of(event),
        "may_post_notices": rights.is_organiser(user, event),
        "notice_form": notice_form or HallNoticeForm(),
    }


@never_cache
@referee_required
def calls_queue(request: HttpRequest, event: Event) -> HttpResponse:
    """The queue alone, for the desk's refresh."""
    return render(request, "tournaments/referee/_calls.html", queue_context(request.user, event))


def _call_or_404(event: Event, call_id: int) -> RefereeCall:
    return get_object_or_404(RefereeCall.objects.select_related("table__round", "taken_by"),
                             pk=call_id, event=event)


def table_url(event: Event, call: RefereeCall) -> str:
    """The call's table on the referee's pages, carrying the call (and its hand)."""
    url = reverse("referee-table", args=[event.slug, call.table.round.number, call.table.number])
    return url + f"?call={call.pk}" + (f"&hand={call.hand_number}" if call.hand_number else "")


@require_POST
@referee_required
def call_take(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    """Take the call and go to its table."""
    call = _call_or_404(event, call_id)
    try:
        referee_calls.referee_call_take(call=call, actor=request.user)
    except ServiceError as exc:
        raise_refusal(exc)
        messages.error(request, str(exc))
        return redirect("referee-event", event.slug)
    return redirect(table_url(event, call))


def _outcomes(call: RefereeCall) -> list[tuple[str, str]]:
    penalties, disputes, changes = selectors.call_outcomes(call)
    tz = call.event.tz
    return ([(f"penalty:{p.pk}", _("penalty: %(kind)s – %(player)s") % {
                "kind": ruleset_text.penalty_name(call.event.ruleset_code, p.kind),
                "player": p.registration}) for p in penalties]
            + [(f"dispute:{d.pk}", _("dispute #%(n)s: %(what)s") % {
                "n": d.pk, "what": d.description[:60]}) for d in disputes]
            + [(f"correction:{e.pk}", f"{timezone.localtime(e.created_at, tz):%H:%M} "
                f"{audit_text.who(e)}: {audit_text.action_label(e.action)}") for e in changes])


@referee_required
def call_detail(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    """Resolve a call, linking what it led to."""
    call = _call_or_404(event, call_id)
    form = CallResolveForm(request.POST or None, outcomes=_outcomes(call) if call.is_open else [])
    status = 200
    if request.method == "POST":
        if form.is_valid():
            kind, _sep, pk = (form.cleaned_data["outcome"] or "").partition(":")
            found = {"penalty": event.penalties, "dispute": event.disputes,
                     "correction": event.audit_entries}.get(kind)
            number = limits.whole_number(pk)
            outcome = {kind: found.filter(pk=number).first()} if found is not None and number else {}
            try:
                referee_calls.referee_call_resolve(call=call, actor=request.user, **outcome)
            except ServiceError as exc:
                raise_refusal(exc)
                add_service_errors(form, exc.errors, {"call": "outcome"})
            else:
                messages.success(request, _("The call is resolved."))
                return redirect(reverse("referee-event", args=[event.slug]) + "#calls")
        status = 400
    return render(request, "tournaments/referee/call.html", {
        "event": event, "call": call, "form": form, "table_url": table_url(event, call),
    }, status=status)
