"""People see words, never codes (issue #14, finding 7): every page of the demo an organiser,
a referee or a visitor reaches, in English, Slovenian, Czech and German, shows no internal code
(`half_away_from_zero`, `late_entry`, `hand.update`), no database constraint name and no
Python value (`{'points': 40}`, `None`, `True`) in its text."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlparse

import pytest
from django.core.management import call_command
from django.db import models
from django.test import Client

from tests.conftest import built_once

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

LANGUAGES = ["en", "sl", "cs", "de"]
SKIP = ("/admin", "/api", "/accounts", "/i18n", "/static", "/healthz", "/welcome")
LIMIT = 260
# snake_case or dotted words are codes; so are Python's reprs.
CODE = re.compile(r"(?<![\w/.@-])[a-z]+(?:_[a-z0-9]+)+(?![\w/.-])"
                  r"|(?<![\w/.@-])(?!a\.m\b|p\.m\b)[a-z_]{2,}\.[a-z_]+(?:\.[a-z_]+)?(?![\w/-])")
PYTHON = re.compile(r"\{'|\[\{|'\}|\b(?:None|True|False)\b|<[a-z.]+ object at 0x")


class _Text(HTMLParser):
    """The text a person reads (not scripts, styles or attributes) and the page's links."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.links: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        # <kbd> is what a person types as it is (a CSV file's column names).
        if tag in ("script", "style", "kbd"):
            self._hidden += 1
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "kbd") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def _constraint_names() -> set[str]:
    from django.apps import apps

    names = set()
    for model in apps.get_models():
        for constraint in getattr(model._meta, "constraints", []):
            if isinstance(constraint, models.BaseConstraint):
                names.add(constraint.name)
    return names


def _crawl(client: Client, starts: list[str]) -> dict[str, str]:
    pages: dict[str, str] = {}
    queue = list(starts)
    while queue and len(pages) < LIMIT:
        path = queue.pop(0)
        if path in pages:
            continue
        response = client.get(path)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            pages[path] = ""
            continue
        parser = _Text()
        parser.feed(response.content.decode())
        pages[path] = " ".join(parser.parts)
        for href in parser.links:
            url = urlparse(urljoin("http://testserver" + path, href))
            target = url.path + (f"?{url.query}" if url.query else "")
            if (url.netloc == "testserver" and not url.path.startswith(SKIP)
                    and not url.path.endswith((".pdf", ".csv")) and target not in pages
                    and target not in queue):
                queue.append(target)
    return pages


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    # The demo is built once for the four languages (each crawl runs in its own savepoint).
    yield from built_once(django_db_blocker, lambda: call_command("seed_demo", verbosity=0))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_a_code_a_constraint_name_or_a_python_value(language, demo):
    from django.contrib.auth import get_user_model

    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    client.force_login(get_user_model().objects.get(username="organiser"))
    pages = _crawl(client, ["/", "/manage/", "/referee/"])
    constraints = _constraint_names()
    found = []
    for path, text in pages.items():
        for match in CODE.finditer(text):
            found.append(f"{path}: code {match.group(0)!r}")
        for match in PYTHON.finditer(text):
            found.append(f"{path}: Python {text[max(0, match.start() - 20):match.end() + 20]!r}")
        found += [f"{path}: constraint {name}" for name in constraints if name in text]
    assert len([p for p, t in pages.items() if t]) >= 100, len(pages)
    assert not found, f"{len(found)} codes in {language}:\n" + "\n".join(sorted(set(found))[:80])


def test_a_violated_constraint_is_said_in_words_at_its_field(db):
    """The event form with a smallest table larger than a table: the refusal names the field
    in words, not the database constraint."""
    from tests.tournaments.pages.support import client_for, make_user

    organiser = make_user("org", can_create=True)
    response = client_for(organiser).post("/manage/events/new/", {
        "name": "Cup", "starts_on": "2026-11-21", "time_zone": "Europe/Ljubljana", "language": "en",
        "ruleset_code": "tarok-net-2007", "ruleset_mode": "tri+1", "seating_system": "points",
        "planned_rounds": 3, "hands_per_round": 24, "table_size": 3, "min_table_size": 4,
        "status": "registration"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "event_min_table_size_valid" not in page and "Constraint" not in page
    assert "The smallest table seats at least 1 and no more than a full table." in page
