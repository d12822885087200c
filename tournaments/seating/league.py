"""The league system: a whole season's schedule of one division at once.

Seed 002 §4.2: "Ligo praviloma igra 28 ali 32 igralcev" and "Organizator izžreba razvrstitve
tekem" (seed 000 §4.2: "Ligo praviloma igra 32 igralcev"). A season is fair when no two
players meet more often than they must: first the largest meeting count is as small as it can
be made, then the number of repeat meetings.

How a schedule is made, deterministically from the seed:
1. Where a construction exists (`designs`: every v ≡ 4 (mod 12) from 16 to 88, 24/36/48/60,
   32, and fields up to three short of those), its matchdays come first, the players drawn
   onto its points; more matchdays than it has are further copies of it under fresh draws.
2. Other matchdays (fields without a construction: 12 and 53-56 players) start as seeded
   draws, each improved by a short swap walk (`optimise`) against the matchdays before it.
3. A tabu search (`tabu`) then improves the whole season, keeping the wishes of the request:
   absentees per matchday (the tables of that matchday are laid out for those present),
   officials' fixed tables, and "not two players of one club at a table" (a soft wish with
   the request's `club_weight` against one repeat meeting).
4. The matchdays are put in the order that keeps the season free of repeats as long as
   possible, and the result carries the bound of the field (`bounds`) and how far the
   schedule is from it.
`repeat_pairs` counts every meeting of a pair after its first, the history included.
"""

from __future__ import annotations

import random
from typing import Any

from .bounds import no_repeat_bound, schedule_distance
from .designs import construction
from .errors import ErrorCollector
from .layout import short_table_notes, table_sizes
from .meetings import from_history
from .notes import counted, in_matchday, note
from .optimise import optimise_round
from .request import SeatingRequest
from .tabu import REPEAT_COST, Progress, Season, search

STEPS_PER_PLAYER_MATCHDAY = 12
STEPS_LIMIT = 5_000
DRAW_WALK_PER_PLAYER = 10  # walk steps that improve a drawn matchday against those before it


def season_repeats(history: tuple, rounds: list[list[list[str]]]) -> int:
    """Meetings in `rounds` of pairs who had already met (in history or an earlier matchday)."""
    meetings = from_history(history)
    repeats = 0
    for tables in rounds:
        repeats += meetings.repeat_pairs(tables)
        meetings.add_round(tables)
    return repeats


def _fixed_by_matchday(request: SeatingRequest, sizes: list[list[int]]) -> list[dict[str, int]]:
    """{player: table index} for every matchday, after checking the tables exist and fit."""
    fixed: list[dict[str, int]] = [{} for _ in sizes]
    errors = ErrorCollector()
    for seat in request.fixed_seats:
        for number in seat.matchdays or range(1, request.rounds + 1):
            layout = sizes[number - 1]
            if seat.table > len(layout):
                errors.add("fixed_seats", "no_such_table", f"matchday {number} has {len(layout)} tables, so "
                           f"player {seat.player} cannot keep table {seat.table}", seat.player,
                           matchday=number, tables=len(layout), table=seat.table)
                continue
            fixed[number - 1][seat.player] = seat.table - 1
    for number, seats in enumerate(fixed, start=1):
        for table in set(seats.values()):
            held = sorted(p for p, t in seats.items() if t == table)
            if len(held) > sizes[number - 1][table]:
                errors.add("fixed_seats", "table_overfull", f"matchday {number}: {len(held)} players are fixed "
                           f"at table {table + 1}, which seats {sizes[number - 1][table]}", held[0],
                           matchday=number, count=len(held), table=table + 1, seats=sizes[number - 1][table])
    errors.raise_if_any()
    return fixed


def _arrange(order: list[str], layout: list[int], fixed: dict[str, int]) -> list[list[str]]:
    """Cut `order` into tables of `layout`, the fixed players first put at their tables."""
    tables: list[list[str]] = [[] for _ in layout]
    for player in sorted(fixed):
        tables[fixed[player]].append(player)
    rest = iter(p for p in order if p not in fixed)
    for index, size in enumerate(layout):
        while len(tables[index]) < size:
            tables[index].append(next(rest))
    return tables


