"""Reading the ratings for the ranking lists, the API, the CSV export and a player's page.

A ranking list is two queries whatever its length: the ranked ratings with their players (the
rank over the whole family, computed by the database, so a list filtered by club or country
still shows each player's place in the whole list) and the clubs and countries to filter by.
Only rated public events ever reach the ratings (rankings.services), so nothing here needs to
hide anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django_countries import countries

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


def ranking_list(family: str, *, club: str = "", country: str = "") -> RankingList:
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
    pairs = set(Rating.objects.filter(family=family)
                .values_list("player__club", "player__country").distinct())
    run = FamilyRatings.objects.filter(family=family).values_list("rebuilt_at", flat=True).first()
    return RankingList(
        family=family, name=family_name(family), rows=list(ranked),
        clubs=sorted({c for c, _ in pairs if c}, key=str.casefold),
        countries=sorted(((code, str(countries.name(code))) for code in {k for _, k in pairs if k}),
                         key=lambda item: item[1]),
        club=club, country=country, rebuilt_at=run)


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
