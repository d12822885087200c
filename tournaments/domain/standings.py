"""Standings of an event, computed from its confirmed scorecards.

What counts depends on the format: the points system (seed 000 §4.1 b) ranks by tournament
points (4/3/2/1 per table, less 1/3 per missing seat) and then by score; the knock-out (seed
000 §4.1 a) ranks by the round a player went out in, the final table first ("Za vsako mizo
izpadeta dva igralca ... Ko ostanejo le štirje igralci, je finalna igra"), then by his placing
at that table and that round's score; every other system ranks by the game score (the Schrift in Königrufen, the money result in haléř in money
rulesets). Only confirmed or verified scorecards of published rounds count
(`tournaments.domain.lifecycle`); open and submitted ones are listed as
pending, annulled ones count nothing. Standings adjustments of referees are added last.

Three queries whatever the size of the field, so the public page stays fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import NamedTuple

from django.db.models import QuerySet

from tournaments.domain import lifecycle, limits
from tournaments.domain.rulesets import is_money_ruleset
from tournaments.models import Event, Registration, Scorecard, StandingsAdjustment
from tournaments.seating.points import DEFAULT_MISSING_SEAT_DEDUCTION, table_points


def to_decimal(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal("0.001"), rounding=ROUND_HALF_UP)


# Option table_ties of the points system (seed 000 is silent on equal scores at a table):
# "share" gives the tied players the mean of the tied places' points (the usual practice, the
# default); "start_number" gives the higher place to the lower start number.
TIES_SHARE = "share"
TIES_START_NUMBER = "start_number"
TABLE_TIES = (TIES_SHARE, TIES_START_NUMBER)
DEFAULT_TABLE_TIES = TIES_SHARE


class CardResult(NamedTuple):
    """The two fields of a scorecard that its placing reads, for callers that read them as
    plain values (a Scorecard serves as well)."""
    player_ids: list[str]
    totals: dict


def table_placing(card: Scorecard | CardResult) -> list[str]:
    """A table's players first to last by their scorecard totals. The seeds say nothing of
    equal totals at a table: the lower start number is listed first (docs/seating.md); in the
    points system the option table_ties then shares the tied places' points (table_result)."""
    return [p for p, _total in placed_totals(card.player_ids, card.totals or {})]


def placed_totals(player_ids: Iterable[str], totals: dict) -> list[tuple[str, int]]:
    """The placing of `table_placing` with each player's total as a whole number (a missing
    total is 0): (start number, total), first to last. Sorted by the key itself, not by a
    key function: the rating rebuild places a hundred thousand cards."""
    placed = sorted((-int(totals.get(p, 0)), limits.whole_number(p, default=0), p)
                    for p in player_ids)
    return [(p, -negative) for negative, _number, p in placed]


def table_result(card: Scorecard | CardResult, table_size: int, options: dict | None = None
                 ) -> dict[str, tuple[Fraction, int]]:
    """{start number: (table points, score)} of one counted scorecard. `options` are the
    points system's seating options (tournaments.domain.seating_options): how a missing seat reduces
    the points, and the organiser's extra-points formula for the score difference."""
    placing = table_placing(card)
    options = options or {}
    totals = {pid: int((card.totals or {}).get(pid, 0)) for pid in placing}
    points = table_points(
        placing, table_size=table_size, extra=options.get("extra"),
        scores=totals if options.get("extra") else None,
        missing_seat_deduction=options.get("missing_seat_deduction",
                                           DEFAULT_MISSING_SEAT_DEDUCTION))
    if options.get("table_ties", DEFAULT_TABLE_TIES) == TIES_SHARE:
        for group in tied_groups(placing, totals):
            shared = sum(points[p] for p in group) / len(group)
            for p in group:
                points[p] = shared
    return {pid: (points[pid], totals[pid]) for pid in placing}


