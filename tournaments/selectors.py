"""Reads of the tournament domain, shaped for the pages, the API and the printouts, with the
joins done up front (select_related / prefetch_related) so a page's query count does not grow
with the field."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from tournaments.models import AuditEntry, Event, Hand, Registration, Round, Scorecard, Seat, Table


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
