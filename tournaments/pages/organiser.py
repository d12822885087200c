"""Organiser pages under /manage/: create and edit events, register players (one by one or
from a CSV file), check them in, generate, preview, adjust and publish rounds, run the round
clock, follow the tables, close rounds and finish the event. A table's page, where a card is
entered and confirmed, is `tournaments.pages.table`.

Views parse the request, call one service or selector, and answer; a refused write comes back
as the service's message at the field it names, never as a server error.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments import hooks, selectors, services
from tournaments.domain import lifecycle, presets, rights
from tournaments.errors import ServiceError
from tournaments.forms import (
    CsvImportForm,
    EventForm,
    PlayerAddForm,
    StatusForm,
    SwapForm,
    add_service_errors,
    ruleset_description,
)
from tournaments.models import Entry, Event, Job, Player, Registration, Round, Scorecard
from tournaments.pages import venue as venue_pages
from tournaments.pages.common import (
    event_role_required,
    login_redirect,
    round_or_404,
    ruleset_fields_page,
    standings_context,
    table_or_404,
)
from tournaments.printing import links, qr
from tournaments.runtime import jobs
from tournaments.services import messages as messages_service
from tournaments.services import round_jobs, table_links

organiser_required = event_role_required(rights.is_organiser)


def _round_url(event: Event, number: int) -> str:
    return reverse("manage-round", args=[event.slug, number])


# ---------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------

def dashboard(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return login_redirect(request)
    return render(request, "tournaments/manage/dashboard.html", {
        "events": selectors.events_organised_by(request.user),
        "can_create": rights.can_create_events(request.user),
        "sections": hooks.dashboard_sections(request.user),
    })


def event_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return login_redirect(request)
    if not rights.can_create_events(request.user):
        raise PermissionDenied(_("You may not create events."))
    preset = None
    if request.method != "POST" and request.GET.get("preset"):
        # A preset fills a new form's initial values (tournaments.domain.presets): nothing typed yet.
        preset = presets.get(request.GET["preset"])
        if preset is None:
            raise Http404(_("No such preset."))
    form = EventForm(request.POST or None, initial=dict(preset.values) if preset else None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                event = services.event_create(actor=request.user, **form.service_fields())
            except ServiceError as exc:
                add_service_errors(form, exc.errors, EventForm.SERVICE_FIELD_MAP)
            else:
                messages.success(request, _("Event created. Now add the players."))
                return redirect("manage-players", event.slug)
        status = 400
    return render(request, "tournaments/manage/event_form.html", {
        "form": form, "event": None, "presets": presets.PRESETS, "preset": preset,
    }, status=status)


def ruleset_fields(request: HttpRequest) -> HttpResponse:
    """The mode and option fields of the ruleset chosen in the event form (htmx)."""
    return ruleset_fields_page(request, EventForm)


@organiser_required
def event_manage(request: HttpRequest, event: Event) -> HttpResponse:
    rounds = list(selectors.rounds_of(event))
    regs = list(selectors.registrations_of(event))
    counts = {s: sum(1 for r in regs if r.status == s) for s in Registration.Status.values}
    next_number = round_jobs.next_round_number(event)
    seated, sitting_out = selectors.seating_pool(event)
    return render(request, "tournaments/manage/event.html", {
        "event": event, "rounds": rounds, "registrations": regs, "counts": counts,
        "seated": seated, "sitting_out": sitting_out,
        "next_number": next_number,
        "can_generate": lifecycle.seating_refusal(event, next_number) is None,
        "job": Job.objects.filter(event=event, kind=round_jobs.SEAT_JOB,
                                  status__in=[Job.Status.QUEUED, Job.Status.RUNNING]).first(),
        "description": ruleset_description(event.ruleset_code),
        **_phones_address(request, event),
        **venue_pages.hold_context(request, event),
    })


def _phones_address(request: HttpRequest, event: Event) -> dict[str, Any]:
    """Where the players' phones reach this installation (the sheets' QR codes lead there),
    with a link and its QR code to try it on a phone (docs/venue.md)."""
    test_url = links.base_url_of(request) + reverse("event-detail", args=[event.slug])
    return {"phones_test_url": test_url, "phones_test_qr": qr.qr_data_uri(test_url),
            "public_base_set": bool(settings.PUBLIC_BASE_URL),
            "venue_wifi": settings.VENUE_WIFI_SSID}


@organiser_required
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    form = EventForm(request.POST or None, initial=EventForm.initial_from(event))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            fields = form.service_fields()
            changed = {k: v for k, v in fields.items() if getattr(event, k) != v}
            try:
                if changed:
                    services.event_update(event=event, actor=request.user, **changed)
            except ServiceError as exc:
                add_service_errors(form, exc.errors, EventForm.SERVICE_FIELD_MAP)
            else:
                messages.success(request, _("Event saved."))
                return redirect("manage-event", event.slug)
        status = 400
    return render(request, "tournaments/manage/event_form.html", {"form": form, "event": event},
                  status=status)


@require_POST
@organiser_required
def event_finish(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        services.event_update(event=event, actor=request.user, status=Event.Status.FINISHED)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The event is finished: the standings are final."))
    return redirect("manage-standings", event.slug)


@organiser_required
def standings(request: HttpRequest, event: Event) -> HttpResponse:
    return render(request, "tournaments/manage/standings.html", {
        "event": event, **standings_context(event, user=request.user),
        "open_rounds": [r for r in selectors.rounds_of(event) if r.status != Round.Status.CLOSED],
    })


# ---------------------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------------------

def _players_page(request: HttpRequest, event: Event, *, add_form: PlayerAddForm | None = None,
                  import_form: CsvImportForm | None = None,
                  import_errors: list[dict[str, Any]] | None = None,
                  same_players: list[Player] | None = None, status: int = 200) -> HttpResponse:
    regs = list(selectors.registrations_of(event))
    query = request.GET.get("q", "").strip()
    shown = list(selectors.registrations_matching(event, query)) if query else regs
    return render(request, "tournaments/manage/players.html", {
        "event": event, "registrations": shown, "query": query,
        "add_form": add_form or PlayerAddForm(),
        "import_form": import_form or CsvImportForm(),
        "import_errors": import_errors or [],
        # A namesake of another organiser's private events is offered by the name and club
        # typed, and shown by nothing more (tournaments.domain.rights.can_view_player).
        "same_players": [(p, next((r for r in p.registrations.all() if r.event_id == event.pk), None),
                          rights.can_view_player(request.user, p))
                         for p in same_players or []],
        "statuses": Registration.Status,
        "active": sum(1 for r in regs if lifecycle.taking_places(r.status)),
        "next_number": selectors.next_round_number(event),
        **_entries_context(request, event),
    }, status=status)


def _entries_shown(event: Event) -> bool:
    """Whether the players page has its online-entry section."""
    return bool(event.online_entry or event.entries.exists())


def _entries_context(request: HttpRequest, event: Event) -> dict[str, Any]:
    """What the players page shows of online entry: the entries to decide, the waiting list,
    and whether entries are open (and mail is sent)."""
    if not _entries_shown(event):
        return {"entries_shown": False}
    return {"entries_shown": True,
            "entry_decisions": selectors.entries_to_decide(event, request.user),
            "entry_board": selectors.entry_board(event),
            "entries_unconfirmed": event.entries.filter(status=Entry.Status.UNCONFIRMED).count(),
            "entry_closed": lifecycle.online_entry_refusal(event, timezone.now()),
            "mail_configured": messages_service.mail_configured()}


@organiser_required
def players(request: HttpRequest, event: Event) -> HttpResponse:
    return _players_page(request, event)


@require_POST
@organiser_required
def player_add(request: HttpRequest, event: Event) -> HttpResponse:
    """Register a typed-in player. When the registry already has a player of that name and
    club (whatever the case and diacritics), the page asks first: him, or a new player."""
    form = PlayerAddForm(request.POST)
    if form.is_valid():
        values = dict(form.cleaned_data)
        choice = values.pop("use_player")
        if not choice:
            same = list(selectors.same_players(values["first_name"], values["last_name"],
                                               values["club"], values["federation_id"]))
            if same:
                return _players_page(request, event, add_form=form, same_players=same)
        if choice == "new":
            values["new_player"] = True
        elif choice:
            values["use_player"] = selectors.player_by_id(int(choice))
            if values["use_player"] is None:
                form.add_error(None, _("That player is no longer in the registry."))
                return _players_page(request, event, add_form=form, status=400)
        try:
            reg = services.registration_add(event=event, actor=request.user, **values)
        except ServiceError as exc:
            # The chosen player is no field of the form: his refusal goes above it.
            add_service_errors(form, exc.errors, {"use_player": ""})
        else:
            messages.success(request, _("%(player)s registered with start number %(number)s.") % {
                "player": reg.player, "number": reg.start_number})
            return redirect("manage-players", event.slug)
    return _players_page(request, event, add_form=form, status=400)


@require_POST
@organiser_required
def players_import(request: HttpRequest, event: Event) -> HttpResponse:
    form = CsvImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            created = services.registrations_import_csv(event=event, text=form.cleaned_data["csv"],
                                                        actor=request.user,
                                                        field=form.cleaned_data["source"])
        except ServiceError as exc:
            return _players_page(request, event, import_form=form, status=exc.status,
                                 import_errors=form.show_service_errors(exc.errors))
        messages.success(request, ngettext("%(n)s player imported.", "%(n)s players imported.",
                                           len(created)) % {"n": len(created)})
        if created.reused:
            messages.info(request, ngettext(
                "%(players)s was already in the registry: registered, not created again.",
                "%(players)s were already in the registry: registered, not created again.",
                len(created.reused)) % {"players": ", ".join(str(p) for p in created.reused)})
        return redirect("manage-players", event.slug)
    return _players_page(request, event, import_form=form, status=413 if form.too_large() else 400)


@require_POST
@organiser_required
def registration_status(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """Check in, late entry, withdraw: one button per row; htmx swaps the row."""
    reg = get_object_or_404(Registration.objects.select_related("player"), pk=registration_id,
                            event=event)
    form = StatusForm(request.POST)
    status = 200
    error = ""
    entrants = selectors.registration_count(event)
    if form.is_valid():
        try:
            reg = services.registration_set_status(registration=reg, status=form.cleaned_data["status"],
                                                   actor=request.user)
        except ServiceError as exc:
            error, status = str(exc), exc.status
    else:
        error, status = _("Unknown status."), 400
    if request.headers.get("HX-Request"):
        if selectors.registration_count(event) != entrants:
            # The place given up went to the waiting list's first, who is now a row of the
            # table and off the list: the whole page is new.
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return response
        # The row, and the heading's counts out of band: a withdrawal changes them.
        shown = _entries_shown(event)
        return render(request, "tournaments/manage/_player_row_swap.html", {
            "event": event, "reg": reg, "statuses": Registration.Status, "error": error,
            "next_number": selectors.next_round_number(event),
            "active": selectors.playing_count(event),
            "entry_board": selectors.entry_board(event) if shown else None,
        }, status=status)
    if error:
        messages.error(request, error)
    return redirect("manage-players", event.slug)


# ---------------------------------------------------------------------------------------
# Rounds
# ---------------------------------------------------------------------------------------

@require_POST
@organiser_required
def round_generate(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        job = round_jobs.round_generation_queue(event=event, actor=request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("manage-event", event.slug)
    return redirect("manage-job", event.slug, job.pk)


def _job_context(event: Event, job: Job) -> dict[str, Any]:
    if job.kind == messages_service.MESSAGES_JOB:
        # The e-mails of a round's publication: their page stays (it says what went).
        rnd = event.rounds.filter(pk=job.result.get("round_id")).first()
        number = rnd.number if rnd else None
        title = _("E-mails of round %(n)s") % {"n": number}
        round_url = ""
    else:
        number = job.result.get("round")
        title = _("Seating round %(n)s") % {"n": number}
        round_url = _round_url(event, number) if number and job.status == Job.Status.DONE else ""
    percent = int(100 * job.progress / job.total) if job.total else 0
    return {"event": event, "job": job, "percent": percent, "round_number": number,
            "stale": jobs.is_stale(job), "job_message": jobs.job_message(job),
            "round_url": round_url, "job_title": title}


@organiser_required
def job_detail(request: HttpRequest, event: Event, job_id: int) -> HttpResponse:
    job = get_object_or_404(Job, pk=job_id, event=event)
    context = _job_context(event, job)
    if context["round_url"]:
        # Done already (a fast worker, or eager tasks): straight to the preview.
        return redirect(context["round_url"])
    return render(request, "tournaments/manage/job.html", context)


@require_POST
@organiser_required
def job_retry(request: HttpRequest, event: Event, job_id: int) -> HttpResponse:
    """Queue a failed job, or one whose worker stopped reporting, again."""
    job = get_object_or_404(Job, pk=job_id, event=event)
    if jobs.retry(job):
        messages.success(request, _("The job was queued again."))
    else:
        messages.error(request, _("This job is neither failed nor stuck: it was left as it is."))
    return redirect("manage-job", event.slug, job.pk)


@organiser_required
def job_status(request: HttpRequest, event: Event, job_id: int) -> HttpResponse:
    """The job's progress, polled by the job page; sends the browser to the new round when
    the seating is stored."""
    job = get_object_or_404(Job, pk=job_id, event=event)
    # A job left waiting by a broker outage is handed to the queue again when polled.
    jobs.requeue_if_waiting(job)
    context = _job_context(event, job)
    response = render(request, "tournaments/manage/_job_status.html", context)
    if context["round_url"] and request.headers.get("HX-Request"):
        response["HX-Redirect"] = context["round_url"]
    return response


@organiser_required
def round_manage(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    rnd = round_or_404(event, number)
    tables = selectors.round_tables_status(rnd)
    players = [(str(s.registration.start_number), f"{s.registration.start_number} · {s.registration.player}")
               for t in tables for s in t.seats.all()]
    players.sort(key=lambda p: int(p[0]))
    statuses = [t.scorecard.status for t in tables]
    live = table_links.links_of_round(rnd)
    for table in tables:
        link = live.get(table.pk)
        table.link = link
        table.link_code = table_links.display_code(link.code) if link else ""
    return render(request, "tournaments/manage/round.html", {
        "event": event, "round": rnd, "tables": tables,
        "swap_form": SwapForm(players=players),
        "pending": [t for t in tables if lifecycle.is_pending(t.scorecard)],
        "counts": {s: statuses.count(s) for s in Scorecard.Status.values},
        "rounds": list(selectors.rounds_of(event)),
        "reopen_refusal": lifecycle.reopen_refusal(rnd) if rnd.status == Round.Status.CLOSED else None,
        "unpublish_refusal": (lifecycle.unpublish_refusal(rnd)
                              if rnd.status in lifecycle.PLAYABLE_ROUNDS else None),
        # The closed round leads to seating the next, when that is the one to seat now.
        "next_round": (rnd.status == Round.Status.CLOSED
                       and round_jobs.next_round_number(event) == rnd.number + 1
                       and lifecycle.seating_refusal(event, rnd.number + 1) is None),
        **_round_messages(rnd),
    })


def _round_messages(rnd) -> dict[str, Any]:
    """What the round's page says of the e-mails its publication sent (issue #31)."""
    job = messages_service.messages_job_of(rnd)
    return {"mail_configured": messages_service.mail_configured(), "messages_job": job,
            "messages_job_message": jobs.job_message(job) if job else ""}


