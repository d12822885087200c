"""Public pages of the rankings: the ranking list of a game family (filtered by club and
country) and its CSV export, and an event's table statistics. Thin: they parse the filters,
read through rankings.selectors and rankings.statistics and render. The ranking lists show
public events only (rankings.services); an event's statistics whoever may see the event
(tournaments.rights)."""

from __future__ import annotations

import csv

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

import scoring.rules
from rankings import selectors, statistics
from rankings.families import families
from tournaments import rights
from tournaments import selectors as event_selectors
from tournaments.limits import one_line_text
from tournaments.models import validate_country
from tournaments.spreadsheets import text_cell

CLUB_MAX = 200


def _family_or_404(family: str) -> str:
    if family not in scoring.rules.families():
        raise Http404(_("No such game."))
    return family


def _ranking(request: HttpRequest, family: str) -> selectors.RankingList:
    """The list as the page's filters ask. The filters are compared with stored values, never
    stored: a club or country nobody can have (too long, characters no name holds) lists
    nobody rather than refusing the page."""
    club = request.GET.get("club", "").strip()
    country = request.GET.get("country", "").strip().upper()
    try:
        one_line_text(club)
        validate_country(country)
        matchable = len(club) <= CLUB_MAX
    except ValidationError:
        matchable = False
    if not matchable:
        ranking = selectors.ranking_list(family)
        ranking.rows, ranking.club, ranking.country = [], "", ""
        return ranking
    return selectors.ranking_list(family, club=club, country=country)


def ranking_index(request: HttpRequest) -> HttpResponse:
    """The rankings start with the default ruleset's game."""
    return redirect("ranking-list", scoring.rules.default().family)


def ranking_list(request: HttpRequest, family: str) -> HttpResponse:
    family = _family_or_404(family)
    ranking = _ranking(request, family)
    return render(request, "rankings/ranking_list.html", {
        "ranking": ranking, "families": families(), "family": family,
        "filtered": bool(request.GET.get("club") or request.GET.get("country"))})


def ranking_csv(request: HttpRequest, family: str) -> HttpResponse:
    family = _family_or_404(family)
    ranking = _ranking(request, family)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ranking-{family}.csv"'
    writer = csv.writer(response)
    writer.writerow([_("Rank"), _("Player"), _("Rating"), _("Trend"), _("Rated tables"),
                     _("Rated events"), _("Club"), _("Country"), _("Last played")])
    for row in ranking.rows:
        writer.writerow([row.rank, text_cell(str(row.player)), f"{row.conservative:.2f}",
                         "" if row.trend is None else f"{row.trend:+.2f}", row.tables, row.events,
                         text_cell(row.player.club), row.player.country,
                         row.last_played_on.isoformat()])
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
