"""Validation of a seating request and its normalised form.

`parse_request` checks every field of the request dict described in the seating contract
(types first, then meaning) and either returns a `SeatingRequest` or raises `SeatingInvalid`
listing every problem found. The systems only ever see a request that passed here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .errors import ErrorCollector

SYSTEMS = ("random", "points", "knockout", "league", "fixed")

DEFAULT_TABLE_SIZE = 4
DEFAULT_MIN_TABLE_SIZE = 3
LARGEST_TABLE_SIZE = 10
# A league season's matchdays: far more than any season plays (the league pages allow 60), and
# few enough that a schedule is made in seconds; a larger number would keep the engine busy
# for as long as it likes (the fuzzer of tests/tournaments/seating found 10**18).
LARGEST_ROUNDS = 100

REQUEST_FIELDS = {
    "system", "round", "rounds", "table_size", "min_table_size", "seed", "players",
    "history", "previous_round", "tables", "absences", "fixed_seats", "club_weight",
}
LEAGUE_ONLY_FIELDS = ("absences", "fixed_seats", "club_weight")
PLAYER_FIELDS = {"id", "name", "points", "score", "played_last_round", "new", "club"}
ABSENCE_FIELDS = {"matchday", "players"}
FIXED_SEAT_FIELDS = {"player", "table", "matchdays"}
DEFAULT_CLUB_WEIGHT = 1
PREVIOUS_TABLE_FIELDS = {"players", "placing", "totals"}


@dataclass(frozen=True)
class Player:
    id: str
    points: float = 0
    score: float = 0
    played_last_round: bool = True
    new: bool = False
    club: str | None = None


@dataclass(frozen=True)
class PreviousTable:
    players: tuple[str, ...]
    placing: tuple[str, ...] | None
    totals: dict[str, float] | None


@dataclass(frozen=True)
class FixedSeat:
    """A player who sits at one table (an official's table) on the given matchdays (all when
    `matchdays` is None)."""
    player: str
    table: int
    matchdays: tuple[int, ...] | None


@dataclass(frozen=True)
class SeatingRequest:
    system: str
    round: int | None
    rounds: int | None
    table_size: int
    min_table_size: int
    seed: int | None
    players: tuple[Player, ...]
    history: tuple[tuple[tuple[str, ...], ...], ...] = ()
    previous_round: tuple[PreviousTable, ...] = ()
    tables: tuple[tuple[str, ...], ...] | None = None
    player_ids: tuple[str, ...] = field(default=())
    absences: dict[int, frozenset[str]] = field(default_factory=dict)
    fixed_seats: tuple[FixedSeat, ...] = ()
    club_weight: float = DEFAULT_CLUB_WEIGHT

    def present(self, matchday: int) -> list[str]:
        """The players who come to a league matchday (1-based), sorted."""
        away = self.absences.get(matchday, frozenset())
        return sorted(p for p in self.player_ids if p not in away)

    def clubs(self) -> dict[str, str]:
        return {p.id: p.club for p in self.players if p.club is not None}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value)


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


def _id_list(value: Any, where: str, errors: ErrorCollector) -> tuple[str, ...] | None:
    """A list of player ids without repeats, or None after reporting what is wrong with it."""
    if not isinstance(value, list):
        errors.add(where, "not_a_list", f"{where} must be a list of player ids")
        return None
    ok = True
    seen: set[str] = set()
    for position, item in enumerate(value):
        if not _is_id(item):
            errors.add(f"{where}[{position}]", "bad_player_id",
                       f"{where}[{position}] must be a non-empty string, got {item!r}")
            ok = False
        elif item in seen:
            errors.add(f"{where}[{position}]", "duplicate_player", f"player {item} appears twice in {where}",
                       player=item)
            ok = False
        else:
            seen.add(item)
    return tuple(value) if ok else None


def _parse_players(raw: Any, system: str | None, round_number: Any,
                   errors: ErrorCollector) -> tuple[Player, ...]:
    if not isinstance(raw, list):
        errors.add("players", "not_a_list", "players must be a list of objects with an id")
        return ()
    if not raw:
        errors.add("players", "no_players", "players is empty: there is nobody to seat")
        return ()
    standings_needed = system == "points" and _is_int(round_number) and round_number > 1
    players: list[Player] = []
    seen: set[str] = set()
    for position, entry in enumerate(raw):
        where = f"players[{position}]"
        if not isinstance(entry, dict):
            errors.add(where, "not_an_object", f"{where} must be an object with an id")
            continue
        for key in sorted(set(entry) - PLAYER_FIELDS):
            errors.add(f"{where}.{key}", "unknown_field",
                       f"{where} has an unknown field {key!r} (known: {', '.join(sorted(PLAYER_FIELDS))})")
        player_id = entry.get("id")
        if not _is_id(player_id):
            errors.add(f"{where}.id", "bad_player_id", f"{where}.id must be a non-empty string, got {player_id!r}")
            continue
        if player_id in seen:
            errors.add(f"{where}.id", "duplicate_player", f"player {player_id} is listed twice in players",
                       player=player_id)
            continue
        seen.add(player_id)
        ok = True
        values: dict[str, Any] = {}
        for number_field in ("points", "score"):
            if number_field in entry:
                if not _is_number(entry[number_field]):
                    errors.add(f"{where}.{number_field}", "not_a_number",
                               f"{number_field} of player {player_id} must be a finite number, "
                               f"got {entry[number_field]!r}", player=player_id)
                    ok = False
                else:
                    values[number_field] = entry[number_field]
        for flag in ("played_last_round", "new"):
            if flag in entry:
                if not isinstance(entry[flag], bool):
                    errors.add(f"{where}.{flag}", "not_a_boolean",
                               f"{flag} of player {player_id} must be true or false, got {entry[flag]!r}",
                               player=player_id)
                    ok = False
                else:
                    values[flag] = entry[flag]
        if "club" in entry:
            if not _is_id(entry["club"]):
                errors.add(f"{where}.club", "bad_club",
                           f"club of player {player_id} must be a non-empty string, got {entry['club']!r}",
                           player=player_id)
                ok = False
            else:
                values["club"] = entry["club"]
        if values.get("new") and values.get("played_last_round"):
            errors.add(f"{where}.played_last_round", "late_entry_played",
                       f"player {player_id} is marked new (a late entry) and as having played the last round",
                       player=player_id)
            ok = False
        if standings_needed and not values.get("new", False):
            # The points system orders the field by these values; a missing one would silently
            # put the player in the wrong place, so it is an error rather than a default.
            for needed in ("points", "score", "played_last_round"):
                if needed not in entry:
                    errors.add(f"{where}.{needed}", "missing_field",
                               f"the points system needs {needed} of player {player_id} from round 2 on",
                               player=player_id)
                    ok = False
        if ok:
            if values.get("new"):
                values.setdefault("played_last_round", False)
            players.append(Player(id=player_id, **values))
    return tuple(players)


def _parse_history(raw: Any, errors: ErrorCollector) -> tuple[tuple[tuple[str, ...], ...], ...]:
    if not isinstance(raw, list):
        errors.add("history", "not_a_list", "history must be a list of rounds, each a list of tables")
        return ()
    rounds: list[tuple[tuple[str, ...], ...]] = []
    for round_index, round_tables in enumerate(raw):
        where = f"history[{round_index}]"
        if not isinstance(round_tables, list):
            errors.add(where, "not_a_list", f"{where} must be a list of tables")
            continue
        tables: list[tuple[str, ...]] = []
        seen: set[str] = set()
        for table_index, table in enumerate(round_tables):
            ids = _id_list(table, f"{where}[{table_index}]", errors)
            if ids is None:
                continue
            for player_id in ids:
                if player_id in seen:
                    errors.add(f"{where}[{table_index}]", "duplicate_player",
                               f"player {player_id} sits at two tables in {where}", player=player_id)
                seen.add(player_id)
            tables.append(ids)
        rounds.append(tuple(tables))
    return tuple(rounds)


def _entries(raw: Any, name: str, fields: set[str], list_shape: str, object_shape: str,
             errors: ErrorCollector) -> list[tuple[str, dict[str, Any]]] | None:
    """The objects of a list field with their paths; a non-list, every entry that is not an
    object and every unknown key are reported."""
    if not isinstance(raw, list):
        errors.add(name, "not_a_list", f"{name} must be a list of {list_shape}")
        return None
    out = []
    for index, entry in enumerate(raw):
        where = f"{name}[{index}]"
        if not isinstance(entry, dict):
            errors.add(where, "not_an_object", f"{where} must be an object with {object_shape}")
            continue
        for key in sorted(set(entry) - fields):
            errors.add(f"{where}.{key}", "unknown_field", f"{where} has an unknown field {key!r}")
        out.append((where, entry))
    return out


def _parse_previous_round(raw: Any, errors: ErrorCollector) -> tuple[PreviousTable, ...]:
    entries = _entries(raw, "previous_round", PREVIOUS_TABLE_FIELDS, "tables with players and placing",
                       "players and placing", errors)
    tables: list[PreviousTable] = []
    seen: set[str] = set()
    for where, entry in entries or []:
        players = _id_list(entry.get("players"), f"{where}.players", errors)
        if players is None:
            continue
        if not players:
            errors.add(f"{where}.players", "empty_table", f"{where} has no players")
            continue
        for player_id in players:
            if player_id in seen:
                errors.add(f"{where}.players", "duplicate_player",
                           f"player {player_id} sits at two tables of previous_round", player=player_id)
            seen.add(player_id)
        placing: tuple[str, ...] | None = None
        if entry.get("placing") is not None:
            placing = _id_list(entry["placing"], f"{where}.placing", errors)
            if placing is not None and sorted(placing) != sorted(players):
                errors.add(f"{where}.placing", "placing_mismatch",
                           f"{where}.placing must list exactly the table's players, first to last")
                placing = None
        totals: dict[str, float] | None = None
        if entry.get("totals") is not None:
            raw_totals = entry["totals"]
            if not isinstance(raw_totals, dict):
                errors.add(f"{where}.totals", "not_an_object", f"{where}.totals must map player id to total")
            elif sorted(raw_totals) != sorted(players):
                errors.add(f"{where}.totals", "totals_mismatch",
                           f"{where}.totals must give a total for exactly the table's players")
            elif not all(_is_number(v) for v in raw_totals.values()):
                errors.add(f"{where}.totals", "not_a_number", f"every total in {where}.totals must be a number")
            else:
                totals = dict(raw_totals)
        if placing is not None and totals is not None:
            ordered = [totals[p] for p in placing]
            if any(a < b for a, b in zip(ordered, ordered[1:], strict=False)):
                errors.add(f"{where}.placing", "placing_contradicts_totals",
                           f"{where}.placing puts a lower total before a higher one")
        tables.append(PreviousTable(players=players, placing=placing, totals=totals))
    return tuple(tables)


def _matchday_number(value: Any, where: str, matchdays: int, errors: ErrorCollector) -> int | None:
    if not _is_int(value) or not 1 <= value <= max(matchdays, 1):
        errors.add(where, "bad_matchday", f"{where} must be a matchday from 1 to {matchdays}, got {value!r}",
                   matchdays=matchdays)
        return None
    return value


def _parse_absences(raw: Any, known: set[str], matchdays: int,
                    errors: ErrorCollector) -> dict[int, frozenset[str]]:
    """`absences`: [{"matchday": 3, "players": ["7", "12"]}] — who cannot come to a matchday."""
    entries = _entries(raw, "absences", ABSENCE_FIELDS, "{matchday, players}", "matchday and players", errors)
    out: dict[int, set[str]] = {}
    for where, entry in entries or []:
        number = _matchday_number(entry.get("matchday"), f"{where}.matchday", matchdays, errors)
        ids = _id_list(entry.get("players"), f"{where}.players", errors)
        if number is None or ids is None:
            continue
        for player_id in ids:
            if player_id not in known:
                errors.add(f"{where}.players", "unknown_player",
                           f"player {player_id} is absent on matchday {number} but not in players",
                           player=player_id, matchday=number)
        out.setdefault(number, set()).update(p for p in ids if p in known)
    return {number: frozenset(ids) for number, ids in out.items()}


def _parse_fixed_seats(raw: Any, known: set[str], matchdays: int, absences: dict[int, frozenset[str]],
                       errors: ErrorCollector) -> tuple[FixedSeat, ...]:
    """`fixed_seats`: [{"player": "3", "table": 1, "matchdays": [1, 2]}] — officials who keep
    one table (every matchday when `matchdays` is left out)."""
    entries = _entries(raw, "fixed_seats", FIXED_SEAT_FIELDS, "{player, table, matchdays}", "player and table",
                       errors)
    seats: list[FixedSeat] = []
    taken: set[tuple[str, int]] = set()
    for where, entry in entries or []:
        player_id, table = entry.get("player"), entry.get("table")
        if not _is_id(player_id) or player_id not in known:
            errors.add(f"{where}.player", "unknown_player", f"{where}.player must be one of players, "
                       f"got {player_id!r}", player=player_id if _is_id(player_id) else None)
            continue
        if not _is_int(table) or table < 1:
            errors.add(f"{where}.table", "bad_table", f"{where}.table must be a table number >= 1, got {table!r}",
                       player=player_id)
            continue
        days: tuple[int, ...] | None = None
        if entry.get("matchdays") is not None:
            if not isinstance(entry["matchdays"], list) or not entry["matchdays"]:
                errors.add(f"{where}.matchdays", "not_a_list", f"{where}.matchdays must be a list of matchdays",
                           player=player_id)
                continue
            numbers = [_matchday_number(v, f"{where}.matchdays", matchdays, errors) for v in entry["matchdays"]]
            if any(n is None for n in numbers):
                continue
            days = tuple(sorted(set(numbers)))
        for number in days or range(1, matchdays + 1):
            if (player_id, number) in taken:
                errors.add(where, "duplicate_player", f"player {player_id} has two fixed seats on matchday "
                           f"{number}", player=player_id, matchday=number)
            taken.add((player_id, number))
            if player_id in absences.get(number, frozenset()):
                errors.add(where, "fixed_player_absent", f"player {player_id} has a fixed seat on matchday "
                           f"{number} but is absent then", player=player_id, matchday=number)
        seats.append(FixedSeat(player=player_id, table=table, matchdays=days))
    return tuple(seats)


def parse_request(request: Any) -> SeatingRequest:
    """Check the whole request and return its normalised form, or raise SeatingInvalid."""
    errors = ErrorCollector()
    _check_request_object(request, errors)
    system = _parse_system(request, errors)
    round_number, rounds = request.get("round"), request.get("rounds")
    _check_rounds(system, round_number, rounds, errors)
    table_size, min_table_size = _parse_table_sizes(request, system, errors)
    seed = _parse_seed(request.get("seed"), system, errors)

    players = _parse_players(request.get("players"), system, round_number, errors)
    history = _parse_history(request.get("history", []), errors)
    previous_round = _parse_previous_round(request.get("previous_round", []), errors)
    if system == "knockout" and _is_int(round_number):
        _check_knockout_previous_round(request, round_number, previous_round, errors)
    tables = _parse_tables(request, system, errors)
    absences, fixed_seats, club_weight = _parse_league_fields(request, system, players, rounds,
                                                              errors)

    errors.raise_if_any()
    return SeatingRequest(
        system=system,
        round=round_number,
        rounds=rounds if system == "league" else None,
        table_size=table_size,
        min_table_size=min_table_size,
        seed=seed,
        players=players,
        history=history,
        previous_round=previous_round,
        tables=tables,
        player_ids=tuple(p.id for p in players),
        absences=absences,
        fixed_seats=fixed_seats,
        club_weight=club_weight if system == "league" else DEFAULT_CLUB_WEIGHT,
    )


def _check_request_object(request: Any, errors: ErrorCollector) -> None:
    """The request is a JSON object (else nothing more can be read: raise now) of known
    fields."""
    if not isinstance(request, dict):
        errors.add("request", "not_an_object", "the seating request must be a JSON object")
        errors.raise_if_any()
    for key in sorted(set(request) - REQUEST_FIELDS):
        errors.add(key, "unknown_field",
                   f"unknown field {key!r} (known: {', '.join(sorted(REQUEST_FIELDS))})")


def _parse_system(request: dict, errors: ErrorCollector) -> str | None:
    """The seating system, None when it is not one of SYSTEMS (the checks that depend on the
    system are then left out)."""
    system = request.get("system")
    if system not in SYSTEMS:
        errors.add("system", "unknown_system",
                   f"system must be one of {', '.join(SYSTEMS)}, got {system!r}")
        return None
    return system


def _check_rounds(system: str | None, round_number: Any, rounds: Any, errors: ErrorCollector) -> None:
    """A league plans a season of `rounds` matchdays (`round` is optional); every other system
    seats one `round` and takes no `rounds`."""
    if system == "league":
        if not _is_int(rounds) or not 1 <= rounds <= LARGEST_ROUNDS:
            errors.add("rounds", "bad_rounds",
                       f"a league needs rounds, the number of matchdays (a whole number from 1 to "
                       f"{LARGEST_ROUNDS}), got {rounds!r}", largest=LARGEST_ROUNDS)
        if round_number is not None and (not _is_int(round_number) or round_number < 1):
            errors.add("round", "bad_round", f"round must be a whole number >= 1, got {round_number!r}")
    elif system is not None:
        if not _is_int(round_number) or round_number < 1:
            errors.add("round", "bad_round", f"round must be a whole number >= 1, got {round_number!r}")
        if rounds is not None:
            errors.add("rounds", "rounds_not_allowed",
                       "rounds (a whole season) is only for the league system; give round instead")


def _parse_table_sizes(request: dict, system: str | None, errors: ErrorCollector) -> tuple[Any, Any]:
    """`table_size` and `min_table_size` (the smallest table allowed, by default three or the
    table size when smaller); the knock-out seats four."""
    table_size = request.get("table_size", DEFAULT_TABLE_SIZE)
    table_size_ok = _is_int(table_size) and 2 <= table_size <= LARGEST_TABLE_SIZE
    if not table_size_ok:
        errors.add("table_size", "bad_table_size",
                   f"table_size must be a whole number from 2 to {LARGEST_TABLE_SIZE}, got {table_size!r}",
                   largest=LARGEST_TABLE_SIZE)
    default_min = min(DEFAULT_MIN_TABLE_SIZE, table_size) if table_size_ok else DEFAULT_MIN_TABLE_SIZE
    min_table_size = request.get("min_table_size", default_min)
    if not _is_int(min_table_size) or min_table_size < 1:
        errors.add("min_table_size", "bad_min_table_size",
                   f"min_table_size must be a whole number >= 1, got {min_table_size!r}")
    elif table_size_ok and min_table_size > table_size:
        errors.add("min_table_size", "bad_min_table_size",
                   f"min_table_size ({min_table_size}) is larger than table_size ({table_size})",
                   smallest=min_table_size, largest=table_size)
    if system == "knockout" and table_size_ok and table_size != 4:
        errors.add("table_size", "knockout_needs_four",
                   "the knock-out system seats four at a table, two go through (Tarok.net rules §4.1 a)")
    return table_size, min_table_size


def _parse_seed(seed: Any, system: str | None, errors: ErrorCollector) -> Any:
    """The seed of the draw: every system but the organiser's fixed one draws, so needs one."""
    if seed is None and system not in (None, "fixed"):
        errors.add("seed", "missing_seed", f"the {system} system draws, so it needs a whole-number seed")
    elif seed is not None and not _is_int(seed):
        errors.add("seed", "bad_seed", f"seed must be a whole number, got {seed!r}")
    return seed


