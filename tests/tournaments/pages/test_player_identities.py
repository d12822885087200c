"""Issue #14, finding 8: a country typed as people type it ("Slovenija", "Slovenia", "SI")
is SI, never SL, in the add-player form and the CSV import; adding or importing a player who
is already in the registry (same name and club, whatever the case and diacritics) offers or
uses him instead of a second record; and officials merge two records of one person, with his
registrations, league memberships, cup results and account following, refused (naming why)
when both records play the same event or season."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from leagues import cup_totals
from leagues import services as league_services
from leagues.models import SeasonMembership
from sample_data.factories import PlayerFactory
from tests.leagues.helpers import make_players, single_table_event
from tests.tournaments.api.test_roles import build_world
from tests.tournaments.pages.support import client_for, make_event, make_user
from tournaments import services
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Player, Registration
from tournaments.services import player_registry

pytestmark = pytest.mark.django_db


@pytest.fixture(name="organiser")
def organiser_fixture():
    return make_user("organiser_i", can_create=True)


@pytest.fixture(name="event")
def event_fixture(organiser):
    return make_event(organiser, slug="identities", players=2)


def _add(client: Client, event, **fields):
    data = {"first_name": "Ana", "last_name": "Kranjc", "status": "registered", **fields}
    return client.post(f"/manage/e/{event.slug}/players/add/", data)


# ---------------------------------------------------------------------------------------
# Countries
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("typed", "code"), [
    ("Slovenija", "SI"), ("Slovenia", "SI"), ("SI", "SI"), ("si", "SI"), (" slovenija ", "SI"),
    ("Österreich", "AT"), ("osterreich", "AT"), ("Rakousko", "AT"), ("Česko", "CZ"),
    ("Czech Republic", "CZ"), ("Deutschland", "DE"), ("Hrvaška", "HR"), ("", ""),
])
def test_the_add_player_form_takes_a_country_by_its_name_in_any_language_or_its_code(
        organiser, event, typed, code):
    response = _add(client_for(organiser), event, country=typed)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Player.objects.get(last_name="Kranjc").country == code


@pytest.mark.parametrize("typed", ["Slovenjia", "Slo", "XX", "12"])
def test_a_country_nobody_knows_is_refused_at_the_field(organiser, event, typed):
    response = _add(client_for(organiser), event, country=typed)
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'id="id_country"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="id_country"', html), html
    assert "is not a country" in html
    assert not Player.objects.filter(last_name="Kranjc").exists()


def test_the_form_offers_the_countries_in_the_pages_language(organiser, event):
    client = client_for(organiser)
    client.cookies["django_language"] = "sl"
    html = client.get(f"/manage/e/{event.slug}/players/", HTTP_ACCEPT_LANGUAGE="sl").content.decode()
    field = re.search(r'<input[^>]*id="id_country"[^>]*>', html).group(0)
    listed = re.search(r'list="([^"]+)"', field).group(1)
    options = html.split(f'<datalist id="{listed}">', 1)[1].split("</datalist>", 1)[0]
    assert '<option value="SI">Slovenija</option>' in options
    assert '<option value="AT">Avstrija</option>' in options
    assert options.count("<option") > 240


def test_the_csv_import_takes_country_names_too(organiser, event):
    services.registrations_import_csv(event=event, actor=organiser, text=(
        "first_name,last_name,country\nAna,Kranjc,Slovenija\nBor,Kranjc,Slovenia\n"
        "Cene,Kranjc,Česko\nDan,Kranjc,si\n"))
    countries = dict(Player.objects.filter(last_name="Kranjc").values_list("first_name", "country"))
    assert countries == {"Ana": "SI", "Bor": "SI", "Cene": "CZ", "Dan": "SI"}


def test_the_player_page_names_the_country(organiser):
    player = services.player_create(first_name="Ana", last_name="Kranjc", country="SI", actor=organiser)
    html = client_for(organiser).get(f"/players/{player.pk}/").content.decode()
    assert "Slovenia" in html


# ---------------------------------------------------------------------------------------
# The same player again
# ---------------------------------------------------------------------------------------

def _known(organiser):
    return services.player_create(first_name="Jože", last_name="Zupančič", club="Tarok klub Celje",
                                  country="SI", federation_id="SLO-77", actor=organiser)


def test_adding_a_known_player_asks_whether_it_is_him(organiser, event):
    known = _known(organiser)
    client = client_for(organiser)
    response = _add(client, event, first_name="joze", last_name="ZUPANCIC", club="tarok klub celje")
    html = response.content.decode()
    assert response.status_code == 200
    assert "This looks like" in html and "Jože Zupančič" in html
    assert f'name="use_player" value="{known.pk}"' in html and 'name="use_player" value="new"' in html
    assert not event.registrations.filter(player__last_name__in=["Zupančič", "ZUPANCIC"]).exists()
    assert Player.objects.count() == 3
    # "Use him": the known player is registered, no second record.
    response = _add(client, event, first_name="joze", last_name="ZUPANCIC", club="tarok klub celje",
                    use_player=str(known.pk))
    assert response.status_code == 302
    assert event.registrations.get(player=known) and Player.objects.count() == 3


def test_adding_a_namesake_on_purpose_creates_a_new_player(organiser, event):
    known = _known(organiser)
    response = _add(client_for(organiser), event, first_name="Jože", last_name="Zupančič",
                    club="Tarok klub Celje", use_player="new")
    assert response.status_code == 302
    registered = event.registrations.get(player__last_name="Zupančič").player
    assert registered != known and Player.objects.filter(search_name="joze zupancic").count() == 2


def test_another_club_is_another_player(organiser, event):
    _known(organiser)
    response = _add(client_for(organiser), event, first_name="Jože", last_name="Zupančič",
                    club="TK Ljubljana")
    assert response.status_code == 302
    assert Player.objects.filter(search_name="joze zupancic").count() == 2


def test_the_csv_import_reuses_a_known_player_forgivingly_and_says_so(organiser, event):
    known = _known(organiser)
    text = "first_name,last_name,club\nJOZE,zupancic,TAROK KLUB CELJE\nNika,Nova,TK Test\n"
    response = client_for(organiser).post(f"/manage/e/{event.slug}/players/import/", {"text": text},
                                          follow=True)
    assert event.registrations.filter(player=known).exists()
    assert Player.objects.filter(search_name="joze zupancic").count() == 1
    message = " ".join(str(m) for m in response.context["messages"])
    assert "2 players imported" in message and "Jože Zupančič" in message
    assert "already in the registry" in message
    entry = AuditEntry.objects.filter(action="registration.import").latest("pk")
    assert entry.after["reused_players"] == [known.pk]


def test_the_api_import_lists_the_players_it_reused(organiser, event):
    known = _known(organiser)
    api = APIClient()
    api.force_authenticate(organiser)
    answer = api.post(f"/api/v1/events/{event.slug}/registrations/import/",
                      {"csv": "first_name,last_name,club\nJoze,Zupancic,Tarok klub Celje\n"},
                      format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["reused_players"] == [known.pk]


# ---------------------------------------------------------------------------------------
# Merging two records of one person
# ---------------------------------------------------------------------------------------

@pytest.fixture(name="split")
def split_fixture(organiser):
    """Janez Novak twice: `keep` played cup tournament 1, `drop` (linked to an account) played
    tournament 2 and is in the league's season, whose schedule names him by id."""
    referee = make_user("referee_i")
    keep = PlayerFactory(first_name="Janez", last_name="Novak", club="TK Ljubljana", federation_id="")
    drop = PlayerFactory(first_name="Janez", last_name="Novák", club="TK Ljubljana",
                         federation_id="SLO-1", user=make_user("janez"))
    others = make_players(6, "o")
    first = single_table_event("cup-a", [keep, *others[:3]], organiser, referee,
                               starts_on=dt.date(2026, 1, 1))
    second = single_table_event("cup-b", [drop, *others[3:]], organiser, referee,
                                starts_on=dt.date(2026, 1, 8))
    series = league_services.cup_create(actor=organiser, name="Cup", slug="cup", seed_points=True)
    league_services.cup_event_add(series=series, event=first, actor=organiser)
    league_services.cup_event_add(series=series, event=second, actor=organiser)
    league = league_services.league_create(actor=organiser, organisers=[organiser], name="Liga",
                                           slug="liga", division_size=8,
                                           movement_count=2, division_count=1, hands_per_matchday=1,
                                           qualification_group=False)
    season = league_services.season_create(league=league, actor=organiser, name="2026", slug="2026",
                                           planned_matchdays=2, seed=3)
    division = season.divisions.get(level=1)
    for player in [drop, *others[:3]]:
        league_services.membership_add(division=division, player=player, actor=organiser)
    league_services.schedule_generate(season=season, actor=organiser)
    return keep, drop, series, season


