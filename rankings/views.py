"""Public pages of the rankings: the ranking list of a game family (today's, as of a date or
of a season, filtered by club and country) and its points list, each with its CSV export, and
an event's table statistics. Thin: they parse the filters (rankings.forms), read through
rankings.selectors, rankings.points and rankings.statistics and render. The lists show public
events only (rankings.services); an event's statistics whoever may see the event
(tournaments.domain.rights)."""

from __future__ import annotations

import csv
from urllib.parse import urlencode

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

import scoring.rules
from rankings import lists, points, selectors, statistics
from rankings.families import families
from rankings.forms import ListDateForm
from tournaments import selectors as event_selectors
from tournaments.domain import rights
from tournaments.domain.limits import one_line_text
from tournaments.models import validate_country
from tournaments.runtime.spreadsheets import text_cell

CLUB_MAX = 200


def _family_or_404(family: str) -> str:
    if family not in scoring.rules.families():
        raise Http404(_("No such game."))
    return family


def _club_country(request: HttpRequest) -> tuple[str, str] | None:
    """The page's club and country filters, or None when no player can match them. They are
    compared with stored values, never stored: a club or country nobody can have (too long,
    characters no name holds) lists nobody rather than refusing the page."""
    club = request.GET.get("club", "").strip()
    country = request.GET.get("country", "").strip().upper()
    try:
        one_line_text(club)
        validate_country(country)
    except ValidationError:
        return None
    return (club, country) if len(club) <= CLUB_MAX else None


def _ranking(request: HttpRequest, family: str, *, seasons: list[lists.Season]
             ) -> tuple[selectors.RankingList, ListDateForm]:
    """The list as the page's filters ask; with a date or season the form refuses, the list
    is empty and the form says why."""
    form = ListDateForm(request.GET, seasons=seasons)
    filters = _club_country(request)
    if not form.is_valid() or filters is None:
        ranking = selectors.ranking_list(family)
        ranking.rows, ranking.club, ranking.country = [], "", ""
        return ranking, form
    club, country = filters
    return selectors.ranking_list(family, club=club, country=country,
                                  on=form.cleaned_data["on"], season=form.chosen_season), form


def _points(request: HttpRequest, family: str) -> tuple[points.PointsList, ListDateForm]:
    form = ListDateForm(request.GET, with_season=False)
    filters = _club_country(request)
    if not form.is_valid() or filters is None:
        return points.no_points_list(family), form
    club, country = filters
    return points.points_list(family, on=form.cleaned_data["on"], club=club,
                              country=country), form


def _refused(form: ListDateForm) -> HttpResponse:
    """A CSV asked for a date or season the form refuses: the errors, by field, as text."""
    text = "\n".join(f"{form.fields[name].label}: {' '.join(errors)}"
                      for name, errors in form.errors.items())
    return HttpResponse(text, status=400, content_type="text/plain; charset=utf-8")


def ranking_index(request: HttpRequest) -> HttpResponse:
    """The rankings start with the default ruleset's game."""
    return redirect("ranking-list", scoring.rules.default().family)


def points_index(request: HttpRequest) -> HttpResponse:
    """The points lists start with the default ruleset's game."""
    return redirect("points-list", scoring.rules.default().family)


def ranking_list(request: HttpRequest, family: str) -> HttpResponse:
    family = _family_or_404(family)
    ranking, form = _ranking(request, family, seasons=lists.family_seasons(family))
    return render(request, "rankings/ranking_list.html", {
        "ranking": ranking, "families": families(), "family": family, "form": form,
        "query": _query(ranking.club, ranking.country, form),
        "filtered": any(request.GET.get(k) for k in ("club", "country", "on", "season"))})


def _query(club: str, country: str, form: ListDateForm) -> str:
    """The filters of a list as a query string, for its CSV and its other list."""
    params = {"club": club, "country": country}
    if form.is_valid():
        params["on"] = form.cleaned_data["on"].isoformat() if form.cleaned_data["on"] else ""
        params["season"] = form.cleaned_data.get("season", "")
    return urlencode({k: v for k, v in params.items() if v})


def ranking_csv(request: HttpRequest, family: str) -> HttpResponse:
    family = _family_or_404(family)
    ranking, form = _ranking(request, family, seasons=lists.family_seasons(family))
    if form.errors:
        return _refused(form)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    when = ranking.season.label.replace("/", "-") if ranking.season else (
        ranking.on.isoformat() if ranking.on else "")
    response["Content-Disposition"] = (f'attachment; filename="ranking-{family}'
                                       f'{"-" + when if when else ""}.csv"')
    writer = csv.writer(response)
    writer.writerow([_("Rank"), _("Player"), _("Rating"), _("Trend"), _("Rated tables"),
                     _("Rated events"), _("Club"), _("Country"), _("Last played")])
    for row in ranking.rows:
        writer.writerow([row.rank, text_cell(str(row.player)), f"{row.conservative:.2f}",
                         "" if row.trend is None else f"{row.trend:+.2f}", row.tables, row.events,
                         text_cell(row.player.club), row.player.country,
                         row.last_played_on.isoformat()])
    return response


def points_list(request: HttpRequest, family: str) -> HttpResponse:
    family = _family_or_404(family)
    ranking, form = _points(request, family)
    return render(request, "rankings/points_list.html", {
        "ranking": ranking, "families": families(), "family": family, "form": form,
        "scale": sorted(ranking.rule.scale.items()),
        "query": _query(ranking.club, ranking.country, form),
        "filtered": any(request.GET.get(k) for k in ("club", "country", "on"))})


def points_csv(request: HttpRequest, family: str) -> HttpResponse:
    family = _family_or_404(family)
    ranking, form = _points(request, family)
    if form.errors:
        return _refused(form)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (f'attachment; filename="points-{family}-'
                                       f'{ranking.on.isoformat()}.csv"')
    writer = csv.writer(response)
    writer.writerow([_("Rank"), _("Player"), _("Points"), _("Events counted"), _("Club"),
                     _("Country"), _("Results counted")])
    for row in ranking.rows:
        counted = "; ".join(f"{r.event.name} ({r.event.ends_on.isoformat()}): "
                            f"{r.place}. = {r.points}" for r in row.counted)
        writer.writerow([row.rank, text_cell(str(row.player)), row.total, len(row.counted),
                         text_cell(row.player.club), row.player.country, text_cell(counted)])
    return response


def event_statistics(request: HttpRequest, slug: str) -> HttpResponse:
    """The table figures of an event: for the organiser's report, the hall's screen and the
    players' phones. An event the visitor may not see does not exist for him."""
    event = event_selectors.event_by_slug(slug)
    if event is None or not rights.can_view_event(request.user, event):
        raise Http404(_("No such event."))
    officials = rights.is_official(request.user, event)
    return render(request, "rankings/event_statistics.html", {
        "event": event, "officials": officials, "tab": "statistics",
        "rounds": list(event_selectors.rounds_shown_to(event, with_drafts=officials)),
        **statistics.event_statistics(event)})
