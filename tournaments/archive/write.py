"""Writing a checked event into the database exactly as the archive holds it: its own ids,
versions and times, not replayed through the services (which would renumber, restamp and add
audit entries)."""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.db import models

from tournaments.archive import event_checks
from tournaments.archive.check_event import ImportContext
from tournaments.archive.format import NO_OBJECT
from tournaments.models import (
    AuditEntry,
    Dispute,
    Event,
    Hand,
    MoneySheetRow,
    Penalty,
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


def inserted(model: type[models.Model], objs: list[Any]) -> list[Any]:
    """Insert `objs` with one query per batch and return them with their keys. Creation
    times are the archived ones (the models default them to now instead of overwriting them);
    objects with an auto_now time have it put back by Stamps."""
    model.objects.bulk_create(objs, batch_size=500)
    if any(o.pk is None for o in objs):  # pragma: no cover - PostgreSQL and SQLite return keys
        raise RuntimeError(f"the database returned no keys for the new {model.__name__} rows")
    return objs


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


def write_event_body(plan: dict, ctx: ImportContext, users: dict[str, Any],
                     into: Event | None = None) -> Event:
    """Write a checked event plan. Runs inside the caller's transaction. `into`: an event
    whose content the plan replaces, its row (and what refers to it from outside the event: a
    league's matchday, a cup) kept (tournaments.venue's pushes)."""
    return _EventWriter(plan, ctx, users).write(into)


def clear_event(event: Event) -> None:
    """Delete what an event archive holds of `event` (its registrations, rounds and all below
    them, penalties, disputes, adjustments and audit trail), keeping the event's row."""
    Dispute.objects.filter(event=event).delete()
    AuditEntry.objects.filter(event=event).delete()
    StandingsAdjustment.objects.filter(event=event).delete()
    Penalty.objects.filter(event=event).delete()
    Round.objects.filter(event=event).delete()
    Registration.objects.filter(event=event).delete()


class _EventWriter:
    """One checked event plan written in the archive's order, most kinds of objects in bulk
    inserts. Each step returns what the later ones name: registrations by start number,
    rounds by number, tables and cards by (round, table), hands by (round, table, hand)."""

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
        cards = self._seats_cards_and_hands(rounds, tables, regs)
        hands = _hands_of(event)
        penalties, adjustments, disputes = self._penalties_adjustments_disputes(event, regs, tables,
                                                                                 hands)
        targets = _target_objects(event, regs, rounds, tables, cards, hands, penalties, disputes,
                                  adjustments)
        entries = write_audit(plan["audit"], event=event, users=users, find_target=targets,
                              tables=tables, stamps=self.stamps)
        for dispute, d in zip(disputes, plan["disputes"], strict=True):
            if d["correction"] is not None:
                dispute.correction = entries[d["correction"]]
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
                               regs: dict[int, Registration]) -> dict[tuple[int, int], Scorecard]:
        """Every table's seats and scorecard, then the cards' hands and money sheet rows.
        Returns the cards by (round, table)."""
        user = self.user
        seats: list[Seat] = []
        cards: dict[tuple[int, int], Scorecard] = {}
        card_plans: list[dict] = []
        for rplan in self.plan["rounds"]:
            rnd = rounds[rplan["fields"]["number"]]
            for tplan in rplan["tables"]:
                table = tables[(rnd.number, tplan["fields"]["number"])]
                seats.extend(Seat(round=rnd, table=table, registration=regs[s["start_number"]],
                                  position=s["position"]) for s in tplan["seats"])
                cplan = tplan["scorecard"]
                if cplan is not None:
                    cards[(rnd.number, table.number)] = Scorecard(
                        table=table, submitted_by=user(cplan["submitted_by"]),
                        confirmed_by=user(cplan["confirmed_by"]),
                        verified_by=user(cplan["verified_by"]), **cplan["fields"])
                    card_plans.append(cplan)
        Seat.objects.bulk_create(seats, batch_size=500)
        inserted(Scorecard, list(cards.values()))
        hands_to_create: list[Hand] = []
        rows_to_create: list[MoneySheetRow] = []
        for card, cplan in zip(cards.values(), card_plans, strict=True):
            self.stamps.keep(card, cplan["fields"])
            hands_to_create.extend(
                Hand(scorecard=card, entered_by=user(h["entered_by"]),
                     confirmed_by=user(h["confirmed_by"]), **h["fields"]) for h in cplan["hands"])
            rows_to_create.extend(
                MoneySheetRow(scorecard=card, registration=regs[r["start_number"]], **r["fields"])
                for r in cplan["money_rows"])
        Hand.objects.bulk_create(hands_to_create, batch_size=500)
        MoneySheetRow.objects.bulk_create(rows_to_create, batch_size=500)
        return cards

    def _penalties_adjustments_disputes(
            self, event: Event, regs: dict[int, Registration], tables: dict[tuple[int, int], Table],
            hands: dict[tuple[int, int, int], Hand]
    ) -> tuple[list[Penalty], list[StandingsAdjustment], list[Dispute]]:
        """The penalties, standings adjustments and disputes, naming their tables and hands."""
        plan, user = self.plan, self.user

        def hand_of(table_key: tuple[int, int] | None, number: int | None) -> Hand | None:
            return hands[(*table_key, number)] if table_key and number else None

        penalties = inserted(Penalty, [
            Penalty(event=event, table=tables[p["table"]], hand=hand_of(p["table"], p["hand"]),
                    registration=regs[p["start_number"]], recorded_by=user(p["recorded_by"]),
                    **p["fields"])
            for p in plan["penalties"]])
        adjustments = inserted(StandingsAdjustment, [
            StandingsAdjustment(event=event, registration=regs[a["start_number"]],
                                created_by=user(a["created_by"]), **a["fields"])
            for a in plan["standings_adjustments"]])
        disputes = inserted(Dispute, [
            Dispute(event=event, table=tables[d["table"]] if d["table"] else None,
                    hand=hand_of(d["table"], d["hand"]), raised_by=user(d["raised_by"]),
                    decided_by=user(d["decided_by"]), **d["fields"])
            for d in plan["disputes"]])
        return penalties, adjustments, disputes


def _hands_of(event: Event) -> dict[tuple[int, int, int], Hand]:
    """The event's hands by (round, table, hand), read back (not trusting bulk_create to
    return keys on every database) to name them in penalties, disputes and the audit trail."""
    hands: dict[tuple[int, int, int], Hand] = {}
    for h in (Hand.objects.filter(scorecard__table__round__event=event)
              .select_related("scorecard__table__round")):
        hands[(h.scorecard.table.round.number, h.scorecard.table.number, h.number)] = h
    return hands


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
