"""Whole numbers typed into the addresses and forms of the event pages (issue #29): a
superscript, another script's digits, full-width digits, a sign, an exponent or thirty digits
where a page reads a number answer like any other wrong value there (the first page, a
message, no choice made, a refusal naming the parameter), never a server error; an ASCII
number still works. The players' table link has its own tests (test_table_links.py)."""

from __future__ import annotations

import re

import pytest

from tests.tournaments.pages.support import World, client_for, world_fixture, world_of_the_module  # noqa: F401
from tournaments import services
from tournaments.models import Registration

BAD = ["²", "١٢", "１２", "-1", "1e3", "9" * 30]
M = "/manage/e/event-a"
R = "/referee/e/event-a"


@pytest.mark.parametrize("raw", BAD)
def test_the_live_check_of_a_hand_takes_the_next_hand_for_a_number_that_is_no_number(
        raw, world: World):
    response = client_for(world.organiser).post(f"{M}/rounds/1/tables/2/validate/", {
        "number": raw, "game": "trojka"})
    assert response.status_code == 200
    assert client_for(world.organiser).post(f"{M}/rounds/1/tables/2/validate/", {
        "number": "1", "game": "trojka"}).status_code == 200


@pytest.mark.parametrize("raw", BAD)
def test_the_referee_page_fills_in_no_adjustment_for_a_penalty_that_is_no_number(
        raw, world: World):
    registration = world.event.registrations.get(start_number=1)
    penalty = services.penalty_record(table=world.table1, registration=registration,
                                      kind="renons", actor=world.referee, description="note")
    client = client_for(world.referee)
    response = client.get(f"{R}/", {"penalty": raw})
    assert response.status_code == 200
    assert not response.context["adjust_form"].initial
    chosen = client.get(f"{R}/", {"penalty": str(penalty.pk)})
    assert chosen.context["adjust_form"].initial["registration"] == registration.pk


@pytest.mark.parametrize("raw", BAD)
def test_the_referee_table_page_chooses_no_hand_for_a_hand_that_is_no_number(raw, world: World):
    client = client_for(world.referee)
    response = client.get(f"{R}/rounds/1/tables/1/", {"hand": raw})
    assert response.status_code == 200
    assert not response.context["dispute_form"].initial
    chosen = client.get(f"{R}/rounds/1/tables/1/", {"hand": "2"}).content.decode()
    assert re.search(r'name="hand_number"[^>]*>.*?<option value="2" selected>', chosen, re.S)


@pytest.mark.parametrize("raw", BAD)
def test_check_in_for_a_registration_that_is_no_number_chooses_nobody(raw, world: World):
    client = client_for(world.organiser)
    response = client.post(f"{M}/players/bulk/", {"action": "withdraw", "registration": raw},
                           follow=True)
    assert response.status_code == 200
    assert "Choose at least one player." in response.content.decode()
    assert not world.event.registrations.filter(status=Registration.Status.WITHDRAWN).exists()
    registration = world.event.registrations.get(start_number=8)
    client.post(f"{M}/players/bulk/", {"action": "withdraw", "registration": str(registration.pk)})
    registration.refresh_from_db()
    assert registration.status == Registration.Status.WITHDRAWN


@pytest.mark.parametrize("raw", BAD)
def test_the_standings_printout_refuses_a_round_that_is_no_number(raw, world: World):
    client = client_for(world.organiser)
    response = client.get("/e/event-a/standings.pdf/status/", {"round": raw})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "round"
    assert client.get("/e/event-a/standings.pdf/status/", {"round": "1"}).status_code == 200
