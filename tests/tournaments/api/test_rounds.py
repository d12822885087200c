"""Rounds through the API: queueing the seating twice finds the same job, a swap in the draft
moves the two players and their scorecards, and the round's life (draft, published, playing,
closed) refuses actions out of order with the service's reason."""

from __future__ import annotations

import pytest

from tests.tournaments.api.test_roles import E, build_world, draft_round_2, round_1_annulled
from tournaments.models import AuditEntry, Job, Round, Scorecard

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_world()


def test_queueing_the_next_round_twice_finds_the_same_job(world):
    client = world.client("organiser")
    early = client.post(E + "rounds/generate/")
    assert early.status_code == 400 and early.json()["errors"][0]["code"] == "previous_round_open"
    round_1_annulled(world)
    assert client.post(E + "rounds/1/close/").status_code == 200
    first = client.post(E + "rounds/generate/")
    second = world.client("staff").post(E + "rounds/generate/")
    assert first.status_code == second.status_code == 202
    assert first.json()["id"] == second.json()["id"]
    assert Job.objects.filter(event=world.event).count() == 1
    other = world.client("other_organiser").get(f"/api/v1/jobs/{first.json()['id']}/")
    assert other.status_code == 403


def test_a_swap_moves_two_players_between_tables_of_the_draft(world):
    draft_round_2(world)
    client = world.client("organiser")
    before = client.get(E + "rounds/2/").json()
    assert [[s["start_number"] for s in t["seats"]] for t in before["tables"]] == [[1, 5, 2, 6], [3, 7, 4, 8]]
    swapped = client.post(E + "rounds/2/swap/", {"first": "5", "second": "4"}, format="json")
    assert swapped.status_code == 200, swapped.content
    body = swapped.json()
    assert [[s["start_number"] for s in t["seats"]] for t in body["tables"]] == [[1, 4, 2, 6], [3, 7, 5, 8]]
    assert body["seating_version"] == before["seating_version"] + 1
    cards = Scorecard.objects.filter(table__round__number=2).order_by("table__number")
    assert [c.player_ids for c in cards] == [["1", "4", "2", "6"], ["3", "7", "5", "8"]]
    assert AuditEntry.objects.filter(action="round.swap").count() == 1
    unknown = client.post(E + "rounds/2/swap/", {"first": "1", "second": "99"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["code"] == "not_seated"


def test_a_round_refuses_actions_out_of_order(world):
    draft_round_2(world)
    client = world.client("organiser")
    early_clock = client.post(E + "rounds/2/start-clock/")
    assert early_clock.status_code == 400
    assert early_clock.json()["errors"][0]["code"] == "round_not_published"
    assert client.post(E + "rounds/2/close/").json()["errors"][0]["code"] == "round_not_published"
    assert client.post(E + "rounds/2/publish/").status_code == 200
    twice = client.post(E + "rounds/2/publish/")
    assert twice.status_code == 400 and twice.json()["errors"][0]["code"] == "round_not_draft"
    late_swap = client.post(E + "rounds/2/swap/", {"first": "1", "second": "3"}, format="json")
    assert late_swap.json()["errors"][0]["code"] == "round_not_draft"
    started = client.post(E + "rounds/2/start-clock/").json()
    assert started["status"] == "playing" and started["clock_started_at"]
    assert client.post(E + "rounds/2/start-clock/").json()["errors"][0]["code"] == "clock_running"
    pending = client.post(E + "rounds/2/close/")
    assert pending.status_code == 400
    assert pending.json()["errors"][0] == {
        "hand": None, "field": "tables", "code": "tables_pending",
        "message": "tables not yet confirmed: 1, 2"}
    assert Round.objects.get(event=world.event, number=2).status == "playing"
    # Players see the published round now, and the rounds list hides no round from them.
    listed = world.client("player_here").get(E + "rounds/").json()["results"]
    assert [(r["number"], r["status"]) for r in listed] == [(1, "closed"), (2, "playing")]
