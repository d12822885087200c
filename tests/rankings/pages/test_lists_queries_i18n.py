"""The ranking lists of the past and the points list take as many queries for 20 players as
for 4, and every list page answers in Slovenian, Czech, German and English without a 500."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from rankings import services
from sample_data.factories import PlayerFactory
from tests.rankings.helpers import played_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db

DAY = dt.date(2025, 10, 4)
URLS = ("/rankings/slovenian/", "/rankings/slovenian/?on=2025-12-01",
        "/rankings/slovenian/?season=2025/26", "/rankings/slovenian/?on=2025-12-01&country=SI",
        "/rankings/slovenian/csv/?on=2025-12-01", "/rankings/slovenian/points/?on=2025-12-01",
        "/rankings/slovenian/points/csv/?on=2025-12-01",
        "/api/v1/rankings/slovenian/?season=2025/26",
        "/api/v1/rankings/slovenian/points/?on=2025-12-01")


def field(players: int) -> None:
    """Two events a week apart of `players` players at tables of four, seat 1 winning."""
    people = [PlayerFactory(country="SI" if i % 2 else "AT", club=f"TK {i % 3}")
              for i in range(players)]
    tables = [([4 * t + 1, 4 * t + 2, 4 * t + 3, 4 * t + 4], 4 * t + 1)
              for t in range(players // 4)]
    played_event(people, [tables], day=DAY)
    played_event(people[::-1], [tables], day=DAY + dt.timedelta(days=7))
    services.ratings_rebuild("slovenian")


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200, url
    return len(ctx.captured_queries)


def test_the_lists_take_as_many_queries_for_twenty_players_as_for_four(
        django_assert_max_num_queries):
    client = Client()
    field(4)
    for url in URLS:
        client.get(url)  # the points list's places are cached once per event version
    small = {url: queries(client, url) for url in URLS}
    assert small["/rankings/slovenian/?on=2025-12-01"] <= 6
    # The four's events leave the lists (private events never count); twenty play the same.
    Event.objects.update(is_public=False)
    field(20)
    for url in URLS:
        client.get(url)
        with django_assert_max_num_queries(small[url]):
            assert client.get(url).status_code == 200
    assert client.get("/api/v1/rankings/slovenian/?on=2025-12-01").json()["results"][19]


@pytest.mark.parametrize("lang", ["sl", "cs", "de", "en"])
def test_every_list_page_answers_in_every_language(lang):
    field(4)
    client = Client()
    client.cookies["django_language"] = lang
    for url in (*URLS, "/rankings/slovenian/?on=2025-02-30", "/rankings/slovenian/?season=1999/00",
                "/rankings/slovenian/points/?on=x", "/rankings/koenigrufen/points/",
                "/rankings/taroky/?on=2025-12-01"):
        answer = client.get(url)
        assert answer.status_code == 200, (lang, url)
    page = client.get("/rankings/slovenian/?on=2025-12-01").content.decode()
    assert f'lang="{lang}"' in page