def tied_groups(placing: list[str], totals: dict[str, int]) -> list[list[str]]:
    """Runs of two or more players of `placing` with the same table score."""
    groups: list[list[str]] = []
    for pid in placing:
        if groups and totals[groups[-1][0]] == totals[pid]:
            groups[-1].append(pid)
        else:
            groups.append([pid])
    return [g for g in groups if len(g) > 1]


def tied_place(placing: list[str], totals: dict[str, int], pid: str, options: dict) -> int:
    """A player's place at his table, 0 = first; with shared ties, the first of the tied
    places (two tied for second are both second)."""
    index = placing.index(pid)
    if options.get("table_ties", DEFAULT_TABLE_TIES) != TIES_SHARE:
        return index
    while index and totals[placing[index - 1]] == totals[pid]:
        index -= 1
    return index


@dataclass
class Row:
    """One player's line. Table points are summed and compared as exact fractions (thirds
    stay thirds: 5/3 + 5/3 + 11/3 is 7, not 7.001); `points` and `per_round` give them as
    decimals rounded to three places for display and for the API's `points` field."""
    rank: int
    registration: Registration
    exact_points: Fraction = Fraction(0)
    score: int = 0
    rounds_played: int = 0
    exact_per_round: dict[int, tuple[Fraction, int]] = field(default_factory=dict)
    # The player's place at his table in each round, 0 = first (the knock-out ranks by it).
    places: dict[int, int] = field(default_factory=dict)
    # The table number in each round (the points system's final round ranks by it).
    tables: dict[int, int] = field(default_factory=dict)
    adjusted: bool = False

    @property
    def points(self) -> Decimal:
        return to_decimal(self.exact_points)

    @property
    def per_round(self) -> dict[int, tuple[Decimal, int]]:
        return {n: (to_decimal(p), s) for n, (p, s) in self.exact_per_round.items()}

    @property
    def start_number(self) -> int:
        return self.registration.start_number

    @property
    def player(self):
        return self.registration.player


def knockout_key(row: Row) -> tuple:
    """A knock-out's order (seed 000 §4.1 a): who went out later ranks higher, so the final
    table comes first by its placing, then those who went out in the round before it, and so
    on down to the pre-competition's losers. Among those who went out in one round (the
    seed does not say): the placing at their table (all thirds before all fourths), then that
    round's score, then the total score (docs/seating.md, "Final order")."""
    last = max(row.places, default=0)
    if not last:
        return (0, 0, 0, -row.score)
    return (-last, row.places[last], -row.exact_per_round[last][1], -row.score)


# How an event's order is decided (Standings.order): shown on its standings page.
ORDER_KNOCKOUT = "knockout"          # who went out when (seed 000 §4.1 a)
ORDER_FINAL_ROUND = "last_round"     # the last round's tables in order (seed 000 §4.1 b)
ORDER_TOTAL_POINTS = "total_points"  # total table points, then score
ORDER_SCORE = "score"                # the game score (every other system)
FINAL_ORDERS = (ORDER_FINAL_ROUND, ORDER_TOTAL_POINTS)
DEFAULT_FINAL_ORDER = ORDER_FINAL_ROUND


def final_round_key(row: Row, last: int) -> tuple:
    """Seed 000 §4.1 b, "Zadnji krog predstavlja finalni krog in končno razvrstitev": once the
    event's last round has results, its tables decide the order, table 1's placing giving
    places 1-4, table 2's the next, and so on; who did not play it follows by total points
    and score."""
    if last in row.places:
        return (0, row.tables[last], row.places[last], 0, 0)
    return (1, 0, 0, -row.exact_points, -row.score)


@dataclass
class Standings:
    event: Event
    uses_points: bool
    unit: str
    rows: list[Row]
    pending_tables: list[tuple[int, int]]  # (round, table) not yet confirmed
    after_round: int | None
    # How the order was decided: one of the ORDER_* codes above.
    order: str = ORDER_SCORE
    # The points system's chosen final order (its option), even while the order is still
    # by total points because the last round has no results yet.
    final_order: str | None = None
    # Every registration of the event in start-number order, withdrawn ones too, as read for
    # the rows (the event page lists them without reading them again).
    registrations: list[Registration] = field(default_factory=list)


