"""Shared set-up of the page tests (tests/tournaments/pages/ and others): an event run through the
services with every role of the product, and helpers to enter hands as a table would.

Imported by the page test modules; it holds fixtures and builders, no tests.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client, TestCase

from sample_data.factories import allow_event_creation
from tests.conftest import built_once
from tournaments import services
from tournaments.domain.standings import event_standings
from tournaments.models import Event, Registration, Round, Scorecard, Table
from tournaments.services import round_jobs

PASSWORD = "secret-pass-123"


def make_user(username: str, *, staff: bool = False, can_create: bool = False,
              password: str | None = None) -> Any:
    """A user; without a password unless asked (hashing one is slow, and the page tests log
    in with `force_login`)."""
    user = get_user_model().objects.create_user(username=username, password=password,
                                                is_staff=staff)
    if can_create:
        user.user_permissions.add(Permission.objects.get(codename="add_event"))
    return user


def client_for(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def make_event(organiser: Any, *, slug: str, players: int = 8, referee: Any = None,
               **fields: Any) -> Event:
    values = dict(
        name=f"Event {slug}", slug=slug, venue="Ljubljana", starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
        seating_system="points", planned_rounds=2, hands_per_round=4, round_duration_minutes=55,
        status=Event.Status.RUNNING,
    )
    values.update(fields)
    event = services.event_create(actor=allow_event_creation(organiser), **values)
    if referee is not None:
        event.referees.add(referee)
    for i in range(1, players + 1):
        services.registration_add(event=event, actor=organiser, first_name=f"Ana{i}",
                                  last_name=f"{slug.title()}{i:02d}", club="TK Test",
                                  status=Registration.Status.CHECKED_IN)
    return event


def registered_event(players: int, slug: str = "desk", **fields: Any) -> tuple[Event, Any]:
    """An event of `players` players, all registered and none checked in, with its organiser."""
    organiser = make_user(f"org-{slug}", can_create=True)
    event = make_event(organiser, slug=slug, players=players, **fields)
    event.registrations.update(status=Registration.Status.REGISTERED)
    return event, organiser


def seat_round(event: Event, actor: Any, capture) -> Round:
    with capture(execute=True):
        job = round_jobs.round_generation_queue(event=event, actor=actor)
    job.refresh_from_db()
    assert job.status == job.Status.DONE, job.message
    return event.rounds.get(number=job.result["round"])


def tri1_hands(card: Scorecard, count: int) -> list[dict[str, Any]]:
    """Plausible TRI+1 hands for a table of four: the resting player follows the rotation;
    hand 2 is a klop and hand 3 has a kontra, as the sheets of a real day have."""
    from tournaments.seating.rotation import rest_rotation

    players = list(card.player_ids)
    rotation = rest_rotation(players, count)
    out = []
    for number in range(1, count + 1):
        resting = rotation[number - 1]["resting"]
        playing = [p for p in players if p != resting]
        if number == 2:
            out.append({"game": "klop", "resting": resting,
                        "points_by_player": dict(zip(players, [10, 20, 25, 15], strict=True))})
        elif number == 3:
            out.append({"game": "trojka", "declarer": playing[0], "points": 40, "resting": resting,
                        "contras": [{"on": "game", "by": playing[1], "level": 1}]})
        else:
            out.append({"game": "dvojka" if number % 2 else "trojka", "declarer": playing[number % 3],
                        "points": 30 + number, "resting": resting})
    return out


def play_table(table: Table, entered_by: Any, confirmed_by: Any, hands: int) -> Scorecard:
    card = table.scorecard
    for number, record in enumerate(tri1_hands(card, hands), start=1):
        card.refresh_from_db()
        services.hand_save(scorecard=card, number=number, record=record, actor=entered_by,
                           expected_version=card.version)
    card.refresh_from_db()
    services.scorecard_submit(scorecard=card, actor=entered_by)
    services.scorecard_confirm(scorecard=card, actor=confirmed_by)
    card.refresh_from_db()
    return card


@dataclass
class World:
    """Event A with every role, event B of another organiser, round 1 of A published with
    table 1 played and confirmed, table 2 open."""

    staff: Any
    organiser: Any
    other_organiser: Any
    referee: Any
    other_referee: Any
    player: Any  # sits at table 1 of round 1 of event A
    other_player: Any  # sits at table 2
    stranger: Any
    event: Event
    other_event: Event
    round: Round
    table1: Table
    table2: Table

    def users(self) -> dict[str, Any]:
        return {
            "anonymous": None, "stranger": self.stranger, "player": self.player,
            "other_player": self.other_player, "referee": self.referee,
            "other_referee": self.other_referee, "organiser": self.organiser,
            "other_organiser": self.other_organiser, "staff": self.staff,
        }


def link_player(user: Any, table: Table, position: int = 0) -> None:
    seat = table.seats.select_related("registration__player").order_by("position")[position]
    player = seat.registration.player
    player.user = user
    player.save(update_fields=["user"])


def build_world(capture) -> World:
    staff = make_user("staff", staff=True)
    organiser = make_user("organiser_a", can_create=True)
    other_organiser = make_user("organiser_b", can_create=True)
    referee = make_user("referee_a")
    other_referee = make_user("referee_b")
    player = make_user("player_a")
    other_player = make_user("player_b")
    stranger = make_user("stranger")
    event = make_event(organiser, slug="event-a", referee=referee)
    other_event = make_event(other_organiser, slug="event-b", referee=other_referee, players=4)
    rnd = seat_round(event, organiser, capture)
    services.round_publish(rnd=rnd, actor=organiser)
    table1 = rnd.tables.get(number=1)
    table2 = rnd.tables.get(number=2)
    link_player(player, table1)
    link_player(other_player, table2)
    play_table(table1, organiser, referee, event.hands_per_round)
    return World(staff=staff, organiser=organiser, other_organiser=other_organiser,
                 referee=referee, other_referee=other_referee, player=player,
                 other_player=other_player, stranger=stranger, event=event,
                 other_event=other_event, round=rnd, table1=table1, table2=table2)


@pytest.fixture(scope="module")
def world_of_the_module(django_db_setup, django_db_blocker) -> World:
    """The world, built once for the tests of a module that use it."""
    yield from built_once(django_db_blocker,
                          lambda: build_world(TestCase.captureOnCommitCallbacks))


@pytest.fixture(name="world")
def world_fixture(db, world_of_the_module: World) -> World:
    """The `world` fixture: the module's world as built (each test's writes are rolled back
    with its savepoint), its objects read again. Test modules import `world_fixture` and
    `world_of_the_module` so pytest finds them."""
    w = world_of_the_module
    for user in filter(None, w.users().values()):
        user.refresh_from_db()
    for obj in (w.event, w.other_event, w.round, w.table1, w.table2):
        obj.refresh_from_db()
    return w


M = "/manage/e/event-a"


def standings_of(event) -> list[tuple[int, int]]:
    return [(row.start_number, row.score) for row in event_standings(event).rows]


def close_round_1(world: World) -> None:
    services.scorecard_annul(scorecard=world.table2.scorecard, actor=world.referee,
                             reason="not played")
    round_jobs.round_close(rnd=world.round, actor=world.organiser)


def draft_round_2(world: World):
    close_round_1(world)
    return services.round_store(event=world.event, number=2, seating_system="fixed", seed=0,
                                tables=[["1", "2", "3", "4"], ["5", "6", "7", "8"]],
                                actor=world.organiser)
