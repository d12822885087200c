"""Caching of the public event pages for anonymous visitors.

During a tournament day many phones poll the live standings and the projector refreshes
itself; every one of them sees the same page. This middleware, placed near the top of the
stack, stores an anonymous visitor's GET of a public event page under the path, the
language, whether htmx asked for a fragment or restores its history, and the versions of
what the page shows:

- the event page, the standings and their live fragment: the event's `results_version`,
  which `tournaments.services.audit.record` bumps with every audited change of the event that may
  show there (a confirmed, verified, corrected or annulled card, a round published or
  closed, a seating change), but not with a hand typed or confirmed on a card that does not
  count yet, nor with a card handed in;
- a round's page (every card's state): that and the round's `cards_version`;
- the projector (the current round's cards): that and the sum of the rounds' `cards_version`;
- a table's page (its card, hand by hand): that and the card's `version`, which every write
  of the card bumps.

So a hand typed at one table leaves every other page in the cache. A change is visible at
once in the process that made it and within a second in the others (each process keeps a
page's versions for one second, so that most hits make no database round trip at all).
Entries also expire after a few seconds, which bounds anything that depends on the time of
day (the round clock); a table's page, which shows no clock, stays two minutes. A hit skips sessions, authentication, URL resolution and the view.

A response is stored only when it is the same for every anonymous visitor: a request with a
session cookie is never served or stored, and nothing that set a cookie, used the CSRF token
or was not a plain 200 is kept.

Every answer of a public event page in scope says whether it came from the cache: `X-Page-Cache: hit` or
`miss` (the load benchmark, bench/load.py, counts them; a visitor with a session, who is never
served from the cache, gets neither).
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

from tournaments.models import Event, Round, Scorecard, Table

PAGE_SECONDS = 10
# A table's page shows its card and nothing that moves with the clock (no round clock, the
# "updated … ago" is written by the browser), and every write of the card gives it a new
# key: it may stay longer, so that the few phones watching one table share a rendering.
PAGE_SECONDS_BY_SCOPE = {"table": 120}

# The public event pages (tournaments/pages/urls_public.py) whose content depends only on the
# versions below and the language.
_CACHEABLE = re.compile(
    r"^/e/(?P<slug>[-a-zA-Z0-9_]+)/"
    r"(?:standings/(?:live/)?|(?P<projector>projector/)"
    r"|rounds/(?P<round>\d{1,6})/(?:tables/(?P<table>\d{1,6})/)?)?$"
)
_EVENT = Event._meta.db_table
_ROUND = Round._meta.db_table
_TABLE = Table._meta.db_table
_CARD = Scorecard._meta.db_table
# Written out: building them through the ORM costs more than running them, and they run on
# every poll of every phone in the hall (at most once a second per page and process).
_EVENT_SQL = f"SELECT e.id, e.results_version FROM {_EVENT} e WHERE e.slug = %s AND e.is_public"
_PROJECTOR_SQL = (f"SELECT e.id, e.results_version, (SELECT COALESCE(SUM(r.cards_version), 0) "
                  f"FROM {_ROUND} r WHERE r.event_id = e.id) "
                  f"FROM {_EVENT} e WHERE e.slug = %s AND e.is_public")
_ROUND_SQL = (f"SELECT e.id, e.results_version, r.cards_version FROM {_EVENT} e "
              f"LEFT JOIN {_ROUND} r ON r.event_id = e.id AND r.number = %s "
              f"WHERE e.slug = %s AND e.is_public")
_TABLE_SQL = (f"SELECT e.id, e.results_version, c.version FROM {_EVENT} e "
              f"LEFT JOIN {_ROUND} r ON r.event_id = e.id AND r.number = %s "
              f"LEFT JOIN {_TABLE} t ON t.round_id = r.id AND t.number = %s "
              f"LEFT JOIN {_CARD} c ON c.table_id = t.id "
              f"WHERE e.slug = %s AND e.is_public")


VERSION_SECONDS = 1.0
# {slug: {page scope: (until, (event id, versions) or None)}}
_versions: dict[str, dict[tuple, tuple[float, tuple[int, str] | None]]] = {}


def forget_event(slug: str) -> None:
    """Drop this process's memo of an event's versions (called when the event changes)."""
    _versions.pop(slug, None)


def forget_all() -> None:
    _versions.clear()


def _scope(match: re.Match) -> tuple:
    if match["table"]:
        return ("table", int(match["round"]), int(match["table"]))
    if match["round"]:
        return ("round", int(match["round"]))
    if match["projector"]:
        return ("projector",)
    return ("event",)


def _lookup(slug: str, scope: tuple) -> tuple[int, str] | None:
    kind = scope[0]
    sql, params = {
        "event": (_EVENT_SQL, [slug]),
        "projector": (_PROJECTOR_SQL, [slug]),
        "round": (_ROUND_SQL, [*scope[1:], slug]),
        "table": (_TABLE_SQL, [*scope[1:], slug]),
    }[kind]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return (row[0], ":".join(str(v) for v in row[1:])) if row else None


def _public_versions(slug: str, scope: tuple) -> tuple[int, str] | None:
    now = time.monotonic()
    memo = _versions.get(slug, {}).get(scope)
    if memo is not None and memo[0] > now:
        return memo[1]
    found = _lookup(slug, scope)
    _versions.setdefault(slug, {})[scope] = (now + VERSION_SECONDS, found)
    return found


# The request headers that decide between a whole page and an htmx fragment: a fragment is
# asked with HX-Request, and a history restore (the back button) asks with both but needs the
# whole page. Both are part of the key, and answers say they vary by them, so neither this
# cache nor the browser's hands a bare fragment to a back navigation.
FRAGMENT_HEADERS = ("HX-Request", "HX-History-Restore-Request")
# Set after the answer is stored, so a stored answer never carries a stale verdict.
VERDICT_HEADER = "X-Page-Cache"


def _key(request: HttpRequest, language: str, event_id: int, version: str) -> str:
    raw = "|".join([request.get_full_path(), language,
                    *(request.headers.get(name, "") for name in FRAGMENT_HEADERS),
                    str(event_id), version])
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
        scope = _scope(match)
        found = _public_versions(match["slug"], scope)
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
            response[VERDICT_HEADER] = "hit"
            return response
        response = self.get_response(request)
        patch_vary_headers(response, FRAGMENT_HEADERS)
        if _storable(request, response):
            caches["pages"].set(key, (response.content, list(response.items())),
                                PAGE_SECONDS_BY_SCOPE.get(scope[0], PAGE_SECONDS))
        response[VERDICT_HEADER] = "miss"
        return response
