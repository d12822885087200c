"""API views of results and their keeping: standings (JSON and CSV) and their adjustments,
penalties, disputes and the audit history of an event and of a table. Reads of standings and
penalties are public for a visible event; disputes and the audit trail are the officials'
(a table's own history also its players')."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors, services
from tournaments.api import filters, lookups, permissions
from tournaments.api.exports import standings_csv
from tournaments.api.schema import refusals
from tournaments.api.serializers import (
    AuditEntrySerializer,
    DisputeDecideSerializer,
    DisputeOpenSerializer,
    DisputeSerializer,
    PenaltyCreateSerializer,
    PenaltySerializer,
    StandingsAdjustmentSerializer,
    StandingsAdjustSerializer,
    StandingsSerializer,
)
from tournaments.domain import lifecycle, rights, standings
from tournaments.domain.limits import SMALL_MAX
from tournaments.errors import Forbidden, NotFound, ServiceError
from tournaments.models import AuditEntry, Dispute, Penalty

ROUND_PARAMETER = OpenApiParameter(
    "round", {"type": "integer", "minimum": 1, "maximum": SMALL_MAX}, OpenApiParameter.QUERY,
    description="standings after this round (default: every round so far)")


class _UpToRound(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=SMALL_MAX, required=False,
                                     allow_null=True, default=None)


def _standings(request: Request, slug: str) -> standings.Standings:
    event = permissions.visible_event(request.user, slug)
    query = _UpToRound(data=request.query_params)
    query.is_valid(raise_exception=True)
    return standings.event_standings(event, up_to_round=query.validated_data["round"])


class EventRowsView(generics.ListAPIView):
    """A list of one event's rows (`rows_of(event)` in each subclass): the event must be
    visible to the caller, and with `officials_only` the caller must referee or organise it."""

    officials_only = False

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        event = permissions.visible_event(self.request.user, self.kwargs["slug"])
        if self.officials_only:
            permissions.require_referee(self.request.user, event)
        return self.rows_of(event)


# ---------------------------------------------------------------------------------------
# Standings
# ---------------------------------------------------------------------------------------


@extend_schema(tags=["standings"])
class StandingsView(APIView):
    @extend_schema(summary="Standings of an event, with the tables still pending",
                   parameters=[ROUND_PARAMETER],
                   responses={200: StandingsSerializer, **refusals(400, 404)})
    def get(self, request: Request, slug: str) -> Response:
        return Response(StandingsSerializer(_standings(request, slug)).data)


@extend_schema(tags=["standings"])
class StandingsCSVView(APIView):
    @extend_schema(summary="Standings as a CSV file", parameters=[ROUND_PARAMETER],
                   responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR,
                                                                 description="one row per player"),
                              **refusals(400, 404)})
    def get(self, request: Request, slug: str) -> HttpResponse:
        table = _standings(request, slug)
        response = HttpResponse(standings_csv(table), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{table.event.slug}-standings.csv"'
        return response


@extend_schema(tags=["referee"])
class StandingsAdjustView(APIView):
    @extend_schema(summary="Adjust a player's standing, with a reason (referees)",
                   request=StandingsAdjustSerializer,
                   responses={201: StandingsAdjustmentSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        event = permissions.visible_event(request.user, slug)
        permissions.require_referee(request.user, event)
        data = StandingsAdjustSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        registration = lookups.registration_of(event, values["start_number"])
        if registration is None:
            raise ServiceError(_("no registration with start number %(n)s") % {"n": values["start_number"]},
                               field="start_number", code="not_registered")
        adjustment = services.standings_adjust(
            registration=registration, actor=request.user, reason=values["reason"],
            points_delta=values["points_delta"], score_delta=values["score_delta"])
        return Response(StandingsAdjustmentSerializer(adjustment).data, status=status.HTTP_201_CREATED)


# ---------------------------------------------------------------------------------------
# Penalties
# ---------------------------------------------------------------------------------------


@extend_schema(tags=["referee"])
class EventPenaltyListView(EventRowsView):
    queryset = Penalty.objects.none()
    serializer_class = PenaltySerializer
    filterset_class = filters.PenaltyFilter

    def rows_of(self, event):
        rows = lookups.penalties_of(event)
        if not rights.is_official(self.request.user, event):
            # Penalties of a draft round are the officials' working copy, like the round.
            rows = rows.filter(lifecycle.published_rounds_q("table__round__"))
        return rows

    @extend_schema(summary="The penalties of an event")
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)


@extend_schema(tags=["referee"])
class TablePenaltyView(APIView):
    @extend_schema(summary="The penalties of a table",
                   responses={200: PenaltySerializer(many=True), **refusals(404)})
    def get(self, request: Request, slug: str, number: int, table: int) -> Response:
        event = permissions.visible_event(request.user, slug)
        found = permissions.visible_table(request.user, event, number, table)
        return Response(PenaltySerializer(lookups.penalties_of_table(found), many=True).data)

    @extend_schema(summary="Record a penalty (renons, ...) at a table, on a hand or not (referees)",
                   description="On a hand the penalty also enters the hand's record, and the card "
                               "is rescored.",
                   request=PenaltyCreateSerializer,
                   responses={201: PenaltySerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        event = permissions.visible_event(request.user, slug)
        found = permissions.visible_table(request.user, event, number, table)
        permissions.require_referee(request.user, event)
        data = PenaltyCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        seated = {s.registration.start_number: s.registration for s in found.seats.all()}
        if values["start_number"] not in seated:
            raise ServiceError(_("start number %(n)s does not sit at table %(t)s") % {
                "n": values["start_number"], "t": found.number}, field="start_number",
                code="not_at_table")
        penalty = services.penalty_record(
            table=found, registration=seated[values["start_number"]], kind=values["kind"],
            actor=request.user, hand_number=values["hand"], description=values["description"])
        return Response(PenaltySerializer(lookups.penalties_of(event).get(pk=penalty.pk)).data,
                        status=status.HTTP_201_CREATED)


# ---------------------------------------------------------------------------------------
# Disputes
# ---------------------------------------------------------------------------------------


@extend_schema(tags=["referee"])
class DisputeListView(EventRowsView):
    queryset = Dispute.objects.none()
    serializer_class = DisputeSerializer
    filterset_class = filters.DisputeFilter

    officials_only = True

    def rows_of(self, event):
        return lookups.disputes_of(event)

    @extend_schema(summary="The disputes of an event (officials)",
                   responses={200: DisputeSerializer(many=True), **refusals(403, 404)})
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(summary="Open a dispute about a table or a hand (its players or a referee), "
                           "or about the event (referees)",
                   request=DisputeOpenSerializer,
                   responses={201: DisputeSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        event = permissions.visible_event(request.user, slug)
        data = DisputeOpenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = hand = None
        if values["table"] is not None:
            table = permissions.visible_table(request.user, event, values["round"], values["table"])
            if not rights.is_table_party(request.user, table):
                raise Forbidden(_("only the players of this table and the referees may raise a "
                                  "dispute about it"), code="not_at_table")
            if values["hand"] is not None:
                hand = lookups.hand_of(table, values["hand"])
                if hand is None:
                    raise ServiceError(_("hand %(n)s does not exist") % {"n": values["hand"]}, field="hand",
                                       code="no_such_hand")
        else:
            permissions.require_referee(request.user, event)
        dispute = services.dispute_open(event=event, description=values["description"],
                                        actor=request.user, table=table, hand=hand,
                                        raised_by_name=values["raised_by_name"])
        return Response(DisputeSerializer(lookups.dispute_of(event, dispute.pk)).data,
                        status=status.HTTP_201_CREATED)


class _DisputeView(APIView):
    def _dispute(self, request: Request, slug: str, pk: int) -> Dispute:
        event = permissions.visible_event(request.user, slug)
        permissions.require_referee(request.user, event)
        dispute = lookups.dispute_of(event, pk)
        if dispute is None:
            raise NotFound(_("there is no dispute %(pk)s") % {"pk": pk}, field="dispute", code="not_found")
        return dispute


@extend_schema(tags=["referee"])
class DisputeDetailView(_DisputeView):
    @extend_schema(summary="One dispute (officials)",
                   responses={200: DisputeSerializer, **refusals(403, 404)})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        return Response(DisputeSerializer(self._dispute(request, slug, pk)).data)


@extend_schema(tags=["referee"])
class DisputeDecideView(_DisputeView):
    @extend_schema(summary="Decide a dispute with a written reason, optionally naming the audit "
                           "entry of the correction (referees)",
                   request=DisputeDecideSerializer,
                   responses={200: DisputeSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, pk: int) -> Response:
        dispute = self._dispute(request, slug, pk)
        data = DisputeDecideSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        correction = None
        if data.validated_data["correction"] is not None:
            correction = lookups.audit_entry_of(dispute.event, data.validated_data["correction"])
            if correction is None:
                raise ServiceError(_("the correction must be an audit entry of this event"),
                                   field="correction", code="unknown_audit_entry")
        services.dispute_decide(dispute=dispute, decision=data.validated_data["decision"],
                                actor=request.user, correction=correction)
        return Response(DisputeSerializer(lookups.dispute_of(dispute.event, dispute.pk)).data)


# ---------------------------------------------------------------------------------------
# Audit history
# ---------------------------------------------------------------------------------------


@extend_schema(tags=["referee"])
class EventAuditView(EventRowsView):
    queryset = AuditEntry.objects.none()
    serializer_class = AuditEntrySerializer
    filterset_class = filters.AuditFilter

    officials_only = True

    def rows_of(self, event):
        return selectors.audit_of_event(event)

    @extend_schema(summary="Who changed what in an event, newest first (officials)",
                   responses={200: AuditEntrySerializer(many=True), **refusals(403, 404)})
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)


@extend_schema(tags=["referee"])
class TableAuditView(generics.ListAPIView):
    queryset = AuditEntry.objects.none()
    serializer_class = AuditEntrySerializer
    filterset_class = filters.AuditFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        event = permissions.visible_event(self.request.user, self.kwargs["slug"])
        table = permissions.visible_table(self.request.user, event, self.kwargs["number"],
                                          self.kwargs["table"])
        permissions.require_table_reader(self.request.user, table)
        return selectors.audit_of_table(table).select_related("table__round")

    @extend_schema(summary="Who changed what at a table, newest first (its players, officials)",
                   responses={200: AuditEntrySerializer(many=True), **refusals(403, 404)})
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)
