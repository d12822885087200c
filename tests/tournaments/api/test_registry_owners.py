"""The player registry has owners (issue #29, findings 1 and 2): on a federation's server with
many organisers, an organiser sees the players of public events and of his own, corrects and
merges only records that play in no event but his own, and cannot reach another organiser's
players through an id; a player of private events exists for nobody else, on any edge; the
registry's managers (staff, or users given the right by a manager) correct and merge every
record; every change is audited with who and why."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from rest_framework.test import APIClient

from leagues import services as league_services
from sample_data.factories import allow_event_creation
from tests.tournaments.pages.support import make_user
from tournaments import services
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Event, Player
from tournaments.services import player_registry

pytestmark = pytest.mark.django_db


def _event(owner, slug: str, public: bool = True) -> Event:
    return services.event_create(
        actor=owner, name=slug.title(), slug=slug, starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
        seating_system="fixed", is_public=public)


@pytest.fixture
def server():
    """Two organisers of one federation's server: Slovenian (public) and Czech events."""
    slovenian_organiser = allow_event_creation(make_user("sl-organiser"))
    czech_organiser = allow_event_creation(make_user("cz-organiser"))
    slovenian = _event(slovenian_organiser, "demo-slovenian")
    hidden = _event(slovenian_organiser, "club-night", public=False)
    czech = _event(czech_organiser, "demo-czech")
    victim = services.player_create(first_name="Ana", last_name="Zupan", club="TK Celje")
    services.registration_create(event=slovenian, player=victim, actor=slovenian_organiser)
    secret = services.player_create(first_name="Tajni", last_name="Igralec", club="Klub")
    services.registration_create(event=hidden, player=secret, actor=slovenian_organiser)
    return {"sl": slovenian_organiser, "cz": czech_organiser, "slovenian": slovenian,
            "czech": czech, "victim": victim, "secret": secret}


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_finding_1_another_organiser_cannot_merge_a_player_of_my_event_into_his(server):
    czech = _api(server["cz"])
    mine = czech.post("/api/v1/players/", {"first_name": "Mallory", "last_name": "Merge"},
                      format="json").json()
    refused = czech.post(f"/api/v1/players/{mine['id']}/merge/",
                         {"duplicate": server["victim"].pk}, format="json")
    assert refused.status_code == 403
    error = refused.json()["errors"][0]
    assert (error["code"], error["field"]) == ("not_owner", "duplicate")
    assert "Ana Zupan" in error["message"]
    # Nothing moved: the Slovenian standings still name her.
    assert Player.objects.filter(pk=server["victim"].pk).exists()
    standings = Client().get("/e/demo-slovenian/standings/").content.decode()
    assert "Zupan" in standings and "Mallory" not in standings
    # Nor the other way round, nor by correcting her record.
    assert czech.post(f"/api/v1/players/{server['victim'].pk}/merge/", {"duplicate": mine["id"]},
                      format="json").status_code == 403
    assert czech.patch(f"/api/v1/players/{server['victim'].pk}/",
                       {"last_name": "Mallory", "reason": "mine now"},
                       format="json").status_code == 403
    assert Player.objects.get(pk=server["victim"].pk).last_name == "Zupan"


def test_finding_1_a_player_of_a_private_event_is_no_id_for_another_organiser(server):
    czech = _api(server["cz"])
    mine = czech.post("/api/v1/players/", {"first_name": "Mallory", "last_name": "Merge"},
                      format="json").json()
    secret = server["secret"].pk
    hidden = czech.post(f"/api/v1/players/{mine['id']}/merge/", {"duplicate": secret}, format="json")
    missing = czech.post(f"/api/v1/players/{mine['id']}/merge/", {"duplicate": 999999}, format="json")
    assert hidden.status_code == missing.status_code == 400
    assert (hidden.json()["errors"][0]["code"] == missing.json()["errors"][0]["code"]
            == "does_not_exist")
    # Registering him by his id answers as for an id that does not exist.
    hidden = czech.post("/api/v1/events/demo-czech/registrations/", {"player": secret}, format="json")
    missing = czech.post("/api/v1/events/demo-czech/registrations/", {"player": 999999}, format="json")
    assert hidden.status_code == missing.status_code == 400
    assert hidden.json()["errors"][0]["code"] == missing.json()["errors"][0]["code"]
    assert not server["czech"].registrations.exists()
    # The organiser's players page: the chosen id of a stranger's private player is refused.
    page = Client()
    page.force_login(server["cz"])
    response = page.post("/manage/e/demo-czech/players/add/", {
        "first_name": "Mallory", "last_name": "Guess", "status": "registered",
        "use_player": str(secret)})
    assert response.status_code == 400 and "no longer in the registry" in response.content.decode()
    assert not server["czech"].registrations.exists()


