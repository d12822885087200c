"""Reads of the tournament domain, shaped for the pages, the API and the printouts, with the
joins done up front (select_related / prefetch_related) so a page's query count does not grow
with the field."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Prefetch, Q, QuerySet

from tournaments.domain import lifecycle, rights, search, standings
from tournaments.models import (
    Announcement,
    AuditEntry,
    Dispute,
    Entry,
    Event,
    Hand,
    Penalty,
    Player,
    RefereeCall,
    Registration,
    Round,
    Scorecard,
    Seat,
    Table,
    TableLink,
)


def public_events() -> QuerySet[Event]:
    return Event.objects.filter(is_public=True).order_by("-starts_on", "name")


def event_by_slug(slug: str) -> Event | None:
    return Event.objects.filter(slug=slug).first()


def registrations_of(event: Event) -> QuerySet[Registration]:
    return event.registrations.select_related("player").order_by("start_number")


def playing_count(event: Event) -> int:
    """How many of the event's registrations play: every one not withdrawn (the places they
    take, tournaments.domain.lifecycle.taking_places)."""
    return event.registrations.exclude(status=Registration.Status.WITHDRAWN).count()


def registration_count(event: Event) -> int:
    """How many registrations the event has, withdrawn ones included (one more after the
    waiting list moved up)."""
    return event.registrations.count()


def registrations_matching(event: Event, query: str) -> QuerySet[Registration]:
    """The registrations a search names: a start number exactly, or every word of the query
    in the player's name, whatever its case and diacritics (tournaments.domain.search)."""
    return registrations_of(event).filter(search.registration_q(query))


def player_by_id(pk: int) -> Player | None:
    return Player.objects.filter(pk=pk).first()


def same_players(first_name: str, last_name: str, club: str, federation_id: str = ""
                 ) -> QuerySet[Player]:
    """The registry's players of this name and club, whatever the case and diacritics: whom
    a new entry of these names probably is. None when the federation id is one the registry
    knows: it names its owner beyond doubt."""
    if federation_id and Player.objects.filter(federation_id=federation_id).exists():
        return Player.objects.none()
    name, club_key = search.player_key(first_name, last_name, club)
    return (Player.objects.filter(search_name=name, search_club=club_key)
            .prefetch_related("registrations").order_by("pk"))


def players_visible_to(actor: Any) -> QuerySet[Player]:
    """The registry's players `actor` may see (tournaments.domain.rights.visible_players_q)."""
    return Player.objects.filter(rights.visible_players_q(actor))


def players_matching(query: str, actor: Any) -> QuerySet[Player]:
    """The registry's players `actor` may see that a search names: every word of the query in
    the name or the club (forgiving case and diacritics), or the query as a federation id; all
    he may see without a query."""
    players = players_visible_to(actor).order_by("last_name", "first_name", "id")
    if not query.strip():
        return players
    return players.filter(search.player_q(query, clubs=True, federation_id=True))


def rounds_of(event: Event) -> QuerySet[Round]:
    return event.rounds.order_by("number")


def rounds_shown_to(event: Event, *, with_drafts: bool) -> QuerySet[Round]:
    """The rounds a page lists: drafts only for the officials (`tournaments.domain.rights`)."""
    rounds = rounds_of(event)
    return rounds if with_drafts else rounds.filter(lifecycle.published_rounds_q())


def visible_round(actor: Any, event: Event, number: int) -> Round | None:
    """The round of that number as `actor` may see it: None when there is none, and for a
    draft when he is not one of the event's officials (`rights.can_view_round`). Read through
    the event, the round's `event` is the one given, without a query more."""
    rnd = event.rounds.filter(number=number).first()
    if rnd is None or not rights.can_view_round(actor, rnd):
        return None
    return rnd


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
    # The event gives the ruleset's words for a hand's codes, the target the words of "where"
    # (tournaments.text.audit_text), one query per kind of thing changed.
    return event.audit_entries.select_related("actor", "table__round", "content_type",
                                              "event").prefetch_related("target")


def audit_of_table(table: Table) -> QuerySet[AuditEntry]:
    return table.audit_entries.select_related("actor", "content_type", "event").prefetch_related("target")


def next_round_number(event: Event) -> int:
    return (event.rounds.aggregate(m=Max("number"))["m"] or 0) + 1


