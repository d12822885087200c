"""HTTP API of the rankings (under /api/v1/): a game family's ranking list (today's, as of a
date or of a season) and its points list, for everybody, filtered like the pages. Unknown games
answer 404, a malformed filter 400 naming it, in the contract's error shape."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import scoring.rules
from rankings import lists, points, selectors
from rankings.forms import ListDateForm, api_errors
from tournaments.domain.limits import one_line_text
from tournaments.errors import NotFound, ServiceError
from tournaments.models import validate_country


def _filters(request: Request) -> tuple[str, str]:
    club = request.query_params.get("club", "")
    country = request.query_params.get("country", "").upper()
    if len(club) > 200:
        raise ServiceError(_("a club has at most %(n)s characters") % {"n": 200}, field="club",
                           code="too_long")
    for name, value, check in (("club", club, one_line_text), ("country", country, validate_country)):
        try:
            check(value)
        except ValidationError as exc:
            raise ServiceError("; ".join(exc.messages), field=name, code="invalid") from exc
    return club, country


def _dated(request: Request, **kwargs) -> ListDateForm:
    form = ListDateForm(request.query_params, **kwargs)
    if not form.is_valid():
        raise ServiceError(api_errors(form))
    return form


CLUB = OpenApiParameter("club", str, description="only players of this club")
COUNTRY = OpenApiParameter("country", str, description="only players of this country (ISO 3166)")
ON = OpenApiParameter("on", OpenApiTypes.DATE,
                      description="the list as of this day (YYYY-MM-DD); today when absent")
ANSWERS = {200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT}


class _Lists(APIView):
    permission_classes = [AllowAny]

    def handle_exception(self, exc):
        if isinstance(exc, ServiceError):
            return Response({"errors": exc.errors}, status=exc.status)
        return super().handle_exception(exc)

    def family(self, family: str) -> str:
        if family not in scoring.rules.families():
            raise NotFound(_("no game family %(family)r") % {"family": family}, field="family",
                           code="not_found")
        return family


class RankingView(_Lists):
    @extend_schema(
        operation_id="ranking_retrieve",
        parameters=[CLUB, COUNTRY, ON, OpenApiParameter(
            "season", str, description='the list of a league season (July to June), e.g. '
            '"2025/26": its players as at its end; one of the seasons with rated events, '
            'not together with "on"')],
        responses=ANSWERS)
    def get(self, request: Request, family: str) -> Response:
        family = self.family(family)
        club, country = _filters(request)
        form = _dated(request, seasons=lists.family_seasons(family))
        ranking = selectors.ranking_list(family, club=club, country=country,
                                         on=form.cleaned_data["on"], season=form.chosen_season)
        return Response({
            "family": family, "name": ranking.name,
            "rebuilt_at": ranking.rebuilt_at.isoformat() if ranking.rebuilt_at else None,
            "club": club, "country": country,
            "on": ranking.on.isoformat() if ranking.on else None,
            "season": ranking.season.label if ranking.season else None,
            "results": [selectors.rating_dict(row) for row in ranking.rows],
        })


class PointsView(_Lists):
    @extend_schema(operation_id="ranking_points_retrieve", parameters=[CLUB, COUNTRY, ON],
                   responses=ANSWERS)
    def get(self, request: Request, family: str) -> Response:
        family = self.family(family)
        club, country = _filters(request)
        form = _dated(request, with_season=False)
        ranking = points.points_list(family, on=form.cleaned_data["on"], club=club,
                                     country=country)
        return Response({
            "family": family, "name": ranking.name, "club": club, "country": country,
            "on": ranking.on.isoformat(), "since": ranking.since.isoformat(),
            "best_results": ranking.rule.best, "months": ranking.rule.months,
            "scale": {str(place): value for place, value in sorted(ranking.rule.scale.items())},
            "places_without_points": ranking.missing_places,
            "events": [{"slug": e.slug, "name": e.name, "ends_on": e.ends_on.isoformat()}
                       for e in ranking.events],
            "results": [points.points_dict(row) for row in ranking.rows],
        })
