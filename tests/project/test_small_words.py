"""Small things a newcomer meets first (issue #33): the language switcher names each language
in its own words, a season "2026/27" gets the address 2026-27, the browser's /favicon.ico
finds an icon, and the embedded default's task queue prints no warning."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from tournaments.domain.web_address import address_part

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "sl", "cs", "de"])
def test_the_language_switcher_names_each_language_in_its_own_words(language):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/").content.decode()
    options = dict(re.findall(r'<option value="(\w\w)" lang="\w\w"[^>]*>([^<]+)</option>', page))
    assert options == {"en": "English", "sl": "Slovenščina", "cs": "Čeština", "de": "Deutsch"}


@pytest.mark.parametrize("name, part", [
    ("2026/27", "2026-27"),
    ("Liga 2026/2027", "liga-2026-2027"),
    ("Zimski turnir – Kranj", "zimski-turnir-kranj"),
    ("///", ""),
    ("a" * 120, "a" * 100),
])
def test_an_address_part_keeps_the_words_a_slash_separates(name, part):
    assert address_part(name) == part


@pytest.mark.django_db
def test_a_season_of_2026_27_gets_the_address_2026_27():
    from leagues import services as league_services
    from tests.tournaments.pages.support import make_user

    organiser = make_user("league-boss", can_create=True)
    league = league_services.league_create(actor=organiser, name="Tarok liga", slug="liga",
                                           ruleset_code="tarok-net-2007", ruleset_mode="tri+1")
    season = league_services.season_create(league=league, actor=organiser, name="2026/27")
    assert season.slug == "2026-27"


@pytest.mark.django_db
def test_the_browsers_favicon_request_finds_the_icon():
    answer = Client().get("/favicon.ico")
    assert answer.status_code == 301 and answer["Location"].endswith("favicon.svg")
    assert 'rel="icon"' in Client().get("/").content.decode()


def test_the_embedded_default_prints_no_warning_of_its_task_queue(tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "PATH": "/usr/bin:/bin",
           "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([sys.executable, "-c", (
        "import django; django.setup();"
        "from config.celery import app; app.connection_for_write().as_uri()")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "No hostname was supplied" not in done.stdout + done.stderr
