"""The server's endpoints of a venue hold (docs/venue.md), routed by `tournaments.venue.urls`
under /api/v1/events/<slug>/venue/:

- POST take/       an organiser's API token; answers {"key", "archive"}: the laptop's key and
                   the event's archive. The server then refuses every other write to it.
- POST push/       the laptop's key in `X-Venue-Key`; the body {"version", "archive"} (the whole
                   archive) or {"version", "base", "delta", "sha256"} (what changed since the
                   version `base`, archive.delta), as JSON, compressed with gzip
                   (Content-Encoding) or not. Answers {"applied", "version"}; 409
                   `base_mismatch` to a delta against another state than the server's.
- POST return/     as push/, and the server holds the event again.
- POST take-back/  the server's staff (a laptop lost); the laptop's pushes are refused from then.

A refusal answers in the API's error shape: 403 `not_holder` to a key that does not hold the
event, 400 with every problem of an archive at its path, 409 `already_lent`. Thin: they read
the request, call tournaments.venue.services, answer."""

from __future__ import annotations

import zlib
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import archive, selectors
from tournaments.api import permissions
from tournaments.api.schema import refusals
from tournaments.errors import NotFound, ServiceError, TooLarge
from tournaments.venue import services


def _body(request: Request) -> dict[str, Any]:
    """The body of a call (a push's {"version", "archive"}), gzip-compressed or plain, at most
    VENUE_PUSH_MAX_BYTES once uncompressed (a compressed bomb is refused, not inflated)."""
    limit = settings.VENUE_PUSH_MAX_BYTES
    raw = request._request.read(limit + 1)  # the raw stream: an archive is larger than a form
    if len(raw) > limit:
        raise TooLarge(_("the push is larger than this server takes"), field="archive",
                       code="too_large")
    if request.headers.get("Content-Encoding", "").lower() == "gzip":
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            raw = inflater.decompress(raw, limit + 1)
        except zlib.error as exc:
            raise ServiceError(_("the push is not valid gzip"), field="archive",
                               code="invalid") from exc
        if len(raw) > limit or inflater.unconsumed_tail:
            raise TooLarge(_("the push is larger than this server takes"), field="archive",
                           code="too_large")
    body = archive.loads(raw) if raw.strip() else {}
    if not isinstance(body, dict):
        raise ServiceError(_("the push is a JSON object with version and archive"), field="archive",
                           code="invalid")
    return body


def _event(slug: str):
    event = selectors.event_by_slug(slug)
    if event is None:
        raise NotFound(_("No such event."), field="event", code="not_found")
    return event


class VenueTakeView(APIView):
    permission_classes = [IsAuthenticated]
    # The body is read as a push's is (compressed or plain), not by a parser.
    parser_classes: list = []

    @extend_schema(tags=["venue"], summary="Lend the event to a venue's laptop (its organisers)",
                   request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, **refusals(403, 404, 409)},
                   operation_id="venue_take")
    def post(self, request: Request, slug: str) -> Response:
        event = permissions.visible_event(request.user, slug)
        body = _body(request)
        _hold, key, doc = services.hold_take(event=event, actor=request.user,
                                             holder=str(body.get("holder") or ""))
        return Response({"key": key, "archive": doc})


class _KeyedView(APIView):
    # The laptop's key is its credential: no session, no CSRF (no cookie is read).
    authentication_classes: list = []
    permission_classes = [AllowAny]
    parser_classes: list = []


def _holding(slug: str, request: Request):
    """The event, once the key is known to hold it: checked before the body is read, so that
    nobody but the laptop makes the server read (and inflate) a large body."""
    event = _event(slug)
    services.require_holder(event=event, key=request.headers.get("X-Venue-Key", ""))
    return event


class VenuePushView(_KeyedView):
    """A push (`push/`); the same body hands the event back (`return/`, `VenueReturnView`)."""

    apply = staticmethod(services.push_apply)

    @extend_schema(tags=["venue"], summary="A venue laptop's push of the event's state",
                   request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, **refusals(400, 403, 404, 413)},
                   operation_id="venue_push")
    def post(self, request: Request, slug: str) -> Response:
        event = _holding(slug, request)
        body = _body(request)
        if "delta" in body:
            state = {"base": body.get("base"), "delta": body["delta"], "sha256": body.get("sha256")}
        else:
            state = {"doc": body.get("archive")}
        return Response(self.apply(event=event, key=request.headers.get("X-Venue-Key", ""),
                                   version=body.get("version"), **state))


class VenueReturnView(VenuePushView):
    apply = staticmethod(services.hold_return)

    @extend_schema(tags=["venue"], summary="A venue laptop hands the event back with its last state",
                   request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, **refusals(400, 403, 404, 413)},
                   operation_id="venue_return")
    def post(self, request: Request, slug: str) -> Response:
        return super().post(request, slug)


class VenueTakeBackView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["venue"], summary="Take an event back from a venue (staff)",
                   request=None, responses={200: OpenApiTypes.OBJECT, **refusals(400, 403, 404)},
                   operation_id="venue_take_back")
    def post(self, request: Request, slug: str) -> Response:
        event = permissions.visible_event(request.user, slug)
        services.hold_force_back(event=event, actor=request.user)
        return Response({"event": event.slug, "held_here": True})
