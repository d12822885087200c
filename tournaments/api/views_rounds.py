"""API views of rounds: listing them, queueing the seating of the next round (a background
job), previewing the draft, swapping two players, publishing, starting the clock, closing, and
undoing the last two (a published round back to a draft, a closed round opened again; when
that may be is tournaments.domain.lifecycle's). Draft rounds are seen by the event's officials
only; the rest is the organisers'."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors, services
from tournaments.api import lookups, permissions
from tournaments.api.schema import refusals
from tournaments.api.serializers import (
    JobSerializer,
    RoundDetailSerializer,
    RoundSerializer,
    SwapSerializer,
    UndoReasonSerializer,
)
from tournaments.models import Event, Round
from tournaments.services import round_jobs


def _detail(event: Event, number: int) -> dict:
    rnd = selectors.round_with_seating(event, number)
    rnd.event = event  # already loaded: spares the clock a query
    return RoundDetailSerializer(rnd).data


@extend_schema(tags=["rounds"])
class RoundListView(generics.ListAPIView):
    queryset = Round.objects.none()
    serializer_class = RoundSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        event = permissions.visible_event(self.request.user, self.kwargs["slug"])
        return lookups.rounds_listed(event, with_drafts=permissions.can_preview(self.request.user, event))

    @extend_schema(summary="The rounds of an event (drafts for its officials only)")
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)


@extend_schema(tags=["rounds"])
class RoundGenerateView(APIView):
    @extend_schema(
        summary="Queue the seating of the next round",
        description="Answers the background job at once; GET /api/v1/jobs/{id}/ for its progress. "
                    "Asking twice finds the same job.",
        request=None, responses={202: JobSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        event = permissions.visible_event(request.user, slug)
        permissions.require_organiser(request.user, event)
        job = round_jobs.round_generation_queue(event=event, actor=request.user)
        # Without a broker the job has already run on commit: answer its state as it is now.
        return Response(JobSerializer(lookups.job_by_id(job.pk)).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(tags=["rounds"])
class RoundDetailView(APIView):
    @extend_schema(summary="A round with its tables and seats (the preview of a draft)",
                   responses={200: RoundDetailSerializer, **refusals(404)})
    def get(self, request: Request, slug: str, number: int) -> Response:
        event = permissions.visible_event(request.user, slug)
        permissions.visible_round(request.user, event, number)
        return Response(_detail(event, number))


class _RoundAction(APIView):
    """An organiser's action on one round, answered with the round as it is afterwards."""

    def _round(self, request: Request, slug: str, number: int) -> Round:
        event = permissions.visible_event(request.user, slug)
        rnd = permissions.visible_round(request.user, event, number)
        permissions.require_organiser(request.user, event)
        return rnd

    def _answer(self, rnd: Round) -> Response:
        return Response(_detail(rnd.event, rnd.number))


@extend_schema(tags=["rounds"])
class RoundSwapView(_RoundAction):
    @extend_schema(summary="Swap two players' seats in a draft round", request=SwapSerializer,
                   responses={200: RoundDetailSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, number: int) -> Response:
        rnd = self._round(request, slug, number)
        data = SwapSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = services.round_swap_players(rnd=rnd, first=data.validated_data["first"],
                                          second=data.validated_data["second"], actor=request.user)
        return self._answer(rnd)


@extend_schema(tags=["rounds"])
class RoundPublishView(_RoundAction):
    @extend_schema(summary="Publish a draft round", request=None,
                   responses={200: RoundDetailSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, number: int) -> Response:
        return self._answer(services.round_publish(rnd=self._round(request, slug, number),
                                                   actor=request.user))


@extend_schema(tags=["rounds"])
class RoundStartClockView(_RoundAction):
    @extend_schema(summary="Start the round clock of a published round", request=None,
                   responses={200: RoundDetailSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, number: int) -> Response:
        return self._answer(services.round_start_clock(rnd=self._round(request, slug, number),
                                                       actor=request.user))


@extend_schema(tags=["rounds"])
class RoundCloseView(_RoundAction):
    @extend_schema(summary="Close a round: every table confirmed, verified or annulled",
                   request=None, responses={200: RoundDetailSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, number: int) -> Response:
        return self._answer(round_jobs.round_close(rnd=self._round(request, slug, number),
                                                        actor=request.user))


class _RoundUndo(_RoundAction):
    """An undo on a round: the service, asked with the reason it needs (lifecycle says when)."""

    undo: Any = None

    def post(self, request: Request, slug: str, number: int) -> Response:
        rnd = self._round(request, slug, number)
        data = UndoReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return self._answer(type(self).undo(rnd=rnd, actor=request.user, reason=data.validated_data["reason"]))


_UNDO_SCHEMA = {"request": UndoReasonSerializer, "responses": {200: RoundDetailSerializer, **refusals(400, 403, 404)}}


@extend_schema_view(post=extend_schema(
    summary="Take a published round back to a draft, before its tables write", **_UNDO_SCHEMA))
@extend_schema(tags=["rounds"])
class RoundUnpublishView(_RoundUndo):
    undo = services.round_unpublish


@extend_schema_view(post=extend_schema(
    summary="Open a closed round again, while no later round is published", **_UNDO_SCHEMA))
@extend_schema(tags=["rounds"])
class RoundReopenView(_RoundUndo):
    undo = services.round_reopen
