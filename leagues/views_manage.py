"""League organiser pages under /manage/leagues/: create and edit a league; create a season
with its divisions; put players into divisions (from the registry, with the forgiving
search) and edit their seed positions before the schedule is fixed; draw and redraw the
schedule and swap two players with the checker's verdict; create, seat, publish and close
matchdays, whose tables are then the event pages' rounds and tables; finish the season, and
preview and apply the next one (seed 000 §4.2).

Who may do what is leagues.roles (organisers of the league, staff); every write is a service
of leagues.services, whose refusals come back at the form's fields or as a message, never as
a server error.

The season's players in their divisions are leagues.views_manage_members, the cup pages
leagues.views_manage_cups.
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues import next_season, roles, selectors, services
from leagues import presets as league_presets
from leagues.forms import (
    LeagueForm,
    MatchdayForm,
    NextSeasonForm,
    ScheduleSwapForm,
    SeasonEditForm,
    SeasonForm,
)
from leagues.models import League, Matchday, Season, SeasonMembership
from tournaments import selectors as tournament_selectors
from tournaments.domain import limits, rights
from tournaments.errors import ServiceError
from tournaments.forms import add_service_errors
from tournaments.models import Event
from tournaments.pages.common import login_redirect, ruleset_fields_page
from tournaments.runtime import jobs

SEARCH_RESULTS = 20


def league_organiser_required(view):
    """Decorate a view of one league (`slug` in the URL, and `season` when given): anonymous
    visitors are sent to log in; a league (or season) the user may not see does not exist
    for him (404); others without the right get 403 (leagues.roles). The view receives the
    league, or the season, instead of the slugs."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return login_redirect(request)
        league = selectors.league_by_slug(slug)
        if league is None or not roles.can_view_league(request.user, league):
            raise Http404(_("No such league."))
        if not roles.can_organise_league(request.user, league):
            raise PermissionDenied(_("You do not run this league."))
        if "season" in kwargs:
            season = selectors.season_by_slug(league, kwargs.pop("season"))
            if season is None:
                raise Http404(_("No such season."))
            return view(request, season, *args, **kwargs)
        return view(request, league, *args, **kwargs)

    return wrapper


def season_url(season: Season, name: str = "manage-season") -> str:
    return reverse(name, args=[season.league.slug, season.slug])


def division_of(season: Season, pk: int | None):
    return season.divisions.filter(pk=pk).first() if pk else None


def show_refusal(request: HttpRequest, exc: ServiceError) -> None:
    for error in exc.errors:
        messages.error(request, error["message"])


# ---------------------------------------------------------------------------------------
# Leagues
# ---------------------------------------------------------------------------------------

