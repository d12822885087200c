"""The officials' table page under /manage/ (tournaments.pages.table): a player cannot
rewrite a card a referee verified, reopen a confirmed card or change its money sheet; a new
hand never takes the number of one already on the card; a draft round's table is the
officials' only."""

from __future__ import annotations

import datetime as dt

import pytest

from sample_data.factories import allow_event_creation
from tests.tournaments.pages.support import (  # noqa: F401
    M,
    World,
    client_for,
    close_round_1,
    draft_round_2,
    link_player,
    make_user,
    standings_of,
    world_fixture,
    world_of_the_module,
)
from tournaments import services
from tournaments.models import Scorecard
from tournaments.services import officials

pytestmark = pytest.mark.django_db


def _hand(card: Scorecard, number: int, points: int = 70) -> dict:
    ids = list(card.player_ids)
    return {"number": number, "version": card.version, "game": "trojka", "declarer": ids[1],
            "resting": ids[0], "points": points}


def test_a_player_cannot_rewrite_a_verified_card_through_the_table_page(world: World):
    close_round_1(world)
    card = Scorecard.objects.get(pk=world.table1.scorecard.pk)
    assert card.status == "verified"
    before = (card.version, list(card.hands.values_list("record", flat=True)), standings_of(world.event))
    player = client_for(world.player)
    for url, data in ((f"{M}/rounds/1/tables/1/", _hand(card, 1)),
                      (f"{M}/rounds/1/tables/1/hands/1/", _hand(card, 1)),
                      (f"{M}/rounds/1/tables/1/hands/1/delete/", {"version": card.version}),
                      (f"{M}/rounds/1/tables/1/submit/", {})):
        assert player.post(url, data).status_code == 403, url
    card.refresh_from_db()
    after = (card.version, list(card.hands.values_list("record", flat=True)), standings_of(world.event))
    assert after == before and card.status == "verified"


def test_a_player_does_not_reopen_a_confirmed_card(world: World):
    card = world.table1.scorecard
    card.refresh_from_db()
    assert card.status == "confirmed"
    before = card.hands.get(number=2).record
    response = client_for(world.player).post(f"{M}/rounds/1/tables/1/hands/2/", _hand(card, 2, 35))
    assert response.status_code == 403
    card.refresh_from_db()
    assert card.status == "confirmed" and card.hands.get(number=2).record == before


def test_a_new_hand_never_overwrites_one_on_the_card(world: World):
    card = world.table2.scorecard
    ids = list(card.player_ids)
    services.hand_save(scorecard=card, number=1, actor=world.other_player, expected_version=card.version,
                       record={"game": "trojka", "declarer": ids[1], "resting": ids[0], "points": 40})
    card.refresh_from_db()
    # The body names hand 1 (already on the card) on the page that adds the next hand.
    response = client_for(world.other_player).post(f"{M}/rounds/1/tables/2/", _hand(card, 1, 60))
    assert response.status_code == 409
    card.refresh_from_db()
    assert card.hands.count() == 1 and card.hands.get(number=1).record["points"] == 40


def test_a_money_sheet_of_a_confirmed_card_is_not_the_players_to_change(db):
    organiser = allow_event_creation(make_user("boss"))
    referee, player_user = make_user("ref"), make_user("at-table")
    event = services.event_create(
        actor=organiser, name="GP", slug="gp", starts_on=dt.date(2026, 10, 31),
        ends_on=dt.date(2026, 10, 31), ruleset_code="gp-vysociny-2004", ruleset_mode="four",
        seating_system="fixed", stake_haler=2000)
    officials.event_official_add(event=event, user=referee, role="referee", actor=organiser)
    for n in range(1, 5):
        player = services.player_create(first_name=f"P{n}", last_name="Czech",
                                        user=player_user if n == 1 else None)
        services.registration_create(event=event, player=player, actor=organiser)
    rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=0,
                               tables=[["1", "2", "3", "4"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    card = Scorecard.objects.get(table__round=rnd)
    rows = {"1": {"money": 4500}, "2": {"bought": 1000, "money": 1500}, "3": {"money": 2000},
            "4": {"money": 1000}}
    services.money_sheet_save(scorecard=card, rows=rows, actor=organiser, expected_version=1)
    services.scorecard_submit(scorecard=card, actor=organiser)
    services.scorecard_confirm(scorecard=card, actor=referee)
    card.refresh_from_db()
    response = client_for(player_user).post("/manage/e/gp/rounds/1/tables/1/money/", {
        "version": card.version, "bought-1": "0", "money-1": "80", "bought-2": "10",
        "money-2": "0", "bought-3": "0", "money-3": "0", "bought-4": "0", "money-4": "0"})
    assert response.status_code == 403
    card.refresh_from_db()
    assert card.status == "confirmed" and card.totals["1"] == 2500


def test_a_draft_round_is_nobodys_but_the_officials(world: World):
    rnd = draft_round_2(world)
    table = rnd.tables.get(number=1)
    link_player(world.stranger, table)
    player = client_for(world.stranger)
    assert player.get(f"{M}/rounds/2/tables/1/").status_code == 404
    card = table.scorecard
    assert player.post(f"{M}/rounds/2/tables/1/", _hand(card, 1)).status_code == 404
    assert player.post(f"{M}/rounds/2/tables/1/submit/").status_code == 404
    assert client_for(world.organiser).get(f"{M}/rounds/2/tables/1/").status_code == 200
    card.refresh_from_db()
    assert card.hands.count() == 0 and card.status == "open"