def test_finding_1_the_lists_show_an_organiser_public_players_and_his_own(server):
    czech = _api(server["cz"])
    listed = {p["id"] for p in czech.get("/api/v1/players/", {"limit": 1000}).json()["results"]}
    assert server["victim"].pk in listed and server["secret"].pk not in listed
    page = Client()
    page.force_login(server["cz"])
    html = page.get("/manage/players/").content.decode()
    assert "Zupan" in html and "Tajni" not in html
    assert "Tajni" not in page.get("/manage/players/", {"q": "tajni"}).content.decode()
    # His own organiser sees him.
    own = _api(server["sl"])
    assert server["secret"].pk in {
        p["id"] for p in own.get("/api/v1/players/", {"limit": 1000}).json()["results"]}


def test_finding_2_a_player_of_private_events_exists_on_no_edge_for_visitors(server):
    secret = server["secret"].pk
    czech, slovenian = Client(), Client()
    czech.force_login(server["cz"])
    slovenian.force_login(server["sl"])
    for url in (f"/players/{secret}/", f"/api/v1/players/{secret}/",
                f"/api/v1/players/{secret}/leagues-and-cups/"):
        assert Client().get(url).status_code == 404, url
        assert czech.get(url).status_code == 404, url
        assert slovenian.get(url).status_code == 200, url
    victim = server["victim"].pk
    body = Client().get(f"/api/v1/players/{victim}/leagues-and-cups/").json()
    assert "Zupan" in str(body["player"])
    # A player who hid his career is no more visible, and a hidden one of private events
    # does not even show his name.
    services.player_career_hide(player=server["secret"], hidden=True, actor=server["sl"])
    assert Client().get(f"/players/{secret}/").status_code == 404


def test_an_organiser_corrects_his_own_players_record_with_a_reason(server):
    client = Client()
    client.force_login(server["sl"])
    url = f"/manage/players/{server['victim'].pk}/edit/"
    form = client.get(url)
    assert form.status_code == 200 and 'value="Zupan"' in form.content.decode()
    without = client.post(url, {"first_name": "Ana", "last_name": "Županc", "club": "TK Celje",
                                "country": "", "federation_id": "", "reason": ""})
    assert without.status_code == 400
    assert Player.objects.get(pk=server["victim"].pk).last_name == "Zupan"
    Client().get("/e/demo-slovenian/standings/")  # cached with the old name
    done = client.post(url, {"first_name": "Ana", "last_name": "Županc", "club": "TK Celje",
                             "country": "Slovenija", "federation_id": "", "reason": "a typo"})
    assert done.status_code == 302
    player = Player.objects.get(pk=server["victim"].pk)
    assert (player.last_name, player.country) == ("Županc", "SI")
    entry = AuditEntry.objects.get(action="player.update")
    assert entry.event.slug == "demo-slovenian" and entry.reason == "a typo"
    assert entry.before == {"last_name": "Zupan", "country": ""}
    assert entry.actor == server["sl"]
    assert "Županc" in Client().get("/e/demo-slovenian/standings/").content.decode()
    history = client.get("/referee/e/demo-slovenian/history/").content.decode()
    assert "record corrected" in history and "a typo" in history
    # Another organiser may not; a stranger is refused the registry's pages.
    other = Client()
    other.force_login(server["cz"])
    assert other.get(url).status_code == 403
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(url).status_code == 403