def league_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return login_redirect(request)
    if not roles.can_create(request.user):
        raise PermissionDenied(_("You may not create leagues."))
    preset = None
    if request.method != "POST" and request.GET.get("preset"):
        # A preset fills a new form's initial values (leagues.presets): nothing typed yet.
        preset = league_presets.get(request.GET["preset"])
        if preset is None:
            raise Http404(_("No such preset."))
    form = LeagueForm(request.POST or None, initial=dict(preset.values) if preset else None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                league = services.league_create(actor=request.user, organisers=[request.user],
                                                **form.service_fields())
            except ServiceError as exc:
                add_service_errors(form, exc.errors, LeagueForm.SERVICE_FIELD_MAP)
            else:
                messages.success(request, _("League created. Now create its first season."))
                return redirect("manage-season-create", league.slug)
        status = 400
    return render(request, "leagues/manage/league_form.html", {
        "form": form, "league": None, "presets": league_presets.PRESETS, "preset": preset,
    }, status=status)


def league_ruleset_fields(request: HttpRequest) -> HttpResponse:
    """The mode and option fields of the ruleset chosen in the league form (htmx), with the
    leagues its rulebook describes (on a new league's form only)."""
    return ruleset_fields_page(request, LeagueForm)


@league_organiser_required
def league_edit(request: HttpRequest, league: League) -> HttpResponse:
    form = LeagueForm(request.POST or None, initial=LeagueForm.initial_from(league))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            fields = form.service_fields()
            fields.pop("slug")  # a league keeps its address
            changed = {k: v for k, v in fields.items() if getattr(league, k) != v}
            try:
                if changed:
                    services.league_update(league=league, actor=request.user, **changed)
            except ServiceError as exc:
                add_service_errors(form, exc.errors, LeagueForm.SERVICE_FIELD_MAP)
            else:
                messages.success(request, _("League saved."))
                return redirect("manage-league", league.slug)
        status = 400
    return render(request, "leagues/manage/league_form.html", {"form": form, "league": league},
                  status=status)


@league_organiser_required
def league_manage(request: HttpRequest, league: League) -> HttpResponse:
    return render(request, "leagues/manage/league.html", {
        "league": league, "seasons": list(selectors.seasons_of(league)),
        "organisers": list(league.organisers.all()),
    })


# ---------------------------------------------------------------------------------------
# Seasons
# ---------------------------------------------------------------------------------------

@league_organiser_required
def season_create(request: HttpRequest, league: League) -> HttpResponse:
    form = SeasonForm(request.POST or None, initial={
        "division_count": league.division_count, "division_size": league.division_size,
        "qualification_group": league.qualification_group})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            d = form.cleaned_data
            try:
                season = services.season_create(
                    league=league, actor=request.user, name=d["name"], slug=d["slug"],
                    starts_on=d.get("starts_on"), ends_on=d.get("ends_on"),
                    planned_matchdays=d["planned_matchdays"], divisions=form.divisions())
            except ServiceError as exc:
                add_service_errors(form, exc.errors, SeasonForm.SERVICE_FIELD_MAP)
            else:
                messages.success(request, _("Season created. Now put the players into its divisions."))
                return redirect("manage-season-players", league.slug, season.slug)
        status = 400
    return render(request, "leagues/manage/season_form.html", {"form": form, "league": league},
                  status=status)


@league_organiser_required
def season_edit(request: HttpRequest, season: Season) -> HttpResponse:
    """A season's name, dates and number of matchdays (leagues.services.season_update, which
    refuses fewer matchdays than exist or than the fixed schedule has)."""
    form = SeasonEditForm(request.POST or None,
                          initial={name: getattr(season, name) for name in SeasonEditForm.FIELDS})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            changed = {k: form.cleaned_data[k] for k in SeasonEditForm.FIELDS
                       if form.cleaned_data[k] != getattr(season, k)}
            try:
                if changed:
                    services.season_update(season=season, actor=request.user, **changed)
            except ServiceError as exc:
                add_service_errors(form, exc.errors)
            else:
                messages.success(request, _("Season saved."))
                return redirect(season_url(season))
        status = 400
    return render(request, "leagues/manage/season_edit.html", {
        "form": form, "league": season.league, "season": season, "tab": "season"}, status=status)


def _matchday_rows(season: Season) -> list[dict[str, Any]]:
    rows = []
    for matchday in selectors.matchdays_of(season):
        rnd = selectors.matchday_round(matchday)
        rows.append({"matchday": matchday, "round": rnd, "played": selectors.matchday_is_played(matchday)})
    return rows


@league_organiser_required
def season_manage(request: HttpRequest, season: Season) -> HttpResponse:
    divisions = selectors.divisions_of(season)
    matchdays = _matchday_rows(season)
    next_season = Season.objects.filter(previous=season).first()
    return render(request, "leagues/manage/season.html", {
        "league": season.league, "season": season, "divisions": divisions, "matchdays": matchdays,
        "matchday_form": MatchdayForm(), "can_add_matchday": len(matchdays) < season.planned_matchdays
        and season.status != Season.Status.FINISHED,
        "can_finish": season.status != Season.Status.FINISHED and len(matchdays) >= season.planned_matchdays
        and all(m["played"] for m in matchdays),
        "fixed": selectors.any_matchday_seated(season), "scheduled": bool((season.schedule or {}).get("divisions")),
        "next_season": next_season, "tab": "season",
    })


# ---------------------------------------------------------------------------------------
# Schedule
# ---------------------------------------------------------------------------------------

@league_organiser_required
def season_schedule(request: HttpRequest, season: Season) -> HttpResponse:
    divisions = selectors.divisions_of(season)
    job = services.schedule_job_of(season)
    return render(request, "leagues/manage/schedule.html", {
        "league": season.league, "season": season, "divisions": divisions,
        "schedule": selectors.schedule_view(season, divisions),
        "fixed": selectors.any_matchday_seated(season) or season.status == Season.Status.FINISHED,
        "job": job if job is not None and job.status in ("queued", "running", "failed") else None,
        "job_message": jobs.job_message(job) if job is not None else "",
        "remarks": request.session.pop("league_swap_remarks", None), "tab": "schedule",
    })


@require_POST
@league_organiser_required
def schedule_draw(request: HttpRequest, season: Season) -> HttpResponse:
    raw = request.POST.get("seed", "").strip()
    seed = limits.whole_number(raw) if raw else None
    if raw and seed is None:
        messages.error(request, _("The seed is a whole number of 0 or more."))
        return redirect(season_url(season, "manage-season-schedule"))
    try:
        if services.schedule_needs_job(season):
            services.schedule_job_queue(season=season, actor=request.user, seed=seed)
            messages.info(request, _("The schedule is being drawn in the background; this page shows it when done."))
        else:
            services.schedule_generate(season=season, actor=request.user, seed=seed)
            messages.success(request, _("Schedule drawn."))
    except ServiceError as exc:
        show_refusal(request, exc)
    return redirect(season_url(season, "manage-season-schedule"))


@require_POST
@league_organiser_required
def schedule_swap(request: HttpRequest, season: Season) -> HttpResponse:
    form = ScheduleSwapForm(request.POST)
    back = redirect(season_url(season, "manage-season-schedule"))
    if not form.is_valid():
        messages.error(request, _("Choose the division, the matchday and two players."))
        return back
    d = form.cleaned_data
    division = division_of(season, d["division"])
    visible = tournament_selectors.players_visible_to(request.user)
    first = visible.filter(pk=d["first"]).first()
    second = visible.filter(pk=d["second"]).first()
    if division is None or first is None or second is None:
        messages.error(request, _("That player or division is no longer there."))
        return back
    try:
        result = services.schedule_swap(season=season, division=division, matchday_number=d["matchday"],
                                        first=first, second=second, actor=request.user,
                                        reason=d.get("reason", ""))
    except ServiceError as exc:
        show_refusal(request, exc)
    else:
        messages.success(request, _("%(a)s and %(b)s swapped on matchday %(n)s: %(before)s → %(after)s repeat meetings.")
                         % {"a": first, "b": second, "n": d["matchday"], "before": result["repeat_pairs_before"],
                            "after": result["repeat_pairs"]})
        request.session["league_swap_remarks"] = result["remarks"]
    return back


# ---------------------------------------------------------------------------------------
# Matchdays
# ---------------------------------------------------------------------------------------

@require_POST
@league_organiser_required
def matchday_add(request: HttpRequest, season: Season) -> HttpResponse:
    form = MatchdayForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("A matchday needs its date."))
    else:
        try:
            matchday = services.matchday_create(season=season, actor=request.user, date=form.cleaned_data["date"],
                                                venue=form.cleaned_data.get("venue", ""))
        except ServiceError as exc:
            show_refusal(request, exc)
        else:
            messages.success(request, _("Matchday %(n)s created.") % {"n": matchday.number})
    return redirect(season_url(season))


