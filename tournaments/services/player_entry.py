"""Players entered into an event: typed in one at a time at the desk, or imported from a CSV
file all or nothing (the file read, every row checked, then written in one transaction). Both
match the registry instead of creating a player twice; the player checks, the matching and
the file's limits (its bytes and rows, tournaments.domain.limits) are shared with the leagues'
import."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.domain import limits, rights, search
from tournaments.domain.countries import country_code
from tournaments.errors import ServiceError, TooLarge
from tournaments.models import (
    Event,
    Player,
    Registration,
)
from tournaments.services import audit
from tournaments.services.events import player_create, players_create_many
from tournaments.services.registrations import registration_create, registrations_create_many

PLAYER_IMPORT_COLUMNS = ("first_name", "last_name", "club", "country", "federation_id")


IMPORT_COLUMNS = (*PLAYER_IMPORT_COLUMNS, "start_number", "status")


IMPORT_STATUSES = (Registration.Status.REGISTERED, Registration.Status.CHECKED_IN,
                   Registration.Status.LATE_ENTRY)


def import_error(index: int | None, column: str, code: str, message: str) -> dict[str, Any]:
    field = "header" if index is None else (f"rows[{index}].{column}" if column else f"rows[{index}]")
    return {"hand": None, "field": field, "code": code, "message": message}


def refuse_oversized_csv(text: str, field: str) -> None:
    """Refuse (413, code `too_large`) an import text over CSV_IMPORT_MAX_BYTES before it is
    read as CSV. The pages and the API refuse an uploaded file by its size before reading it;
    this holds the same bound for every caller of the services."""
    # surrogatepass: a lone surrogate is counted, not a reason to fail (it is refused later).
    problem = limits.csv_too_large(len((text or "").encode("utf-8", "surrogatepass")), field)
    if problem is not None:
        raise TooLarge([problem])


def read_import_csv(text: str, columns: tuple[str, ...] = IMPORT_COLUMNS, *, field: str = "file"
                    ) -> tuple[list[tuple[int, int, dict[str, str]]], list[dict[str, Any]]]:
    """The data rows of an import file as (row index, file line, {column: value}), or the
    problems of its header. Spreadsheets export with commas, semicolons or tabs; the header
    line says which. `columns` are the columns a file may have (a league season's import
    has its own, leagues.services.members_import). A file with more data rows than
    CSV_IMPORT_MAX_ROWS is refused as soon as the reader passes them, naming `field` (the
    form's or the API's field the text came in)."""
    text = (text or "").lstrip("\ufeff")
    if not text.strip():
        return [], [import_error(None, "", "empty", "the file is empty")]
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        return [], [import_error(None, "", "invalid_text",
                                  _("line %(line)s: the file contains NUL characters, so it is "
                                    "not a text file") % {"line": line})]
    first_line = text.splitlines()[0]
    # Only the delimiter is taken from the header line; quoting stays the csv module's own
    # (doubled quotes inside quoted cells, "TK ""Kranj"""), which a sniffer reading one plain
    # line cannot see and would switch off.
    try:
        delimiter = csv.Sniffer().sniff(first_line, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(io.StringIO(text), csv.excel, delimiter=delimiter)
    header = [h.strip().lower().replace(" ", "_").replace("-", "_") for h in next(reader)]
    errors = []
    unknown = [h for h in header if h not in columns]
    if unknown:
        errors.append(import_error(None, "", "unknown_column",
                                    f"unknown columns: {', '.join(unknown)} (known: "
                                    f"{', '.join(columns)})"))
    repeated = sorted({h for h in header if header.count(h) > 1})
    if repeated:
        errors.append(import_error(None, "", "repeated_column",
                                    f"columns named twice: {', '.join(repeated)}"))
    missing = [c for c in ("first_name", "last_name") if c not in header]
    if missing:
        errors.append(import_error(None, "", "missing_column",
                                    f"missing columns: {', '.join(missing)}"))
    if errors:
        return [], errors
    rows = []
    index = -1
    data_rows, max_rows = 0, settings.CSV_IMPORT_MAX_ROWS
    try:
        for cells in reader:
            index += 1
            if not any(c.strip() for c in cells):
                continue
            data_rows += 1
            if data_rows > max_rows:
                # One row past the limit: the rest is not read, and nothing of it is kept.
                return [], [limits.csv_too_many_rows(field)]
            if len(cells) > len(header):
                errors.append(import_error(index, "", "too_many_cells",
                                            f"line {reader.line_num}: {len(cells)} cells, the "
                                            f"header has {len(header)}"))
                continue
            values = {c: "" for c in columns}
            values.update({h: cell.strip() for h, cell in zip(header, cells, strict=False)})
            rows.append((index, reader.line_num, values))
    except csv.Error as exc:
        errors.append(import_error(index + 1, "", "malformed",
                                    f"line {reader.line_num + 1}: not readable as CSV ({exc})"))
    if not rows and not errors:
        errors.append(import_error(None, "", "empty", "the file has a header but no players"))
    return rows, errors


def plan_import(event: Event, rows: list[tuple[int, int, dict[str, str]]], *, actor: Any,
                 match_names: bool = True) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Check every row against the event and the player registry and decide, per row, the
    player (an existing one or a new one), the start number and the status. A row without a
    federation id is the registry's player of the same name and club, whatever the case and
    diacritics (the search columns, tournaments.domain.search), unless `match_names` is off."""
    errors: list[dict[str, Any]] = []
    taken = set(event.registrations.values_list("start_number", flat=True))
    registered = set(event.registrations.values_list("player_id", flat=True))
    registry = ImportRegistry(rows, actor=actor, match_names=match_names)
    seen_players: dict[Any, int] = {}
    seen_numbers: dict[int, int] = {}
    plan = []
    for index, line, v in rows:
        # Called only within this iteration, so index and line are this row's.
        def bad(column: str, code: str, message: str) -> None:
            errors.append(import_error(index, column, code, f"line {line}: {message}"))  # noqa: B023

        new_player = registry.check_values(v, bad)
        number = None
        if v["start_number"]:
            try:
                number = int(v["start_number"])
            except ValueError:
                number = None
            if number is None or number < 1:
                bad("start_number", "invalid", f"start number must be a whole number from 1, "
                                               f"got {v['start_number']!r}")
                number = None
            elif number in taken:
                bad("start_number", "start_number_taken", f"start number {number} is taken")
            elif number in seen_numbers:
                bad("start_number", "duplicate", f"start number {number} is also on line "
                                                 f"{seen_numbers[number]}")
            else:
                seen_numbers[number] = line
        status = v["status"].lower().replace(" ", "_").replace("-", "_") or Registration.Status.REGISTERED
        if status not in IMPORT_STATUSES:
            bad("status", "invalid_choice", f"status must be one of {', '.join(IMPORT_STATUSES)}, "
                                            f"got {v['status']!r}")
        player, matched_by, key = registry.match(v, bad)
        if player is not None and player.pk in registered:
            bad("last_name", "already_registered", f"{player} is already registered")
        if key in seen_players:
            bad("last_name", "duplicate", f"the same player as on line {seen_players[key]}")
        else:
            seen_players[key] = line
        plan.append({"player": player, "matched_by": matched_by, "start_number": number,
                     "status": status, "new_player": new_player})
    # Rows without a number continue after the highest number in use or named in the file,
    # so that no automatic number collides with a later row's own.
    following = max([*taken, *seen_numbers, 0]) + 1
    for item in plan:
        if item["start_number"] is None:
            item["start_number"] = following
            following += 1
    return plan, errors


class ImportRegistry:
    """The player registry as a CSV import sees it: the checks of a row's player columns
    (first_name, last_name, club, country, federation_id) and the player a row names. Shared
    by an event's registration import and a league season's (leagues.services.members_import), so
    both find the same player where the other would.

    A federation id names its owner in the whole registry, also one of another organiser's
    private events (a returning player is recognised, never entered twice); but a refusal
    names him only to who may see him (tournaments.domain.rights): to anybody else a federation id
    of another name "belongs to another player"."""

    def __init__(self, rows: list[tuple[int, int, dict[str, str]]], *, actor: Any,
                 match_names: bool = True) -> None:
        fed_ids = {v["federation_id"] for _, _, v in rows if v["federation_id"]}
        self.by_fed = {p.federation_id: p for p in Player.objects.filter(federation_id__in=fed_ids)}
        self.visible = set(Player.objects.filter(
            rights.visible_players_q(actor), pk__in=[p.pk for p in self.by_fed.values()])
            .values_list("pk", flat=True))
        names = {search.player_key(v["first_name"], v["last_name"], v["club"])[0]
                 for _, _, v in rows if not v["federation_id"]}
        self.by_name: dict[tuple[str, str], list[Player]] = {}
        for p in Player.objects.filter(search_name__in=names).order_by("pk") if match_names else ():
            self.by_name.setdefault((p.search_name, p.search_club), []).append(p)

    @staticmethod
    def check_values(v: dict[str, str], bad: Any) -> dict[str, str]:
        """Report (through `bad(column, code, message)`) what is wrong with a row's player
        columns; the values of a new player made from the row."""
        missing = [c for c in ("first_name", "last_name") if not v[c]]
        for column in missing:
            bad(column, "required", f"the {column.replace('_', ' ')} is missing")
        country = country_code(v["country"])
        if country is None:
            bad("country", "invalid", _("%(value)s is not a country: give its name or its "
                                        "two-letter code (SI, AT, CZ)") % {"value": v["country"]})
        candidate = Player(first_name=v["first_name"], last_name=v["last_name"], club=v["club"],
                           country=country or "", federation_id=v["federation_id"])
        try:
            candidate.full_clean(exclude=["user", *missing], validate_unique=False,
                                 validate_constraints=False)
        except ValidationError as exc:
            for column, messages in exc.message_dict.items():
                for message in messages:
                    bad(column if column in PLAYER_IMPORT_COLUMNS else "", "invalid", message)
        return {"first_name": v["first_name"], "last_name": v["last_name"], "club": v["club"],
                "country": country or "", "federation_id": v["federation_id"]}

    def match(self, v: dict[str, str], bad: Any) -> tuple[Player | None, str, tuple]:
        """(the registry's player the row names or None, "name" when found by name and club,
        the row's identity for spotting the same person twice in one file)."""
        player = None
        matched_by = ""
        if v["federation_id"]:
            key: tuple = ("federation_id", v["federation_id"])
            player = self.by_fed.get(v["federation_id"])
            if player is not None and v["last_name"] and player.last_name.lower() != v["last_name"].lower():
                if player.pk in self.visible:
                    bad("federation_id", "federation_id_mismatch",
                        f"federation id {v['federation_id']} belongs to {player}, not "
                        f"{v['first_name']} {v['last_name']}".rstrip())
                else:
                    bad("federation_id", "federation_id_mismatch",
                        _("federation id %(id)s belongs to another player")
                        % {"id": v["federation_id"]})
        else:
            key = ("name", *search.player_key(v["first_name"], v["last_name"], v["club"]))
            matches = self.by_name.get(key[1:], [])
            if len(matches) > 1:
                bad("last_name", "ambiguous_player",
                    f"{len(matches)} players named {v['first_name']} {v['last_name']} of "
                    f"{v['club'] or 'no club'}: add the federation id")
            elif matches:
                player = matches[0]
                matched_by = "name"
        return player, matched_by, key


class ImportedRegistrations(list):
    """The registrations an import created, in the file's order, and the players it found
    in the registry by name and club (`reused`) rather than creating them again."""

    def __init__(self) -> None:
        super().__init__()
        self.reused: list[Player] = []


@transaction.atomic
def registrations_import_csv(*, event: Event, text: str, actor: Any,
                             field: str = "file") -> ImportedRegistrations:
    """Register the players of a CSV file (columns first_name, last_name, club, country,
    federation_id, start_number, status; a header line names them).

    At most CSV_IMPORT_MAX_BYTES bytes (else 413, `too_large`) and CSV_IMPORT_MAX_ROWS data
    rows (else 400, `too_many_rows`); both refusals name `field`, the field the text came in.

    All or nothing: every row is checked first, and one bad row refuses the whole file with
    every problem listed as `rows[i].<column>` (i counts data rows from 0, blank lines
    included; each message names the file line too). A row names an existing player by
    federation id, or by first name, last name and club (ignoring case and diacritics: the
    result lists him under `reused`); otherwise a new player is created. The country is a
    code or a name (tournaments.domain.countries). Rows without a start number get the next ones
    after the highest number in use or in the file. Delimiters may be commas, semicolons or
    tabs.
    """
    rights.require_organiser(actor, event)
    refuse_oversized_csv(text, field)
    # Lock the event so no registration slips in between the check and the writes.
    event = Event.objects.select_for_update().get(pk=event.pk)
    rows, errors = read_import_csv(text, field=field)
    plan: list[dict[str, Any]] = []
    if not errors:
        plan, errors = plan_import(event, rows, actor=actor)
    if errors:
        raise ServiceError(errors)
    # In bulk: the new players, then the registrations, each with the checks and the audit
    # entry of player_create and registration_create (a query or more per row took over a
    # minute for 10,000 rows). What they refuse the plan has already checked; should they
    # refuse anything, it is named at its row.
    create_players_of_plan(plan, rows, actor)
    with refusals_at_rows("entries", rows):
        registrations = registrations_create_many(
            event=event, actor=actor,
            entries=[(item["player"], item["start_number"], item["status"]) for item in plan])
    created = ImportedRegistrations()
    created.extend(registrations)
    created.reused.extend(item["player"] for item in plan if item["matched_by"] == "name")
    audit.record(actor=actor, action="registration.import", target=event, event=event,
                 after={"rows": len(created),
                        "start_numbers": [r.start_number for r in created],
                        "reused_players": [p.pk for p in created.reused]})
    return created


def _may_use(actor: Any, player: Player, values: dict[str, str]) -> bool:
    """Whether the organiser may register this existing player: one he may see in the
    registry, or the one the registry offered him for the name and club he typed."""
    if rights.can_view_player(actor, player):
        return True
    name, club = search.player_key(values["first_name"], values["last_name"], values["club"])
    return player.search_name == name and player.search_club == club


@contextmanager
def refusals_at_rows(name: str, rows: list[tuple[int, int, dict[str, str]]]) -> Iterator[None]:
    """A bulk service's refusals of `name[k].<field>` (the k-th row of the plan) said at the
    file's row, `rows[i].<field>`, with its line, like the plan's own refusals."""
    try:
        yield
    except ServiceError as exc:
        errors = []
        for error in exc.errors:
            field = str(error.get("field") or "")
            match = re.fullmatch(rf"{name}\[(\d+)\]\.?(.*)", field)
            if match is None:
                errors.append(error)
                continue
            index, line, _values = rows[int(match[1])]
            errors.append(import_error(index, match[2], error["code"],
                                       f"line {line}: {error['message']}"))
        exc.errors = errors
        raise


def create_players_of_plan(plan: list[dict[str, Any]], rows: list[tuple[int, int, dict[str, str]]],
                           actor: Any) -> None:
    """Create, together, the registry's new players an import's plan needs (the items without
    a player), with `player_create`'s checks and audit entries, and put them into the plan."""
    needed = [k for k, item in enumerate(plan) if item["player"] is None]
    if not needed:
        # Nothing to create, nothing to ask: row by row, player_create was not called either.
        return
    with refusals_at_rows("players", [rows[k] for k in needed]):
        players = players_create_many(players=[plan[k]["new_player"] for k in needed], actor=actor)
    for k, player in zip(needed, players, strict=True):
        plan[k]["player"] = player


@transaction.atomic
def registration_add(*, event: Event, actor: Any, first_name: str, last_name: str,
                     club: str = "", country: str = "", federation_id: str = "",
                     start_number: int | None = None,
                     status: str = Registration.Status.REGISTERED,
                     use_player: Player | None = None, new_player: bool = False) -> Registration:
    """Register one player typed in by the organiser, with the same checks as a row of the
    CSV import: an existing player is found by federation id (or by name and club, ignoring
    case and diacritics) rather than created twice; the start number is the next free one
    unless given. The organiser may settle who it is himself: `use_player`, the registry's
    player to register, or `new_player`, a new player even though one of the same name and
    club exists (a namesake; a federation id still names its owner)."""
    rights.require_organiser(actor, event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    values = {column: "" for column in IMPORT_COLUMNS}
    values.update(first_name=first_name.strip(), last_name=last_name.strip(), club=club.strip(),
                  country=country.strip(), federation_id=federation_id.strip(),
                  start_number=str(start_number) if start_number else "", status=status)
    plan, errors = plan_import(event, [(0, 1, values)], actor=actor,
                                match_names=use_player is None and not new_player)
    if use_player is not None and not _may_use(actor, use_player, values):
        # A player of another organiser's private events, named by his id alone, does not
        # exist for this organiser; one the registry matched for the typed name and club does.
        errors.append({"hand": None, "field": "use_player", "code": "not_found",
                       "message": _("That player is no longer in the registry.")})
    elif use_player is not None and event.registrations.filter(player=use_player).exists():
        errors.append({"hand": None, "field": "use_player", "code": "already_registered",
                       "message": _("%(player)s is already registered") % {"player": use_player}})
    if errors:
        raise ServiceError([{**e, "field": e["field"].removeprefix("rows[0]").lstrip(".") or "last_name",
                             "message": e["message"].removeprefix("line 1: ")} for e in errors])
    item = plan[0]
    if use_player is not None:
        item["player"] = use_player
    player = item["player"] or player_create(**item["new_player"], actor=actor)
    return registration_create(event=event, player=player, actor=actor,
                               start_number=item["start_number"], status=item["status"])