def _plain(value: Fraction) -> int | Fraction:
    """A whole number of table points as an int (int arithmetic is many times faster), a
    third as it is; both compare and add exactly with each other."""
    return value.numerator if value.denominator == 1 else value


def has_row(rounds_played: int, status: str) -> bool:
    """Whether a registration has a line in the standings: everybody but a withdrawn player
    with no counted card."""
    return bool(rounds_played) or status != Registration.Status.WITHDRAWN


# The event's fields the standings count the cards by: the system (table points or the
# score), its options (`_points_options`: ties at a table, a missing seat, extra points) and
# the size of a full table (`table_result`). A change of any moves the carried totals
# (services.event_update).
COUNTED_BY = frozenset({"seating_system", "seating_options", "table_size"})


def uses_table_points(event: Event) -> bool:
    return event.seating_system == "points"


def _points_options(event: Event) -> dict:
    return event.seating_options if uses_table_points(event) and isinstance(
        event.seating_options, dict) else {}


def _card_values(event: Event, up_to_round: int | None, start_numbers: Iterable[int] | None = None,
                 *, only_round: bool = False):
    """The event's cards of published rounds as plain values (round, table, state, players,
    totals), in play order; only the cards of the given players when `start_numbers` is set,
    only round `up_to_round`'s when `only_round`. Plain values, not models: at 1,024 players
    building a card, a table and a round per table was a third of the standings' time."""
    # Draft rounds are the officials' working copy: nothing of theirs is in the standings.
    cards = (Scorecard.objects.filter(table__round__event=event)
             .filter(lifecycle.published_rounds_q("table__round__")))
    if only_round:
        cards = cards.filter(table__round__number=up_to_round)
    elif up_to_round is not None:
        cards = cards.filter(table__round__number__lte=up_to_round)
    if start_numbers is not None:
        cards = cards.filter(pk__in=Scorecard.objects.filter(
            table__seats__registration__event=event,
            table__seats__registration__start_number__in=list(start_numbers)).values("pk"))
    return (cards.order_by("table__round__number", "table__number")
            .values_list("table__round__number", "table__number", "status", "player_ids", "totals"))


def _counted_results(event: Event, card_values: Iterable[tuple], options: dict,
                     pending: list[tuple[int, int]]) -> Iterator[tuple[int, int, str, Fraction, int, int]]:
    """(round, table, start number, table points, score, place at the table) of every player
    of every counted card; the (round, table) of a card still open or handed in goes to
    `pending`."""
    for rnd, table_number, status, player_ids, totals in card_values:
        if status in lifecycle.PENDING_CARDS:
            pending.append((rnd, table_number))
            continue
        # Draft rounds are left out by _card_values, so a card counts by its state alone.
        if status not in lifecycle.COUNTED_CARDS:
            continue
        result = table_result(CardResult(player_ids=list(player_ids or []), totals=totals or {}),
                              event.table_size, options)
        placing = list(result)
        scores = {pid: score for pid, (_points, score) in result.items()}
        for pid, (points, score) in result.items():
            place = (tied_place(placing, scores, pid, options) if uses_table_points(event)
                     else placing.index(pid))
            yield rnd, table_number, pid, points, score, place


