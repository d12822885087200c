"""One role matrix for both edges: every role × every state of a round and its card × every
action on the card, asked of the API and of the web pages, against one table of expectations
(`EXPECTED`, written out here by hand from docs/security.md, not computed by the code under
test). An allowed action changes the card on both edges; a refused one changes nothing on
either, and both refuse the same way: a draft does not exist for who may not see it (404), and
a role with no part in the table is refused (403; anonymous: 401 in the API, sent to log in
on the web).

Each case runs in a savepoint that is rolled back, so every case starts from the same world.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from sample_data.factories import allow_event_creation
from tournaments import services
from tournaments.domain import rights
from tournaments.models import Entry, Event, Player, PlayerLink, Round, Scorecard
from tournaments.runtime.page_cache import forget_all
from tournaments.seating.rotation import rest_rotation
from tournaments.services import officials, round_jobs

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

ROLES = ["anonymous", "stranger", "player_here", "player_elsewhere", "referee", "organiser",
         "other_organiser", "staff"]
ALL = frozenset(ROLES)
NONE: frozenset[str] = frozenset()
OFFICIALS = frozenset({"referee", "organiser", "staff"})
TABLE = OFFICIALS | {"player_here"}
# Roles with no part in the table: refused for want of a right, not for the card's state.
OUTSIDERS = frozenset({"anonymous", "stranger", "player_elsewhere", "other_organiser"})

ACTIONS = ["view", "enter", "edit", "delete", "submit", "confirm", "confirm_hand", "verify",
           "annul"]

# While the round is on, the table writes an open or submitted card; officials write any card
# of a published round (a confirmed or verified one as a correction with a reason); nobody
# writes an annulled card or a draft's.
_ON_OPEN = {"view": ALL, "enter": TABLE, "edit": TABLE, "delete": TABLE, "submit": TABLE,
            "confirm": NONE, "confirm_hand": TABLE, "verify": NONE, "annul": OFFICIALS}
_ON_SUBMITTED = {**_ON_OPEN, "submit": NONE, "confirm": TABLE}
_ON_CONFIRMED = {"view": ALL, "enter": OFFICIALS, "edit": OFFICIALS, "delete": OFFICIALS,
                 "submit": NONE, "confirm": NONE, "confirm_hand": NONE, "verify": OFFICIALS,
                 "annul": OFFICIALS}
_ON_VERIFIED = {**_ON_CONFIRMED, "verify": NONE}
_ON_ANNULLED = {action: NONE for action in ACTIONS} | {"view": ALL}

EXPECTED: dict[tuple[str, str], dict[str, frozenset[str]]] = {
    ("closed", "verified"): _ON_VERIFIED,
    ("closed", "annulled"): _ON_ANNULLED,
    ("playing", "open"): _ON_OPEN,
    ("playing", "submitted"): _ON_SUBMITTED,
    ("playing", "confirmed"): _ON_CONFIRMED,
    ("playing", "verified"): _ON_VERIFIED,
    ("playing", "annulled"): _ON_ANNULLED,
    ("published", "open"): _ON_OPEN,
    ("published", "submitted"): _ON_SUBMITTED,
    ("published", "confirmed"): _ON_CONFIRMED,
    ("published", "verified"): _ON_VERIFIED,
    ("published", "annulled"): _ON_ANNULLED,
    ("draft", "open"): {action: NONE for action in ACTIONS} | {"view": OFFICIALS},
}
CARD_STATES = ["open", "submitted", "confirmed", "verified", "annulled"]
SLUG = "matrix"


@dataclass
class Spot:
    """Where one state lives: round and table number, and the users around the table."""

    round_status: str
    card_status: str
    round_number: int
    table_number: int
    seat_users: list[Any]


def _trojka(ids: list[str], number: int) -> dict[str, Any]:
    resting = rest_rotation(ids, 4)[number - 1]["resting"]
    playing = [p for p in ids if p != resting]
    return {"game": "trojka", "declarer": playing[0], "resting": resting, "points": 40}


def _bring_card_to(card: Scorecard, status: str, *, writer: Any, checker: Any, referee: Any) -> None:
    ids = list(card.player_ids)
    # The round's full four hands: a card of another number is the referee's to confirm with
    # a reason (tests/tournaments/formats/test_card_hands.py), not what this matrix asks.
    for number in range(1, 5):
        card.refresh_from_db()
        services.hand_save(scorecard=card, number=number, record=_trojka(ids, number),
                           actor=writer, expected_version=card.version)
    if status == "annulled":
        services.scorecard_annul(scorecard=card, actor=referee, reason="matrix set-up")
        return
    if status == "open":
        return
    services.scorecard_submit(scorecard=card, actor=writer)
    if status == "submitted":
        return
    services.scorecard_confirm(scorecard=card, actor=checker)
    if status == "verified":
        services.scorecard_verify(scorecard=card, actor=referee)


def build_world() -> tuple[dict[str, Any], list[Spot]]:
    make = get_user_model().objects.create
    users = {role: make(username=role) for role in ROLES if role != "anonymous"}
    users["anonymous"] = None
    users["staff"].is_staff = True
    users["staff"].save()
    organiser = allow_event_creation(users["organiser"])
    allow_event_creation(users["other_organiser"])
    event = services.event_create(
        actor=organiser, name="Matrix", slug=SLUG, starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
        seating_system="fixed", planned_rounds=4, hands_per_round=4)
    services.event_create(actor=users["other_organiser"], name="Other", slug="other",
                          starts_on=dt.date(2026, 11, 21), ends_on=dt.date(2026, 11, 21),
                          ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
                          seating_system="fixed")
    officials.event_official_add(event=event, user=users["referee"], role="referee",
                                actor=organiser)
    seat_users = [make(username=f"seat-{n}") for n in range(1, 21)]
    for n in range(1, 21):
        player = services.player_create(first_name=f"F{n}", last_name=f"Seat{n}", club="TK",
                                        user=seat_users[n - 1])
        services.registration_create(event=event, player=player, actor=organiser)
    referee = users["referee"]
    spots: list[Spot] = []

    def store(number: int, tables: list[list[int]]) -> Round:
        return services.round_store(event=event, number=number, seating_system="fixed", seed=0,
                                    tables=[[str(n) for n in t] for t in tables], actor=organiser)

    def users_at(rnd: Round, table_number: int) -> list[Any]:
        card = Scorecard.objects.get(table__round=rnd, table__number=table_number)
        return [seat_users[int(p) - 1] for p in card.player_ids]

    # Round 1, closed: a verified card and an annulled one.
    rnd = store(1, [[1, 2, 3, 4], [5, 6, 7, 8]])
    services.round_publish(rnd=rnd, actor=organiser)
    for table_number, status in ((1, "confirmed"), (2, "annulled")):
        card = Scorecard.objects.get(table__round=rnd, table__number=table_number)
        seats = users_at(rnd, table_number)
        _bring_card_to(card, status, writer=seats[1], checker=seats[2], referee=referee)
    round_jobs.round_close(rnd=rnd, actor=organiser)
    spots += [Spot("closed", "verified", 1, 1, users_at(rnd, 1)),
              Spot("closed", "annulled", 1, 2, users_at(rnd, 2))]
    # Rounds 2 (playing: the clock runs) and 3 (published): a card in every state.
    five_tables = [[t + 5 * s for s in range(4)] for t in range(1, 6)]
    for number, round_status in ((2, "playing"), (3, "published")):
        rnd = store(number, five_tables)
        services.round_publish(rnd=rnd, actor=organiser)
        if round_status == "playing":
            services.round_start_clock(rnd=rnd, actor=organiser)
        for table_number, status in enumerate(CARD_STATES, start=1):
            card = Scorecard.objects.get(table__round=rnd, table__number=table_number)
            seats = users_at(rnd, table_number)
            _bring_card_to(card, status, writer=seats[1], checker=seats[2], referee=referee)
            spots.append(Spot(round_status, status, number, table_number, seats))
    # Round 4, a draft.
    rnd = store(4, [[1, 6, 11, 16]])
    spots.append(Spot("draft", "open", 4, 1, users_at(rnd, 1)))
    return users, spots


def _card(spot: Spot) -> Scorecard:
    return Scorecard.objects.get(table__round__event__slug=SLUG,
                                 table__round__number=spot.round_number,
                                 table__number=spot.table_number)


def fingerprint(spot: Spot) -> tuple:
    card = _card(spot)
    hands = tuple(card.hands.order_by("number").values_list("number", "record", "confirmed_by"))
    return card.status, card.version, hands


def _hand_fields(card: Scorecard, number: int) -> dict[str, Any]:
    ids = list(card.player_ids)
    return _trojka(ids, min(number, 4))


def api_call(client: APIClient, spot: Spot, action: str):
    card = _card(spot)
    base = f"/api/v1/events/{SLUG}/rounds/{spot.round_number}/tables/{spot.table_number}/scorecard/"
    count = card.hands.count()
    record = _hand_fields(card, count + 1)
    if action == "view":
        return client.get(base)
    if action == "enter":
        return client.put(f"{base}hands/{count + 1}/", {"version": card.version, "record": record,
                                                        "reason": "matrix"}, format="json")
    if action == "edit":
        changed = {**_hand_fields(card, 1), "points": 50}
        return client.put(f"{base}hands/1/", {"version": card.version, "record": changed,
                                              "reason": "matrix"}, format="json")
    if action == "delete":
        return client.delete(f"{base}hands/1/?version={card.version}&reason=matrix")
    if action == "submit":
        return client.post(f"{base}submit/", {"version": card.version}, format="json")
    if action == "confirm":
        return client.post(f"{base}confirm/", format="json")
    if action == "confirm_hand":
        return client.post(f"{base}hands/1/confirm/", format="json")
    if action == "verify":
        return client.post(f"{base}verify/", format="json")
    if action == "annul":
        return client.post(f"{base}annul/", {"reason": "matrix"}, format="json")
    raise ValueError(action)


def web_call(client: Client, spot: Spot, action: str):
    card = _card(spot)
    where = f"e/{SLUG}/rounds/{spot.round_number}/tables/{spot.table_number}/"
    manage, referee = f"/manage/{where}", f"/referee/{where}"
    count = card.hands.count()
    if action == "view":
        return client.get(f"/{where}")
    if action == "enter":
        return client.post(manage, {"number": count + 1, "version": card.version,
                                    "reason": "matrix", **_hand_fields(card, count + 1)})
    if action == "edit":
        return client.post(f"{manage}hands/1/", {"number": 1, "version": card.version,
                                                 "reason": "matrix",
                                                 **{**_hand_fields(card, 1), "points": 50}})
    if action == "delete":
        return client.post(f"{manage}hands/1/delete/", {"version": card.version, "reason": "matrix"})
    if action == "submit":
        return client.post(f"{manage}submit/")
    if action == "confirm":
        return client.post(f"{manage}confirm/")
    if action == "confirm_hand":
        return client.post(f"{manage}hands/1/confirm/")
    if action == "verify":
        return client.post(f"{referee}verify/")
    if action == "annul":
        return client.post(f"{referee}annul/", {"reason": "matrix"})
    raise ValueError(action)


def _actor(role: str, spot: Spot, users: dict[str, Any], spots: list[Spot]) -> Any:
    if role == "player_here":
        return spot.seat_users[0]
    if role == "player_elsewhere":
        other = next(s for s in spots if s.round_number == spot.round_number and s is not spot) \
            if any(s.round_number == spot.round_number and s is not spot for s in spots) else None
        # A draft has one table: a player of the event who is not at it stands in.
        if other is not None:
            return other.seat_users[0]
        seated = {u.pk for u in spot.seat_users}
        return next(u for s in spots for u in s.seat_users if u.pk not in seated)
    return users[role]


def _refusal_ok(edge: str, role: str, spot: Spot, action: str, status: int) -> str | None:
    """How a refusal must look on both edges (None when it does)."""
    if status >= 500:
        return f"server error {status}"
    hidden = spot.round_status == "draft" and role not in OFFICIALS
    if role == "anonymous" and (action != "view" or not hidden):
        expected = {401} if edge == "api" else {302}
        if action == "view":
            expected = {404}
        return None if status in expected else f"anonymous refused with {status}"
    if hidden:
        return None if status == 404 else f"a draft must not exist for {role}: {status}"
    if role in OUTSIDERS and action != "view":
        return None if status == 403 else f"an outsider must be refused with 403, got {status}"
    return None


def test_one_role_matrix_for_the_api_and_the_pages(capsys):
    users, spots = build_world()
    mismatches: list[str] = []
    counts = {"api": 0, "pages": 0}
    for spot in spots:
        expectations = EXPECTED[(spot.round_status, spot.card_status)]
        for action in ACTIONS:
            for role in ROLES:
                allowed = role in expectations[action]
                actor = _actor(role, spot, users, spots)
                for edge in ("api", "pages"):
                    counts[edge] += 1
                    with transaction.atomic():
                        cache.clear()
                        forget_all()
                        before = fingerprint(spot)
                        if edge == "api":
                            client = APIClient()
                            if actor is not None:
                                client.force_authenticate(actor)
                            response = api_call(client, spot, action)
                        else:
                            client = Client()
                            if actor is not None:
                                client.force_login(actor)
                            response = web_call(client, spot, action)
                        after = fingerprint(spot)
                        transaction.set_rollback(True)
                    where = (f"{edge} {role} {action} on a {spot.card_status} card of a "
                             f"{spot.round_status} round")
                    if action == "view":
                        ok = response.status_code == (200 if allowed else 404)
                        if not ok:
                            mismatches.append(f"{where}: {response.status_code}")
                        continue
                    if allowed and after == before:
                        mismatches.append(f"{where}: allowed but nothing changed "
                                          f"({response.status_code})")
                    elif not allowed and after != before:
                        mismatches.append(f"{where}: refused but the card changed "
                                          f"({response.status_code})")
                    elif not allowed:
                        problem = _refusal_ok(edge, role, spot, action, response.status_code)
                        if problem:
                            mismatches.append(f"{where}: {problem}")
    total = counts["api"] + counts["pages"]
    with capsys.disabled():
        print(f"\nrole matrix: {total} cases ({counts['api']} API, {counts['pages']} pages; "
              f"{len(ROLES)} roles × {len(EXPECTED)} states × {len(ACTIONS)} actions)")
    assert not mismatches, f"{len(mismatches)} of {total} cases disagree:\n" + "\n".join(mismatches[:60])
    assert Event.objects.filter(slug=SLUG).exists()


# ---------------------------------------------------------------------------------------
# League and cup organiser pages
# ---------------------------------------------------------------------------------------

LEAGUE_ROLES = ["anonymous", "stranger", "league_organiser", "other_league_organiser",
                "event_organiser", "cup_organiser", "staff"]
LEAGUE_OWNERS = {"league_organiser", "staff"}
CUP_OWNERS = {"cup_organiser", "staff"}
# Whoever may create events may create a league or a cup (and then organises it): a league's
# organisers may (they create its matchdays), a cup's organiser alone may not.
CREATORS = {"league_organiser", "other_league_organiser", "event_organiser", "staff"}

LM = "/manage/leagues/league-a"
LS = f"{LM}/s1/"
LEAGUE_PAGES = [
    # (url, who gets the page; anonymous is sent to log in, everybody else is refused with 403;
    # a third item: what those who may get, when not 200; a fourth: the refusal, when not 403)
    ("/manage/leagues/new/", CREATORS),
    ("/manage/cups/new/", CREATORS),
    # Taking an event from a federation's server to this laptop: an import of what another
    # server answers, the installation's staff's.
    ("/manage/venue/take/", {"staff"}),
    (f"{LM}/", LEAGUE_OWNERS),
    (f"{LM}/edit/", LEAGUE_OWNERS),
    (f"{LM}/seasons/new/", LEAGUE_OWNERS),
    (LS, LEAGUE_OWNERS),
    (f"{LS}edit/", LEAGUE_OWNERS),
    (f"{LS}matchdays/1/edit/", LEAGUE_OWNERS),
    (f"{LS}players/", LEAGUE_OWNERS),
    (f"{LS}players/?q=Liga", LEAGUE_OWNERS),
    (f"{LS}schedule/", LEAGUE_OWNERS),
    # The season is running: its owners see the next season as if it ended today (#33).
    (f"{LS}next/", LEAGUE_OWNERS),
    # The matchday's event is the league organiser's, not another league's nor an event's.
    ("/manage/e/{matchday_a}/", LEAGUE_OWNERS),
    # A draft round does not exist for who is no official of its event.
    ("/manage/e/{matchday_a}/rounds/1/", LEAGUE_OWNERS, 200, 404),
    ("/manage/e/{matchday_b}/", {"other_league_organiser", "staff"}),
    # The players' personal links of a matchday: its organisers' (issue #31).
    ("/manage/e/{matchday_a}/players/links/", LEAGUE_OWNERS),
    ("/manage/e/outside/", {"event_organiser", "staff"}),
    ("/manage/cups/cup-a/", CUP_OWNERS),
    ("/manage/cups/cup-a/edit/", CUP_OWNERS),
]
LEAGUE_POSTS = [
    (f"{LM}/edit/", {"name": "Renamed"}),
    (f"{LM}/seasons/new/", {"name": "s2", "planned_matchdays": 2, "division_count": 1, "division_size": 8}),
    (f"{LS}players/add/", {"player": "{newcomer}", "division": "{division_a}"}),
    (f"{LS}players/import/", {"text": "first_name,last_name,division\nNew,Player,1\n"}),
    (f"{LS}players/{{membership_a}}/move/", {"division": "{division_a}", "seed_position": 8}),
    (f"{LS}players/{{membership_a}}/remove/", {}),
    (f"{LS}schedule/draw/", {"seed": "3"}),
    (f"{LS}matchdays/add/", {"date": "2026-03-01"}),
    (f"{LS}edit/", {"name": "Renamed", "starts_on": "2026-01-01", "ends_on": "2026-06-30",
                    "planned_matchdays": 2}),
    (f"{LS}matchdays/1/edit/", {"date": "2026-03-03", "venue": "Elsewhere"}),
    (f"{LS}matchdays/1/publish/", {}),
    (f"{LS}finish/", {}),
    ("/manage/cups/cup-a/points/", {"table": "1 5"}),
    ("/manage/cups/cup-a/events/add/", {"event": "outside"}),
    ("/manage/e/{matchday_a}/players/1/link/reissue/", {}),
    # An entry made online: its organisers' decision (issue #31).
    ("/manage/e/{matchday_a}/entries/{entry_a}/approve/", {}),
    ("/manage/e/{matchday_a}/entries/{entry_a}/refuse/", {}),
    # A venue hold (issue #32): the laptop's buttons are its organisers', the take-back staff's.
    ("/manage/e/{matchday_a}/venue/push/", {}),
    ("/manage/e/{matchday_a}/venue/hand-back/", {}),
    ("/manage/e/{matchday_a}/venue/take-back/", {}),
]


def _league_world() -> dict[str, Any]:
    from leagues import services as league_services

    make = get_user_model().objects.create
    users = {role: make(username=f"l-{role}") for role in LEAGUE_ROLES if role != "anonymous"}
    users["anonymous"] = None
    users["staff"].is_staff = True
    users["staff"].save()
    allow_event_creation(users["event_organiser"])
    ids: dict[str, Any] = {}
    for suffix, owner in (("a", users["league_organiser"]), ("b", users["other_league_organiser"])):
        league = league_services.league_create(actor=None, organisers=[owner], name=f"League {suffix}",
                                               slug=f"league-{suffix}", division_count=1, division_size=8,
                                               movement_count=2, qualification_group=False,
                                               hands_per_matchday=1)
        season = league_services.season_create(league=league, actor=None, name="s1", planned_matchdays=2)
        division = season.divisions.get()
        for n in range(8):
            player = services.player_create(first_name=f"Liga{suffix}{n}", last_name="Matrix", club="TK")
            membership = league_services.membership_add(division=division, player=player, actor=None)
        league_services.schedule_generate(season=season, actor=None, seed=1)
        matchday = league_services.matchday_create(season=season, actor=None, date=dt.date(2026, 2, 1))
        league_services.matchday_seat(matchday=matchday, actor=None)
        ids[f"matchday_{suffix}"] = matchday.event.slug
        ids[f"entry_{suffix}"] = Entry.objects.create(
            event=matchday.event, first_name="Walk", last_name=f"In{suffix}", token=f"matrix-{suffix}",
            status=Entry.Status.PENDING, counted_at=matchday.event.created_at).pk
        ids[f"division_{suffix}"] = division.pk
        ids[f"membership_{suffix}"] = membership.pk
    ids["newcomer"] = services.player_create(first_name="New", last_name="Comer", club="TK").pk
    services.event_create(actor=users["event_organiser"], name="Outside", slug="outside",
                          starts_on=dt.date(2026, 2, 1), ends_on=dt.date(2026, 2, 1),
                          ruleset_code="tarok-net-2007", ruleset_mode="tri+1", seating_system="fixed")
    league_services.cup_create(actor=None, organisers=[users["cup_organiser"]], name="Cup A", slug="cup-a")
    return {"users": users, "ids": ids}


def _league_state() -> tuple:
    from leagues.models import CupPoints, CupSeriesEvent, League, Matchday, Season, SeasonMembership

    return (tuple(League.objects.order_by("pk").values_list("name", flat=True)),
            Season.objects.count(), Matchday.objects.count(),
            tuple(SeasonMembership.objects.order_by("pk").values_list("division", "seed_position")),
            tuple(Season.objects.order_by("pk").values_list("status", "schedule", "name", "starts_on",
                                                            "ends_on", "planned_matchdays")),
            tuple(Matchday.objects.order_by("pk").values_list("date", "event__starts_on", "event__venue")),
            tuple(Round.objects.order_by("pk").values_list("status", flat=True)),
            CupPoints.objects.count(), CupSeriesEvent.objects.count(), Player.objects.count(),
            tuple(PlayerLink.objects.order_by("pk").values_list("token", "revoked_at")),
            tuple(Entry.objects.order_by("pk").values_list("status", "registration")))


def test_league_and_cup_pages_answer_each_role_and_refused_writes_change_nothing():
    world = _league_world()
    mismatches = []
    for role in LEAGUE_ROLES:
        client = Client()
        if world["users"][role] is not None:
            client.force_login(world["users"][role])
        for template, allowed, *answers in LEAGUE_PAGES:
            ok = answers[0] if answers else 200
            refused = answers[1] if len(answers) > 1 else 403
            url = template.format(**world["ids"])
            status = client.get(url).status_code
            expected = ok if role in allowed else (302 if role == "anonymous" else refused)
            if status != expected:
                mismatches.append(f"{role} GET {url}: {status}, expected {expected}")
        if role in LEAGUE_OWNERS | CUP_OWNERS:
            continue
        for template, data in LEAGUE_POSTS:
            url = template.format(**world["ids"])
            posted = {k: str(v).format(**world["ids"]) for k, v in data.items()}
            before = _league_state()
            status = client.post(url, posted).status_code
            expected = 302 if role == "anonymous" else 403
            if status != expected or _league_state() != before:
                mismatches.append(f"{role} POST {url}: {status}, expected {expected} and nothing changed")
    assert not mismatches, "\n".join(mismatches)


# ---------------------------------------------------------------------------------------
# The player registry (issue #29): who sees, corrects and merges which record, on the API
# and the pages alike
# ---------------------------------------------------------------------------------------

REGISTRY_ROLES = ["anonymous", "stranger", "himself", "referee", "organiser", "other_organiser",
                  "registry_manager", "staff"]
# The records: of the organiser's public event, of his private event, of a public event of
# his and one of another organiser, of another organiser's private event only, and one the
# organiser entered that plays nowhere yet.
TARGETS = ["own_public", "own_private", "shared", "foreign_private", "entered"]
MANAGERS = {"registry_manager", "staff"}
# Written out by hand from docs/security.md ("The player registry"), not computed by the code.
SEES = {
    "anonymous": {"own_public", "shared"},
    "stranger": {"own_public", "shared"},
    "referee": {"own_public", "own_private", "shared"},
    "organiser": {"own_public", "own_private", "shared", "entered"},
    "other_organiser": {"own_public", "shared", "foreign_private"},
    "registry_manager": set(TARGETS),
    "staff": set(TARGETS),
}
EDITS = {
    "organiser": {"own_public", "own_private", "entered"},
    "other_organiser": {"foreign_private"},
    "registry_manager": set(TARGETS),
    "staff": set(TARGETS),
}
# Who uses the registry's lists and pages (enters players): event creators and its managers.
REGISTRY_USERS = {"organiser", "other_organiser", "registry_manager", "staff"}
REGISTRY_ACTIONS = ["list", "detail", "leagues_and_cups", "edit", "merge"]


def _registry_world() -> dict[str, Any]:
    from django.contrib.auth.models import Permission

    make = get_user_model().objects.create
    users = {role: make(username=f"r-{role}") for role in REGISTRY_ROLES
             if role not in ("anonymous", "himself")}
    users["anonymous"] = None
    users["staff"].is_staff = True
    users["staff"].save()
    users["registry_manager"].user_permissions.add(
        Permission.objects.get(codename="manage_registry", content_type__app_label="tournaments"))
    organiser = allow_event_creation(users["organiser"])
    other = allow_event_creation(users["other_organiser"])

    def event(owner: Any, slug: str, public: bool) -> Event:
        made = services.event_create(
            actor=owner, name=slug, slug=slug, starts_on=dt.date(2026, 11, 21),
            ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
            seating_system="fixed", is_public=public)
        return made

    own_public, own_private = event(organiser, "reg-pub", True), event(organiser, "reg-priv", False)
    other_public, other_private = event(other, "reg-other-pub", True), event(other, "reg-other-priv", False)
    for own in (own_public, own_private):
        officials.event_official_add(event=own, user=users["referee"], role="referee",
                                     actor=organiser)
    places = {"own_public": [own_public], "own_private": [own_private],
              "shared": [own_public, other_public], "foreign_private": [other_private],
              "entered": []}
    targets = {}
    for name, events in places.items():
        player = services.player_create(
            first_name=name.replace("_", " ").title(), last_name="Registry", club="TK",
            user=make(username=f"r-{name}"),
            actor=organiser if name == "entered" else None)
        for each in events:
            services.registration_create(event=each, player=player, actor=each.organisers.first())
        targets[name] = player.pk
    return {"users": users, "targets": targets}


def _registry_call(edge: str, client: Any, action: str, target: int, duplicate: int):
    if action == "list":
        if edge == "api":
            return client.get("/api/v1/players/", {"limit": 1000})
        return client.get("/manage/players/", {"q": "registry"})
    if action == "detail":
        return client.get(f"/api/v1/players/{target}/" if edge == "api" else f"/players/{target}/")
    if action == "leagues_and_cups":
        return client.get(f"/api/v1/players/{target}/leagues-and-cups/")
    if action == "edit":
        if edge == "api":
            return client.patch(f"/api/v1/players/{target}/", {"club": "Edited", "reason": "matrix"},
                                format="json")
        return client.post(f"/manage/players/{target}/edit/", {
            "first_name": "Edited", "last_name": "Registry", "club": "Edited", "country": "",
            "federation_id": "", "reason": "matrix"})
    if action == "merge":
        if edge == "api":
            return client.post(f"/api/v1/players/{target}/merge/", {"duplicate": duplicate},
                               format="json")
        return client.post(f"/manage/players/{target}/merge/", {"duplicate": duplicate})
    raise ValueError(action)


def _registry_refusal_ok(edge: str, role: str, sees: bool, status: int) -> str | None:
    """How a refused write must look: the login for the anonymous on the pages, 401/403 in
    the API; a record he may not see does not exist for him (404) wherever the edge looks it
    up first; 403 where he sees it but may not change it."""
    if status >= 500:
        return f"server error {status}"
    if role == "anonymous":
        return None if status in ({401, 403} if edge == "api" else {302}) else f"anonymous: {status}"
    if edge == "pages" and role not in REGISTRY_USERS:
        return None if status == 403 else f"not a user of the registry: {status}, expected 403"
    expected = 403 if sees else 404
    return None if status == expected else f"{status}, expected {expected}"


def test_one_registry_matrix_for_the_api_and_the_pages(capsys):
    world = _registry_world()
    mismatches: list[str] = []
    cases = 0
    for role in REGISTRY_ROLES:
        for name, target in world["targets"].items():
            actor = (Player.objects.get(pk=target).user if role == "himself"
                     else world["users"][role])
            sees = name in SEES.get(role, set()) or role == "himself"
            edits = name in EDITS.get(role, set())
            for action in REGISTRY_ACTIONS:
                for edge in ("api", "pages"):
                    if action == "leagues_and_cups" and edge == "pages":
                        continue  # the page's leagues and cups are part of its detail
                    cases += 1
                    with transaction.atomic():
                        cache.clear()
                        forget_all()
                        # The other record of a merge: one the actor entered himself.
                        duplicate = services.player_create(
                            first_name=name, last_name="Duplicate", club="TK",
                            actor=actor if rights.can_manage_players(actor) else None).pk
                        client = APIClient() if edge == "api" else Client()
                        if actor is not None:
                            (client.force_authenticate if edge == "api" else client.force_login)(actor)
                        response = _registry_call(edge, client, action, target, duplicate)
                        player = Player.objects.filter(pk=target).first()
                        changed = (player.club == "Edited" if action == "edit"
                                   else not Player.objects.filter(pk=duplicate).exists())
                        transaction.set_rollback(True)
                    where = f"{edge} {role} {action} {name}"
                    status = response.status_code
                    if action == "list":
                        listed = role in REGISTRY_USERS
                        if not listed:
                            expected = {401, 403} if edge == "api" and role == "anonymous" else (
                                {302} if role == "anonymous" else {403})
                            if status not in expected:
                                mismatches.append(f"{where}: {status}, expected {expected}")
                            continue
                        body = response.content.decode()
                        shown = (f'"id":{target},' in body.replace(" ", "") if edge == "api"
                                 else f'href="/players/{target}/"' in body)
                        if status != 200 or shown != sees:
                            mismatches.append(f"{where}: {status}, listed {shown}, expected {sees}")
                    elif action in ("detail", "leagues_and_cups"):
                        if status != (200 if sees else 404):
                            mismatches.append(f"{where}: {status}, expected {200 if sees else 404}")
                    elif edits and not changed:
                        mismatches.append(f"{where}: allowed but nothing changed ({status})")
                    elif not edits and changed:
                        mismatches.append(f"{where}: refused but the record changed ({status})")
                    elif not edits:
                        problem = _registry_refusal_ok(edge, role, sees, status)
                        if problem:
                            mismatches.append(f"{where}: {problem}")
    with capsys.disabled():
        print(f"\nregistry matrix: {cases} cases ({len(REGISTRY_ROLES)} roles × {len(TARGETS)} "
              f"records × {len(REGISTRY_ACTIONS)} actions, API and pages)")
    assert not mismatches, f"{len(mismatches)} of {cases} cases disagree:\n" + "\n".join(mismatches[:80])


def test_the_anonymous_walk_finds_no_player_of_private_events():
    """Ids count up: walking every id as a visitor (and as a signed-in stranger) over every
    address that names a player finds only the players of public events."""
    world = _registry_world()
    public = {world["targets"][name] for name in ("own_public", "shared")}
    # Every player there is, and the ids just beyond: not from 1, as on PostgreSQL the ids go
    # on counting over the players other tests made and took back (a walk of 12 minutes).
    first = Player.objects.order_by("pk").values_list("pk", flat=True).first()
    last = Player.objects.order_by("-pk").values_list("pk", flat=True).first()
    stranger = Client()
    stranger.force_login(world["users"]["stranger"])
    found: dict[str, set[int]] = {}
    for who, client in (("anonymous", Client()), ("stranger", stranger)):
        for pk in range(max(1, first - 2), last + 3):
            for url in (f"/players/{pk}/", f"/api/v1/players/{pk}/",
                        f"/api/v1/players/{pk}/leagues-and-cups/"):
                response = client.get(url)
                assert response.status_code in (200, 404), (who, url, response.status_code)
                if response.status_code == 200:
                    found.setdefault(f"{who} {url.replace(str(pk), '<id>')}", set()).add(pk)
            posted = client.post(f"/players/{pk}/career-visibility/", {"hidden": "1"})
            assert posted.status_code in (403, 404), (who, pk, posted.status_code)
            if posted.status_code == 403:
                found.setdefault(f"{who} career-visibility", set()).add(pk)
    for where, ids in found.items():
        assert ids <= public, f"{where} answers for players of private events: {sorted(ids - public)}"
    assert found, "the walk found not even the public players"
