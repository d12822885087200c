"""The federation-style points list (rankings.points): points by place in each rated public
event of the last 12 months, the best N counted, equal totals sharing a rank; private and
unrated events never count and an event older than 12 months drops out. Computed by hand for a
small world, in the page, the CSV and the API alike."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.test import Client

from sample_data.factories import PlayerFactory
from tests.rankings.helpers import played_event, referee_of
from tournaments import services as tournament_services
from tournaments.models import Event, Scorecard

pytestmark = pytest.mark.django_db

SCALE = {"slovenian": {"scale": {1: 10, 2: 6, 3: 4}, "best": 2}}


@pytest.fixture
def world():
    """In each one-table event the winner is first and the other three share second place.
    Counted on 2026-03-31: E1 (a wins), E2 (b wins), E3 (c wins). Never counted: a private
    event d wins and an unrated one e wins. O (a wins) ended on 2025-03-31, twelve months
    before: it counts on 2026-03-30 and not a day later."""
    a, b, c, d, e = (PlayerFactory(last_name=name, country=country, club=club)
                     for name, country, club in (("Ana", "SI", "TK A"), ("Bor", "AT", "TK B"),
                                                 ("Cene", "SI", "TK A"), ("Dan", "AT", "TK B"),
                                                 ("Eva", "SI", "TK A")))
    one_table = [[([1, 2, 3, 4], 1)]]
    played_event([a, b, c, d], one_table, day=dt.date(2026, 3, 7), slug="e1")
    played_event([b, c, d, e], one_table, day=dt.date(2025, 11, 10), slug="e2")
    played_event([c, a, d, e], one_table, day=dt.date(2025, 6, 1), slug="e3")
    played_event([d, e, a, b], one_table, day=dt.date(2026, 1, 10), slug="private",
                 public=False)
    played_event([e, a, b, c], one_table, day=dt.date(2026, 1, 11), slug="unrated",
                 rated=False)
    played_event([a, b, c, d], one_table, day=dt.date(2025, 3, 31), slug="old")
    return a, b, c, d, e


def points(query: str) -> dict:
    answer = Client().get(f"/api/v1/rankings/slovenian/points/?{query}")
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_best_results_of_the_last_twelve_months_by_the_configured_scale(world, settings):
    settings.RANKING_POINTS = SCALE
    a, b, c, d, e = world
    answer = points("on=2026-03-31")
    assert answer["since"] == "2025-03-31" and answer["best_results"] == 2
    assert [ev["slug"] for ev in answer["events"]] == ["e1", "e2", "e3"]
    rows = {r["player"]["id"]: r for r in answer["results"]}
    # a: E1 1st (10) + E3 2nd (6); b: E2 10 + E1 6; c: E3 10 + one of two 6s; d: three 2nd
    # places, two count (the private event he won does not); e: two 2nd places (the unrated
    # event he won does not).
    assert {pid: r["points"] for pid, r in rows.items()} == {
        a.pk: 16, b.pk: 16, c.pk: 16, d.pk: 12, e.pk: 12}
    assert {pid: r["rank"] for pid, r in rows.items()} == {
        a.pk: 1, b.pk: 1, c.pk: 1, d.pk: 4, e.pk: 4}
    assert rows[c.pk]["events_counted"] == 2 and len(rows[c.pk]["results"]) == 3
    assert sorted((x["event"]["slug"], x["place"], x["points"]) for x in rows[c.pk]["results"]
                  if x["counted"])[1:] == [("e3", 1, 10)]
    assert {x["event"]["slug"] for r in rows.values() for x in r["results"]} == {"e1", "e2", "e3"}
    # A day earlier the old event is inside the twelve months: a's win there counts.
    earlier = {r["player"]["id"]: r for r in points("on=2026-03-30")["results"]}
    assert earlier[a.pk]["points"] == 20 and earlier[a.pk]["rank"] == 1
    assert earlier[b.pk]["rank"] == 2
    # Filtered, each keeps his rank in the whole list.
    austrians = points("on=2026-03-31&country=AT")["results"]
    assert [(r["player"]["id"], r["rank"]) for r in austrians] == [(b.pk, 1), (d.pk, 4)]


def test_the_default_is_seed_001s_cup_points_and_six_best_and_it_says_what_the_scale_lacks(
        world, settings):
    a, b, c, d, e = world
    answer = points("on=2026-03-31")
    assert answer["scale"] == {"1": 223, "2": 198, "3": 180, "50": 1}
    assert answer["best_results"] == 6 and answer["months"] == 12
    assert {r["player"]["id"]: r["points"] for r in answer["results"]} == {
        a.pk: 223 + 198, b.pk: 223 + 198, c.pk: 223 + 198 + 198, d.pk: 3 * 198, e.pk: 2 * 198}
    assert answer["places_without_points"] == []
    settings.RANKING_POINTS = {"slovenian": {"scale": {1: 10, 3: 4}, "best": 3}}
    answer = points("on=2026-03-31")
    # Second places are reached and the scale names none: they give nothing and are named.
    assert answer["places_without_points"] == [2]
    assert {r["player"]["id"]: r["points"] for r in answer["results"]} == {
        a.pk: 10, b.pk: 10, c.pk: 10}
    page = Client().get("/rankings/slovenian/points/?on=2026-03-31").content.decode()
    assert "places 2:" in page


def test_the_page_and_csv_show_the_list_and_the_rating_list_links_to_it(world, settings):
    settings.RANKING_POINTS = SCALE
    a, b, c, d, e = world
    client = Client()
    assert 'href="/rankings/slovenian/points/"' in client.get("/rankings/slovenian/").content.decode()
    assert client.get("/rankings/points/").url == "/rankings/slovenian/points/"
    page = client.get("/rankings/slovenian/points/?on=2026-03-31").content.decode()
    assert page.index(f'data-player="{c.pk}"') < page.index(f'data-player="{d.pk}"')
    assert 'href="/e/e3/"' in page and 'href="/e/private/"' not in page
    # c's third result (a second place, 6 points) is not counted, and the page says so.
    row_c = page[page.index(f'data-player="{c.pk}"'):]
    row_c = row_c[:row_c.index("</tr>")]
    assert row_c.count('href="/e/') == 2 and "and 1 more result, not counted" in row_c
    assert "unrated" not in page.split('id="points"')[1]
    assert 'href="/rankings/slovenian/points/csv/?on=2026-03-31"' in page
    rows = list(csv.reader(io.StringIO(
        client.get("/rankings/slovenian/points/csv/?on=2026-03-31").content.decode())))
    assert rows[0][:4] == ["Rank", "Player", "Points", "Events counted"]
    assert sorted((r[1], int(r[0]), int(r[2]), int(r[3])) for r in rows[1:]) == sorted([
        (str(a), 1, 16, 2), (str(b), 1, 16, 2), (str(c), 1, 16, 2), (str(d), 4, 12, 2),
        (str(e), 4, 12, 2)])
    assert client.get("/rankings/chess/points/").status_code == 404
    assert client.get("/api/v1/rankings/chess/points/").status_code == 404


def test_a_correction_shows_at_once_though_places_are_cached(world, settings):
    """The places of an event are cached by its results version, which a correction bumps."""
    settings.RANKING_POINTS = SCALE
    a, b, *_ = world
    before = {r["player"]["id"]: r["points"] for r in points("on=2026-03-31")["results"]}
    assert (before[a.pk], before[b.pk]) == (16, 16)
    event = Event.objects.get(slug="e1")
    card = Scorecard.objects.get(table__round__event=event)
    # The referee finds that seat 2 declared and won the hand, not seat 1.
    tournament_services.hand_save(
        scorecard=card, number=1, actor=referee_of(event), expected_version=card.version,
        record={"game": "trojka", "declarer": "2", "resting": "1", "points": 50},
        reason="seat 2 declared")
    after = {r["player"]["id"]: r["points"] for r in points("on=2026-03-31")["results"]}
    assert (after[a.pk], after[b.pk]) == (6 + 6, 10 + 10)
