"""HTTP entry points of the scorecard contract: POST /api/v1/score/ scores a scorecard
(no login needed), GET /api/v1/rulesets/ and /api/v1/rulesets/<code>/ describe the registry.
Thin: they parse, call the engine and answer."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import ScorecardInvalid, evaluate, rules
from scoring.errors import ERROR_CODES, HTTP_INPUT_CODES

# Every `code` a 400 of POST /api/v1/score/ can carry: the engine's one list and the refusals of
# a body that is not read at all (docs/contracts/scorecard.md, Errors). The schema's enum is
# built from it (config/settings.py names it ScorecardErrorCodeEnum), never written out again.
SCORE_ERROR_CODES: tuple[str, ...] = tuple(sorted({*ERROR_CODES, *HTTP_INPUT_CODES}))


class ScorecardErrorSerializer(serializers.Serializer):
    """One problem of a refused scorecard, as the contract's error object."""

    hand = serializers.IntegerField(allow_null=True, min_value=0,
                                    help_text="0-based index of the hand, or null for the "
                                              "scorecard as a whole")
    field = serializers.CharField(help_text="path of the refused value, e.g. points or "
                                            "announcements[1].by")
    code = serializers.ChoiceField(choices=SCORE_ERROR_CODES,
                                   help_text="stable machine code, one of the contract's list "
                                             "(docs/contracts/scorecard.md, Error codes)")
    message = serializers.CharField(help_text="the problem in English words")
    params = serializers.DictField(required=False,
                                   help_text="the values the message names, where it names any")


class ScorecardRefusalSerializer(serializers.Serializer):
    errors = ScorecardErrorSerializer(many=True)


class ScoreView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT,
                   400: OpenApiResponse(ScorecardRefusalSerializer,
                                        description="refused: every problem found, each with "
                                                    "its stable code")},
        summary="Score a scorecard (scorecard contract v1)",
        operation_id="score_scorecard",
    )
    def post(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            return Response({"errors": [{"hand": None, "field": "scorecard", "code": "not_an_object",
                                         "message": "the body must be a JSON object"}]},
                            status=status.HTTP_400_BAD_REQUEST)
        try:
            return Response(evaluate(dict(request.data)))
        except ScorecardInvalid as exc:
            return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)


class RulesetListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="List the rulesets",
                   operation_id="rulesets_list")
    def get(self, request: Request) -> Response:
        return Response({"rulesets": [
            {"code": r.code, "title": r.title, "source": r.source, "unit": r.unit,
             "modes": list(r.modes), "url": request.build_absolute_uri(f"{r.code}/")}
            for r in rules.all_rulesets()
        ]})


class RulesetDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT},
                   summary="Describe one ruleset: modes, games, announcements, contras, hand schema",
                   operation_id="ruleset_retrieve")
    def get(self, request: Request, code: str) -> Response:
        ruleset = rules.get(code)
        if ruleset is None:
            return Response({"errors": [{"hand": None, "field": "ruleset", "code": "unknown_ruleset",
                                         "message": f"unknown ruleset {code!r}"}]},
                            status=status.HTTP_404_NOT_FOUND)
        return Response(ruleset.describe())
