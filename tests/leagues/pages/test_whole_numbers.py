"""Whole numbers typed into the league and cup pages (issue #29): a superscript, another
script's digits, full-width digits, a sign, an exponent or thirty digits where a page reads a
number answer like any other wrong value there (the whole season, a message, a form error, no
applicant chosen), never a server error; an ASCII number still works."""

from __future__ import annotations

import pytest
from django.test import Client

from leagues import services
from leagues.models import Season
from sample_data.factories import PlayerFactory, UserFactory
from tests.leagues.helpers import make_players

pytestmark = pytest.mark.django_db

BAD = ["²", "١٢", "１２", "-1", "1e3", "9" * 30]
S = "/manage/leagues/liga/2025/"


@pytest.fixture
def organiser():
    return UserFactory(username="numbers-organiser")


@pytest.fixture
def season(organiser) -> Season:
    """A public league of one division of eight, its season not drawn yet."""
    league = services.league_create(actor=organiser, organisers=[organiser], name="Liga",
                                    slug="liga", division_size=8, movement_count=2,
                                    division_count=1, hands_per_matchday=1, is_public=True)
    season = services.season_create(league=league, actor=organiser, name="2025",
                                    planned_matchdays=2, seed=1)
    division = season.divisions.get(level=1)
    for player in make_players(8, prefix="N"):
        services.membership_add(division=division, player=player, actor=organiser)
    return season


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("raw", BAD)
def test_the_season_page_shows_the_whole_season_for_an_after_that_is_no_number(raw, season):
    response = Client().get("/leagues/liga/2025/", {"after": raw})
    assert response.status_code == 200
    assert response.context["after"] is None
    assert Client().get("/leagues/liga/2025/", {"after": "1"}).context["after"] == 1


@pytest.mark.parametrize("raw", BAD)
def test_a_schedule_seed_that_is_no_number_is_refused_with_a_message(raw, season, organiser):
    client = _client(organiser)
    response = client.post(f"{S}schedule/draw/", {"seed": raw}, follow=True)
    assert response.status_code == 200
    assert "The seed is a whole number of 0 or more." in response.content.decode()
    season.refresh_from_db()
    assert not season.schedule
    response = client.post(f"{S}schedule/draw/", {"seed": "7"}, follow=True)
    assert "Schedule drawn." in response.content.decode()
    season.refresh_from_db()
    assert season.schedule["seed"] == 7


@pytest.mark.parametrize("raw", BAD)
def test_an_applicant_that_is_no_number_is_no_applicant(raw, season, organiser):
    Season.objects.filter(pk=season.pk).update(status=Season.Status.FINISHED)
    outsider = PlayerFactory(first_name="Zunanji", last_name="Kandidat", created_by=organiser)
    client = _client(organiser)
    response = client.post(f"{S}next/", {"applicants": raw})
    assert response.status_code in (200, 400)
    assert "Kandidat" not in response.content.decode()
    response = client.post(f"{S}next/", {"applicants": str(outsider.pk)})
    assert "Kandidat" in response.content.decode()


@pytest.fixture
def cup(organiser):
    return services.cup_create(actor=organiser, organisers=[organiser], name="Pokal",
                               slug="pokal", best_results_counted=2, is_public=True)


@pytest.mark.parametrize("raw", BAD)
@pytest.mark.parametrize("line", ["1 {raw}", "{raw} 10"])
def test_a_cup_points_line_with_a_place_or_points_that_are_no_number_is_a_form_error(
        raw, line, cup, organiser):
    client = _client(organiser)
    response = client.post("/manage/cups/pokal/points/", {"table": line.format(raw=raw)})
    assert response.status_code == 400
    assert "Line 1: write the place and its points" in response.content.decode()
    assert not cup.points_table.exists()
    assert client.post("/manage/cups/pokal/points/", {"table": "1 10\n2 8"}).status_code == 302
    assert dict(cup.points_table.values_list("place", "points")) == {1: 10, 2: 8}
