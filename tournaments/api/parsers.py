"""The API's parsers: DRF's, but every JSON body is read through `tournaments.domain.limits.load_json`,
so a body nested deeper than the limit, or carrying NUL characters, NaN or lone surrogates,
is refused with a 400 in the contract's error shape naming the path, never a server error;
and form bodies (urlencoded, multipart) refuse NUL and control characters in their fields."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from tournaments.domain import limits
from tournaments.errors import ServiceError


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        raw = stream.read()
        try:
            text = raw.decode(encoding) if isinstance(raw, bytes) else raw
        except (UnicodeDecodeError, LookupError):
            text = raw
        try:
            return limits.load_json(text)
        except limits.JsonRefused as exc:
            if exc.errors[0]["code"] in ("invalid_json", "not_utf8"):
                # Not JSON at all: DRF's own refusal, as before.
                raise ParseError(exc.errors[0]["message"]) from exc
            raise ServiceError(exc.errors) from exc


def _refuse_bad_values(data: Any) -> Any:
    """Form fields are text too: refuse NUL and control characters in any of them (line
    breaks allowed), naming the field, before a view or a service reads them."""
    errors = []
    for name in data:
        for value in data.getlist(name):
            problem = limits.text_problem(value, multiline=True) if isinstance(value, str) else None
            if problem:
                # A form field without a name still gets a path a person can read.
                field = name or "body"
                errors.append({"hand": None, "field": field, "code": "invalid_text",
                               "message": _("%(field)s %(problem)s") % {
                                   "field": field, "problem": problem}})
    if errors:
        raise ServiceError(errors)
    return data


class FormParser(parsers.FormParser):
    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        return _refuse_bad_values(super().parse(stream, media_type, parser_context))


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        result = super().parse(stream, media_type, parser_context)
        _refuse_bad_values(result.data)
        return result
