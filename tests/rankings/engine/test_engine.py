"""The rating engine alone (pure Python): places with ties, the order of play, determinism,
floats pinned bit for bit, and its direct path into openskill answering what openskill's public
`rate` answers."""

from __future__ import annotations

import hashlib
import math
import random

from openskill.models import PlackettLuce

from rankings import engine
from rankings.engine import RatedEvent, RatedTable, places, rate


def test_equal_scores_share_the_better_place():
    assert places([30, 10, 10, -50]) == [1, 2, 2, 4]
    assert places([5, 5, 5]) == [1, 1, 1]
    assert places([3, 2, 1]) == [1, 2, 3]


def test_the_winner_gains_the_last_loses_and_equal_places_rate_alike():
    current, steps = rate([RatedEvent("e", (RatedTable(("a", "b", "c", "d"), (30, 10, 10, -50)),))])
    assert current["a"].mu > current["b"].mu == current["c"].mu > current["d"].mu
    assert current["b"].sigma == current["c"].sigma
    assert all(r.sigma < 25 / 3 and r.tables == 1 and r.events == 1 for r in current.values())
    assert [s.player for s in steps] == ["a", "b", "c", "d"]


def test_a_table_of_one_rates_nobody():
    current, steps = rate([RatedEvent("e", (RatedTable(("a",), (0,)),))])
    assert current == {} and steps == []


def test_the_same_results_give_the_same_ratings_and_the_order_of_play_matters():
    first = RatedEvent(1, (RatedTable(("a", "b", "c"), (9, 0, -9)),))
    second = RatedEvent(2, (RatedTable(("c", "a", "b"), (9, 0, -9)),))
    assert rate([first, second]) == rate([first, second])
    assert rate([first, second])[0] != rate([second, first])[0]


def test_players_who_never_met_the_changed_table_keep_their_ratings():
    table = RatedTable(("a", "b", "c", "d"), (30, 10, 0, -40))
    elsewhere = RatedTable(("e", "f", "g", "h"), (9, 3, 0, -12))
    later = RatedTable(("a", "e"), (5, 0))
    before, _ = rate([RatedEvent(1, (table, elsewhere)), RatedEvent(2, (later,))])
    corrected = RatedTable(("b", "a", "c", "d"), (30, 10, 0, -40))
    after, _ = rate([RatedEvent(1, (corrected, elsewhere)), RatedEvent(2, (later,))])
    changed = {p for p in before if before[p] != after[p]}
    assert changed == {"a", "b", "e"}


# sha256 of the engine's answer to seeded_events() (floats as float.hex), as the engine gave
# it before it was made faster (issue #19): the same results must give the same floats.
PINNED = "6df6bbbd963223a8bbb7c6f8ba7d78558427842d23244f7da294aa1d5adb2b43"


def seeded_events() -> list[RatedEvent]:
    """Forty players over twelve events of tables of two to four, with many equal scores."""
    rng = random.Random(19)
    events = []
    for key in range(12):
        field = rng.sample(range(40), rng.randrange(12, 37))
        tables = []
        for _round in range(3):
            rng.shuffle(field)
            start = 0
            while start < len(field):
                size = rng.choice((4, 4, 4, 3, 2, 1))
                seats = field[start:start + size]
                start += size
                scores = sorted((rng.randrange(-60, 61, 30) for _ in seats), reverse=True)
                tables.append(RatedTable(tuple(f"p{p}" for p in seats), tuple(scores)))
        events.append(RatedEvent(key, tuple(tables)))
    return events


def fingerprint(current, steps) -> str:
    rows = [(p, r.mu.hex(), r.sigma.hex(), r.conservative.hex(), r.tables, r.events)
            for p, r in sorted(current.items())]
    rows += [(s.event, s.player, s.rating.mu.hex(), s.rating.sigma.hex(), s.rating.tables,
              s.rating.events, s.event_tables) for s in steps]
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def test_seeded_results_give_the_pinned_floats():
    current, steps = rate(seeded_events())
    assert len(current) == 40 and len({s.event for s in steps}) == 12
    assert fingerprint(current, steps) == PINNED


def test_the_public_rate_of_openskill_gives_the_same_floats_as_the_direct_path():
    assert fingerprint(*rate(seeded_events(), rater=engine.public_rater)) == PINNED
    assert engine.table_rater(PlackettLuce()).__qualname__.startswith("direct_rater")


def test_a_direct_path_that_answers_other_floats_or_fails_is_not_used(monkeypatch):
    real = engine.direct_rater

    def off_by_a_bit(model):
        inner = real(model)

        def rate_table(ratings, ranks):
            after = inner(ratings, ranks)
            after[-1].sigma = math.nextafter(after[-1].sigma, 0)
            return after
        return rate_table

    def missing(model):
        raise AttributeError("no _compute in this openskill")

    for broken in (off_by_a_bit, missing):
        monkeypatch.setattr(engine, "direct_rater", broken)
        assert engine.table_rater(PlackettLuce()).__qualname__.startswith("public_rater")
        assert fingerprint(*rate(seeded_events())) == PINNED