@require_POST
@organiser_required
def table_link_reissue(request: HttpRequest, event: Event, number: int, table_number: int) -> HttpResponse:
    """A sheet was lost or its code seen by the wrong people: a new link, the old one dead."""
    table = table_or_404(event, number, table_number)
    link = table_links.link_revoke(table=table, actor=request.user)
    messages.success(request, _("Table %(t)s has a new link (code %(code)s); print its sheet again.")
                     % {"t": table.number, "code": table_links.display_code(link.code)})
    return redirect(_round_url(event, number))


def _round_action(request: HttpRequest, event: Event, number: int, action, done: str) -> HttpResponse:
    rnd = round_or_404(event, number)
    try:
        action(rnd)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return redirect("manage-round", event.slug, number)


@require_POST
@organiser_required
def round_swap(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    first, second = request.POST.get("first", ""), request.POST.get("second", "")
    if not first or not second or first == second:
        messages.error(request, _("Choose two different players to swap."))
        return redirect("manage-round", event.slug, number)
    return _round_action(request, event, number, lambda rnd: services.round_swap_players(
        rnd=rnd, first=first, second=second, actor=request.user),
        _("Players %(a)s and %(b)s swapped.") % {"a": first, "b": second})


@require_POST
@organiser_required
def round_publish(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return _round_action(request, event, number, lambda rnd: services.round_publish(
        rnd=rnd, actor=request.user), _("Round published: players can see their tables."))


@require_POST
@organiser_required
def round_clock(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return _round_action(request, event, number, lambda rnd: services.round_start_clock(
        rnd=rnd, actor=request.user), _("The round clock is running."))


@require_POST
@organiser_required
def round_close(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return _round_action(request, event, number, lambda rnd: round_jobs.round_close(
        rnd=rnd, actor=request.user), _("Round verified and closed."))


@require_POST
@organiser_required
def round_reopen(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Undo a close (issue #33), with the reason kept in the history."""
    return _round_action(request, event, number, lambda rnd: services.round_reopen(
        rnd=rnd, actor=request.user, reason=request.POST.get("reason", "")),
        _("The round is open again: its tables may change their cards; close it again when "
          "they are done."))


@require_POST
@organiser_required
def round_unpublish(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Undo a publication (issue #33), before the tables write, with the reason kept."""
    return _round_action(request, event, number, lambda rnd: services.round_unpublish(
        rnd=rnd, actor=request.user, reason=request.POST.get("reason", "")),
        _("The round is a draft again: players no longer see it. Swap players or seat it again, "
          "then publish it."))
