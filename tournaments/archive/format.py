"""The archive's format (docs/archive-format.md): its name and version, the plain fields of each
archived object in the models' own names, and writing and reading the deterministic JSON
(sorted keys, UTC times, natural keys instead of database ids)."""

from __future__ import annotations

import copy
import datetime as dt
import functools
import importlib.metadata
import json
import tomllib
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Cast

from scoring.engine import CONTRACT_VERSION
from tournaments.domain import limits
from tournaments.domain.exact_points import ExactPointsField, parse_points, points_text
from tournaments.errors import ServiceError
from tournaments.models import (
    AuditEntry,
    Dispute,
    Event,
    Hand,
    MoneySheetRow,
    Penalty,
    Player,
    Registration,
    Round,
    Scorecard,
    Seat,
    StandingsAdjustment,
    Table,
)
from tournaments.runtime import collector

FORMAT = "tarok-archive"
VERSION = 1
IMPORT_ACTION = "archive.import"
# Audit actions that tell the story of one database copy, not of the event: an archive leaves
# them out, otherwise importing a file and exporting it again could never give the same file.
# A venue laptop's own bookkeeping of an event it took from a server (tournaments.venue) is
# such a story too: its pushes must carry the event's archive as the server would write it.
LOCAL_ACTIONS = frozenset({IMPORT_ACTION, "venue.held", "venue.returned", "venue.taken_back"})

# The plain fields of each archived object, in the models' own names. Relations are written
# as natural keys under the names documented in docs/archive-format.md; `LEFT_OUT` says why a
# model field is not in the archive (tests/tournaments/archive/test_fields.py checks that every
# field is one or the other, so a new model field cannot silently miss the backups).
EVENT_FIELDS = (
    "name", "slug", "venue", "starts_on", "ends_on", "time_zone", "language", "ruleset_code",
    "ruleset_mode", "ruleset_options", "seating_system", "seating_options", "planned_rounds",
    "hands_per_round", "round_duration_minutes", "table_size", "min_table_size", "stake_haler",
    "status", "is_public", "card_confirmation", "one_phone_per_table", "seating_pool", "rated",
    "created_at",
    "updated_at",
)
PLAYER_FIELDS = ("first_name", "last_name", "club", "country", "federation_id")
REGISTRATION_FIELDS = ("start_number", "status", "tournament_points", "score", "absent_rounds",
                       "registered_at", "checked_in_at")
ROUND_FIELDS = ("number", "status", "seating_system", "seed", "seating_version", "repeat_pairs",
                "notes", "byes", "eliminated", "published_at", "clock_started_at", "closed_at",
                "created_at")
TABLE_FIELDS = ("number", "section")
SEAT_FIELDS = ("position",)
SCORECARD_FIELDS = ("ruleset_code", "ruleset_mode", "ruleset_options", "player_ids", "status",
                    "version", "totals", "state", "submitted_by_seat", "confirmed_by_seat",
                    "submitted_by_device", "confirmed_on_submitting_phone",
                    "confirmed_against_paper", "annulled_reason", "updated_at")
HAND_FIELDS = ("number", "record", "value", "scores", "running_totals", "state", "lines",
               "payout", "entered_at", "entered_by_seat", "confirmed_at", "confirmed_by_seat")
MONEY_ROW_FIELDS = ("bought_haler", "money_haler", "result_haler")
PENALTY_FIELDS = ("kind", "description", "created_at")
DISPUTE_FIELDS = ("raised_by_name", "description", "status", "decision", "raised_at",
                  "decided_at")
ADJUSTMENT_FIELDS = ("points_delta", "score_delta", "reason", "created_at")
AUDIT_FIELDS = ("actor_label", "via", "device", "action", "object_repr", "before", "after",
                "reason", "created_at")

