"""The lifecycle of a round and of a table's scorecard: which states exist, which moves between
them are allowed, which states count in the standings and which a table may still write.

A round goes draft → published → playing → closed (publishing without starting the clock and
closing straight from published are allowed); an organiser may take a published round back to
a draft before its tables write, and open a closed round again before the next is published. A draft is the officials' working copy: nobody
else sees it, and no card of it is written. A scorecard goes open → submitted → confirmed →
verified, and from any state but annulled to annulled. A table writes its own card while the
round is on and the card is open or submitted; after that a change is an official's correction,
with a reason. Every other module asks here instead of listing states of its own.

Three rules of the event live here too: who is seated in a round (the event's seating pool
against a registration's status), when entries close, and how the event's status follows its
rounds; and when an event takes entries online and its waiting list moves.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.domain.rulesets import is_money_ruleset
from tournaments.models import (
    Dispute,
    Event,
    Hand,
    MoneySheetRow,
    Registration,
    Round,
    Scorecard,
    Seat,
    VenueHold,
)

R = Round.Status
C = Scorecard.Status

ROUND_MOVES: dict[str, frozenset[str]] = {
    # Back to a draft: unpublished before any table wrote (`unpublish_refusal`).
    R.DRAFT: frozenset({R.PUBLISHED}),
    R.PUBLISHED: frozenset({R.PLAYING, R.CLOSED, R.DRAFT}),
    R.PLAYING: frozenset({R.CLOSED, R.DRAFT}),
    # Reopened while no later round is published (`reopen_refusal`).
    R.CLOSED: frozenset({R.PUBLISHED, R.PLAYING}),
}

CARD_MOVES: dict[str, frozenset[str]] = {
    C.OPEN: frozenset({C.SUBMITTED, C.ANNULLED}),
    # A change of a submitted card by its table sends it back to open.
    C.SUBMITTED: frozenset({C.OPEN, C.CONFIRMED, C.ANNULLED}),
    C.CONFIRMED: frozenset({C.VERIFIED, C.ANNULLED}),
    C.VERIFIED: frozenset({C.ANNULLED}),
    C.ANNULLED: frozenset(),
}

# Rounds whose tables are playing: their cards are the tables' to write.
PLAYABLE_ROUNDS = frozenset({R.PUBLISHED, R.PLAYING})
# Cards a table still writes; later states are corrected by officials only.
TABLE_WRITABLE_CARDS = frozenset({C.OPEN, C.SUBMITTED})
# Cards whose result counts in the standings (in rounds that are not drafts).
COUNTED_CARDS = frozenset({C.CONFIRMED, C.VERIFIED})
# Cards still waiting for their table.
PENDING_CARDS = frozenset({C.OPEN, C.SUBMITTED})
# Cards a round may close with.
FINISHED_CARDS = frozenset({C.CONFIRMED, C.VERIFIED, C.ANNULLED})
# Cards whose change by an official is a correction and needs a written reason.
CORRECTED_CARDS = frozenset({C.CONFIRMED, C.VERIFIED})


def seating_refusal(event: Event, number: int) -> tuple[str, str] | None:
    """Why round `number` (the next one) may not be seated now, as (code, message), or None:
    the round before it must be closed, and the event must plan that many rounds."""
    if number > 1:
        last = event.rounds.filter(number=number - 1).first()
        if last is not None and last.status != R.CLOSED:
            return "previous_round_open", _("close round %(previous)s before seating round %(number)s") % {
                "previous": number - 1, "number": number}
    if number > event.planned_rounds:
        return "all_rounds_seated", ngettext("the event plans %(n)s round", "the event plans %(n)s rounds",
                                             event.planned_rounds) % {"n": event.planned_rounds}
    return None


def reopen_refusal(rnd: Round) -> str | None:
    """Why the closed round `rnd` may not be opened again, or None: only a closed round, and
    only while no later round is published (its seating came from the standings this round
    closed with; a later draft is discarded with the reopening)."""
    if rnd.status != R.CLOSED:
        return _("round %(n)s is not closed") % {"n": rnd.number}
    later = rnd.event.rounds.filter(number__gt=rnd.number).exclude(status=R.DRAFT).order_by("number").first()
    if later is not None:
        return _("round %(later)s is published: round %(n)s can no longer be opened again") % {
            "later": later.number, "n": rnd.number}
    return None


def unpublish_refusal(rnd: Round) -> str | None:
    """Why the round `rnd` may not go back to a draft, or None: only a published round whose
    tables have written nothing yet (no hand, no money sheet, no card handed in, no dispute);
    a lone player's table, filled when it was seated, does not count."""
    if rnd.status not in PLAYABLE_ROUNDS:
        return _("round %(n)s is not published") % {"n": rnd.number}
    played = {table for table, seats in _seat_counts(rnd).items() if seats > 1}
    if (Hand.objects.filter(scorecard__table__in=played).exists()
            or MoneySheetRow.objects.filter(scorecard__table__in=played).exists()
            or Scorecard.objects.filter(table__in=played).exclude(status=C.OPEN).exists()
            or Dispute.objects.filter(table__round=rnd).exists()):
        return _("the tables of round %(n)s have started writing their cards: it can no longer "
                 "be unpublished") % {"n": rnd.number}
    return None


