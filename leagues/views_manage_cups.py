"""Cup organiser pages under /manage/cups/: create and edit a cup series (best-N, the final),
complete its points table (seed 001's places as the start, the places it does not name
flagged, never invented), add and remove its tournaments (only events the organiser
organises: leagues.roles.can_add_to_cup), and follow the ranking as they close.

Who may do what is leagues.roles; every write is a service of leagues.services."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues import cup_totals, roles, selectors, services
from leagues.forms import CupEventForm, CupForm, CupPointsForm
from leagues.models import CupSeries
from tournaments import selectors as tournament_selectors
from tournaments.errors import ServiceError
from tournaments.forms import add_service_errors
from tournaments.pages.common import login_redirect


def cup_organiser_required(view):
    """As league_organiser_required, for a cup series (`slug` in the URL)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return login_redirect(request)
        series = selectors.cup_by_slug(slug)
        if series is None or not roles.can_view_cup(request.user, series):
            raise Http404(_("No such cup series."))
        if not roles.can_organise_cup(request.user, series):
            raise PermissionDenied(_("You do not run this cup series."))
        return view(request, series, *args, **kwargs)

    return wrapper


def cup_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return login_redirect(request)
    if not roles.can_create(request.user):
        raise PermissionDenied(_("You may not create cup series."))
    form = CupForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                series = services.cup_create(actor=request.user, organisers=[request.user],
                                             seed_points=form.cleaned_data.get("seed_points", False),
                                             **form.service_fields())
            except ServiceError as exc:
                add_service_errors(form, exc.errors)
            else:
                messages.success(request, _("Cup series created. Complete its points table and add its tournaments."))
                return redirect("manage-cup", series.slug)
        status = 400
    return render(request, "leagues/manage/cup_form.html", {"form": form, "series": None}, status=status)


@cup_organiser_required
def cup_edit(request: HttpRequest, series: CupSeries) -> HttpResponse:
    form = CupForm(request.POST or None, initial={
        "name": series.name, "slug": series.slug, "season_label": series.season_label,
        "best_results_counted": series.best_results_counted, "final_counts_extra": series.final_counts_extra,
        "is_public": series.is_public})
    form.fields.pop("seed_points")
    status = 200
    if request.method == "POST":
        if form.is_valid():
            fields = form.service_fields()
            fields.pop("slug")  # a cup keeps its address
            changed = {k: v for k, v in fields.items() if getattr(series, k) != v}
            try:
                if changed:
                    services.cup_update(series=series, actor=request.user, **changed)
            except ServiceError as exc:
                add_service_errors(form, exc.errors)
            else:
                messages.success(request, _("Cup series saved."))
                return redirect("manage-cup", series.slug)
        status = 400
    return render(request, "leagues/manage/cup_form.html", {"form": form, "series": series}, status=status)


def _addable_events(request: HttpRequest, series: CupSeries) -> list[tuple[str, str]]:
    """The events the organiser may put into the series: his own, not yet in it, of the game
    the series ranks."""
    taken = series.series_events.values_list("event_id", flat=True)
    events = tournament_selectors.events_organised_by(request.user).filter(matchday__isnull=True)
    family = selectors.cup_family(series)
    return [(e.slug, f"{e.name} ({e.starts_on:%Y-%m-%d})") for e in events.exclude(pk__in=taken)
            if selectors.fits_cup(family, e)]


def _cup_page(request: HttpRequest, series: CupSeries, *, points_form: CupPointsForm | None = None,
              event_form: CupEventForm | None = None, status: int = 200) -> HttpResponse:
    table = selectors.cup_points_table(series)
    seed = services.seed_cup_points()
    ranking = cup_totals.cup_ranking(series)
    return render(request, "leagues/manage/cup.html", {
        "series": series, "ranking": ranking,
        "points_rows": [{"place": place, "points": points, "seed": seed.get(place) == points and place in seed}
                        for place, points in sorted(table.items())],
        "points_form": points_form or CupPointsForm(initial={"table": CupPointsForm.text_of(table)}),
        "event_form": event_form or CupEventForm(events=_addable_events(request, series)),
        "series_events": selectors.cup_events(series),
        "has_final": any(item.is_final for item in selectors.cup_events(series)),
    }, status=status)


@cup_organiser_required
def cup_manage(request: HttpRequest, series: CupSeries) -> HttpResponse:
    return _cup_page(request, series)


@require_POST
@cup_organiser_required
def cup_points(request: HttpRequest, series: CupSeries) -> HttpResponse:
    form = CupPointsForm(request.POST)
    if form.is_valid():
        try:
            services.cup_points_set(series=series, table=form.cleaned_data["table"], actor=request.user,
                                    reason=form.cleaned_data.get("reason", ""))
        except ServiceError as exc:
            add_service_errors(form, exc.errors, {"points": "table"})
        else:
            messages.success(request, _("Points table saved."))
            return redirect("manage-cup", series.slug)
    return _cup_page(request, series, points_form=form, status=400)


@require_POST
@cup_organiser_required
def cup_event_add(request: HttpRequest, series: CupSeries) -> HttpResponse:
    form = CupEventForm(request.POST, events=_addable_events(request, series))
    if form.is_valid():
        event = tournament_selectors.event_by_slug(form.cleaned_data["event"])
        try:
            services.cup_event_add(series=series, event=event, actor=request.user,
                                   is_final=form.cleaned_data.get("is_final", False))
        except ServiceError as exc:
            add_service_errors(form, exc.errors)
        else:
            messages.success(request, _("%(event)s added to the cup series.") % {"event": event.name})
            return redirect("manage-cup", series.slug)
    return _cup_page(request, series, event_form=form, status=400)


@require_POST
@cup_organiser_required
def cup_event_remove(request: HttpRequest, series: CupSeries, event_slug: str) -> HttpResponse:
    item = series.series_events.select_related("event").filter(event__slug=event_slug).first()
    if item is None:
        raise Http404(_("That tournament is not in the cup series."))
    try:
        services.cup_event_remove(series=series, event=item.event, actor=request.user,
                                  reason=request.POST.get("reason", "")[:500])
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("%(event)s taken out of the cup series.") % {"event": item.event.name})
    return redirect("manage-cup", series.slug)
