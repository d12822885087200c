"""What a league stores in words is in its own language (#33): its divisions' names and its
matchdays' event names are composed in `League.language`, whatever the language of the page
that created them, and the demo league is Slovenian; and a cup series ranks one game: its
page offers only tournaments of that game, and the service refuses another."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import translation

from leagues import demo, services
from leagues.models import CupSeries, League
from sample_data.factories import UserFactory, allow_event_creation
from tests.leagues.helpers import users
from tournaments import services as ts
from tournaments.errors import ServiceError

pytestmark = pytest.mark.django_db

NAMES = {
    "sl": (["I. liga", "II. liga", "Kvalifikacijska skupina"], "Liga 2025/26 – 3. kolo lige"),
    "cs": (["I. liga", "II. liga", "Kvalifikační skupina"], "Liga 2025/26 – 3. hrací den"),
    "de": (["I. Liga", "II. Liga", "Qualifikationsgruppe"], "Liga 2025/26 – 3. Spieltag"),
    "en": (["I. league", "II. league", "Qualification group"], "Liga 2025/26 – matchday 3"),
}


@pytest.mark.parametrize("language", sorted(NAMES))
def test_divisions_and_matchdays_are_named_in_the_league_language(language):
    organiser, _referee = users()
    # Created from a page in another language: the stored names are the league's.
    page_language = "de" if language != "de" else "sl"
    with translation.override(page_language):
        league = services.league_create(actor=organiser, name="Liga", slug="liga", division_count=2,
                                        division_size=8, movement_count=2, language=language)
        season = services.season_create(league=league, actor=organiser, name="2025/26", slug="2025-26",
                                         planned_matchdays=3, seed=1)
        matchday = services.matchday_create(season=season, actor=organiser, date=dt.date(2025, 10, 7),
                                            number=3)
    divisions, matchday_name = NAMES[language]
    assert [d.name for d in season.divisions.order_by("level")] == divisions
    assert matchday.event.name == matchday_name
    # The matchday's printed sheets are in the league's language too.
    assert matchday.event.language == language


def test_the_demo_league_is_slovenian_in_its_names_and_description():
    league = demo.league_demo()
    assert league.language == "sl"
    for season in league.seasons.all():
        assert [d.name for d in season.divisions.order_by("level")] == [
            "I. liga", "II. liga", "Kvalifikacijska skupina"]
    played = league.seasons.get(slug="2025-26")
    assert [m.event.name for m in played.matchdays.order_by("number")] == [
        f"Demo: Tarok liga 2025/26 – {n}. kolo lige" for n in (1, 2, 3)]
    assert "seed" not in league.description and "pravilih Tarok.net (§4.2)" in league.description
    assert league.description.startswith("Dve ligi po osem igralcev in kvalifikacijska skupina")


def test_the_league_form_sets_the_language_and_offers_it_in_the_page_language():
    organiser = allow_event_creation(UserFactory(username="lang-organiser"))
    client = Client()
    client.force_login(organiser)
    page = client.get("/manage/leagues/new/", HTTP_ACCEPT_LANGUAGE="sl").content.decode()
    # A new league starts in the page's language (the form's field, not the site's switcher).
    field = page[page.index('id="id_language"'):]
    field = field[:field.index("</select>")]
    assert '<option value="sl" selected>' in field and "Jezik lige" in page
    response = client.post("/manage/leagues/new/", {
        "name": "Češka liga", "slug": "ceska", "language": "cs", "ruleset_code": "tarok-net-2007",
        "ruleset_mode": "tri+1", "division_count": 2, "division_size": 8, "movement_count": 2,
        "hands_per_matchday": 1, "table_size": 4, "min_table_size": 3})
    assert response.status_code == 302, response.content.decode()[:3000]
    league = League.objects.get(slug="ceska")
    assert league.language == "cs"
    response = client.post("/manage/leagues/ceska/seasons/new/", {
        "name": "2026", "planned_matchdays": 2, "division_count": 2, "division_size": 8})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert [d.name for d in league.seasons.get().divisions.order_by("level")] == ["I. liga", "II. liga"]


def _event(organiser, slug: str, ruleset_code: str, mode: str = "", **fields):
    return ts.event_create(actor=organiser, name=slug.title(), slug=slug, starts_on=dt.date(2026, 1, 1),
                           ends_on=dt.date(2026, 1, 1), ruleset_code=ruleset_code, ruleset_mode=mode,
                           **fields)


def test_a_cup_offers_and_takes_only_tournaments_of_its_game():
    organiser = allow_event_creation(UserFactory(username="cup-game-organiser"))
    series = services.cup_create(actor=organiser, organisers=[organiser], name="Tarockcup", slug="tc")
    graz = _event(organiser, "graz", "steirischer-tarockcup-2017")
    leoben = _event(organiser, "leoben", "steirischer-tarockcup-2017")
    ljubljana = _event(organiser, "ljubljana", "tarok-net-2007", "tri+1")
    jihlava = _event(organiser, "jihlava", "gp-vysociny-2004", stake_haler=100)
    client = Client()
    client.force_login(organiser)
    # An empty cup takes any game; its first tournament decides which.
    page = client.get("/manage/cups/tc/").content.decode()
    assert all(f'value="{e.slug}"' in page for e in (graz, leoben, ljubljana, jihlava))
    services.cup_event_add(series=series, event=graz, actor=organiser)
    page = client.get("/manage/cups/tc/").content.decode()
    assert 'value="leoben"' in page
    assert 'value="ljubljana"' not in page and 'value="jihlava"' not in page
    # Posted anyway (a stale page, the API): refused by the service, in words, on the field.
    with pytest.raises(ServiceError) as refused:
        services.cup_event_add(series=series, event=ljubljana, actor=organiser)
    [error] = refused.value.errors
    assert (error["field"], error["code"]) == ("event", "other_game")
    assert error["message"] == (
        "Ljubljana is played under Tarok.net rules v1.06 (5 May 2007), another game than the "
        "tournaments of this cup series (Steirischer Tarockcup 2017/2018 (Königrufen)): a cup "
        "series ranks one game")
    response = client.post("/manage/cups/tc/events/add/", {"event": "jihlava"})
    assert response.status_code == 400
    services.cup_event_add(series=series, event=leoben, actor=organiser)
    assert [e.slug for e in CupSeries.objects.get(slug="tc").events.order_by("slug")] == ["graz", "leoben"]
