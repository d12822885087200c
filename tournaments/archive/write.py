"""Writing a checked event into the database exactly as the archive holds it: its own ids,
versions and times, not replayed through the services (which would renumber, restamp and add
audit entries)."""

from __future__ import annotations

import json
from typing import Any

from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.db import connection, connections, models
from django.utils import timezone

from tournaments.archive import event_checks
from tournaments.archive.check_event import TRUSTED, ImportContext
from tournaments.archive.format import NO_OBJECT
from tournaments.models import (
    AuditEntry,
    Dispute,
    Event,
    Hand,
    MoneySheetRow,
    Penalty,
    RefereeCall,
    Registration,
    Round,
    Scorecard,
    Seat,
    StandingsAdjustment,
    Table,
)
from tournaments.services import player_links, table_links


def _auto_times(model: type[models.Model]) -> list[str]:
    return [f.name for f in model._meta.concrete_fields
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]


class Stamps:
    """The archived values of auto_now / auto_now_add times, which every insert overwrites
    with the clock. They are put back at the end with one update per model, which writes
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
            names = _auto_times(model)
            if connection.vendor != "postgresql" or len(objs) < 2:
                model.objects.bulk_update(objs, names, batch_size=500)
                continue
            # One join with arrays of the values: bulk_update writes a CASE branch per row for
            # every row (the 1,024 cards of a big day: a second of an import).
            quote = connection.ops.quote_name
            columns = [quote(model._meta.get_field(name).column) for name in names]
            with connection.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {quote(model._meta.db_table)} AS t SET "  # noqa: S608 - the model's own names; values are parameters
                    + ", ".join(f"{c} = v.{c}" for c in columns)
                    + " FROM unnest(%s::bigint[]" + ", %s::timestamptz[]" * len(names)
                    + f") AS v(id, {', '.join(columns)}) WHERE t.{quote(model._meta.pk.column)} = v.id",
                    [[o.pk for o in objs], *([getattr(o, name) for o in objs] for name in names)])


# From this many rows of a kind on, PostgreSQL takes them with COPY (`_copied`).
COPY_FROM = 1000


def inserted(model: type[models.Model], objs: list[Any]) -> list[Any]:
    """Insert `objs` with one query per batch and return them with their keys. Creation
    times are the archived ones (the models default them to now instead of overwriting them);
    objects with an auto_now time have it put back by Stamps."""
    if connection.vendor == "postgresql" and len(objs) >= COPY_FROM:
        return _copied(model, objs)
    model.objects.bulk_create(objs, batch_size=500)
    if any(o.pk is None for o in objs):  # pragma: no cover - PostgreSQL and SQLite return keys
        raise RuntimeError(f"the database returned no keys for the new {model.__name__} rows")
    return objs


def inserted_rows(model: type[models.Model], rows: list[dict[str, Any]]) -> list[int]:
    """Insert plain rows (attribute name to value, as the checked archive holds them; related
    rows by key: `scorecard_id`) and return their keys in order. A field a row leaves out takes
    its default. On PostgreSQL many rows go with COPY without a model object each: making them
    (and setting their relations) was two fifths of writing the hands and the trail of a
    1,024-player day. Only for models without auto_now times, which an insert overwrites."""
    if _auto_times(model):  # pragma: no cover - a programming error, not an archive's
        raise ValueError(f"{model.__name__} has auto_now times: use inserted() and Stamps")
    if connection.vendor == "postgresql" and len(rows) >= COPY_FROM:
        return _copied_rows(model, rows)
    return [obj.pk for obj in inserted(model, [model(**row) for row in rows])]


def _copied_rows(model: type[models.Model], rows: list[dict[str, Any]]) -> list[int]:
    db = connections[connection.alias]
    meta = model._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    quote = db.ops.quote_name
    columns = ", ".join(quote(f.column) for f in [meta.pk, *fields])
    texts = [_copy_text(f) for f in fields]
    with db.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                       [meta.db_table, meta.pk.column, len(rows)])
        keys = [row[0] for row in cursor.fetchall()]
        with cursor.cursor.copy(f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
            if all(text is not None for text in texts):
                _write_copy_text(copy, keys, rows, list(zip(fields, texts, strict=True)))
                return keys
            # Per field: whether its value needs preparing (as `_copied`).
            plan = [(f.attname, _needs_preparing(f), f) for f in fields]
            for key, row in zip(keys, rows, strict=True):
                values = [key]
                for attname, prepare, field in plan:
                    value = row[attname] if attname in row else field.get_default()
                    values.append(field.get_db_prep_save(value, db) if prepare else value)
                copy.write_row(values)
    return keys


def _write_copy_text(copy: Any, keys: list[int], rows: list[dict[str, Any]],
                     fields: list[tuple[models.Field, Any]]) -> None:
    """The rows in COPY's text format, written in chunks: psycopg's write_row adapts every
    value through its dumpers in Python, which was half of writing the hands of 1,024
    players. A field a row leaves out takes its default."""
    lines: list[str] = []
    for key, row in zip(keys, rows, strict=True):
        parts = [str(key)]
        for field, text in fields:
            value = row[field.attname] if field.attname in row else field.get_default()
            parts.append(r"\N" if value is None else text(value))
        lines.append("\t".join(parts))
        if len(lines) >= 1000:
            copy.write("\n".join(lines) + "\n")
            lines.clear()
    if lines:
        copy.write("\n".join(lines) + "\n")


# COPY's text format: a backslash, and the tab and line ends that part values and rows, escaped.
_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"})
_WHOLE_NUMBERS = (models.IntegerField, models.BigIntegerField, models.PositiveIntegerField,
                  models.PositiveSmallIntegerField, models.SmallIntegerField)


def _escaped(value: str) -> str:
    if "\\" in value or "\n" in value or "\r" in value or "\t" in value:
        return value.translate(_COPY_ESCAPES)
    return value


# One encoder for every value: json.dumps with any option makes a new one a call.
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _json_text(value: Any) -> str:
    # JSON's text holds no tab or line end of its own (the encoder escapes them in strings),
    # so only its backslashes need COPY's escape.
    return _JSON.encode(value).replace("\\", "\\\\")


def _time_text(value: Any) -> str:
    # As Django stores a naive time: taken in the default time zone.
    return (value if timezone.is_aware(value) else timezone.make_aware(value)).isoformat()


def _copy_text(field: models.Field) -> Any:
    """How a (non-null) value of `field` is written in COPY's text format, or None when this
    module does not know the field's class exactly (a subclass may store otherwise)."""
    kind = type(field)
    if kind in _WHOLE_NUMBERS:
        return str
    if kind is models.ForeignKey and not _needs_preparing(field):
        return str
    if kind in (models.CharField, models.TextField):
        return _escaped
    if kind is models.BooleanField:
        return lambda value: "t" if value else "f"
    if kind is models.JSONField and field.encoder is None:
        return _json_text
    if kind is models.DateTimeField and not _auto_times(field.model):
        return _time_text
    return None


