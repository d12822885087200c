"""Issue #14, finding 3: player search forgives case and diacritics everywhere a player is
looked for (find my table, the organiser's players page, the player registry page, the API's
player and registration filters), word order is free, and a start number matches exactly.
The search reads the normalised column of Player, kept by its save and filled for existing
rows by a data migration."""

from __future__ import annotations

import importlib
import re
import unicodedata
from pathlib import Path

import pytest
from django.apps import apps
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.tournaments.pages.support import client_for, make_event, make_user, seat_round
from tournaments import migrations, services
from tournaments.models import Event, Player, Registration

# The pairs of the issue: what a phone types for what the registry holds.
FOLDS = [("č", "c"), ("š", "s"), ("ž", "z"), ("ř", "r"), ("ů", "u"), ("ě", "e"), ("á", "a"),
         ("é", "e"), ("í", "i"), ("ó", "o"), ("ú", "u"), ("ý", "y"), ("ň", "n"), ("ť", "t"),
         ("ď", "d"), ("ä", "a"), ("ö", "o"), ("ü", "u"), ("ß", "ss"), ("đ", "d"), ("ł", "l"),
         ("Č", "c"), ("Ž", "z"), ("Ř", "r"), ("Ö", "o"), ("ẞ", "ss"), ("Đ", "d"), ("Ł", "l")]


@pytest.mark.parametrize(("typed", "plain"), FOLDS)
def test_each_letter_of_the_issue_folds_to_its_plain_letter(typed: str, plain: str):
    from tournaments.domain import search

    assert search.fold(typed) == plain
    assert search.fold(f"Ab{typed}Cd") == f"ab{plain}cd"


@given(st.text(max_size=40))
def test_folding_is_idempotent_lower_case_and_free_of_accents(text: str):
    from tournaments.domain import search

    folded = search.fold(text)
    assert search.fold(folded) == folded
    assert folded == folded.casefold()
    assert not any(unicodedata.combining(c) for c in folded)
    assert "  " not in folded and folded == folded.strip()


@given(st.sampled_from(["Zupančič", "Škofič", "Dvořák", "Müller-Weiß", "Đurić", "Łukasz"]),
       st.sampled_from([str.lower, str.upper, str.title, lambda s: s]))
def test_a_name_typed_without_its_accents_in_any_case_matches(name: str, case):
    from tournaments.domain import search

    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    plain = plain.replace("ß", "ss").replace("Đ", "D").replace("Ł", "L")
    assert search.matches(search.fold(f"Ana {name}"), case(plain))


def _event_with(organiser, capture, names: list[tuple[str, str, str]]) -> Event:
    event = make_event(organiser, slug="search-day", players=6)
    for first, last, club in names:
        services.registration_add(event=event, actor=organiser, first_name=first, last_name=last,
                                  club=club, status=Registration.Status.CHECKED_IN)
    rnd = seat_round(event, organiser, capture)
    services.round_publish(rnd=rnd, actor=organiser)
    return event


NAMES = [("Luka", "Zupančič", "Tarok klub Celje"), ("Janez", "Novak", "TK Ljubljana")]


@pytest.fixture(name="day")
def day_fixture(db, django_capture_on_commit_callbacks):
    organiser = make_user("organiser_s", can_create=True)
    return organiser, _event_with(organiser, django_capture_on_commit_callbacks, NAMES)


def _found_seats(html: str) -> list[str]:
    """The names of the seats the seating marks as found."""
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)).strip()
            for li in re.findall(r'<li class="me">(.*?)</li>', html, re.S)]


@pytest.mark.parametrize(("query", "who"), [
    ("zupancic", "Luka Zupančič"), ("ZUPANCIC", "Luka Zupančič"), ("Zupančič", "Luka Zupančič"),
    ("luka zupan", "Luka Zupančič"), ("novak janez", "Janez Novak"), ("janez", "Janez Novak"),
])
def test_find_my_table_forgives_case_diacritics_and_word_order(day, query: str, who: str):
    _organiser, event = day
    html = client_for(None).get(f"/e/{event.slug}/rounds/1/", {"q": query}).content.decode()
    found = _found_seats(html)
    assert len(found) == 1 and found[0].endswith(who), found


