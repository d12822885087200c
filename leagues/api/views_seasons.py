"""API views of a season's course: its schedule (drawn, in the background for large divisions,
and two players swapped), its members and applicants, its end (finish, a final order set by
the organisers) and the next season (the plan, then the season formed from it). Thin: they
find the season through leagues.api.permissions, parse the body with a serializer, call one
service or selector, and answer through a serializer."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from leagues import league_standings, next_season, services
from leagues.api import permissions
from leagues.api.permissions import LeagueApiView
from leagues.api.serializers import (
    ApplicantsResultSerializer,
    JobProgressSerializer,
    LeagueStandingsSerializer,
    MembershipSerializer,
    NextSeasonPlanSerializer,
    ScheduleSerializer,
    ScheduleSwapResultSerializer,
    SeasonSerializer,
)
from leagues.api.serializers_requests import (
    ApplicantsSerializer,
    FinalOrderSerializer,
    MemberAddSerializer,
    NextPlanSerializer,
    RemovalReasonSerializer,
    ScheduleDrawSerializer,
    ScheduleSwapSerializer,
    SeasonAdvanceSerializer,
    parsed,
)
from leagues.models import Season
from tournaments.api.schema import refusals
from tournaments.errors import NotFound

# ---------------------------------------------------------------------------------------
# Schedule
# ---------------------------------------------------------------------------------------


def _schedule(season: Season) -> dict[str, Any]:
    return ScheduleSerializer({"season": season, "job": services.schedule_job_of(season)}).data


@extend_schema(tags=["leagues"])
class ScheduleView(LeagueApiView):
    @extend_schema(operation_id="league_season_schedule",
                   summary="A season's schedule: who sits together on each matchday, per division",
                   responses={200: ScheduleSerializer, **refusals(404)})
    def get(self, request: Request, slug: str, season: str) -> Response:
        return Response(_schedule(permissions.visible_season(request.user, slug, season)))

    @extend_schema(operation_id="league_season_schedule_generate",
                   summary="Draw the schedule (the league's organisers); large divisions are drawn "
                           "in the background",
                   request=ScheduleDrawSerializer,
                   responses={200: ScheduleSerializer,
                              202: OpenApiResponse(JobProgressSerializer,
                                                   description="queued: follow the job at /api/v1/jobs/{id}/"),
                              **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, season: str) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        seed = parsed(ScheduleDrawSerializer, request.data, request).get("seed")
        if services.schedule_needs_job(found):
            job = services.schedule_job_queue(season=found, actor=request.user, seed=seed)
            return Response(JobProgressSerializer(job).data, status=202)
        services.schedule_generate(season=found, actor=request.user, seed=seed)
        found.refresh_from_db()
        return Response(_schedule(found))


@extend_schema(tags=["leagues"])
class ScheduleSwapView(LeagueApiView):
    @extend_schema(operation_id="league_season_schedule_swap",
                   summary="Swap two players' places in one matchday of a division's schedule",
                   request=ScheduleSwapSerializer,
                   responses={200: ScheduleSwapResultSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, season: str) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        data = parsed(ScheduleSwapSerializer, request.data, request, season=found)
        first, second = data["players"]
        result = services.schedule_swap(season=found, division=data["division"], matchday_number=data["matchday"],
                                        first=first, second=second, actor=request.user, reason=data["reason"])
        return Response(ScheduleSwapResultSerializer(result).data)


# ---------------------------------------------------------------------------------------
# Members and applicants
# ---------------------------------------------------------------------------------------


@extend_schema(tags=["leagues"])
class MembersView(LeagueApiView):
    @extend_schema(operation_id="league_season_member_add",
                   summary="Put a player in a division of a season being planned",
                   request=MemberAddSerializer, responses={201: MembershipSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, season: str) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        data = parsed(MemberAddSerializer, request.data, request, season=found)
        membership = services.membership_add(division=data["division"], player=data["player"], actor=request.user,
                                             seed_position=data.get("seed_position"), origin=data["origin"])
        return Response(MembershipSerializer(membership).data, status=201)


@extend_schema(tags=["leagues"])
class MemberDetailView(LeagueApiView):
    @extend_schema(operation_id="league_season_member_remove",
                   summary="Take a player out of a season being planned",
                   parameters=[RemovalReasonSerializer], request=None,
                   responses={204: None, **refusals(400, 403, 404)})
    def delete(self, request: Request, slug: str, season: str, player: int) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        membership = found.memberships.filter(player_id=player).select_related("division").first()
        if membership is None:
            raise NotFound(_("player %(id)s is not in the season") % {"id": player}, field="player",
                           code="not_found")
        reason = parsed(RemovalReasonSerializer, request.query_params, request)["reason"]
        if not reason and isinstance(request.data, dict):
            # Older clients send the reason in the body of the DELETE.
            reason = parsed(RemovalReasonSerializer, request.data, request)["reason"]
        services.membership_remove(membership=membership, actor=request.user, reason=reason)
        return Response(status=204)


@extend_schema(tags=["leagues"])
class ApplicantsView(LeagueApiView):
    @extend_schema(operation_id="league_season_applicants_select",
                   summary="Place applicants in the free places, ranked by a criterion",
                   request=ApplicantsSerializer,
                   responses={200: ApplicantsResultSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, season: str) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        data = parsed(ApplicantsSerializer, request.data, request)
        out = services.applicants_select(season=found, applicants=data["players"], actor=request.user,
                                         criterion=data["criterion"], criterion_event=data["criterion_event"])
        return Response(ApplicantsResultSerializer(out).data)


# ---------------------------------------------------------------------------------------
# The end of a season and the next one
# ---------------------------------------------------------------------------------------


@extend_schema(tags=["leagues"])
class SeasonFinishView(LeagueApiView):
    @extend_schema(operation_id="league_season_finish",
                   summary="Finish a season whose matchdays are all played; answers the final standings",
                   request=None, responses={200: LeagueStandingsSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, season: str) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        services.season_finish(season=found, actor=request.user)
        return Response(LeagueStandingsSerializer(league_standings.season_standings(found)).data)


@extend_schema(tags=["leagues"])
class FinalOrderView(LeagueApiView):
    @extend_schema(operation_id="league_season_final_order",
                   summary="Set a finished division's final order (the league's organisers)",
                   request=FinalOrderSerializer,
                   responses={200: LeagueStandingsSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, season: str) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        data = parsed(FinalOrderSerializer, request.data, request, season=found)
        services.division_set_final_order(division=data["division"], players=data["players"],
                                          actor=request.user, reason=data["reason"])
        return Response(LeagueStandingsSerializer(league_standings.season_standings(found)).data)


@extend_schema(tags=["leagues"])
class NextPlanView(LeagueApiView):
    @extend_schema(operation_id="league_season_next_plan",
                   summary="The plan of the next season: who goes up, down, out, and where applicants go",
                   parameters=[NextPlanSerializer],
                   responses={200: NextSeasonPlanSerializer, **refusals(400, 404)})
    def get(self, request: Request, slug: str, season: str) -> Response:
        found = permissions.visible_season(request.user, slug, season)
        plan = parsed(NextPlanSerializer, request.query_params, request)
        return Response(NextSeasonPlanSerializer(next_season.next_season_plan(found, **plan)).data)


@extend_schema(tags=["leagues"])
class SeasonAdvanceView(LeagueApiView):
    @extend_schema(operation_id="league_season_advance",
                   summary="Form the next season from a finished one by its plan",
                   request=SeasonAdvanceSerializer,
                   responses={201: SeasonSerializer, **refusals(400, 403, 404, 409)})
    def post(self, request: Request, slug: str, season: str) -> Response:
        found = permissions.visible_season(request.user, slug, season, write=True)
        data = parsed(SeasonAdvanceSerializer, request.data, request)
        new = services.season_advance(season=found, actor=request.user, **data)
        return Response(SeasonSerializer(new).data, status=201)
