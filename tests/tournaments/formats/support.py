"""Builders for the competition-format tests (issue #21, seed 000 §4.1): an event run
through the services, and a table played so that it finishes in the order a test chooses.

Imported by tests/tournaments/formats/test_*.py; it holds builders, no tests.
"""

from __future__ import annotations

import itertools
from typing import Any

from tests.tournaments.pages.support import make_event, make_user, seat_round  # noqa: F401
from tournaments import services
from tournaments.models import Event, Registration, Round, Scorecard, Table
from tournaments.seating.rotation import rest_rotation
from tournaments.services import round_jobs


def placing_hands(card: Scorecard, placing: list[str], hands: int,
                  points: list[int] | None = None) -> list[dict[str, Any]]:
    """Tarok.net TRI + 1 hands after which the table's totals fall in `placing`'s order: the
    i-th player of `placing` declares a trojka and makes `points[i]` (70, 60, 50, 40 unless
    given: equal numbers make equal totals); further hands are small wins of the first."""
    players = list(card.player_ids)
    made = points or [70 - 10 * i for i in range(len(placing))]
    rotation = rest_rotation(players, hands)
    resting = [r["resting"] for r in rotation]
    # Each placed player declares one hand at which he does not rest.
    for order in itertools.permutations(range(hands), len(placing)):
        if all(resting[h] != p for h, p in zip(order, placing, strict=True)):
            break
    else:  # pragma: no cover - the rotation always allows it for 3 or 4 players
        raise AssertionError("no hand order fits the rotation")
    declarer = {h: (p, made[i]) for i, (h, p) in enumerate(zip(order, placing, strict=True))}
    out = []
    for number in range(hands):
        who, made_points = declarer.get(number, (None, 36))
        if who is None:
            who = next(p for p in placing if p != resting[number])
        record: dict[str, Any] = {"game": "trojka", "declarer": who, "points": made_points}
        if resting[number] is not None:
            record["resting"] = resting[number]
        out.append(record)
    return out


def play(table: Table, placing: list[int | str], organiser: Any, referee: Any,
         points: list[int] | None = None) -> Scorecard:
    """Enter and confirm the table's card so that it finishes in `placing` (start numbers)."""
    card = table.scorecard
    order = [str(p) for p in placing]
    assert sorted(order) == sorted(card.player_ids), (order, card.player_ids)
    for number, record in enumerate(
            placing_hands(card, order, table.round.event.hands_per_round, points), start=1):
        card.refresh_from_db()
        services.hand_save(scorecard=card, number=number, record=record, actor=organiser,
                           expected_version=card.version)
    card.refresh_from_db()
    services.scorecard_submit(scorecard=card, actor=organiser)
    services.scorecard_confirm(scorecard=card, actor=referee)
    card.refresh_from_db()
    return card


def seated(rnd: Round) -> list[list[str]]:
    return [[str(s.registration.start_number) for s in t.seats.order_by("position")]
            for t in rnd.tables.order_by("number")]


def run_round(event: Event, organiser: Any, referee: Any, capture, decide) -> Round:
    """Seat, publish, play (each table's placing from `decide(table_number, players)`) and
    close the event's next round."""
    rnd = seat_round(event, organiser, capture)
    services.round_publish(rnd=rnd, actor=organiser)
    for table in rnd.tables.order_by("number"):
        players = [str(s.registration.start_number) for s in table.seats.order_by("position")]
        if len(players) > 1:
            play(table, decide(table.number, players), organiser, referee)
    round_jobs.round_close(rnd=rnd, actor=organiser)
    rnd.refresh_from_db()
    return rnd


def new_event(slug: str, players: int, **fields: Any) -> tuple[Event, Any, Any]:
    organiser = make_user(f"org-{slug}", can_create=True)
    referee = make_user(f"ref-{slug}")
    event = make_event(organiser, slug=slug, players=players, referee=referee, **fields)
    event.registrations.update(status=Registration.Status.REGISTERED)
    return event, organiser, referee
