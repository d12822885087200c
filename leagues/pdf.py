"""PDF printouts of leagues and cups: a season's league tables and a cup series' ranking,
rendered with WeasyPrint from templates/pdf/leagues/, which extend the shared print styles of
templates/pdf/base.html.

Like the event printouts, WeasyPrint here reads nothing but data URIs and Debian's DejaVu
font files (tournaments.printing.fetch), so no player's or league's name can make the
server fetch a URL or read another file.
"""

from __future__ import annotations

import weasyprint
from django.template.loader import render_to_string
from django.utils import timezone

from leagues import cup_totals, league_standings
from leagues.models import CupSeries, Season
from tournaments.printing.fetch import PrintFetcher


def _printed_at() -> str:
    return timezone.localtime(timezone.now()).strftime("%Y-%m-%d %H:%M")


def _pdf(template: str, context: dict, title: str) -> bytes:
    html = render_to_string(template, {**context, "printed_at": _printed_at()})
    document = weasyprint.HTML(string=html, url_fetcher=PrintFetcher()).render()
    document.metadata.title = title
    return document.write_pdf()


def season_standings_pdf(season: Season, *, after: int | None = None, language: str = "en") -> bytes:
    standings = league_standings.season_standings(season, after=after)
    context = {"season": season, "league": season.league, "standings": standings,
               "language": language}
    return _pdf("pdf/leagues/season_standings.html", context, f"{season.league.name} {season.name}")


def cup_ranking_pdf(series: CupSeries, *, language: str = "en") -> bytes:
    ranking = cup_totals.cup_ranking(series)
    return _pdf("pdf/leagues/cup_ranking.html", {"series": series, "ranking": ranking, "language": language},
                series.name)
