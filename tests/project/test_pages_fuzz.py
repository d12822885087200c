"""A fuzzer of every address of the site: every URL pattern the resolver knows (pages, API,
admin, PDFs), as every role (anonymous, a player at a table, the referee, the organiser,
staff), by GET and by POST, with hostile values: numbers no column holds, negative numbers,
non-numbers where numbers belong (a superscript "²" among them, which str.isdigit() takes and
int() refuses), NUL and control characters, direction overrides, very long texts and JSON
nested thousands deep, in the query string, in the form fields each page offers (read from its
own HTML) and in the path segments. No answer may be a server error.

The world is the schemathesis test's (tests/project/test_api_schemathesis.py): an event with a
published round, hands, a dispute, a penalty and a job, a league season and a cup, so that the
path parameters name real objects and the requests reach the views. The number of cases is
printed; marked `fuzz` like schemathesis (`-m "not fuzz"` leaves it out).

Two things are made fast, not skipped, to keep the run near a minute: WeasyPrint's layout of
the printouts' HTML (the views, their parameters and the templates still run; only the
finished, trusted HTML is not laid out into pages) and password hashing."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.project.test_api_schemathesis import _world

ROLES = ["anonymous", "player_here", "referee", "organiser", "staff"]
HUGE = "9223372036854775808"
# isdigit() is True for a superscript two and int() refuses it (issue #29): sent in every field
# at once, as a request of its own, so that no number a page reads escapes it.
SUPERSCRIPT = "²"
HOSTILE = [HUGE, "-1", "abc", "1e309", "\x00", "Ana\u202e\x07", "A" * 5000, "[" * 3000, "",
           "0", "99999999999999999999999"]
DEEP_JSON = "[" * 50_000 + "]" * 50_000
QUERY_NAMES = ["limit", "offset", "round", "q", "after", "hand", "format", "next", "language",
               "number", "ruleset_code", "start_number", "status", "search", "page", "o", "p",
               "qualification_event", "criterion_event", "leaving", "applicants", "reason",
               "penalty"]
FIELD = re.compile(r'<(?:input|select|textarea)[^>]*\bname="([^"]+)"')


def _patterns(patterns: list[Any], prefix: str = "") -> list[tuple[str, URLPattern]]:
    out = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            out.extend(_patterns(pattern.url_patterns, prefix + str(pattern.pattern)))
        elif isinstance(pattern, URLPattern):
            out.append((prefix + str(pattern.pattern), pattern))
    return out


def _real_values(route: str, world: dict[str, Any]) -> dict[str, str]:
    """Values naming the world's real objects, by the parameter's name and the route it is in."""
    event = world["event"]
    league = world["league"]
    by_name = {
        "number": "1", "table": "1", "table_number": "1", "hand_number": "1", "hand": "1",
        "start_number": "1", "registration_id": str(world["registration_id"]),
        "dispute_id": str(event["id"]), "pk": str(event["id"]), "job_id": str(world["job"]["id"]),
        "player_id": str(world["player"]["id"]), "id": str(world["player"]["id"]),
        "season": league["season"], "league": league["slug"], "code": world["ruleset"]["code"],
        "uidb64": "MQ", "token": "set-password", "object_id": "1", "content_type_id": "1",
        "app_label": "tournaments", "event": world["cup"]["event"], "player": str(league["player"]),
    }
    slug = event["slug"]
    if route.startswith(("leagues/", "api/v1/leagues/")):
        slug = league["slug"]
    elif route.startswith(("cups/", "api/v1/cups/")):
        slug = world["cup"]["slug"]
    if "/jobs/" in route and route.startswith("api/"):
        by_name["pk"] = str(world["job"]["id"])
    return {**by_name, "slug": slug}


def _fill(route: str, values: dict[str, str]) -> str:
    """The route with its parameters replaced by `values` (regex routes of the admin are
    given their named groups the same way)."""
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values.get(m.group(1), "1"), route)
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: values.get(m.group(1), "1"), path)
    path = path.lstrip("^").rstrip("$").replace("\\", "")
    return "/" + path


def _hostile_path_values(route: str) -> dict[str, str]:
    names = re.findall(r"<(?:\w+:)?(\w+)>", route)
    return {name: ("999999999" if "num:" in route else "%00" + HUGE) for name in names}


def _posted(fields: list[str], shift: int) -> dict[str, str]:
    names = fields or QUERY_NAMES
    return {name: HOSTILE[(i + shift) % len(HOSTILE)] for i, name in enumerate(names)}


class _Document:
    """What WeasyPrint's layout gives, without laying anything out."""

    def __init__(self, *args: Any, **kwargs: Any):
        self.pages: list[Any] = []
        self.metadata = type("Metadata", (), {"title": ""})()

    def render(self, *args: Any, **kwargs: Any) -> _Document:
        return self

    def copy(self, pages: Any = None) -> _Document:
        return self

    def write_pdf(self, *args: Any, **kwargs: Any) -> bytes:
        return b"%PDF-1.7\n%%EOF\n"


