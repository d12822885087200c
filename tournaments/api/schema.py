"""Shared pieces of the OpenAPI description (drf-spectacular): the error responses every
refusal uses, and the path parameters of nested resources."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse

from tournaments.api.serializers import ApiErrorSerializer

_DESCRIPTIONS = {
    400: "refused: every problem with its field, in the scorecard contract's error shape",
    403: "not allowed for this user (or not signed in)",
    404: "no such object, or one this user may not see",
    409: "the scorecard changed since it was read (stale version): reload and try again",
}


def refusals(*codes: int) -> dict[int, Any]:
    """Error responses for `extend_schema(responses=...)`, all in the contract's shape."""
    return {code: OpenApiResponse(ApiErrorSerializer, description=_DESCRIPTIONS[code])
            for code in codes}
