"""The random system: a draw, and in later rounds a draw that avoids repeat meetings.

Seed 001 (Steirischer Tarockcup, "Wie werden die Spieler an die einzelnen Tische gesetzt?"):
"Es entscheidet ein Zufallsgenerator." Three rounds are played ("Es werden 3 Runden
gespielt."), and the point of the later rounds is to meet new opponents, so a later round
starts from a fresh draw and then swaps players until no single swap lowers the number of
pairs who have already met (see `optimise`).
"""

from __future__ import annotations

import random
from typing import Any

from .layout import short_table_notes, split, table_sizes
from .meetings import from_history
from .notes import counted, note
from .optimise import optimise_round
from .request import SeatingRequest

WALK_STEPS_PER_PLAYER = 10
WALK_STEPS_LIMIT = 5000


def seat_random(request: SeatingRequest) -> dict[str, Any]:
    rng = random.Random(request.seed)
    order = sorted(request.player_ids)
    rng.shuffle(order)
    sizes = table_sizes(len(order), request.table_size, request.min_table_size)
    tables = split(order, sizes)
    meetings = from_history(request.history)
    notes = [note("random_draw", "the tables are drawn at random, as the Tarockcup rules say "
                  "(“a random generator decides”)")]
    if request.history:
        steps = min(WALK_STEPS_LIMIT, WALK_STEPS_PER_PLAYER * len(order))
        tables = optimise_round(tables, meetings, rng, steps)
        notes.append(note("random_swapped", "players were swapped after the draw to avoid meeting earlier "
                          "opponents"))
    repeats = meetings.repeat_pairs(tables)
    if repeats:
        notes.append(note("random_repeats", counted(repeats, "{repeats} pair of players meets again: no single "
                                                             "swap of two players avoids it",
                                                    "{repeats} pairs of players meet again: no single swap of "
                                                    "two players avoids it"), repeats=repeats))
    notes.extend(short_table_notes(tables, request.table_size))
    return {"tables": tables, "byes": [], "eliminated": [], "repeat_pairs": repeats, "notes": notes}