def _seat_counts(rnd: Round) -> dict[int, int]:
    counts: dict[int, int] = {}
    for table_id in Seat.objects.filter(table__round=rnd).values_list("table_id", flat=True):
        counts[table_id] = counts.get(table_id, 0) + 1
    return counts


def round_may_move(current: str, target: str) -> bool:
    return target in ROUND_MOVES.get(current, frozenset())


def card_may_move(current: str, target: str) -> bool:
    return target in CARD_MOVES.get(current, frozenset())


def is_draft(rnd: Round) -> bool:
    return rnd.status == R.DRAFT


def is_playable(rnd: Round) -> bool:
    return rnd.status in PLAYABLE_ROUNDS


def is_pending(card: Scorecard) -> bool:
    return card.status in PENDING_CARDS


def is_finished(card: Scorecard) -> bool:
    return card.status in FINISHED_CARDS


def needs_second_look(card: Scorecard) -> bool:
    """A confirmed card that no second phone saw: confirmed on the phone that submitted it
    (an event of one phone per table). The officials check it first."""
    return card.status == C.CONFIRMED and card.confirmed_on_submitting_phone


def hand_count_off(card: Scorecard, event: Event | None = None) -> tuple[int, int] | None:
    """(hands on the card, hands the event plays) when a card of hands has fewer or more hands
    than its event plays, else None. Seed 000 §3: "Igra se 24 iger", §4.2: "Ena tekma zajema
    24 iger"; an event sets its own number (`hands_per_round`). Such a card is confirmed by an
    official only, with a written reason (`tournaments.domain.rights`). A money sheet (GP Vysočiny:
    the round is timed, not counted in hands) has no hands and is never off; a lone player's
    table plays none and is confirmed as it is made."""
    event = event or card.table.round.event
    if is_money_ruleset(card.ruleset_code) or len(card.player_ids) < 2:
        return None
    entered = card.hands.count()
    planned = event.hands_per_round
    return None if entered == planned else (entered, planned)


def counts(card: Scorecard, rnd: Round | None = None) -> bool:
    """Whether the card's result is in the standings."""
    rnd = rnd or card.table.round
    return card.status in COUNTED_CARDS and not is_draft(rnd)


def is_correction(card: Scorecard) -> bool:
    """Whether a change of the card's result is an official's correction of what the table
    handed in (the card counts, or was annulled): its players may be told of it."""
    return counts(card) or card.status == C.ANNULLED


def counted_cards_q(prefix: str = "") -> Q:
    """The `counts` rule as a filter on Scorecard (or on a relation to it, with `prefix` such as
    "table__scorecard__")."""
    return (Q(**{f"{prefix}status__in": sorted(COUNTED_CARDS)})
            & ~Q(**{f"{prefix}table__round__status": R.DRAFT}))


def published_rounds_q(prefix: str = "") -> Q:
    """Rounds everybody may see (with `prefix` such as "round__" for a relation)."""
    return ~Q(**{f"{prefix}status": R.DRAFT})


# ---------------------------------------------------------------------------------------
# Who is seated, and the event's status
# ---------------------------------------------------------------------------------------

REG = Registration.Status


class SitsOut:
    """Why a registration is not seated in the next round (a code for pages to word)."""

    WITHDRAWN = "withdrawn"
    NOT_CHECKED_IN = "not_checked_in"
    ABSENT = "absent"


def sits_out_reason(event: Event, status: str, *, absent: bool = False) -> str | None:
    """None when a registration of this status is seated in the event's next round.

    A withdrawn player never sits. A player marked absent for the round (`absent`, from
    `is_absent`) misses it and stays in the event: the round after seats him after those who
    played (seed 000 §4.1 b, done by the seating engine from the history). With the pool
    "checked in", a registration that has not checked in sits out; a late entry always joins
    the field (it adds to it, never replaces it).
    """
    if status == REG.WITHDRAWN:
        return SitsOut.WITHDRAWN
    if absent:
        return SitsOut.ABSENT
    if event.seating_pool == Event.SeatingPool.CHECKED_IN and status == REG.REGISTERED:
        return SitsOut.NOT_CHECKED_IN
    return None


def is_absent(registration: Registration, number: int) -> bool:
    """Whether the player is marked absent for round `number`."""
    return number in (registration.absent_rounds or [])