def test_a_player_in_a_league_of_another_organiser_is_not_mine_to_correct(server):
    league_owner = allow_event_creation(make_user("league-owner"))
    league = league_services.league_create(
        actor=league_owner, organisers=[league_owner], name="Liga", slug="liga", division_size=8,
        movement_count=2, division_count=1, hands_per_matchday=1, qualification_group=False)
    season = league_services.season_create(league=league, actor=league_owner, name="2026",
                                           slug="2026", planned_matchdays=2, seed=1)
    # Entered by the Slovenian organiser, in no event yet: his, until he plays elsewhere.
    mine = services.player_create(first_name="Bor", last_name="Liga", actor=server["sl"])
    assert Player.objects.get(pk=mine.pk).created_by == server["sl"]
    league_services.membership_add(division=season.divisions.get(), player=mine, actor=league_owner)
    with pytest.raises(ServiceError) as refused:
        player_registry.player_update(player=mine, actor=server["sl"], reason="x", club="Y")
    assert refused.value.status == 403
    player_registry.player_update(player=mine, actor=league_owner, reason="his club", club="Y")


def test_a_manager_names_another_manager_who_then_corrects_any_record(server):
    staff = make_user("federation", staff=True)
    keeper = make_user("keeper")
    client = Client()
    client.force_login(staff)
    page = client.get("/manage/players/managers/")
    assert page.status_code == 200 and "federation" in page.content.decode()
    assert client.post("/manage/players/managers/", {"username": "nobody-here", "grant": "1"}
                       ).status_code == 400
    assert client.post("/manage/players/managers/", {"username": "KEEPER", "grant": "1",
                                                     "reason": "keeps the registry"}
                       ).status_code == 302
    entry = AuditEntry.objects.get(action="registry.manager")
    assert (entry.actor, entry.object_id, entry.after, entry.reason) == (
        staff, str(keeper.pk), {"registry_manager": True}, "keeps the registry")
    # The keeper corrects and merges records of both organisers' events, private ones too.
    api = _api(keeper)
    assert api.patch(f"/api/v1/players/{server['secret'].pk}/", {"club": "Klub Celje",
                                                                 "reason": "new club"},
                     format="json").status_code == 200
    assert api.post(f"/api/v1/players/{server['victim'].pk}/merge/",
                    {"duplicate": server["secret"].pk, "reason": "one person"},
                    format="json").status_code == 200
    assert not Player.objects.filter(pk=server["secret"].pk).exists()
    assert AuditEntry.objects.get(action="player.merge").reason == "one person"
    # He names others, but may not take the right from himself; an organiser may do neither.
    keeper_client = Client()
    keeper_client.force_login(keeper)
    assert keeper_client.get("/manage/players/managers/").status_code == 200
    assert keeper_client.post("/manage/players/managers/", {"username": "keeper", "grant": "0"}
                              ).status_code == 400
    organiser = Client()
    organiser.force_login(server["sl"])
    assert organiser.get("/manage/players/managers/").status_code == 403
    assert organiser.post("/manage/players/managers/", {"username": "sl-organiser", "grant": "1"}
                          ).status_code == 403
    assert not server["sl"].user_permissions.filter(codename="manage_registry").exists()
    # Taken back by staff: the keeper is an outsider again.
    assert client.post("/manage/players/managers/", {"username": "keeper", "grant": "0"}
                       ).status_code == 302
    keeper = type(keeper).objects.get(pk=keeper.pk)
    assert not keeper.has_perm("tournaments.manage_registry")
    assert _api(keeper).get("/api/v1/players/").status_code == 403


def test_the_permission_can_come_from_a_group(server):
    from django.contrib.auth.models import Group

    group = Group.objects.create(name="Registry")
    group.permissions.add(Permission.objects.get(codename="manage_registry"))
    member = make_user("member")
    member.groups.add(group)
    assert _api(member).get(f"/api/v1/players/{server['secret'].pk}/").status_code == 200


