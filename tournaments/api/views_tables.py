"""API views of one table: its seats, its scorecard and hands (entered with the version read,
so a stale write is refused with 409), confirmations by a second person, the money sheet of
money rulesets, and the referee's annulment. Every write is one service call."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors, services
from tournaments.api import lookups, permissions
from tournaments.api.schema import refusals
from tournaments.api.serializers import (
    ConfirmSerializer,
    HandDeleteSerializer,
    HandSerializer,
    HandWriteSerializer,
    MoneySheetSerializer,
    MoneySheetWriteSerializer,
    ReasonSerializer,
    ScorecardSerializer,
    TableSerializer,
    VersionSerializer,
)
from tournaments.domain.rulesets import is_money_ruleset
from tournaments.errors import NotFound
from tournaments.models import Table


class _TableView(APIView):
    def _table(self, request: Request, slug: str, number: int, table: int) -> Table:
        event = permissions.visible_event(request.user, slug)
        return permissions.visible_table(request.user, event, number, table)

    def _card(self, table: Table) -> Response:
        return Response(ScorecardSerializer(selectors.scorecard_with_hands(table)).data)


@extend_schema(tags=["tables"])
class TableDetailView(_TableView):
    @extend_schema(summary="A table: its seats and its scorecard's status",
                   responses={200: TableSerializer, **refusals(404)})
    def get(self, request: Request, slug: str, number: int, table: int) -> Response:
        return Response(TableSerializer(self._table(request, slug, number, table)).data)


@extend_schema(tags=["scorecards"])
class ScorecardView(_TableView):
    @extend_schema(summary="A table's scorecard with every hand, its version and totals",
                   responses={200: ScorecardSerializer, **refusals(404)})
    def get(self, request: Request, slug: str, number: int, table: int) -> Response:
        return self._card(self._table(request, slug, number, table))


@extend_schema(tags=["scorecards"])
class HandListView(_TableView):
    @extend_schema(summary="The hands of a table's scorecard",
                   responses={200: HandSerializer(many=True), **refusals(404)})
    def get(self, request: Request, slug: str, number: int, table: int) -> Response:
        card = selectors.scorecard_with_hands(self._table(request, slug, number, table))
        return Response(HandSerializer(card.hands.all(), many=True).data)


@extend_schema(tags=["scorecards"])
class HandDetailView(_TableView):
    def _hand_or_404(self, table: Table, hand: int):
        found = lookups.hand_of(table, hand)
        if found is None:
            raise NotFound(_("hand %(n)s does not exist") % {"n": hand}, field="hand", code="no_such_hand")
        return found

    @extend_schema(summary="One hand", responses={200: HandSerializer, **refusals(404)})
    def get(self, request: Request, slug: str, number: int, table: int, hand: int) -> Response:
        return Response(HandSerializer(
            self._hand_or_404(self._table(request, slug, number, table), hand)).data)

    @extend_schema(
        summary="Enter hand N (the next number appends) or replace it",
        description="The body carries the scorecard version the client read; when the card "
                    "changed since, the write is refused with 409 and nothing changes. The whole "
                    "card is rescored. Answers the scorecard with its new version.",
        request=HandWriteSerializer,
        responses={200: ScorecardSerializer, 201: ScorecardSerializer,
                   **refusals(400, 403, 404, 409)})
    def put(self, request: Request, slug: str, number: int, table: int, hand: int) -> Response:
        found = self._table(request, slug, number, table)
        permissions.require_table_writer(request.user, found)
        data = HandWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        existed = lookups.hand_of(found, hand) is not None
        services.hand_save(scorecard=found.scorecard, number=hand, record=data.validated_data["record"],
                           actor=request.user, expected_version=data.validated_data["version"],
                           reason=data.validated_data["reason"])
        response = self._card(found)
        response.status_code = status.HTTP_200_OK if existed else status.HTTP_201_CREATED
        return response

    @extend_schema(
        summary="Delete hand N (the later ones move up and are rescored)",
        parameters=[
            OpenApiParameter("version", OpenApiTypes.INT, OpenApiParameter.QUERY, required=True,
                             description="the scorecard version you read"),
            OpenApiParameter("reason", OpenApiTypes.STR, OpenApiParameter.QUERY,
                             description="why: needed for a correction of a verified card"),
        ],
        responses={200: ScorecardSerializer, **refusals(400, 403, 404, 409)})
    def delete(self, request: Request, slug: str, number: int, table: int, hand: int) -> Response:
        found = self._table(request, slug, number, table)
        permissions.require_table_writer(request.user, found)
        data = HandDeleteSerializer(data=request.data or request.query_params)
        data.is_valid(raise_exception=True)
        services.hand_delete(scorecard=found.scorecard, number=hand, actor=request.user,
                             expected_version=data.validated_data["version"],
                             reason=data.validated_data["reason"])
        return self._card(found)


@extend_schema(tags=["scorecards"])
class HandConfirmView(_TableView):
    @extend_schema(summary="Confirm a hand (a second person, not the one who entered it)",
                   request=None, responses={200: HandSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, number: int, table: int, hand: int) -> Response:
        found = self._table(request, slug, number, table)
        permissions.require_table_confirmer(request.user, found)
        target = lookups.hand_of(found, hand)
        if target is None:
            raise NotFound(_("hand %(n)s does not exist") % {"n": hand}, field="hand", code="no_such_hand")
        return Response(HandSerializer(services.hand_confirm(hand=target, actor=request.user)).data)


@extend_schema(tags=["scorecards"])
class ScorecardSubmitView(_TableView):
    @extend_schema(summary="Submit the table's scorecard", request=VersionSerializer,
                   responses={200: ScorecardSerializer, **refusals(400, 403, 404, 409)})
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = self._table(request, slug, number, table)
        permissions.require_table_writer(request.user, found)
        data = VersionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.scorecard_submit(scorecard=found.scorecard, actor=request.user,
                                  expected_version=data.validated_data["version"])
        return self._card(found)


@extend_schema(tags=["scorecards"])
class ScorecardConfirmView(_TableView):
    @extend_schema(summary="Confirm a submitted scorecard (a second person)",
                   description="A card with fewer or more hands than the event's hands_per_round "
                               "is confirmed by a referee or organiser (not the one who submitted "
                               "it) with a `reason`, kept in the audit trail; a player of the "
                               "table is refused (403). A money sheet has no hands.",
                   request=ConfirmSerializer,
                   responses={200: ScorecardSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = self._table(request, slug, number, table)
        permissions.require_table_confirmer(request.user, found)
        data = ConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.scorecard_confirm(scorecard=found.scorecard, actor=request.user,
                                   reason=data.validated_data["reason"])
        return self._card(found)


@extend_schema(tags=["referee"])
class ScorecardVerifyView(_TableView):
    @extend_schema(summary="Verify a confirmed scorecard (referees and organisers)", request=None,
                   responses={200: ScorecardSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = self._table(request, slug, number, table)
        permissions.require_referee(request.user, found.round.event)
        services.scorecard_verify(scorecard=found.scorecard, actor=request.user)
        return self._card(found)


@extend_schema(tags=["referee"])
class ScorecardAnnulView(_TableView):
    @extend_schema(summary="Annul a table's scorecard, with a reason (referees)",
                   request=ReasonSerializer,
                   responses={200: ScorecardSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = self._table(request, slug, number, table)
        permissions.require_referee(request.user, found.round.event)
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.scorecard_annul(scorecard=found.scorecard, actor=request.user,
                                 reason=data.validated_data["reason"])
        return self._card(found)


@extend_schema(tags=["scorecards"])
class MoneySheetView(_TableView):
    def _money_table(self, request: Request, slug: str, number: int, table: int) -> Table:
        found = self._table(request, slug, number, table)
        if not is_money_ruleset(found.scorecard.ruleset_code):
            raise NotFound(_("%(ruleset)s keeps no money sheet: enter the hands")
                           % {"ruleset": found.scorecard.ruleset_code},
                           field="ruleset", code="no_money_sheet")
        return found

    def _sheet(self, table: Table) -> Response:
        card = selectors.scorecard_with_hands(table)
        return Response(MoneySheetSerializer({
            "version": card.version, "status": card.status,
            "stake_haler": card.table.round.event.stake_haler,
            "rows": card.money_rows.select_related("registration"), "totals": card.totals,
        }).data)

    @extend_schema(summary="The money sheet of a money ruleset's table",
                   responses={200: MoneySheetSerializer, **refusals(404)})
    def get(self, request: Request, slug: str, number: int, table: int) -> Response:
        return self._sheet(self._money_table(request, slug, number, table))

    @extend_schema(summary="Enter or replace the money sheet (with the version read)",
                   request=MoneySheetWriteSerializer,
                   responses={200: MoneySheetSerializer, **refusals(400, 403, 404, 409)})
    def put(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = self._money_table(request, slug, number, table)
        permissions.require_table_writer(request.user, found)
        data = MoneySheetWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.money_sheet_save(scorecard=found.scorecard, rows=data.validated_data["rows"],
                                  actor=request.user, expected_version=data.validated_data["version"],
                                  reason=data.validated_data["reason"])
        return self._sheet(found)
