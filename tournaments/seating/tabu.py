"""Tabu search over a whole league season: swaps of two players inside one matchday.

The cost of a season is lexicographic, as the league asks for (docs/seating.md): first the
largest number of times any pair meets, then how many meetings repeat an earlier one, with
the soft wish "two players of one club not at one table" weighed against the repeats. It is
one integer: the k-th meeting of a pair (k ≥ 2) costs a tier that outweighs every cost of
the tiers below it put together, and a pair of one club at a table costs `club_cost` in the
lowest tier (a repeat meeting costs `REPEAT_COST` there).

The search follows Dotú and Van Hentenryck's tabu search for the social golfer problem
(CPAIOR 2005): a player who sits with someone he meets more than once (or with a clubmate)
is in conflict; each step weighs the swaps of a few sampled conflicting players with the
players at other tables of the same matchday that are not tabu (swapping back a player's
move is tabu for a few steps, unless it beats the best season seen) and takes the best of
them when it does not make the season worse, a worsening one only now and then
(`UPHILL`); after a stretch without progress the search restarts from the best season with
a few random swaps. Every choice comes from the caller's seeded RNG and the effort is
counted in steps, never in seconds, so that the same request always gives the same season. A final descent leaves a season in
which no single swap lowers the cost, which is what the independent checker verifies.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

REPEAT_COST = 1000  # the cost of one repeat meeting, in the lowest tier
SAMPLE = 6          # conflicting players whose swaps are weighed in one step
TENURE = (4, 10)    # steps a reversed move stays tabu (drawn in this range)
# How often the best swap of a step is taken when it makes the season worse. Taking it always
# (plain tabu search) lets a dense season drift around ten repeats above the best one seen,
# and the search never gets back down (53 players over 14 matchdays kept two repeats where
# none is needed); sideways swaps are always taken, so the search still crosses plateaus.
UPHILL = 0.03
REFRESH = 8         # steps between two listings of every conflict

Progress = Callable[[int, int], None]


class Season:
    """Matchdays of tables of player numbers 0..n-1, their meeting counts and the cost."""

    def __init__(self, players: int, matchdays: list[list[list[int]]], locked: Sequence[set[int]],
                 met_before: dict[tuple[int, int], int], clubs: Sequence[int | None], club_cost: int):
        self.n = players
        self.days = [[list(t) for t in tables] for tables in matchdays]
        self.locked = list(locked)
        self.count = [[0] * players for _ in range(players)]
        for (a, b), times in met_before.items():
            self.count[a][b] += times
            self.count[b][a] += times
        self.same = [[clubs[a] is not None and clubs[a] == clubs[b] and a != b for b in range(players)]
                     for a in range(players)]
        self.club_cost = club_cost
        seat_pairs = sum(len(t) * (len(t) - 1) // 2 for tables in matchdays for t in tables)
        deepest = len(matchdays) + max(met_before.values(), default=0) + 2
        # step[k]: what the (k+1)-th meeting of a pair costs; each tier outweighs all below.
        self.step = [0, REPEAT_COST]
        tier = seat_pairs * (REPEAT_COST + club_cost) + 1
        for _ in range(2, deepest + 1):
            self.step.append(tier)
            tier = tier * (seat_pairs + 1) + 1
        self.where = [[-1] * players for _ in self.days]
        for d, tables in enumerate(self.days):
            for t, table in enumerate(tables):
                for p in table:
                    self.where[d][p] = t
        for tables in self.days:
            self._add(tables, 1)
        self.cost = self._total(met_before)

    def _add(self, tables: list[list[int]], sign: int) -> None:
        count = self.count
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    count[a][b] += sign
                    count[b][a] += sign

    def _total(self, met_before: dict[tuple[int, int], int]) -> int:
        """The cost from scratch: every meeting in the season after the history's."""
        total = 0
        for a in range(self.n):
            for b in range(a + 1, self.n):
                before = met_before.get((a, b), 0)
                for k in range(before, self.count[a][b]):
                    total += self.step[k]
        for tables in self.days:
            for table in tables:
                for i, a in enumerate(table):
                    for b in table[i + 1:]:
                        if self.same[a][b]:
                            total += self.club_cost
        return total

    def delta(self, day: int, x: int, y: int) -> int:
        """The change of cost if x and y (at different tables of `day`) change places."""
        tables = self.days[day]
        a, b = tables[self.where[day][x]], tables[self.where[day][y]]
        count, same, club, meeting = self.count, self.same, self.club_cost, self.step.__getitem__
        change = 0
        row_x, row_y, same_x, same_y = count[x], count[y], same[x], same[y]
        for z in a:
            if z != x:
                change += meeting(row_y[z]) - meeting(row_x[z] - 1)
                if same_y[z]:
                    change += club
                if same_x[z]:
                    change -= club
        for z in b:
            if z != y:
                change += meeting(row_x[z]) - meeting(row_y[z] - 1)
                if same_x[z]:
                    change += club
                if same_y[z]:
                    change -= club
        return change

    def swap(self, day: int, x: int, y: int) -> None:
        change = self.delta(day, x, y)
        tables = self.days[day]
        ta, tb = self.where[day][x], self.where[day][y]
        a, b = tables[ta], tables[tb]
        self._add([a, b], -1)
        a[a.index(x)] = y
        b[b.index(y)] = x
        self._add([a, b], 1)
        self.where[day][x], self.where[day][y] = tb, ta
        self.cost += change

    def in_conflict(self, day: int, x: int) -> bool:
        table = self.days[day][self.where[day][x]]
        row, same = self.count[x], self.same[x]
        return any(z != x and (row[z] > 1 or same[z]) for z in table)

    def movable(self, day: int) -> list[int]:
        return sorted(p for table in self.days[day] for p in table if p not in self.locked[day])

    def snapshot(self) -> list[list[list[int]]]:
        return [[list(t) for t in tables] for tables in self.days]


