"""API views of a season's matchdays: created (with the event they are played as), moved to
another date or venue, and taken through their round: seated from the schedule, published,
closed. Thin: they find the season and matchday through leagues.api.permissions, parse the
body with a serializer, call one service, and answer through a serializer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from leagues import services
from leagues.api import permissions
from leagues.api.permissions import LeagueApiView
from leagues.api.serializers import (
    MatchdayChangedSerializer,
    MatchdaySerializer,
    MatchdayStepSerializer,
)
from leagues.api.serializers_requests import (
    MatchdayChangeSerializer,
    MatchdayCreateSerializer,
    parsed,
)
from tournaments.api.schema import refusals


@extend_schema(tags=["leagues"])
class MatchdayListView(LeagueApiView):
    @extend_schema(operation_id="league_season_matchday_create",
                   summary="Create a matchday and the event it is played as (the league's organisers)",
                   request=MatchdayCreateSerializer, responses={201: MatchdaySerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, season: str) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        data = parsed(MatchdayCreateSerializer, request.data, request)
        matchday = services.matchday_create(season=found, actor=request.user, **data)
        return Response(MatchdaySerializer(matchday).data, status=201)


@extend_schema(tags=["leagues"])
class MatchdayDetailView(LeagueApiView):
    @extend_schema(operation_id="league_season_matchday_update",
                   summary="Move a matchday to another date or venue",
                   request=MatchdayChangeSerializer,
                   responses={200: MatchdayChangedSerializer, **refusals(400, 403, 404)})
    def patch(self, request: Request, slug: str, season: str, number: int) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        matchday = permissions.matchday_of(found, number)
        data = parsed(MatchdayChangeSerializer, request.data, request)
        matchday = services.matchday_update(matchday=matchday, actor=request.user, date=data["date"],
                                            venue=data.get("venue"))
        return Response(MatchdayChangedSerializer(matchday).data)


class _MatchdayStepView(LeagueApiView):
    """POST .../matchdays/<n>/seat|publish|close/: one step of a matchday's round."""

    step: Callable[..., Any]

    def take_step(self, request: Request, slug: str, season: str, number: int) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        matchday = permissions.matchday_of(found, number)
        rnd = self.step(matchday=matchday, actor=request.user)
        return Response(MatchdayStepSerializer({"matchday": matchday, "round": rnd}).data)


STEP = {"request": None, "responses": {200: MatchdayStepSerializer, **refusals(400, 403, 404)}}


@extend_schema(tags=["leagues"])
class MatchdaySeatView(_MatchdayStepView):
    step = staticmethod(services.matchday_seat)

    @extend_schema(operation_id="league_season_matchday_seat",
                   summary="Seat a matchday's round from the schedule (a draft)", **STEP)
    def post(self, request: Request, slug: str, season: str, number: int) -> Response:
        return self.take_step(request, slug, season, number)


@extend_schema(tags=["leagues"])
class MatchdayPublishView(_MatchdayStepView):
    step = staticmethod(services.matchday_publish)

    @extend_schema(operation_id="league_season_matchday_publish",
                   summary="Publish a matchday's seated round: its tables start playing", **STEP)
    def post(self, request: Request, slug: str, season: str, number: int) -> Response:
        return self.take_step(request, slug, season, number)


@extend_schema(tags=["leagues"])
class MatchdayCloseView(_MatchdayStepView):
    step = staticmethod(services.matchday_close)

    @extend_schema(operation_id="league_season_matchday_close",
                   summary="Close a matchday whose scorecards are all confirmed", **STEP)
    def post(self, request: Request, slug: str, season: str, number: int) -> Response:
        return self.take_step(request, slug, season, number)
