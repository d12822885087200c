"""PDF printouts of leagues and cups: a season's league tables and a cup series' ranking,
from templates/pdf/leagues/, which extend the shared print styles of templates/pdf/base.html.

They are rendered by the event printouts' one pipeline (tournaments.printing.base): in the
reader's language, and with WeasyPrint reading nothing but data URIs and Debian's DejaVu font
files, so no player's or league's name can make the server fetch a URL or read another file.
"""

from __future__ import annotations

from django.utils import timezone

from leagues import cup_totals, league_standings
from leagues.models import CupSeries, Season
from tournaments.printing.base import html_to_pdf


def _printed_at() -> str:
    return timezone.localtime(timezone.now()).strftime("%Y-%m-%d %H:%M")


def season_standings_pdf(season: Season, *, after: int | None = None, language: str = "en") -> bytes:
    standings = league_standings.season_standings(season, after=after)
    context = {"season": season, "league": season.league, "standings": standings,
               "language": language, "printed_at": _printed_at()}
    return html_to_pdf("pdf/leagues/season_standings.html", context, language=language,
                       title=f"{season.league.name} {season.name}")


def cup_ranking_pdf(series: CupSeries, *, language: str = "en") -> bytes:
    ranking = cup_totals.cup_ranking(series)
    context = {"series": series, "ranking": ranking, "language": language,
               "printed_at": _printed_at()}
    return html_to_pdf("pdf/leagues/cup_ranking.html", context, language=language,
                       title=series.name)
