"""Who may change a league or a cup series: its organisers (League.organisers,
CupSeries.organisers) and staff. Everybody may read what is public. Answered in one place for
the pages and the API, like tournaments.roles is for events."""

from __future__ import annotations

from typing import Any

from leagues.models import CupSeries, League
from tournaments.rights import is_staff


def can_organise_league(user: Any, league: League) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return is_staff(user) or league.organisers.filter(pk=user.pk).exists()


def can_organise_cup(user: Any, series: CupSeries) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return is_staff(user) or series.organisers.filter(pk=user.pk).exists()


def can_create(user: Any) -> bool:
    """A new league or cup series is created by staff, who then name its organisers."""
    return is_staff(user)


def can_view_league(user: Any, league: League) -> bool:
    return league.is_public or can_organise_league(user, league)


def can_view_cup(user: Any, series: CupSeries) -> bool:
    return series.is_public or can_organise_cup(user, series)
