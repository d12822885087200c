"""The independent checker: does a seating result obey its system's rules?

`check_seating(request, result)` returns a list of violations, each a dict with `code`,
`message`, `params` (the numbers and player ids the message names, so that the Django side
can say it in the reader's language) and, where it applies, `table` (1-based), `matchday`
(1-based) and `player`; an empty list means the result is valid. It never raises on malformed input: a malformed
request or result is itself reported.

It is written apart from the generators on purpose and imports none of them: it reads the
request itself and re-derives what each system requires (seat coverage, table sizes, the
points order of seed 000 §4.1 b, the knock-out pre-competition and halves rule of §4.1 a,
repeat counts, and that no single swap would avoid a repeat meeting where the system
promises to minimise them). A bug shared by a generator and this module would need to be
made twice. (It is longer than 500 lines for that reason: it re-derives every system's rules
itself instead of sharing the generators' helpers.)
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations
from typing import Any

KNOWN_SYSTEMS = ("random", "points", "knockout", "league", "fixed")


def _violation(code: str, message: str, *, table: int | None = None, matchday: int | None = None,
               player: str | None = None, **params: Any) -> dict[str, Any]:
    """A violation: where it is (table, matchday, player) and the values its message names."""
    where = {k: v for k, v in (("table", table), ("matchday", matchday), ("player", player)) if v is not None}
    out: dict[str, Any] = {"code": code, "message": message, **where}
    out["params"] = {**where, **{k: v for k, v in params.items() if v is not None}}
    return out


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return (_whole(value) or isinstance(value, float)) and math.isfinite(value)


def _ids(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) and x.strip() for x in value)


def _note_shape(note: Any) -> bool:
    return (isinstance(note, dict) and isinstance(note.get("code"), str) and isinstance(note.get("text"), str)
            and isinstance(note.get("params"), dict))


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


class _Request:
    """The parts of a request the checker needs, read on its own."""

    def __init__(self, raw: Any, problems: list[dict[str, Any]]):
        self.ok = False
        if not isinstance(raw, dict):
            problems.append(_violation("request_invalid", "the request is not an object"))
            return
        self.system = raw.get("system")
        if self.system not in KNOWN_SYSTEMS:
            problems.append(_violation("request_invalid", f"unknown system {self.system!r}"))
            return
        self.table_size = raw.get("table_size", 4)
        if not _whole(self.table_size) or self.table_size < 2:
            problems.append(_violation("request_invalid", "table_size must be a whole number >= 2"))
            return
        self.min_table_size = raw.get("min_table_size", min(3, self.table_size))
        if not _whole(self.min_table_size) or not 1 <= self.min_table_size <= self.table_size:
            problems.append(_violation("request_invalid", "min_table_size is not between 1 and table_size"))
            return
        self.round = raw.get("round")
        self.rounds = raw.get("rounds")
        players = raw.get("players")
        if not isinstance(players, list) or not players or not all(
                isinstance(p, dict) and isinstance(p.get("id"), str) and p["id"].strip() for p in players):
            problems.append(_violation("request_invalid", "players must be a non-empty list of objects with ids"))
            return
        self.players = {p["id"]: p for p in players}
        if len(self.players) != len(players):
            problems.append(_violation("request_invalid", "a player id is listed twice"))
            return
        history = raw.get("history", [])
        if not isinstance(history, list) or not all(
                isinstance(r, list) and all(_ids(t) for t in r) for r in history):
            problems.append(_violation("request_invalid", "history must be rounds of tables of ids"))
            return
        self.history = history
        previous = raw.get("previous_round", [])
        if not isinstance(previous, list) or not all(
                isinstance(t, dict) and _ids(t.get("players")) for t in previous):
            problems.append(_violation("request_invalid", "previous_round must be tables with players"))
            return
        self.previous = previous
        self.tables = raw.get("tables")
        self.ok = True

    def met_before(self) -> set[tuple[str, str]]:
        pairs = set()
        for round_tables in self.history:
            for table in round_tables:
                for a, b in combinations(table, 2):
                    pairs.add(_pair(a, b))
        return pairs


def _check_tables_shape(tables: Any, where: str, problems: list[dict[str, Any]]) -> bool:
    if not isinstance(tables, list) or not all(_ids(t) for t in tables):
        problems.append(_violation("result_invalid", f"{where} must be a list of tables, each a list of ids"))
        return False
    return True


def _check_sizes(tables: list[list[str]], req: _Request, problems: list, matchday: int | None = None) -> None:
    for number, table in enumerate(tables, start=1):
        if len(table) > req.table_size:
            problems.append(_violation("table_too_big", f"table {number} has {len(table)} players, more than "
                                       f"table_size {req.table_size}", table=number, matchday=matchday,
                                       count=len(table), size=req.table_size))
        if len(table) < req.min_table_size:
            problems.append(_violation("table_too_small", f"table {number} has {len(table)} players, fewer "
                                       f"than min_table_size {req.min_table_size}", table=number,
                                       matchday=matchday, count=len(table), smallest=req.min_table_size))


def _check_fewest_tables(tables: list[list[str]], req: _Request, problems: list,
                         matchday: int | None = None) -> None:
    seated = sum(len(t) for t in tables)
    needed = -(-seated // req.table_size)
    if len(tables) != needed:
        problems.append(_violation("too_many_tables", f"{seated} players need {needed} tables of up to "
                                   f"{req.table_size}, the result uses {len(tables)}", matchday=matchday,
                                   count=seated, needed=needed, size=req.table_size, used=len(tables)))


def _check_coverage(tables: list[list[str]], byes: list[str], eliminated: list[str], req: _Request,
                    problems: list, may_eliminate: set[str] = frozenset(), matchday: int | None = None) -> None:
    seen = Counter(p for t in tables for p in t) + Counter(byes) + Counter(eliminated)
    for player, times in sorted(seen.items()):
        if times > 1:
            problems.append(_violation("seated_twice", f"player {player} appears {times} times",
                                       player=player, matchday=matchday, times=times))
    for player in sorted(req.players):
        if player not in seen:
            problems.append(_violation("player_missing", f"player {player} is neither seated nor listed "
                                       "in byes or eliminated", player=player, matchday=matchday))
    for number, table in enumerate(tables, start=1):
        for player in table:
            if player not in req.players:
                problems.append(_violation("unknown_player", f"player {player} at table {number} is not an "
                                           "available player", player=player, table=number, matchday=matchday))
    for player in byes:
        if player not in req.players:
            problems.append(_violation("unknown_player", f"bye for {player}, who is not an available player",
                                       player=player))
    for player in eliminated:
        if player not in req.players and player not in may_eliminate:
            problems.append(_violation("unknown_player", f"{player} is eliminated but was neither available "
                                       "nor in previous_round", player=player))


def _repeats_in(tables: list[list[str]], met: set[tuple[str, str]]) -> int:
    return sum(1 for t in tables for a, b in combinations(t, 2) if _pair(a, b) in met)


def _check_swap_optimal(tables: list[list[str]], met: set[tuple[str, str]], problems: list,
                        matchday: int | None = None) -> None:
    """No exchange of two players at different tables lowers the number of repeat pairs."""
    def clashes(player: str, table: list[str], ignore: str) -> int:
        return sum(1 for other in table if other not in (player, ignore) and _pair(player, other) in met)

    for i, j in combinations(range(len(tables)), 2):
        for p in tables[i]:
            for q in tables[j]:
                before = clashes(p, tables[i], p) + clashes(q, tables[j], q)
                after = clashes(p, tables[j], q) + clashes(q, tables[i], p)
                if after < before:
                    problems.append(_violation(
                        "not_swap_optimal", f"swapping {p} (table {i + 1}) and {q} (table {j + 1}) would "
                        f"avoid {before - after} repeat meetings", table=i + 1, player=p, matchday=matchday,
                        other=q, other_table=j + 1, avoided=before - after))
                    return


def _standing_key(entry: dict[str, Any]) -> tuple:
    if entry.get("new"):
        return (1, 0, 0)
    group = 0 if entry.get("played_last_round", True) else 2
    return (group, -entry["points"], -entry["score"])


def _check_points(req: _Request, tables: list[list[str]], problems: list) -> None:
    sizes = [len(t) for t in tables]
    if any(a < b for a, b in zip(sizes, sizes[1:], strict=False)):
        problems.append(_violation("short_table_not_last", "in the points system tables are filled in "
                                   "order (\"za 2. mizo naslednji štirje\"), so incomplete tables come last"))
    if not _whole(req.round) or req.round <= 1:
        return
    for player_id, entry in req.players.items():
        if not entry.get("new") and not (_number(entry.get("points")) and _number(entry.get("score"))):
            problems.append(_violation("request_invalid", f"player {player_id} has no points or score",
                                       player=player_id, missing="points"))
            return
    worst_so_far = None
    for number, table in enumerate(tables, start=1):
        keys = [(_standing_key(req.players[p]), p) for p in table if p in req.players]
        if not keys:
            continue
        best_here = min(keys)
        if worst_so_far is not None and best_here[0] < worst_so_far[0]:
            problems.append(_violation(
                "points_order", f"{best_here[1]} at table {number} ranks ahead of {worst_so_far[1]} at an "
                "earlier table (order: played the last round by points and score, late entries, then "
                "the others by points)", table=number, player=best_here[1], other=worst_so_far[1]))
        worst_here = max(keys)
        if worst_so_far is None or worst_here[0] > worst_so_far[0]:
            worst_so_far = worst_here


def _possible_ranks(table: dict[str, Any]) -> dict[str, tuple[int, int]] | None:
    players = table["players"]
    placing = table.get("placing")
    if _ids(placing) and sorted(placing) == sorted(players):
        return {p: (i + 1, i + 1) for i, p in enumerate(placing)}
    totals = table.get("totals")
    if isinstance(totals, dict) and sorted(totals) == sorted(players) and all(
            _number(v) for v in totals.values()):
        return {p: (1 + sum(1 for q in players if totals[q] > totals[p]),
                    sum(1 for q in players if totals[q] >= totals[p])) for p in players}
    return None


def _main_size(count: int) -> bool:
    return count >= 4 and count & (count - 1) == 0


def _check_knockout(req: _Request, tables: list[list[str]], byes: list[str], eliminated: list[str],
                    problems: list) -> None:
    """The knock-out (Tarok.net rules §4.1 a): four at a table; the first round is the draw, every
    later round seats the previous round's top two of each table by the halves rule."""
    if req.table_size != 4:
        problems.append(_violation("request_invalid", "a knock-out seats four at a table"))
        return
    if not req.previous:
        _check_knockout_draw(req, tables, byes, eliminated, problems)
        return
    _check_knockout_round(req, tables, byes, eliminated, problems)


