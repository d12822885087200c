"""The league system: a whole season's schedule of one division at once.

Seed 002 §4.2: "Ligo praviloma igra 28 ali 32 igralcev" and "Organizator izžreba razvrstitve
tekem" (seed 000 §4.2: "Ligo praviloma igra 32 igralcev"). The goal is that players meet as
many different opponents as possible: with 28 players (7 tables) 9 matchdays let every pair
meet exactly once, with 32 players (8 tables) at most 9 matchdays avoid every repeat with the
construction used here (10 would need a resolvable packing that no search here finds).

How a schedule is made, deterministically from the seed:
1. Where an algebraic construction exists (`designs`: 28 players, or 16, 32, 64 ...), its
   rounds are used, with the players assigned to its points by a seeded draw.
2. Further matchdays are drawn one by one and improved by swaps against everything so far.
3. Passes over the whole season re-optimise each matchday against all the others (and the
   `history`), ending when no single swap inside any matchday lowers the repeat count.
`repeat_pairs` counts every meeting of a pair after its first, the history included.
"""

from __future__ import annotations

import random
from typing import Any

from .designs import known_rounds
from .layout import short_table_notes, split, table_sizes
from .meetings import Meetings, from_history
from .optimise import optimise_round
from .request import SeatingRequest

WALK_STEPS_PER_PLAYER = 10
WALK_STEPS_LIMIT = 3000
IMPROVEMENT_PASSES = 6
LEFT_OUT_TRIES = 4


def season_repeats(history: tuple, rounds: list[list[list[str]]]) -> int:
    """Meetings in `rounds` of pairs who had already met (in history or an earlier matchday)."""
    meetings = from_history(history)
    repeats = 0
    for tables in rounds:
        repeats += meetings.repeat_pairs(tables)
        meetings.add_round(tables)
    return repeats


def _descend_all(rounds: list[list[list[str]]], meetings: Meetings, rng: random.Random,
                 walk_steps: int) -> bool:
    """One pass re-optimising every matchday against the others; True if anything changed."""
    changed = False
    for index in sorted(range(len(rounds)), key=lambda _: rng.random()):
        meetings.add_round(rounds[index], times=-1)
        before = meetings.repeat_pairs(rounds[index])
        improved = optimise_round(rounds[index], meetings, rng, walk_steps)
        if meetings.repeat_pairs(improved) < before:
            rounds[index] = improved
            changed = True
        meetings.add_round(rounds[index])
    return changed


def _schedule(request: SeatingRequest, construction: tuple, chosen: list[int],
              sizes: list[int]) -> list[list[list[str]]]:
    rng = random.Random(request.seed)
    players = sorted(request.player_ids)
    order = list(players)
    rng.shuffle(order)
    rounds: list[list[list[str]]] = []
    for index in chosen:
        tables = [[order[point] for point in block] for block in construction[index]]
        rng.shuffle(tables)
        rounds.append(tables)

    meetings = from_history(request.history)
    for tables in rounds:
        meetings.add_round(tables)
    steps = min(WALK_STEPS_LIMIT, WALK_STEPS_PER_PLAYER * len(players))
    while len(rounds) < request.rounds:
        draw = list(players)
        rng.shuffle(draw)
        tables = optimise_round(split(draw, sizes), meetings, rng, steps)
        meetings.add_round(tables)
        rounds.append(tables)

    if season_repeats(request.history, rounds):
        for _ in range(IMPROVEMENT_PASSES):
            if not _descend_all(rounds, meetings, rng, steps):
                break
        # The walk above stops after a fixed effort; these plain descents make sure that no
        # single swap inside any matchday can lower the total, whatever the others do.
        while _descend_all(rounds, meetings, rng, 0):
            pass
    return rounds


def seat_league(request: SeatingRequest) -> dict[str, Any]:
    players = sorted(request.player_ids)
    count = len(players)
    sizes = table_sizes(count, request.table_size, request.min_table_size)
    notes: list[str] = []

    construction = ()
    if all(size == request.table_size for size in sizes):
        construction = known_rounds(count, request.table_size)
    rng = random.Random(request.seed)
    available = list(range(len(construction)))
    rng.shuffle(available)
    if request.rounds <= len(construction):
        candidates = [available[:request.rounds]]
    else:
        # Beyond the construction the searched matchdays find few fresh pairs; leaving one
        # constructed round out gives the search room (32 players, 10 matchdays: 22-24
        # repeats with all 9 constructed rounds, 16 with 8). A few seeded choices of the
        # round left out are tried and the schedule with the fewest repeats is kept.
        candidates = [available]
        for left_out in available[:LEFT_OUT_TRIES]:
            candidates.append([i for i in available if i != left_out])
    # Every seat pair beyond the number of distinct pairs must be a repeat: a schedule that
    # reaches this bound cannot be beaten, so the remaining candidates are skipped.
    pair_slots = request.rounds * sum(size * (size - 1) // 2 for size in sizes)
    lower_bound = max(0, pair_slots - count * (count - 1) // 2)
    best_rounds, best_repeats, best_used = None, None, 0
    for chosen in candidates:
        rounds = _schedule(request, construction, chosen, sizes)
        repeats = season_repeats(request.history, rounds)
        if best_repeats is None or repeats < best_repeats:
            best_rounds, best_repeats, best_used = rounds, repeats, len(chosen)
        if repeats <= lower_bound:
            break
    rounds, repeats = best_rounds, best_repeats
    if best_used:
        name = "the Hermitian unital (a resolvable 2-(28,4,1) design)" if count == 28 else \
            "cosets of a partial line spread of GF(2)^m"
        searched = request.rounds - best_used
        notes.append(f"{best_used} matchdays come from {name}"
                     + (f"; {searched} were searched" if searched else ""))

    pairs_total = count * (count - 1) // 2
    met = set()
    for tables in rounds:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    met.add((min(a, b), max(a, b)))
    notes.append(f"{request.rounds} matchdays: {len(met)} of {pairs_total} pairs meet, "
                 f"{repeats} repeat meetings")
    for number, tables in enumerate(rounds, start=1):
        for note in short_table_notes(tables, request.table_size):
            notes.append(f"matchday {number}: {note}")
    return {"rounds": rounds, "byes": [], "eliminated": [], "repeat_pairs": repeats, "notes": notes}
