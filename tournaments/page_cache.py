"""Caching of the public event pages for anonymous visitors.

During a tournament day many phones poll the live standings and the projector refreshes
itself; every one of them sees the same page. This middleware, placed near the top of the
stack, stores an anonymous visitor's GET of a public event page under the path, the
language, whether htmx asked for a fragment or restores its history, and the event's `results_version`, which
`tournaments.audit.record` bumps with every audited change: a new hand, a confirmation or a
seating change is visible at once in the process that made it and within a second in the
others (each process keeps an event's version for one second, so that most hits make no
database round trip at all). Entries also expire after a few seconds, which bounds anything
that depends on the time of day (the round clock). A hit skips sessions, authentication, URL
resolution and the view.

A response is stored only when it is the same for every anonymous visitor: a request with a
session cookie is never served or stored, and nothing that set a cookie, used the CSRF token
or was not a plain 200 is kept.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from tournaments.models import Event

PAGE_SECONDS = 10

# The public event pages (tournaments/urls_public.py) whose content depends only on the
# event's results and the language.
_CACHEABLE = re.compile(
    r"^/e/(?P<slug>[-a-zA-Z0-9_]+)/"
    r"(?:standings/(?:live/)?|projector/|rounds/\d+/(?:tables/\d+/)?)?$"
)
_VERSION_SQL = (f"SELECT id, results_version FROM {Event._meta.db_table} "
                "WHERE slug = %s AND is_public")


VERSION_SECONDS = 1.0
_versions: dict[str, tuple[float, tuple[int, int] | None]] = {}


def forget_event(slug: str) -> None:
    """Drop this process's memo of an event's version (called when the event changes)."""
    _versions.pop(slug, None)


def forget_all() -> None:
    _versions.clear()


def _public_event_version(slug: str) -> tuple[int, int] | None:
    now = time.monotonic()
    memo = _versions.get(slug)
    if memo is not None and memo[0] > now:
        return memo[1]
    # Written out: building it through the ORM costs more than running it, and this runs on
    # every poll of every phone in the hall.
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [slug])
        row = cursor.fetchone()
    found = (row[0], row[1]) if row else None
    _versions[slug] = (now + VERSION_SECONDS, found)
    return found


# The request headers that decide between a whole page and an htmx fragment: a fragment is
# asked with HX-Request, and a history restore (the back button) asks with both but needs the
# whole page. Both are part of the key, and answers say they vary by them, so neither this
# cache nor the browser's hands a bare fragment to a back navigation.
FRAGMENT_HEADERS = ("HX-Request", "HX-History-Restore-Request")


def _key(request: HttpRequest, language: str, event_id: int, version: int) -> str:
    raw = "|".join([request.get_full_path(), language,
                    *(request.headers.get(name, "") for name in FRAGMENT_HEADERS),
                    str(event_id), str(version)])
    return "public-page:" + hashlib.sha256(raw.encode()).hexdigest()


def _storable(request: HttpRequest, response: HttpResponse) -> bool:
    user = getattr(request, "user", None)
    return (response.status_code == 200 and not response.streaming and not response.cookies
            and not (user is not None and user.is_authenticated)
            # get_token() marks the request: the page carries this visitor's token.
            and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"))


class PublicPageCacheMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        match = _CACHEABLE.match(request.path_info)
        if (match is None or request.method != "GET"
                or settings.SESSION_COOKIE_NAME in request.COOKIES):
            return self.get_response(request)
        found = _public_event_version(match["slug"])
        if found is None:
            return self.get_response(request)
        language = translation.get_language_from_request(request)
        key = _key(request, language, *found)
        stored = caches["pages"].get(key)
        if stored is not None:
            content, headers = stored
            response = HttpResponse(content)
            for name, value in headers:
                response[name] = value
            return response
        response = self.get_response(request)
        patch_vary_headers(response, FRAGMENT_HEADERS)
        if _storable(request, response):
            caches["pages"].set(key, (response.content, list(response.items())), PAGE_SECONDS)
        return response
