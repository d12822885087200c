"""People see words, never codes (issue #14, finding 7; issue #33): every page of the demo an
organiser, a referee, a table's phone or a visitor reaches, in English, Slovenian, Czech and
German, shows no internal code (`half_away_from_zero`, `late_entry`, `hand.update`), no database
constraint name and no Python value (`{'points': 40}`, `None`, `True`) in its text; in Slovenian,
Czech and German no English word of the interface (a name stored in English, a value written
raw) and no decimal with a point ("4.000" reads as four thousand there); and the printed
sheets and standings of each demo event, in the event's language, no English either."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlparse

import pytest
from django.core.management import call_command
from django.db import models
from django.test import Client

from tests.conftest import built_once
from tests.tournaments.pages.test_i18n import _entries
from tests.tournaments.pdf.pdftext import text as pdf_text

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

LANGUAGES = ["en", "sl", "cs", "de"]
SKIP = ("/admin", "/api", "/accounts", "/i18n", "/static", "/healthz", "/welcome")
LIMIT = 400
# snake_case or dotted words are codes; so are Python's reprs.
CODE = re.compile(r"(?<![\w/.@-])[a-z]+(?:_[a-z0-9]+)+(?![\w/.-])"
                  r"|(?<![\w/.@-])(?!a\.m\b|p\.m\b)[a-z_]{2,}\.[a-z_]+(?:\.[a-z_]+)?(?![\w/-])")
PYTHON = re.compile(r"\{'|\[\{|'\}|\b(?:None|True|False)\b|<[a-z.]+ object at 0x")
# A number with a decimal point, not a date (28.11.2026), a section (§4.1) or a version (v1.06).
DECIMAL_POINT = re.compile(r"(?<![\w.§/-])\d+\.\d{1,3}(?![\d.\w])")
WORD = re.compile(r"(?<![\w.@/-])[A-Za-z]{4,}(?![\w@/-])")
# Proper names that are English words: the demo's accounts and the switcher's own name of English.
PROPER = {"organiser", "referee", "english"}


def english_words() -> set[str]:
    """The words of the interface's English that none of its translations uses: seen on a
    Slovenian, Czech or German page, they are English that reached it untranslated."""
    def words(text: str, pattern: str) -> set[str]:
        # Named placeholders (%(matchdays)s) are not words of the text.
        return {w.lower() for w in re.findall(pattern, re.sub(r"%\(\w+\)", " ", text))}

    english, translated = set(), set()
    for lang in ("sl", "cs", "de"):
        for msgid, plural, strs in _entries(lang):
            english |= words(f"{msgid} {plural or ''}", r"[A-Za-z]{4,}")
            translated |= words(" ".join(strs), r"\w{4,}")
    return english - translated - PROPER


def english_in(text: str, words: set[str]) -> list[str]:
    return [text[max(0, m.start() - 40):m.end() + 40] for m in WORD.finditer(text)
            if m.group(0).lower() in words]


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


def _phone_pages() -> list[str]:
    """The table links and personal links of the demo's running events: what a phone sees."""
    from tournaments.models import PlayerLink, TableLink

    tables = TableLink.objects.filter(revoked_at__isnull=True, table__round__status__in=["published", "playing"])
    people = PlayerLink.objects.filter(revoked_at__isnull=True).order_by("registration__event", "pk")
    return ([f"/t/{link.token}/" for link in tables.order_by("table__round__event", "pk")[:6]]
            + [f"/p/{link.token}/" for link in people[:4]])


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_a_code_a_constraint_name_or_a_python_value(language, demo):
    from django.contrib.auth import get_user_model

    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    client.force_login(get_user_model().objects.get(username="organiser"))
    pages = _crawl(client, [*_phone_pages(), "/", "/manage/", "/referee/"])
    constraints = _constraint_names()
    english = english_words() if language != "en" else set()
    found = []
    for path, text in pages.items():
        for match in CODE.finditer(text):
            found.append(f"{path}: code {match.group(0)!r}")
        for match in PYTHON.finditer(text):
            found.append(f"{path}: Python {text[max(0, match.start() - 20):match.end() + 20]!r}")
        found += [f"{path}: constraint {name}" for name in constraints if name in text]
        found += [f"{path}: English {context!r}" for context in english_in(text, english)]
        if language != "en":
            found += [f"{path}: decimal point {text[max(0, m.start() - 30):m.end() + 10]!r}"
                      for m in DECIMAL_POINT.finditer(text)]
    assert len([p for p, t in pages.items() if t]) >= 100, len(pages)
    assert not found, f"{len(found)} codes in {language}:\n" + "\n".join(sorted(set(found))[:80])


@pytest.mark.parametrize("slug", ["demo-slovenian", "demo-czech", "demo-tarockcup"])
def test_the_printed_sheets_and_standings_speak_the_events_language(slug, demo):
    """A table's sheet and the standings, printed in the event's language (whoever asks),
    carry no English word of the interface: the rules' title and the table form included."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Event

    event = Event.objects.get(slug=slug)
    assert event.language != "en"
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(get_user_model().objects.get(username="organiser"))
    english, found = english_words(), []
    if slug == "demo-czech":
        # The Czech money sheet is trilingual as the rules print it (seed 004: "Stůl číslo /
        # Tischnummer / Table number", "Kolo / Runde / Level"): its English labels are the
        # rulebook's own, not the interface's.
        english -= {"level", "money", "number", "players", "table", "total", "bought"}
    for path in (f"/e/{slug}/rounds/1/tables/1/sheet.pdf", f"/e/{slug}/standings.pdf"):
        response = client.get(path)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = pdf_text(body)
        assert len(text) > 200, (path, response.status_code)
        found += [f"{path}: English {context!r}" for context in english_in(text, english)]
        found += [f"{path}: code {m.group(0)!r}" for m in CODE.finditer(text)]
    assert not found, "\n".join(found)


def test_the_crawl_sees_english_and_a_decimal_point_where_they_are():
    """The checks above can fail: an English sentence of the interface and "4.000" are seen."""
    english = english_words()
    assert english_in("Demo: Tarok liga 2025/26 – matchday 3", english)
    assert english_in("točke: 4; score: 300", english)
    assert not english_in("Pravila Tarok.net v1.06 (5. maja 2007) · 28.11.2026. 00:21 organiser", english)
    assert DECIMAL_POINT.search("točke: 4.000;")
    assert not DECIMAL_POINT.search("28.11.2026. 00:21 · §4.1 b · v1.06 · 4,5")


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
