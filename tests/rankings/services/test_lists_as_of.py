"""The ranking list as of a date and of a season (rankings.lists): each player's rating after
his last rated event on or before the day, as the stored history says, ranked, with the trend
against his step before, in the page, the CSV and the API alike; a season lists the players
who played in it. Bad dates and seasons are refused by name, never a 500."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.test import Client

from rankings import services
from rankings.models import Rating, RatingStep
from sample_data.factories import PlayerFactory
from tests.rankings.helpers import played_event

pytestmark = pytest.mark.django_db

SPRING = dt.date(2025, 3, 7)   # season 2024/25
AUTUMN = dt.date(2025, 9, 20)  # season 2025/26


@pytest.fixture
def world():
    """Five players: A wins the spring event of A, B, C, D; D wins both rounds of the autumn
    event of D, C, B and E (A stays away, E is new)."""
    a, b, c, d, e = (PlayerFactory(last_name=name, club="TK " + name, country=country)
                     for name, country in (("Ana", "SI"), ("Bor", "AT"), ("Cene", "SI"),
                                           ("Dan", "AT"), ("Eva", "SI")))
    played_event([a, b, c, d], [[([1, 2, 3, 4], 1)]], day=SPRING, slug="spring")
    played_event([d, c, b, e], [[([1, 2, 3, 4], 1)], [([1, 2, 3, 4], 1)]], day=AUTUMN,
                 slug="autumn")
    services.ratings_rebuild("slovenian")
    return a, b, c, d, e


def by_hand(on: dt.date, players=None) -> list[tuple[int, float, float | None]]:
    """(player, rating, trend) of everyone rated by `on`, from the stored steps, best first."""
    steps: dict[int, list[RatingStep]] = {}
    for step in RatingStep.objects.filter(family="slovenian", played_on__lte=on).order_by("tables"):
        steps.setdefault(step.player_id, []).append(step)
    rows = [(pid, own[-1].conservative,
             own[-1].conservative - own[-2].conservative if len(own) > 1 else None)
            for pid, own in steps.items() if players is None or pid in players]
    return sorted(rows, key=lambda r: -r[1])


def from_api(query: str) -> list[tuple[int, float, float | None]]:
    answer = Client().get(f"/api/v1/rankings/slovenian/?{query}")
    assert answer.status_code == 200, answer.content
    return [(r["player"]["id"], r["rating"], r["trend"]) for r in answer.json()["results"]]


def same(api_rows, hand_rows) -> bool:
    return len(api_rows) == len(hand_rows) and all(
        a[0] == h[0] and a[1] == round(h[1], 3)
        and (a[2] is None if h[2] is None else a[2] == round(h[2], 3))
        for a, h in zip(api_rows, hand_rows, strict=True))


def test_the_list_as_of_a_date_is_each_players_last_step_by_then_and_dates_differ(world):
    a, b, c, d, e = world
    summer = from_api("on=2025-06-01")
    assert same(summer, by_hand(dt.date(2025, 6, 1)))
    assert [pid for pid, *_ in summer][0] == a.pk and e.pk not in {pid for pid, *_ in summer}
    later = from_api("on=2025-12-31")
    assert same(later, by_hand(dt.date(2025, 12, 31)))
    assert [pid for pid, *_ in later][0] == d.pk and len(later) == 5
    assert [pid for pid, *_ in summer] != [pid for pid, *_ in later][:4]
    # A, away in autumn, keeps his spring rating and has no trend; D's trend is his rise.
    rows = {pid: (rating, trend) for pid, rating, trend in later}
    assert rows[a.pk] == (round(dict((p, r) for p, r, _ in summer)[a.pk], 3), None)
    assert rows[d.pk][1] > 0
    # Before anything was played the list is empty; after the last event it is today's list.
    assert from_api("on=2025-03-06") == []
    today = from_api("")
    assert same(later, [(r.player_id, r.conservative, r.trend)
                        for r in Rating.objects.order_by("-conservative")])
    assert [pid for pid, *_ in today] == [pid for pid, *_ in later]


def test_the_page_and_csv_show_the_same_list_and_filters_keep_the_whole_lists_rank(world):
    a, b, c, d, e = world
    client = Client()
    page = client.get("/rankings/slovenian/?on=2025-06-01").content.decode()
    assert "2025" in page and f'data-player="{e.pk}"' not in page
    order = [page.index(f'data-player="{pid}"') for pid, *_ in by_hand(dt.date(2025, 6, 1))]
    assert order == sorted(order)
    everybody = Client().get("/api/v1/rankings/slovenian/?on=2025-06-01").json()["results"]
    rank_of = {r["player"]["id"]: r["rank"] for r in everybody}
    austrians = Client().get("/api/v1/rankings/slovenian/?on=2025-06-01&country=AT").json()
    assert {r["player"]["id"] for r in austrians["results"]} == {b.pk, d.pk}
    assert all(r["rank"] == rank_of[r["player"]["id"]] for r in austrians["results"])
    assert austrians["on"] == "2025-06-01"
    rows = list(csv.reader(io.StringIO(
        client.get("/rankings/slovenian/csv/?on=2025-06-01&country=AT").content.decode())))
    assert [int(r[0]) for r in rows[1:]] == [r["rank"] for r in austrians["results"]]
    assert {r[1] for r in rows[1:]} == {str(b), str(d)}
    # The page's CSV link carries the date.
    assert "csv/?country=AT&amp;on=2025-06-01" in client.get(
        "/rankings/slovenian/?on=2025-06-01&country=AT").content.decode()


def test_a_season_lists_its_players_as_at_its_end_and_only_seasons_with_events_are_offered(world):
    a, b, c, d, e = world
    spring = from_api("season=2024/25")
    assert same(spring, by_hand(dt.date(2025, 6, 30)))
    autumn = from_api("season=2025/26")
    assert same(autumn, by_hand(dt.date(2026, 6, 30), players={b.pk, c.pk, d.pk, e.pk}))
    assert a.pk not in {pid for pid, *_ in autumn}
    answer = Client().get("/api/v1/rankings/slovenian/?season=2025/26").json()
    assert answer["season"] == "2025/26" and answer["on"] == "2026-06-30"
    # Ranked among the season's players.
    assert [r["rank"] for r in answer["results"]][0] == 1
    page = Client().get("/rankings/slovenian/").content.decode()
    assert '<option value="2025/26">2025/26</option>' in page
    assert '<option value="2024/25">2024/25</option>' in page
    assert 'value="2023/24"' not in page
    season_page = Client().get("/rankings/slovenian/?season=2024/25").content.decode()
    assert f'data-player="{e.pk}"' not in season_page and f'data-player="{a.pk}"' in season_page


@pytest.mark.parametrize(("query", "field"), [
    ("on=2026-02-30", "on"), ("on=yesterday", "on"), ("on=07.03.2026", "on"),
    ("on=2026-13-01", "on"), ("on=99999-01-01", "on"), ("season=2023/24", "season"),
    ("season=2025/27", "season"), ("season=x", "season"),
    ("on=2025-06-01&season=2024/25", "season"),
])
def test_a_bad_date_or_season_is_refused_by_name(world, query, field):
    client = Client()
    answer = client.get(f"/api/v1/rankings/slovenian/?{query}")
    assert answer.status_code == 400, query
    assert [e["field"] for e in answer.json()["errors"]] == [field]
    assert all(e["message"] for e in answer.json()["errors"])
    page = client.get(f"/rankings/slovenian/?{query}")
    assert page.status_code == 200
    assert f'id="error-{field}"' in page.content.decode() and b"data-player=" not in page.content
    assert client.get(f"/rankings/slovenian/csv/?{query}").status_code == 400
    if field == "on":
        points = client.get(f"/api/v1/rankings/slovenian/points/?{query}")
        assert points.status_code == 400
        assert [e["field"] for e in points.json()["errors"]] == ["on"]
        assert 'id="error-on"' in client.get(
            f"/rankings/slovenian/points/?{query}").content.decode()


def test_the_schema_types_the_date():
    schema = Client().get("/api/schema/?format=json")
    params = {p["name"]: p for p in
              schema.json()["paths"]["/api/v1/rankings/{family}/"]["get"]["parameters"]}
    assert params["on"]["schema"] == {"type": "string", "format": "date"}
    assert "season" in params