def _matchday_or_404(season: Season, number: int) -> Matchday:
    matchday = season.matchdays.select_related("event").filter(number=number).first()
    if matchday is None:
        raise Http404(_("No such matchday."))
    return matchday


@league_organiser_required
def matchday_edit(request: HttpRequest, season: Season, number: int) -> HttpResponse:
    """A matchday's date and venue (leagues.services.matchday_update: the matchday's event
    moves with it)."""
    matchday = _matchday_or_404(season, number)
    form = MatchdayForm(request.POST or None, initial={"date": matchday.date, "venue": matchday.event.venue})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.matchday_update(matchday=matchday, actor=request.user, date=form.cleaned_data["date"],
                                         venue=form.cleaned_data.get("venue", ""))
            except ServiceError as exc:
                add_service_errors(form, exc.errors, {"starts_on": "date", "ends_on": "date"})
            else:
                messages.success(request, _("Matchday %(n)s saved.") % {"n": number})
                return redirect(season_url(season))
        status = 400
    return render(request, "leagues/manage/matchday_form.html", {
        "form": form, "league": season.league, "season": season, "matchday": matchday, "tab": "season"},
        status=status)


@require_POST
@league_organiser_required
def matchday_seat(request: HttpRequest, season: Season, number: int) -> HttpResponse:
    matchday = _matchday_or_404(season, number)
    try:
        services.matchday_seat(matchday=matchday, actor=request.user)
    except ServiceError as exc:
        show_refusal(request, exc)
        return redirect(season_url(season))
    messages.success(request, _("Matchday %(n)s is seated from the schedule: check its tables, then publish.")
                     % {"n": number})
    return redirect("manage-round", matchday.event.slug, 1)


