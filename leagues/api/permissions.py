"""The leagues API's side of `leagues.roles`: finding the league, season, matchday and cup
series of a URL as the caller may see them, and refusing early what he may not change.

Every rule is `leagues.roles`' (built on `tournaments.domain.rights`); this module only finds objects
and raises the refusals: 404 for what does not exist for the caller, 403 for a missing right.
The views allow every caller through DRF (`AllowAny`) because anonymous reads of public
leagues are allowed and a write is refused here, by the role, in the API's error shape."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from leagues import roles, selectors
from leagues.models import CupSeries, League, Matchday, Season
from tournaments.errors import Forbidden, NotFound


class LeagueApiView(APIView):
    """The base of the leagues API's views: who may act is asked of `leagues.roles` through
    the functions below, not of a DRF permission class."""

    permission_classes = [AllowAny]


def visible_league(user: Any, slug: str, *, write: bool = False) -> League:
    league = selectors.league_by_slug(slug)
    if league is None or not roles.can_view_league(user, league):
        raise NotFound(_("there is no league %(slug)s") % {"slug": slug}, field="league", code="not_found")
    if write and not roles.can_organise_league(user, league):
        raise Forbidden(_("only the league's organisers may change it"), field="league", code="forbidden")
    return league


def visible_season(user: Any, slug: str, season: str, *, write: bool = False) -> Season:
    league = visible_league(user, slug, write=write)
    found = selectors.season_by_slug(league, season)
    if found is None:
        raise NotFound(_("the league has no season %(slug)s") % {"slug": season}, field="season",
                       code="not_found")
    return found


def matchday_of(season: Season, number: int) -> Matchday:
    found = season.matchdays.select_related("event").filter(number=number).first()
    if found is None:
        raise NotFound(_("the season has no matchday %(number)s") % {"number": number}, field="matchday",
                       code="not_found")
    return found


def visible_cup(user: Any, slug: str, *, write: bool = False) -> CupSeries:
    series = selectors.cup_by_slug(slug)
    if series is None or not roles.can_view_cup(user, series):
        raise NotFound(_("there is no cup series %(slug)s") % {"slug": slug}, field="cup", code="not_found")
    if write and not roles.can_organise_cup(user, series):
        raise Forbidden(_("only the cup's organisers may change it"), field="cup", code="forbidden")
    return series


def require_creator(user: Any) -> None:
    if not roles.can_create(user):
        raise Forbidden(_("only who may create events creates leagues and cup series"), field="user",
                        code="forbidden")
