"""How many matchdays a league can play before some pair must meet twice, and how far a
schedule is from the best possible: as structured data (a code and its params, plus English
text), so that pages and the API can say it in the reader's language.

`no_repeat_bound(players, table_size, min_table_size)` gives:
- `upper`: no schedule of more matchdays avoids every repeat. The counting bound: a
  matchday seats P = Σ s(s−1)/2 pairs at its tables, so ⌊C(n,2) / P⌋; with tables of four
  only, each player meets three new players a matchday, ⌊(n − 1)/3⌋ (the same number); and
  with fewer tables than seats at a table (12 players at three tables of four), the second
  matchday would seat two players of one first-matchday table together, so 1.
- `known`: the longest schedule without a repeat known to exist, with its `source`:
  `rbibd`/`rgdd`/`published` (built here, tournaments.seating.designs; `left_out` players
  fewer than a multiple of four), or `literature` (20 players: 5 matchdays, the social golfer
  problem 5-4, Harvey's table and OEIS A107431; that no 6-matchday schedule exists is from
  the same table). None when neither is known: the search then gives what it reaches.
"""

from __future__ import annotations

from typing import Any

from .designs import construction
from .layout import table_sizes
from .notes import counted, note

# Tables of four whose best no-repeat length is a published result rather than a
# construction of this package (players: (matchdays, source)).
LITERATURE = {20: (5, "literature")}  # and no sixth matchday exists


def counting_bound(players: int, table_size: int, min_table_size: int) -> int:
    sizes = table_sizes(players, table_size, min_table_size)
    if len(sizes) < max(sizes):
        # Some table of the second matchday would seat two players of one earlier table.
        return 1
    pairs = sum(s * (s - 1) // 2 for s in sizes)
    if pairs == 0:
        return 0
    return players * (players - 1) // 2 // pairs


def no_repeat_bound(players: int, table_size: int = 4, min_table_size: int = 3) -> dict[str, Any]:
    """The bound of a field as a note: code `no_repeat_bound`, params players, upper, known,
    source."""
    upper = counting_bound(players, table_size, min_table_size)
    known, source = None, None
    if table_size == 4 and min_table_size <= 3:
        matchdays, name, _left_out = construction(players)
        if matchdays:
            known, source = len(matchdays), name
        if players in LITERATURE and (known is None or LITERATURE[players][0] > known):
            known, source = LITERATURE[players]
    if upper == 1:
        known, source = 1, "pigeonhole"
    bound = "{players} players: at most {upper} " + ("matchday" if upper == 1 else "matchdays")
    if known is not None and known == upper:
        text = bound + " without any pair meeting twice, and so many are possible"
    elif known is not None:
        text = bound + " without any pair meeting twice; {known} are known to be possible"
    else:
        text = bound + " without any pair meeting twice"
    return note("no_repeat_bound", text, players=players, upper=upper, known=known, source=source)


def schedule_distance(rounds: list[list[list[str]]], history: Any = (), players: int | None = None,
                      table_size: int = 4, min_table_size: int = 3) -> dict[str, Any]:
    """How a schedule stands against the bound: matchdays from the start without a repeat
    (`clean`), its repeat meetings and largest meeting count, and the fewest repeats any
    schedule of this length could have (`floor`: 0 up to the known no-repeat length, else
    the counting floor: seat pairs beyond the number of distinct pairs)."""
    met: dict[tuple[str, str], int] = {}
    for tables in history:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    key = (a, b) if a < b else (b, a)
                    met[key] = met.get(key, 0) + 1
    clean, repeats, seat_pairs, still_clean = 0, 0, 0, True
    for tables in rounds:
        fresh = 0
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    key = (a, b) if a < b else (b, a)
                    if met.get(key, 0):
                        fresh += 1
                    met[key] = met.get(key, 0) + 1
                    seat_pairs += 1
        repeats += fresh
        still_clean = still_clean and fresh == 0
        clean += 1 if still_clean else 0
    count = players if players is not None else len({p for t in rounds[0] for p in t}) if rounds else 0
    bound = no_repeat_bound(count, table_size, min_table_size) if count else None
    possible = bound["params"]["known"] if bound else None
    if possible is not None and len(rounds) <= possible and not history:
        floor = 0
    else:
        floor = max(0, seat_pairs - count * (count - 1) // 2)
    most = max(met.values(), default=0)
    text = (counted(len(rounds), "{matchdays} matchday: the first {clean} without a repeat meeting",
                    "{matchdays} matchdays: the first {clean} without a repeat meeting") + "; "
            + counted(repeats, "{repeats} repeat meeting (at least {floor} unavoidable)",
                      "{repeats} repeat meetings (at least {floor} unavoidable)") + ", "
            + counted(most, "no pair more than {most} time", "no pair more than {most} times"))
    return note("schedule_distance", text, matchdays=len(rounds), clean=clean, repeats=repeats, floor=floor,
                most=most)