@pytest.fixture
def _quick(monkeypatch, settings):
    # Every printout is laid out through the one pipeline's WeasyPrint (tournaments.printing.base).
    from tournaments.printing import base

    monkeypatch.setattr(base.weasyprint, "HTML", _Document)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.mark.fuzz
@pytest.mark.parametrize("role", ROLES)
def test_no_address_answers_a_server_error_to_hostile_input(role, db, _quick):
    world = _world()
    event = world["event"]
    from tournaments.models import Registration

    world["registration_id"] = Registration.objects.filter(
        event__slug=event["slug"], start_number=1).values_list("pk", flat=True).first()
    client = Client(raise_request_exception=False)
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    routes = sorted({route for route, _pattern in _patterns(get_resolver().url_patterns)})
    failures: list[str] = []
    answered: dict[str, set[int]] = {}
    cases = 0
    started = time.monotonic()

    def send(method: str, path: str, **kwargs: Any) -> Any:
        nonlocal cases
        cases += 1
        response = getattr(client, method)(path, **kwargs)
        if response.status_code >= 500:
            failures.append(f"{method.upper()} {path[:120]!r} {str(kwargs)[:160]} -> "
                            f"{response.status_code}")
        return response

    for route in routes:
        if route.endswith("logout/"):
            continue  # signing out would change the role under test
        path = _fill(route, _real_values(route, world))
        page = send("get", path)
        answered.setdefault(route, set()).add(page.status_code)
        fields = sorted(set(FIELD.findall(page.content.decode("utf-8", "replace"))) - {
            "csrfmiddlewaretoken"}) if page.get("Content-Type", "").startswith("text/html") else []
        send("get", path, data={name: HOSTILE[i % len(HOSTILE)] for i, name in enumerate(QUERY_NAMES)})
        if "<" in route:
            send("get", _fill(route, _hostile_path_values(route)))
        send("post", path, data=_posted(fields, 0))
        send("post", path, data=_posted(fields, len(HOSTILE) // 2))
        send("get", path, data=dict.fromkeys(QUERY_NAMES, SUPERSCRIPT))
        send("post", path, data=dict.fromkeys(fields or QUERY_NAMES, SUPERSCRIPT))
        send("post", path, data=DEEP_JSON, content_type="application/json")
    seconds = time.monotonic() - started
    print(f"\npage fuzzer as {role}: {len(routes)} URL patterns, {cases} requests, "
          f"{len(failures)} server errors, {seconds:.1f} s")
    assert not failures, f"{len(failures)} server errors as {role}:\n" + "\n".join(failures[:40])
    # The paths named the world's real objects: its pages answered rather than 404.
    reached = ["e/<slug:slug>/", "e/<slug:slug>/rounds/<num:number>/tables/<num:table_number>/",
               "leagues/<slug:slug>/<slug:season>/", "cups/<slug:slug>/"]
    if role in ("organiser", "staff"):
        reached += ["manage/e/<slug:slug>/", "manage/e/<slug:slug>/players/"]
    if role in ("referee", "organiser", "staff"):
        reached += ["referee/e/<slug:slug>/rounds/<num:number>/tables/<num:table_number>/"]
    for route in reached:
        assert 200 in answered[route], f"{route} never answered 200 as {role}: {answered[route]}"
