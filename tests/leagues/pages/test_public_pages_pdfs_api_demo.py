"""The public pages, PDFs, API and demo of leagues and cups: the demo builds through the
services and a second run changes nothing; pages and printouts show what the selectors say;
the API reads for everybody and writes for the league's or cup's organisers and staff, and
refuses with contract-shaped errors."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.template.loader import render_to_string
from django.test import Client
from pypdf import PdfReader

from leagues import careers, cup_totals, demo, league_standings, selectors, services
from leagues.models import CupSeries, League, Season, SeasonMembership
from sample_data.factories import UserFactory
from tests.leagues.helpers import make_players, single_table_event, users
from tournaments.models import AuditEntry, Event, Hand, Player

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def _counts():
    return tuple(m.objects.count() for m in (League, Season, SeasonMembership, CupSeries, Event, Hand, AuditEntry))


def test_demo_league_and_cup_build_once_and_show_on_pages_and_pdfs():
    league = demo.league_demo()
    series = demo.cup_demo()
    before = _counts()
    assert demo.league_demo() == league and demo.cup_demo() == series
    assert _counts() == before
    assert [slug for slug, _build in demo.DEMOS] == ["demo-league", "demo-cup"]

    played = league.seasons.get(slug="2025-26")
    assert played.status == Season.Status.FINISHED and played.matchdays.count() == 3
    assert all(selectors.matchday_is_played(m) for m in played.matchdays.all())
    nxt = league.seasons.get(slug="2026-27")
    assert nxt.previous == played and nxt.schedule["divisions"]
    standings = league_standings.season_standings(played)
    first, second, _qual = standings.divisions
    # Two up and two down between leagues of eight; the qualification group's players applied
    # for the free places of the II. league and the previous season ordered them.
    new_first = {m.player_id: m for m in nxt.memberships.filter(division__level=1)}
    assert {r.player.pk for r in second.rows[:2]} == {pid for pid, m in new_first.items() if m.origin == "promoted"}
    new_second = list(nxt.memberships.filter(division__level=2).order_by("seed_position"))
    assert [m.player_id for m in new_second[:2]] == [r.player.pk for r in first.rows[-2:]]
    assert [m.origin for m in new_second[-2:]] == ["new", "new"]

    client = Client()
    page = client.get("/leagues/").content.decode()
    assert "Demo: Tarok liga" in page and "Demo: Steirischer Tarockcup" in page
    page = client.get("/leagues/demo-league/2025-26/").content.decode()
    leader = first.rows[0]
    assert "Final order" in page and str(leader.player) in page
    assert f'data-player="{leader.player.pk}"' in page and "/e/demo-league-2025-26-1/" in page
    after1 = client.get("/leagues/demo-league/2025-26/?after=1")
    assert "Standings after matchday 1" in after1.content.decode()
    assert client.get("/leagues/demo-league/").status_code == 200
    assert client.get("/leagues/demo-league/2026-27/").status_code == 200
    assert client.get("/leagues/demo-league/1999/").status_code == 404
    assert client.get("/leagues/nope/").status_code == 404

    pdf = client.get("/leagues/demo-league/2025-26/pdf/")
    assert pdf["Content-Type"] == "application/pdf"
    text = _pdf_text(pdf.content)
    assert "Demo: Tarok liga" in text and "Final order" in text and str(leader.player) in text

    ranking = cup_totals.cup_ranking(series)
    page = client.get("/cups/demo-cup/").content.decode()
    # The seed names only places 1-3 and 50: with eight players places 4-8 have no entry.
    assert ranking.missing_places == [4, 5, 6, 7, 8]
    assert 'id="table-incomplete"' in page and "4, 5, 6, 7, 8" in page
    top = ranking.rows[0]
    assert str(top.player) in page and f"<b>{top.total}</b>" in page
    text = _pdf_text(client.get("/cups/demo-cup/pdf/").content)
    assert "Demo: Steirischer Tarockcup" in text and "incomplete" in text and str(top.player) in text

    # A player's career: his league seasons and his cup, for the pages helper's player page.
    career = careers.player_career(leader.player)
    assert [(e.season.slug, e.rank, e.final) for e in career["leagues"]][-1] == ("2025-26", 1, True)
    html = render_to_string("leagues/_player_career.html", {"career": career})
    assert "Demo: Tarok liga" in html and "2025/26" in html
    cup_player = top.player
    cup_career = careers.player_career(cup_player)["cups"]
    assert [(e.series.slug, e.rank, e.total) for e in cup_career] == [("demo-cup", top.rank, top.total)]
    api = client.get(f"/api/v1/players/{cup_player.pk}/leagues-and-cups/").json()
    assert api["cups"][0]["total"] == top.total


def test_api_reads_for_everybody_writes_for_organisers_and_refuses_with_errors():
    organiser, referee = users()
    owner = UserFactory(username="owner")
    stranger = UserFactory(username="stranger")
    services.league_create(actor=organiser, organisers=[owner], name="Api", slug="api", division_size=8,
                           movement_count=2, division_count=1, hands_per_matchday=1)
    anonymous = Client()
    assert anonymous.get("/api/v1/leagues/api/").json()["division_size"] == 8
    create = {"name": "2026", "slug": "2026", "planned_matchdays": 2, "seed": 4}
    assert anonymous.post("/api/v1/leagues/api/seasons/", create, content_type="application/json").status_code == 401
    other = Client()
    other.force_login(stranger)
    refused = other.post("/api/v1/leagues/api/seasons/", create, content_type="application/json")
    assert refused.status_code == 403 and refused.json()["errors"][0]["code"] == "forbidden"
    client = Client()
    client.force_login(owner)
    made = client.post("/api/v1/leagues/api/seasons/", create, content_type="application/json")
    assert made.status_code == 201
    assert [d["name"] for d in made.json()["divisions"]] == ["I. league", "Qualification group"]
    base = "/api/v1/leagues/api/seasons/2026/"
    players = make_players(9, "api", created_by=owner)
    for p in players[:8]:
        assert client.post(base + "members/", {"division": 1, "player": p.pk},
                           content_type="application/json").status_code == 201
    full = client.post(base + "members/", {"division": 1, "player": players[8].pk}, content_type="application/json")
    assert full.status_code == 400
    assert full.json()["errors"] == [{"hand": None, "field": "division", "code": "division_full",
                                      "message": "I. league is full (8 players)"}]
    bad = client.post(base + "members/", {"division": 7, "player": players[8].pk}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "division"
    schedule = client.post(base + "schedule/", {}, content_type="application/json")
    assert schedule.status_code == 200 and len(schedule.json()["divisions"][0]["matchdays"]) == 2
    # the bound of the field and the schedule's distance from it, as the seating engine's codes
    division = schedule.json()["divisions"][0]
    assert division["bound"]["code"] == "no_repeat_bound"
    assert division["bound"]["params"] == {"players": 8, "upper": 1, "known": 1, "source": "pigeonhole"}
    assert division["distance"]["code"] == "schedule_distance"
    assert division["distance"]["params"]["matchdays"] == 2 and division["distance"]["params"]["clean"] == 1
    assert anonymous.get(base + "schedule/").json()["divisions"][0]["bound"] == division["bound"]
    page = anonymous.get("/leagues/api/2026/")
    assert "8 players: at most 1 matchday without any pair meeting twice" in page.content.decode()
    anonymous.cookies["django_language"] = "sl"
    page = anonymous.get("/leagues/api/2026/").content.decode()
    assert "8 igralcev: največ 1 kolo, ne da bi se kateri par srečal dvakrat" in page
    del anonymous.cookies["django_language"]
    tables = schedule.json()["divisions"][0]["matchdays"][0]["tables"]
    swap = client.post(base + "schedule/swap/", {"division": 1, "matchday": 1, "players": [tables[0][0], tables[1][0]],
                                                 "reason": "test"}, content_type="application/json")
    assert swap.status_code == 200 and "repeat_pairs" in swap.json()
    no_date = client.post(base + "matchdays/", {}, content_type="application/json")
    assert no_date.status_code == 400 and no_date.json()["errors"][0]["field"] == "date"
    md = client.post(base + "matchdays/", {"date": "2026-10-01", "venue": "Ljubljana"}, content_type="application/json")
    assert md.status_code == 201
    seated = client.post(base + "matchdays/1/seat/", {}, content_type="application/json")
    assert seated.status_code == 200 and seated.json()["tables"] == 2
    moved = client.patch(base + "matchdays/1/", {"date": "2026-10-08"}, content_type="application/json")
    assert moved.json()["date"] == "2026-10-08"
    assert Event.objects.get(slug=md.json()["event"]).starts_on == dt.date(2026, 10, 8)
    unfinished = client.post(base + "finish/", {}, content_type="application/json")
    assert unfinished.status_code == 400 and unfinished.json()["errors"][0]["code"] == "matchdays_missing"
    standings = anonymous.get(base + "standings/").json()
    # Nothing played yet: the division is listed in seed order, without ranks.
    first_row = standings["divisions"][0]["rows"][0]
    assert first_row["matchdays_played"] == 0 and first_row["rank"] is None and first_row["seed_position"] == 1
    # The next season's plan is shown at any time: while the season runs, as if it ended today.
    plan = anonymous.get(base + "next-plan/").json()
    assert plan["provisional"] is True and plan["after"] is None and plan["errors"] == []
    assert anonymous.get("/api/v1/leagues/api/seasons/nope/").status_code == 404

    # Whoever may create events creates leagues and cups (a league's organiser may: he creates
    # its matchdays), nobody else; an organiser runs his cup.
    staff = Client()
    staff.force_login(organiser)
    assert other.post("/api/v1/leagues/", {"name": "X", "slug": "x"}, content_type="application/json").status_code == 403
    assert client.post("/api/v1/leagues/", {"name": "X", "slug": "x", "movement_count": 20},
                       content_type="application/json").status_code == 400
    made = staff.post("/api/v1/leagues/", {"name": "X", "slug": "x", "movement_count": 20},
                      content_type="application/json")
    assert made.status_code == 400 and made.json()["errors"][0]["field"] == "movement_count"
    cup = staff.post("/api/v1/cups/", {"name": "Cup", "slug": "c", "seed_points": True}, content_type="application/json")
    assert cup.status_code == 201 and cup.json()["points_table"] == {"1": 223, "2": 198, "3": 180, "50": 1}
    a, b, c = make_players(3, "cup")
    single_table_event("c-1", [a, b, c], organiser, referee)
    added = staff.post("/api/v1/cups/c/events/", {"event": "c-1"}, content_type="application/json")
    assert added.status_code == 201
    assert client.put("/api/v1/cups/c/points/", {"points": {"1": 5}}, content_type="application/json").status_code == 403
    put = staff.put("/api/v1/cups/c/points/", {"points": {"1": 223, "2": 198, "3": 180, "4": 170}, "reason": "ok"},
                    content_type="application/json")
    assert put.status_code == 200 and put.json()["points_table"]["4"] == 170
    ranking = anonymous.get("/api/v1/cups/c/ranking/").json()
    assert [(r["player"]["id"], r["total"]) for r in ranking["rows"]] == [(a.pk, 223), (b.pk, 198), (c.pk, 180)]
    assert ranking["table_incomplete"] is False
    assert staff.delete("/api/v1/cups/c/events/c-1/").status_code == 204
    assert anonymous.get("/api/v1/cups/nope/").status_code == 404
    assert anonymous.get(f"/api/v1/players/{Player.objects.order_by('-pk').first().pk + 1}/leagues-and-cups/").status_code == 404
