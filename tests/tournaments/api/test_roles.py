"""Every endpoint of the tournaments API against every role, as a matrix: anonymous, a player
at the table, a player at another table, the event's referee, its organiser, the organiser of
another event, and staff. Allowed roles get the endpoint's success status; the others a 403
(anonymous, who gave no credentials: 401; a 404 where the object is hidden from them) and
nothing changes. Hidden events are 404 for whoever may not see them.

`build_world` is also used by the other API tests."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from tests.conftest import built_once
from tournaments import services
from tournaments.models import AuditEntry, Event, Job, Round, Scorecard

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

ROLES = ["anonymous", "player_here", "player_elsewhere", "referee", "organiser",
         "other_organiser", "staff"]
OFFICIALS = {"referee", "organiser", "staff"}
ORGANISERS = {"organiser", "staff"}
TABLE_WRITERS = {"player_here", "referee", "organiser", "staff"}
EVERYONE = set(ROLES)
SIGNED_IN = EVERYONE - {"anonymous"}
# Roles for whom a draft round does not exist.
DRAFT_BLIND = {"anonymous", "player_here", "player_elsewhere", "other_organiser"}

E = "/api/v1/events/cup/"
T1 = E + "rounds/1/tables/1/"
CARD = T1 + "scorecard/"


@dataclass
class World:
    event: Event
    other_event: Event
    users: dict[str, Any]
    round1: Round
    extra: dict[str, Any] = field(default_factory=dict)

    def card(self, table: int = 1) -> Scorecard:
        return Scorecard.objects.get(table__round=self.round1, table__number=table)

    def client(self, role: str) -> APIClient:
        client = APIClient()
        if self.users.get(role) is not None:
            client.force_authenticate(self.users[role])
        return client


def trojka(declarer: str = "1", points: int = 40, resting: str = "4") -> dict[str, Any]:
    return {"game": "trojka", "declarer": declarer, "resting": resting, "points": points}


def event_fields(slug: str, **extra: Any) -> dict[str, Any]:
    fields = {"name": f"Event {slug}", "slug": slug, "starts_on": dt.date(2026, 11, 21),
              "ends_on": dt.date(2026, 11, 21), "ruleset_code": "tarok-net-2007",
              "ruleset_mode": "tri+1", "seating_system": "points", "planned_rounds": 3,
              "hands_per_round": 4}
    fields.update(extra)
    return fields


def build_world(*, public: bool = True, players: int = 8) -> World:
    """Event "cup" with 8 players, round 1 published (tables 1-4 and 5-8), one hand entered
    at table 1 by nobody in particular (so anyone may confirm it), a referee, an organiser, a
    second event with its own organiser, and staff."""
    add_event = Permission.objects.get(codename="add_event", content_type__app_label="tournaments")
    # Created without a password: hashing one per user would make the matrix crawl, and the
    # matrix authenticates directly (tests of session and token sign-in are elsewhere).
    make = get_user_model().objects.create
    users = {
        "anonymous": None,
        "player_here": make(username="player-here"),
        "player_elsewhere": make(username="player-elsewhere"),
        "referee": make(username="referee"),
        "organiser": make(username="organiser"),
        "other_organiser": make(username="other-organiser"),
        "staff": make(username="staff", is_staff=True),
    }
    users["organiser"].user_permissions.add(add_event)
    users["other_organiser"].user_permissions.add(add_event)
    event = services.event_create(actor=users["organiser"], is_public=public, **event_fields("cup"))
    event.referees.add(users["referee"])
    other = services.event_create(actor=users["other_organiser"], **event_fields("other"))
    for n in range(1, players + 1):
        user = {1: users["player_here"], 5: users["player_elsewhere"]}.get(n)
        player = services.player_create(first_name=f"First{n}", last_name=f"Last{n}", club="TK",
                                        user=user)
        services.registration_create(event=event, player=player, actor=users["organiser"])
    tables = [[str(n) for n in range(t, t + 4)] for t in range(1, players + 1, 4)]
    rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=0,
                               tables=tables, actor=users["organiser"])
    services.round_publish(rnd=rnd, actor=users["organiser"])
    world = World(event=event, other_event=other, users=users, round1=rnd)
    services.hand_save(scorecard=world.card(1), number=1, record=trojka(), actor=None,
                       expected_version=1)
    return world


@pytest.fixture(scope="module")
def api_world_of_the_module(django_db_setup, django_db_blocker):
    # Built once: the matrix asks hundreds of questions of the same world.
    yield from built_once(django_db_blocker, build_world)


def as_built(w: World) -> World:
    """A world built once for a module, as each test finds it: its rows as built (each test's
    changes are rolled back with its savepoint), its objects read again from the database."""
    for obj in (w.event, w.other_event, w.round1, *filter(None, w.users.values())):
        obj.refresh_from_db()
    w.extra = {}
    return w


@pytest.fixture
def world(api_world_of_the_module: World) -> World:
    return as_built(api_world_of_the_module)


@pytest.fixture
def hidden_world(world: World) -> World:
    """The world with event "cup" hidden (as `build_world(public=False)` builds it)."""
    Event.objects.filter(pk=world.event.pk).update(is_public=False)
    world.event.refresh_from_db()
    return world


# ---------------------------------------------------------------------------------------
# Set-ups some endpoints need before the request
# ---------------------------------------------------------------------------------------


def draft_round_2(w: World) -> None:
    for card in Scorecard.objects.filter(table__round=w.round1):
        services.scorecard_annul(scorecard=card, actor=w.users["referee"], reason="test set-up")
    from tournaments.services.round_jobs import round_close

    round_close(rnd=w.round1, actor=w.users["organiser"])
    services.round_store(event=w.event, number=2, seating_system="fixed", seed=0,
                         tables=[["1", "5", "2", "6"], ["3", "7", "4", "8"]], actor=None)


def round_1_annulled(w: World) -> None:
    for card in Scorecard.objects.filter(table__round=w.round1):
        services.scorecard_annul(scorecard=card, actor=w.users["referee"], reason="test set-up")


def round_1_closed(w: World) -> None:
    round_1_annulled(w)
    from tournaments.services.round_jobs import round_close

    round_close(rnd=w.round1, actor=w.users["organiser"])


def card_1_submitted(w: World) -> None:
    # The round's four hands: a shorter card is the referee's to confirm, with a reason
    # (tests/tournaments/formats/test_card_hands.py), not what this matrix asks.
    for number in (2, 3, 4):
        services.hand_save(scorecard=w.card(1), number=number, record=trojka(str(number - 1)),
                           actor=None, expected_version=None)
    services.scorecard_submit(scorecard=w.card(1), actor=None)


def a_dispute(w: World) -> None:
    w.extra["dispute"] = services.dispute_open(event=w.event, description="wrong points",
                                               actor=None).pk


def a_job(w: World) -> None:
    w.extra["job"] = Job.objects.create(key="seat_round:test", kind="seat_round", event=w.event).pk


@dataclass
class Case:
    name: str
    method: str
    path: str | Callable[[World], str]
    allowed: set[str]
    ok: int = 200
    body: dict[str, Any] | Callable[[World], dict[str, Any]] | None = None
    setup: Callable[[World], None] | None = None
    hidden_from: set[str] = field(default_factory=set)
    fmt: str = "json"


def version(w: World) -> int:
    return w.card(1).version


CSV = "first_name,last_name,club\nNew,Player,TK Bled\n"

CASES = [
    # Public reads
    Case("events list", "get", "/api/v1/events/", EVERYONE),
    Case("event", "get", E, EVERYONE),
    Case("registrations", "get", E + "registrations/", EVERYONE),
    Case("registration", "get", E + "registrations/1/", EVERYONE),
    Case("rounds", "get", E + "rounds/", EVERYONE),
    Case("round", "get", E + "rounds/1/", EVERYONE),
    Case("table", "get", T1, EVERYONE),
    Case("scorecard", "get", CARD, EVERYONE),
    Case("hands", "get", CARD + "hands/", EVERYONE),
    Case("hand", "get", CARD + "hands/1/", EVERYONE),
    Case("table penalties", "get", T1 + "penalties/", EVERYONE),
    Case("event penalties", "get", E + "penalties/", EVERYONE),
    Case("standings", "get", E + "standings/", EVERYONE),
    Case("standings csv", "get", E + "standings/csv/", EVERYONE),
    # Reads for some
    Case("me", "get", "/api/v1/me/", SIGNED_IN),
    Case("players", "get", "/api/v1/players/", {"organiser", "other_organiser", "staff"}),
    Case("event audit", "get", E + "audit/", OFFICIALS),
    Case("table audit", "get", T1 + "audit/", TABLE_WRITERS),
    Case("disputes", "get", E + "disputes/", OFFICIALS),
    Case("dispute", "get", lambda w: f"{E}disputes/{w.extra['dispute']}/", OFFICIALS,
         setup=a_dispute),
    Case("job", "get", lambda w: f"/api/v1/jobs/{w.extra['job']}/", ORGANISERS, setup=a_job),
    Case("draft round preview", "get", E + "rounds/2/", OFFICIALS, setup=draft_round_2,
         hidden_from=DRAFT_BLIND),
    # Organisers
    Case("create event", "post", "/api/v1/events/", {"organiser", "other_organiser", "staff"},
         ok=201, body={**event_fields("new-one"), "starts_on": "2026-12-01",
                       "ends_on": "2026-12-01"}),
    Case("update event", "patch", E, ORGANISERS, body={"venue": "Maribor"}),
    Case("add player", "post", "/api/v1/players/", {"organiser", "other_organiser", "staff"},
         ok=201, body={"first_name": "Nova", "last_name": "Igralka", "club": "TK"}),
    Case("register", "post", E + "registrations/", ORGANISERS, ok=201,
         body={"new_player": {"first_name": "Late", "last_name": "Comer"}, "status": "late_entry"}),
    Case("check in", "patch", E + "registrations/2/", ORGANISERS, body={"status": "checked_in"}),
    Case("withdraw", "patch", E + "registrations/3/", ORGANISERS, body={"status": "withdrawn"}),
    Case("import csv", "post", E + "registrations/import/", ORGANISERS, ok=201, body={"csv": CSV}),
    Case("generate round", "post", E + "rounds/generate/", ORGANISERS, ok=202, setup=round_1_closed),
    Case("swap", "post", E + "rounds/2/swap/", ORGANISERS, setup=draft_round_2,
         body={"first": "1", "second": "3"}, hidden_from=DRAFT_BLIND),
    Case("publish", "post", E + "rounds/2/publish/", ORGANISERS, setup=draft_round_2,
         hidden_from=DRAFT_BLIND),
    Case("start clock", "post", E + "rounds/1/start-clock/", ORGANISERS),
    Case("close round", "post", E + "rounds/1/close/", ORGANISERS, setup=round_1_annulled),
    # The table's players and the officials
    Case("enter hand", "put", CARD + "hands/2/", TABLE_WRITERS, ok=201,
         body=lambda w: {"version": version(w), "record": trojka("2", 50)}),
    Case("replace hand", "put", CARD + "hands/1/", TABLE_WRITERS,
         body=lambda w: {"version": version(w), "record": trojka("3", 30)}),
    Case("delete hand", "delete", lambda w: f"{CARD}hands/1/?version={version(w)}", TABLE_WRITERS),
    Case("confirm hand", "post", CARD + "hands/1/confirm/", TABLE_WRITERS),
    Case("submit card", "post", CARD + "submit/", TABLE_WRITERS,
         body=lambda w: {"version": version(w)}),
    Case("confirm card", "post", CARD + "confirm/", TABLE_WRITERS, setup=card_1_submitted),
    Case("dispute about a table", "post", E + "disputes/", TABLE_WRITERS, ok=201,
         body={"round": 1, "table": 1, "hand": 1, "description": "the points were 35"}),
    # Referees (and organisers, staff)
    Case("dispute about the event", "post", E + "disputes/", OFFICIALS, ok=201,
         body={"description": "the hall closed early"}),
    Case("decide dispute", "post", lambda w: f"{E}disputes/{w.extra['dispute']}/decide/", OFFICIALS,
         setup=a_dispute, body={"decision": "the card stands"}),
    Case("annul card", "post", CARD + "annul/", OFFICIALS, body={"reason": "card lost"}),
    Case("penalty", "post", T1 + "penalties/", OFFICIALS, ok=201,
         body={"start_number": 2, "kind": "renons", "hand": 1, "description": "revoke"}),
    Case("adjust standings", "post", E + "standings/adjustments/", OFFICIALS, ok=201,
         body={"start_number": 2, "points_delta": "-1", "reason": "late"}),
]


def _request(w: World, case: Case, role: str):
    path = case.path(w) if callable(case.path) else case.path
    body = case.body(w) if callable(case.body) else case.body
    client = w.client(role)
    return getattr(client, case.method)(path, body, format=case.fmt) if body is not None \
        else getattr(client, case.method)(path)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_role_matrix(case: Case, role: str, world: World):
    if case.setup:
        case.setup(world)
    audit_before = AuditEntry.objects.count()
    response = _request(world, case, role)
    body = response.json() if response["Content-Type"].startswith("application/json") else None
    if role in case.allowed:
        assert response.status_code == case.ok, (response.status_code, body)
        return
    if role == "anonymous" and case.method != "get":
        expected = 401  # refused before anything is looked up
    elif role in case.hidden_from:
        expected = 404
    else:
        expected = 401 if role == "anonymous" else 403
    assert response.status_code == expected, (response.status_code, body)
    if expected == 401:
        assert response["WWW-Authenticate"] == "Token"
    assert body is not None and body["errors"] and {"hand", "field", "code", "message"} <= set(body["errors"][0])
    assert AuditEntry.objects.count() == audit_before, "a refused request changed something"


# ---------------------------------------------------------------------------------------
# Hidden events
# ---------------------------------------------------------------------------------------

HIDDEN_CASES = [
    Case("event", "get", E, OFFICIALS),
    Case("registrations", "get", E + "registrations/", OFFICIALS),
    Case("round", "get", E + "rounds/1/", OFFICIALS),
    Case("scorecard", "get", CARD, OFFICIALS),
    Case("standings", "get", E + "standings/", OFFICIALS),
    Case("standings csv", "get", E + "standings/csv/", OFFICIALS),
    Case("update event", "patch", E, ORGANISERS, body={"venue": "Koper"}),
    Case("enter hand", "put", CARD + "hands/2/", OFFICIALS, ok=201,
         body=lambda w: {"version": version(w), "record": trojka("2", 50)}),
    Case("submit card", "post", CARD + "submit/", OFFICIALS, body=lambda w: {"version": version(w)}),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", HIDDEN_CASES, ids=[c.name for c in HIDDEN_CASES])
def test_a_hidden_event_does_not_exist_for_those_who_may_not_see_it(case: Case, role: str,
                                                                     hidden_world: World):
    world = hidden_world
    response = _request(world, case, role)
    if role in case.allowed:
        assert response.status_code == case.ok, response.content
    elif role == "referee":
        assert response.status_code == 403, response.content  # sees it, may not change it
    elif role == "anonymous" and case.method != "get":
        assert response.status_code == 401
    else:
        assert response.status_code == 404, response.content


def test_the_event_list_shows_hidden_events_only_to_their_officials(hidden_world: World):
    world = hidden_world

    def slugs(role: str) -> set[str]:
        return {e["slug"] for e in world.client(role).get("/api/v1/events/").json()["results"]}

    assert slugs("anonymous") == {"other"}
    assert slugs("player_here") == {"other"}
    assert slugs("other_organiser") == {"other"}
    assert slugs("referee") == {"cup", "other"}
    assert slugs("organiser") == {"cup", "other"}
    assert slugs("staff") == {"cup", "other"}


def test_an_organiser_cannot_touch_another_organisers_event(world: World):
    client = world.client("other_organiser")
    assert client.patch(E, {"name": "Taken over"}, format="json").status_code == 403
    assert client.post(E + "rounds/1/close/").status_code == 403
    world.event.refresh_from_db()
    assert world.event.name == "Event cup"
    # ... while his own event is his to change.
    assert client.patch("/api/v1/events/other/", {"venue": "Celje"}, format="json").status_code == 200


def test_a_player_may_not_change_a_confirmed_card_but_a_referee_may_correct_it_with_a_reason(
        world: World):
    services.scorecard_submit(scorecard=world.card(1), actor=world.users["player_here"])
    services.scorecard_confirm(scorecard=world.card(1), actor=world.users["referee"], reason="a short test card: fewer hands than the round plays")
    body = {"version": version(world), "record": trojka("1", 45)}
    refused = world.client("player_here").put(CARD + "hands/1/", body, format="json")
    assert refused.status_code == 403
    assert refused.json()["errors"][0]["code"] == "scorecard_closed"
    corrected = world.client("referee").put(
        CARD + "hands/1/", {**body, "reason": "points recounted"}, format="json")
    assert corrected.status_code == 200, corrected.content
    assert corrected.json()["hands"][0]["record"]["points"] == 45
    entry = AuditEntry.objects.filter(action="hand.update").get()
    assert entry.reason == "points recounted" and entry.actor == world.users["referee"]
