"""Shared pieces of the OpenAPI description (drf-spectacular): the error responses every
refusal uses, and the schema class that documents the refusals every list and every address
with objects in it gives."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse

from tournaments.api.serializers import ApiErrorSerializer

_DESCRIPTIONS = {
    400: "refused: every problem with its field, in the scorecard contract's error shape",
    401: "not signed in (no credentials, or a token that is not valid) where this needs a "
         "user: the answer carries `WWW-Authenticate: Token`",
    403: "not allowed for this user",
    404: "no such object, or one this user may not see",
    409: "the scorecard changed since it was read (stale version): reload and try again",
    413: "the body (or an uploaded file) is larger than the server reads: code `too_large`",
    415: "the body's content type is not one this operation reads",
    429: "too many failed sign-ins from this address or for this username: wait and retry",
}


def refusals(*codes: int) -> dict[int, Any]:
    """Error responses for `extend_schema(responses=...)`, all in the contract's shape."""
    return {code: OpenApiResponse(ApiErrorSerializer, description=_DESCRIPTIONS[code])
            for code in codes}


class ApiAutoSchema(AutoSchema):
    """drf-spectacular's schema, with the refusals that every operation of a kind gives
    documented even where a view does not list them: every operation answers 401 to a token
    that is not valid (authentication runs before any view, and refuses it), a list answers
    400 to a `limit` or `offset` out of bounds (tournaments.api.pagination), any address
    naming objects answers 404 when they do not exist or may not be seen, and any operation
    with a body answers 415 to a content type it does not read, 413 to a body larger than
    DATA_UPLOAD_MAX_MEMORY_SIZE and 400 to one with more fields than
    DATA_UPLOAD_MAX_NUMBER_FIELDS (tournaments.api.errors)."""

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        codes = []
        if self.view.get_authenticators():
            codes.append(401)
        if self.method == "GET" and self._is_list_view():
            codes.append(400)
        if "{" in self.path:
            codes.append(404)
        if self.method in ("POST", "PUT", "PATCH"):
            codes.append(415)
        if self.method in ("POST", "PUT", "PATCH", "DELETE"):
            codes.extend((400, 413))
        for code in codes:
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(
                    OpenApiResponse(ApiErrorSerializer, description=_DESCRIPTIONS[code]),
                    str(code), direction=direction)
        return responses
