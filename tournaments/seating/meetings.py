"""Who has already sat with whom: meeting counts built from earlier rounds.

Used by the generators (the checker counts meetings on its own). A pair is stored once per
player, both ways, so that the cost of seating a player at a table is a quick lookup.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable


class Meetings:
    """How many times each pair of players has sat at the same table."""

    def __init__(self) -> None:
        self._count: dict[str, dict[str, int]] = defaultdict(dict)

    def add_table(self, table: Iterable[str], times: int = 1) -> None:
        players = list(table)
        for i, a in enumerate(players):
            row_a = self._count[a]
            for b in players[i + 1:]:
                row_a[b] = row_a.get(b, 0) + times
                row_b = self._count[b]
                row_b[a] = row_b.get(a, 0) + times

    def add_round(self, tables: Iterable[Iterable[str]], times: int = 1) -> None:
        for table in tables:
            self.add_table(table, times)

    def count(self, a: str, b: str) -> int:
        row = self._count.get(a)
        return row.get(b, 0) if row else 0

    def met(self, a: str, b: str) -> bool:
        return self.count(a, b) > 0

    def repeat_pairs(self, tables: Iterable[Iterable[str]]) -> int:
        """Pairs seated together in `tables` who have met before."""
        repeats = 0
        for table in tables:
            players = list(table)
            for i, a in enumerate(players):
                for b in players[i + 1:]:
                    if self.met(a, b):
                        repeats += 1
        return repeats


def from_history(history: Iterable[Iterable[Iterable[str]]]) -> Meetings:
    meetings = Meetings()
    for round_tables in history:
        meetings.add_round(round_tables)
    return meetings
