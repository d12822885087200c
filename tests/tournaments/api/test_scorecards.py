"""Scorecards through the API: a stale version is refused with 409 and changes nothing, the
engine's errors come back per hand, hands are deleted and rescored, confirmations need a
second person, referees record penalties, annul cards and decide disputes linked to the audit
entry of their correction, and money rulesets keep a money sheet."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from sample_data.factories import allow_event_creation
from tests.tournaments.api.test_roles import CARD, T1, E, build_world, trojka
from tournaments import services
from tournaments.models import AuditEntry, Dispute, Hand, Penalty, Scorecard

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_world()


def test_a_stale_version_gets_409_with_a_clear_message_and_nothing_changes(world):
    alice, bob = world.client("player_here"), world.client("organiser")
    read = alice.get(CARD).json()
    assert read["version"] == 2 and len(read["hands"]) == 1
    # Bob enters hand 2 first ...
    first = bob.put(CARD + "hands/2/", {"version": read["version"], "record": trojka("2", 50)},
                    format="json")
    assert first.status_code == 201
    assert first.json()["version"] == 3
    card_before = Scorecard.objects.get(pk=world.card().pk)
    hands_before = list(Hand.objects.filter(scorecard=card_before).values_list("number", "record"))
    audit_before = AuditEntry.objects.count()
    # ... so Alice's write of the version she read is stale.
    stale = alice.put(CARD + "hands/2/", {"version": read["version"], "record": trojka("3", 20)},
                      format="json")
    assert stale.status_code == 409
    error = stale.json()["errors"][0]
    assert (error["field"], error["code"]) == ("version", "stale_version")
    assert "version 2, now 3" in error["message"] and "reload" in error["message"]
    card_after = Scorecard.objects.get(pk=card_before.pk)
    assert card_after.version == 3 and card_after.totals == card_before.totals
    assert list(Hand.objects.filter(scorecard=card_after).values_list("number", "record")) == hands_before
    assert AuditEntry.objects.count() == audit_before
    # A stale delete and a stale submit are refused the same way.
    assert alice.delete(CARD + "hands/1/?version=2").status_code == 409
    assert alice.post(CARD + "submit/", {"version": 2}, format="json").status_code == 409
    assert Hand.objects.filter(scorecard=card_after).count() == 2
    assert Scorecard.objects.get(pk=card_before.pk).status == "open"


def test_a_hand_the_engine_refuses_comes_back_per_field_and_is_not_saved(world):
    client = world.client("player_here")
    response = client.put(CARD + "hands/2/", {"version": 2, "record": trojka("2", 71)}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert {(e["hand"], e["field"]) for e in errors} == {(1, "points")}
    assert Hand.objects.filter(scorecard=world.card()).count() == 1
    missing = client.put(CARD + "hands/2/", {"record": "trojka"}, format="json")
    assert {(e["field"], e["code"]) for e in missing.json()["errors"]} == {
        ("version", "required"), ("record", "not_an_object")}
    skipped = client.put(CARD + "hands/5/", {"version": 2, "record": trojka()}, format="json")
    assert skipped.json()["errors"][0]["code"] == "hand_number_out_of_range"


def test_deleting_a_hand_moves_the_later_ones_up_and_rescores(world):
    client = world.client("organiser")
    client.put(CARD + "hands/2/", {"version": 2, "record": trojka("2", 50)}, format="json")
    response = client.delete(CARD + "hands/1/?version=3")
    assert response.status_code == 200, response.content
    card = response.json()
    assert card["version"] == 4
    assert [h["record"]["declarer"] for h in card["hands"]] == ["2"]
    assert card["totals"]["1"] == 0 and card["totals"]["2"] > 0
    assert client.get(CARD + "hands/2/").status_code == 404
    assert AuditEntry.objects.filter(action="hand.delete").count() == 1


def test_hands_and_cards_are_confirmed_by_a_second_person(world):
    here, referee = world.client("player_here"), world.client("referee")
    entered = here.put(CARD + "hands/2/", {"version": 2, "record": trojka("2", 50)}, format="json")
    assert entered.status_code == 201
    same = here.post(CARD + "hands/2/confirm/")
    assert same.status_code == 400 and same.json()["errors"][0]["code"] == "same_person"
    other = referee.post(CARD + "hands/2/confirm/")
    assert other.status_code == 200 and other.json()["confirmed"] is True

    # The round's four hands (a shorter card is the referee's to confirm, with a reason).
    for number in (3, 4):
        version = here.get(CARD).json()["version"]
        assert here.put(CARD + f"hands/{number}/", {"version": version, "record": trojka("2", 50)},
                        format="json").status_code == 201
    version = here.get(CARD).json()["version"]
    assert here.post(CARD + "submit/", {"version": version}, format="json").status_code == 200
    same = here.post(CARD + "confirm/")
    assert same.status_code == 400 and same.json()["errors"][0]["field"] == "confirmed_by"
    confirmed = referee.post(CARD + "confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    card = world.card()
    assert card.submitted_by == world.users["player_here"]
    assert card.confirmed_by == world.users["referee"]


def test_a_referee_records_a_renons_on_a_hand_and_the_card_is_rescored(world):
    referee = world.client("referee")
    before = referee.get(CARD).json()["totals"]
    response = referee.post(T1 + "penalties/", {"start_number": 2, "kind": "renons", "hand": 1,
                                                "description": "did not follow suit"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["hand"] == 1 and response.json()["start_number"] == 2
    card = referee.get(CARD).json()
    assert card["hands"][0]["record"]["penalties"] == [{"kind": "renons", "player": "2"}]
    assert card["totals"] != before and card["totals"]["2"] < 0
    listed = world.client("anonymous").get(E + "penalties/").json()
    assert [p["kind"] for p in listed["results"]] == ["renons"]
    elsewhere = referee.post(T1 + "penalties/", {"start_number": 6, "kind": "renons"}, format="json")
    assert elsewhere.status_code == 400
    assert elsewhere.json()["errors"][0] == {
        "hand": None, "field": "start_number", "code": "not_at_table",
        "message": "start number 6 does not sit at table 1"}
    assert Penalty.objects.count() == 1


def test_a_dispute_is_decided_with_a_reason_and_the_audit_entry_of_its_correction(world):
    player, referee = world.client("player_here"), world.client("referee")
    opened = player.post(E + "disputes/", {"round": 1, "table": 1, "hand": 1,
                                          "description": "we took 45, not 40"}, format="json")
    assert opened.status_code == 201, opened.content
    dispute = opened.json()
    assert (dispute["round"], dispute["table"], dispute["hand"], dispute["status"]) == (1, 1, 1, "open")

    version = referee.get(CARD).json()["version"]
    corrected = referee.put(CARD + "hands/1/", {"version": version, "record": trojka("1", 45),
                                               "reason": f"dispute {dispute['id']}"}, format="json")
    assert corrected.status_code == 200
    history = referee.get(T1 + "audit/?action=hand.update").json()["results"]
    assert len(history) == 1 and history[0]["reason"] == f"dispute {dispute['id']}"
    correction = history[0]["id"]

    no_reason = referee.post(f"{E}disputes/{dispute['id']}/decide/", {"decision": " "}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["errors"][0]["field"] == "decision"
    foreign = services.event_create(actor=None, name="x", slug="x", starts_on=dt.date(2026, 1, 1),
                                    ends_on=dt.date(2026, 1, 1), ruleset_code="tarok-net-2007",
                                    ruleset_mode="tri+1")
    elsewhere = AuditEntry.objects.filter(event=foreign).first()
    wrong = referee.post(f"{E}disputes/{dispute['id']}/decide/",
                         {"decision": "corrected", "correction": elsewhere.pk}, format="json")
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["field"] == "correction"

    decided = referee.post(f"{E}disputes/{dispute['id']}/decide/",
                           {"decision": "the table agreed on 45", "correction": correction},
                           format="json")
    assert decided.status_code == 200, decided.content
    assert decided.json()["status"] == "decided" and decided.json()["correction"] == correction
    stored = Dispute.objects.get(pk=dispute["id"])
    assert stored.decided_by == world.users["referee"] and stored.correction_id == correction
    again = referee.post(f"{E}disputes/{dispute['id']}/decide/", {"decision": "again"}, format="json")
    assert again.status_code == 400 and again.json()["errors"][0]["code"] == "not_open"


def test_annulling_needs_a_reason_and_closes_the_card(world):
    referee = world.client("referee")
    empty = referee.post(CARD + "annul/", {"reason": ""}, format="json")
    assert empty.status_code == 400 and empty.json()["errors"][0]["field"] == "reason"
    annulled = referee.post(CARD + "annul/", {"reason": "the card was lost"}, format="json")
    assert annulled.status_code == 200
    assert annulled.json()["status"] == "annulled"
    assert annulled.json()["annulled_reason"] == "the card was lost"
    version = annulled.json()["version"]
    refused = referee.put(CARD + "hands/2/", {"version": version, "record": trojka()}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "annulled"
    player = world.client("player_here").put(CARD + "hands/2/", {"version": version,
                                                                 "record": trojka()}, format="json")
    assert player.status_code == 403


def test_a_money_ruleset_keeps_a_money_sheet():
    organiser = allow_event_creation(get_user_model().objects.create(username="boss"))
    player_user = get_user_model().objects.create(username="at-table")
    stranger = get_user_model().objects.create(username="stranger")
    event = services.event_create(
        actor=organiser, name="GP", slug="gp", starts_on=dt.date(2026, 10, 31),
        ends_on=dt.date(2026, 10, 31), ruleset_code="gp-vysociny-2004", ruleset_mode="four",
        seating_system="random", stake_haler=2000)
    for n in range(1, 5):
        player = services.player_create(first_name=f"P{n}", last_name="Czech",
                                        user=player_user if n == 1 else None)
        services.registration_create(event=event, player=player, actor=organiser)
    rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=0,
                               tables=[["1", "2", "3", "4"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    url = "/api/v1/events/gp/rounds/1/tables/1/scorecard/money-sheet/"
    client = APIClient()
    client.force_authenticate(player_user)
    sheet = client.get(url).json()
    assert sheet["version"] == 1 and sheet["stake_haler"] == 2000 and sheet["rows"] == []

    rows = {"1": {"money": 4500}, "2": {"bought": 1000, "money": 1500},
            "3": {"money": 2000}, "4": {"money": 1000}}
    saved = client.put(url, {"version": 1, "rows": rows}, format="json")
    assert saved.status_code == 200, saved.content
    assert saved.json()["totals"] == {"1": 2500, "2": -1500, "3": 0, "4": -1000}
    assert saved.json()["version"] == 2
    stale = client.put(url, {"version": 1, "rows": rows}, format="json")
    assert stale.status_code == 409
    bad_sum = client.put(url, {"version": 2, "rows": {**rows, "4": {"money": 900}}}, format="json")
    assert bad_sum.status_code == 400
    shape = client.put(url, {"version": 2, "rows": {"1": {"money": -5}}}, format="json")
    assert shape.json()["errors"][0]["field"] == "rows.1.money"

    outsider = APIClient()
    outsider.force_authenticate(stranger)
    assert outsider.put(url, {"version": 2, "rows": rows}, format="json").status_code == 403
    # Rulesets scored by hands keep no money sheet.
    world = build_world()
    none = world.client("organiser").get(CARD + "money-sheet/")
    assert none.status_code == 404 and none.json()["errors"][0]["code"] == "no_money_sheet"
    assert world.event.slug == "cup"


def test_a_penalty_kind_the_ruleset_does_not_have_is_refused():
    world = build_world()
    referee = world.client("referee")
    response = referee.post(T1 + "penalties/", {"start_number": 1, "kind": "cheating"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "kind"
    assert Penalty.objects.filter(kind="cheating").count() == 0
    assert referee.post(T1 + "penalties/", {"start_number": 1, "kind": "renons"},
                        format="json").status_code == 201


def test_the_api_still_reads_cards():
    world = build_world()
    assert APIClient().get(CARD).status_code == 200
    assert world.card(1).hands.count() == 1