def _check_knockout_draw(req: _Request, tables: list[list[str]], byes: list[str],
                         eliminated: list[str], problems: list) -> None:
    """The first round: the main draw is the largest power of two (at least four) the field
    reaches; the players over it play a pre-competition of tables of four (and one of three),
    the others have a bye. Nobody is eliminated before playing."""
    count = len(req.players)
    target = 4
    while target * 2 <= count:
        target *= 2
    if count < 4:
        problems.append(_violation("too_few_players", "a knock-out needs at least four players", count=count))
        return
    if eliminated:
        problems.append(_violation("eliminated_in_draw", "nobody is eliminated before playing"))
    drop = count - target
    fours = sum(1 for t in tables if len(t) == 4)
    threes = sum(1 for t in tables if len(t) == 3)
    if fours + threes != len(tables) or fours != drop // 2 + (target // 4 if drop == 0 else 0) \
            or threes != drop % 2:
        expected = (f"{drop // 2} tables of four" + (" and one of three" if drop % 2 else "")
                    if drop else f"{target // 4} tables of four")
        problems.append(_violation(
            "knockout_draw_size", f"{count} players: the main draw needs {target}, so the first round "
            f"needs {expected}; got sizes {[len(t) for t in tables]}", count=count, target=target,
            fours=drop // 2 if drop else target // 4, threes=drop % 2))
    if drop == 0 and byes:
        problems.append(_violation("unexpected_bye", "a full main draw has no byes"))


def _previous_ranks(req: _Request, problems: list
                    ) -> tuple[dict[str, tuple[int, int]], dict[str, int]] | None:
    """Each player of the previous round's tables: the ranks he may hold at his table (best,
    worst: equal totals tie) and the index of his table. None (and a problem) when a table
    has neither a usable placing nor totals."""
    ranks: dict[str, tuple[int, int]] = {}
    table_of: dict[str, int] = {}
    for index, table in enumerate(req.previous):
        table_ranks = _possible_ranks(table)
        if table_ranks is None:
            problems.append(_violation("request_invalid", f"previous_round table {index + 1} has no usable "
                                       "placing or totals", previous=index + 1))
            return None
        ranks.update(table_ranks)
        table_of.update({p: index for p in table["players"]})
    return ranks, table_of


def _check_knockout_round(req: _Request, tables: list[list[str]], byes: list[str],
                          eliminated: list[str], problems: list) -> None:
    """A round after the draw: no byes; exactly the top two of each previous table are seated
    and the others (and who went out earlier) are listed as eliminated; tables of four; in
    the main draw, the halves rule."""
    previous = _previous_ranks(req, problems)
    if previous is None:
        return
    ranks, table_of = previous
    in_history = {p for r in req.history for t in r for p in t}
    skipped = [p for p in req.players if p not in table_of and p not in in_history]
    out_before = {p for p in req.players if p not in table_of and p in in_history}
    seated = [p for t in tables for p in t]
    seated_set = set(seated)
    if byes:
        problems.append(_violation("unexpected_bye", "after the first draw nobody has a bye"))
    for player in seated:
        if player in ranks and ranks[player][0] > 2:
            problems.append(_violation("eliminated_player_seated", f"{player} did not finish in the top two "
                                       f"of table {table_of[player] + 1} but is seated", player=player,
                                       previous=table_of[player] + 1))
    for index, table in enumerate(req.previous):
        through = [p for p in table["players"] if p in seated_set]
        if len(through) != 2:
            problems.append(_violation("two_go_through", f"{len(through)} players of previous table "
                                       f"{index + 1} are seated; exactly two go through", table=index + 1,
                                       count=len(through)))
    should_go = {p for p in table_of if p not in seated_set} | out_before
    for player in sorted(out_before & seated_set):
        problems.append(_violation("eliminated_player_seated", f"{player} went out in an earlier round "
                                   "but is seated", player=player))
    if set(eliminated) != should_go:
        problems.append(_violation("eliminated_list", "eliminated must list exactly the previous round's "
                                   f"players who did not go through: expected {sorted(should_go)}, got "
                                   f"{sorted(eliminated)}", expected=", ".join(sorted(should_go))))
    if any(len(t) != 4 for t in tables):
        problems.append(_violation("knockout_table_size", "every table after the first draw seats four"))
    # The halves rule binds the main draw only: not the round after the pre-competition (its
    # winners join players who had a bye), nor the final after a round of two tables.
    after_pre = bool(skipped) or any(len(t["players"]) == 3 for t in req.previous)
    if after_pre or len(req.previous) == 2:
        return
    _check_halves(req, tables, ranks, table_of, problems)


def _check_halves(req: _Request, tables: list[list[str]], ranks: dict[str, tuple[int, int]],
                  table_of: dict[str, int], problems: list) -> None:
    """The halves rule of the main draw (Tarok.net rules §4.1 a): table k takes the winners of two
    neighbouring tables of half A and the second-placed of the same two of half B (the next
    table the other way round), and no two players of one previous table meet again."""
    count = len(req.previous)
    if not _main_size(count * 4):
        problems.append(_violation("request_invalid", "previous_round is not a main-draw round", count=count * 4))
        return
    half = count // 2
    for index, table in enumerate(tables):
        first_a = (index // 2) * 2
        slots = [(first_a, 1), (first_a + 1, 1), (half + first_a, 2), (half + first_a + 1, 2)]
        if index % 2:
            slots = [(t, 3 - rank) for t, rank in slots]
        for source, rank in slots:
            if source >= count:
                continue
            from_source = [p for p in table if table_of.get(p) == source]
            wanted = "winner" if rank == 1 else "second-placed"
            ok = len(from_source) == 1 and ranks[from_source[0]][0] <= rank <= ranks[from_source[0]][1]
            if not ok:
                problems.append(_violation(
                    "halves_rule", f"table {index + 1} must take the {wanted} of previous table "
                    f"{source + 1} (halves A and B, Tarok.net rules §4.1 a); it has {from_source}", table=index + 1,
                    place=rank, previous=source + 1))
        by_source = Counter(table_of.get(p) for p in table)
        for source, times in by_source.items():
            if source is not None and times > 1:
                problems.append(_violation("met_again", f"table {index + 1} seats {times} players from "
                                           f"previous table {source + 1}", table=index + 1, times=times,
                                           previous=source + 1))


def pair_counts(rounds: Any) -> Counter:
    """How often each pair (smaller first) sits at one table over the given rounds."""
    counts: Counter = Counter()
    for round_tables in rounds:
        for table in round_tables:
            for a, b in combinations(table, 2):
                counts[_pair(a, b)] += 1
    return counts


def _season_repeats(history: list, rounds: list[list[list[str]]]) -> int:
    met: set[tuple[str, str]] = set()
    for round_tables in history:
        for table in round_tables:
            met.update(_pair(a, b) for a, b in combinations(table, 2))
    repeats = 0
    for round_tables in rounds:
        pairs = [_pair(a, b) for table in round_tables for a, b in combinations(table, 2)]
        repeats += sum(1 for p in pairs if p in met)
        met.update(pairs)
    return repeats


# Fields of tables of four that a published or constructed schedule plays for so many
# matchdays without any repeat (docs/seating.md lists the sources); kept here on its own so
# that the checker does not take the generators' word for it.
NO_REPEAT_KNOWN = {16: 5, 20: 5, 24: 7, 28: 9, 32: 10, 36: 11, 40: 13, 44: 11, 48: 15, 52: 17, 60: 19,
                   64: 21, 76: 25, 88: 29, 100: 25}


def _league_wishes(raw: dict[str, Any], rounds: int) -> tuple[dict[int, set[str]], dict[int, dict[str, int]],
                                                                dict[str, str], float]:
    """Absentees and fixed tables by matchday, clubs and the club weight, read on their own."""
    absent: dict[int, set[str]] = {}
    for entry in raw.get("absences") or []:
        absent.setdefault(entry["matchday"], set()).update(entry["players"])
    fixed: dict[int, dict[str, int]] = {}
    for entry in raw.get("fixed_seats") or []:
        for number in entry.get("matchdays") or range(1, rounds + 1):
            fixed.setdefault(number, {})[entry["player"]] = entry["table"]
    clubs = {p["id"]: p["club"] for p in raw.get("players", []) if isinstance(p.get("club"), str)}
    weight = raw.get("club_weight", 1)
    return absent, fixed, clubs, float(weight)


def _lexicographic_swap_check(rounds: list, met_before: Counter, clubs: dict[str, str], weight: float,
                              movable: list[set[str]], problems: list) -> None:
    """No exchange of two movable players at different tables of one matchday improves the
    season in the league's order: fewer pairs meeting the most times first (then fewer
    meeting one time less, ...), and last the pairs who meet again plus `weight` for every
    pair of one club at a table."""
    counts = met_before + pair_counts(rounds)
    deepest = max(counts.values(), default=1) + 1
    at_least = [0] * (deepest + 2)
    for c in counts.values():
        for k in range(2, c + 1):
            at_least[k] += 1

    def same_club(a: str, b: str) -> bool:
        return clubs.get(a) is not None and clubs.get(a) == clubs.get(b)

    club_pairs = sum(1 for tables in rounds for t in tables for a, b in combinations(t, 2) if same_club(a, b))

    def profile(levels: list[int], clubs_at_tables: int) -> list[float]:
        return [levels[k] for k in range(deepest, 2, -1)] + [levels[2] + weight * clubs_at_tables]

    before = profile(at_least, club_pairs)
    for number, tables in enumerate(rounds, start=1):
        for i, j in combinations(range(len(tables)), 2):
            for p in sorted(set(tables[i]) & movable[number - 1]):
                for q in sorted(set(tables[j]) & movable[number - 1]):
                    change: Counter = Counter()
                    club_change = 0
                    for z in tables[i]:
                        if z != p:
                            change[_pair(p, z)] -= 1
                            change[_pair(q, z)] += 1
                            club_change += same_club(q, z) - same_club(p, z)
                    for z in tables[j]:
                        if z != q:
                            change[_pair(q, z)] -= 1
                            change[_pair(p, z)] += 1
                            club_change += same_club(p, z) - same_club(q, z)
                    levels = list(at_least)
                    for pair, delta in change.items():
                        old = counts[pair]
                        new = old + delta
                        for k in range(max(2, min(old, new) + 1), max(old, new) + 1):
                            levels[k] += 1 if new > old else -1
                    if profile(levels, club_pairs + club_change) < before:
                        problems.append(_violation(
                            "not_swap_optimal", f"swapping {p} (table {i + 1}) and {q} (table {j + 1}) on "
                            f"matchday {number} would spread the meetings better", table=i + 1, player=p,
                            matchday=number, other=q, other_table=j + 1))
                        return


def _check_league(req: _Request, raw: dict[str, Any], result: dict[str, Any], problems: list) -> None:
    rounds = result.get("rounds")
    if not isinstance(rounds, list) or not all(isinstance(r, list) and all(_ids(t) for t in r)
                                               for r in rounds):
        problems.append(_violation("result_invalid", "a league result needs rounds: matchdays of tables"))
        return
    if not _whole(req.rounds) or len(rounds) != req.rounds:
        problems.append(_violation("wrong_number_of_matchdays", f"{req.rounds!r} matchdays asked, "
                                   f"{len(rounds)} given", asked=req.rounds if _whole(req.rounds) else None,
                                   given=len(rounds)))
    try:
        absent, fixed, clubs, weight = _league_wishes(raw, len(rounds))
    except (KeyError, TypeError, ValueError, AttributeError):
        problems.append(_violation("request_invalid", "absences, fixed_seats or club_weight are malformed"))
        return
    everyone = req.players
    for number, tables in enumerate(rounds, start=1):
        req.players = {p: e for p, e in everyone.items() if p not in absent.get(number, set())}
        _check_sizes(tables, req, problems, matchday=number)
        _check_fewest_tables(tables, req, problems, matchday=number)
        _check_coverage(tables, [], [], req, problems, matchday=number)
        for player, table in sorted(fixed.get(number, {}).items()):
            if table > len(tables) or player not in tables[table - 1]:
                problems.append(_violation("fixed_seat_moved", f"player {player} must sit at table {table} on "
                                           f"matchday {number}", player=player, matchday=number,
                                           seat=table))
    req.players = everyone
    if problems:
        return
    repeats = _season_repeats(req.history, rounds)
    if result.get("repeat_pairs") != repeats:
        problems.append(_violation("repeat_pairs_wrong", f"the schedule has {repeats} repeat meetings, "
                                   f"the result says {result.get('repeat_pairs')!r}", repeats=repeats,
                                   claimed=result.get("repeat_pairs") if _whole(result.get("repeat_pairs")) else None))
    movable = [{p for t in tables for p in t} - set(fixed.get(n, {})) for n, tables in enumerate(rounds, start=1)]
    _lexicographic_swap_check(rounds, pair_counts(req.history), clubs, weight, movable, problems)
    count = len(req.players)
    reachable = NO_REPEAT_KNOWN.get(count, 0) if req.table_size == 4 else 0
    plain = not (req.history or absent or fixed or clubs)
    if plain and len(rounds) <= reachable and repeats:
        problems.append(_violation("known_schedule_missed", f"{count} players can play {reachable} "
                                   f"matchdays without any repeat meeting; this schedule has {repeats}",
                                   count=count, reachable=reachable, repeats=repeats))


def check_seating(request: Any, result: Any) -> list[dict[str, Any]]:
    problems: list[dict[str, Any]] = []
    req = _Request(request, problems)
    if not req.ok:
        return problems
    if not isinstance(result, dict):
        return [_violation("result_invalid", "the result is not an object")]
    byes, eliminated = result.get("byes", []), result.get("eliminated", [])
    if not _ids(byes) or not _ids(eliminated):
        problems.append(_violation("result_invalid", "byes and eliminated must be lists of ids"))
        return problems
    notes = result.get("notes", [])
    if not isinstance(notes, list) or not all(_note_shape(n) for n in notes):
        problems.append(_violation("result_invalid", "notes must be a list of {code, params, text}"))
    if not _whole(result.get("repeat_pairs")):
        problems.append(_violation("result_invalid", "repeat_pairs must be a whole number"))

    if req.system == "league":
        if byes or eliminated:
            problems.append(_violation("unexpected_bye", "a league schedule seats every player every matchday"))
        _check_league(req, request, result, problems)
        return problems

    tables = result.get("tables")
    if not _check_tables_shape(tables, "tables", problems):
        return problems
    previous_players = {p for t in req.previous for p in t["players"]} if req.system == "knockout" else set()
    previous_players |= {p for r in req.history for t in r for p in t} if req.system == "knockout" else set()
    _check_coverage(tables, byes, eliminated, req, problems, may_eliminate=previous_players)
    _check_sizes(tables, req, problems)
    met = req.met_before()
    repeats = _repeats_in(tables, met)
    if _whole(result.get("repeat_pairs")) and result["repeat_pairs"] != repeats:
        problems.append(_violation("repeat_pairs_wrong", f"{repeats} pairs in this round met before, the "
                                   f"result says {result['repeat_pairs']}", repeats=repeats,
                                   claimed=result["repeat_pairs"]))
    if req.system != "knockout" and (byes or eliminated):
        problems.append(_violation("unexpected_bye", f"the {req.system} system seats every available player"))

    if req.system == "points":
        _check_fewest_tables(tables, req, problems)
        _check_points(req, tables, problems)
    elif req.system == "random":
        _check_fewest_tables(tables, req, problems)
        if not any(p["code"] in ("seated_twice", "player_missing", "unknown_player") for p in problems):
            _check_swap_optimal(tables, met, problems)
    elif req.system == "fixed":
        if tables != req.tables:
            problems.append(_violation("fixed_changed", "the fixed system must return the organiser's tables "
                                       "unchanged, in the same order"))
    elif req.system == "knockout":
        _check_knockout(req, tables, byes, eliminated, problems)
    return problems
