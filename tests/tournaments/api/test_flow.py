"""A whole tournament round through the API alone: create the event, register and check in 8
players, queue the seating (a background job) and follow it, preview and publish the round,
start the clock, enter every hand of both tables, submit, have another person confirm, close
the round, and read the standings (JSON and CSV) that follow from the cards."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from tournaments import services
from tournaments.seating.rotation import rest_rotation

pytestmark = pytest.mark.django_db

HANDS = 4


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_a_round_from_creation_to_standings(django_capture_on_commit_callbacks):
    users = get_user_model().objects
    organiser = users.create(username="organiser")
    organiser.user_permissions.add(Permission.objects.get(codename="add_event",
                                                          content_type__app_label="tournaments"))
    boss = _client(organiser)
    anonymous = _client()

    # The registry refuses a mode the ruleset does not have; the event is then created.
    event = {"name": "Pokal Ljubljane", "slug": "pokal", "venue": "Ljubljana",
             "starts_on": "2026-11-21", "ends_on": "2026-11-21", "ruleset_code": "tarok-net-2007",
             "ruleset_mode": "five", "seating_system": "points", "planned_rounds": 2,
             "hands_per_round": HANDS, "round_duration_minutes": 90, "table_size": 4}
    refused = boss.post("/api/v1/events/", event, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "ruleset_mode"
    created = boss.post("/api/v1/events/", {**event, "ruleset_mode": "tri+1"}, format="json")
    assert created.status_code == 201, created.content
    base = "/api/v1/events/pokal/"

    # Eight players, each with an account so that a table-mate can confirm the card.
    player_users = {}
    for n in range(1, 9):
        user = users.create(username=f"player{n}")
        # Entered by the organiser: a record that plays nowhere yet is its creator's to use.
        player = services.player_create(first_name=f"Ime{n}", last_name=f"Priimek{n}",
                                        club="TK Ljubljana", user=user, actor=organiser)
        response = boss.post(base + "registrations/", {"player": player.pk}, format="json")
        assert response.status_code == 201
        player_users[str(response.json()["start_number"])] = user
        checked = boss.patch(f"{base}registrations/{n}/", {"status": "checked_in"}, format="json")
        assert checked.json()["status"] == "checked_in"

    # Seating runs as a job once the request's transaction commits.
    with django_capture_on_commit_callbacks(execute=True):
        queued = boss.post(base + "rounds/generate/")
    assert queued.status_code == 202, queued.content
    job = boss.get(f"/api/v1/jobs/{queued.json()['id']}/").json()
    assert job["status"] == "done" and job["progress"] == job["total"] == 3
    assert job["result"]["round"] == 1

    # The draft is the organiser's preview; the public does not see it yet.
    assert anonymous.get(base + "rounds/1/").status_code == 404
    draft = boss.get(base + "rounds/1/").json()
    assert draft["status"] == "draft" and len(draft["tables"]) == 2
    seated = sorted(s["start_number"] for t in draft["tables"] for s in t["seats"])
    assert seated == list(range(1, 9))
    assert boss.post(base + "rounds/1/publish/").json()["status"] == "published"
    clock = boss.post(base + "rounds/1/start-clock/").json()
    assert clock["status"] == "playing" and clock["clock_ends_at"] is not None
    public = anonymous.get(base + "rounds/1/").json()

    # Every hand of both tables, each write carrying the version the previous one answered.
    for table in public["tables"]:
        url = f"{base}rounds/1/tables/{table['number']}/scorecard/"
        seat_ids = [str(s["start_number"]) for s in table["seats"]]
        version = anonymous.get(url).json()["version"]
        for rotation in rest_rotation(seat_ids, HANDS):
            playing = rotation["playing"]
            declarer = playing[(rotation["hand"] - 1) % len(playing)]
            record = {"game": "trojka", "declarer": declarer, "resting": rotation["resting"],
                      "points": 30 + 5 * table["number"] + rotation["hand"]}
            written = boss.put(f"{url}hands/{rotation['hand']}/", {"version": version, "record": record},
                               format="json")
            assert written.status_code == 201, written.content
            version = written.json()["version"]
        assert boss.post(url + "submit/", {"version": version}, format="json").json()["status"] == "submitted"
        mate = _client(player_users[seat_ids[0]])
        confirmed = mate.post(url + "confirm/")
        assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"

    closed = boss.post(base + "rounds/1/close/")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"

    standings = anonymous.get(base + "standings/").json()
    assert standings["pending_tables"] == [] and standings["after_round"] == 1
    assert standings["uses_points"] is True
    rows = standings["rows"]
    assert len(rows) == 8
    # Table points 4/3/2/1 at both tables, ranked by points and then by score.
    assert sum(Decimal(r["points"]) for r in rows) == 20
    assert sorted(Decimal(r["points"]) for r in rows) == [1, 1, 2, 2, 3, 3, 4, 4]
    keys = [(-Decimal(r["points"]), -r["score"]) for r in rows]
    assert keys == sorted(keys)
    totals = {}
    for table in public["tables"]:
        totals.update(anonymous.get(
            f"{base}rounds/1/tables/{table['number']}/scorecard/").json()["totals"])
    assert {str(r["start_number"]): r["score"] for r in rows} == totals
    # The closed round carried the results into the registrations as well.
    registrations = {r["start_number"]: r for r in anonymous.get(base + "registrations/").json()["results"]}
    assert all(Decimal(registrations[r["start_number"]]["tournament_points"]) == Decimal(r["points"])
               for r in rows)

    exported = anonymous.get(base + "standings/csv/")
    assert exported.status_code == 200
    assert exported["Content-Type"].startswith("text/csv")
    assert 'filename="pokal-standings.csv"' in exported["Content-Disposition"]
    table = list(csv.DictReader(io.StringIO(exported.content.decode())))
    assert [int(r["start_number"]) for r in table] == [r["start_number"] for r in rows]
    assert [r["round_1_points"] for r in table] == [r["points"] for r in rows]

    # The next round may now be seated.
    with django_capture_on_commit_callbacks(execute=True):
        second = boss.post(base + "rounds/generate/")
    assert second.status_code == 202 and second.json()["result"]["round"] == 2
    job = boss.get(f"/api/v1/jobs/{second.json()['id']}/").json()
    assert job["status"] == "done"
    assert boss.get(base + "rounds/2/").json()["status"] == "draft"
