"""How many tables a round needs and how many players sit at each.

Tables are filled in order with `table_size` players. When the count does not divide, the
missing seats are taken from the last tables: the last table goes down to `min_table_size`
before the one in front of it loses a seat. With four at a table and at least one allowed,
41 players give ten tables of four and an eleventh with one player, exactly the example of
seed 000 §4.1 b; with the usual minimum of three they give eight tables of four and three of
three ("a table of 3 plays without a resting player").
"""

from __future__ import annotations

from typing import Any

from .errors import refuse
from .notes import short_table


def table_sizes(player_count: int, table_size: int, min_table_size: int) -> list[int]:
    """Sizes of the tables, table 1 first; raises SeatingInvalid when no layout exists."""
    if player_count <= 0:
        refuse("players", "no_players", "there is nobody to seat")
    tables = -(-player_count // table_size)
    if tables * min_table_size > player_count:
        # Fewer tables would overfill one, more tables would leave even fewer per table.
        refuse("players", "cannot_seat",
               f"{player_count} players cannot sit at tables of {min_table_size} to "
               f"{table_size}: {tables} tables would need at least {tables * min_table_size}",
               count=player_count, smallest=min_table_size, largest=table_size, tables=tables,
               needed=tables * min_table_size)
    sizes = [table_size] * tables
    missing = tables * table_size - player_count
    index = tables - 1
    while missing:
        cut = min(missing, table_size - min_table_size)
        sizes[index] -= cut
        missing -= cut
        index -= 1
    return sizes


def split(ordered: list[str], sizes: list[int]) -> list[list[str]]:
    """Cut an ordered list of players into consecutive tables of the given sizes."""
    tables: list[list[str]] = []
    start = 0
    for size in sizes:
        tables.append(list(ordered[start:start + size]))
        start += size
    return tables


def short_table_notes(tables: list[list[str]], table_size: int) -> list[dict[str, Any]]:
    """A note for every table that is not full."""
    total = sum(len(t) for t in tables)
    return [short_table(number, len(table), total, table_size)
            for number, table in enumerate(tables, start=1) if len(table) < table_size]