@require_POST
@league_organiser_required
def matchday_publish(request: HttpRequest, season: Season, number: int) -> HttpResponse:
    matchday = _matchday_or_404(season, number)
    try:
        services.matchday_publish(matchday=matchday, actor=request.user)
    except ServiceError as exc:
        show_refusal(request, exc)
    else:
        messages.success(request, _("Matchday %(n)s is published: the tables can play.") % {"n": number})
    return redirect(season_url(season))


@require_POST
@league_organiser_required
def matchday_close(request: HttpRequest, season: Season, number: int) -> HttpResponse:
    matchday = _matchday_or_404(season, number)
    try:
        services.matchday_close(matchday=matchday, actor=request.user)
    except ServiceError as exc:
        show_refusal(request, exc)
    else:
        messages.success(request, _("Matchday %(n)s is closed: it counts in the standings.") % {"n": number})
    return redirect(season_url(season))


# ---------------------------------------------------------------------------------------
# End of season
# ---------------------------------------------------------------------------------------

@require_POST
@league_organiser_required
def season_finish(request: HttpRequest, season: Season) -> HttpResponse:
    try:
        services.season_finish(season=season, actor=request.user)
    except ServiceError as exc:
        show_refusal(request, exc)
        return redirect(season_url(season))
    messages.success(request, _("The season is finished: its final order is stored. Now form the next season."))
    return redirect(season_url(season, "manage-season-next"))


def rule_of(placement: Any, league: League) -> str:
    """The clause of seed 000 §4.2 that puts a player where the plan puts him."""
    m, s = league.movement_count, league.division_size
    origin = placement.origin
    if origin == SeasonMembership.Origin.PROMOTED:
        return _("§4.2: the %(m)s best of a lower league go up, to positions %(a)s–%(s)s") % {
            "m": m, "a": s - m + 1, "s": s}
    if origin == SeasonMembership.Origin.RELEGATED:
        return _("§4.2: the last %(m)s of a league go down, to positions 1–%(m)s") % {"m": m}
    if origin == SeasonMembership.Origin.QUALIFIED:
        return _("§4.2: the %(m)s best of the qualification go up to the lowest league") % {"m": m}
    if origin == SeasonMembership.Origin.STAYED:
        return placement.note or _("stays, at the position of his final rank")
    return placement.note or _("applicant")


def _event_or_none(request: HttpRequest, slug: str) -> Event | None:
    event = tournament_selectors.event_by_slug(slug) if slug else None
    return event if event is not None and rights.can_view_event(request.user, event) else None


