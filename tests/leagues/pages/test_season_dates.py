"""Editing a season's name, dates and number of matchdays, and a matchday's date and venue,
on the organiser's pages: saved through the services with an audit entry, the matchday's
event moving with it; refusals shown at their field with nothing saved."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from leagues import services
from leagues.models import Matchday, Season
from sample_data.factories import PlayerFactory, UserFactory, allow_event_creation
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

S = "/manage/leagues/dates-league/2025/"


@pytest.fixture
def season():
    organiser = allow_event_creation(UserFactory(username="dates-organiser"))
    league = services.league_create(actor=organiser, organisers=[organiser], name="Dates league",
                                    slug="dates-league", division_count=1, division_size=8,
                                    movement_count=2, qualification_group=False, hands_per_matchday=1)
    season = services.season_create(league=league, actor=organiser, name="2025", slug="2025",
                                    planned_matchdays=3, starts_on=dt.date(2025, 9, 1),
                                    ends_on=dt.date(2026, 5, 31))
    division = season.divisions.get()
    for n in range(8):
        services.membership_add(division=division, player=PlayerFactory(last_name=f"Dates{n}"), actor=organiser)
    services.schedule_generate(season=season, actor=organiser, seed=3)
    services.matchday_create(season=season, actor=organiser, date=dt.date(2025, 9, 14), venue="Ljubljana")
    return season


def _client(season) -> Client:
    client = Client()
    client.force_login(season.league.organisers.get())
    return client


def test_the_season_page_links_both_forms_and_the_season_is_saved_and_audited(season):
    client = _client(season)
    page = client.get(S).content.decode()
    assert f'href="{S}edit/"' in page and f'href="{S}matchdays/1/edit/"' in page
    form = client.get(f"{S}edit/").content.decode()
    assert 'value="2025-09-01"' in form and 'value="2026-05-31"' in form
    response = client.post(f"{S}edit/", {"name": "2025/26", "starts_on": "2025-09-07",
                                         "ends_on": "2026-06-14", "planned_matchdays": 3}, follow=True)
    assert "Season saved." in response.content.decode()
    season.refresh_from_db()
    assert (season.name, season.starts_on, season.ends_on, season.slug) == (
        "2025/26", dt.date(2025, 9, 7), dt.date(2026, 6, 14), "2025")
    entry = AuditEntry.objects.filter(action="league.season.update").get()
    assert entry.before == {"name": "2025", "starts_on": "2025-09-01", "ends_on": "2026-05-31"}
    assert entry.after["ends_on"] == "2026-06-14"


def test_season_refusals_name_the_field_and_save_nothing(season):
    client = _client(season)
    response = client.post(f"{S}edit/", {"name": "2025", "starts_on": "2026-01-01", "ends_on": "2025-12-01",
                                         "planned_matchdays": 3})
    assert response.status_code == 400 and "The last day is before the first." in response.content.decode()
    services.matchday_create(season=season, actor=None, date=dt.date(2025, 10, 12))
    response = client.post(f"{S}edit/", {"name": "2025", "starts_on": "2025-09-01", "ends_on": "2026-05-31",
                                         "planned_matchdays": 1})
    assert response.status_code == 400 and "2 matchdays already exist" in response.content.decode()
    response = client.post(f"{S}edit/", {"name": "", "planned_matchdays": "many"})
    assert response.status_code == 400
    season.refresh_from_db()
    assert (season.name, season.starts_on, season.planned_matchdays) == ("2025", dt.date(2025, 9, 1), 3)
    assert not AuditEntry.objects.filter(action="league.season.update").exists()


def test_a_matchdays_date_and_venue_move_its_event_and_are_audited(season):
    client = _client(season)
    form = client.get(f"{S}matchdays/1/edit/").content.decode()
    assert 'value="2025-09-14"' in form and 'value="Ljubljana"' in form
    response = client.post(f"{S}matchdays/1/edit/", {"date": "2025-09-21", "venue": "Maribor"}, follow=True)
    assert "Matchday 1 saved." in response.content.decode()
    matchday = Matchday.objects.select_related("event").get(season=season, number=1)
    assert matchday.date == dt.date(2025, 9, 21)
    assert (matchday.event.starts_on, matchday.event.ends_on, matchday.event.venue) == (
        dt.date(2025, 9, 21), dt.date(2025, 9, 21), "Maribor")
    entry = AuditEntry.objects.get(action="league.matchday.update")
    assert entry.before == {"date": "2025-09-14", "venue": "Ljubljana"}
    assert entry.after == {"date": "2025-09-21", "venue": "Maribor"}

    response = client.post(f"{S}matchdays/1/edit/", {"date": "not a date", "venue": "Celje"})
    assert response.status_code == 400 and 'id="id_date"' in response.content.decode()
    assert Matchday.objects.get(season=season, number=1).event.venue == "Maribor"
    assert client.get(f"{S}matchdays/9/edit/").status_code == 404
    assert Season.objects.get(pk=season.pk).matchdays.count() == 1
