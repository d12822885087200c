"""Reads of the tournament domain, shaped for the pages, the API and the printouts, with the
joins done up front (select_related / prefetch_related) so a page's query count does not grow
with the field."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from tournaments import standings
from tournaments.models import (
    AuditEntry,
    Event,
    Hand,
    Registration,
    Round,
    Scorecard,
    Seat,
    Table,
)


def public_events() -> QuerySet[Event]:
    return Event.objects.filter(is_public=True).order_by("-starts_on", "name")


def event_by_slug(slug: str) -> Event | None:
    return Event.objects.filter(slug=slug).first()


def registrations_of(event: Event) -> QuerySet[Registration]:
    return event.registrations.select_related("player").order_by("start_number")


def rounds_of(event: Event) -> QuerySet[Round]:
    return event.rounds.order_by("number")


def round_with_seating(event: Event, number: int) -> Round | None:
    seats = Seat.objects.select_related("registration__player").order_by("position")
    tables = Table.objects.select_related("scorecard").prefetch_related(
        Prefetch("seats", queryset=seats)).order_by("number")
    return (event.rounds.filter(number=number)
            .prefetch_related(Prefetch("tables", queryset=tables)).first())


def scorecard_with_hands(table: Table) -> Scorecard:
    return (Scorecard.objects.select_related("table__round__event")
            .prefetch_related(Prefetch("hands", queryset=Hand.objects.order_by("number")))
            .get(table=table))


def audit_of_event(event: Event) -> QuerySet[AuditEntry]:
    return event.audit_entries.select_related("actor", "table__round", "content_type")


def audit_of_table(table: Table) -> QuerySet[AuditEntry]:
    return table.audit_entries.select_related("actor", "content_type")


def seating_request(event: Event, number: int, seed: int) -> dict:
    """The seating engine's request (seating contract) for round `number` of the event.

    Who is available: the checked-in players and late entries once anybody has checked in;
    before any check-in, everybody registered and not withdrawn.
    """
    regs = list(event.registrations.order_by("start_number"))
    checked = [r for r in regs if r.status in (Registration.Status.CHECKED_IN, Registration.Status.LATE_ENTRY)]
    available = checked or [r for r in regs if r.status != Registration.Status.WITHDRAWN]
    rounds = list(
        event.rounds.filter(number__lt=number).order_by("number").prefetch_related(
            Prefetch("tables", queryset=Table.objects.select_related("scorecard").prefetch_related(
                Prefetch("seats", queryset=Seat.objects.select_related("registration").order_by("position"))
            ).order_by("number"))
        )
    )
    history = [[[str(s.registration.start_number) for s in t.seats.all()] for t in r.tables.all()]
               for r in rounds]
    ever_seated = {pid for rnd in history for table in rnd for pid in table}
    last_round = set(pid for table in history[-1] for pid in table) if history else set()
    players = [{
        "id": str(r.start_number),
        "points": float(r.tournament_points),
        "score": r.score,
        "played_last_round": str(r.start_number) in last_round if history else True,
        "new": bool(history) and str(r.start_number) not in ever_seated,
    } for r in available]
    request = {
        "system": event.seating_system,
        "round": number,
        "table_size": event.table_size,
        "min_table_size": event.min_table_size,
        "seed": seed,
        "players": players,
        "history": history,
    }
    if rounds and event.seating_system == "knockout":
        request["previous_round"] = [
            {"players": [str(s.registration.start_number) for s in t.seats.all()],
             "placing": standings.table_placing(t.scorecard)}
            for t in rounds[-1].tables.all() if t.scorecard.status != Scorecard.Status.ANNULLED
        ]
    return request

