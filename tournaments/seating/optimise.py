"""Swap search that lowers repeat meetings in one round while keeping the draw random.

The cost of a round is the number of pairs at its tables who met before (in `meetings`).
A swap exchanges two players at different tables; table sizes never change. The search
walks from a random draw: it repeatedly takes a player who sits with someone he has met,
makes the best swap for him (a sideways swap when nothing is better, now and then a worse
one, so that the walk does not stick), and ends with a plain descent, so that the result
is always swap-optimal: no single swap of two players lowers the cost. That last property is
what the independent checker verifies. Every choice comes from the caller's seeded RNG.
"""

from __future__ import annotations

import random

from .meetings import Meetings

WORSE_MOVE_PROBABILITY = 0.05


def _cost_at(player: str, table: list[str], meetings: Meetings, skip: str | None = None) -> int:
    return sum(1 for other in table if other != player and other != skip and meetings.met(player, other))


def _swap_delta(p: str, a: list[str], q: str, b: list[str], meetings: Meetings) -> int:
    before = _cost_at(p, a, meetings) + _cost_at(q, b, meetings)
    after = _cost_at(p, b, meetings, skip=q) + _cost_at(q, a, meetings, skip=p)
    return after - before


def round_cost(tables: list[list[str]], meetings: Meetings) -> int:
    return meetings.repeat_pairs(tables)


def optimise_round(tables: list[list[str]], meetings: Meetings, rng: random.Random,
                   walk_steps: int) -> list[list[str]]:
    """Return the round with (locally) fewest repeat meetings; `tables` is not modified."""
    tables = [list(t) for t in tables]
    where = {p: i for i, t in enumerate(tables) for p in t}
    players = sorted(where)

    def conflicted() -> list[str]:
        return [p for p in players if _cost_at(p, tables[where[p]], meetings) > 0]

    def apply(p: str, q: str) -> None:
        i, j = where[p], where[q]
        tables[i][tables[i].index(p)] = q
        tables[j][tables[j].index(q)] = p
        where[p], where[q] = j, i

    if len(tables) < 2:
        return tables

    cost = round_cost(tables, meetings)
    best_cost, best_tables = cost, [list(t) for t in tables]
    for _ in range(walk_steps):
        if best_cost == 0:
            break
        candidates = conflicted()
        if not candidates:
            break
        p = rng.choice(candidates)
        a = tables[where[p]]
        best_delta = None
        best: list[str] = []
        for q in players:
            if where[q] == where[p]:
                continue
            delta = _swap_delta(p, a, q, tables[where[q]], meetings)
            if best_delta is None or delta < best_delta:
                best_delta, best = delta, [q]
            elif delta == best_delta:
                best.append(q)
        if best_delta is None:
            break
        if best_delta <= 0 or rng.random() < WORSE_MOVE_PROBABILITY:
            apply(p, rng.choice(best))
            cost += best_delta
            if cost < best_cost:
                best_cost, best_tables = cost, [list(t) for t in tables]

    # The walk may have wandered uphill at the end: go on from the best round it saw.
    tables = best_tables
    where.clear()
    where.update({p: i for i, t in enumerate(tables) for p in t})

    improved = True
    while improved:
        improved = False
        for p in conflicted():
            a = tables[where[p]]
            for q in players:
                if where[q] != where[p] and _swap_delta(p, a, q, tables[where[q]], meetings) < 0:
                    apply(p, q)
                    improved = True
                    break
    return tables
