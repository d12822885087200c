"""HTTP API of the rankings (under /api/v1/): a game family's ranking list, for everybody,
filtered like the page. Unknown games answer 404, a malformed filter 400 naming it, in the
contract's error shape."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import scoring.rules
from rankings import selectors
from tournaments.errors import NotFound, ServiceError
from tournaments.limits import one_line_text
from tournaments.models import validate_country


def _filters(request: Request) -> tuple[str, str]:
    club = request.query_params.get("club", "")
    country = request.query_params.get("country", "").upper()
    if len(club) > 200:
        raise ServiceError("a club has at most 200 characters", field="club", code="too_long")
    for name, value, check in (("club", club, one_line_text), ("country", country, validate_country)):
        try:
            check(value)
        except ValidationError as exc:
            raise ServiceError("; ".join(exc.messages), field=name, code="invalid") from exc
    return club, country


class RankingView(APIView):
    permission_classes = [AllowAny]

    def handle_exception(self, exc):
        if isinstance(exc, ServiceError):
            return Response({"errors": exc.errors}, status=exc.status)
        return super().handle_exception(exc)

    @extend_schema(
        operation_id="ranking_retrieve",
        parameters=[OpenApiParameter("club", str, description="only players of this club"),
                    OpenApiParameter("country", str,
                                     description="only players of this country (ISO 3166)")],
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT})
    def get(self, request: Request, family: str) -> Response:
        if family not in scoring.rules.families():
            raise NotFound(f"no game family {family!r}", field="family", code="not_found")
        club, country = _filters(request)
        ranking = selectors.ranking_list(family, club=club, country=country)
        return Response({
            "family": family, "name": ranking.name,
            "rebuilt_at": ranking.rebuilt_at.isoformat() if ranking.rebuilt_at else None,
            "club": club, "country": country,
            "results": [selectors.rating_dict(row) for row in ranking.rows],
        })