def carried_totals(event: Event, *, up_to_round: int | None,
                   start_numbers: Iterable[int]) -> dict[int, tuple[Fraction, int]]:
    """The total table points and score the standings' rows up to a round give each of the
    named players (their counted cards and the referees' adjustments; nothing for a withdrawn
    player with no counted card, who has no row, and nothing for anybody with no round
    closed, `up_to_round` None), read for those players alone: a correction at one table of a
    1,024-player event reads four players' cards."""
    numbers = {int(n) for n in start_numbers}
    totals = {n: (Fraction(0), 0) for n in numbers}
    if up_to_round is None:
        # Nothing is carried before the first round closes, a referee's adjustment neither:
        # as the refresh of everyone and an archive's check read it (docs/archive-format.md).
        return totals
    played: set[int] = set()
    for _rnd, _table, pid, points, score, _place in _counted_results(
            event, _card_values(event, up_to_round, numbers), _points_options(event), []):
        start = limits.whole_number(pid)
        # As `_standings` reads the cards: a player id is his start number as written ("2",
        # not "02"), so the refresh of a few players agrees with the refresh of all.
        if start in totals and pid == str(start):
            old = totals[start]
            totals[start] = (old[0] + points, old[1] + score)
            played.add(start)
    for number, delta, score in (StandingsAdjustment.objects
                                 .filter(event=event, registration__start_number__in=numbers)
                                 .values_list("registration__start_number", "points_delta", "score_delta")):
        old = totals[number]
        totals[number] = (old[0] + Fraction(delta), old[1] + score)
    statuses = dict(event.registrations.filter(start_number__in=numbers - played)
                    .values_list("start_number", "status")) if numbers - played else {}
    return {n: t if has_row(int(n in played), statuses.get(n, "")) else (Fraction(0), 0)
            for n, t in totals.items()}


def round_totals(event: Event, number: int) -> dict[str, tuple[Fraction, int]]:
    """{player id: (table points, score)} of every player of a counted card of round
    `number`: what that round adds to his line of the standings, read from that round's cards
    alone (closing a round adds it to the carried totals). Keyed and summed as `_standings`
    adds the cards to the rows: by the player id as the card writes it, a player's cards
    added up."""
    totals: dict[str, tuple[Fraction, int]] = {}
    for _rnd, _table, pid, points, score, _place in _counted_results(
            event, _card_values(event, number, only_round=True), _points_options(event), []):
        old_points, old_score = totals.get(pid, (0, 0))
        totals[pid] = (old_points + points, old_score + score)
    return totals


# Times and search keys are never shown with the standings; leaving them out saves a quarter
# of the reading at 1,024 players.
_NOT_SHOWN = ("registered_at", "checked_in_at", "absent_rounds", "tournament_points",
              "player__search_name", "player__search_club", "player__created_at",
              "player__updated_at")


def _registrations() -> QuerySet[Registration]:
    return (Registration.objects.select_related("player").order_by("start_number")
            .defer(*_NOT_SHOWN))


def event_standings(event: Event, *, up_to_round: int | None = None,
                    with_players: bool = True) -> Standings:
    """The event's standings (up to a round): three queries whatever the size of the field.
    `with_players=False` reads the registrations without their players (closing a round needs
    the totals alone: a third of its time at 1,024 players went to making player objects)."""
    regs = list((_registrations() if with_players else _bare_registrations()).filter(event=event))
    adjustments = list(StandingsAdjustment.objects.filter(event=event).values_list(
        "registration__start_number", "points_delta", "score_delta"))
    return _standings(event, regs, _card_values(event, up_to_round), adjustments)


def _bare_registrations() -> QuerySet[Registration]:
    return Registration.objects.order_by("start_number").only(
        "id", "event_id", "player_id", "start_number", "status")