# Fields whose value, as the checked archive holds it (already converted by the field's
# to_python), is the value PostgreSQL stores: prepared by bulk_create, each gives its value
# back. Only these exact classes (a subclass may prepare otherwise), and only while their
# get_db_prep_save is Django's own.
_AS_STORED = {cls: cls.get_db_prep_save for cls in (
    models.IntegerField, models.BigIntegerField, models.PositiveIntegerField,
    models.PositiveSmallIntegerField, models.SmallIntegerField, models.CharField, models.TextField,
    models.BooleanField)}


def _needs_preparing(field: models.Field) -> bool:
    """Whether a value of `field` must go through its get_db_prep_save before COPY: not for
    the classes of _AS_STORED, nor for a relation to an integer key (its value is that key,
    or None)."""
    if isinstance(field, models.ForeignKey) and type(field) is models.ForeignKey:
        target = field.target_field
        return type(target) not in (models.AutoField, models.BigAutoField) or (
            field.get_db_prep_save.__func__ is not models.ForeignKey.get_db_prep_save)
    stored = _AS_STORED.get(type(field))
    return stored is None or field.get_db_prep_save.__func__ is not stored


def _copied(model: type[models.Model], objs: list[Any]) -> list[Any]:
    """`inserted` on PostgreSQL for many rows (the hands and the trail of a large event): their
    keys drawn from the table's sequence in one query, then the rows sent with COPY. Django's
    bulk_create sends each column as one array, and psycopg escapes the quotes of every JSON
    value in such an array in Python, a regular expression's replacement per quote: 8 s of an
    import of 256 players. The values are prepared as bulk_create prepares them (pre_save,
    get_db_prep_save), and no signal is sent, as bulk_create sends none."""
    db = connections[connection.alias]  # the connection itself: the proxy costs a lookup a value
    meta = model._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    for obj in objs:
        # As bulk_create does: a relation to an object saved after it was set takes its key.
        obj._prepare_related_fields_for_save(operation_name="bulk_create")
    quote = db.ops.quote_name
    columns = ", ".join(quote(f.column) for f in [meta.pk, *fields])
    with db.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                       [meta.db_table, meta.pk.column, len(objs)])
        keys = [row[0] for row in cursor.fetchall()]
        prepared = [(f, _needs_preparing(f), f.attname) for f in fields]
        with cursor.cursor.copy(f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
            for key, obj in zip(keys, objs, strict=True):
                copy.write_row([key, *(f.get_db_prep_save(f.pre_save(obj, True), db) if prepare
                                       else getattr(obj, attname) for f, prepare, attname in prepared)])
    for key, obj in zip(keys, objs, strict=True):
        obj.pk = key
        obj._state.adding = False
        obj._state.db = db.alias
    return objs


def write_audit(plans: list[dict], *, event: Event | None, users: dict[str, Any],
                find_target: Any, tables: dict[tuple[int, int], Table]) -> list[int]:
    """Write checked audit entries in their order; `find_target(type, ref)` gives the object an
    entry names, or its key. Returns the entries' keys in the archive's order."""
    content_types: dict[str, int] = {}
    rows = []
    event_id = event.pk if event is not None else None
    for e in plans:
        if e["type"] not in content_types:
            content_types[e["type"]] = ContentType.objects.get_for_model(
                apps.get_model(e["type"]), for_concrete_model=False).pk
        target = find_target(e["type"], e["ref"]) if e["ref"] is not None else None
        actor = users[e["actor"]] if e["actor"] else None
        rows.append({
            "event_id": event_id, "actor_id": actor.pk if actor is not None else None,
            "table_id": tables[e["table"]].pk if e["table"] else None,
            "content_type_id": content_types[e["type"]],
            "object_id": NO_OBJECT if target is None else str(getattr(target, "pk", target)),
            **e["fields"]})
    return inserted_rows(AuditEntry, rows)


def write_event_body(plan: dict, ctx: ImportContext, users: dict[str, Any],
                     into: Event | None = None) -> Event:
    """Write a checked event plan. Runs inside the caller's transaction. `into`: an event
    whose content the plan replaces, its row (and what refers to it from outside the event: a
    league's matchday, a cup) kept (tournaments.venue's pushes)."""
    if plan.get(TRUSTED):  # pragma: no cover - importing.update_event checks again in full
        raise ValueError("a plan that trusts an earlier archive is written change by change only")
    return _EventWriter(plan, ctx, users).write(into)


# What names an audit entry or a hand (and is set to null when it goes): cleared in one
# statement by clear_event before the rows go, so that they go in one statement too. A new
# reference to either must be added here (tests/tournaments/archive/test_speed_paths.py).
NAMES_ENTRIES = ((Dispute, "correction"), (RefereeCall, "correction"))
NAMES_HANDS = ((Penalty, "hand"), (Dispute, "hand"))


def clear_event(event: Event) -> None:
    """Delete what an event archive holds of `event` (its registrations, rounds and all below
    them, penalties, disputes, adjustments and audit trail), keeping the event's row."""
    Dispute.objects.filter(event=event).delete()
    StandingsAdjustment.objects.filter(event=event).delete()
    Penalty.objects.filter(event=event).delete()
    # The trail and the hands, the rows by the ten thousand, in one statement each. Django's
    # delete() reads every one into memory first, to set to null what names it batch by batch
    # (NAMES_ENTRIES, NAMES_HANDS): 1.7 s for the 27,664 entries of a 1,024-player day, and
    # 1.2 s for its hands. Only the event's own rows name them, most deleted above and the
    # rest (referee calls) with their tables below; set to null first all the same.
    for entries_or_hands, names in (
            (AuditEntry.objects.filter(event=event), NAMES_ENTRIES),
            (Hand.objects.filter(scorecard__table__round__event=event), NAMES_HANDS)):
        for model, field in names:
            model.objects.filter(**{f"{field}__in": entries_or_hands}).update(**{field: None})
        # Django's own delete of rows nothing names (what delete() runs for them).
        entries_or_hands._raw_delete(entries_or_hands.db)
    Round.objects.filter(event=event).delete()
    Registration.objects.filter(event=event).delete()


class _EventWriter:
    """One checked event plan written in the archive's order, most kinds of objects in bulk
    inserts. Each step returns what the later ones name: registrations by start number,
    rounds by number, tables and cards by (round, table), hands' keys by (round, table, hand)."""

    def __init__(self, plan: dict, ctx: ImportContext, users: dict[str, Any]) -> None:
        self.plan = plan
        self.ctx = ctx
        self.users = users
        self.stamps = Stamps()

    def user(self, name: str | None) -> Any:
        return self.users[name] if name else None

    def write(self, into: Event | None = None) -> Event:
        plan, users = self.plan, self.users
        if into is None:
            event = self.stamps.create(Event, **plan["fields"])
        else:
            clear_event(into)
            # An update writes the archived times as given (auto_now only fills save()).
            Event.objects.filter(pk=into.pk).update(**plan["fields"])
            event = Event.objects.get(pk=into.pk)
        event.organisers.set([users[u] for u in plan["organisers"]])
        event.referees.set([users[u] for u in plan["referees"]])
        regs = self._registrations(event)
        rounds, tables = self._rounds_and_tables(event)
        cards, seats, hands, rows = self._seats_cards_and_hands(rounds, tables, regs)
        penalties, adjustments, disputes = self._penalties_adjustments_disputes(event, regs, tables,
                                                                                 hands)
        targets = _target_objects(event, regs, rounds, tables, cards, seats, hands, rows,
                                  penalties, disputes, adjustments)
        entries = write_audit(plan["audit"], event=event, users=users, find_target=targets,
                              tables=tables)
        for dispute, d in zip(disputes, plan["disputes"], strict=True):
            if d["correction"] is not None:
                dispute.correction_id = entries[d["correction"]]
                dispute.save(update_fields=["correction"])
        # Links are not archived (their tokens are secrets of the running event): the restored
        # rounds and registrations get new ones, as newly stored ones do.
        for rnd in rounds.values():
            table_links.links_ensure(rnd=rnd, audited=False)
        player_links.links_ensure(event=event, audited=False)
        # Last, since the writes above stamped the clock's time on every one of them.
        self.stamps.apply()
        event.refresh_from_db()
        for pk, points in event_checks.refuse_wrong_carried_totals(event, plan).items():
            # An older archive's "1.667" for 5/3: the copy takes the exact value.
            Registration.objects.filter(pk=pk).update(tournament_points=points)
        return event

    def _registrations(self, event: Event) -> dict[int, Registration]:
        """The registrations by start number, their players matched or created first."""
        ctx, users = self.ctx, self.users
        ctx.resolver.materialise_all([e["resolved"] for e in self.plan["registrations"]], users)
        regs: dict[int, Registration] = {
            entry["fields"]["start_number"]: Registration(
                event=event, player=ctx.resolver.materialise(entry["resolved"], users), **entry["fields"])
            for entry in self.plan["registrations"]}
        inserted(Registration, list(regs.values()))
        return regs

    def _rounds_and_tables(self, event: Event
                           ) -> tuple[dict[int, Round], dict[tuple[int, int], Table]]:
        """The rounds by number and their tables by (round, table)."""
        rounds: dict[int, Round] = {}
        tables: dict[tuple[int, int], Table] = {}
        for rplan in self.plan["rounds"]:
            rnd = self.stamps.create(Round, event=event, **rplan["fields"])
            rounds[rnd.number] = rnd
            for tplan in rplan["tables"]:
                tables[(rnd.number, tplan["fields"]["number"])] = Table(round=rnd, **tplan["fields"])
        inserted(Table, list(tables.values()))
        return rounds, tables

    def _seats_cards_and_hands(self, rounds: dict[int, Round], tables: dict[tuple[int, int], Table],
                               regs: dict[int, Registration]) -> tuple[
            dict[tuple[int, int], Scorecard], dict[tuple[int, int, int], Seat],
            dict[tuple[int, int, int], int], dict[tuple[int, int, int], MoneySheetRow]]:
        """Every table's seats and scorecard, then the cards' hands and money sheet rows.
        Returns them by their natural keys, which penalties, disputes and the trail name them
        by: the cards by (round, table), the seats by (round, table, position), the hands by
        (round, table, hand), the money rows by (round, table, start number)."""
        user = self.user
        seats: dict[tuple[int, int, int], Seat] = {}
        cards: dict[tuple[int, int], Scorecard] = {}
        card_plans: list[dict] = []
        for rplan in self.plan["rounds"]:
            rnd = rounds[rplan["fields"]["number"]]
            for tplan in rplan["tables"]:
                table = tables[(rnd.number, tplan["fields"]["number"])]
                for s in tplan["seats"]:
                    seats[(rnd.number, table.number, s["position"])] = Seat(
                        round=rnd, table=table, registration=regs[s["start_number"]],
                        position=s["position"])
                cplan = tplan["scorecard"]
                if cplan is not None:
                    cards[(rnd.number, table.number)] = Scorecard(
                        table=table, submitted_by=user(cplan["submitted_by"]),
                        confirmed_by=user(cplan["confirmed_by"]),
                        verified_by=user(cplan["verified_by"]), **cplan["fields"])
                    card_plans.append(cplan)
        inserted(Seat, list(seats.values()))
        inserted(Scorecard, list(cards.values()))
        hand_rows: dict[tuple[int, int, int], dict[str, Any]] = {}
        rows: dict[tuple[int, int, int], MoneySheetRow] = {}

        def key_of(name: str | None) -> int | None:
            return self.users[name].pk if name else None

        for (rnd, number), card, cplan in zip(cards, cards.values(), card_plans, strict=True):
            self.stamps.keep(card, cplan["fields"])
            for h in cplan["hands"]:
                hand_rows[(rnd, number, h["fields"]["number"])] = {
                    "scorecard_id": card.pk, "entered_by_id": key_of(h["entered_by"]),
                    "confirmed_by_id": key_of(h["confirmed_by"]), **h["fields"]}
            for r in cplan["money_rows"]:
                rows[(rnd, number, r["start_number"])] = MoneySheetRow(
                    scorecard=card, registration=regs[r["start_number"]], **r["fields"])
        hands = dict(zip(hand_rows, inserted_rows(Hand, list(hand_rows.values())), strict=True))
        inserted(MoneySheetRow, list(rows.values()))
        return cards, seats, hands, rows

    def _penalties_adjustments_disputes(
            self, event: Event, regs: dict[int, Registration], tables: dict[tuple[int, int], Table],
            hands: dict[tuple[int, int, int], int]
    ) -> tuple[list[Penalty], list[StandingsAdjustment], list[Dispute]]:
        """The penalties, standings adjustments and disputes, naming their tables and hands."""
        plan, user = self.plan, self.user

        def hand_of(table_key: tuple[int, int] | None, number: int | None) -> int | None:
            return hands[(*table_key, number)] if table_key and number else None

        penalties = inserted(Penalty, [
            Penalty(event=event, table=tables[p["table"]], hand_id=hand_of(p["table"], p["hand"]),
                    registration=regs[p["start_number"]], recorded_by=user(p["recorded_by"]),
                    **p["fields"])
            for p in plan["penalties"]])
        adjustments = inserted(StandingsAdjustment, [
            StandingsAdjustment(event=event, registration=regs[a["start_number"]],
                                created_by=user(a["created_by"]), **a["fields"])
            for a in plan["standings_adjustments"]])
        disputes = inserted(Dispute, [
            Dispute(event=event, table=tables[d["table"]] if d["table"] else None,
                    hand_id=hand_of(d["table"], d["hand"]), raised_by=user(d["raised_by"]),
                    decided_by=user(d["decided_by"]), **d["fields"])
            for d in plan["disputes"]])
        return penalties, adjustments, disputes


def _target_objects(event: Event, regs: dict[int, Registration], rounds: dict[int, Round],
                    tables: dict[tuple[int, int], Table], cards: dict[tuple[int, int], Scorecard],
                    seats: dict[tuple[int, int, int], Seat], hands: dict[tuple[int, int, int], int],
                    rows: dict[tuple[int, int, int], MoneySheetRow], penalties: list[Penalty],
                    disputes: list[Dispute], adjustments: list[StandingsAdjustment]) -> Any:
    """The finder of write_audit: an entry's target by its type and reference (the hands by
    their keys)."""
    finders = {
        "tournaments.event": lambda ref: event,
        "tournaments.registration": lambda ref: regs.get(ref["start_number"]),
        "tournaments.player": lambda ref: regs[ref["start_number"]].player,
        "tournaments.round": lambda ref: rounds.get(ref["round"]),
        "tournaments.table": lambda ref: tables.get((ref["round"], ref["table"])),
        "tournaments.scorecard": lambda ref: cards.get((ref["round"], ref["table"])),
        "tournaments.seat": lambda ref: seats.get((ref["round"], ref["table"], ref["position"])),
        "tournaments.hand": lambda ref: hands.get((ref["round"], ref["table"], ref["hand"])),
        "tournaments.moneysheetrow": lambda ref: rows.get(
            (ref["round"], ref["table"], ref["start_number"])),
        "tournaments.penalty": lambda ref: penalties[ref["penalty"]],
        "tournaments.dispute": lambda ref: disputes[ref["dispute"]],
        "tournaments.standingsadjustment": lambda ref: adjustments[ref["adjustment"]],
    }

    def find(type_label: str, ref: dict[str, Any]) -> models.Model | int | None:
        return finders[type_label](ref)

    return find
