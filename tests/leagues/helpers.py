"""Shared steps of the league and cup tests: a league season played through the services
with klop hands whose card points the test chooses, so every score is known in advance."""

from __future__ import annotations

import datetime as dt
import random

from leagues import services
from sample_data.factories import PlayerFactory, UserFactory
from tournaments import services as ts
from tournaments.models import Event, Scorecard
from tournaments.services import officials, round_jobs


def users():
    return UserFactory(username="league-organiser", is_staff=True), UserFactory(username="league-referee")


def klop_record(player_ids: list[str], points: list[int]) -> dict:
    """One TRI+1 klop: every player writes minus the card points he took (all below 35, none
    zero, so neither the full nor the no-trick rule applies; seed 000 §3)."""
    record = {"game": "klop", "points_by_player": dict(zip(player_ids, points, strict=True))}
    if len(player_ids) == 4:
        record["resting"] = player_ids[0]
    return record


def random_klop_points(rng: random.Random, seats: int) -> list[int]:
    while True:
        cuts = sorted(rng.sample(range(1, 70), seats - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, 70], strict=True)]
        if max(parts) < 35 and len(set(parts)) == seats:
            return parts


def make_referee(event: Event, referee, organiser) -> None:
    """The league's referee officiates at the matchday (the organiser names him)."""
    if not event.referees.filter(pk=referee.pk).exists():
        officials.event_official_add(event=event, user=referee, role="referee", actor=organiser)


def play_card(card: Scorecard, record: dict, organiser, referee) -> None:
    make_referee(card.table.round.event, referee, organiser)
    ts.hand_save(scorecard=card, number=1, record=record, actor=organiser, expected_version=card.version)
    card.refresh_from_db()
    ts.scorecard_submit(scorecard=card, actor=organiser)
    ts.scorecard_confirm(scorecard=card, actor=referee)


def play_matchday(season, number: int, organiser, referee, points_for) -> None:
    """Create, seat, publish, play and close matchday `number`; `points_for(card)` gives the
    klop points of each seat of the card."""
    matchday = services.matchday_create(season=season, actor=organiser, date=dt.date(2025, 9, number),
                                        number=number)
    rnd = services.matchday_seat(matchday=matchday, actor=organiser)
    services.matchday_publish(matchday=matchday, actor=organiser)
    for card in Scorecard.objects.filter(table__round=rnd).order_by("table__number"):
        play_card(card, klop_record(list(card.player_ids), points_for(card)), organiser, referee)
    services.matchday_close(matchday=matchday, actor=organiser)


def make_players(n: int, prefix: str = "P", created_by=None):
    """`n` players of the registry; `created_by` entered them (an organiser sees the records
    he entered that play nowhere yet, tournaments.domain.rights.visible_players_q)."""
    return [PlayerFactory(first_name=prefix, last_name=f"{prefix}{i:03d}", created_by=created_by)
            for i in range(n)]


def single_table_event(slug: str, order_of_finish: list, organiser, referee, *, finished: bool = True,
                       starts_on: dt.date = dt.date(2026, 1, 10)) -> Event:
    """A one-round tournament of one table of up to four whose final ranking is
    `order_of_finish` (first place first): each player takes klop card points in that order.
    Unfinished, it plans a second round (closing the last planned round finishes an event)."""
    event = ts.event_create(actor=organiser, name=slug, slug=slug, starts_on=starts_on, ends_on=starts_on,
                            ruleset_code="tarok-net-2007", ruleset_mode="tri+1", seating_system="random",
                            planned_rounds=1 if finished else 2, hands_per_round=1)
    regs = [ts.registration_create(event=event, player=p, actor=organiser) for p in order_of_finish]
    ids = [str(r.start_number) for r in regs]
    rnd = ts.round_store(event=event, number=1, seating_system="random", seed=1, tables=[ids], actor=organiser)
    ts.round_publish(rnd=rnd, actor=organiser)
    points = {3: [11, 25, 34], 4: [4, 12, 20, 34]}[len(ids)]
    card = Scorecard.objects.get(table__round=rnd)
    play_card(card, klop_record(ids, points), organiser, referee)
    round_jobs.round_close(rnd=rnd, actor=organiser)
    event.refresh_from_db()
    assert (event.status == Event.Status.FINISHED) == finished
    return event
