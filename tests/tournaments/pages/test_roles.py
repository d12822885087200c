"""Every page against every role, as a matrix: anonymous visitors read public pages only and
are sent to log in elsewhere; players enter hands of their own table; referees and organisers
act on their own events only; staff everywhere. An organiser of one event cannot touch
another's, on reads and on writes."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.pages.support import M, World, client_for, world_fixture, world_of_the_module  # noqa: F401
from tournaments.models import Dispute, Job, Registration, Round

ROLES = ["anonymous", "stranger", "player", "other_player", "referee", "other_referee",
         "organiser", "other_organiser", "staff"]
EVERYONE = {role: 200 for role in ROLES}
LOGGED_IN = {**EVERYONE, "anonymous": 302}
CREATORS = {"anonymous": 302, "stranger": 403, "player": 403, "other_player": 403,
            "referee": 403, "other_referee": 403, "organiser": 200, "other_organiser": 200,
            "staff": 200}
ORGANISERS = {"anonymous": 302, "stranger": 403, "player": 403, "other_player": 403,
              "referee": 403, "other_referee": 403, "organiser": 200, "other_organiser": 403,
              "staff": 200}
REFEREES = {**ORGANISERS, "referee": 200}
TABLE1_ENTRY = {**REFEREES, "player": 200}

E = "/e/event-a"
R = "/referee/e/event-a"

PAGES = [
    ("/", EVERYONE),
    (f"{E}/", EVERYONE),
    (f"{E}/standings/", EVERYONE),
    (f"{E}/standings/live/", EVERYONE),
    (f"{E}/standings.csv", EVERYONE),
    (f"{E}/projector/", EVERYONE),
    (f"{E}/rounds/1/", EVERYONE),
    (f"{E}/rounds/1/?q=Event-A01", EVERYONE),
    (f"{E}/rounds/1/tables/1/", EVERYONE),
    ("/players/{player_id}/", EVERYONE),
    ("/accounts/login/", EVERYONE),
    ("/manage/", LOGGED_IN),
    ("/manage/events/new/", CREATORS),
    ("/manage/events/ruleset-fields/?ruleset_code=gp-vysociny-2004", LOGGED_IN),
    (f"{M}/", ORGANISERS),
    (f"{M}/edit/", ORGANISERS),
    (f"{M}/players/", ORGANISERS),
    (f"{M}/standings/", ORGANISERS),
    (f"{M}/rounds/1/", ORGANISERS),
    (f"{M}/jobs/{{job_id}}/", ORGANISERS),
    (f"{M}/jobs/{{job_id}}/status/", ORGANISERS),
    (f"{M}/rounds/1/tables/1/", TABLE1_ENTRY),
    (f"{M}/rounds/1/tables/2/", {**REFEREES, "other_player": 200}),
    (f"{M}/rounds/1/tables/2/hands/1/", {**REFEREES, "other_player": 200}),
    ("/referee/", LOGGED_IN),
    (f"{R}/", REFEREES),
    (f"{R}/disputes/", REFEREES),
    (f"{R}/disputes/{{dispute_id}}/", REFEREES),
    (f"{R}/history/", REFEREES),
    (f"{R}/rounds/1/tables/1/", REFEREES),
    (f"{R}/rounds/1/tables/1/history/", REFEREES),
    (f"{R}/rounds/1/tables/1/hands/1/correct/", REFEREES),
]


@pytest.mark.parametrize("role", ROLES)
def test_every_page_answers_each_role_as_the_matrix_says(world: World, role: str):
    from tournaments import services

    dispute = services.dispute_open(event=world.event, table=world.table1,
                                    description="was it a kontra?", actor=world.referee)
    # A job still running shows its progress page (a finished one sends on to the round).
    job = Job.objects.create(key="seat_round:test:2", kind="seat_round", event=world.event,
                             total=3, progress=1, result={"round": 2})
    card = world.table2.scorecard
    services.hand_save(scorecard=card, number=1, actor=world.other_player, expected_version=None,
                       record={"game": "trojka", "declarer": card.player_ids[1], "points": 40,
                               "resting": card.player_ids[0]})
    player_id = world.table1.seats.first().registration.player_id
    client = client_for(world.users()[role])
    failures = []
    for template, expected in PAGES:
        url = template.format(player_id=player_id, job_id=job.pk, dispute_id=dispute.pk)
        response = client.get(url)
        if response.status_code != expected[role]:
            failures.append(f"{url}: {response.status_code}, expected {expected[role]}")
        elif expected[role] == 302:
            assert response["Location"].startswith("/accounts/login/?next="), url
    assert not failures, "\n".join(failures)


POSTS = [
    # (url, data, who may, what must not have changed when refused)
    (f"{M}/rounds/1/close/", {}, ORGANISERS),
    (f"{M}/players/add/", {"first_name": "New", "last_name": "Player", "status": "registered"},
     ORGANISERS),
    (f"{M}/finish/", {}, ORGANISERS),
    (f"{R}/rounds/1/tables/2/annul/", {"reason": "card lost"}, REFEREES),
]


def _state(world: World) -> tuple:
    event = world.event
    event.refresh_from_db()
    return (event.status, event.registrations.count(),
            tuple(event.registrations.values_list("absent_rounds", flat=True)),
            tuple(Round.objects.filter(event=event).values_list("status", flat=True)),
            tuple(world.round.tables.values_list("scorecard__status", flat=True)),
            Dispute.objects.count())


@pytest.mark.parametrize("role", ["anonymous", "stranger", "player", "other_referee",
                                  "other_organiser"])
def test_writes_of_people_without_the_role_are_refused_and_change_nothing(world: World, role: str):
    client = client_for(world.users()[role])
    before = _state(world)
    reg = world.event.registrations.order_by("start_number").first()
    posts = POSTS + [(f"{M}/players/{reg.pk}/absent/", {"round": "2", "absent": "1"}, ORGANISERS)]
    for url, data, allowed in posts:
        response = client.post(url, data)
        assert response.status_code == allowed[role], url
    assert _state(world) == before


def test_a_player_of_another_table_cannot_enter_or_confirm_hands_here(world: World):
    client = client_for(world.other_player)
    card = world.table1.scorecard
    version = card.version
    response = client.post(f"{M}/rounds/1/tables/1/", {"number": 5, "game": "trojka"})
    assert response.status_code == 403
    assert client.post(f"{M}/rounds/1/tables/1/hands/1/confirm/").status_code == 403
    card.refresh_from_db()
    assert card.version == version and card.hands.count() == 4


def test_an_organiser_of_another_event_cannot_change_its_players(world: World):
    reg = world.event.registrations.first()
    client = client_for(world.other_organiser)
    response = client.post(f"{M}/players/{reg.pk}/status/", {"status": "withdrawn"})
    assert response.status_code == 403
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    # ...while on their own event the same action works.
    own = world.other_event.registrations.first()
    response = client.post(f"/manage/e/event-b/players/{own.pk}/status/", {"status": "withdrawn"})
    assert response.status_code == 302
    own.refresh_from_db()
    assert own.status == Registration.Status.WITHDRAWN


def test_a_private_event_is_hidden_from_the_public_but_not_from_its_officials(world: World):
    from tournaments import services

    services.event_update(event=world.event, actor=world.organiser, is_public=False)
    assert client_for(None).get(f"{E}/").status_code == 404
    assert client_for(world.stranger).get(f"{E}/standings/").status_code == 404
    assert client_for(world.referee).get(f"{E}/").status_code == 200
    assert b"event-a" not in client_for(None).get("/").content


def test_dashboards_list_only_the_users_own_events(world: World):
    mine = client_for(world.organiser).get("/manage/").content.decode()
    assert "/manage/e/event-a/" in mine and "/manage/e/event-b/" not in mine
    theirs = client_for(world.other_organiser).get("/manage/").content.decode()
    assert "/manage/e/event-b/" in theirs and "/manage/e/event-a/" not in theirs
    assert "Create an event" in mine
    assert "Create an event" not in client_for(world.referee).get("/manage/").content.decode()
    assert "/referee/e/event-a/" in client_for(world.referee).get("/referee/").content.decode()
    assert "/referee/e/event-a/" not in client_for(world.other_referee).get("/referee/").content.decode()
    both = client_for(world.staff).get("/manage/").content.decode()
    assert "/manage/e/event-a/" in both and "/manage/e/event-b/" in both


def test_a_private_event_does_not_exist_for_outsiders(world: World):
    event = world.event
    event.is_public = False
    event.save(update_fields=["is_public"])
    stranger = client_for(world.stranger)
    assert stranger.get(f"{M}/").status_code == 404
    assert stranger.get("/manage/e/no-such-event/").status_code == 404
    assert client_for(world.organiser).get(f"{M}/").status_code == 200
    # A player who plays only in a private event has no public page.
    only_private = world.table1.seats.first().registration.player
    assert Client().get(f"/players/{only_private.pk}/").status_code == 404
    assert client_for(world.organiser).get(f"/players/{only_private.pk}/").status_code == 200
