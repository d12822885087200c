"""The open archive format of an event (docs/archive-format.md): export an event with
everything needed to rebuild it, write it as deterministic JSON, and import such a file into
another database.

Responsibilities:
- `export_event(event) -> dict` and `dumps(doc) -> str`: the archive as a document with natural
  keys only (start numbers, round, table and hand numbers, usernames), no database ids, UTC
  timestamps, lists in a stable order; `dumps` sorts keys, so export, import into an empty
  database and export again gives the same bytes.
- `validate_event(doc) -> list of errors` and `import_event(doc, actor) -> Event`: the whole
  file is checked before anything is written (format, version, kind, every key and value,
  every reference, and every stored score against the scoring engine) and refused with every
  problem listed at its path (`event.rounds[0].tables[2].seats[1].start_number`); then the
  event is written in one transaction, re-scored from the database once more, and an
  `archive.import` audit entry records the import.

This module is a service of its own: it writes the models directly rather than through
`tournaments.services`, because replaying the services would renumber versions, restamp
every time and add audit entries, and the archive must come back exactly as it was.

The building blocks (`Checker`, `PlayerResolver`, `check_event_body`, `write_event_body`,
`event_body`) are shared with `leagues.archive`, whose season archives embed events.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import hashlib
import importlib.metadata
import json
import os
import shutil
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

import scoring
from scoring.engine import CONTRACT_VERSION
from tournaments import archive_checks, audit, hooks, limits, services, table_links
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
from tournaments.rulesets import is_money_ruleset

FORMAT = "tarok-archive"
VERSION = 1
IMPORT_ACTION = "archive.import"
# Audit actions that tell the story of one database copy, not of the event: an archive leaves
# them out, otherwise importing a file and exporting it again could never give the same file.
LOCAL_ACTIONS = frozenset({IMPORT_ACTION})

# The plain fields of each archived object, in the models' own names. Relations are written
# as natural keys under the names documented in docs/archive-format.md; `LEFT_OUT` says why a
# model field is not in the archive (tests/integration/test_archive_fields.py checks that every
# field is one or the other, so a new model field cannot silently miss the backups).
EVENT_FIELDS = (
    "name", "slug", "venue", "starts_on", "ends_on", "time_zone", "language", "ruleset_code",
    "ruleset_mode", "ruleset_options", "seating_system", "seating_options", "planned_rounds",
    "hands_per_round", "round_duration_minutes", "table_size", "min_table_size", "stake_haler",
    "status", "is_public", "card_confirmation", "seating_pool", "created_at", "updated_at",
)
PLAYER_FIELDS = ("first_name", "last_name", "club", "country", "federation_id")
REGISTRATION_FIELDS = ("start_number", "status", "tournament_points", "score", "registered_at",
                       "checked_in_at")
ROUND_FIELDS = ("number", "status", "seating_system", "seed", "seating_version", "repeat_pairs",
                "notes", "byes", "eliminated", "published_at", "clock_started_at", "closed_at",
                "created_at")
TABLE_FIELDS = ("number", "section")
SEAT_FIELDS = ("position",)
SCORECARD_FIELDS = ("ruleset_code", "ruleset_mode", "ruleset_options", "player_ids", "status",
                    "version", "totals", "state", "submitted_by_seat", "confirmed_by_seat",
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
                               "audited changes they show; it restarts on import"},
    Player: {"id": "database id",
             "created_at": "the player registry is shared by every event; its own history is "
                           "not the event's",
             "updated_at": "as created_at",
             "search_name": "derived from the names by Player.save (tournaments.search)",
             "search_club": "derived from the club by Player.save (tournaments.search)"},
    Registration: {"id": "database id"},
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


# ---------------------------------------------------------------------------------------
# Writing the document
# ---------------------------------------------------------------------------------------

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
    newline. Equal documents give equal bytes."""
    return json.dumps(doc, sort_keys=True, ensure_ascii=False, indent=2) + "\n"


def loads(text: str | bytes) -> Any:
    """Parse an archive file, or refuse it as a contract-shaped error."""
    # Read with the limits of every JSON input: no nesting deeper than the limit, no NUL or
    # other characters that no stored text may hold, no NaN (tournaments.limits).
    try:
        return limits.load_json(text, field="archive")
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
    f = model._meta.get_field(name)
    if isinstance(f, models.DateTimeField):
        return utc_iso(value)
    if isinstance(f, models.DateField):
        return value.isoformat()
    if isinstance(f, models.DecimalField):
        return format(Decimal(value).quantize(Decimal(1).scaleb(-f.decimal_places)), "f")
    if isinstance(f, models.JSONField):
        return copy.deepcopy(value)
    return value


def plain(obj: models.Model, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: field_out(type(obj), n, getattr(obj, n)) for n in names}


def username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def usernames_of(manager: Any) -> list[str]:
    return sorted(u.get_username() for u in manager.all())


def player_key(player: Player) -> dict[str, Any]:
    out = plain(player, PLAYER_FIELDS)
    out["user"] = username(player.user)
    return out


def export_event(event: Event) -> dict[str, Any]:
    """The archive document of one event."""
    return {"format": FORMAT, "version": VERSION, "kind": "event",
            "exported_with": exported_with(), "event": event_body(event)}


def event_body(event: Event) -> dict[str, Any]:
    """The `event` member of an archive: the event and everything that belongs to it.

    A fixed number of queries whatever the size of the event."""
    body = plain(event, EVENT_FIELDS)
    body["organisers"] = usernames_of(event.organisers)
    body["referees"] = usernames_of(event.referees)

    regs = list(event.registrations.select_related("player__user").order_by("start_number"))
    sn_of = {r.pk: r.start_number for r in regs}
    body["registrations"] = [
        {**plain(r, REGISTRATION_FIELDS), "player": player_key(r.player)} for r in regs
    ]

    rounds = list(event.rounds.order_by("number"))
    tables = list(Table.objects.filter(round__event=event).select_related("round")
                  .order_by("round__number", "number"))
    table_key = {t.pk: (t.round.number, t.number) for t in tables}
    cards = {c.table_id: c for c in Scorecard.objects.filter(table__round__event=event)
             .select_related("submitted_by", "confirmed_by", "verified_by")}
    seats: dict[int, list[Seat]] = {}
    for s in Seat.objects.filter(round__event=event).order_by("position"):
        seats.setdefault(s.table_id, []).append(s)
    hands: dict[int, list[Hand]] = {}
    hand_key: dict[int, tuple[int, int, int]] = {}
    for h in (Hand.objects.filter(scorecard__table__round__event=event)
              .select_related("entered_by", "confirmed_by", "scorecard").order_by("number")):
        hands.setdefault(h.scorecard_id, []).append(h)
        hand_key[h.pk] = (*table_key[h.scorecard.table_id], h.number)
    rows: dict[int, list[MoneySheetRow]] = {}
    for row in MoneySheetRow.objects.filter(scorecard__table__round__event=event):
        rows.setdefault(row.scorecard_id, []).append(row)

    by_round: dict[int, list[dict[str, Any]]] = {}
    for t in tables:
        card = cards.get(t.pk)
        by_round.setdefault(t.round_id, []).append({
            **plain(t, TABLE_FIELDS),
            "seats": [{**plain(s, SEAT_FIELDS), "start_number": sn_of[s.registration_id]}
                      for s in seats.get(t.pk, [])],
            "scorecard": None if card is None else _card_body(card, hands.get(card.pk, []),
                                                              rows.get(card.pk, []), sn_of),
        })
    body["rounds"] = [{**plain(r, ROUND_FIELDS), "tables": by_round.get(r.pk, [])} for r in rounds]

    def table_ref(table_id: int | None) -> dict[str, int] | None:
        if table_id is None or table_id not in table_key:
            return None
        rnd, number = table_key[table_id]
        return {"round": rnd, "table": number}

    def hand_number(hand_id: int | None) -> int | None:
        return hand_key[hand_id][2] if hand_id in hand_key else None

    penalties = sorted(
        event.penalties.select_related("recorded_by"),
        key=lambda p: (p.created_at, table_key.get(p.table_id, (0, 0)),
                       hand_number(p.hand_id) or 0, sn_of[p.registration_id], p.kind, p.pk))
    body["penalties"] = [
        {**plain(p, PENALTY_FIELDS), "table": table_ref(p.table_id), "hand": hand_number(p.hand_id),
         "start_number": sn_of[p.registration_id], "recorded_by": username(p.recorded_by)}
        for p in penalties
    ]
    adjustments = sorted(event.standings_adjustments.select_related("created_by"),
                         key=lambda a: (a.created_at, sn_of[a.registration_id], a.pk))
    body["standings_adjustments"] = [
        {**plain(a, ADJUSTMENT_FIELDS), "start_number": sn_of[a.registration_id],
         "created_by": username(a.created_by)}
        for a in adjustments
    ]
    entries = sorted(event.audit_entries.exclude(action__in=LOCAL_ACTIONS)
                     .select_related("actor", "content_type"),
                     key=lambda e: (e.created_at, e.pk))
    entry_index = {e.pk: i for i, e in enumerate(entries)}
    disputes = sorted(event.disputes.select_related("raised_by", "decided_by"),
                      key=lambda d: (d.raised_at, d.pk))
    body["disputes"] = [
        {**plain(d, DISPUTE_FIELDS), "table": table_ref(d.table_id), "hand": hand_number(d.hand_id),
         "raised_by": username(d.raised_by), "decided_by": username(d.decided_by),
         "correction": entry_index.get(d.correction_id)}
        for d in disputes
    ]

    refs = _target_refs(event, regs, rounds, tables, table_key, cards, hand_key, rows,
                        penalties, disputes, adjustments)
    body["audit"] = [
        audit_out(e, refs.get((e.content_type.app_label, e.content_type.model), {}).get(e.object_id),
                  table_ref(e.table_id))
        for e in entries
    ]
    return body