@league_organiser_required
def season_next(request: HttpRequest, season: Season) -> HttpResponse:
    """The next season's plan, recomputed from what the organiser chose (posted without
    `apply`: a preview, nothing written), and applied (posted with `apply`). While the season
    runs the plan is a preview as if it ended today; only a finished season is applied (the
    service refuses the rest)."""
    league = season.league
    formed = Season.objects.filter(previous=season).first()
    if formed is not None:
        messages.info(request, _("The next season is already formed."))
        return redirect(season_url(formed))
    data = request.POST if request.method == "POST" else None
    apply = data is not None and "apply" in data
    divisions = selectors.divisions_of(season)
    members = [(m.player_id, f"{d.name} {m.final_rank or m.seed_position}. {m.player}")
               for d in divisions for m in d.memberships.all()]
    member_ids = {pid for pid, _label in members}
    posted = data.getlist("applicants") if data is not None else []
    chosen = [n for n in map(limits.whole_number, posted) if n is not None]
    query = (data or request.GET).get("q", "").strip()
    candidates = list(tournament_selectors.players_visible_to(request.user).filter(pk__in=chosen))
    if query:
        candidates += [p for p in tournament_selectors.players_matching(query, request.user)[:SEARCH_RESULTS + len(member_ids)]
                       if p.pk not in member_ids and p.pk not in chosen][:SEARCH_RESULTS]
    form = NextSeasonForm(data, members=members, applicants=[(p.pk, str(p)) for p in candidates],
                          criteria=[(c, next_season.criterion_label(c)) for c in next_season.CRITERIA],
                          initial={"planned_matchdays": season.planned_matchdays,
                                   "applicants": chosen})
    plan = None
    status = 200
    values: dict[str, Any] = {}
    if form.is_bound and form.is_valid():
        d = form.cleaned_data
        for name in ("criterion_event", "qualification_event"):
            values[name] = _event_or_none(request, d.get(name, ""))
            if d.get(name) and values[name] is None:
                form.add_error(name, _("There is no event %(slug)s.") % {"slug": d[name]})
        players = {p.pk: p for p in tournament_selectors.players_visible_to(request.user)
                   .filter(pk__in=[*d["leaving"], *d["applicants"]])}
        values.update(leaving=[players[pk] for pk in d["leaving"] if pk in players],
                      applicants=[players[pk] for pk in d["applicants"] if pk in players],
                      criterion=d.get("criterion") or None)
        if form.is_valid():
            plan = next_season.next_season_plan(season, **values)
            if plan.errors:
                add_service_errors(form, plan.errors)
            elif apply:
                try:
                    new = services.season_advance(
                        season=season, actor=request.user, name=d["name"], slug=d["slug"],
                        starts_on=d.get("starts_on"), ends_on=d.get("ends_on"),
                        planned_matchdays=d.get("planned_matchdays"), **values)
                except ServiceError as exc:
                    add_service_errors(form, exc.errors)
                else:
                    messages.success(request, _("%(season)s is formed: promotions and relegations are in the audit trail.")
                                     % {"season": new.name})
                    return redirect(season_url(new))
    if form.is_bound and form.errors:
        status = 400
    elif not form.is_bound:
        # Opened: the plan as the rules give it, before any choice of the organiser.
        plan = next_season.next_season_plan(season)
    rows = []
    if plan is not None:
        for division in plan.divisions:
            rows.append({"division": division, "vacant": division.vacant_positions(), "placements": [
                {"p": p, "rule": rule_of(p, league)}
                for p in sorted(division.placements, key=lambda p: p.seed_position)]})
    return render(request, "leagues/manage/next_season.html", {
        "league": league, "season": season, "form": form, "plan": plan, "rows": rows, "query": query,
        "tab": "next", "plan_notes": [next_season.note_text(n) for n in plan.notes] if plan else [],
    }, status=status)