# Model fields written under another name (as a natural key) or derived from the nesting.
RELATION_KEYS: dict[type[models.Model], dict[str, str]] = {
    Event: {"organisers": "organisers (usernames)", "referees": "referees (usernames)"},
    Player: {"user": "user (username)"},
    Registration: {"event": "nesting", "player": "player (natural key)"},
    Round: {"event": "nesting"},
    Table: {"round": "nesting"},
    Seat: {"round": "nesting", "table": "nesting", "registration": "start_number"},
    Scorecard: {"table": "nesting", "submitted_by": "submitted_by (username)",
                "confirmed_by": "confirmed_by (username)", "verified_by": "verified_by (username)"},
    Hand: {"scorecard": "nesting", "entered_by": "entered_by (username)",
           "confirmed_by": "confirmed_by (username)"},
    MoneySheetRow: {"scorecard": "nesting", "registration": "start_number"},
    Penalty: {"event": "nesting", "table": "table {round, table}", "hand": "hand (number)",
              "registration": "start_number", "recorded_by": "recorded_by (username)"},
    Dispute: {"event": "nesting", "table": "table {round, table}", "hand": "hand (number)",
              "raised_by": "raised_by (username)", "decided_by": "decided_by (username)",
              "correction": "correction (index into audit)"},
    StandingsAdjustment: {"event": "nesting", "registration": "start_number",
                          "created_by": "created_by (username)"},
    AuditEntry: {"actor": "actor (username)", "content_type": "target.type",
                 "object_id": "target.ref", "event": "nesting", "table": "table {round, table}"},
}
LEFT_OUT: dict[type[models.Model], dict[str, str]] = {
    Event: {"id": "database id",
            "results_version": "a cache key of this database's public pages, bumped by the "
                               "audited changes they show; it restarts on import",
            "round_messages": "a setting of the running event's e-mails (format version 1 has "
                              "no place for it); a restored event sends them, as a new one does",
            "correction_messages": "as round_messages",
            # Online entry (issue #31) is the intake before the day; the registrations it
            # made are archived, its settings and its entries (with their addresses) are not.
            "online_entry": "a setting of the intake before the day (format version 1 has no "
                            "place for it); a restored event takes no entries online",
            "entry_deadline": "as online_entry", "entry_cap": "as online_entry",
            "entry_approval": "as online_entry", "entry_federation_id": "as online_entry",
            "entry_messages": "as round_messages",
            "players_may_withdraw": "a setting of the running event's personal pages (format "
                                    "version 1 has no place for it); off in a restored event"},
    Player: {"id": "database id",
             "created_at": "the player registry is shared by every event; its own history is "
                           "not the event's",
             "updated_at": "as created_at",
             "search_name": "derived from the names by Player.save (tournaments.domain.search)",
             "search_club": "derived from the club by Player.save (tournaments.domain.search)",
             "created_by": "who entered the record into this server's registry; an import "
                           "enters the players it creates itself",
             "career_hidden": "a wish the player states to the site that keeps his record; "
                              "an import reuses a matched player with his wish and creates a "
                              "new one public (format version 1 has no place for it)"},
    # The player's own choices on his personal page: his address is for his messages only,
    # and an archive is read by others (issue #31).
    Registration: {"id": "database id",
                   "email": "the player's address, for the messages he asked for only",
                   "round_messages": "the player's wish for messages, asked with his address",
                   "correction_messages": "as round_messages",
                   "message_language": "the language of his messages, asked with his address"},
    # The generation key is the seating job's key, which holds the event's database id; it
    # only makes a retried generation find its round, and no job survives an import.
    Round: {"id": "database id", "generation_key": "names a seating job of the source database",
            "cards_version": "a cache key of the round's public page, like results_version"},
    Table: {"id": "database id"},
    Seat: {"id": "database id"},
    Scorecard: {"id": "database id"},
    Hand: {"id": "database id"},
    MoneySheetRow: {"id": "database id"},
    Penalty: {"id": "database id"},
    Dispute: {"id": "database id"},
    StandingsAdjustment: {"id": "database id"},
    AuditEntry: {"id": "database id"},
}

# The object id of an audit entry whose object is outside the archive or was deleted: no row
# ever has id 0, so the generic relation names nothing, as it did in the source database (an
# empty id would make reading the relation fail instead of giving None).
NO_OBJECT = "0"

