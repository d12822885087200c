"""API views of events, players (the registry, and merging two records of one person),
registrations (with the CSV import), background jobs, the signed-in user and API tokens. Thin:
they find the objects through the permission helpers, parse the body with a serializer, call
one service or selector, and answer."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from guard import login_limit
from tournaments import selectors, services
from tournaments.api import filters, lookups, permissions
from tournaments.api.parsers import FormParser, JSONParser, MultiPartParser
from tournaments.api.schema import refusals
from tournaments.api.serializers import (
    EventSerializer,
    EventWriteSerializer,
    JobSerializer,
    MeSerializer,
    PlayerMergeSerializer,
    PlayerPublicSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
    RegistrationCreateSerializer,
    RegistrationImportResultSerializer,
    RegistrationImportSerializer,
    RegistrationSerializer,
    RegistrationStatusSerializer,
    TokenRequestSerializer,
    TokenSerializer,
)
from tournaments.domain import rights
from tournaments.errors import Forbidden, NotFound, ServiceError, TooManyLogins
from tournaments.models import Event, Player, Registration
from tournaments.runtime import jobs
from tournaments.services import player_registry

# The fields of a player a registration's body gives under "new_player".
PLAYER_FIELDS = ("first_name", "last_name", "club", "country", "federation_id")

# ---------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------


@extend_schema(tags=["events"])
class EventListView(generics.ListAPIView):
    """Events the user may see: public ones, and hidden ones he organises or referees."""

    queryset = Event.objects.none()
    serializer_class = EventSerializer
    filterset_class = filters.EventFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return lookups.events_visible_to(self.request.user)

    @extend_schema(summary="List the events")
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(summary="Create an event (staff and users allowed to add events)",
                   request=EventWriteSerializer,
                   responses={201: EventSerializer, **refusals(400, 403)})
    def post(self, request: Request) -> Response:
        if not permissions.can_create_events(request.user):
            raise Forbidden(_("you may not create events"), code="cannot_create_events")
        data = EventWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = services.event_create(actor=request.user, **data.validated_data)
        return Response(EventSerializer(event).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["events"])
class EventDetailView(APIView):
    @extend_schema(summary="An event", responses={200: EventSerializer, **refusals(404)})
    def get(self, request: Request, slug: str) -> Response:
        return Response(EventSerializer(permissions.visible_event(request.user, slug)).data)

    @extend_schema(summary="Change an event (its organisers): ruleset, mode and options are "
                           "checked against the registry",
                   request=EventWriteSerializer,
                   responses={200: EventSerializer, **refusals(400, 403, 404)})
    def patch(self, request: Request, slug: str) -> Response:
        event = permissions.visible_event(request.user, slug)
        permissions.require_organiser(request.user, event)
        data = EventWriteSerializer(event, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        event = services.event_update(event=event, actor=request.user, **data.validated_data)
        return Response(EventSerializer(event).data)


# ---------------------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------------------


@extend_schema(tags=["players"])
class PlayerListView(generics.ListAPIView):
    """The player registry, for those who register players: each sees the players he may see
    (tournaments.domain.rights: the registry's managers all, an organiser those of public events and
    of his own)."""

    queryset = Player.objects.none()
    serializer_class = PlayerSerializer
    filterset_class = filters.PlayerFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return lookups.players_search(self.request.user)

    def _require(self, request: Request) -> None:
        if not permissions.can_manage_players(request.user):
            raise Forbidden(_("only organisers use the player registry"), code="not_organiser")

    @extend_schema(summary="Search the player registry",
                   responses={200: PlayerSerializer(many=True), **refusals(403)})
    def get(self, request: Request, *args, **kwargs) -> Response:
        self._require(request)
        return super().get(request, *args, **kwargs)

    @extend_schema(summary="Add a player to the registry", request=PlayerSerializer,
                   responses={201: PlayerSerializer, **refusals(400, 403)})
    def post(self, request: Request) -> Response:
        self._require(request)
        data = PlayerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_create(**data.validated_data, actor=request.user)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


def _visible_player(request: Request, pk: int) -> Player:
    player = lookups.player_by_id(request.user, pk)
    if player is None:
        raise NotFound(_("there is no player %(id)s") % {"id": pk}, field="player",
                       code="not_found")
    return player


@extend_schema(tags=["players"])
class PlayerDetailView(APIView):
    @extend_schema(
        summary="A player of the registry",
        description="Exists exactly where the player's page /players/<id>/ does: for everybody "
                    "when he plays in a public event or league, else only for those who may see "
                    "his events and the registry's managers.",
        responses={200: PlayerPublicSerializer, **refusals(404)})
    def get(self, request: Request, pk: int) -> Response:
        return Response(PlayerPublicSerializer(_visible_player(request, pk)).data)

    @extend_schema(
        summary="Correct a player's record (the registry's managers; an organiser a record that "
                "plays in no event but his own)",
        description="The fields given are changed, with a reason kept in the audit trail of "
                    "every event he plays in. Refused (403) for a record that plays in another "
                    "organiser's event.",
        request=PlayerUpdateSerializer,
        responses={200: PlayerSerializer, **refusals(400, 403, 404)})
    def patch(self, request: Request, pk: int) -> Response:
        player = _visible_player(request, pk)
        refusal = rights.registry_refusal(request.user, player)
        if refusal is not None:
            raise refusal.error()
        data = PlayerUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        reason = fields.pop("reason")
        player = player_registry.player_update(player=player, actor=request.user, reason=reason,
                                                **fields)
        return Response(PlayerSerializer(player).data)


@extend_schema(tags=["players"])
class PlayerMergeView(APIView):
    @extend_schema(
        summary="Merge another record of the same person into this player",
        description=(
            "The duplicate's registrations (with their results and cup results), league "
            "memberships and account move to this player, who takes over the club, country and "
            "federation id he lacks; the duplicate is deleted. Both records must be yours to "
            "correct (the registry's managers: any; an organiser: records that play in no event "
            "but his own; 403 otherwise). Refused (400, naming the field) when both are "
            "registered in one event or one season, are linked to two accounts or hold two "
            "federation ids. Audited, with the reason given."),
        request=PlayerMergeSerializer,
        responses={200: PlayerSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, pk: int) -> Response:
        keep = _visible_player(request, pk)
        refusal = rights.registry_refusal(request.user, keep)
        if refusal is not None:
            raise refusal.error()
        data = PlayerMergeSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        keep = player_registry.player_merge(keep=keep, duplicate=data.validated_data["duplicate"],
                                             actor=request.user,
                                             reason=data.validated_data["reason"])
        return Response(PlayerSerializer(keep).data)


# ---------------------------------------------------------------------------------------
# Registrations
# ---------------------------------------------------------------------------------------


@extend_schema(tags=["registrations"])
class RegistrationListView(generics.ListAPIView):
    queryset = Registration.objects.none()
    serializer_class = RegistrationSerializer
    filterset_class = filters.RegistrationFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return selectors.registrations_of(permissions.visible_event(self.request.user, self.kwargs["slug"]))

    @extend_schema(summary="The registrations of an event, by start number")
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(summary="Register a player (an existing one, or new_player), e.g. a late entry",
                   request=RegistrationCreateSerializer,
                   responses={201: RegistrationSerializer, **refusals(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        event = permissions.visible_event(request.user, slug)
        permissions.require_organiser(request.user, event)
        data = RegistrationCreateSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = data.validated_data
        # The page's own service: a new player is first looked for in the registry (federation
        # id, then name and club), so a returning player is registered, never entered twice.
        player = values.get("player")
        typed = values.get("new_player") or {}
        person = player or Player(**typed)
        try:
            registration = services.registration_add(
                event=event, actor=request.user, first_name=person.first_name,
                last_name=person.last_name, club=person.club, country=person.country,
                federation_id=person.federation_id, start_number=values.get("start_number"),
                status=values["status"], use_player=player)
        except ServiceError as exc:
            # The new player's refusals are said at his fields in this body.
            if typed:
                for error in exc.errors:
                    if error["field"] in PLAYER_FIELDS:
                        error["field"] = f"new_player.{error['field']}"
            raise
        return Response(RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["registrations"])
class RegistrationDetailView(APIView):
    def _registration(self, request: Request, slug: str, start_number: int) -> Registration:
        event = permissions.visible_event(request.user, slug)
        registration = lookups.registration_of(event, start_number)
        if registration is None:
            raise NotFound(_("no registration with start number %(n)s") % {"n": start_number},
                           field="start_number", code="not_found")
        return registration

    @extend_schema(summary="One registration", responses={200: RegistrationSerializer, **refusals(404)})
    def get(self, request: Request, slug: str, start_number: int) -> Response:
        return Response(RegistrationSerializer(self._registration(request, slug, start_number)).data)

    @extend_schema(summary="Check in, late entry, withdraw: set a registration's status",
                   request=RegistrationStatusSerializer,
                   responses={200: RegistrationSerializer, **refusals(400, 403, 404)})
    def patch(self, request: Request, slug: str, start_number: int) -> Response:
        registration = self._registration(request, slug, start_number)
        permissions.require_organiser(request.user, registration.event)
        data = RegistrationStatusSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        registration = services.registration_set_status(
            registration=registration, status=data.validated_data["status"], actor=request.user)
        return Response(RegistrationSerializer(registration).data)


@extend_schema(tags=["registrations"])
class RegistrationImportView(APIView):
    parser_classes = [JSONParser, MultiPartParser, FormParser]

    @extend_schema(
        summary="Register the players of a CSV file, all or nothing",
        description=(
            "Columns (header line): first_name, last_name, club, country, federation_id, "
            "start_number, status. Every row is checked first; one bad row refuses the whole "
            "file and every problem is listed with field rows[i].<column> (i counts data rows "
            "from 0). A CSV over CSV_IMPORT_MAX_BYTES (1 MiB by default) is refused by its "
            "size with 413, code too_large; one of more than CSV_IMPORT_MAX_ROWS data rows "
            "(5,000) with 400, code too_many_rows; both name the field, csv or file."),
        request={"application/json": RegistrationImportSerializer,
                 "multipart/form-data": RegistrationImportSerializer},
        responses={201: RegistrationImportResultSerializer, **refusals(400, 403, 404, 413)},
    )
    def post(self, request: Request, slug: str) -> Response:
        event = permissions.visible_event(request.user, slug)
        permissions.require_organiser(request.user, event)
        data = RegistrationImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        created = services.registrations_import_csv(event=event, text=data.validated_data["text"],
                                                    actor=request.user,
                                                    field=data.validated_data["field"])
        return Response(RegistrationImportResultSerializer(
            {"imported": len(created), "registrations": created,
             "reused_players": [p.pk for p in created.reused]}).data,
            status=status.HTTP_201_CREATED)


# ---------------------------------------------------------------------------------------
# Jobs, the signed-in user, tokens
# ---------------------------------------------------------------------------------------


@extend_schema(tags=["rounds"])
class JobDetailView(APIView):
    @extend_schema(summary="A background job's progress (e.g. seating a round)",
                   responses={200: JobSerializer, **refusals(403, 404)})
    def get(self, request: Request, pk: int) -> Response:
        job = lookups.job_by_id(pk)
        if job is None or (job.event is not None and not rights.can_view_event(request.user, job.event)):
            raise NotFound(_("there is no job %(pk)s") % {"pk": pk}, field="job", code="not_found")
        if job.event is None:
            if not rights.is_staff(request.user):
                raise Forbidden(_("only staff may see this job"), code="not_staff")
        else:
            permissions.require_organiser(request.user, job.event)
        # A job left waiting by a broker outage is handed to the queue again when polled.
        jobs.requeue_if_waiting(job)
        return Response(JobSerializer(job).data)


@extend_schema(tags=["auth"])
class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="The signed-in user: his player, registrations and the events he runs",
                   responses={200: MeSerializer, **refusals(403)})
    def get(self, request: Request) -> Response:
        user = request.user
        player = lookups.player_of_user(user)
        runs = lookups.events_run_by(user)
        return Response(MeSerializer({
            "username": user.get_username(),
            "is_staff": user.is_staff,
            "can_create_events": permissions.can_create_events(user),
            "player": player,
            "registrations": lookups.registrations_of_player(player) if player else [],
            "organiser_of": runs["organiser"],
            "referee_of": runs["referee"],
        }).data)


@extend_schema(tags=["auth"])
class TokenView(ObtainAuthToken):
    """Password guessing is held by the same limit as the login pages (guard.login_limit):
    after too many failures from an address or for a username, 429 whatever the password."""

    parser_classes = [JSONParser, FormParser, MultiPartParser]

    @extend_schema(summary="Exchange a username and password for an API token",
                   request=TokenRequestSerializer,
                   responses={200: TokenSerializer, **refusals(400, 429)})
    def post(self, request: Request, *args, **kwargs) -> Response:
        username = request.data.get("username") if hasattr(request.data, "get") else None
        username = username if isinstance(username, str) else None
        if login_limit.is_blocked(request, username):
            raise _too_many_logins(request, username)
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            # authenticate() refused for the limit (a parallel attempt took the last place):
            # say so, rather than "wrong password".
            if login_limit.was_limited(request):
                raise _too_many_logins(request, username) from None
            raise


def _too_many_logins(request: Request, username: str | None) -> TooManyLogins:
    found = login_limit.refusal(request, username)
    error = TooManyLogins(login_limit.refusal_message(request, username), code="too_many_logins")
    error.retry_after = found.seconds if found else settings.LOGIN_FAILURE_WINDOW_SECONDS
    return error
