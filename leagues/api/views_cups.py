"""API views of cup series: list, create, read and change a series, its ranking by cup
points, its points table, and the tournaments it counts. Thin: they find the series through
leagues.api.permissions, parse the body with a serializer, call one service or selector, and
answer through a serializer."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from leagues import cup_totals, selectors, services
from leagues.api import permissions
from leagues.api.permissions import LeagueApiView
from leagues.api.serializers import CupListSerializer, CupRankingSerializer, CupSerializer
from leagues.api.serializers_requests import (
    CupChangeSerializer,
    CupEventAddSerializer,
    CupPointsSerializer,
    CupWriteSerializer,
    EventInPathSerializer,
    RemovalReasonSerializer,
    parsed,
)
from tournaments.api.schema import refusals


@extend_schema(tags=["cups"])
class CupListView(LeagueApiView):
    @extend_schema(operation_id="cups_list", summary="The public cup series",
                   responses={200: CupListSerializer})
    def get(self, request: Request) -> Response:
        return Response(CupListSerializer({"cups": selectors.public_cups()}).data)

    @extend_schema(operation_id="cups_create",
                   summary="Create a cup series (whoever may create events), who becomes its organiser",
                   request=CupWriteSerializer, responses={201: CupSerializer, **refusals(400, 403)})
    def post(self, request: Request) -> Response:
        permissions.require_creator(request.user)
        fields = parsed(CupWriteSerializer, request.data, request)
        series = services.cup_create(actor=request.user, organisers=[request.user], **fields)
        return Response(CupSerializer(series).data, status=201)


@extend_schema(tags=["cups"])
class CupDetailView(LeagueApiView):
    @extend_schema(operation_id="cup_retrieve", summary="A cup series, with its points table and tournaments",
                   responses={200: CupSerializer, **refusals(404)})
    def get(self, request: Request, slug: str) -> Response:
        return Response(CupSerializer(permissions.visible_cup(request.user, slug)).data)

    @extend_schema(operation_id="cup_update", summary="Change a cup series (its organisers); the slug stays",
                   request=CupChangeSerializer, responses={200: CupSerializer, **refusals(400, 403, 404)})
    def patch(self, request: Request, slug: str) -> Response:
        series = permissions.visible_cup(request.user, slug, write=True)
        serializer = CupChangeSerializer(series, data=request.data, partial=True, context={"request": request})
        serializer.is_valid(raise_exception=True)
        series = services.cup_update(series=series, actor=request.user, **serializer.validated_data)
        return Response(CupSerializer(series).data)


@extend_schema(tags=["cups"])
class CupRankingView(LeagueApiView):
    @extend_schema(operation_id="cup_ranking", summary="A cup series' ranking by cup points",
                   responses={200: CupRankingSerializer, **refusals(404)})
    def get(self, request: Request, slug: str) -> Response:
        ranking = cup_totals.cup_ranking(permissions.visible_cup(request.user, slug))
        return Response(CupRankingSerializer(ranking).data)


@extend_schema(tags=["cups"])
class CupPointsView(LeagueApiView):
    @extend_schema(operation_id="cup_points_set",
                   summary="Replace a cup series' points table (a better place never gets fewer points)",
                   request=CupPointsSerializer, responses={200: CupSerializer, **refusals(400, 403, 404)})
    def put(self, request: Request, slug: str) -> Response:
        series = permissions.visible_cup(request.user, slug, write=True)
        data = parsed(CupPointsSerializer, request.data, request)
        services.cup_points_set(series=series, table=data["points"], actor=request.user, reason=data["reason"])
        return Response(CupSerializer(series).data)


@extend_schema(tags=["cups"])
class CupEventsView(LeagueApiView):
    @extend_schema(operation_id="cup_event_add",
                   summary="Add a tournament its organiser runs to a cup series",
                   request=CupEventAddSerializer, responses={201: CupSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        series = permissions.visible_cup(request.user, slug, write=True)
        data = parsed(CupEventAddSerializer, request.data, request)
        services.cup_event_add(series=series, actor=request.user, **data)
        return Response(CupSerializer(series).data, status=201)


@extend_schema(tags=["cups"])
class CupEventDetailView(LeagueApiView):
    @extend_schema(operation_id="cup_event_remove", summary="Take a tournament out of a cup series",
                   parameters=[RemovalReasonSerializer], request=None,
                   responses={204: None, **refusals(400, 403, 404)})
    def delete(self, request: Request, slug: str, event: str) -> Response:
        series = permissions.visible_cup(request.user, slug, write=True)
        found = parsed(EventInPathSerializer, {"event": event}, request)["event"]
        reason = parsed(RemovalReasonSerializer, request.query_params, request)["reason"]
        services.cup_event_remove(series=series, event=found, actor=request.user, reason=reason)
        return Response(status=204)