# Audit entries point at any object through a generic relation; the archive names the object
# by a natural key inside the event. Objects of other types, or no longer there, are `null`.
TARGET_KEYS: dict[str, tuple[str, ...]] = {
    "tournaments.event": ("slug",),
    "tournaments.registration": ("start_number",),
    "tournaments.player": ("start_number",),
    "tournaments.round": ("round",),
    "tournaments.table": ("round", "table"),
    "tournaments.scorecard": ("round", "table"),
    "tournaments.seat": ("round", "table", "position"),
    "tournaments.hand": ("round", "table", "hand"),
    "tournaments.moneysheetrow": ("round", "table", "start_number"),
    "tournaments.penalty": ("penalty",),
    "tournaments.dispute": ("dispute",),
    "tournaments.standingsadjustment": ("adjustment",),
}



@functools.lru_cache(maxsize=1)
def _application_version() -> str:
    try:
        return importlib.metadata.version("tarok-tournaments")
    except importlib.metadata.PackageNotFoundError:
        # A checkout run without installing the package: the version is in pyproject.toml.
        try:
            with open(settings.BASE_DIR / "pyproject.toml", "rb") as fh:
                return str(tomllib.load(fh)["project"]["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


def exported_with() -> dict[str, Any]:
    """What wrote the file. No export time: the file of the same data must be the same bytes."""
    return {"application": "tarok-tournaments", "version": _application_version(),
            "scorecard_contract": CONTRACT_VERSION}


def dumps(doc: dict[str, Any]) -> str:
    """The archive's one text form: sorted keys, two-space indent, UTF-8 text as is, a final
    newline (`json.dumps(doc, sort_keys=True, ensure_ascii=False, indent=2) + "\\n"`, byte for
    byte). Equal documents give equal bytes."""
    out: list[str] = []
    try:
        _indented(doc, "\n", out)
    except _NotPlain:
        return json.dumps(doc, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
    out.append("\n")
    return "".join(out)


class _NotPlain(Exception):
    """A value `_indented` leaves to the standard library (a key that is not text, a type JSON
    has no word for): the whole document is then written by `json.dumps`."""


_CONTAINERS = (dict, list, tuple)
_encode_text = json.encoder.encode_basestring  # the C encoder's, as json.dumps uses


def _not_plain(value: Any) -> Any:
    raise _NotPlain


@functools.cache
def _flat(inner: str) -> Any:
    """A function writing a container of plain values (no container in it) as `indent=2`
    writes it at the depth whose lines begin with `inner`, but for its brackets' own lines:
    the standard library's C encoder with that line break as its item separator."""
    encoder = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=("," + inner, ": "),
                               default=_not_plain)
    if json.encoder.c_make_encoder is None:  # pragma: no cover - CPython has it
        return encoder.encode
    try:
        # CPython's private C encoder (the same arguments from 3.11 to 3.13); a Python that
        # changed them falls back to the public, slower encoder rather than failing.
        make = json.encoder.c_make_encoder(None, _not_plain, _encode_text, None, ": ",
                                           "," + inner, True, False, True)
    except TypeError:  # pragma: no cover
        return encoder.encode
    return lambda value: "".join(make(value, 0))


_plain_text = _flat("")


def _indented(value: Any, newline: str, out: list[str]) -> None:
    """`value` as `json.dumps(..., sort_keys=True, ensure_ascii=False, indent=2)` writes it at
    the depth whose lines begin with `newline`. Python's json writes an indented document with
    its pure-Python encoder, several times slower than its C one (2 s for the archive of a
    256-player day); here only the containers that hold containers are walked in Python, the
    others are written by the C encoder (`_flat`)."""
    if isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        if not any(isinstance(v, _CONTAINERS) for v in value.values()):
            text = _flat(inner)(value)
            out.append("{" + inner + text[1:-1] + newline + "}")
            return
        if not all(type(key) is str for key in value):
            raise _NotPlain
        comma = "," + inner
        out.append("{" + inner)
        first = True
        for key in sorted(value):
            if not first:
                out.append(comma)
            first = False
            item = value[key]
            if type(item) is str:
                out.append(_encode_text(key) + ": " + _encode_text(item))
            elif isinstance(item, _CONTAINERS):
                out.append(_encode_text(key) + ": ")
                _indented(item, inner, out)
            else:
                out.append(_encode_text(key) + ": " + _plain_text(item))
        out.append(newline + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        if not any(isinstance(v, _CONTAINERS) for v in value):
            text = _flat(inner)(value)
            out.append("[" + inner + text[1:-1] + newline + "]")
            return
        comma = "," + inner
        out.append("[" + inner)
        first = True
        for item in value:
            if not first:
                out.append(comma)
            first = False
            if isinstance(item, _CONTAINERS):
                _indented(item, inner, out)
            else:
                out.append(_plain_text(item))
        out.append(newline + "]")
    else:
        out.append(_plain_text(value))


def loads(text: str | bytes) -> Any:
    """Parse an archive file, or refuse it as a contract-shaped error."""
    # Read with the limits of every JSON input: no nesting deeper than the limit, no NUL or
    # other characters that no stored text may hold, no NaN (tournaments.domain.limits). The
    # collector waits while the tree is made (tournaments.runtime.collector): its passes over
    # the growing tree were a third of reading an archive of 1,024 players.
    try:
        return collector.run_paused(limits.load_json, text, field="archive")
    except limits.JsonRefused as exc:
        raise ServiceError(exc.errors) from exc


def utc_iso(value: dt.datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def field_out(model: type[models.Model], name: str, value: Any) -> Any:
    """A model value as the archive writes it."""
    if value is None:
        return None
    convert = _converter(model, name)
    return value if convert is None else convert(value)


def _decimal_out(places: int) -> Any:
    quantum = Decimal(1).scaleb(-places)
    return lambda value: format(Decimal(value).quantize(quantum), "f")


@functools.cache
def _converter(model: type[models.Model], name: str) -> Any:
    """How a model field's (non-null) value is written, or None when it is written as it is:
    looked up once per field, not once per value (an archive holds millions of values)."""
    f = model._meta.get_field(name)
    if isinstance(f, models.DateTimeField):
        return utc_iso
    if isinstance(f, models.DateField):
        return dt.date.isoformat
    if isinstance(f, ExactPointsField):
        return lambda value: points_text(parse_points(value))
    if isinstance(f, models.DecimalField):
        return _decimal_out(f.decimal_places)
    if isinstance(f, models.JSONField):
        return copy.deepcopy
    return None


@functools.cache
def _row_converters(model: type[models.Model], names: tuple[str, ...]
                    ) -> tuple[tuple[str, Any], ...]:
    out = []
    for name in names:
        convert = _converter(model, name)
        # A row read with values() holds JSON freshly decoded for this export alone, so its
        # JSON values are written without a copy.
        if convert is copy.deepcopy:
            convert = None
        out.append((name, convert))
    return tuple(out)


def plain(obj: models.Model, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: field_out(type(obj), n, getattr(obj, n)) for n in names}


def plain_row(model: type[models.Model], names: tuple[str, ...], row: dict[str, Any]
              ) -> dict[str, Any]:
    """`plain` of a row read with `values()` (the same values as the model's attributes)."""
    return {name: row[name] if convert is None or row[name] is None else convert(row[name])
            for name, convert in _row_converters(model, names)}


def json_values(queryset: models.QuerySet, *names: str) -> list[dict[str, Any]]:
    """`queryset.values(*names)`, its JSON fields read as their text and decoded together, one
    `json.loads` for each field's whole column: decoding each value by itself (through the
    field's converter) was a third of an export of 1,024 players. The same values as values()
    gives: SQL NULL and JSON null are both None."""
    model = queryset.model
    json_names = [n for n in names if n != "pk" and "__" not in n
                  and isinstance(model._meta.get_field(n), models.JSONField)]
    texts = {f"json_text_{n}": Cast(n, models.TextField()) for n in json_names}
    rows = list(queryset.values(*(n for n in names if n not in json_names), **texts))
    for name, alias in zip(json_names, texts, strict=True):
        column = [row.pop(alias) for row in rows]
        decoded = json.loads("[" + ",".join("null" if t is None else t for t in column) + "]")
        for row, value in zip(rows, decoded, strict=True):
            row[name] = value
    return rows


def username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def usernames_of(manager: Any) -> list[str]:
    return sorted(u.get_username() for u in manager.all())


def player_key(player: Player) -> dict[str, Any]:
    out = plain(player, PLAYER_FIELDS)
    out["user"] = username(player.user)
    return out
