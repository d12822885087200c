"""The integrity findings of issue #12 (1–4), each reproduced as an attacker or a careless user
would: results a referee verified cannot be rewritten from the web table page, a confirmed card
is not silently reopened, the hand number of a new hand is not taken from the body, draft
rounds show and count nowhere, and a private event does not exist for outsiders in leagues,
cups, player pages and the organiser's pages. The general rules are in test_role_matrix.py;
these are the roads the findings took."""

from __future__ import annotations

import datetime as dt

from django.test import Client
from rest_framework.test import APIClient

from leagues import services as league_services
from sample_data.factories import allow_event_creation
from tests.tournaments.pages.support import (  # noqa: F401
    World,
    client_for,
    link_player,
    make_user,
    world_fixture,
    world_of_the_module,
)
from tournaments import services
from tournaments.domain.standings import event_standings
from tournaments.models import Penalty, Registration, Scorecard
from tournaments.services import officials, round_jobs

M = "/manage/e/event-a"


def _hand(card: Scorecard, number: int, points: int = 70) -> dict:
    ids = list(card.player_ids)
    return {"number": number, "version": card.version, "game": "trojka", "declarer": ids[1],
            "resting": ids[0], "points": points}


def _standings(event) -> list[tuple[int, int]]:
    return [(row.start_number, row.score) for row in event_standings(event).rows]


def _close_round_1(world: World) -> None:
    services.scorecard_annul(scorecard=world.table2.scorecard, actor=world.referee,
                             reason="not played")
    round_jobs.round_close(rnd=world.round, actor=world.organiser)


def test_a_player_cannot_rewrite_a_verified_card_through_the_table_page(world: World):
    _close_round_1(world)
    card = Scorecard.objects.get(pk=world.table1.scorecard.pk)
    assert card.status == "verified"
    before = (card.version, list(card.hands.values_list("record", flat=True)), _standings(world.event))
    player = client_for(world.player)
    for url, data in ((f"{M}/rounds/1/tables/1/", _hand(card, 1)),
                      (f"{M}/rounds/1/tables/1/hands/1/", _hand(card, 1)),
                      (f"{M}/rounds/1/tables/1/hands/1/delete/", {"version": card.version}),
                      (f"{M}/rounds/1/tables/1/submit/", {})):
        assert player.post(url, data).status_code == 403, url
    card.refresh_from_db()
    after = (card.version, list(card.hands.values_list("record", flat=True)), _standings(world.event))
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


def _draft_round_2(world: World):
    _close_round_1(world)
    return services.round_store(event=world.event, number=2, seating_system="fixed", seed=0,
                                tables=[["1", "2", "3", "4"], ["5", "6", "7", "8"]],
                                actor=world.organiser)


def test_a_draft_round_is_nobodys_but_the_officials(world: World):
    rnd = _draft_round_2(world)
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


def test_a_card_of_a_draft_counts_nowhere_and_prints_for_nobody(world: World):
    rnd = _draft_round_2(world)
    before = _standings(world.event)
    # Data from before this rule (or an archive): a confirmed card in a draft round.
    Scorecard.objects.filter(table__round=rnd, table__number=1).update(
        status="confirmed", totals={"1": 500, "2": -500, "3": 0, "4": 0})
    Scorecard.objects.filter(table__round=rnd, table__number=2).update(
        status="annulled", annulled_reason="x")
    assert _standings(world.event) == before
    for table in (1, 2):
        url = f"/e/event-a/rounds/2/tables/{table}/scorecard.pdf"
        assert Client().get(url).status_code == 404
        assert client_for(world.organiser).get(url).status_code == 200
    Penalty.objects.create(event=world.event, table=rnd.tables.get(number=1), kind="renons",
                           registration=Registration.objects.get(event=world.event, start_number=2))
    listed = APIClient().get("/api/v1/events/event-a/penalties/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert all(row.get("round") != 2 for row in rows), rows
    official = APIClient()
    official.force_authenticate(world.referee)
    officials_rows = official.get("/api/v1/events/event-a/penalties/").json()
    officials_rows = officials_rows["results"] if isinstance(officials_rows, dict) else officials_rows
    assert any(row.get("round") == 2 for row in officials_rows), officials_rows


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


def test_leagues_and_cups_do_not_reveal_or_take_private_or_foreign_events(world: World):
    world.event.is_public = False
    world.event.save(update_fields=["is_public"])
    staff = world.staff
    league = league_services.league_create(actor=staff, organisers=[staff], name="Liga", slug="liga",
                                           division_size=8, movement_count=2, division_count=1,
                                           hands_per_matchday=1, qualification_group=True)
    league_services.season_create(league=league, actor=staff, name="2025", slug="2025",
                                  planned_matchdays=1, seed=1)
    base = "/api/v1/leagues/liga/seasons/2025/next-plan/?qualification_event="
    private = APIClient().get(base + "event-a").json()
    missing = APIClient().get(base + "event-zz").json()
    assert private["errors"][0]["code"] == missing["errors"][0]["code"] == "unknown_event"
    assert "event-a" in private["errors"][0]["message"]

    cup_organiser = world.other_organiser
    series = league_services.cup_create(actor=staff, organisers=[cup_organiser], name="Pokal",
                                        slug="pokal", seed_points=True)
    client = APIClient()
    client.force_authenticate(cup_organiser)
    hidden = client.post("/api/v1/cups/pokal/events/", {"event": "event-a"}, format="json")
    assert hidden.status_code == 400 and hidden.json()["errors"][0]["code"] == "unknown_event"
    world.event.is_public = True
    world.event.save(update_fields=["is_public"])
    foreign = client.post("/api/v1/cups/pokal/events/", {"event": "event-a"}, format="json")
    assert foreign.status_code == 403
    own = client.post("/api/v1/cups/pokal/events/", {"event": "event-b"}, format="json")
    assert own.status_code == 201
    assert list(series.series_events.values_list("event__slug", flat=True)) == ["event-b"]
