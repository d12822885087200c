"""Public pages of leagues and cups, and their PDFs. Thin: they read through
leagues.selectors, check visibility with leagues.roles and render."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from leagues import cup_totals, league_standings, next_season, roles, selectors
from leagues.models import Season
from tournaments.domain import limits


def _league_or_404(request, slug: str):
    league = selectors.league_by_slug(slug)
    if league is None or not roles.can_view_league(request.user, league):
        raise Http404("no such league")
    return league


def _season_or_404(request, slug: str, season_slug: str) -> Season:
    league = _league_or_404(request, slug)
    season = selectors.season_by_slug(league, season_slug)
    if season is None:
        raise Http404("no such season")
    return season


def _cup_or_404(request, slug: str):
    series = selectors.cup_by_slug(slug)
    if series is None or not roles.can_view_cup(request.user, series):
        raise Http404("no such cup series")
    return series


def _after(request) -> int | None:
    return limits.whole_number(request.GET.get("after"), low=1, high=limits.SMALL_MAX)


def league_list(request):
    return render(request, "leagues/league_list.html", {
        "leagues": selectors.public_leagues(), "cups": selectors.public_cups(),
    })


def league_detail(request, slug: str):
    league = _league_or_404(request, slug)
    current = selectors.current_season(league)
    standings = league_standings.season_standings(current) if current else None
    return render(request, "leagues/league_detail.html", {
        "league": league, "seasons": selectors.seasons_of(league), "current": current,
        "standings": standings, "can_organise": roles.can_organise_league(request.user, league),
    })


def season_detail(request, slug: str, season: str):
    season_obj = _season_or_404(request, slug, season)
    divisions = selectors.divisions_of(season_obj)
    after = _after(request)
    standings = league_standings.season_standings(season_obj, after=after, divisions=divisions)
    matchdays = [{"matchday": m, "round": selectors.matchday_round(m), "played": selectors.matchday_is_played(m)}
                 for m in standings.matchdays]
    return render(request, "leagues/season_detail.html", {
        "league": season_obj.league, "season": season_obj, "standings": standings,
        "matchdays": matchdays, "after": after,
        "schedule": selectors.schedule_view(season_obj, divisions),
        "next_season": Season.objects.filter(previous=season_obj).first(),
        "criterion_label": next_season.criterion_label((season_obj.formation or {}).get("criterion")),
        "formation_notes": [next_season.note_text(n) for n in (season_obj.formation or {}).get("notes", [])],
        "can_organise": roles.can_organise_league(request.user, season_obj.league),
    })


def season_pdf(request, slug: str, season: str):
    season_obj = _season_or_404(request, slug, season)
    from leagues import pdf  # WeasyPrint is loaded with the first printout, not at start

    data = pdf.season_standings_pdf(season_obj, after=_after(request), language=get_language() or "en")
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{season_obj.league.slug}-{season_obj.slug}.pdf"'
    return response


def cup_list(request):
    return render(request, "leagues/league_list.html", {
        "leagues": selectors.public_leagues(), "cups": selectors.public_cups(),
    })


def cup_detail(request, slug: str):
    series = _cup_or_404(request, slug)
    return render(request, "leagues/cup_detail.html", {
        "series": series, "ranking": cup_totals.cup_ranking(series),
        "can_organise": roles.can_organise_cup(request.user, series),
    })


def cup_pdf(request, slug: str):
    series = _cup_or_404(request, slug)
    from leagues import pdf  # WeasyPrint is loaded with the first printout, not at start

    data = pdf.cup_ranking_pdf(series, language=get_language() or "en")
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{series.slug}.pdf"'
    return response