def _schedule_ids(season) -> set[str]:
    season.refresh_from_db()
    division = season.schedule["divisions"]["1"]
    return set(division["players"]) | {p for tables in division["rounds"] for t in tables for p in t}


def test_merging_moves_registrations_memberships_cup_results_and_the_account(organiser, split):
    keep, drop, series, season = split
    assert len(cup_totals.cup_ranking(series).rows) == 8
    assert str(drop.pk) in _schedule_ids(season)
    user = drop.user
    player_registry.player_merge(keep=keep, duplicate=drop, actor=organiser)
    assert not Player.objects.filter(pk=drop.pk).exists()
    keep.refresh_from_db()
    assert set(keep.registrations.values_list("event__slug", flat=True)) == {"cup-a", "cup-b"}
    assert SeasonMembership.objects.get(season=season, player=keep)
    assert str(drop.pk) not in _schedule_ids(season) and str(keep.pk) in _schedule_ids(season)
    assert keep.user == user and keep.federation_id == "SLO-1"
    ranking = cup_totals.cup_ranking(series)
    assert len(ranking.rows) == 7 and ranking.row_for(keep).tournaments_played == 2
    entry = AuditEntry.objects.get(action="player.merge")
    assert entry.object_id == str(keep.pk) and entry.before["duplicate"]["id"] == drop.pk
    # Each event whose registration moved has the change in its own trail.
    assert set(AuditEntry.objects.filter(action="registration.merge")
               .values_list("event__slug", flat=True)) == {"cup-b"}


