"""The ranking list of the past: every player's rating after his last rated event on or before
a date, read from the history (`RatingStep`), and the seasons a list can be restricted to.

A season is a league season, July to June, labelled "2025/26" as the leagues name theirs. A
season's list holds the players who played a rated event in it, rated as at its end (today
while it runs). One query reads the list, whatever its length: the database picks each
player's last step up to the date, the one before it (the trend) and how many he has, with
window functions; the rank is counted here.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from django.db.models import Count, F, Window
from django.db.models.functions import Lead, RowNumber
from django.utils import timezone

from rankings.models import Rating, RatingStep

# A season runs from July to June (the leagues' seasons, e.g. "2025/26").
SEASON_FIRST_MONTH = 7
SEASON_LABEL = re.compile(r"^(\d{4})/(\d{2})$")


@dataclass(frozen=True)
class Season:
    label: str
    starts_on: dt.date
    ends_on: dt.date


def season_of(day: dt.date) -> Season:
    first = day.year if day.month >= SEASON_FIRST_MONTH else day.year - 1
    return Season(label=f"{first}/{(first + 1) % 100:02d}",
                  starts_on=dt.date(first, SEASON_FIRST_MONTH, 1),
                  ends_on=dt.date(first + 1, SEASON_FIRST_MONTH, 1) - dt.timedelta(days=1))


def season_by_label(label: str) -> Season | None:
    """The season a label names ("2025/26"), or None for anything else ("2025/27", "x")."""
    match = SEASON_LABEL.match(label)
    if not match or not 1 <= int(match[1]) < 9999:
        return None
    season = season_of(dt.date(int(match[1]), SEASON_FIRST_MONTH, 1))
    return season if season.label == label else None


def family_seasons(family: str) -> list[Season]:
    """The seasons in which the family has rated events, newest first. One query."""
    months = RatingStep.objects.filter(family=family).dates("played_on", "month")
    return sorted({season_of(month) for month in months}, key=lambda s: s.starts_on,
                  reverse=True)


def ratings_on(family: str, on: dt.date) -> list[Rating]:
    """Every rated player's rating after his last rated event on or before `on` (unsaved
    `Rating` rows: the trend against his step before, his tables and events so far), best
    first, each with his `rank` (equal ratings share it). One query."""
    # A player's steps follow each other in the order the engine rated them and each adds at
    # least one table: the step with most tables is his last, the next one down his previous.
    by_tables = {"partition_by": [F("player_id")], "order_by": F("tables").desc()}
    steps = (RatingStep.objects.filter(family=family, played_on__lte=on)
             .annotate(step_no=Window(RowNumber(), **by_tables),
                       previous=Window(Lead("conservative"), **by_tables),
                       events_so_far=Window(Count("id"), partition_by=[F("player_id")]))
             .filter(step_no=1).select_related("player"))
    rows = [Rating(player=s.player, family=family, mu=s.mu, sigma=s.sigma,
                   conservative=s.conservative, previous_conservative=s.previous,
                   tables=s.tables, events=s.events_so_far, last_played_on=s.played_on)
            for s in steps]
    return rank(rows)


def rank(rows: list[Rating]) -> list[Rating]:
    """The rows best first, each with its rank: one more than the number of better ratings."""
    rows.sort(key=lambda r: (-r.conservative, r.player.last_name, r.player.first_name,
                             r.player.pk))
    for i, row in enumerate(rows):
        same = i and rows[i - 1].conservative == row.conservative
        row.rank = rows[i - 1].rank if same else i + 1
    return rows


def season_ratings(family: str, season: Season) -> tuple[list[Rating], dt.date]:
    """The season's list (its players ranked among themselves) and the day it is as of: the
    season's last day, or today while it runs."""
    as_of = min(season.ends_on, timezone.localdate())
    # A player's last step up to the season's end lies in the season exactly when he played
    # a rated event in it.
    rows = [r for r in ratings_on(family, as_of) if r.last_played_on >= season.starts_on]
    return rank(rows), as_of
