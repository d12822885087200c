"""Reads of leagues and cup series, shaped for the pages, the API and the printouts: leagues,
seasons, divisions, matchdays and their schedule, cups and their tournaments. The calculations over them live in their own modules: the league
standings (`leagues.league_standings`), the next season's plan (`leagues.next_season`) and a
cup's ranking (`leagues.cup_totals`).

The joins are done up front, so a page's query count grows with the number of matchdays or
tournaments, never with the number of players.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Prefetch, QuerySet

from leagues.models import (
    CupPoints,
    CupSeries,
    CupSeriesEvent,
    Division,
    League,
    Matchday,
    Season,
    SeasonMembership,
)
from scoring import rules
from tournaments.domain import lifecycle
from tournaments.models import Event, Round, Scorecard, Table
from tournaments.seating import no_repeat_bound, schedule_distance

# ---------------------------------------------------------------------------------------
# Leagues, seasons
# ---------------------------------------------------------------------------------------


def public_leagues() -> QuerySet[League]:
    return League.objects.filter(is_public=True).order_by("name")


def league_by_slug(slug: str) -> League | None:
    return League.objects.filter(slug=slug).first()


def leagues_organised_by(user) -> QuerySet[League]:
    if getattr(user, "is_staff", False):
        return League.objects.order_by("name")
    return League.objects.filter(organisers=user).order_by("name")


def cups_organised_by(user) -> QuerySet[CupSeries]:
    if getattr(user, "is_staff", False):
        return CupSeries.objects.order_by("name")
    return CupSeries.objects.filter(organisers=user).order_by("name")


def seasons_of(league: League) -> QuerySet[Season]:
    return league.seasons.order_by("-starts_on", "-id")


def season_by_slug(league: League, slug: str) -> Season | None:
    return league.seasons.filter(slug=slug).select_related("league", "previous").first()


def current_season(league: League) -> Season | None:
    """The running season, else the last finished one (its final table), else the one being
    planned: a league's page opens on games played, not on an empty upcoming season."""
    seasons = list(seasons_of(league))
    for status in (Season.Status.RUNNING, Season.Status.FINISHED, Season.Status.PLANNING):
        for season in seasons:
            if season.status == status:
                return season
    return None


def divisions_of(season: Season) -> list[Division]:
    members = SeasonMembership.objects.select_related("player").order_by("seed_position")
    return list(season.divisions.order_by("level").prefetch_related(
        Prefetch("memberships", queryset=members)))


def league_divisions(divisions: Sequence[Division]) -> list[Division]:
    """The leagues proper (I., II., III. ...), highest first; the qualification group apart."""
    return [d for d in sorted(divisions, key=lambda d: d.level) if not d.is_qualification]


def qualification_division(divisions: Sequence[Division]) -> Division | None:
    return next((d for d in divisions if d.is_qualification), None)


def matchdays_of(season: Season) -> list[Matchday]:
    return list(season.matchdays.select_related("event").order_by("number"))


def matchday_round(matchday: Matchday) -> Round | None:
    return matchday.event.rounds.order_by("number").first()


def matchday_is_played(matchday: Matchday) -> bool:
    """A matchday is played when every round of its event is closed."""
    rounds = list(matchday.event.rounds.all())
    return bool(rounds) and all(r.status == Round.Status.CLOSED for r in rounds)


def any_matchday_seated(season: Season) -> bool:
    return Round.objects.filter(event__matchday__season=season).exists()


def schedule_of(season: Season, division: Division) -> dict[str, Any] | None:
    """The stored schedule of one division: {"rounds": [[[player pk, ...], ...], ...],
    "repeat_pairs": n, "notes": [...], "seed": s}, or None."""
    return (season.schedule or {}).get("divisions", {}).get(str(division.level))


def schedule_view(season: Season, divisions: Sequence[Division]) -> list[dict[str, Any]]:
    """The schedule with player objects instead of ids, per division and matchday."""
    players = {str(m.player_id): m.player for d in divisions for m in d.memberships.all()}
    out = []
    for division in divisions:
        stored = schedule_of(season, division)
        if not stored:
            continue
        rounds = stored.get("rounds", [])
        league = season.league
        out.append({
            "division": division,
            "repeat_pairs": stored.get("repeat_pairs", 0),
            "notes": stored.get("notes", []),
            # The bound of the field and how far this schedule is from it, from the seating
            # engine as {code, params, text}; recomputed so older stored schedules show it too.
            "bound": no_repeat_bound(len(stored.get("players", [])), league.table_size, league.min_table_size),
            "distance": schedule_distance(rounds, (), len(stored.get("players", [])), league.table_size,
                                          league.min_table_size),
            "matchdays": [
                {"number": n, "tables": [[players.get(pid) for pid in table] for table in tables]}
                for n, tables in enumerate(stored.get("rounds", []), start=1)
            ],
        })
    return out


# ---------------------------------------------------------------------------------------
# League standings
# ---------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------
# The next season: promotion, relegation, selection of applicants
# ---------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------
# Cup series
# ---------------------------------------------------------------------------------------


def public_cups() -> QuerySet[CupSeries]:
    return CupSeries.objects.filter(is_public=True).order_by("name")


def cup_by_slug(slug: str) -> CupSeries | None:
    return CupSeries.objects.filter(slug=slug).first()


def cup_events(series: CupSeries) -> list[CupSeriesEvent]:
    return list(series.series_events.select_related("event").order_by("order", "event__starts_on", "id"))


def cup_family(series: CupSeries) -> str | None:
    """The game family a cup series ranks: that of its first tournament (a cup ranks one game,
    so its points mean the same at every tournament); None while it has none."""
    first = series.series_events.select_related("event").order_by("order", "id").first()
    return rules.family_of(first.event.ruleset_code) if first is not None else None


def fits_cup(family: str | None, event: Event) -> bool:
    """Whether `event` plays the game of a cup of `family` (any game fits an empty cup)."""
    return family is None or rules.family_of(event.ruleset_code) == family


def cup_points_table(series: CupSeries) -> dict[int, int]:
    return dict(CupPoints.objects.filter(series=series).order_by("place").values_list("place", "points"))


# ---------------------------------------------------------------------------------------
# Matchday tables (for a season page)
# ---------------------------------------------------------------------------------------


def pending_cards_of(matchday: Matchday) -> int:
    return Scorecard.objects.filter(table__round__event=matchday.event, status__in=lifecycle.PENDING_CARDS).count()


def matchday_tables(matchday: Matchday) -> list[Table]:
    return list(Table.objects.filter(round__event=matchday.event).select_related("scorecard")
                .prefetch_related("seats__registration__player").order_by("round__number", "number"))
