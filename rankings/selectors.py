"""Reading the ratings for the ranking lists, the API, the CSV export and a player's page.

Today's ranking list is three queries whatever its length: the ranked ratings with their
players (the rank over the whole family, computed by the database, so a list filtered by club
or country still shows each player's place in the whole list), the clubs and countries to
filter by and when the family was computed. The list as of a date or of a season reads the
history instead (rankings.lists), in two. Only rated
public events ever reach the ratings (rankings.services), so nothing here needs to hide
anything.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django_countries import countries

from rankings import lists
from rankings.families import family_name
from rankings.models import FamilyRatings, Rating, RatingStep


@dataclass
class RankingList:
    family: str
    name: str
    rows: list[Rating]
    clubs: list[str] = field(default_factory=list)
    countries: list[tuple[str, str]] = field(default_factory=list)
    club: str = ""
    country: str = ""
    rebuilt_at: Any = None
    on: dt.date | None = None  # the list as of this day (None: today's ratings)
    season: lists.Season | None = None


def filter_choices(pairs: set[tuple[str, str]]) -> tuple[list[str], list[tuple[str, str]]]:
    """The clubs and the countries (code, name) of these (club, country) pairs, sorted."""
    return (sorted({c for c, _ in pairs if c}, key=str.casefold),
            sorted(((code, str(countries.name(code))) for code in {k for _, k in pairs if k}),
                   key=lambda item: item[1]))


def ranking_list(family: str, *, club: str = "", country: str = "", on: dt.date | None = None,
                 season: lists.Season | None = None) -> RankingList:
    """The family's list: today's ratings, or as of the day `on`, or of a `season` (the
    players who played in it, as at its end), filtered by club and country."""
    run = FamilyRatings.objects.filter(family=family).values_list("rebuilt_at", flat=True).first()
    if on is not None or season is not None:
        if season is not None:
            rows, on = lists.season_ratings(family, season)
        else:
            rows = lists.ratings_on(family, on)
        clubs, country_names = filter_choices({(r.player.club, r.player.country) for r in rows})
        rows = [r for r in rows if (not club or r.player.club == club)
                and (not country or r.player.country == country)]
        return RankingList(family=family, name=family_name(family), rows=rows, clubs=clubs,
                           countries=country_names, club=club, country=country, rebuilt_at=run,
                           on=on, season=season)
    # A rank is one more than the number of better ratings in the whole family (equal ratings
    # share a rank), so it holds in a list filtered by club or country too.
    better = (Rating.objects.filter(family=family, conservative__gt=OuterRef("conservative"))
              .order_by().values("family").annotate(n=Count("pk")).values("n"))
    ranked = (Rating.objects.filter(family=family).select_related("player")
              .annotate(rank=Coalesce(Subquery(better, output_field=IntegerField()), Value(0))
                        + Value(1))
              .order_by("-conservative", "player__last_name", "player__first_name", "player_id"))
    if club:
        ranked = ranked.filter(player__club=club)
    if country:
        ranked = ranked.filter(player__country=country)
    clubs, country_names = filter_choices(set(Rating.objects.filter(family=family)
                                        .values_list("player__club", "player__country")
                                        .distinct()))
    return RankingList(family=family, name=family_name(family), rows=list(ranked), clubs=clubs,
                       countries=country_names, club=club, country=country, rebuilt_at=run)


def rating_dict(row: Rating) -> dict[str, Any]:
    """One line of a ranking list, as the API and the CSV give it."""
    player = row.player
    return {
        "rank": row.rank,
        "player": {"id": player.pk, "name": str(player), "club": player.club,
                   "country": player.country},
        "rating": round(row.conservative, 3),
        "mu": round(row.mu, 3),
        "sigma": round(row.sigma, 3),
        "trend": None if row.trend is None else round(row.trend, 3),
        "tables": row.tables,
        "events": row.events,
        "last_played_on": row.last_played_on.isoformat(),
    }


def player_ratings(player) -> list[dict[str, Any]]:
    """A player's rating in each family he is rated in, with its history (oldest first), for
    his page. Two queries."""
    ratings = list(Rating.objects.filter(player=player).order_by("family"))
    if not ratings:
        return []
    steps: dict[str, list[RatingStep]] = {}
    for step in (RatingStep.objects.filter(player=player).select_related("event")
                 .order_by("played_on", "event__starts_on", "event__slug")):
        steps.setdefault(step.family, []).append(step)
    return [{"family": r.family, "name": family_name(r.family), "rating": r,
             "steps": steps.get(r.family, [])} for r in ratings]
