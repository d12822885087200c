"""Who may change a league or a cup series: its organisers (League.organisers,
CupSeries.organisers) and staff. Everybody may read what is public. Answered in one place for
the pages and the API, built on tournaments.rights (staff, who may create events, who
organises an event), which asks back here for the events of a league's matchdays
(`organises_matchday`, registered in leagues.apps)."""

from __future__ import annotations

from typing import Any

from leagues.models import CupSeries, League, Matchday
from tournaments import rights
from tournaments.models import Event


def can_organise_league(user: Any, league: League) -> bool:
    if not rights.is_signed_in(user):
        return rights.is_system(user)
    return rights.is_staff(user) or league.organisers.filter(pk=user.pk).exists()


def can_organise_cup(user: Any, series: CupSeries) -> bool:
    if not rights.is_signed_in(user):
        return rights.is_system(user)
    return rights.is_staff(user) or series.organisers.filter(pk=user.pk).exists()


def can_create(user: Any) -> bool:
    """A new league or cup series is created by whoever may create events (staff, users given
    the right, organisers of an event or a league), who becomes its organiser."""
    return rights.can_create_events(user)


def can_view_league(user: Any, league: League) -> bool:
    return league.is_public or can_organise_league(user, league)


def can_view_cup(user: Any, series: CupSeries) -> bool:
    return series.is_public or can_organise_cup(user, series)


def organises_matchday(user: Any, event: Event) -> bool:
    """The organisers of a league organise the events of its matchdays: the tables, referees
    and rounds of a matchday are theirs like a tournament day's (tournaments.rights asks this
    for events; an event outside the league gives no right)."""
    return Matchday.objects.filter(event_id=event.pk, season__league__organisers=user).exists()