def _repair(tables: list[list[str]], layout: list[int]) -> list[list[str]]:
    """A constructed matchday without its absentees, brought to the layout of those present
    with as few moves as possible: the smallest tables are broken up first, then the largest
    give up their surplus, and the players so freed fill the tables that are short."""
    tables = sorted((t for t in tables if t), key=len, reverse=True)
    target = sorted(layout, reverse=True)
    pool: list[str] = []
    while len(tables) > len(target):
        pool.extend(tables.pop())
    for table, size in zip(tables, target, strict=False):
        while len(table) > size:
            pool.append(table.pop())
    tables.extend([] for _ in range(len(target) - len(tables)))
    for table, size in zip(tables, target, strict=True):
        while len(table) < size:
            table.append(pool.pop())
    return tables


def _move_tables(tables: list[list[str]], layout: list[int], fixed: dict[str, int]) -> list[list[str]] | None:
    """The constructed tables renumbered so that every fixed player sits at his table, or None
    when two fixed players share a table of the design or a table would change its size."""
    wanted: dict[int, int] = {}
    for player, index in fixed.items():
        source = next(i for i, table in enumerate(tables) if player in table)
        if wanted.setdefault(source, index) != index or len(tables[source]) != layout[index]:
            return None
    if len(set(wanted.values())) < len(wanted):
        return None
    placed: list[list[str] | None] = [None] * len(layout)
    for source, index in wanted.items():
        placed[index] = tables[source]
    rest = [t for i, t in enumerate(tables) if i not in wanted]
    for index, size in enumerate(layout):
        if placed[index] is None:
            match = next((t for t in rest if len(t) == size), None)
            if match is None:
                return None
            rest.remove(match)
            placed[index] = match
    return [t for t in placed if t is not None]