def _check_knockout_previous_round(request: dict, round_number: int,
                                   previous_round: tuple[PreviousTable, ...],
                                   errors: ErrorCollector) -> None:
    """A knock-out's first round is a draw (no previous round); every later round needs the
    previous round with each table's placing or totals."""
    if round_number > 1 and not request.get("previous_round"):
        errors.add("previous_round", "knockout_needs_previous_round",
                   "a knock-out round after the first needs previous_round with every table's placing")
    if round_number == 1 and request.get("previous_round"):
        errors.add("previous_round", "previous_round_in_first_round",
                   "round 1 of a knock-out is a draw; previous_round must be empty")
    for index, table in enumerate(previous_round):
        if table.placing is None and table.totals is None:
            errors.add(f"previous_round[{index}]", "missing_placing",
                       f"previous_round[{index}] needs placing (first to last) or totals", table=index + 1)


def _parse_tables(request: dict, system: str | None,
                  errors: ErrorCollector) -> tuple[tuple[str, ...], ...] | None:
    """The organiser's own table list, which only the fixed system takes (and needs)."""
    if system == "fixed":
        raw_tables = request.get("tables")
        if not isinstance(raw_tables, list) or not raw_tables:
            errors.add("tables", "missing_tables", "the fixed system needs tables, the organiser's table list")
            return None
        parsed: list[tuple[str, ...]] = []
        for index, table in enumerate(raw_tables):
            ids = _id_list(table, f"tables[{index}]", errors)
            if ids is not None:
                parsed.append(ids)
        return tuple(parsed)
    if request.get("tables") is not None and system is not None:
        errors.add("tables", "tables_not_allowed", "tables (the organiser's own list) is only for the fixed system")
    return None


def _parse_league_fields(request: dict, system: str | None, players: tuple[Player, ...], rounds: Any,
                         errors: ErrorCollector
                         ) -> tuple[dict[int, frozenset[str]], tuple[FixedSeat, ...], Any]:
    """A league's absences, fixed seats and club weight; another system takes none of them."""
    absences: dict[int, frozenset[str]] = {}
    fixed_seats: tuple[FixedSeat, ...] = ()
    club_weight = request.get("club_weight", DEFAULT_CLUB_WEIGHT)
    if system == "league":
        known = {p.id for p in players}
        matchdays = rounds if _is_int(rounds) and rounds >= 1 else 0
        absences = _parse_absences(request.get("absences", []), known, matchdays, errors)
        fixed_seats = _parse_fixed_seats(request.get("fixed_seats", []), known, matchdays, absences, errors)
        if not _is_number(club_weight) or club_weight < 0:
            errors.add("club_weight", "bad_club_weight",
                       f"club_weight must be a number >= 0, got {club_weight!r}")
    elif system is not None:
        for name in LEAGUE_ONLY_FIELDS:
            if request.get(name) is not None:
                errors.add(name, "league_only", f"{name} is only for the league system")
    return absences, fixed_seats, club_weight
