"""The one exception handler of the REST API: every refusal, whether a service's
(`tournaments.errors.ServiceError`, `Conflict`, `NotFound`, `Forbidden`) or DRF's own (validation,
authentication, permission, not found, method, parsing, throttling), answers with the scorecard
contract's error shape `{"errors": [{"hand", "field", "code", "message"}]}`, so a client reads
every 4xx the same way.

A body over Django's bounds (`DATA_UPLOAD_MAX_MEMORY_SIZE`, `DATA_UPLOAD_MAX_NUMBER_FIELDS`,
`DATA_UPLOAD_MAX_NUMBER_FILES`) answers in the same shape, code `too_large`: 413 for its size,
400 for its number of fields or files. Django alone would answer its HTML "Bad Request" page,
which the pages keep.

A caller without credentials is answered 401 with the challenge `WWW-Authenticate: Token`
whenever he is refused for want of a right: DRF's own refusal of an anonymous write, a wrong
token, and a service's `Forbidden` alike (docs/security.md); a signed-in caller lacking the
right gets 403."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.errors import Forbidden, ServiceError

NON_FIELD = "non_field_errors"


def _path(prefix: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    if key in (NON_FIELD, "__all__"):
        return prefix or NON_FIELD
    return f"{prefix}.{key}" if prefix else str(key)


def flatten(detail: Any, prefix: str = "") -> list[dict[str, Any]]:
    """DRF's nested error detail (dicts per field, lists per item) as a flat list of contract
    errors whose `field` is the path to the value: `record`, `rows[2].money`, ..."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            out.extend(flatten(value, _path(prefix, key)))
        return out
    if isinstance(detail, list):
        # A list is either the messages of one field or the items of a list field.
        if all(isinstance(item, (str, exceptions.ErrorDetail)) for item in detail):
            return [_item(prefix, item) for item in detail]
        out = []
        for i, item in enumerate(detail):
            if item:
                out.extend(flatten(item, _path(prefix, i)))
        return out
    return [_item(prefix, detail)]


def _item(field: str, message: Any) -> dict[str, Any]:
    return {"hand": None, "field": field or NON_FIELD,
            "code": getattr(message, "code", None) or "invalid", "message": str(message)}


def _challenge(context: dict[str, Any]) -> str | None:
    """The `WWW-Authenticate` challenge for a caller who gave no credentials (None when he
    gave some that were accepted, or when the view authenticates nobody)."""
    request, view = context.get("request"), context.get("view")
    if request is None or view is None:
        return None
    try:
        if getattr(request.user, "is_authenticated", False):
            return None
    except exceptions.APIException:  # pragma: no cover - authentication ran before the view
        pass
    return view.get_authenticate_header(request)


def _too_large(exc: Exception) -> Response | None:
    """Django's refusals of an oversized body (raised when DRF reads it) in the error shape."""
    if isinstance(exc, RequestDataTooBig):
        status, message = 413, _("the request body is larger than %(limit)s: send less at once") % {
            "limit": filesizeformat(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)}
    elif isinstance(exc, TooManyFieldsSent):
        status, message = 400, _("the request has more than %(limit)s fields") % {
            "limit": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}
    elif isinstance(exc, TooManyFilesSent):
        status, message = 400, _("the request has more than %(limit)s files") % {
            "limit": settings.DATA_UPLOAD_MAX_NUMBER_FILES}
    else:
        return None
    return Response({"errors": [{"hand": None, "field": "body", "code": "too_large",
                                 "message": message}]}, status=status)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    too_large = _too_large(exc)
    if too_large is not None:
        return too_large
    if isinstance(exc, Forbidden) and (challenge := _challenge(context)):
        # Refused for want of a right, to a caller who did not sign in: 401 as DRF answers
        # his writes, so that a client knows to send its token; the service's words stay.
        return Response({"errors": exc.errors}, status=401,
                        headers={"WWW-Authenticate": challenge})
    if isinstance(exc, ServiceError):
        # A refusal for a while (too many sign-ins) says how long, as the login pages do.
        retry = getattr(exc, "retry_after", None)
        return Response({"errors": exc.errors}, status=exc.status,
                        headers={"Retry-After": str(retry)} if retry else None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = flatten(exc.detail)
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        errors = [{"hand": None, "field": NON_FIELD,
                   "code": codes if isinstance(codes, str) else exc.default_code,
                   "message": str(exc.detail)}]
    else:
        # Django's Http404 and PermissionDenied, which DRF has already turned into a response.
        errors = [{"hand": None, "field": NON_FIELD,
                   "code": "not_found" if response.status_code == 404 else "permission_denied",
                   "message": str(response.data.get("detail", "")) if isinstance(response.data, dict)
                   else str(response.data)}]
    response.data = {"errors": errors}
    return response


def _api_not_found(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"errors": [{
        "hand": None, "field": "path", "code": "not_found",
        "message": _("no API endpoint at %(path)s") % {"path": request.path},
    }]}, status=404)


class ApiNotFoundMiddleware:
    """With DEBUG on, Django answers an unmatched path with its HTML debug page and never
    calls `handler404`; under /api/ that page becomes the error shape too, so a client sees
    the same 404 in development as in production."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (response.status_code == 404 and request.path.startswith("/api/")
                and not response.get("Content-Type", "").startswith("application/json")):
            return _api_not_found(request)
        return response


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 handler (config/urls.py): a path under /api/ that no route matches (an
    event slug with spaces, a negative number) is still a refusal of the API, so it answers in
    the error shape; every other path gets the site's ordinary 404 page."""
    if request.path.startswith("/api/"):
        return _api_not_found(request)
    return defaults.page_not_found(request, exception)