def _start(request: SeatingRequest, rng: random.Random, layouts: list[list[int]],
           fixed: list[dict[str, int]]) -> tuple[list[list[list[str]]], str, int]:
    """The season before the search: constructed matchdays where a design fits, draws else."""
    players = sorted(request.player_ids)
    design, source = (), ""
    if request.table_size == 4:
        design, source, _left_out = construction(len(players))
        # A design serves whenever its tables fit the smallest table asked for: a field that
        # is a multiple of four seats only fours (28, 32, 40, 52 with a smallest table of 4).
        if design and min(len(t) for day in design for t in day) < request.min_table_size:
            design, source = (), ""
    used = 0
    rounds: list[list[list[str]]] = []
    copies = -(-request.rounds // len(design)) if design else 0
    order_of_copies = [list(range(len(design))) for _ in range(copies)]
    for copy in order_of_copies:
        rng.shuffle(copy)
    pending = [(c, i) for c in range(copies) for i in order_of_copies[c]]
    meetings = from_history(request.history)
    draws = {}
    for c in range(copies):
        draw = list(players)
        rng.shuffle(draw)
        draws[c] = draw
    for number in range(1, request.rounds + 1):
        present = request.present(number)
        layout = layouts[number - 1]
        if pending:
            c, index = pending.pop(0)
            draw = draws[c]
            away = set(players) - set(present)
            tables = _repair([[draw[point] for point in table if draw[point] not in away]
                              for table in design[index]], layout)
            if fixed[number - 1]:
                tables = _move_tables(tables, layout, fixed[number - 1]) or \
                    _arrange([p for t in tables for p in t], layout, fixed[number - 1])
            if not away and not fixed[number - 1]:
                used += 1
        else:
            order = list(present)
            rng.shuffle(order)
            tables = _arrange(order, layout, fixed[number - 1])
            if not fixed[number - 1]:
                # A drawn matchday is first seated to meet few players again after the
                # matchdays before it: the search then starts near a good season instead of
                # spending its steps to get there from a random one (53-56 players).
                tables = optimise_round(tables, meetings, rng, DRAW_WALK_PER_PLAYER * len(present))
        meetings.add_round(tables)
        rounds.append(tables)
    return rounds, source, used


def _cost_floor(request: SeatingRequest, layouts: list[list[int]], count: int) -> int:
    """A cost no season can go below: every seat pair beyond the number of distinct pairs is a
    repeat (only where nothing else weighs: no history, no clubs, at most two meetings)."""
    seat_pairs = sum(s * (s - 1) // 2 for layout in layouts for s in layout)
    pairs = count * (count - 1) // 2
    if request.history or request.clubs() or seat_pairs > 2 * pairs:
        return 0
    return REPEAT_COST * max(0, seat_pairs - pairs)


def _order_matchdays(rounds: list[list[list[str]]], history: tuple, rng: random.Random) -> list[int]:
    """An order of the matchdays that keeps the season free of repeats as long as possible:
    each next matchday is the one that repeats fewest meetings after those already placed."""
    meetings = from_history(history)
    left = list(range(len(rounds)))
    order = []
    while left:
        scored = sorted(left, key=lambda i: (meetings.repeat_pairs(rounds[i]), i))
        choice = scored[0]
        order.append(choice)
        left.remove(choice)
        meetings.add_round(rounds[choice])
    return order


def seat_league(request: SeatingRequest, progress: Progress | None = None) -> dict[str, Any]:
    players = sorted(request.player_ids)
    index = {p: i for i, p in enumerate(players)}
    layouts = [table_sizes(len(request.present(n)), request.table_size, request.min_table_size)
               for n in range(1, request.rounds + 1)]
    fixed = _fixed_by_matchday(request, layouts)
    rng = random.Random(request.seed)
    start, source, used = _start(request, rng, layouts, fixed)

    met_before: dict[tuple[int, int], int] = {}
    for tables in request.history:
        for table in tables:
            ids = [index[p] for p in table if p in index]
            for i, a in enumerate(ids):
                for b in ids[i + 1:]:
                    key = (min(a, b), max(a, b))
                    met_before[key] = met_before.get(key, 0) + 1
    clubs = request.clubs()
    club_of = {}
    club_ids = [club_of.setdefault(clubs[p], len(club_of)) if p in clubs else None for p in players]
    locked = [{index[p] for p in day} for day in fixed]
    season = Season(len(players), [[[index[p] for p in t] for t in tables] for tables in start],
                    locked, met_before, club_ids, round(REPEAT_COST * request.club_weight))
    steps = min(STEPS_LIMIT, STEPS_PER_PLAYER_MATCHDAY * len(players) * request.rounds)
    search(season, rng, steps, floor=_cost_floor(request, layouts, len(players)), progress=progress)
    rounds = [[[players[p] for p in t] for t in tables] for tables in season.days]
    if not any(fixed) and not request.absences:
        # Matchdays with absentees or fixed tables keep their place and table numbers;
        # otherwise the matchdays are ordered so that the season runs without a repeat as
        # long as it can, full tables first in each.
        order = _order_matchdays(rounds, request.history, rng)
        rounds = [sorted(rounds[i], key=lambda t: -len(t)) for i in order]
    repeats = season_repeats(request.history, rounds)

    notes: list[dict[str, Any]] = []
    if used:
        notes.append(note("league_construction", "{used} matchdays come from a construction ({source}); "
                          "the tabu search kept or improved them", used=used, source=source))
    pairs_total = len(players) * (len(players) - 1) // 2
    met = {(min(a, b), max(a, b)) for tables in rounds for t in tables for i, a in enumerate(t) for b in t[i + 1:]}
    notes.append(note("league_summary",
                      counted(request.rounds, "{rounds} matchday: {met} of {pairs} pairs meet",
                              "{rounds} matchdays: {met} of {pairs} pairs meet") + ", "
                      + counted(repeats, "{repeats} repeat meeting", "{repeats} repeat meetings"),
                      rounds=request.rounds, met=len(met), pairs=pairs_total, repeats=repeats))
    bound = no_repeat_bound(len(players), request.table_size, request.min_table_size)
    distance = schedule_distance(rounds, request.history, len(players), request.table_size,
                                 request.min_table_size)
    notes.extend([bound, distance])
    if clubs:
        together = sum(1 for tables in rounds for t in tables for i, a in enumerate(t) for b in t[i + 1:]
                       if clubs.get(a) is not None and clubs.get(a) == clubs.get(b))
        notes.append(note("league_clubs", counted(together, "two players of one club sit at one table "
                                                            "{together} time",
                                                  "two players of one club sit at one table {together} times"),
                          together=together))
    for number, tables in enumerate(rounds, start=1):
        away = len(players) - sum(len(t) for t in tables)
        if away:
            notes.append(in_matchday(number, note("league_absent", counted(away, "{count} player is absent",
                                                                           "{count} players are absent"),
                                                  count=away)))
        for short in short_table_notes(tables, request.table_size):
            notes.append(in_matchday(number, short))
    return {"rounds": rounds, "byes": [], "eliminated": [], "repeat_pairs": repeats, "notes": notes,
            "bound": bound, "distance": distance}
