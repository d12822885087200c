"""Reads the API needs beyond `tournaments.selectors`: finding an event, round, table, hand,
dispute or job by the numbers in a URL, and the lists of the API's collections, each with its
joins done up front so a list's query count does not grow with its length."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from tournaments.domain import rights
from tournaments.models import (
    AuditEntry,
    Dispute,
    Event,
    Hand,
    Job,
    Penalty,
    Player,
    Registration,
    Round,
    Seat,
    Table,
)


def events_visible_to(user: Any) -> QuerySet[Event]:
    """Public events, and the hidden ones the user organises or referees (all for staff)."""
    events = Event.objects.order_by("-starts_on", "name")
    if getattr(user, "is_authenticated", False) and user.is_staff:
        return events
    if not getattr(user, "is_authenticated", False):
        return events.filter(is_public=True)
    return events.filter(Q(is_public=True) | Q(organisers=user) | Q(referees=user)).distinct()


def registration_of(event: Event, start_number: int) -> Registration | None:
    return (event.registrations.select_related("player", "event")
            .filter(start_number=start_number).first())


def registrations_by_number(event: Event, numbers: list[int]) -> dict[int, Registration]:
    return {r.start_number: r for r in
            event.registrations.select_related("player").filter(start_number__in=numbers)}


def round_of(event: Event, number: int) -> Round | None:
    return event.rounds.select_related("event").filter(number=number).first()


def rounds_listed(event: Event, *, with_drafts: bool) -> QuerySet[Round]:
    rounds = event.rounds.select_related("event").order_by("number")
    return rounds if with_drafts else rounds.exclude(status=Round.Status.DRAFT)


def table_of(event: Event, round_number: int, table_number: int) -> Table | None:
    seats = Seat.objects.select_related("registration__player").order_by("position")
    return (Table.objects.select_related("round__event", "scorecard")
            .prefetch_related(Prefetch("seats", queryset=seats))
            .filter(round__event=event, round__number=round_number, number=table_number).first())


def hand_of(table: Table, number: int) -> Hand | None:
    return Hand.objects.filter(scorecard__table=table, number=number).first()


def penalties_of(event: Event) -> QuerySet[Penalty]:
    return (event.penalties.select_related("table__round", "hand", "registration__player")
            .order_by("-created_at", "-id"))


def penalties_of_table(table: Table) -> QuerySet[Penalty]:
    return penalties_of(table.round.event).filter(table=table)


def disputes_of(event: Event) -> QuerySet[Dispute]:
    return event.disputes.select_related("table__round", "hand").order_by("-raised_at", "-id")


def dispute_of(event: Event, pk: int) -> Dispute | None:
    return disputes_of(event).filter(pk=pk).first()


def audit_entry_of(event: Event, pk: int) -> AuditEntry | None:
    return event.audit_entries.filter(pk=pk).first()


def job_by_id(pk: int) -> Job | None:
    return Job.objects.select_related("event").filter(pk=pk).first()


def players_search(user: Any) -> QuerySet[Player]:
    """The registry's players the user may see (tournaments.domain.rights.visible_players_q)."""
    return Player.objects.filter(rights.visible_players_q(user)).order_by("last_name", "first_name", "id")


def player_by_id(user: Any, pk: int) -> Player | None:
    """The player of an id, if he exists for the user: exactly where his page does."""
    return Player.objects.filter(rights.visible_players_q(user), pk=pk).first()


def player_of_user(user: Any) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def registrations_of_player(player: Player) -> QuerySet[Registration]:
    return player.registrations.select_related("event").order_by("-event__starts_on")


def events_run_by(user: Any) -> dict[str, list[str]]:
    """Slugs of the events the user organises and referees."""
    if not getattr(user, "is_authenticated", False):
        return {"organiser": [], "referee": []}
    return {"organiser": list(user.organised_events.order_by("slug").values_list("slug", flat=True)),
            "referee": list(user.refereed_events.order_by("slug").values_list("slug", flat=True))}
