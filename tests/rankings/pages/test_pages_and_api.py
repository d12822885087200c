"""The public ranking list, its CSV and its API: every role reads the same list, the rank is
the place in the whole list even when filtered, a constant number of queries whatever the
field, and bad filters answer clearly (a 400 naming the field in the API, an empty list on the
page), never a 500."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from rankings import services
from sample_data.factories import PlayerFactory, UserFactory
from tests.rankings.helpers import played_event

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 3, 7)


def rated_field(n_tables: int, *, first_club: str = "TK Test") -> list:
    players = [PlayerFactory(club=first_club if i < 4 else "TK Drugi",
                             country="SI" if i % 2 else "AT") for i in range(4 * n_tables)]
    tables = [([4 * t + 1, 4 * t + 2, 4 * t + 3, 4 * t + 4], 4 * t + 1) for t in range(n_tables)]
    played_event(players, [tables], day=DAY)
    services.ratings_rebuild("slovenian")
    return players


def page_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_list_is_public_linked_from_the_menu_and_ranks_the_winners_first():
    players = rated_field(2)
    for user in (None, UserFactory(), UserFactory(is_staff=True)):
        client = Client()
        if user:
            client.force_login(user)
        menu = client.get("/")
        assert b'href="/rankings/"' in menu.content
        assert client.get("/rankings/").url == "/rankings/slovenian/"
        page = client.get("/rankings/slovenian/").content.decode()
        assert page.index(str(players[0])) < page.index(str(players[1]))
        assert page.index(str(players[4])) < page.index(str(players[5]))
        for player in players:
            assert f'href="/players/{player.pk}/"' in page
    assert Client().get("/rankings/koenigrufen/").status_code == 200
    assert Client().get("/rankings/chess/").status_code == 404


def test_the_page_takes_the_same_number_of_queries_for_a_small_and_a_large_field():
    client = Client()
    rated_field(1)
    small = page_queries(client, "/rankings/slovenian/")
    rated_field(6)
    assert page_queries(client, "/rankings/slovenian/") == small
    assert page_queries(client, "/rankings/slovenian/?club=TK+Test&country=SI") == small


def test_filters_keep_each_players_place_in_the_whole_list_in_the_page_csv_and_api():
    players = rated_field(2, first_club="=cmd|' /C calc'!A0")
    client = Client()
    everybody = client.get("/api/v1/rankings/slovenian/").json()["results"]
    assert [r["rank"] for r in everybody] == sorted(r["rank"] for r in everybody)
    assert everybody[0]["rank"] == 1 and len(everybody) == 8
    rank_of = {r["player"]["id"]: r["rank"] for r in everybody}
    austrians = client.get("/api/v1/rankings/slovenian/?country=at").json()["results"]
    assert {r["player"]["id"] for r in austrians} == {p.pk for p in players if p.country == "AT"}
    assert all(r["rank"] == rank_of[r["player"]["id"]] for r in austrians)
    # The Slovenians of this field all lost (the winners sit at seats 1 and 5, Austrians):
    # filtered, they keep the shared third place instead of starting again at 1.
    slovenians = client.get("/api/v1/rankings/slovenian/?country=SI").json()["results"]
    assert [r["rank"] for r in slovenians] == [3, 3, 3, 3]

    answer = client.get("/rankings/slovenian/csv/?country=AT")
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0][0] == "Rank" and len(rows) == 1 + len(austrians)
    assert [int(r[0]) for r in rows[1:]] == [r["rank"] for r in austrians]
    # A club that looks like a formula is written as text.
    club_cells = {r[6] for r in rows[1:]}
    assert "'=cmd|' /C calc'!A0" in club_cells and "=cmd|' /C calc'!A0" not in club_cells

    page = client.get("/rankings/slovenian/?club=TK+Drugi").content.decode()
    assert all(str(p) in page for p in players[4:]) and not any(str(p) in page for p in players[:4])


def test_bad_filters_are_refused_by_name_in_the_api_and_list_nobody_on_the_page():
    rated_field(1)
    client = Client()
    for query, field in (("country=ZZ", "country"), ("country=SLO", "country"),
                         ("club=" + "x" * 201, "club"), ("club=a%00b", "club")):
        answer = client.get(f"/api/v1/rankings/slovenian/?{query}")
        assert answer.status_code == 400, query
        assert [e["field"] for e in answer.json()["errors"]] == [field]
        page = client.get(f"/rankings/slovenian/?{query}")
        assert page.status_code == 200 and b'data-player=' not in page.content
    assert client.get("/api/v1/rankings/chess/").status_code == 404


def test_a_players_page_plots_his_rating_after_each_event_with_the_numbers_as_a_table():
    players = rated_field(1)
    later = [players[1], players[0], players[2], players[3]]
    played_event(later, [[([1, 2, 3, 4], 1)]], day=DAY + dt.timedelta(days=7), slug="second")
    services.ratings_rebuild("slovenian")
    page = Client().get(f"/players/{players[1].pk}/").content.decode()
    section = page[page.index('class="card player-ratings"'):]
    section = section[:section.index("</section>")]  # the statistics of his hands follow
    assert section.count("<circle") == 2 and "<polyline" in section
    steps = players[1].rating_steps.order_by("played_on")
    assert section.count("<tr><td>") == 2
    for step in steps:
        assert f"{step.conservative:.2f}" in section and step.event.name in section
    # He lost the first event and won the second: the line rises.
    assert steps[1].conservative > steps[0].conservative
    # Nobody is rated from a private event: its player has no ratings section.
    hidden = [PlayerFactory() for _ in range(4)]
    played_event(hidden, [[([1, 2, 3, 4], 1)]], day=DAY, public=False)
    services.ratings_rebuild("slovenian")
    assert Client().get(f"/players/{hidden[0].pk}/").status_code == 404
