"""The refusal at the edges (docs/venue.md): a write (POST, PUT, PATCH, DELETE) to an event
this installation does not write now (lent to a venue's laptop, or handed back by this
laptop) is answered 409 before its view runs, with the words of
tournaments.domain.lifecycle.venue_refusal: a page in the visitor's language, or the API's
error shape. The pages and the API find the event by the slug of their paths (an event's
pages, its organiser's and referee's pages and its API) or by the token of a table or
personal link. The laptop's own pushes pass. Whatever reaches a service past this (a command,
a league's page acting on a matchday) is refused by the audit trail's check in the same
transaction (tournaments.services.audit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from tournaments.domain import lifecycle
from tournaments.models import Event, PlayerLink, TableLink

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
# The laptop's pushes and the staff's take-back write to a lent event by right.
PASSING = frozenset({"venue-push", "venue-return", "venue-take-back", "manage-venue-take-back"})
# Paths whose `slug` is an event's (a league's or a cup's pages have slugs of their own).
EVENT_SLUG_PATHS = ("/e/", "/manage/e/", "/referee/e/", "/api/v1/events/", "/api/v1/archive/events/")


def _event_id(request: HttpRequest, kwargs: dict[str, Any]) -> int | None:
    path = request.path_info
    if "slug" in kwargs and path.startswith(EVENT_SLUG_PATHS):
        return Event.objects.filter(slug=kwargs["slug"]).values_list("pk", flat=True).first()
    token = kwargs.get("token")
    if token and path.startswith("/t/"):
        return (TableLink.objects.filter(token=token).values_list("table__round__event_id", flat=True)
                .first())
    if token and path.startswith("/p/"):
        return (PlayerLink.objects.filter(token=token)
                .values_list("registration__event_id", flat=True).first())
    return None


class VenueHoldMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func: Any, view_args: Any,
                     view_kwargs: dict[str, Any]) -> HttpResponse | None:
        if request.method in SAFE_METHODS:
            return None
        match = request.resolver_match
        if match is not None and match.url_name in PASSING:
            return None
        event_id = _event_id(request, view_kwargs)
        refusal = lifecycle.venue_refusal(event_id) if event_id is not None else None
        if refusal is None:
            return None
        if request.path_info.startswith("/api/"):
            return JsonResponse({"errors": [{"hand": None, "field": "event", "code": "run_at_venue",
                                             "message": refusal}]}, status=409)
        return render(request, "tournaments/venue/refused.html", {"message": refusal}, status=409)