def test_find_my_table_takes_a_start_number_exactly(day):
    _organiser, event = day
    reg = event.registrations.get(player__last_name="Zupančič")
    html = client_for(None).get(f"/e/{event.slug}/rounds/1/", {"q": str(reg.start_number)})
    assert _found_seats(html.content.decode()) == [f"{reg.start_number} Luka Zupančič"]
    # "1" is start number 1 only, not 10 or 11 (nor a name holding the digit).
    html = client_for(None).get(f"/e/{event.slug}/rounds/1/", {"q": "1"}).content.decode()
    assert [s.split()[0] for s in _found_seats(html)] == ["1"]


def test_find_my_table_names_nobody_for_a_stranger(day):
    _organiser, event = day
    html = client_for(None).get(f"/e/{event.slug}/rounds/1/", {"q": "zupancicz"}).content.decode()
    assert _found_seats(html) == [] and "Nobody matches" in html


def test_the_organisers_players_page_filters_by_a_forgiving_search(day):
    organiser, event = day
    html = client_for(organiser).get(f"/manage/e/{event.slug}/players/",
                                     {"q": "zupancic"}).content.decode()
    body = html.split('class="data players"', 1)[1]
    assert "Zupančič" in body and "Novak" not in body and "Ana1 " not in body
    assert 'name="q"' in html and 'value="zupancic"' in html


def test_the_player_registry_page_searches_forgivingly_and_only_for_officials(day):
    organiser, _event = day
    page = client_for(organiser).get("/manage/players/", {"q": "novak JANEZ"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "Janez Novak" in html and "Zupančič" not in html
    stranger = make_user("stranger_s")
    assert client_for(stranger).get("/manage/players/").status_code == 403
    assert client_for(None).get("/manage/players/").status_code == 302


def test_the_api_filters_players_and_registrations_forgivingly(day):
    organiser, event = day
    api = APIClient()
    api.force_authenticate(organiser)
    players = api.get("/api/v1/players/", {"search": "zupancic"}).json()["results"]
    assert [p["last_name"] for p in players] == ["Zupančič"]
    players = api.get("/api/v1/players/", {"search": "novak janez"}).json()["results"]
    assert [p["last_name"] for p in players] == ["Novak"]
    # The club is searched forgivingly too ("celje" in "Tarok klub Celje").
    players = api.get("/api/v1/players/", {"search": "zupancic CELJE"}).json()["results"]
    assert [p["last_name"] for p in players] == ["Zupančič"]
    regs = api.get(f"/api/v1/events/{event.slug}/registrations/",
                   {"search": "ZUPANCIC"}).json()["results"]
    assert [r["player"]["last_name"] for r in regs] == ["Zupančič"]
    number = regs[0]["start_number"]
    regs = api.get(f"/api/v1/events/{event.slug}/registrations/",
                   {"search": str(number)}).json()["results"]
    assert [r["start_number"] for r in regs] == [number]


@pytest.mark.django_db
def test_the_column_follows_a_rename_and_a_change_of_club():
    player = services.player_create(first_name="Ana", last_name="Kovač", club="TK Šentjur")
    assert (player.search_name, player.search_club) == ("ana kovac", "tk sentjur")
    player.last_name = "Žagar"
    player.save(update_fields=["last_name"])
    player.refresh_from_db()
    assert player.search_name == "ana zagar"
    assert Player.objects.filter(search_name__contains="zagar").get() == player


@pytest.mark.django_db
def test_the_data_migration_fills_the_column_of_existing_players():
    player = services.player_create(first_name="Jiří", last_name="Dvořák", club="Hradec Králové")
    Player.objects.filter(pk=player.pk).update(search_name="", search_club="")
    # Found by its name, whatever number it has among the app's migrations.
    path = next(Path(migrations.__file__).parent.glob("*_player_search.py"))
    migration = importlib.import_module(f"tournaments.migrations.{path.stem}")

    migration.fill_search_columns(apps, None)
    player.refresh_from_db()
    assert (player.search_name, player.search_club) == ("jiri dvorak", "hradec kralove")
