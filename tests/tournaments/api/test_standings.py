"""The API's reads do not grow in queries with the field: standings (JSON and CSV), a round
with its seating and the registrations list cost the same with 8 players as with 40; and the
standings CSV is safe in a spreadsheet, like the page's."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.tournaments.api.test_roles import E, build_world
from tournaments import services
from tournaments.models import Player, Scorecard

pytestmark = pytest.mark.django_db


def _played_event(players: int) -> str:
    """An event of `players` players with round 1 played and confirmed (one hand a table),
    a referee's adjustment, and round 2 published and pending."""
    slug = f"field-{players}"
    event = services.event_create(
        actor=None, name=slug, slug=slug, starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="four",
        seating_system="points", planned_rounds=3, hands_per_round=1)
    regs = []
    for n in range(1, players + 1):
        player = services.player_create(first_name=f"F{n}", last_name=f"L{n}", club="TK")
        regs.append(services.registration_create(event=event, player=player, actor=None))
    numbers = [str(r.start_number) for r in regs]
    for number in (1, 2):
        order = numbers if number == 1 else numbers[::-1]
        tables = [order[i:i + 4] for i in range(0, players, 4)]
        rnd = services.round_store(event=event, number=number, seating_system="fixed", seed=0,
                                   tables=tables, actor=None)
        services.round_publish(rnd=rnd, actor=None)
        if number == 2:
            break
        for card in Scorecard.objects.filter(table__round=rnd):
            declarer = card.player_ids[0]
            services.hand_save(scorecard=card, number=1, expected_version=card.version, actor=None,
                               record={"game": "trojka", "declarer": declarer, "points": 45})
            services.scorecard_submit(scorecard=card, actor=None)
            services.scorecard_confirm(scorecard=card, actor=None)
    services.standings_adjust(registration=regs[0], actor=None, reason="late", points_delta=-1)
    return slug


def _queries(url: str) -> int:
    client = APIClient()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return len(captured)


@pytest.mark.parametrize("path", ["standings/", "standings/csv/", "standings/?round=1",
                                  "rounds/2/", "registrations/", "rounds/1/tables/1/scorecard/"])
def test_query_count_does_not_grow_with_the_field(path):
    small, large = _played_event(8), _played_event(40)
    few = _queries(f"/api/v1/events/{small}/{path}")
    many = _queries(f"/api/v1/events/{large}/{path}")
    assert few == many, f"{path}: {few} queries with 8 players, {many} with 40"
    assert many <= 6


def test_standings_list_pending_tables_and_adjustments(django_assert_max_num_queries):
    slug = _played_event(8)
    with django_assert_max_num_queries(4):
        body = APIClient().get(f"/api/v1/events/{slug}/standings/").json()
    assert body["after_round"] == 1
    assert body["pending_tables"] == [{"round": 2, "table": 1}, {"round": 2, "table": 2}]
    adjusted = [r for r in body["rows"] if r["adjusted"]]
    assert [r["start_number"] for r in adjusted] == [1]
    assert len(body["rows"]) == 8 and [r["rank"] for r in body["rows"]] == sorted(r["rank"] for r in body["rows"])
    after_0 = APIClient().get(f"/api/v1/events/{slug}/standings/?round=0")
    assert after_0.status_code == 400 and after_0.json()["errors"][0]["field"] == "round"


def test_the_api_standings_csv_escapes_formula_cells_like_the_page():
    world = build_world()
    Player.objects.filter(last_name="Last1").update(first_name="=1+2", club="@SUM(A1)")
    api = APIClient().get(E + "standings/csv/").content.decode()
    page = Client().get("/e/cup/standings.csv").content.decode()
    for text in (api, page):
        assert "'=1+2" in text and "'@SUM(A1)" in text
        assert ",=1+2" not in text
    assert world.event.slug == "cup"
