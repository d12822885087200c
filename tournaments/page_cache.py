"""Caching of the public event pages for anonymous visitors.

During a tournament day many phones poll the live standings and the projector refreshes
itself; every one of them sees the same page. An anonymous GET of a public event page is
therefore stored in the cache under the request path, the language, whether htmx asked for a
fragment, and the event's `results_version`, which `tournaments.audit.record` bumps with every
audited change: a new hand, a confirmation or a seating change is visible at the next request.
Entries also expire after a few seconds, which bounds anything that depends on the time of
day (the round clock).

A response is stored only when it is the same for every anonymous visitor: nothing that
touched the CSRF token, set a cookie or was not a plain 200 is ever cached.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language

from tournaments.models import Event

PAGE_SECONDS = 10


def _key(request: HttpRequest, event_id: int, version: int) -> str:
    raw = "|".join([request.get_full_path(), get_language() or "", request.headers.get("HX-Request", ""),
                    str(event_id), str(version)])
    return "public-page:" + hashlib.sha256(raw.encode()).hexdigest()


_VERSION_SQL = (f"SELECT id, results_version FROM {Event._meta.db_table} "
                "WHERE slug = %s AND is_public")


def _public_event_version(slug: str) -> tuple[int, int] | None:
    # The one query of a cached hit, written out: building it through the ORM costs more
    # than running it, and this runs on every poll of every phone in the hall.
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [slug])
        row = cursor.fetchone()
    return (row[0], row[1]) if row else None


def cached_public_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @functools.wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        if request.method != "GET" or request.user.is_authenticated:
            return view(request, slug, *args, **kwargs)
        found = _public_event_version(slug)
        if found is None:
            return view(request, slug, *args, **kwargs)
        key = _key(request, *found)
        stored = cache.get(key)
        if stored is not None:
            content, content_type = stored
            return HttpResponse(content, content_type=content_type)
        response = view(request, slug, *args, **kwargs)
        if (response.status_code == 200 and not response.streaming and not response.cookies
                # get_token() marks the request: the page carries a token of this visitor.
                and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")):
            cache.set(key, (response.content, response["Content-Type"]), PAGE_SECONDS)
        return response

    return wrapper
