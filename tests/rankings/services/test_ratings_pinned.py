"""The stored ratings of a fixed, seeded set of results, pinned bit for bit: a rebuild made
faster (reading the cards, the engine's calls into openskill, the writes) must store exactly
the floats it stored before. The results have what real ones have: equal totals (placed by
start number, "9" before "10"), a total missing or stored as text, a start number nobody is
registered with, tables of two and three, a draft round, an open card, an unrated event and
two events on one day."""

from __future__ import annotations

import datetime as dt
import hashlib
import random

import pytest

from rankings import services
from rankings.models import Rating, RatingStep
from sample_data.factories import PlayerFactory
from tournaments.models import Event, Registration, Round, Scorecard, Table

pytestmark = pytest.mark.django_db

RULESET = "tarok-net-2007"
# sha256 of every stored step and rating (floats as float.hex), written by the rebuild of
# rankings.services before it was made faster (issue #19); see fingerprint().
PINNED = "6253a3cd52f595341616118565f48544253c643b4fadb3b6c00c8f888d900bcd"


def build() -> tuple[dict[int, int], dict[int, str]]:
    """The seeded results; answers each player's index by pk and each event's slug by pk."""
    rng = random.Random(1919)
    players = [PlayerFactory() for _ in range(30)]
    day = dt.date(2025, 1, 4)
    events = []
    for n in range(8):
        # events 3 and 4 on one day (ordered by slug); event 6 is not rated
        when = day + dt.timedelta(days=7 * (n if n < 4 else n - 1))
        events.append(Event.objects.create(
            name=f"Pinned {n}", slug=f"pinned-{n}", venue="Ljubljana", starts_on=when,
            ends_on=when, ruleset_code=RULESET, ruleset_mode="tri+1", seating_system="random",
            planned_rounds=3, status=Event.Status.FINISHED, is_public=True, rated=n != 6))
    for event in events:
        field = rng.sample(players, rng.randrange(14, 23))
        Registration.objects.bulk_create([Registration(event=event, player=p, start_number=i)
                                          for i, p in enumerate(field, start=1)])
        for number in (1, 2, 3):
            status = Round.Status.DRAFT if (event.slug, number) == ("pinned-5", 3) \
                else Round.Status.CLOSED
            rnd = Round.objects.create(event=event, number=number, status=status,
                                       seating_system="random", seed=number)
            seats = [str(s) for s in rng.sample(range(1, len(field) + 1), len(field))]
            if number == 2:
                seats.append("99")  # a seat nobody is registered with
            sizes, left = [], len(seats)
            while left:
                size = min(left, rng.choice((4, 4, 4, 3, 2)))
                sizes.append(size)
                left -= size
            start = 0
            for t, size in enumerate(sizes, start=1):
                table = Table.objects.create(round=rnd, number=t)
                ids = seats[start:start + size]
                start += size
                totals = {p: rng.randrange(-40, 41, 20) for p in ids}
                if t == 2:
                    totals.pop(ids[-1])  # a missing total counts as 0
                if t == 3:
                    totals[ids[0]] = str(totals[ids[0]])  # a total stored as text
                status = Scorecard.Status.OPEN if t == 4 and number == 1 else (
                    Scorecard.Status.VERIFIED if t % 2 else Scorecard.Status.CONFIRMED)
                Scorecard.objects.create(table=table, ruleset_code=RULESET,
                                         ruleset_mode="tri+1", player_ids=ids, status=status,
                                         totals=totals)
    return ({p.pk: i for i, p in enumerate(players)}, {e.pk: e.slug for e in events})


def fingerprint(index: dict[int, int], slugs: dict[int, str]) -> str:
    rows = sorted(
        (index[s.player_id], slugs[s.event_id], s.family, s.played_on.isoformat(),
         s.mu.hex(), s.sigma.hex(), s.conservative.hex(), s.tables, s.event_tables)
        for s in RatingStep.objects.all())
    rows += sorted(
        (index[r.player_id], r.family, r.mu.hex(), r.sigma.hex(), r.conservative.hex(),
         None if r.previous_conservative is None else r.previous_conservative.hex(),
         r.tables, r.events, r.last_played_on.isoformat())
        for r in Rating.objects.all())
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def test_the_ratings_of_fixed_results_are_the_pinned_floats():
    index, slugs = build()
    counts = services.ratings_rebuild("slovenian")
    assert counts["events"] == 7 and counts["players"] == 30
    assert fingerprint(index, slugs) == PINNED
    # and a second rebuild finds nothing to change
    again = services.ratings_rebuild("slovenian")
    assert (again["created"], again["changed"], again["deleted"]) == (0, 0, 0)
    assert fingerprint(index, slugs) == PINNED