def _restore(season: Season, days: list[list[list[int]]]) -> None:
    """Make the season equal to `days` (a snapshot of it) by swaps, keeping the counts."""
    for d, tables in enumerate(days):
        for t, table in enumerate(tables):
            for s, p in enumerate(table):
                here = season.days[d][t][s]
                if here == p:
                    continue
                if season.where[d][p] == t:
                    row = season.days[d][t]
                    i = row.index(p)
                    row[s], row[i] = p, here
                else:
                    season.swap(d, p, here)
                    row = season.days[d][t]
                    i = row.index(p)
                    row[s], row[i] = p, row[s]


def descend(season: Season) -> None:
    """Take improving swaps until no single swap inside any matchday lowers the cost."""
    improved = True
    while improved:
        improved = False
        for day in range(len(season.days)):
            players = season.movable(day)
            for i, x in enumerate(players):
                for y in players[i + 1:]:
                    if season.where[day][x] != season.where[day][y] and season.delta(day, x, y) < 0:
                        season.swap(day, x, y)
                        improved = True


def search(season: Season, rng: random.Random, steps: int, floor: int = 0,
           progress: Progress | None = None) -> None:
    """Tabu search for at most `steps` steps (fewer when the cost reaches `floor`); the
    season ends as the best one seen, after a final descent."""
    days = len(season.days)
    movable = [season.movable(d) for d in range(days)]
    if all(len(tables) < 2 for tables in season.days):
        steps = 0  # one table a matchday: nothing to swap
    best_cost, best = season.cost, season.snapshot()
    tabu: dict[tuple[int, int, int], int] = {}
    patience = max(200, 20 * season.n)
    since_best = 0
    report_every = max(1, steps // 50)
    conflicts: list[tuple[int, int]] = []
    for step in range(steps):
        if best_cost <= floor:
            break
        if progress and step % report_every == 0:
            progress(step, steps)
        if step % REFRESH == 0 or not conflicts:
            # Listing every conflict is the dearest part of a step, so the list is refreshed
            # now and then and a sample from it is checked again before use.
            conflicts = [(d, p) for d in range(days) for p in movable[d] if season.in_conflict(d, p)]
            if not conflicts:
                break
        sample = conflicts if len(conflicts) <= SAMPLE else rng.sample(conflicts, SAMPLE)
        sample = [(d, p) for d, p in sample if season.in_conflict(d, p)]
        choice, choice_delta, ties = None, None, 0
        for day, x in sample:
            table_x = season.where[day][x]
            for y in movable[day]:
                if season.where[day][y] == table_x:
                    continue
                change = season.delta(day, x, y)
                forbidden = tabu.get((day, x, season.where[day][y]), -1) > step or \
                    tabu.get((day, y, table_x), -1) > step
                if forbidden and season.cost + change >= best_cost:
                    continue
                if choice_delta is None or change < choice_delta:
                    choice, choice_delta, ties = (day, x, y), change, 1
                elif change == choice_delta:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        choice = (day, x, y)
        if choice is None or (choice_delta is not None and choice_delta > 0 and rng.random() >= UPHILL):
            continue
        day, x, y = choice
        tabu[(day, x, season.where[day][x])] = step + rng.randint(*TENURE)
        tabu[(day, y, season.where[day][y])] = step + rng.randint(*TENURE)
        season.swap(day, x, y)
        if season.cost < best_cost:
            best_cost, best, since_best = season.cost, season.snapshot(), 0
        else:
            since_best += 1
        if since_best >= patience:
            # Restart from the best season seen, shaken by a few random swaps.
            _restore(season, best)
            for _ in range(max(2, season.n // 8)):
                d = rng.randrange(days)
                if len(movable[d]) >= 2:
                    x, y = rng.sample(movable[d], 2)
                    if season.where[d][x] != season.where[d][y]:
                        season.swap(d, x, y)
            tabu.clear()
            since_best = 0
    _restore(season, best)
    descend(season)
    if progress:
        progress(steps, steps)