def _card_body(card: Scorecard, hands: list[Hand], rows: list[MoneySheetRow],
               sn_of: dict[int, int]) -> dict[str, Any]:
    return {
        **plain(card, SCORECARD_FIELDS),
        "submitted_by": username(card.submitted_by),
        "confirmed_by": username(card.confirmed_by),
        "verified_by": username(card.verified_by),
        "hands": [{**plain(h, HAND_FIELDS), "entered_by": username(h.entered_by),
                   "confirmed_by": username(h.confirmed_by)} for h in hands],
        "money_rows": sorted(({**plain(r, MONEY_ROW_FIELDS),
                               "start_number": sn_of[r.registration_id]} for r in rows),
                             key=lambda r: r["start_number"]),
    }


def _target_refs(event: Event, regs: list[Registration], rounds: list[Round],
                 tables: list[Table], table_key: dict[int, tuple[int, int]],
                 cards: dict[int, Scorecard], hand_key: dict[int, tuple[int, int, int]],
                 rows: dict[int, list[MoneySheetRow]], penalties: list[Penalty],
                 disputes: list[Dispute], adjustments: list[StandingsAdjustment],
                 ) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
    """{(app label, model): {object id: natural key}} for every object an audit entry of the
    event may name."""
    sn_of = {r.pk: r.start_number for r in regs}
    card_key = {c.pk: table_key[t] for t, c in cards.items()}
    seat_refs = {}
    for s in Seat.objects.filter(round__event=event).only("pk", "table_id", "position"):
        rnd, number = table_key[s.table_id]
        seat_refs[str(s.pk)] = {"round": rnd, "table": number, "position": s.position}
    row_refs = {}
    for card_id, card_rows in rows.items():
        rnd, number = card_key[card_id]
        for r in card_rows:
            row_refs[str(r.pk)] = {"round": rnd, "table": number,
                                   "start_number": sn_of[r.registration_id]}
    return {
        ("tournaments", "event"): {str(event.pk): {"slug": event.slug}},
        ("tournaments", "registration"): {str(r.pk): {"start_number": r.start_number} for r in regs},
        ("tournaments", "player"): {str(r.player_id): {"start_number": r.start_number} for r in regs},
        ("tournaments", "round"): {str(r.pk): {"round": r.number} for r in rounds},
        ("tournaments", "table"): {str(t.pk): {"round": table_key[t.pk][0], "table": t.number}
                                   for t in tables},
        ("tournaments", "scorecard"): {str(pk): {"round": k[0], "table": k[1]}
                                       for pk, k in card_key.items()},
        ("tournaments", "seat"): seat_refs,
        ("tournaments", "hand"): {str(pk): {"round": k[0], "table": k[1], "hand": k[2]}
                                  for pk, k in hand_key.items()},
        ("tournaments", "moneysheetrow"): row_refs,
        ("tournaments", "penalty"): {str(p.pk): {"penalty": i} for i, p in enumerate(penalties)},
        ("tournaments", "dispute"): {str(d.pk): {"dispute": i} for i, d in enumerate(disputes)},
        ("tournaments", "standingsadjustment"): {str(a.pk): {"adjustment": i}
                                                 for i, a in enumerate(adjustments)},
    }


# ---------------------------------------------------------------------------------------
# Checking a document
# ---------------------------------------------------------------------------------------

INVALID = object()


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _expected_type(f: models.Field) -> tuple[str, Any]:
    """(what the archive holds for a model field, a check of a JSON value)."""
    if isinstance(f, models.JSONField):
        return "any JSON value", lambda v: True
    if isinstance(f, models.BooleanField):
        return "true or false", lambda v: isinstance(v, bool)
    if isinstance(f, models.DateTimeField):
        return "a UTC time as text (ISO 8601)", lambda v: isinstance(v, str)
    if isinstance(f, models.DateField):
        return "a date as text (YYYY-MM-DD)", lambda v: isinstance(v, str)
    if isinstance(f, models.DecimalField):
        return "a decimal number as text", lambda v: isinstance(v, str)
    if isinstance(f, models.IntegerField):
        return "a whole number", lambda v: isinstance(v, int) and not isinstance(v, bool)
    return "text", lambda v: isinstance(v, str)


