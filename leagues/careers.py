"""A player's career in leagues and cups, for his public page and the API: the seasons he
played with his division, seed, final rank and score, and the cup series with his counted
results."""

from __future__ import annotations

from dataclasses import dataclass

from leagues.cup_totals import cup_ranking
from leagues.league_standings import season_standings
from leagues.models import (
    CupSeries,
    Division,
    League,
    Season,
    SeasonMembership,
)
from tournaments.models import Player


@dataclass
class LeagueCareerEntry:
    league: League
    season: Season
    division: Division
    seed_position: int
    origin: str
    origin_label: str
    rank: int | None
    final: bool
    score: int
    matchdays_played: int


@dataclass
class CupCareerEntry:
    series: CupSeries
    rank: int
    total: int
    tournaments_played: int
    counted: int
    players: int


def player_career(player: Player) -> dict[str, list]:
    """The leagues and cups part of a player's page: every league season he was a member of
    (division, seed position, where he came from, his rank: final once the season is
    finished, current otherwise) and every cup series he played a counted tournament of."""
    memberships = list(
        SeasonMembership.objects.filter(player=player)
        .select_related("season__league", "division")
        .order_by("-season__starts_on", "-season__id")
    )
    leagues: list[LeagueCareerEntry] = []
    for m in memberships:
        season = m.season
        if not season.league.is_public:
            continue
        standings = season_standings(season, divisions=[m.division])
        row = next((r for d in standings.divisions for r in d.rows if r.membership.player_id == player.pk), None)
        leagues.append(LeagueCareerEntry(
            league=season.league, season=season, division=m.division,
            seed_position=m.seed_position, origin=m.origin, origin_label=m.get_origin_display(),
            rank=(row.rank or None) if row and (row.matchdays_played or standings.final) else None,
            final=standings.final, score=row.score if row else 0,
            matchdays_played=row.matchdays_played if row else 0,
        ))
    cups: list[CupCareerEntry] = []
    series_qs = (CupSeries.objects.filter(is_public=True, series_events__event__registrations__player=player)
                 .distinct().order_by("name"))
    for series in series_qs:
        ranking = cup_ranking(series)
        row = ranking.row_for(player)
        if row is None:
            continue
        cups.append(CupCareerEntry(series=series, rank=row.rank, total=row.total,
                                   tournaments_played=row.tournaments_played,
                                   counted=len(row.counted), players=len(ranking.rows)))
    return {"leagues": leagues, "cups": cups}
