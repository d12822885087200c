"""Building rated events for the rankings' tests: real events played through the services (a
hand per table, a second person confirming), so the ratings read what the site stores."""

from __future__ import annotations

import datetime as dt

from sample_data.factories import EventFactory, RegistrationFactory, UserFactory
from tournaments import services
from tournaments.models import Event, Player, Scorecard


def play_table(card: Scorecard, winner: str, organiser, referee) -> None:
    """One hand: `winner` declares a trojka and makes it; another seat rests."""
    resting = next(p for p in card.player_ids if p != winner)
    services.hand_save(scorecard=card, number=1, actor=organiser, expected_version=card.version,
                       record={"game": "trojka", "declarer": winner, "resting": resting,
                               "points": 50})
    services.scorecard_submit(scorecard=card, actor=organiser)
    # One hand where the round plays more: the referee confirms it with a reason.
    services.scorecard_confirm(scorecard=card, actor=referee,
                               reason="a one-hand test card (fewer hands than the round plays)")


def played_event(players: list[Player], rounds: list[list[tuple[list[int], int]]], *,
                 day: dt.date, public: bool = True, rated: bool = True,
                 slug: str | None = None) -> Event:
    """An event of `players` (start numbers 1, 2, ... in that order) whose rounds are lists
    of tables, each (its start numbers, the start number who wins its one hand)."""
    organiser, referee = UserFactory(), UserFactory()
    event = EventFactory(starts_on=day, ends_on=day, is_public=public, rated=rated,
                         seating_system="random", **({"slug": slug} if slug else {}))
    event.organisers.add(organiser)
    event.referees.add(referee)
    for number, player in enumerate(players, start=1):
        RegistrationFactory(event=event, player=player, start_number=number)
    for number, tables in enumerate(rounds, start=1):
        rnd = services.round_store(event=event, number=number, seating_system="random", seed=1,
                                   tables=[[str(n) for n in seats] for seats, _ in tables],
                                   actor=organiser)
        services.round_publish(rnd=rnd, actor=organiser)
        cards = Scorecard.objects.filter(table__round=rnd).order_by("table__number")
        for card, (_seats, winner) in zip(cards, tables, strict=True):
            play_table(card, str(winner), organiser, referee)
    return event


def referee_of(event: Event):
    return event.referees.get()