@dataclass
class Checker:
    """Collects every problem of a document, each at its path, in the errors' contract shape."""

    errors: list[dict[str, Any]] = field(default_factory=list)

    def add(self, path: str, code: str, message: str, hand: int | None = None) -> None:
        self.errors.append({"hand": hand, "field": path, "code": code,
                            "message": f"{path}: {message}" if path else message})

    def obj(self, value: Any, path: str, keys: tuple[str, ...] | set[str]) -> dict[str, Any] | None:
        """An object with exactly these keys (missing and unknown keys are both problems: an
        unknown key is data this version would lose)."""
        if not isinstance(value, dict):
            self.add(path, "not_an_object", f"must be an object, got {_json_type(value)}")
            return None
        for key in sorted(set(keys) - set(value)):
            self.add(f"{path}.{key}", "missing", "is required")
        for key in sorted(set(value) - set(keys)):
            self.add(f"{path}.{key}", "unknown_key",
                     "is not part of this archive format version")
        return value

    def items(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            self.add(path, "not_a_list", f"must be a list, got {_json_type(value)}")
            return []
        return value

    def value(self, model: type[models.Model], name: str, value: Any, path: str) -> Any:
        """A model field's value from the archive, converted and checked with the field's own
        validators (length, choices, ranges, time zones), or INVALID."""
        f = model._meta.get_field(name)
        if value is None:
            if f.null:
                return None
            self.add(path, "null", "may not be null")
            return INVALID
        what, ok = _expected_type(f)
        if not ok(value):
            self.add(path, "wrong_type", f"must be {what}, got {_json_type(value)}")
            return INVALID
        if isinstance(f, models.DateTimeField):
            parsed = _parse_time(value)
            if parsed is None:
                self.add(path, "invalid_time",
                         f"must be a time with its UTC offset (2026-11-14T09:00:00Z), got {value!r}")
                return INVALID
            return parsed
        if isinstance(f, models.DateField) and parse_date_safe(value) is None:
            self.add(path, "invalid_date", f"must be a date (YYYY-MM-DD), got {value!r}")
            return INVALID
        try:
            converted = f.to_python(value)
            if f.choices and converted not in {c for c, _ in f.flatchoices}:
                choices = ", ".join(str(c) for c, _ in f.flatchoices)
                self.add(path, "invalid_choice", f"must be one of {choices}, got {value!r}")
                return INVALID
            f.run_validators(converted)
        except ValidationError as exc:
            for message in exc.messages:
                self.add(path, "invalid", message)
            return INVALID
        return converted

    def fields(self, model: type[models.Model], names: tuple[str, ...], data: dict[str, Any],
               path: str) -> dict[str, Any] | None:
        """The named fields of an object, converted; None when any is invalid or missing."""
        out = {}
        ok = True
        for name in names:
            if name not in data:
                ok = False
                continue
            value = self.value(model, name, data[name], f"{path}.{name}")
            if value is INVALID:
                ok = False
            out[name] = value
        return out if ok else None

    def number(self, value: Any, path: str, *, minimum: int = 1, nullable: bool = False) -> int | None:
        if value is None and nullable:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            self.add(path, "invalid_number", f"must be a whole number from {minimum}, got {value!r}")
            return None
        return value

    def username(self, value: Any, path: str, *, nullable: bool = True) -> str | None:
        if value is None and nullable:
            return None
        user_model = get_user_model()
        cleaned = self.value(user_model, user_model.USERNAME_FIELD, value, path)
        return None if cleaned is INVALID else cleaned

    def check_constraints(self, instance: models.Model, path: str) -> None:
        """The model's own check constraints on an unsaved instance (rules such as "the last
        day is not before the first" that no single field can say)."""
        for constraint in type(instance)._meta.constraints:
            if not isinstance(constraint, models.CheckConstraint):
                continue
            try:
                constraint.validate(type(instance), instance)
            except ValidationError:
                self.add(path, "constraint", f"breaks the rule {constraint.name}")


def _parse_time(value: str) -> dt.datetime | None:
    try:
        parsed = parse_datetime(value)
    except ValueError:
        return None
    if parsed is None or parsed.tzinfo is None:
        return None
    return parsed.astimezone(dt.UTC)


def parse_date_safe(value: str) -> dt.date | None:
    try:
        return parse_date(value)
    except ValueError:
        return None


def check_header(doc: Any, kind: str, checker: Checker, body_keys: tuple[str, ...]) -> dict | None:
    """Format, version and kind first: a file of another format or version is not read
    further, since its paths would mean something else."""
    if not isinstance(doc, dict):
        checker.add("archive", "not_an_object", "the archive must be a JSON object")
        return None
    if doc.get("format") != FORMAT:
        checker.add("format", "wrong_format",
                    f"this is not a {FORMAT} file (format is {doc.get('format')!r})")
        return None
    if doc.get("version") != VERSION:
        checker.add("version", "unsupported_version",
                    f"archive format version {doc.get('version')!r} is not supported; this "
                    f"application reads version {VERSION}")
        return None
    if doc.get("kind") != kind:
        checker.add("kind", "wrong_kind",
                    f"this is an archive of a {doc.get('kind')!r}, not of a {kind!r}")
        return None
    doc = checker.obj(doc, "", ("format", "version", "kind", "exported_with", *body_keys))
    if doc is not None and not isinstance(doc.get("exported_with"), dict | None):
        checker.add("exported_with", "not_an_object", "must be an object")
    return doc


# ---------------------------------------------------------------------------------------
# Players and users
# ---------------------------------------------------------------------------------------

@dataclass
class NewPlayer:
    """A player the import will create (none in the database matches)."""

    values: dict[str, Any]
    user: str | None
    created: Player | None = None


@dataclass
class PlayerResolver:
    """Finds the database player an archived player is, shared by everything one import
    reads so that the same person in two matchdays is one player.

    An archived player is matched by federation id when he has one; else by the user linked to
    him; else by first name, last name and club (the k-th player of the same name and club in
    one event is the k-th such player of the database, so namesakes stay apart). Matched
    players are reused unchanged; the others are created.
    """

    cache: dict[tuple, Player | NewPlayer] = field(default_factory=dict)
    claimed: set[int] = field(default_factory=set)

    @staticmethod
    def identity(values: dict[str, Any], user: str | None, occurrence: int) -> tuple:
        if values["federation_id"]:
            return ("federation_id", values["federation_id"])
        if user:
            return ("user", user)
        return ("name", values["first_name"], values["last_name"], values["club"], occurrence)

    def resolve(self, values: dict[str, Any], user: str | None, occurrence: int) -> Player | NewPlayer:
        ident = self.identity(values, user, occurrence)
        if ident in self.cache:
            return self.cache[ident]
        found: Player | NewPlayer | None = None
        if values["federation_id"]:
            found = Player.objects.filter(federation_id=values["federation_id"]).first()
        if found is None and user:
            found = Player.objects.filter(user__username=user).first()
            if found is None:
                found = next((p for p in self.cache.values()
                              if isinstance(p, NewPlayer) and p.user == user), None)
        if found is None:
            namesakes = Player.objects.filter(
                first_name=values["first_name"], last_name=values["last_name"],
                club=values["club"]).exclude(pk__in=self.claimed).order_by("pk")
            if values["federation_id"]:
                # A namesake with another federation id is somebody else.
                namesakes = namesakes.filter(federation_id="")
            found = namesakes.first()
        if found is None:
            found = NewPlayer(values=values, user=user)
        if isinstance(found, Player):
            self.claimed.add(found.pk)
        self.cache[ident] = found
        return found

    def materialise(self, found: Player | NewPlayer, users: dict[str, Any]) -> Player:
        if isinstance(found, Player):
            return found
        if found.created is None:
            found.created = services.player_create(
                **found.values, user=users[found.user] if found.user else None)
        return found.created


def check_player(checker: Checker, data: Any, path: str, usernames: set[str]
                 ) -> tuple[dict[str, Any], str | None] | None:
    data = checker.obj(data, path, (*PLAYER_FIELDS, "user"))
    if data is None:
        return None
    values = checker.fields(Player, PLAYER_FIELDS, data, path)
    user = checker.username(data.get("user"), f"{path}.user")
    if values is None:
        return None
    if not values["first_name"] and not values["last_name"]:
        checker.add(f"{path}.last_name", "required", "a player needs a first or a last name")
        return None
    if user:
        usernames.add(user)
    return values, user


def ensure_users(usernames: set[str]) -> dict[str, Any]:
    """{username: user}, creating the missing ones inactive and without a usable password:
    they keep the names on the record, and nobody can log in as them until staff say so."""
    user_model = get_user_model()
    field_name = user_model.USERNAME_FIELD
    users = {u.get_username(): u
             for u in user_model.objects.filter(**{f"{field_name}__in": sorted(usernames)})}
    for name in sorted(usernames - set(users)):
        user = user_model(**{field_name: name}, is_active=False)
        user.set_unusable_password()
        user.save()
        users[name] = user
    return users


# ---------------------------------------------------------------------------------------
# Checking an event
# ---------------------------------------------------------------------------------------

EVENT_KEYS = (*EVENT_FIELDS, "organisers", "referees", "registrations", "rounds", "penalties",
              "disputes", "standings_adjustments", "audit")


@dataclass
class ImportContext:
    """What one import shares across the events it reads: the player matches, the users
    named, and the event slugs already taken by this file."""

    resolver: PlayerResolver = field(default_factory=PlayerResolver)
    usernames: set[str] = field(default_factory=set)
    slugs: set[str] = field(default_factory=set)


def check_event_body(body: Any, path: str, checker: Checker, ctx: ImportContext) -> dict | None:
    """Check the `event` member of an archive and return a plan for `write_event_body`, or
    None. Every problem is added to the checker; nothing is written."""
    before = len(checker.errors)
    body = checker.obj(body, path, EVENT_KEYS)
    if body is None:
        return None
    plan: dict[str, Any] = {"path": path}

    fields_ = checker.fields(Event, EVENT_FIELDS, body, path)
    if fields_ is not None:
        event = Event(**fields_)
        # The event's own rules: a ruleset, mode and options the engine can score, a stake for
        # a money ruleset, consistent table sizes and dates.
        try:
            event.clean()
        except ValidationError as exc:
            for name, messages in exc.message_dict.items():
                for message in messages:
                    checker.add(f"{path}.{name}", "invalid_ruleset", message)
        if is_money_ruleset(event.ruleset_code) and not event.stake_haler:
            checker.add(f"{path}.stake_haler", "required", "a money ruleset needs the stake per player")
        for error in services.seating_option_errors(event.seating_system, event.seating_options):
            checker.add(f"{path}.{error['field']}", error["code"], error["message"])
        checker.check_constraints(event, path)
        if event.slug in ctx.slugs:
            checker.add(f"{path}.slug", "duplicate_slug", f"event {event.slug} is twice in this archive")
        elif Event.objects.filter(slug=event.slug).exists():
            checker.add(f"{path}.slug", "slug_exists",
                        f"an event with the slug {event.slug!r} already exists in this database; "
                        f"delete or rename it first, or import into another database")
        ctx.slugs.add(event.slug)
    plan["fields"] = fields_

    for role in ("organisers", "referees"):
        names = []
        for i, name in enumerate(checker.items(body.get(role, []), f"{path}.{role}")):
            cleaned = checker.username(name, f"{path}.{role}[{i}]", nullable=False)
            if cleaned:
                names.append(cleaned)
                ctx.usernames.add(cleaned)
        plan[role] = names

    regs = _check_registrations(body, path, checker, ctx, plan)
    # Scores are checked against the engine even when some event field is wrong, so one
    # refusal lists both; the engine needs only the stake, and the audit trail the slug.
    known = {"slug": body.get("slug"), "stake_haler": body.get("stake_haler")}
    tables = _check_rounds(body, path, checker, ctx, plan, regs, known)
    _check_penalties(body, path, checker, ctx, plan, regs, tables)
    _check_adjustments(body, path, checker, ctx, plan, regs)
    audit_count = len(body["audit"]) if isinstance(body.get("audit"), list) else 0
    _check_disputes(body, path, checker, ctx, plan, tables, audit_count)
    _check_audit(body, path, checker, ctx, plan, regs, tables, known)
    return plan if len(checker.errors) == before else None


def _check_registrations(body: dict, path: str, checker: Checker, ctx: ImportContext,
                         plan: dict) -> set[int]:
    numbers: set[int] = set()
    plan["registrations"] = []
    occurrences: dict[tuple, int] = {}
    for i, reg in enumerate(checker.items(body.get("registrations", []), f"{path}.registrations")):
        p = f"{path}.registrations[{i}]"
        reg = checker.obj(reg, p, (*REGISTRATION_FIELDS, "player"))
        if reg is None:
            continue
        values = checker.fields(Registration, REGISTRATION_FIELDS, reg, p)
        player = check_player(checker, reg.get("player"), f"{p}.player", ctx.usernames)
        number = reg.get("start_number")
        if isinstance(number, int) and not isinstance(number, bool):
            if number < 1:
                checker.add(f"{p}.start_number", "invalid_number", "start numbers begin at 1")
            elif number in numbers:
                checker.add(f"{p}.start_number", "duplicate", f"start number {number} is given twice")
            # Known even when another field of the registration is wrong, so that its seats and
            # hands are not reported as dangling on top of the real problem.
            numbers.add(number)
        if values is None or player is None:
            continue
        name_key = (player[0]["first_name"], player[0]["last_name"], player[0]["club"])
        occurrence = occurrences.get(name_key, 0)
        occurrences[name_key] = occurrence + 1
        entry = {"fields": values, "player": player, "occurrence": occurrence, "path": p}
        plan["registrations"].append(entry)
    return numbers


def _check_rounds(body: dict, path: str, checker: Checker, ctx: ImportContext, plan: dict,
                  regs: set[int], event_fields: dict
                  ) -> dict[tuple[int, int], set[int]]:
    """Rounds, tables, seats, scorecards and hands; returns {(round, table): hand numbers}."""
    tables: dict[tuple[int, int], set[int]] = {}
    plan["rounds"] = []
    round_numbers: set[int] = set()
    for i, rnd in enumerate(checker.items(body.get("rounds", []), f"{path}.rounds")):
        p = f"{path}.rounds[{i}]"
        rnd = checker.obj(rnd, p, (*ROUND_FIELDS, "tables"))
        if rnd is None:
            continue
        values = checker.fields(Round, ROUND_FIELDS, rnd, p)
        number = values["number"] if values else None
        if values is not None:
            if number < 1:
                checker.add(f"{p}.number", "invalid_number", "round numbers begin at 1")
            elif number in round_numbers:
                checker.add(f"{p}.number", "duplicate", f"round {number} is given twice")
            round_numbers.add(number)
        seated: set[int] = set()
        table_numbers: set[int] = set()
        round_plan = {"fields": values, "tables": []}
        for j, table in enumerate(checker.items(rnd.get("tables", []), f"{p}.tables")):
            tp = f"{p}.tables[{j}]"
            table = checker.obj(table, tp, (*TABLE_FIELDS, "seats", "scorecard"))
            if table is None:
                continue
            tvalues = checker.fields(Table, TABLE_FIELDS, table, tp)
            if tvalues is not None:
                if tvalues["number"] < 1:
                    checker.add(f"{tp}.number", "invalid_number", "table numbers begin at 1")
                elif tvalues["number"] in table_numbers:
                    checker.add(f"{tp}.number", "duplicate",
                                f"table {tvalues['number']} is given twice in this round")
                table_numbers.add(tvalues["number"])
            seats = []
            positions: set[int] = set()
            for k, seat in enumerate(checker.items(table.get("seats", []), f"{tp}.seats")):
                sp = f"{tp}.seats[{k}]"
                seat = checker.obj(seat, sp, (*SEAT_FIELDS, "start_number"))
                if seat is None:
                    continue
                svalues = checker.fields(Seat, SEAT_FIELDS, seat, sp)
                sn = seat.get("start_number")
                if not isinstance(sn, int) or isinstance(sn, bool) or sn not in regs:
                    checker.add(f"{sp}.start_number", "unknown_registration",
                                f"no registration has the start number {sn!r}")
                    continue
                if sn in seated:
                    checker.add(f"{sp}.start_number", "seated_twice",
                                f"start number {sn} is seated twice in this round")
                seated.add(sn)
                if svalues is not None:
                    if svalues["position"] in positions:
                        checker.add(f"{sp}.position", "duplicate",
                                    f"seat position {svalues['position']} is given twice at this table")
                    positions.add(svalues["position"])
                    seats.append({"position": svalues["position"], "start_number": sn})
            card, hand_numbers = None, set()
            if table.get("scorecard") is not None:
                card, hand_numbers = _check_card(
                    table["scorecard"], f"{tp}.scorecard", checker, ctx, regs, event_fields,
                    number, tvalues["number"] if tvalues else None)
                if card is not None and values is not None:
                    checker.errors.extend(archive_checks.card_problems(
                        values["status"], card, f"{tp}.scorecard"))
            if number is not None and tvalues is not None:
                tables[(number, tvalues["number"])] = hand_numbers
            round_plan["tables"].append({"fields": tvalues, "seats": seats, "scorecard": card})
        plan["rounds"].append(round_plan)
    return tables


def _check_card(card: Any, path: str, checker: Checker, ctx: ImportContext, regs: set[int],
                event_fields: dict, round_number: int | None, table_number: int | None
                ) -> tuple[dict | None, set[int]]:
    """A scorecard's plan (None when invalid) and its hand numbers, which penalties and
    disputes may name even when the card itself has problems."""
    before = len(checker.errors)
    card = checker.obj(card, path, (*SCORECARD_FIELDS, "submitted_by", "confirmed_by",
                                    "verified_by", "hands", "money_rows"))
    if card is None:
        return None, set()
    values = checker.fields(Scorecard, SCORECARD_FIELDS, card, path)
    people = {}
    for role in ("submitted_by", "confirmed_by", "verified_by"):
        people[role] = checker.username(card.get(role), f"{path}.{role}")
        if people[role]:
            ctx.usernames.add(people[role])
    if people["confirmed_by"] and people["confirmed_by"] == people["submitted_by"]:
        checker.add(f"{path}.confirmed_by", "same_person",
                    "a scorecard is confirmed by a second person, not the one who submitted it")
    if values is not None:
        if values["version"] < 1:
            checker.add(f"{path}.version", "invalid_number", "versions begin at 1")
        if values["status"] == Scorecard.Status.ANNULLED and not values["annulled_reason"]:
            checker.add(f"{path}.annulled_reason", "required", "an annulled scorecard needs its reason")
        ids = values["player_ids"]
        if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
            checker.add(f"{path}.player_ids", "invalid_players",
                        "must be a list of start numbers as text")
        else:
            for k, pid in enumerate(ids):
                if not pid.isdigit() or int(pid) not in regs:
                    checker.add(f"{path}.player_ids[{k}]", "unknown_registration",
                                f"no registration has the start number {pid!r}")
    hands = []
    numbers: set[int] = set()
    for i, hand in enumerate(checker.items(card.get("hands", []), f"{path}.hands")):
        hp = f"{path}.hands[{i}]"
        hand = checker.obj(hand, hp, (*HAND_FIELDS, "entered_by", "confirmed_by"))
        if hand is None:
            continue
        hvalues = checker.fields(Hand, HAND_FIELDS, hand, hp)
        entered = checker.username(hand.get("entered_by"), f"{hp}.entered_by")
        confirmed = checker.username(hand.get("confirmed_by"), f"{hp}.confirmed_by")
        ctx.usernames.update(u for u in (entered, confirmed) if u)
        if confirmed and confirmed == entered:
            checker.add(f"{hp}.confirmed_by", "same_person",
                        "a hand is confirmed by a second person, not the one who entered it")
        if hvalues is None:
            continue
        if hvalues["number"] < 1:
            checker.add(f"{hp}.number", "invalid_number", "hand numbers begin at 1")
        elif hvalues["number"] in numbers:
            checker.add(f"{hp}.number", "duplicate", f"hand {hvalues['number']} is given twice")
        numbers.add(hvalues["number"])
        hands.append({"fields": hvalues, "entered_by": entered, "confirmed_by": confirmed,
                      "path": hp})
    rows = []
    row_numbers: set[int] = set()
    for i, row in enumerate(checker.items(card.get("money_rows", []), f"{path}.money_rows")):
        rp = f"{path}.money_rows[{i}]"
        row = checker.obj(row, rp, (*MONEY_ROW_FIELDS, "start_number"))
        if row is None:
            continue
        rvalues = checker.fields(MoneySheetRow, MONEY_ROW_FIELDS, row, rp)
        sn = row.get("start_number")
        if not isinstance(sn, int) or isinstance(sn, bool) or sn not in regs:
            checker.add(f"{rp}.start_number", "unknown_registration",
                        f"no registration has the start number {sn!r}")
            continue
        if sn in row_numbers:
            checker.add(f"{rp}.start_number", "duplicate",
                        f"start number {sn} has two rows on this money sheet")
        row_numbers.add(sn)
        if rvalues is not None:
            rows.append({"fields": rvalues, "start_number": sn})
    if len(checker.errors) != before or values is None:
        return None, numbers
    plan = {"fields": values, **people, "hands": hands, "money_rows": rows}
    checker.errors.extend(score_mismatches(_card_spec_from_plan(plan, event_fields), path,
                                           round_number, table_number))
    return plan, numbers


def _check_penalties(body: dict, path: str, checker: Checker, ctx: ImportContext, plan: dict,
                     regs: set[int], tables: dict[tuple[int, int], set[int]]) -> None:
    plan["penalties"] = []
    for i, pen in enumerate(checker.items(body.get("penalties", []), f"{path}.penalties")):
        p = f"{path}.penalties[{i}]"
        pen = checker.obj(pen, p, (*PENALTY_FIELDS, "table", "hand", "start_number", "recorded_by"))
        if pen is None:
            continue
        values = checker.fields(Penalty, PENALTY_FIELDS, pen, p)
        table = _check_table_ref(checker, pen.get("table"), f"{p}.table", tables, nullable=False)
        hand = _check_hand_ref(checker, pen.get("hand"), f"{p}.hand", table, tables)
        sn = _check_start_number(checker, pen.get("start_number"), f"{p}.start_number", regs)
        by = checker.username(pen.get("recorded_by"), f"{p}.recorded_by")
        if by:
            ctx.usernames.add(by)
        plan["penalties"].append({"fields": values, "table": table, "hand": hand,
                                  "start_number": sn, "recorded_by": by})


def _check_adjustments(body: dict, path: str, checker: Checker, ctx: ImportContext, plan: dict,
                       regs: set[int]) -> None:
    plan["standings_adjustments"] = []
    items = checker.items(body.get("standings_adjustments", []), f"{path}.standings_adjustments")
    for i, adj in enumerate(items):
        p = f"{path}.standings_adjustments[{i}]"
        adj = checker.obj(adj, p, (*ADJUSTMENT_FIELDS, "start_number", "created_by"))
        if adj is None:
            continue
        values = checker.fields(StandingsAdjustment, ADJUSTMENT_FIELDS, adj, p)
        if values is not None and not values["reason"]:
            checker.add(f"{p}.reason", "required", "an adjustment needs a reason")
        sn = _check_start_number(checker, adj.get("start_number"), f"{p}.start_number", regs)
        by = checker.username(adj.get("created_by"), f"{p}.created_by")
        if by:
            ctx.usernames.add(by)
        plan["standings_adjustments"].append({"fields": values, "start_number": sn,
                                              "created_by": by})


def _check_disputes(body: dict, path: str, checker: Checker, ctx: ImportContext, plan: dict,
                    tables: dict[tuple[int, int], set[int]], audit_count: int) -> None:
    plan["disputes"] = []
    for i, dispute in enumerate(checker.items(body.get("disputes", []), f"{path}.disputes")):
        p = f"{path}.disputes[{i}]"
        dispute = checker.obj(dispute, p, (*DISPUTE_FIELDS, "table", "hand", "raised_by",
                                           "decided_by", "correction"))
        if dispute is None:
            continue
        values = checker.fields(Dispute, DISPUTE_FIELDS, dispute, p)
        if values is not None and values["status"] == Dispute.Status.DECIDED and (
                not values["decision"] or values["decided_at"] is None):
            checker.add(f"{p}.decision", "required",
                        "a decided dispute needs its written decision and the time it was decided")
        table = _check_table_ref(checker, dispute.get("table"), f"{p}.table", tables, nullable=True)
        hand = _check_hand_ref(checker, dispute.get("hand"), f"{p}.hand", table, tables)
        people = {}
        for role in ("raised_by", "decided_by"):
            people[role] = checker.username(dispute.get(role), f"{p}.{role}")
            if people[role]:
                ctx.usernames.add(people[role])
        correction = dispute.get("correction")
        if correction is not None and (not isinstance(correction, int) or isinstance(correction, bool)
                                       or not 0 <= correction < audit_count):
            checker.add(f"{p}.correction", "unknown_audit_entry",
                        f"must be the index of an entry of audit (0 to {audit_count - 1}) or null, "
                        f"got {correction!r}")
            correction = None
        plan["disputes"].append({"fields": values, "table": table, "hand": hand, **people,
                                 "correction": correction})


def _check_audit(body: dict, path: str, checker: Checker, ctx: ImportContext, plan: dict,
                 regs: set[int], tables: dict[tuple[int, int], set[int]],
                 event_fields: dict) -> None:
    counts = {"penalty": len(plan["penalties"]), "dispute": len(plan["disputes"]),
              "adjustment": len(plan["standings_adjustments"])}
    rounds = {r for r, _ in tables}

    def check_ref(type_label: str, ref: Any, p: str) -> Any:
        keys = TARGET_KEYS.get(type_label)
        if keys is None:
            checker.add(p, "unknown_ref", f"objects of type {type_label!r} are named by null")
            return None
        return _check_target_ref(checker, ref, p, keys, regs, rounds, tables, counts, event_fields)

    plan["audit"] = check_audit_list(body.get("audit", []), f"{path}.audit", checker, ctx,
                                     check_ref, tables)


def check_audit_list(items: Any, path: str, checker: Checker, ctx: ImportContext,
                     check_ref: Any, tables: dict[tuple[int, int], set[int]] | None) -> list[dict]:
    """Plans of the entries of an audit list. `check_ref(type, ref, path)` checks the natural
    key of an entry's object and returns it (None when it does not resolve); `tables` are the
    tables an entry may name (None: entries name no table)."""
    out = []
    for i, entry in enumerate(checker.items(items, path)):
        p = f"{path}[{i}]"
        entry = checker.obj(entry, p, (*AUDIT_FIELDS, "actor", "table", "target"))
        if entry is None:
            continue
        values = checker.fields(AuditEntry, AUDIT_FIELDS, entry, p)
        actor = checker.username(entry.get("actor"), f"{p}.actor")
        if actor:
            ctx.usernames.add(actor)
        if tables is None:
            table = None
            if entry.get("table") is not None:
                checker.add(f"{p}.table", "unexpected_table", "must be null here")
        else:
            table = _check_table_ref(checker, entry.get("table"), f"{p}.table", tables, nullable=True)
        target = checker.obj(entry.get("target"), f"{p}.target", ("type", "ref"))
        type_label = ref = None
        if target is not None:
            type_label = target.get("type")
            if _model_of(type_label) is None:
                checker.add(f"{p}.target.type", "unknown_type",
                            f"{type_label!r} is not a model of this application")
            elif target.get("ref") is not None:
                ref = check_ref(type_label, target["ref"], f"{p}.target.ref")
        out.append({"fields": values, "actor": actor, "table": table, "type": type_label,
                    "ref": ref})
    return out


def audit_out(entry: AuditEntry, ref: Any, table: Any) -> dict[str, Any]:
    """One audit entry as the archive writes it; `ref` is the natural key of its object."""
    return {**plain(entry, AUDIT_FIELDS), "actor": username(entry.actor), "table": table,
            "target": {"type": f"{entry.content_type.app_label}.{entry.content_type.model}",
                       "ref": ref}}


def _check_target_ref(checker: Checker, ref: Any, path: str, keys: tuple[str, ...],
                      regs: set[int], rounds: set[int], tables: dict[tuple[int, int], set[int]],
                      counts: dict[str, int], event_fields: dict) -> dict | None:
    ref = checker.obj(ref, path, keys)
    if ref is None:
        return None
    if keys == ("slug",):
        if ref.get("slug") != event_fields["slug"]:
            checker.add(f"{path}.slug", "unknown_event", "names another event than this one")
            return None
        return ref
    resolved = True
    if "round" in ref and "table" not in ref and ref["round"] not in rounds:
        checker.add(f"{path}.round", "unknown_round", f"there is no round {ref['round']!r}")
        resolved = False
    if "table" in ref and (ref.get("round"), ref["table"]) not in tables:
        checker.add(f"{path}.table", "unknown_table",
                    f"there is no table {ref['table']!r} in round {ref.get('round')!r}")
        resolved = False
    if "hand" in ref and resolved and ref["hand"] not in tables[(ref["round"], ref["table"])]:
        checker.add(f"{path}.hand", "unknown_hand", f"that table has no hand {ref['hand']!r}")
        resolved = False
    if "start_number" in ref and ref["start_number"] not in regs:
        checker.add(f"{path}.start_number", "unknown_registration",
                    f"no registration has the start number {ref['start_number']!r}")
        resolved = False
    if "position" in ref and not isinstance(ref["position"], int):
        checker.add(f"{path}.position", "invalid_number", "must be a seat position")
        resolved = False
    for name, count in counts.items():
        if name in ref and (not isinstance(ref[name], int) or isinstance(ref[name], bool)
                            or not 0 <= ref[name] < count):
            checker.add(f"{path}.{name}", f"unknown_{name}",
                        f"must be an index into the event's {name} list, got {ref[name]!r}")
            resolved = False
    return ref if resolved else None


def _model_of(label: Any) -> type[models.Model] | None:
    if not isinstance(label, str) or label.count(".") != 1:
        return None
    try:
        return apps.get_model(label)
    except (LookupError, ValueError):
        return None


def _check_table_ref(checker: Checker, ref: Any, path: str,
                     tables: dict[tuple[int, int], set[int]], *, nullable: bool
                     ) -> tuple[int, int] | None:
    if ref is None:
        if not nullable:
            checker.add(path, "null", "may not be null")
        return None
    ref = checker.obj(ref, path, ("round", "table"))
    if ref is None:
        return None
    key = (ref.get("round"), ref.get("table"))
    if key not in tables:
        checker.add(path, "unknown_table", f"there is no table {key[1]!r} in round {key[0]!r}")
        return None
    return key


def _check_hand_ref(checker: Checker, number: Any, path: str, table: tuple[int, int] | None,
                    tables: dict[tuple[int, int], set[int]]) -> int | None:
    if number is None:
        return None
    if table is None:
        checker.add(path, "hand_without_table", "a hand is named only together with its table")
        return None
    if number not in tables[table]:
        checker.add(path, "unknown_hand",
                    f"round {table[0]} table {table[1]} has no hand {number!r}")
        return None
    return number


def _check_start_number(checker: Checker, sn: Any, path: str, regs: set[int]) -> int | None:
    if not isinstance(sn, int) or isinstance(sn, bool) or sn not in regs:
        checker.add(path, "unknown_registration", f"no registration has the start number {sn!r}")
        return None
    return sn


def resolve_players(checker: Checker, ctx: ImportContext, plans: list[dict]) -> None:
    """Match every archived player to a database player once the whole file has been read
    (federation ids and users first, so a namesake is not taken before its owner), and refuse
    two registrations of one event that turn out to be the same player."""
    entries = [reg for plan in plans for reg in plan["registrations"]]
    first = [r for r in entries if r["player"][0]["federation_id"] or r["player"][1]]
    rest = [r for r in entries if not (r["player"][0]["federation_id"] or r["player"][1])]
    for reg in [*first, *rest]:
        values, user = reg["player"]
        reg["resolved"] = ctx.resolver.resolve(values, user, reg["occurrence"])
    for plan in plans:
        seen: dict[Any, str] = {}
        for reg in plan["registrations"]:
            found = reg["resolved"]
            key = ("db", found.pk) if isinstance(found, Player) else ("new", id(found))
            if key in seen:
                checker.add(f"{reg['path']}.player", "same_player",
                            f"is the same player as {seen[key]}")
            seen.setdefault(key, reg["path"])


# ---------------------------------------------------------------------------------------
# Checking stored scores against the engine
# ---------------------------------------------------------------------------------------

def _normal(value: Any) -> Any:
    """JSON's view of a value, so tuples and lists, or key order, do not count as changes."""
    return json.loads(json.dumps(value, sort_keys=True))


def _card_spec_from_plan(plan: dict, event_fields: dict) -> dict[str, Any]:
    return {
        "ruleset_code": plan["fields"]["ruleset_code"],
        "ruleset_mode": plan["fields"]["ruleset_mode"],
        "ruleset_options": plan["fields"]["ruleset_options"],
        "player_ids": plan["fields"]["player_ids"],
        "totals": plan["fields"]["totals"],
        "state": plan["fields"]["state"],
        "stake": event_fields["stake_haler"],
        "hands": [dict(h["fields"]) for h in sorted(plan["hands"], key=lambda h: h["fields"]["number"])],
        "hand_paths": [h["path"] for h in sorted(plan["hands"], key=lambda h: h["fields"]["number"])],
        "money_rows": {str(r["start_number"]): r["fields"] for r in plan["money_rows"]},
    }


def _card_spec_from_db(card: Scorecard, stake: int | None) -> dict[str, Any]:
    hands = list(card.hands.order_by("number"))
    return {
        "ruleset_code": card.ruleset_code, "ruleset_mode": card.ruleset_mode,
        "ruleset_options": card.ruleset_options, "player_ids": card.player_ids,
        "totals": card.totals, "state": card.state, "stake": stake,
        "hands": [{n: getattr(h, n) for n in HAND_FIELDS} for h in hands],
        "hand_paths": [f"hand {h.number}" for h in hands],
        "money_rows": {str(r.registration.start_number): {n: getattr(r, n) for n in MONEY_ROW_FIELDS}
                       for r in card.money_rows.select_related("registration")},
    }


def score_mismatches(spec: dict[str, Any], path: str, round_number: int | None,
                     table_number: int | None) -> list[dict[str, Any]]:
    """Score the card again with the engine and list every stored value that differs: the
    archive is then corrupt, or was written by a different engine version."""
    where = f"round {round_number}, table {table_number}"
    problems: list[dict[str, Any]] = []

    def add(p: str, code: str, message: str, hand: int | None = None) -> None:
        problems.append({"hand": hand, "field": p, "code": code, "message": f"{p}: {message}"})

    engine_note = ("the archive is corrupt or comes from a different version of the scoring "
                   "engine")
    if spec["hands"]:
        card: dict[str, Any] = {"ruleset": spec["ruleset_code"], "players": list(spec["player_ids"]),
                                "hands": [h["record"] for h in spec["hands"]]}
        if spec["ruleset_mode"]:
            card["mode"] = spec["ruleset_mode"]
        if spec["ruleset_options"]:
            card["options"] = spec["ruleset_options"]
        try:
            result = scoring.evaluate(card)
        except scoring.ScorecardInvalid as exc:
            for error in exc.errors:
                index = error.get("hand")
                p = spec["hand_paths"][index] if isinstance(index, int) and index < len(
                    spec["hand_paths"]) else path
                add(f"{p}.record", "engine_refuses",
                    f"{where}: the scoring engine refuses this scorecard ({error['message']}); "
                    f"{engine_note}", index)
            return problems
        running = {p: 0 for p in spec["player_ids"]}
        for i, (stored, scored) in enumerate(zip(spec["hands"], result["hands"], strict=True)):
            for p, s in scored["scores"].items():
                running[p] = running.get(p, 0) + s
            expected = {"value": scored["value"], "scores": scored["scores"],
                        "running_totals": dict(running), "state": scored.get("state", {}),
                        "lines": scored.get("lines", []), "payout": scored.get("payout")}
            for name, value in expected.items():
                if _normal(stored[name]) != _normal(value):
                    shown = "" if name in ("lines", "state") else (
                        f": stored {_normal(stored[name])}, engine {_normal(value)}")
                    add(f"{spec['hand_paths'][i]}.{name}", "score_mismatch",
                        f"{where}, hand {stored['number']}: the stored {name} differ from what "
                        f"the scoring engine computes{shown}; {engine_note}", i)
        if _normal(spec["totals"]) != _normal(result["totals"]):
            add(f"{path}.totals", "score_mismatch",
                f"{where}: the stored totals {_normal(spec['totals'])} differ from the engine's "
                f"{_normal(result['totals'])}; {engine_note}")
        last_state = result["hands"][-1].get("state", {})
        if _normal(spec["state"]) != _normal(last_state):
            add(f"{path}.state", "score_mismatch",
                f"{where}: the stored state differs from the engine's after the last hand; "
                f"{engine_note}")
    elif spec["money_rows"]:
        sheet = {"table": table_number, "round": round_number, "stake": spec["stake"],
                 "players": [{"player": pid, "bought": (spec["money_rows"].get(pid) or {}).get("bought_haler", 0),
                              "money": (spec["money_rows"].get(pid) or {}).get("money_haler")}
                             for pid in spec["player_ids"]]}
        card = {"ruleset": spec["ruleset_code"], "sheet": sheet}
        if spec["ruleset_options"]:
            card["options"] = spec["ruleset_options"]
        try:
            result = scoring.evaluate(card)
        except scoring.ScorecardInvalid as exc:
            for error in exc.errors:
                add(f"{path}.money_rows", "engine_refuses",
                    f"{where}: the scoring engine refuses this money sheet ({error['message']}); "
                    f"{engine_note}")
            return problems
        for pid, row in sorted(spec["money_rows"].items()):
            if row["result_haler"] != result["totals"].get(pid):
                add(f"{path}.money_rows", "score_mismatch",
                    f"{where}, start number {pid}: the stored result {row['result_haler']} h "
                    f"differs from the engine's {result['totals'].get(pid)} h; {engine_note}")
        if _normal(spec["totals"]) != _normal(result["totals"]):
            add(f"{path}.totals", "score_mismatch",
                f"{where}: the stored totals {_normal(spec['totals'])} differ from the engine's "
                f"{_normal(result['totals'])}; {engine_note}")
    return problems


def verify_event_scores(event: Event) -> list[dict[str, Any]]:
    """Score every scorecard of a stored event again and list where the stored values differ."""
    problems = []
    cards = (Scorecard.objects.filter(table__round__event=event)
             .select_related("table__round").order_by("table__round__number", "table__number"))
    for card in cards:
        rnd, number = card.table.round.number, card.table.number
        problems.extend(score_mismatches(_card_spec_from_db(card, event.stake_haler),
                                         f"{event.slug}: round {rnd} table {number}", rnd, number))
    return problems


# ---------------------------------------------------------------------------------------
# Writing an event
# ---------------------------------------------------------------------------------------

def _auto_times(model: type[models.Model]) -> list[str]:
    return [f.name for f in model._meta.concrete_fields
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]


class Stamps:
    """The archived values of auto_now / auto_now_add times, which every insert overwrites
    with the clock. They are put back at the end with one bulk update per model, which writes
    values as given."""

    def __init__(self) -> None:
        self.objs: dict[type[models.Model], list[models.Model]] = {}

    def create(self, model: type[models.Model], **values: Any) -> Any:
        obj = model.objects.create(**values)
        self.keep(obj, values)
        return obj

    def keep(self, obj: models.Model, values: dict[str, Any]) -> None:
        names = _auto_times(type(obj))
        for name in names:
            setattr(obj, name, values[name])
        if names:
            self.objs.setdefault(type(obj), []).append(obj)

    def apply(self) -> None:
        for model, objs in self.objs.items():
            model.objects.bulk_update(objs, _auto_times(model), batch_size=500)


def write_audit(plans: list[dict], *, event: Event | None, users: dict[str, Any],
                find_target: Any, tables: dict[tuple[int, int], Table], stamps: Stamps
                ) -> list[AuditEntry]:
    """Write checked audit entries in their order; `find_target(type, ref)` gives the object an
    entry names. Returns the entries in the archive's order."""
    content_types: dict[str, ContentType] = {}
    entries = []
    for e in plans:
        if e["type"] not in content_types:
            content_types[e["type"]] = ContentType.objects.get_for_model(
                apps.get_model(e["type"]), for_concrete_model=False)
        target = find_target(e["type"], e["ref"]) if e["ref"] is not None else None
        entries.append(AuditEntry(
            event=event, actor=users[e["actor"]] if e["actor"] else None,
            table=tables[e["table"]] if e["table"] else None,
            content_type=content_types[e["type"]],
            object_id=str(target.pk) if target is not None else NO_OBJECT,
            **e["fields"]))
    AuditEntry.objects.bulk_create(entries, batch_size=500)
    if any(e.pk is None for e in entries):
        # A database that returns no keys from a bulk insert: read them back in insert order.
        entries = list(AuditEntry.objects.order_by("-pk")[:len(entries)])[::-1]
    for entry, e in zip(entries, plans, strict=True):
        stamps.keep(entry, e["fields"])
    return entries


def write_event_body(plan: dict, ctx: ImportContext, users: dict[str, Any]) -> Event:
    """Write a checked event plan. Runs inside the caller's transaction."""
    def user(name: str | None) -> Any:
        return users[name] if name else None

    stamps = Stamps()
    event = stamps.create(Event, **plan["fields"])
    event.organisers.set([users[u] for u in plan["organisers"]])
    event.referees.set([users[u] for u in plan["referees"]])

    regs: dict[int, Registration] = {}
    for entry in plan["registrations"]:
        player = ctx.resolver.materialise(entry["resolved"], users)
        regs[entry["fields"]["start_number"]] = stamps.create(
            Registration, event=event, player=player, **entry["fields"])

    rounds: dict[int, Round] = {}
    tables: dict[tuple[int, int], Table] = {}
    cards: dict[tuple[int, int], Scorecard] = {}
    hands_to_create: list[Hand] = []
    rows_to_create: list[MoneySheetRow] = []
    for rplan in plan["rounds"]:
        rnd = stamps.create(Round, event=event, **rplan["fields"])
        rounds[rnd.number] = rnd
        for tplan in rplan["tables"]:
            table = Table.objects.create(round=rnd, **tplan["fields"])
            tables[(rnd.number, table.number)] = table
            Seat.objects.bulk_create(
                Seat(round=rnd, table=table, registration=regs[s["start_number"]],
                     position=s["position"]) for s in tplan["seats"])
            cplan = tplan["scorecard"]
            if cplan is None:
                continue
            cards[(rnd.number, table.number)] = card = stamps.create(
                Scorecard, table=table, submitted_by=user(cplan["submitted_by"]),
                confirmed_by=user(cplan["confirmed_by"]), verified_by=user(cplan["verified_by"]),
                **cplan["fields"])
            hands_to_create.extend(
                Hand(scorecard=card, entered_by=user(h["entered_by"]),
                     confirmed_by=user(h["confirmed_by"]), **h["fields"]) for h in cplan["hands"])
            rows_to_create.extend(
                MoneySheetRow(scorecard=card, registration=regs[r["start_number"]], **r["fields"])
                for r in cplan["money_rows"])
    entered_at = {(h.scorecard_id, h.number): h.entered_at for h in hands_to_create}
    Hand.objects.bulk_create(hands_to_create, batch_size=500)
    MoneySheetRow.objects.bulk_create(rows_to_create, batch_size=500)
    # Read the hands back (not trusting bulk_create to return keys on every database) to name
    # them in penalties, disputes and the audit trail.
    hands: dict[tuple[int, int, int], Hand] = {}
    for h in (Hand.objects.filter(scorecard__table__round__event=event)
              .select_related("scorecard__table__round")):
        stamps.keep(h, {"entered_at": entered_at[(h.scorecard_id, h.number)]})
        hands[(h.scorecard.table.round.number, h.scorecard.table.number, h.number)] = h

    def hand_of(table_key: tuple[int, int] | None, number: int | None) -> Hand | None:
        return hands[(*table_key, number)] if table_key and number else None

    penalties = [
        stamps.create(Penalty, event=event, table=tables[p["table"]],
                      hand=hand_of(p["table"], p["hand"]), registration=regs[p["start_number"]],
                      recorded_by=user(p["recorded_by"]), **p["fields"])
        for p in plan["penalties"]
    ]
    adjustments = [
        stamps.create(StandingsAdjustment, event=event, registration=regs[a["start_number"]],
                      created_by=user(a["created_by"]), **a["fields"])
        for a in plan["standings_adjustments"]
    ]
    disputes = [
        stamps.create(Dispute, event=event, table=tables[d["table"]] if d["table"] else None,
                      hand=hand_of(d["table"], d["hand"]), raised_by=user(d["raised_by"]),
                      decided_by=user(d["decided_by"]), **d["fields"])
        for d in plan["disputes"]
    ]

    targets = _target_objects(event, regs, rounds, tables, cards, hands, penalties, disputes,
                              adjustments)
    entries = write_audit(plan["audit"], event=event, users=users, find_target=targets,
                          tables=tables, stamps=stamps)
    for dispute, d in zip(disputes, plan["disputes"], strict=True):
        if d["correction"] is not None:
            dispute.correction = entries[d["correction"]]
            dispute.save(update_fields=["correction"])
    # Links are not archived (their tokens are secrets of the running event): the restored
    # rounds get new ones, as a newly stored round does.
    for rnd in rounds.values():
        table_links.links_ensure(rnd=rnd, audited=False)
    # Last, since the writes above stamped the clock's time on every one of them.
    stamps.apply()
    event.refresh_from_db()
    archive_checks.refuse_wrong_carried_totals(event, plan)
    return event


def _target_objects(event: Event, regs: dict[int, Registration], rounds: dict[int, Round],
                    tables: dict[tuple[int, int], Table], cards: dict[tuple[int, int], Scorecard],
                    hands: dict[tuple[int, int, int], Hand], penalties: list[Penalty],
                    disputes: list[Dispute], adjustments: list[StandingsAdjustment]) -> Any:
    seats = {(s.table.round.number, s.table.number, s.position): s
             for s in Seat.objects.filter(round__event=event).select_related("table__round")}
    rows = {(r.scorecard.table.round.number, r.scorecard.table.number, r.registration.start_number): r
            for r in MoneySheetRow.objects.filter(scorecard__table__round__event=event)
            .select_related("scorecard__table__round", "registration")}

    def find(type_label: str, ref: dict[str, Any]) -> models.Model | None:
        finders = {
            "tournaments.event": lambda: event,
            "tournaments.registration": lambda: regs.get(ref["start_number"]),
            "tournaments.player": lambda: regs[ref["start_number"]].player,
            "tournaments.round": lambda: rounds.get(ref["round"]),
            "tournaments.table": lambda: tables.get((ref["round"], ref["table"])),
            "tournaments.scorecard": lambda: cards.get((ref["round"], ref["table"])),
            "tournaments.seat": lambda: seats.get((ref["round"], ref["table"], ref["position"])),
            "tournaments.hand": lambda: hands.get((ref["round"], ref["table"], ref["hand"])),
            "tournaments.moneysheetrow": lambda: rows.get(
                (ref["round"], ref["table"], ref["start_number"])),
            "tournaments.penalty": lambda: penalties[ref["penalty"]],
            "tournaments.dispute": lambda: disputes[ref["dispute"]],
            "tournaments.standingsadjustment": lambda: adjustments[ref["adjustment"]],
        }
        return finders[type_label]()

    return find


# ---------------------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------------------

def _check_event_doc(doc: Any) -> tuple[Checker, ImportContext, dict | None]:
    checker = Checker()
    ctx = ImportContext()
    doc = check_header(doc, "event", checker, ("event",))
    plan = None
    if doc is not None and "event" in doc:
        plan = check_event_body(doc["event"], "event", checker, ctx)
        if plan is not None:
            resolve_players(checker, ctx, [plan])
    return checker, ctx, plan


def validate_event(doc: Any) -> list[dict[str, Any]]:
    """Every problem of an event archive (empty when it can be imported); writes nothing."""
    return _check_event_doc(doc)[0].errors


def import_event(doc: Any, actor: Any) -> Event:
    """Import an event archive in one transaction, or refuse it (ServiceError listing every
    problem) and write nothing."""
    checker, ctx, plan = _check_event_doc(doc)
    if checker.errors or plan is None:
        raise ServiceError(checker.errors or [{"hand": None, "field": "archive", "code": "invalid",
                                               "message": "the archive cannot be read"}])
    with atomic_import():
        users = ensure_users(ctx.usernames)
        event = write_event_body(plan, ctx, users)
        refuse_if_rescored_differently([event])
        record_import(event, actor, doc)
    return event


class atomic_import:
    """One transaction for a whole import; a database rule broken despite the checks (two
    imports of the same slug at once) is refused as a ServiceError, not a 500."""

    def __enter__(self) -> None:
        self._atomic = transaction.atomic()
        self._atomic.__enter__()

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        self._atomic.__exit__(exc_type, exc, tb)
        if isinstance(exc, IntegrityError):
            raise ServiceError(f"the archive breaks a rule of the database: {exc}",
                               field="archive", code="integrity_error") from exc
        return False


def refuse_if_rescored_differently(events: list[Event]) -> None:
    """After writing, score every scorecard again from the database: what was stored must be
    what the engine computes, or the import is rolled back."""
    problems = [p for event in events for p in verify_event_scores(event)]
    if problems:
        raise ServiceError(problems)


def record_import(event: Event, actor: Any, doc: dict[str, Any]) -> None:
    audit.record(actor=actor, action=IMPORT_ACTION, target=event, event=event,
                 after={"format": doc.get("format"), "version": doc.get("version"),
                        "kind": doc.get("kind"), "exported_with": doc.get("exported_with")})


def read_snapshot() -> Any:
    """A transaction in which every read sees the same moment (PostgreSQL: repeatable read,
    read only), so an archive never mixes data from before and after a concurrent write."""
    return _Snapshot()


class _Snapshot:
    def __enter__(self) -> None:
        outer = connection.in_atomic_block
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        if not outer and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        self._atomic.__exit__(exc_type, exc, tb)
        return False


# ---------------------------------------------------------------------------------------
# Files and backups
# ---------------------------------------------------------------------------------------

BACKUP_FORMAT = "tarok-backup"
BACKUP_VERSION = 1


def read_file(path: str) -> str:
    """The text of an archive file, or of standard input for "-"."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except UnicodeDecodeError as exc:
        raise ServiceError(f"{path} is not UTF-8 text", field="file", code="not_utf8") from exc
    except OSError as exc:
        raise ServiceError(f"cannot read {path}: {exc.strerror}", field="file",
                           code="unreadable") from exc


def write_file(path: str | Path, text: str) -> dict[str, Any]:
    """Write an archive next to its final name and rename it into place, so a crash never
    leaves half a file under the real name. Returns its size and SHA-256."""
    data = text.encode("utf-8")
    path = Path(path)
    partial = path.with_name(f".{path.name}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise ServiceError(f"cannot write {path}: {exc.strerror}", field="file",
                           code="unwritable") from exc
    return {"file": str(path), "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _backup_documents() -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    # Apps built on this one add their archives (tournaments.hooks: the leagues' seasons, which
    # hold their matchday events); the events no archive holds yet are written on their own.
    covered: set[int] = set()
    for provider in hooks.backup_providers():
        covered |= provider.events_covered()
        yield from provider.documents()
    for event in Event.objects.exclude(pk__in=covered).order_by("slug"):
        yield f"events/{event.slug}.json", "event", event.slug, export_event(event)


def write_backup(directory: str | Path, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """Write every event and every season as archives into DIR/<UTC date-time>/, with a
    manifest (the time of the backup, and each file's kind, name, size and SHA-256, in the
    order to import them) and a SHA256SUMS file for `sha256sum -c`.

    The folder appears under its final name only once complete. All archives are read in
    one snapshot, so they agree with each other."""
    now = (now or timezone.now()).astimezone(dt.UTC)
    stamp = now.strftime("%Y-%m-%dT%H%M%SZ")
    root = Path(directory)
    final = root / stamp
    if final.exists():
        raise ServiceError(f"{final} already exists: one backup per second", field="directory",
                           code="backup_exists")
    partial = root / f".{stamp}.partial"
    files = []
    try:
        partial.mkdir(parents=True)
        with read_snapshot():
            for relative, kind, name, doc in _backup_documents():
                data = dumps(doc).encode("utf-8")
                target = partial / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
                files.append({"path": relative, "kind": kind, "name": name, "bytes": len(data),
                              "sha256": hashlib.sha256(data).hexdigest()})
        manifest = {"format": BACKUP_FORMAT, "version": BACKUP_VERSION, "created_at": utc_iso(now),
                    "exported_with": exported_with(),
                    "archive_format": {"format": FORMAT, "version": VERSION}, "files": files}
        (partial / "manifest.json").write_bytes(dumps(manifest).encode("utf-8"))
        (partial / "SHA256SUMS").write_bytes(
            "".join(f"{f['sha256']}  {f['path']}\n" for f in files).encode("utf-8"))
        os.replace(partial, final)
    except OSError as exc:
        shutil.rmtree(partial, ignore_errors=True)
        raise ServiceError(f"cannot write the backup into {root}: {exc.strerror}",
                           field="directory", code="unwritable") from exc
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return {"directory": str(final), **manifest}
