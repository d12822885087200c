"""The knock-out system of seed 000 §4.1 a (Sistem izpadanja).

Main draw sizes are 4, 8, 16, 32, ... ("4, 8, 16, 32, 64, 128, 256, itd."). With more
players a pre-competition comes first, at which two per table drop out ("Izpadata po 2
igralca"): 72 registered, 64 wanted, 8 must go, so 16 drawn players play it. Then the main
field is drawn ("Nastali vrstni red definira prvi krog tekmovanja. Igrajo prvi štirje, drugi
štirje, itd."), two per table go through, and the next round is built from the winners'
list cut into halves A and B so that no two players of one table meet again. Four left play
the final.

How the engine knows which step comes next, from the request alone:
- no `previous_round`: the first draw (pre-competition when the count is not a power of two);
- a `previous_round` with a table of three, or available players who sat at no table so far
  (neither in it nor in `history`): that was the pre-competition, so its survivors and those
  who skipped it are drawn afresh;
- available players found in `history` but not in `previous_round` went out earlier and are
  listed in `eliminated`;
- otherwise the previous round was a main-draw round and the halves rule applies.
"""

from __future__ import annotations

import random
from typing import Any

from .errors import ErrorCollector, refuse
from .layout import split
from .meetings import from_history
from .notes import counted, note
from .request import PreviousTable, SeatingRequest

ADVANCE_PER_TABLE = 2


def main_draw_size(player_count: int) -> int:
    """The largest of 4, 8, 16, ... not above `player_count` (0 when below four)."""
    size = 4
    if player_count < size:
        return 0
    while size * 2 <= player_count:
        size *= 2
    return size


def _is_main_draw_size(count: int) -> bool:
    return count >= 4 and count & (count - 1) == 0


def _placing(table: PreviousTable, number: int, rng: random.Random,
             notes: list[dict[str, Any]]) -> list[str]:
    if table.placing is not None:
        return list(table.placing)
    totals = table.totals or {}
    draw = {p: rng.random() for p in sorted(table.players)}
    ordered = sorted(table.players, key=lambda p: (-totals[p], draw[p]))
    for first, second in zip(ordered, ordered[1:], strict=False):
        if totals[first] == totals[second]:
            notes.append(note("knockout_tie", "table {table}: {first} and {second} have the same total "
                              "({total}); the seeded draw puts {first} ahead", table=number, first=first,
                              second=second, total=totals[first]))
    return ordered