# ---------------------------------------------------------------------------------------
# From the attacker's review of the first submission
# ---------------------------------------------------------------------------------------

def _with_federation_id(player: Player, fid: str) -> Player:
    player.federation_id = fid
    player.save()
    return player


def test_an_import_does_not_name_a_private_player_by_his_federation_id(server):
    _with_federation_id(server["secret"], "FED-SECRET-1")
    czech = _api(server["cz"])
    refused = czech.post("/api/v1/events/demo-czech/registrations/import/",
                         {"csv": "first_name,last_name,federation_id\nX,Y,FED-SECRET-1\n"},
                         format="json")
    assert refused.status_code == 400
    text = str(refused.json())
    assert "FED-SECRET-1 belongs to another player" in text
    assert "Tajni" not in text and "Igralec" not in text
    page = Client()
    page.force_login(server["cz"])
    form = page.post("/manage/e/demo-czech/players/add/", {
        "first_name": "X", "last_name": "Y", "federation_id": "FED-SECRET-1", "status": "registered"})
    assert form.status_code == 400
    assert "belongs to another player" in form.content.decode()
    assert "Igralec" not in form.content.decode()
    # His own organiser is told whose it is.
    own = _api(server["sl"]).post("/api/v1/events/demo-slovenian/registrations/import/",
                                  {"csv": "first_name,last_name,federation_id\nX,Y,FED-SECRET-1\n"},
                                  format="json")
    assert "Tajni Igralec" in str(own.json())


def test_a_namesake_of_private_events_is_offered_by_name_and_club_only(server):
    _with_federation_id(server["secret"], "FED-SECRET-1")
    page = Client()
    page.force_login(server["cz"])
    html = page.post("/manage/e/demo-czech/players/add/", {
        "first_name": "tajni", "last_name": "IGRALEC", "club": "klub",
        "status": "registered"}).content.decode()
    assert "This looks like" in html
    assert "FED-SECRET-1" not in html and f"/players/{server['secret'].pk}/" not in html


def test_a_refused_merge_shows_nothing_of_the_other_record(server):
    mine = services.player_create(first_name="Ana", last_name="Zupan", actor=server["cz"])
    shared = server["victim"]  # public, but another organiser's
    page = Client()
    page.force_login(server["cz"])
    response = page.get(f"/manage/players/{mine.pk}/merge/", {"duplicate": shared.pk})
    assert response.status_code == 403
    assert "Demo-Slovenian" not in response.content.decode()


def test_the_registry_counts_only_the_events_its_reader_may_see(server):
    services.registration_create(event=Event.objects.get(slug="club-night"), player=server["victim"],
                                 actor=server["sl"])
    czech, own = Client(), Client()
    czech.force_login(server["cz"])
    own.force_login(server["sl"])

    def events_of(client: Client) -> str:
        html = client.get("/manage/players/", {"q": "zupan"}).content.decode()
        row = html.split(f'href="/players/{server["victim"].pk}/"', 1)[1].split("</tr>", 1)[0]
        return row.split('<td class="num">', 1)[1].split("<", 1)[0]

    assert events_of(czech) == "1" and events_of(own) == "2"


def test_a_taken_federation_id_is_refused_at_its_field_without_naming_its_owner(server):
    _with_federation_id(server["secret"], "FED-SECRET-1")
    czech = _api(server["cz"])
    created = czech.post("/api/v1/players/", {"first_name": "A", "last_name": "B",
                                              "federation_id": "FED-SECRET-1"}, format="json")
    assert created.status_code == 400
    error = created.json()["errors"][0]
    assert (error["field"], error["code"]) == ("federation_id", "player_federation_id_unique")
    assert "Constraint" not in error["message"] and "Tajni" not in error["message"]
    mine = created = czech.post("/api/v1/players/", {"first_name": "A", "last_name": "B"},
                                format="json").json()
    patched = czech.patch(f"/api/v1/players/{mine['id']}/",
                          {"federation_id": "FED-SECRET-1", "reason": "x"}, format="json")
    assert patched.status_code == 400
    assert patched.json()["errors"][0]["field"] == "federation_id"