def test_merging_is_refused_when_both_play_the_same_event(organiser, split):
    keep, drop, _series, _season = split
    event = Registration.objects.get(player=drop).event
    services.registration_create(event=event, player=keep, actor=organiser)
    with pytest.raises(ServiceError) as refused:
        player_registry.player_merge(keep=keep, duplicate=drop, actor=organiser)
    error = refused.value.errors[0]
    assert error["field"] == "duplicate" and error["code"] == "same_event"
    assert "cup-b" in error["message"]
    assert Player.objects.filter(pk=drop.pk).exists() and drop.registrations.count() == 1


def test_merging_is_refused_when_both_are_in_the_same_season(organiser, split):
    keep, drop, _series, season = split
    league_services.membership_add(division=season.divisions.get(level=1), player=keep,
                                   actor=organiser)
    with pytest.raises(ServiceError) as refused:
        player_registry.player_merge(keep=keep, duplicate=drop, actor=organiser)
    error = refused.value.errors[0]
    assert error["field"] == "duplicate" and error["code"] == "same_season"
    assert "Liga 2026" in error["message"]
    assert SeasonMembership.objects.filter(player=drop).exists()


def test_merging_needs_the_right_to_manage_players(split):
    keep, drop, _series, _season = split
    with pytest.raises(ServiceError) as refused:
        player_registry.player_merge(keep=keep, duplicate=drop, actor=make_user("nobody"))
    assert refused.value.status == 403
    with pytest.raises(ServiceError) as refused:
        player_registry.player_merge(keep=keep, duplicate=keep, actor=None)
    assert refused.value.errors[0]["code"] == "same_player"


def test_the_merge_page_is_reached_from_the_registry_and_the_player_page(organiser, split):
    keep, drop, _series, _season = split
    client = client_for(organiser)
    registry = client.get("/manage/players/", {"q": "novak"}).content.decode()
    merge_url = f"/manage/players/{keep.pk}/merge/"
    assert merge_url in registry
    assert merge_url in client.get(f"/players/{keep.pk}/").content.decode()
    assert merge_url not in client_for(None).get(f"/players/{keep.pk}/").content.decode()
    # The page finds the other record forgivingly and shows both before merging.
    page = client.get(merge_url, {"q": "novak"}).content.decode()
    assert f"?duplicate={drop.pk}" in page.replace("&amp;", "&")
    page = client.get(merge_url, {"duplicate": drop.pk}).content.decode()
    assert "SLO-1" in page and "cup-b" in page
    response = client.post(merge_url, {"duplicate": drop.pk})
    assert response.status_code == 302 and response["Location"] == f"/players/{keep.pk}/"
    assert not Player.objects.filter(pk=drop.pk).exists()
    assert client_for(make_user("stranger_i")).get(merge_url).status_code == 403


def test_the_merge_page_shows_a_refusal_at_its_field(organiser, split):
    keep, drop, _series, _season = split
    event = Registration.objects.get(player=drop).event
    services.registration_create(event=event, player=keep, actor=organiser)
    response = client_for(organiser).post(f"/manage/players/{keep.pk}/merge/", {"duplicate": drop.pk})
    assert response.status_code == 400
    assert "cup-b" in response.content.decode()
    assert Player.objects.filter(pk=drop.pk).exists()