def _first_draw(request: SeatingRequest, rng: random.Random) -> dict[str, Any]:
    count = len(request.players)
    target = main_draw_size(count)
    if target == 0:
        refuse("players", "too_few_players", f"a knock-out needs at least 4 players, got {count}",
               count=count)
    order = sorted(request.player_ids)
    rng.shuffle(order)
    if count == target:
        tables = split(order, [4] * (count // 4))
        notes = [note("knockout_main_draw", "main draw of {count} players, tables in draw order "
                      "(Tarok.net rules §4.1 a)", count=count)]
        if count == 4:
            notes.append(note("knockout_final_draw", "four players: this is the final"))
        return {"tables": tables, "byes": [], "eliminated": [], "notes": notes}
    to_drop = count - target
    if to_drop % 2 and request.min_table_size > 3:
        refuse("min_table_size", "cannot_seat",
               f"{to_drop} of {count} players must drop out to reach {target}; an odd number "
               "needs one pre-competition table of three, below min_table_size",
               drop=to_drop, count=count, target=target, smallest=request.min_table_size)
    full_tables = to_drop // 2
    sizes = [4] * full_tables + ([3] if to_drop % 2 else [])
    playing = sum(sizes)
    tables = split(order[:playing], sizes)
    byes = order[playing:]
    notes = [note("knockout_pre_competition", "pre-competition: {count} registered, the main draw needs "
                  "{target}, so {drop} must drop out; {playing} drawn players play it, two go through "
                  "from each table (Tarok.net rules §4.1 a)", count=count, target=target, drop=to_drop,
                  playing=playing)]
    if to_drop % 2:
        notes.append(note("knockout_odd_drop", "table {table} has 3 players: one drops out there, because "
                          "{drop} is odd", table=len(sizes), drop=to_drop))
    if byes:
        notes.append(note("knockout_byes", counted(len(byes), "{count} player goes straight into the main "
                                                   "draw (a bye)",
                                                   "{count} players go straight into the main draw (byes)"),
                          count=len(byes)))
    return {"tables": tables, "byes": byes, "eliminated": [], "notes": notes}


def _halves(winners: list[str], seconds: list[str]) -> list[list[str]]:
    """Seed 000 §4.1 a: table 1 = first two winners of A + first two second-placed of B,
    table 2 = first two second-placed of A + first two winners of B, and so on."""
    half = len(winners) // 2
    win_a, win_b = winners[:half], winners[half:]
    second_a, second_b = seconds[:half], seconds[half:]
    tables = []
    for index in range(half):
        start = (index // 2) * 2
        if index % 2 == 0:
            tables.append(win_a[start:start + 2] + second_b[start:start + 2])
        else:
            tables.append(second_a[start:start + 2] + win_b[start:start + 2])
    return tables


def _next_round(request: SeatingRequest, rng: random.Random) -> dict[str, Any]:
    errors = ErrorCollector()
    notes: list[dict[str, Any]] = []
    available = set(request.player_ids)
    previous_players = {p for t in request.previous_round for p in t.players}
    winners: list[str] = []
    seconds: list[str] = []
    eliminated: list[str] = []
    for number, table in enumerate(request.previous_round, start=1):
        if len(table.players) not in (3, 4):
            errors.add(f"previous_round[{number - 1}].players", "bad_table_size",
                       f"knock-out tables seat 4 (3 at one pre-competition table), table {number} had "
                       f"{len(table.players)}", table=number, count=len(table.players))
            continue
        placing = _placing(table, number, rng, notes)
        winners.append(placing[0])
        seconds.append(placing[1])
        eliminated.extend(placing[ADVANCE_PER_TABLE:])
        for player_id in placing[:ADVANCE_PER_TABLE]:
            if player_id not in available:
                errors.add("players", "advancing_player_missing",
                           f"player {player_id} went through at table {number} but is not among the "
                           "available players", player=player_id, table=number)
    errors.raise_if_any()
    # Everyone still in plays every round except those who skipped the pre-competition, who
    # have never sat at a table; someone in the history but not in the last round is out.
    played_before = {p for tables in request.history for table in tables for p in table}
    out_earlier = [p for p in request.player_ids if p not in previous_players and p in played_before]
    skipped = [p for p in request.player_ids if p not in previous_players and p not in played_before]
    if out_earlier:
        notes.append(note("knockout_out_earlier",
                          counted(len(out_earlier), "{count} available player went out in an earlier round",
                                  "{count} available players went out in an earlier round"),
                          count=len(out_earlier)))
    field = [p for pair in zip(winners, seconds, strict=True) for p in pair] + skipped
    if len(field) == 2 and not skipped:
        refuse("previous_round", "final_played", "the previous round was the final: the knock-out is over")
    if not _is_main_draw_size(len(field)):
        refuse("previous_round", "field_not_main_draw_size",
               f"{len(field)} players go on ({len(winners) + len(seconds)} through from "
               f"previous_round, {len(skipped)} who did not play it); the knock-out needs 4, 8, 16, 32, ...",
               count=len(field), through=len(winners) + len(seconds), skipped=len(skipped))
    after_pre_competition = bool(skipped) or any(len(t.players) == 3 for t in request.previous_round)
    if after_pre_competition:
        order = sorted(field)
        rng.shuffle(order)
        tables = split(order, [4] * (len(order) // 4))
        notes.append(note("knockout_after_pre_competition", "main draw of {count} players after the "
                          "pre-competition, tables in draw order", count=len(field)))
    elif len(field) == 4:
        tables = [field]
    else:
        tables = _halves(winners, seconds)
        notes.append(note("knockout_halves", "next round from halves A and B of the winners' list "
                          "(Tarok.net rules §4.1 a)"))
    if len(tables) == 1:
        notes.append(note("knockout_final", "four players left: the final (Tarok.net rules §4.1 a)"))
    return {"tables": tables, "byes": [], "eliminated": eliminated + out_earlier, "notes": notes}


def seat_knockout(request: SeatingRequest) -> dict[str, Any]:
    rng = random.Random(request.seed)
    result = _first_draw(request, rng) if not request.previous_round else _next_round(request, rng)
    result["repeat_pairs"] = from_history(request.history).repeat_pairs(result["tables"])
    return {key: result[key] for key in ("tables", "byes", "eliminated", "repeat_pairs", "notes")}
