"""The fixed system: the organiser's own table list, checked and passed through unchanged.

Every available player must sit at exactly one table, nobody else may, and every table must
hold from `min_table_size` to `table_size` players. Nothing is moved: a wrong list is
refused with every problem named, never silently repaired.
"""

from __future__ import annotations

from typing import Any

from .errors import ErrorCollector
from .layout import short_table_notes
from .meetings import from_history
from .notes import note
from .request import SeatingRequest


def seat_fixed(request: SeatingRequest) -> dict[str, Any]:
    errors = ErrorCollector()
    available = set(request.player_ids)
    seated: dict[str, int] = {}
    for index, table in enumerate(request.tables or ()):
        if not request.min_table_size <= len(table) <= request.table_size:
            errors.add(f"tables[{index}]", "bad_table_size",
                       f"table {index + 1} has {len(table)} players; allowed are "
                       f"{request.min_table_size} to {request.table_size}", table=index + 1, count=len(table),
                       smallest=request.min_table_size, largest=request.table_size)
        for player_id in table:
            if player_id not in available:
                errors.add(f"tables[{index}]", "unknown_player",
                           f"player {player_id} at table {index + 1} is not among the available players",
                           player=player_id, table=index + 1)
            if player_id in seated:
                errors.add(f"tables[{index}]", "duplicate_player",
                           f"player {player_id} sits at table {seated[player_id] + 1} and at table {index + 1}",
                           player=player_id, first=seated[player_id] + 1, second=index + 1)
            else:
                seated[player_id] = index
    for player_id in request.player_ids:
        if player_id not in seated:
            errors.add("tables", "player_not_seated",
                       f"player {player_id} is available but has no table", player=player_id)
    errors.raise_if_any()
    tables = [list(t) for t in request.tables or ()]
    notes = [note("fixed_list", "the organiser's own table list")]
    notes.extend(short_table_notes(tables, request.table_size))
    return {
        "tables": tables,
        "byes": [],
        "eliminated": [],
        "repeat_pairs": from_history(request.history).repeat_pairs(tables),
        "notes": notes,
    }