def test_the_api_merges_and_refuses_in_its_error_shape(organiser, split):
    keep, drop, _series, _season = split
    api = APIClient()
    api.force_authenticate(make_user("stranger_j"))
    url = f"/api/v1/players/{keep.pk}/merge/"
    assert api.post(url, {"duplicate": drop.pk}, format="json").status_code == 403
    api.force_authenticate(organiser)
    refused = api.post(url, {"duplicate": keep.pk}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "duplicate"
    answer = api.post(url, {"duplicate": drop.pk}, format="json")
    assert answer.status_code == 200 and answer.json()["federation_id"] == "SLO-1"
    assert api.post(url, {"duplicate": drop.pk}, format="json").status_code == 400


@pytest.mark.parametrize(("lang", "words"), [
    ("sl", ["Register igralcev", "Združi drug zapis v", "Uporabniški račun"]),
    ("cs", ["Registr hráčů", "Sloučit jiný záznam do", "Účet"]),
    ("de", ["Spielerverzeichnis", "Einen anderen Eintrag in", "Konto"]),
])
def test_the_registry_and_merge_pages_speak_the_visitors_language(organiser, split, lang, words):
    keep, drop, _series, _season = split
    client = client_for(organiser)
    client.cookies["django_language"] = lang
    registry = client.get("/manage/players/", {"q": "novak"}).content.decode()
    merge = client.get(f"/manage/players/{keep.pk}/merge/", {"duplicate": drop.pk}).content.decode()
    assert words[0] in registry and words[1] in merge and words[2] in merge
    assert "Merge another record" not in merge


def test_the_merge_page_says_when_the_other_record_is_gone_or_missing(organiser, split):
    keep, _drop, _series, _season = split
    client = client_for(organiser)
    gone = client.get(f"/manage/players/{keep.pk}/merge/", {"duplicate": 999999})
    assert gone.status_code == 404 and "no longer in the registry" in gone.content.decode()
    missing = client.post(f"/manage/players/{keep.pk}/merge/", {})
    assert missing.status_code == 400 and "This field is required" in missing.content.decode()
    assert Player.objects.filter(pk=keep.pk).exists()


def test_using_a_player_already_registered_is_refused_above_the_form(organiser, event):
    registered = event.registrations.first().player
    response = _add(client_for(organiser), event, first_name=registered.first_name,
                    last_name=registered.last_name, club=registered.club, use_player=str(registered.pk))
    assert response.status_code == 400
    assert f"{registered} is already registered" in response.content.decode()
    assert event.registrations.filter(player=registered).count() == 1


@pytest.mark.parametrize("country", ["12", "XX", "S1", "slo"])
def test_a_country_is_a_real_iso_code(country):
    world = build_world()
    response = world.client("organiser").post("/api/v1/players/", {
        "first_name": "Ana", "last_name": "Novak", "country": country}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "country"
    with pytest.raises(ServiceError) as refused:
        services.registrations_import_csv(event=world.event, actor=None,
                                          text=f"first_name,last_name,country\nAna,Novak,{country}\n")
    assert refused.value.errors[0]["field"] == "rows[0].country"
    assert not Player.objects.filter(last_name="Novak").exists()


def test_the_player_form_offers_countries_and_refuses_others():
    world = build_world()
    client = Client()
    client.force_login(world.users["organiser"])
    page = client.get("/manage/e/cup/players/")
    assert 'value="SI"' in page.content.decode() and "Slovenia" in page.content.decode()
    refused = client.post("/manage/e/cup/players/add/", {"first_name": "Ana", "last_name": "Novak",
                                                         "country": "12", "status": "registered"})
    assert refused.status_code == 400
    assert not Player.objects.filter(last_name="Novak").exists()
    added = client.post("/manage/e/cup/players/add/", {"first_name": "Ana", "last_name": "Novak",
                                                       "country": "AT", "status": "registered"})
    assert added.status_code == 302
    assert Player.objects.get(last_name="Novak").country == "AT"


def test_a_csv_error_names_one_place_the_line_of_the_file():
    """Issue #33: "row 3: line 4: XX is not a country" gave two numbers for one place. The page
    says the line a person finds in his editor (the header is line 1), once."""
    organiser = make_user("csv-line", can_create=True)
    make_event(organiser, slug="csv-line", players=0)
    text = ("first_name,last_name,club,country\n"
            "Maja,Nova,TK A,SI\n"
            "\n"
            "Jure,Star,TK B,XX\n")
    page = client_for(organiser).post("/manage/e/csv-line/players/import/",
                                      {"text": text}).content.decode()
    assert "<strong>line 4</strong>: XX is not a country" in page
    assert "row 3" not in page and "line 4: XX" not in page
