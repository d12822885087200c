"""The federation-style points list of a game family, beside the rating list: every rated public
event of the family whose last day falls in the months before the list's date (12 by default)
gives each of its players the points of his place in its standings by the family's scale
(`rankings.families.points_rule`: seed 001's cup points unless configured); a player's total
is the sum of his best N results, and equal totals share a rank.

Which events count is the ratings' rule (`rankings.services.rated_events`), never written
again here. Nothing is stored: the list is computed when asked, in a constant number of
queries whatever the number of players — the events, the cached places of each event (one
cache read for all), the players. An event's places are cached by its `results_version`,
which every audited change of the event bumps (tournaments.services.audit), so a correction shows at
once; the events not in the cache yet are computed together, in three more queries.
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import caches
from django.utils import timezone

from rankings.families import PointsRule, family_name, points_rule, ruleset_codes
from rankings.selectors import filter_choices
from rankings.services import rated_events
from tournaments.domain.standings import events_standings
from tournaments.models import Event, Player

PLACES_CACHE_SECONDS = 7 * 24 * 3600


@dataclass
class PointsResult:
    event: Event
    place: int
    points: int
    counted: bool = False


@dataclass
class PointsRow:
    player: Player
    results: list[PointsResult]
    total: int = 0
    rank: int = 0

    @property
    def counted(self) -> list[PointsResult]:
        return [r for r in self.results if r.counted]

    @property
    def dropped(self) -> int:
        return len(self.results) - len(self.counted)


@dataclass
class PointsList:
    family: str
    name: str
    rule: PointsRule
    on: dt.date
    since: dt.date  # events whose last day is after this day and not after `on` count
    rows: list[PointsRow]
    events: list[Event]
    missing_places: list[int] = field(default_factory=list)
    clubs: list[str] = field(default_factory=list)
    countries: list[tuple[str, str]] = field(default_factory=list)
    club: str = ""
    country: str = ""

    @property
    def missing_text(self) -> str:
        """The places reached that the scale gives no points, as ranges ("4–49, 51")."""
        spans: list[list[int]] = []
        for place in self.missing_places:
            if spans and place == spans[-1][1] + 1:
                spans[-1][1] = place
            else:
                spans.append([place, place])
        return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in spans)


def months_before(day: dt.date, months: int) -> dt.date:
    """The same day `months` earlier (the month's last day where it is shorter)."""
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    if year < dt.MINYEAR:
        return dt.date.min
    return dt.date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def event_places(events: list[Event]) -> dict[int, list[tuple[int, int]]]:
    """Each event's (player id, rank) of everyone who played a counted table, from the cache
    (one read for all) or its standings."""
    cache = caches["default"]
    keys = {event.pk: f"rankings:places:{event.pk}:{event.results_version}" for event in events}
    found = cache.get_many(list(keys.values())) if keys else {}
    places: dict[int, list[tuple[int, int]]] = {}
    missing = [event for event in events if keys[event.pk] not in found]
    # The events not in the cache are computed together, in three queries whatever their number.
    computed = events_standings(missing, with_players=False)
    fresh: dict[str, list[tuple[int, int]]] = {}
    for event in events:
        key = keys[event.pk]
        if key in found:
            places[event.pk] = found[key]
            continue
        places[event.pk] = fresh[key] = [(row.registration.player_id, row.rank)
                                         for row in computed[event.pk].rows
                                         if row.rounds_played]
    if fresh:
        cache.set_many(fresh, PLACES_CACHE_SECONDS)
    return places


def points_list(family: str, *, on: dt.date | None = None, club: str = "",
                country: str = "") -> PointsList:
    """The family's points list as of `on` (today by default), filtered by club and country
    (each player keeps his rank in the whole list)."""
    rule = points_rule(family)
    on = on or timezone.localdate()
    since = months_before(on, rule.months)
    events = list(rated_events().filter(ruleset_code__in=ruleset_codes(family),
                                        ends_on__gt=since, ends_on__lte=on)
                  .order_by("-ends_on", "slug"))
    results: dict[int, list[PointsResult]] = {}
    missing: set[int] = set()
    last_named = max(rule.scale, default=0)
    places = event_places(events)
    for event in events:
        for player_id, place in places[event.pk]:
            points = rule.scale.get(place)
            if points is None and place < last_named:
                missing.add(place)
            results.setdefault(player_id, []).append(
                PointsResult(event=event, place=place, points=points or 0))
    for own in results.values():
        # Equal points: the more recent result is the one counted (only the total matters).
        for result in sorted(own, key=lambda r: -r.points)[:rule.best]:
            result.counted = result.points > 0
    players = Player.objects.in_bulk([pk for pk, own in results.items()
                                      if any(r.counted for r in own)])
    rows = [PointsRow(player=players[pk], results=results[pk],
                      total=sum(r.points for r in results[pk] if r.counted)) for pk in players]
    rows.sort(key=lambda r: (-r.total, r.player.last_name, r.player.first_name, r.player.pk))
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and rows[i - 1].total == row.total else i + 1
    clubs, countries = filter_choices({(r.player.club, r.player.country) for r in rows})
    shown = [r for r in rows if (not club or r.player.club == club)
             and (not country or r.player.country == country)]
    return PointsList(family=family, name=family_name(family), rule=rule, on=on, since=since,
                      rows=shown, events=events, missing_places=sorted(missing), clubs=clubs,
                      countries=countries, club=club, country=country)


def no_points_list(family: str) -> PointsList:
    """The frame of a list asked with filters nobody can match: nothing computed."""
    rule = points_rule(family)
    on = timezone.localdate()
    return PointsList(family=family, name=family_name(family), rule=rule, on=on,
                      since=months_before(on, rule.months), rows=[], events=[])


def points_dict(row: PointsRow) -> dict[str, Any]:
    """One line of a points list, as the API gives it."""
    player = row.player
    return {
        "rank": row.rank,
        "player": {"id": player.pk, "name": str(player), "club": player.club,
                   "country": player.country},
        "points": row.total,
        "events_counted": len(row.counted),
        "results": [{"event": {"slug": r.event.slug, "name": r.event.name,
                               "ends_on": r.event.ends_on.isoformat()},
                     "place": r.place, "points": r.points, "counted": r.counted}
                    for r in row.results],
    }