def absence_refusal(event: Event, registration: Registration, number: int,
                    next_number: int) -> tuple[str, str] | None:
    """None when the player may be marked absent for (or back in) round `number`, else
    (field, code): only a round not seated yet and planned, of a points, random or other
    system that seats a changing field; a knock-out player who misses a round is out
    (withdraw him), and a withdrawn player is seated in no round."""
    if event.seating_system == "knockout":
        return "event", "absent_in_knockout"
    if registration.status == REG.WITHDRAWN:
        return "registration", "withdrawn"
    if not next_number <= number <= event.planned_rounds:
        return "round", "round_not_ahead"
    return None


def entries_closed(event: Event) -> bool:
    """True when the event takes no more entries: a knock-out once its draw is made (a round
    is stored). Seed 000 §4.1: "Vsi igralci se morajo prijaviti do žreba turnirja ... Po
    opravljenem žrebu prijava ni več možna." The points system of §4.1 b is meant for late
    arrivals ("eni pridejo naknadno") and seats them, so it stays open, as do the other
    systems."""
    return event.seating_system == "knockout" and event.rounds.exists()


def status_after_publish(event: Event) -> str | None:
    """The event's status once one of its rounds is published: it is running. None when it
    stays as it is (already running or finished, which an organiser may have set by hand)."""
    if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        return Event.Status.RUNNING
    return None


def status_after_close(event: Event, closed_rounds: int, open_rounds: int) -> str | None:
    """The event's status once a round is closed: finished when the planned rounds are all
    closed and nothing else is under way; None when it stays as it is."""
    if event.status != Event.Status.FINISHED and open_rounds == 0 \
            and closed_rounds >= event.planned_rounds:
        return Event.Status.FINISHED
    return None


# ---------------------------------------------------------------------------------------
# Online entry (issue #31, docs/entries.md)
# ---------------------------------------------------------------------------------------

def online_entry_refusal(event: Event, now: Any) -> tuple[str, str] | None:
    """Why the event takes no entry online at `now`, as (code, message), or None when it does:
    the organiser opened entries, the event is not finished, no round is drawn yet (the
    draw closes the list: later arrivals are the desk's late entries), and the deadline, if
    any, has not passed."""
    if not event.online_entry:
        return "entries_not_online", _("This event takes no entries online.")
    if event.status == Event.Status.FINISHED:
        return "event_finished", _("The event is finished.")
    if event.rounds.exists():
        return "entries_closed", _("Entries are closed: the first round is drawn. Ask the "
                                   "organiser at the venue.")
    if event.entry_deadline is not None and now >= event.entry_deadline:
        return "deadline_passed", _("Entries closed at the deadline.")
    return None


def waiting_list_moves(event: Event) -> bool:
    """Whether a place that becomes free goes to the first of the waiting list by itself:
    until the first round is drawn. After the draw a free place stays free (the organiser
    seats a late entry himself)."""
    return event.status != Event.Status.FINISHED and not event.rounds.exists()


def taking_places(status: str) -> bool:
    """Whether a registration of this status holds one of the event's places."""
    return status != Registration.Status.WITHDRAWN


# ---------------------------------------------------------------------------------------
# At a venue (issue #32, docs/venue.md)
# ---------------------------------------------------------------------------------------

def lent_hold(event_id: int) -> VenueHold | None:
    """The hold of an event this installation lent to a venue's laptop, or None."""
    return VenueHold.objects.filter(event_id=event_id, side=VenueHold.Side.LENT).first()


def hold_of(event_id: int) -> VenueHold | None:
    """The event's venue hold on this installation, if any (one query)."""
    return VenueHold.objects.filter(event_id=event_id).only(
        "side", "revoked_at", "event_id").first()


def venue_refusal(event_id: int, hold: VenueHold | None | bool = False) -> str | None:
    """Why nobody writes to the event on this installation, or None: it is lent to a venue's
    laptop (its results are written there and reach this server by the laptop's pushes), or
    this laptop held it and it went back to the server. `hold`: the event's hold when the
    caller read it already (None: it has none)."""
    if hold is False:
        hold = hold_of(event_id)
    if hold is None:
        return None
    if hold.side == VenueHold.Side.LENT:
        return _("This event is run at the venue, on the laptop that took it: write there. This "
                 "server shows the event as the laptop sends it; its staff can take it back if "
                 "the laptop is lost.")
    if hold.revoked_at is not None:
        return _("This event went back to the federation's server: write there. This laptop "
                 "keeps a copy.")
    return None


def deletable_here(hold: VenueHold | None) -> bool:
    """Whether an event with this hold (None: it has none) may be deleted on this installation
    (the site's superuser, in the admin, before its archive is imported again): not while it
    is run at a venue, neither on the server that lent it (the laptop's pushes would find
    nothing) nor on the laptop that writes it (the server would wait for its pushes)."""
    lent = hold is not None and hold.side == VenueHold.Side.LENT
    return not lent and not pushes_to_server(hold)


def pushes_to_server(hold: VenueHold | None) -> bool:
    """Whether the event of this hold is written here and sent to a server (a venue's laptop
    that took it and has not given it back)."""
    return hold is not None and hold.side == VenueHold.Side.HELD and hold.revoked_at is None