def seating_pool(event: Event, number: int | None = None
                 ) -> tuple[list[Registration], list[tuple[Registration, str]]]:
    """Who round `number` (default: the next round) seats, in start-number order, and who sits
    out with the reason (lifecycle.SitsOut): the rule is lifecycle.sits_out_reason."""
    number = number or next_round_number(event)
    seated, out = [], []
    for reg in event.registrations.select_related("player").order_by("start_number"):
        reason = lifecycle.sits_out_reason(event, reg.status,
                                           absent=lifecycle.is_absent(reg, number))
        if reason is None:
            seated.append(reg)
        else:
            out.append((reg, reason))
    return seated, out


def seating_request(event: Event, number: int, seed: int) -> dict:
    """The seating engine's request (seating contract) for round `number` of the event; the
    players are the event's seating pool (seating_pool)."""
    available, _sitting_out = seating_pool(event, number)
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
    # Points and score come from the confirmed results themselves (not from the totals
    # carried on registrations), so a referee's late correction seats the next round right.
    table = {str(row.start_number): row
             for row in standings.event_standings(event, up_to_round=number - 1).rows} if history else {}
    players = [{
        "id": str(r.start_number),
        # From the exact fractions: equal sums of thirds give equal numbers here.
        "points": (float(table[str(r.start_number)].exact_points)
                   if str(r.start_number) in table else 0.0),
        "score": table[str(r.start_number)].score if str(r.start_number) in table else 0,
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



# ---------------------------------------------------------------------------------------
# Reads of the server-rendered pages (public, organiser, referee)
# ---------------------------------------------------------------------------------------

def events_organised_by(user) -> QuerySet[Event]:
    """The events a user may manage: all of them for staff."""
    events = Event.objects.order_by("-starts_on", "name")
    return events if user.is_staff else events.filter(organisers=user)


def events_refereed_by(user) -> QuerySet[Event]:
    """The events a user referees (organisers referee their own events too)."""
    events = Event.objects.order_by("-starts_on", "name")
    if user.is_staff:
        return events
    return events.filter(Q(referees=user) | Q(organisers=user)).distinct()


def table_in_round(event: Event, round_number: int, table_number: int) -> Table | None:
    """A table with its round, event, scorecard and seated players, in one query plus one
    for the seats."""
    seats = Seat.objects.select_related("registration__player").order_by("position")
    return (Table.objects.filter(round__event=event, round__number=round_number,
                                 number=table_number)
            .select_related("round__event", "scorecard")
            .prefetch_related(Prefetch("seats", queryset=seats)).first())


def hands_of(card: Scorecard) -> list[Hand]:
    return list(card.hands.select_related("entered_by", "confirmed_by").order_by("number"))


def penalties_of_table(table: Table):
    return table.penalties.select_related("registration__player", "hand", "recorded_by")


def disputes_of(event: Event):
    return event.disputes.select_related("table__round", "hand", "raised_by", "decided_by",
                                         "correction")


def round_tables_status(rnd: Round) -> list[Table]:
    """The tables of a round with their scorecard status and players, for the officials'
    overview of what is still pending. Cards confirmed on the phone that submitted them (an
    event of one phone per table) and not yet verified come first: no second person saw them."""
    seats = Seat.objects.select_related("registration__player").order_by("position")
    tables = list(rnd.tables.select_related("scorecard", "scorecard__submitted_by",
                                            "scorecard__confirmed_by")
                  .prefetch_related(Prefetch("seats", queryset=seats)).order_by("number"))
    return sorted(tables, key=lambda t: not lifecycle.needs_second_look(t.scorecard))


def current_table_of(player) -> Table | None:
    """The table a player sits at in a round being played now (the newest), for his "my
    table" link."""
    seat = (Seat.objects.filter(registration__player=player,
                                round__status__in=sorted(lifecycle.PLAYABLE_ROUNDS))
            .select_related("table__round__event").order_by("-round__published_at", "-round_id")
            .first())
    return seat.table if seat else None


def current_round(event: Event) -> Round | None:
    """The round the hall is playing: the last published one, else the last closed one."""
    rounds = list(event.rounds.order_by("-number"))
    for rnd in rounds:
        if lifecycle.is_playable(rnd):
            return rnd
    return next((r for r in rounds if r.status == Round.Status.CLOSED), None)


def player_history(player) -> list[dict]:
    """A player's events with his seat, table and result in each round, newest event first.
    Scorecards come with the seats, so the page does not query per round."""
    regs = list(Registration.objects.filter(player=player)
                .select_related("event").order_by("-event__starts_on"))
    seats = (Seat.objects.filter(registration__in=regs)
             .select_related("table__round", "table__scorecard", "registration")
             .order_by("round__number"))
    by_reg: dict[int, list[Seat]] = {}
    for seat in seats:
        by_reg.setdefault(seat.registration_id, []).append(seat)
    out = []
    for reg in regs:
        rounds = []
        for seat in by_reg.get(reg.pk, []):
            card = seat.table.scorecard
            rounds.append({
                "round": seat.table.round, "table": seat.table, "scorecard": card,
                "total": (card.totals or {}).get(str(reg.start_number)),
            })
        out.append({"registration": reg, "event": reg.event, "rounds": rounds})
    return out


def rank_history(event: Event, registration: Registration) -> tuple[list[tuple[int, int]], int]:
    """The player's rank after each round that has counted results: [(round, rank)], and
    the size of the field, for the rank chart."""
    points: list[tuple[int, int]] = []
    field = 0
    numbers = list(event.rounds.filter(lifecycle.counted_cards_q("tables__scorecard__"))
                   .values_list("number", flat=True).distinct().order_by("number"))
    for number in numbers:
        table = standings.event_standings(event, up_to_round=number)
        field = max(field, len(table.rows))
        for row in table.rows:
            if row.registration.pk == registration.pk and row.rounds_played:
                points.append((number, row.rank))
                break
    return points, field


def players_with_event_counts(query: str, actor: Any) -> QuerySet[Player]:
    """`players_matching`, each with the number of events he is registered in that `actor`
    may see (`events`): another organiser's private events are not counted either."""
    seen = Event.objects.filter(rights.visible_events_q(actor)).values("pk")
    return (players_matching(query, actor).select_related("user")
            .annotate(events=Count("registrations", filter=Q(registrations__event__in=seen))))


def players_for_merge(actor: Any) -> QuerySet[Player]:
    """The players `actor` may see, with what a merge moves: the account and the
    registrations with their events."""
    regs = Registration.objects.select_related("event").order_by("event__starts_on", "pk")
    return (players_visible_to(actor).select_related("user")
            .prefetch_related(Prefetch("registrations", queryset=regs)))


@dataclass
class PlayerRound:
    """One round of a player's day as his personal page shows it: where he sat, his card's
    state, and his result once the card counts."""
    round: Round
    table: Table
    position: int  # his seat at the table, from 1 as on the sheet
    counted: bool
    points: Any = None
    score: int | None = None


@dataclass
class PlayerDay:
    """A player's event as his personal link shows it: only what is public (published rounds,
    standings) and his own seats, never another player's private data."""
    registration: Registration
    rounds: list[PlayerRound] = field(default_factory=list)
    # The round being played (published, not closed) in which he sits, his seat in it and
    # its table's live link, so that he enters hands without scanning the sheet.
    now: PlayerRound | None = None
    table_link: TableLink | None = None
    rank: int | None = None
    field_size: int = 0
    planned_rounds: int = 0
    # Whether the event ranks by table points (then each round shows them beside the score).
    uses_points: bool = False


def player_day(registration: Registration) -> PlayerDay:
    """What the player's personal page shows, read in a fixed number of queries."""
    event = registration.event
    seats = list(Seat.objects.filter(registration=registration)
                 .filter(lifecycle.published_rounds_q("round__"))
                 .select_related("round", "table__scorecard").order_by("round__number"))
    table = standings.event_standings(event)
    row = next((r for r in table.rows if r.registration.pk == registration.pk), None)
    day = PlayerDay(registration=registration, planned_rounds=event.planned_rounds,
                    uses_points=table.uses_points,
                    rank=row.rank if row is not None and row.rounds_played else None,
                    field_size=len(table.rows))
    for seat in seats:
        result = row.per_round.get(seat.round.number) if row is not None else None
        day.rounds.append(PlayerRound(
            round=seat.round, table=seat.table,
            position=seat.position + 1,  # stored from 0, printed from 1
            counted=result is not None, points=result[0] if result else None,
            score=result[1] if result else None))
    playing = [r for r in day.rounds if lifecycle.is_playable(r.round)]
    if playing:
        day.now = playing[-1]
        day.table_link = live_table_link(day.now.table)
    return day


def later_table_of(registration: Registration, after: Round) -> tuple[Table, TableLink | None] | None:
    """The player's table in a published round after `after` that is being played now, with
    its live link: where a table link of a finished round sends the phone that played it."""
    seat = (Seat.objects.filter(registration=registration, round__number__gt=after.number,
                                round__status__in=sorted(lifecycle.PLAYABLE_ROUNDS))
            .select_related("table__round").order_by("-round__number").first())
    if seat is None:
        return None
    return seat.table, live_table_link(seat.table)


def live_table_link(table: Table) -> TableLink | None:
    return TableLink.objects.filter(table=table, revoked_at__isnull=True).first()


# ---------------------------------------------------------------------------------------
# Online entry (issue #31)
# ---------------------------------------------------------------------------------------

@dataclass
class EntryBoard:
    """The public entry list: who holds a place (name, club, start number), the waiting list
    in its order, how many entries wait for the organiser, and the places left."""

    placed: list[Registration]
    waiting: list[Entry]
    pending: int
    cap: int | None

    @property
    def free(self) -> int | None:
        return None if self.cap is None else max(self.cap - len(self.placed), 0)


def entry_board(event: Event) -> EntryBoard:
    placed = [reg for reg in registrations_of(event) if lifecycle.taking_places(reg.status)]
    waiting = list(event.entries.filter(status=Entry.Status.WAITING).order_by("counted_at", "pk"))
    pending = event.entries.filter(status=Entry.Status.PENDING).count()
    return EntryBoard(placed=placed, waiting=waiting, pending=pending, cap=event.entry_cap)


def waiting_place(entry: Entry) -> int | None:
    """The entry's place on its event's waiting list (1 is next), or None when it is not on it."""
    if entry.status != Entry.Status.WAITING:
        return None
    return entry.event.entries.filter(status=Entry.Status.WAITING).filter(
        Q(counted_at__lt=entry.counted_at) | Q(counted_at=entry.counted_at, pk__lt=entry.pk)
    ).count() + 1


@dataclass
class EntryDecision:
    """A pending entry as the organiser decides on it: the registry's players it may be
    (those he may see, and the one the registry matched), each with whether he is entered
    already."""

    entry: Entry
    candidates: list[tuple[Player, bool]]


def entries_to_decide(event: Event, actor: Any) -> list[EntryDecision]:
    registered = set(event.registrations.values_list("player_id", flat=True))
    decisions = []
    for entry in (event.entries.filter(status=Entry.Status.PENDING).select_related("player")
                  .order_by("counted_at", "pk")):
        found = list(same_players(entry.first_name, entry.last_name, entry.club))
        if entry.federation_id:
            # The id's owner, when the names differ: the organiser sees whom it names.
            found[:0] = Player.objects.filter(federation_id=entry.federation_id).exclude(
                pk__in=[p.pk for p in found])
        if entry.player is not None and entry.player not in found:
            found.insert(0, entry.player)
        visible = set(players_visible_to(actor).filter(pk__in=[p.pk for p in found])
                      .values_list("pk", flat=True))
        candidates = [(p, p.pk in registered) for p in found
                      if p.pk in visible or p == entry.player]
        decisions.append(EntryDecision(entry=entry, candidates=candidates))
    return decisions


# ---------------------------------------------------------------------------------------
# Referee calls and notices to the hall (issue #33)
# ---------------------------------------------------------------------------------------

def open_calls_of(event: Event):
    """The desk's queue: calls not yet resolved, the longest waiting first."""
    return (RefereeCall.objects.filter(event=event, resolved_at__isnull=True)
            .select_related("table__round", "taken_by").order_by("created_at", "pk"))


def resolved_calls_of(event: Event, limit: int = 10) -> list[RefereeCall]:
    return list(RefereeCall.objects.filter(event=event, resolved_at__isnull=False)
                .select_related("table__round", "taken_by", "resolved_by",
                                "penalty__registration__player", "penalty__table__round",
                                "dispute", "correction")
                .order_by("-resolved_at", "-pk")[:limit])


def open_call_of_table(table: Table) -> RefereeCall | None:
    return (RefereeCall.objects.filter(table=table, resolved_at__isnull=True)
            .select_related("taken_by").first())


def hall_notices_of(event: Event, limit: int = 5) -> list[Announcement]:
    """The notices the projector and the table links show: those not withdrawn, newest first."""
    return list(Announcement.objects.filter(event=event, withdrawn_at__isnull=True)[:limit])


def call_outcomes(call: RefereeCall) -> tuple[list[Penalty], list[Dispute], list[AuditEntry]]:
    """What may have come of a call: its table's penalties, disputes and other changes since
    the call was made."""
    since = call.created_at
    penalties = list(call.table.penalties.filter(created_at__gte=since)
                     .select_related("registration__player"))
    disputes = list(call.table.disputes.filter(raised_at__gte=since))
    changes = list(audit_of_table(call.table).filter(created_at__gte=since).exclude(
        action__in=["penalty.record", "dispute.open", "dispute.decide"]).exclude(
        action__startswith="referee_call.")[:30])
    return penalties, disputes, changes
