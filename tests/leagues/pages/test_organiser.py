"""The league and cup organiser pages (/manage/leagues/, /manage/cups/) through Django's test
client: a league season run from creation to the next season with pages only (the tables
played through the services, as the table pages are tested elsewhere), refusals shown at
their field and nothing saved, and the cup pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from leagues.models import CupSeries, League, Season, SeasonMembership
from sample_data.factories import PlayerFactory, UserFactory, allow_event_creation
from tests.leagues.helpers import klop_record, play_card
from tournaments import services as ts
from tournaments.models import AuditEntry, Event, Scorecard

pytestmark = pytest.mark.django_db

M = "/manage/leagues/pages-league"
S = f"{M}/2025/"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _league(client: Client) -> League:
    response = client.post("/manage/leagues/new/", {
        "name": "Pages league", "slug": "pages-league", "ruleset_code": "tarok-net-2007",
        "ruleset_mode": "tri+1", "division_count": 2, "division_size": 8, "movement_count": 2,
        "hands_per_matchday": 1, "table_size": 4, "min_table_size": 3, "is_public": "on"})
    assert response.status_code == 302, response.content.decode()[:3000]
    return League.objects.get(slug="pages-league")


def test_a_league_season_runs_through_the_organiser_pages():
    organiser = allow_event_creation(UserFactory(username="pages-organiser"))
    referee = UserFactory(username="pages-referee")
    client = _client(organiser)
    league = _league(client)
    assert list(league.organisers.all()) == [organiser]
    assert client.get(f"{M}/").status_code == 200
    response = client.post(f"{M}/seasons/new/", {"name": "2025", "planned_matchdays": 2,
                                                  "division_count": 2, "division_size": 8})
    assert response.status_code == 302, response.content.decode()[:3000]
    season = Season.objects.get(league=league, slug="2025")
    first, second = season.divisions.order_by("level")
    players = [PlayerFactory(first_name=f"Igralec{n:02d}", last_name="Ligaški", created_by=organiser)
               for n in range(16)]
    # The registry search finds a player whatever the case and diacritics.
    page = client.get(f"{S}players/", {"q": "igralec03 ligaski"}).content.decode()
    assert "Igralec03" in page and "Igralec04" not in page
    for n, player in enumerate(players):
        division = first if n < 8 else second
        response = client.post(f"{S}players/add/", {"player": player.pk, "division": division.pk})
        assert response.status_code == 302
    assert first.memberships.count() == 8 and second.memberships.count() == 8
    # Seed positions are editable before the schedule: moving onto a taken place exchanges.
    mover = first.memberships.get(player=players[0])
    client.post(f"{S}players/{mover.pk}/move/", {"division": first.pk, "seed_position": 3})
    assert first.memberships.get(player=players[0]).seed_position == 3
    assert first.memberships.get(player=players[2]).seed_position == 1
    # A full division refuses a ninth player, with the reason, and nothing changes.
    extra = PlayerFactory(first_name="Deveti", last_name="Odveč", created_by=organiser)
    response = client.post(f"{S}players/add/", {"player": extra.pk, "division": first.pk}, follow=True)
    assert "is full" in response.content.decode()
    assert not SeasonMembership.objects.filter(player=extra).exists()

    response = client.post(f"{S}schedule/draw/", {"seed": "7"}, follow=True)
    page = response.content.decode()
    assert "Schedule drawn." in page and "repeat meeting" in page
    season.refresh_from_db()
    assert season.schedule["seed"] == 7 and set(season.schedule["divisions"]) == {"1", "2"}
    response = client.post(f"{S}schedule/draw/", {}, follow=True)
    season.refresh_from_db()
    assert season.schedule["version"] == 2

    for number in (1, 2):
        response = client.post(f"{S}matchdays/add/", {"date": f"2025-10-0{number}", "venue": "Celje"})
        assert response.status_code == 302
        response = client.post(f"{S}matchdays/{number}/seat/")
        matchday = season.matchdays.get(number=number)
        assert response["Location"] == f"/manage/e/{matchday.event.slug}/rounds/1/"
        # The matchday's round is an event round: its organiser page works for the league's organiser.
        assert client.get(response["Location"]).status_code == 200
        client.post(f"{S}matchdays/{number}/publish/")
        cards = Scorecard.objects.filter(table__round__event=matchday.event).order_by("table__number")
        assert cards.count() == 4
        for card in cards:
            ids = list(card.player_ids)
            # The higher the player's id, the fewer card points: the order is known in advance.
            order = sorted(ids, key=int)
            points = {pid: (10, 15, 20, 25)[order.index(pid)] for pid in ids}
            play_card(card, klop_record(ids, [points[p] for p in ids]), organiser, referee)
        response = client.post(f"{S}matchdays/{number}/close/", follow=True)
        assert "is closed" in response.content.decode()
    response = client.post(f"{S}finish/")
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED

    page = client.get(f"{S}next/").content.decode()
    assert "promoted" in page and "relegated" in page
    old = {m.player_id: m for m in season.memberships.select_related("division")}
    rank = {(m.division.level, m.final_rank): pid for pid, m in old.items()}
    leaving = rank[(1, 1)]  # the champion withdraws: his place goes to the best who stayed below
    response = client.post(f"{S}next/", {"name": "2026", "planned_matchdays": 2, "leaving": [leaving],
                                          "apply": "1"})
    assert response.status_code == 302, response.content.decode()[:4000]
    new = Season.objects.get(league=league, slug="2026")
    assert new.previous == season
    placed = {m.player_id: (m.division.level, m.seed_position, m.origin)
              for m in new.memberships.select_related("division")}
    expected = {rank[(1, r)]: (1, r, "stayed") for r in range(2, 7)}
    expected |= {rank[(1, r)]: (2, r - 6, "relegated") for r in (7, 8)}
    expected |= {rank[(2, r)]: (1, 6 + r, "promoted") for r in (1, 2)}
    # No qualification group: the lowest league's last stay (nowhere to go down to).
    expected |= {rank[(2, r)]: (2, r, "stayed") for r in (4, 5, 6, 7, 8)}
    moved_up = placed.pop(rank[(2, 3)])
    assert moved_up[0] == 1 and moved_up[1] == 1, moved_up
    assert placed == expected
    assert AuditEntry.objects.filter(action="league.relegate").count() == 2
    assert not AuditEntry.objects.filter(action="league.drop_out").exists()
    # The old season stays readable.
    assert client.get("/leagues/pages-league/2025/").status_code == 200


def test_league_form_refusals_name_the_field_and_save_nothing():
    organiser = allow_event_creation(UserFactory(username="form-organiser"))
    client = _client(organiser)
    response = client.post("/manage/leagues/new/", {
        "name": "Bad", "ruleset_code": "tarok-net-2007", "ruleset_mode": "tri+1", "division_count": 2,
        "division_size": 8, "movement_count": 5, "hands_per_matchday": 1, "table_size": 4, "min_table_size": 3})
    assert response.status_code == 400
    assert "do not fit in a division of 8 players" in response.content.decode()
    assert not League.objects.exists()
    league = _league(client)
    response = client.post(f"{M}/seasons/new/", {"name": "x", "planned_matchdays": 0, "division_count": 1,
                                                  "division_size": 8})
    assert response.status_code == 400 and not league.seasons.exists()


def test_cup_pages_build_a_series_and_refuse_another_organisers_event():
    organiser = allow_event_creation(UserFactory(username="cup-organiser"))
    other = allow_event_creation(UserFactory(username="cup-other"))
    client = _client(organiser)
    response = client.post("/manage/cups/new/", {"name": "Pages cup", "slug": "pages-cup",
                                                 "best_results_counted": 2, "final_counts_extra": "on",
                                                 "is_public": "on", "seed_points": "on"})
    assert response.status_code == 302
    series = CupSeries.objects.get(slug="pages-cup")
    page = client.get("/manage/cups/pages-cup/").content.decode()
    assert "from the Tarockcup rules" in page and "223" in page
    response = client.post("/manage/cups/pages-cup/points/", {"table": "1 10\n2 20"})
    assert response.status_code == 400 and "would get more points" in response.content.decode()
    response = client.post("/manage/cups/pages-cup/points/", {"table": "1 10\n2 8\n3 6"})
    assert response.status_code == 302
    mine = ts.event_create(actor=organiser, name="Mine", slug="mine", starts_on=dt.date(2026, 1, 1),
                           ends_on=dt.date(2026, 1, 1), ruleset_code="steirischer-tarockcup-2017")
    theirs = ts.event_create(actor=other, name="Theirs", slug="theirs", starts_on=dt.date(2026, 1, 1),
                             ends_on=dt.date(2026, 1, 1), ruleset_code="steirischer-tarockcup-2017")
    page = client.get("/manage/cups/pages-cup/").content.decode()
    assert "Mine" in page and "Theirs" not in page
    response = client.post("/manage/cups/pages-cup/events/add/", {"event": theirs.slug})
    assert response.status_code == 400 and not series.series_events.exists()
    response = client.post("/manage/cups/pages-cup/events/add/", {"event": mine.slug, "is_final": "on"})
    assert response.status_code == 302
    assert series.series_events.get().is_final
    assert Event.objects.get(slug="mine") in series.events.all()