def events_standings(events: Iterable[Event], *, with_players: bool = True) -> dict[int, Standings]:
    """The standings of several events by event id, in three queries whatever their number
    (a points list over a year of events computes them together). `with_players=False` reads
    the registrations without their players, for a caller that needs the players' ids and
    ranks alone (a row's `player` is then read on demand, one query each)."""
    events = list(events)
    ids = [e.pk for e in events]
    registrations = _registrations() if with_players else _bare_registrations()
    regs: dict[int, list[Registration]] = {pk: [] for pk in ids}
    for reg in registrations.filter(event_id__in=ids):
        regs[reg.event_id].append(reg)
    cards: dict[int, list[tuple]] = {pk: [] for pk in ids}
    for event_id, *values in (
            Scorecard.objects.filter(table__round__event_id__in=ids)
            .filter(lifecycle.published_rounds_q("table__round__"))
            .order_by("table__round__event_id", "table__round__number", "table__number")
            .values_list("table__round__event_id", "table__round__number", "table__number",
                         "status", "player_ids", "totals")):
        cards[event_id].append(tuple(values))
    adjustments: dict[int, list[tuple]] = {pk: [] for pk in ids}
    for event_id, *values in StandingsAdjustment.objects.filter(event_id__in=ids).values_list(
            "event_id", "registration__start_number", "points_delta", "score_delta"):
        adjustments[event_id].append(tuple(values))
    return {e.pk: _standings(e, regs[e.pk], cards[e.pk], adjustments[e.pk]) for e in events}


def _standings(event: Event, regs: list[Registration], card_values: Iterable[tuple],
               adjustments: Iterable[tuple]) -> Standings:
    """The standings from what was read: the registrations in start-number order, the cards
    as `_card_values` gives them and the adjustments as (start number, points, score)."""
    by_number = {str(r.start_number): Row(rank=0, registration=r) for r in regs}
    pending: list[tuple[int, int]] = []
    last_round = None
    options = _points_options(event)
    # Whole table points are added as ints and only thirds as fractions: Fraction arithmetic
    # was most of the standings' time at 1,024 players. Every row still gets an exact Fraction.
    sums: dict[str, int | Fraction] = {}
    for rnd, table_number, pid, points, score, place in _counted_results(
            event, card_values, options, pending):
        last_round = max(last_round or 0, rnd)
        row = by_number.get(pid)
        if row is None:
            continue
        sums[pid] = sums.get(pid, 0) + _plain(points)
        row.score += score
        row.rounds_played += 1
        row.exact_per_round[rnd] = (points, score)
        row.places[rnd] = place
        row.tables[rnd] = table_number
    for pid, total in sums.items():
        by_number[pid].exact_points = Fraction(total)
    for start_number, points_delta, score_delta in adjustments:
        row = by_number[str(start_number)]
        row.exact_points += Fraction(points_delta)
        row.score += score_delta
        row.adjusted = True
    points_first = uses_table_points(event)
    rows = [r for r in by_number.values()
            if has_row(r.rounds_played, r.registration.status)]

    knockout = event.seating_system == "knockout"
    final_order = options.get("final_order", DEFAULT_FINAL_ORDER) if points_first else None
    by_final_round = (final_order == ORDER_FINAL_ROUND and last_round is not None
                      and last_round >= event.planned_rounds)
    order = (ORDER_KNOCKOUT if knockout else ORDER_FINAL_ROUND if by_final_round
             else ORDER_TOTAL_POINTS if points_first else ORDER_SCORE)

    def key(r: Row):
        if knockout:
            return knockout_key(r) + (r.start_number,)
        if by_final_round:
            return final_round_key(r, last_round) + (r.start_number,)
        return ((-_plain(r.exact_points), -r.score, r.start_number) if points_first
                else (-r.score, r.start_number))

    # Each row's key once, for the order and again for the shared ranks of equal keys.
    keyed = sorted(((key(r), r) for r in rows), key=lambda pair: pair[0])
    rows = [r for _key, r in keyed]
    previous = None
    for i, (row_key, row) in enumerate(keyed, start=1):
        tie_key = row_key[:-1]
        row.rank = previous[1] if previous and previous[0] == tie_key else i
        previous = (tie_key, row.rank)
    return Standings(event=event, uses_points=points_first,
                     unit="haler" if is_money_ruleset(event.ruleset_code) else "points",
                     rows=rows, pending_tables=pending, after_round=last_round,
                     order=order, final_order=final_order, registrations=regs)
