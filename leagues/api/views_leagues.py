"""API views of leagues and their seasons (list, create, read, change), a season's standings,
and a player's leagues and cups. Thin: they find the objects through leagues.api.permissions,
parse the body with a serializer, call one service or selector, and answer through a
serializer."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from leagues import careers, league_standings, selectors, services
from leagues.api import permissions
from leagues.api.permissions import LeagueApiView
from leagues.api.serializers import (
    LeagueListSerializer,
    LeagueSerializer,
    LeagueStandingsSerializer,
    PlayerCareerSerializer,
    SeasonListSerializer,
    SeasonSerializer,
)
from leagues.api.serializers_requests import (
    LeagueChangeSerializer,
    LeagueWriteSerializer,
    SeasonChangeSerializer,
    SeasonCreateSerializer,
    StandingsQuerySerializer,
    parsed,
)
from tournaments.api.schema import refusals
from tournaments.domain import rights as tournament_rights
from tournaments.errors import NotFound
from tournaments.models import Player


@extend_schema(tags=["leagues"])
class LeagueListView(LeagueApiView):
    @extend_schema(operation_id="leagues_list", summary="The public leagues",
                   responses={200: LeagueListSerializer})
    def get(self, request: Request) -> Response:
        return Response(LeagueListSerializer({"leagues": selectors.public_leagues()}).data)

    @extend_schema(operation_id="leagues_create",
                   summary="Create a league (whoever may create events), who becomes its organiser",
                   request=LeagueWriteSerializer, responses={201: LeagueSerializer, **refusals(400, 403)})
    def post(self, request: Request) -> Response:
        permissions.require_creator(request.user)
        fields = parsed(LeagueWriteSerializer, request.data, request)
        league = services.league_create(actor=request.user, organisers=[request.user], **fields)
        return Response(LeagueSerializer(league).data, status=201)


@extend_schema(tags=["leagues"])
class LeagueDetailView(LeagueApiView):
    @extend_schema(operation_id="league_retrieve", summary="A league, with its seasons",
                   responses={200: LeagueSerializer, **refusals(404)})
    def get(self, request: Request, slug: str) -> Response:
        return Response(LeagueSerializer(permissions.visible_league(request.user, slug)).data)

    @extend_schema(operation_id="league_update", summary="Change a league (its organisers); the slug stays",
                   request=LeagueChangeSerializer, responses={200: LeagueSerializer, **refusals(400, 403, 404)})
    def patch(self, request: Request, slug: str) -> Response:
        league = permissions.visible_league(request.user, slug, write=True)
        serializer = LeagueChangeSerializer(league, data=request.data, partial=True, context={"request": request})
        serializer.is_valid(raise_exception=True)
        league = services.league_update(league=league, actor=request.user, **serializer.validated_data)
        return Response(LeagueSerializer(league).data)


@extend_schema(tags=["leagues"])
class SeasonListView(LeagueApiView):
    @extend_schema(operation_id="league_seasons_list", summary="A league's seasons, newest first",
                   responses={200: SeasonListSerializer, **refusals(404)})
    def get(self, request: Request, slug: str) -> Response:
        league = permissions.visible_league(request.user, slug)
        return Response(SeasonListSerializer({"seasons": selectors.seasons_of(league)}).data)

    @extend_schema(operation_id="league_season_create",
                   summary="Create a season with its divisions (the league's organisers)",
                   request=SeasonCreateSerializer, responses={201: SeasonSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        league = permissions.visible_league(request.user, slug, write=True)
        fields = parsed(SeasonCreateSerializer, request.data, request)
        season = services.season_create(league=league, actor=request.user, **fields)
        return Response(SeasonSerializer(season).data, status=201)


@extend_schema(tags=["leagues"])
class SeasonDetailView(LeagueApiView):
    @extend_schema(operation_id="league_season_retrieve",
                   summary="A season: its divisions with their members, its matchdays and schedule",
                   responses={200: SeasonSerializer, **refusals(404)})
    def get(self, request: Request, slug: str, season: str) -> Response:
        return Response(SeasonSerializer(permissions.visible_season(request.user, slug, season)).data)

    @extend_schema(operation_id="league_season_update",
                   summary="Change a season's name, dates or planned matchdays (the league's organisers)",
                   request=SeasonChangeSerializer, responses={200: SeasonSerializer, **refusals(400, 403, 404)})
    def patch(self, request: Request, slug: str, season: str) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        fields = parsed(SeasonChangeSerializer, request.data, request)
        return Response(SeasonSerializer(services.season_update(season=found, actor=request.user, **fields)).data)


@extend_schema(tags=["leagues"])
class StandingsView(LeagueApiView):
    @extend_schema(operation_id="league_season_standings",
                   summary="A season's standings per division, after a matchday or all played",
                   parameters=[StandingsQuerySerializer],
                   responses={200: LeagueStandingsSerializer, **refusals(400, 404)})
    def get(self, request: Request, slug: str, season: str) -> Response:
        found = permissions.visible_season(request.user, slug, season)
        after = parsed(StandingsQuerySerializer, request.query_params, request).get("after")
        return Response(LeagueStandingsSerializer(league_standings.season_standings(found, after=after)).data)


@extend_schema(tags=["players"])
class PlayerCareerView(LeagueApiView):
    @extend_schema(operation_id="player_leagues_and_cups",
                   summary="A player's public league seasons and cup series",
                   responses={200: PlayerCareerSerializer, **refusals(404)})
    def get(self, request: Request, pk: int) -> Response:
        player = Player.objects.filter(pk=pk).first()
        # Exactly where his page /players/<id>/ exists (a player of private events only does
        # not exist for outsiders); one who hid his career page is no more visible here than a
        # missing one.
        if (player is None or not tournament_rights.can_view_player(request.user, player)
                or not tournament_rights.can_view_career(request.user, player)):
            raise NotFound(_("there is no player %(id)s") % {"id": pk}, field="player", code="not_found")
        return Response(PlayerCareerSerializer({"player": player, **careers.player_career(player)}).data)

