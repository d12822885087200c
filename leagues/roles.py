"""Who may change a league or a cup series: its organisers (League.organisers,
CupSeries.organisers) and staff. Everybody may read what is public. Answered in one place for
the pages and the API, built on tournaments.domain.rights (staff, who may create events, who
organises an event), which asks back here for the events of a league's matchdays
(`organises_matchday`, registered in leagues.apps)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from leagues.models import CupSeries, League, Matchday, SeasonMembership
from tournaments.domain import rights
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


def matchday_events_q(user: Any) -> Q:
    """The events of the matchdays of the leagues `user` organises, as a query on Event
    (tournaments.domain.rights asks it for the registry's lists)."""
    return Q(matchday__season__league__organisers=user)


def players_seen_in_leagues_q(user: Any) -> Q:
    """The players of the seasons of public leagues and of the leagues `user` organises, as
    a query on Player: a league's members are on its public pages (tournaments.domain.rights)."""
    leagues = Q(season__league__is_public=True)
    if rights.is_signed_in(user):
        leagues |= Q(season__league__organisers=user)
    return Q(pk__in=SeasonMembership.objects.filter(leagues).values("player_id"))


def league_places(user: Any, player: Any) -> list[bool]:
    """For each league season `player` is a member of: whether `user` organises its league
    (an organiser corrects a player's record only where it plays nowhere but his own)."""
    return [can_organise_league(user, m.season.league)
            for m in SeasonMembership.objects.filter(player=player).select_related("season__league")]


def organises_matchday(user: Any, event: Event) -> bool:
    """The organisers of a league organise the events of its matchdays: the tables, referees
    and rounds of a matchday are theirs like a tournament day's (tournaments.domain.rights asks this
    for events; an event outside the league gives no right)."""
    return Matchday.objects.filter(event_id=event.pk, season__league__organisers=user).exists()

