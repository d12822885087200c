"""Reads for the printouts: what goes on each table sheet, the seating list, the standings and
a filled scorecard, shaped for the templates in `templates/pdf/`.

Each reader runs a fixed number of queries whatever the number of tables (the joins are done
up front), so rendering the 64 sheets of a big round does not turn into hundreds of queries.
Nothing here writes.

Why one module of some 600 lines: the sheets, the seating list, the standings and the filled
card share their seat lines, ruleset words and query plan; split the filled scorecard off
past 650 lines.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.utils import translation
from django.utils.translation import pgettext_lazy

from scoring import rules
from scoring.money import coin_label, hundredths, sheet_kc
from scoring.rules.base import SHEET_MONEY, SHEET_POINTS, SHEET_SCHRIFT, SHEET_TRI1
from tournaments.domain import lifecycle
from tournaments.domain import standings as standings_module
from tournaments.domain.rulesets import effective_mode, is_money_ruleset
from tournaments.models import (
    Dispute,
    Event,
    Hand,
    MoneySheetRow,
    Penalty,
    Round,
    Scorecard,
    Seat,
    Table,
)
from tournaments.printing import links
from tournaments.printing.qr import qr_data_uri, venue_wifi_qr
from tournaments.seating import SeatingInvalid
from tournaments.seating.rotation import rest_rotation
from tournaments.services import table_links
from tournaments.text import ruleset_text

# The sheets, as the registry names them (Ruleset.sheet_kind).
MONEY = SHEET_MONEY      # seed 004: the Czech money sheet, the result of the round in haléř
TRI1 = SHEET_TRI1        # seed 000 §3: TRI + 1, one row per game, the dealer rests
SCHRIFT = SHEET_SCHRIFT  # seed 001: Königrufen, plus and minus, every row sums to zero
POINTS = SHEET_POINTS    # any other points ruleset: one row per game, a column per player


def sheet_kind(event: Event) -> str:
    """Which paper a table of the event gets: the ruleset says, for the event's mode."""
    ruleset = rules.get(event.ruleset_code)
    if ruleset is None:
        return POINTS
    return ruleset.sheet_kind(effective_mode(event.ruleset_code, event.ruleset_mode))


def keeps_radelci(event: Event) -> bool:
    """Whether the event's sheets have a row to mark radelci: the ruleset carries state in
    the event's table form (not two-player tarok, §2.2)."""
    ruleset = rules.get(event.ruleset_code)
    mode = effective_mode(event.ruleset_code, event.ruleset_mode)
    return ruleset is not None and mode in ruleset.modes and ruleset.keeps_state(mode)


def ruleset_title(code: str, language: str) -> str:
    """The ruleset's title in the printout's language (the event's, not the reader's: the
    sheet is printed once for the table, whoever asks for it)."""
    with translation.override(language or "en"):
        return ruleset_text.title(code)


def shown_mode(code: str, mode: str, language: str) -> str:
    """The table form in words ("TRI + 1", "three players"), printed only where the ruleset
    has more than one; "four" under a ruleset that knows nothing else says nothing."""
    ruleset = rules.get(code)
    modes = ruleset.describe().get("modes", []) if ruleset is not None else []
    if len(modes) <= 1:
        return ""
    with translation.override(language or "en"):
        return ruleset_text.mode_name(mode)


@dataclass(frozen=True)
class SeatLine:
    position: int  # 1-based seat in the order of play; seat 1 deals first in TRI + 1
    start_number: str
    first_name: str
    last_name: str
    club: str

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


@dataclass
class Cell:
    resting: bool = False


@dataclass
class SheetRow:
    hand: int
    dealer: str = ""
    resting: str = ""
    cells: list[Cell] = field(default_factory=list)
    group_end: bool = False  # a firmer line under the last hand of a full rotation of the deal


@dataclass
class Coin:
    coin: int  # haléř
    count: int

    @property
    def label(self) -> str:
        # As on the seed's sheet: "5,- Kč", "1,- Kč", "50 hal", "10 hal".
        return coin_label(self.coin)


@dataclass
class TableSheet:
    kind: str
    event: Event
    round_number: int
    round_status: str
    table_number: int
    section: str
    ruleset_title: str
    mode: str
    seats: list[SeatLine]
    entry_url: str
    qr: str
    rows: list[SheetRow] = field(default_factory=list)
    # The table's short code, printed large for typing at `code_url`.
    code: str = ""
    code_url: str = ""
    stake_haler: int | None = None
    bag: list[Coin] = field(default_factory=list)
    top_up_haler: int | None = None
    # The venue's Wi-Fi join code and name (settings.VENUE_WIFI_SSID), the same on every sheet.
    wifi_qr: str = ""
    wifi_name: str = ""
    radelci: bool = True

    @property
    def hands(self) -> int:
        return len(self.rows)

    @property
    def stake_kc(self) -> str:
        return sheet_kc(self.stake_haler)

    @property
    def top_up_kc(self) -> str:
        return sheet_kc(self.top_up_haler)

    @property
    def expected_total_haler(self) -> int | None:
        """What the money column must add up to before any purchase (players × stake)."""
        return len(self.seats) * self.stake_haler if self.stake_haler else None


def _seat_lines(table: Table) -> list[SeatLine]:
    return [
        SeatLine(position=i, start_number=str(s.registration.start_number),
                 first_name=s.registration.player.first_name,
                 last_name=s.registration.player.last_name,
                 club=s.registration.player.club)
        for i, s in enumerate(table.seats.all(), start=1)
    ]


def _rows(kind: str, seats: list[SeatLine], hands: int) -> list[SheetRow]:
    if kind == MONEY:
        return []
    ids = [s.start_number for s in seats]
    if kind == TRI1:
        try:
            rotation = rest_rotation(ids, hands)
        except SeatingInvalid:
            # A table of another size than 3 or 4 has no TRI + 1 rotation: the table decides
            # the deal itself, so the columns stay blank rather than guessed.
            rotation = None
        if rotation is not None:
            return [SheetRow(hand=h["hand"], dealer=h["dealer"], resting=h["resting"] or "",
                             cells=[Cell(resting=p == h["resting"]) for p in ids],
                             group_end=h["hand"] % len(ids) == 0)
                    for h in rotation]
    # Königrufen and the other four-handed forms: the first dealer is found at the table by
    # drawing cards (seed 001: "wer den Tarock hat, ist erster Geber"), so nothing is
    # pre-filled but the game numbers.
    return [SheetRow(hand=n, cells=[Cell() for _ in ids], group_end=n % max(len(ids), 1) == 0)
            for n in range(1, hands + 1)]


def _money(event: Event) -> tuple[int | None, list[Coin], int | None]:
    ruleset = rules.get(event.ruleset_code)
    money = (ruleset.describe().get("money") if ruleset is not None else None) or {}
    bag = [Coin(coin=int(c["coin"]), count=int(c["count"])) for c in money.get("stake_bag", [])]
    return event.stake_haler or money.get("stake"), bag, money.get("top_up_step")


def round_for_print(event: Event, number: int) -> Round | None:
    """The round with its tables, seats, players and scorecards, in four queries."""
    seats = Seat.objects.select_related("registration__player").order_by("position")
    tables = (Table.objects.select_related("scorecard")
              .prefetch_related(Prefetch("seats", queryset=seats)).order_by("number"))
    return (Round.objects.filter(event=event, number=number).select_related("event")
            .prefetch_related(Prefetch("tables", queryset=tables)).first())


def table_sheets(rnd: Round, base_url: str, *, table_number: int | None = None,
                 part: slice | None = None) -> list[TableSheet]:
    """The blank sheets of a round (or of one table of it, or of the tables at the positions
    `part` in table order), players pre-filled."""
    event = rnd.event
    kind = sheet_kind(event)
    mode = shown_mode(event.ruleset_code, effective_mode(event.ruleset_code, event.ruleset_mode),
                      event.language)
    title = ruleset_title(event.ruleset_code, event.language)
    stake, bag, top_up = _money(event) if kind == MONEY else (None, [], None)
    live = table_links.links_of_round(rnd)
    wifi_qr = venue_wifi_qr()
    radelci = keeps_radelci(event)
    out = []
    tables = list(rnd.tables.all())
    for table in tables if part is None else tables[part]:
        if table_number is not None and table.number != table_number:
            continue
        seats = _seat_lines(table)
        link = live.get(table.pk)
        # Every stored round has its links (tournaments.services.table_links); a table without one
        # (an old archive) prints its public scorecard instead.
        url = (links.table_link_url(base_url, link.token) if link
               else links.public_table_url(base_url, event.slug, rnd.number, table.number))
        out.append(TableSheet(
            kind=kind, event=event, round_number=rnd.number, round_status=rnd.status,
            table_number=table.number, section=table.section, ruleset_title=title, mode=mode,
            seats=seats, entry_url=url, qr=qr_data_uri(url),
            rows=_rows(kind, seats, event.hands_per_round),
            stake_haler=stake, bag=bag, top_up_haler=top_up,
            code=table_links.display_code(link.code) if link else "",
            code_url=links.code_entry_url(base_url),
            wifi_qr=wifi_qr, wifi_name=settings.VENUE_WIFI_SSID if wifi_qr else "",
            radelci=radelci,
        ))
    return out


# ---------------------------------------------------------------------------------------
# Seating list
# ---------------------------------------------------------------------------------------

@dataclass
class SeatingTable:
    number: int
    section: str
    seats: list[SeatLine]


@dataclass
class SeatingEntry:
    seat: SeatLine
    table: int
    letter: str  # the heading the player is listed under


# Languages whose alphabets have the caron letters (č, š, ž, ř) as letters of their own, after
# c, s, z, r; elsewhere (German) an accent only breaks ties: Müller files under M.
_CARON_ALPHABETS = {"cs", "sl"}
_CARON = "\u030c"


def collation_key(text: str, language: str) -> tuple[str, str]:
    """Sort key for names in the event's language: 'Cvetko' < 'Čermák' < 'Dolenc' in Czech
    and Slovenian, 'Müller' among the M's in German."""
    primary, secondary = [], []
    for char in text.casefold():
        base, *marks = unicodedata.normalize("NFD", char)
        caron = _CARON in marks and language in _CARON_ALPHABETS
        primary.append(base + ("~" if caron else ""))
        secondary.append("".join(marks))
    return "".join(primary), "|".join(secondary)


def _letter(last_name: str, language: str) -> str:
    first = (last_name[:1] or "?").upper()
    if language in _CARON_ALPHABETS and _CARON in unicodedata.normalize("NFD", first):
        return first
    return unicodedata.normalize("NFD", first)[0]


@dataclass
class SeatingList:
    event: Event
    round_number: int
    round_status: str
    tables: list[SeatingTable]
    alphabetical: list[SeatingEntry]
    byes: list[SeatLine]


def seating_list(rnd: Round) -> SeatingList:
    """The wall list: by table, and every player alphabetically with his table."""
    tables = [SeatingTable(number=t.number, section=t.section, seats=_seat_lines(t))
              for t in rnd.tables.all()]
    language = rnd.event.language or "en"
    entries = [SeatingEntry(seat=s, table=t.number, letter=_letter(s.last_name, language))
               for t in tables for s in t.seats]
    entries.sort(key=lambda e: (collation_key(e.seat.last_name, language),
                                collation_key(e.seat.first_name, language),
                                int(e.seat.start_number)))
    # Players left out of the round (a bye of the seating engine) are listed too, so nobody
    # searches the wall for a table he does not have.
    bye_numbers = {str(b.get("player", b.get("id")) if isinstance(b, dict) else b)
                   for b in (rnd.byes or [])}
    byes = []
    if bye_numbers:
        for reg in rnd.event.registrations.select_related("player").order_by("start_number"):
            if str(reg.start_number) in bye_numbers:
                byes.append(SeatLine(position=0, start_number=str(reg.start_number),
                                     first_name=reg.player.first_name,
                                     last_name=reg.player.last_name, club=reg.player.club))
    return SeatingList(event=rnd.event, round_number=rnd.number, round_status=rnd.status,
                       tables=tables, alphabetical=entries, byes=byes)


# ---------------------------------------------------------------------------------------
# Standings
# ---------------------------------------------------------------------------------------

@dataclass
class RoundCell:
    points: Any  # exact Fraction table points (points system) or None
    score: str


@dataclass
class StandingsLine:
    rank: int
    shared_rank: bool
    start_number: int
    name: str
    club: str
    points: Any  # exact Fraction
    score: str
    rounds_played: int
    per_round: list[RoundCell | None]
    adjusted: bool


@dataclass
class StandingsSheet:
    event: Event
    uses_points: bool
    money: bool
    lines: list[StandingsLine]
    rounds: list[int]
    pending_tables: list[tuple[int, int]]
    up_to_round: int | None
    after_round: int | None
    final: bool

    @property
    def any_adjusted(self) -> bool:
        return any(line.adjusted for line in self.lines)


def standings_sheet(event: Event, *, up_to_round: int | None = None) -> StandingsSheet:
    """The standings after a round (or now), shaped for the printed list."""
    table = standings_module.event_standings(event, up_to_round=up_to_round)
    money = table.unit == "haler"
    rounds = sorted({n for row in table.rows for n in row.per_round})

    def score(value: int) -> str:
        return sheet_kc(value, sign=True) if money else str(value)

    ranks = Counter(row.rank for row in table.rows)
    lines = [
        StandingsLine(
            rank=row.rank, shared_rank=ranks[row.rank] > 1,
            start_number=row.start_number, name=row.player.full_name, club=row.player.club,
            points=row.exact_points, score=score(row.score), rounds_played=row.rounds_played,
            per_round=[RoundCell(points=row.exact_per_round[n][0] if table.uses_points else None,
                                 score=score(row.per_round[n][1]))
                       if n in row.per_round else None for n in rounds],
            adjusted=row.adjusted,
        )
        for row in table.rows
    ]
    # "Final results" only when nothing can change any more: the event is finished, the
    # standings are not cut at a round and no table is still waiting for confirmation.
    final = (up_to_round is None and event.status == Event.Status.FINISHED
             and not table.pending_tables)
    return StandingsSheet(event=event, uses_points=table.uses_points, money=money, lines=lines,
                          rounds=rounds, pending_tables=table.pending_tables,
                          up_to_round=up_to_round, after_round=table.after_round, final=final)


# ---------------------------------------------------------------------------------------
# Filled scorecard
# ---------------------------------------------------------------------------------------


# The states as the printed card names them, in the catalogue of the printouts so that a
# sheet is in one language even where the model's own labels are not translated yet.
CARD_STATUS = {
    Scorecard.Status.OPEN: pgettext_lazy("printout", "Open"),
    Scorecard.Status.SUBMITTED: pgettext_lazy("printout", "Submitted"),
    Scorecard.Status.CONFIRMED: pgettext_lazy("printout", "Confirmed"),
    Scorecard.Status.VERIFIED: pgettext_lazy("printout", "Verified"),
    Scorecard.Status.ANNULLED: pgettext_lazy("printout", "Annulled"),
}
DISPUTE_STATUS = {
    Dispute.Status.OPEN: pgettext_lazy("printout", "Open"),
    Dispute.Status.DECIDED: pgettext_lazy("printout", "Decided"),
    Dispute.Status.WITHDRAWN: pgettext_lazy("printout", "Withdrawn"),
}


@dataclass
class FilledCell:
    score: int
    score_text: str
    running: str
    resting: bool


@dataclass
class FilledLine:
    player: str
    what: str
    points_text: str
    # the engine's line itself (code, params), so the template can write it in the
    # printout's language (tournaments.engine_text)
    source: dict[str, Any] = field(default_factory=dict)


@dataclass
class FilledHand:
    number: int
    game: str
    declarer: str
    partner: str
    resting: str
    value: int
    cells: list[FilledCell]
    lines: list[FilledLine]
    payout: list[int] | None
    entered_by: str
    confirmed_by: str
    penalties: list[str]
    # Who entered and confirmed is printed only where it differs from most hands of the card.
    show_entry: bool = False


@dataclass
class MoneyLine:
    registration: Any
    bought_kc: str
    money_kc: str
    result_kc: str


@dataclass
class FilledScorecard:
    event: Event
    round_number: int
    table_number: int
    section: str
    card: Scorecard
    kind: str
    ruleset_title: str
    mode: str
    seats: list[SeatLine]
    entry_url: str
    qr: str
    hands: list[FilledHand]
    totals: list[str]
    payout_totals_eur: list[str] | None
    money_rows: list[MoneyLine]
    money_total_kc: dict[str, str]
    penalties: list[Penalty]
    disputes: list[DisputeLine]
    finished: bool
    usual_entered_by: str = ""
    usual_confirmed_by: str = ""

    @property
    def money(self) -> bool:
        return self.kind == MONEY

    @property
    def status_label(self) -> str:
        return str(CARD_STATUS.get(self.card.status, self.card.status))


@dataclass
class DisputeLine:
    status_label: str
    hand: int | None
    description: str
    decision: str
    decided_by: str


def _dispute_line(dispute: Dispute) -> DisputeLine:
    return DisputeLine(status_label=str(DISPUTE_STATUS.get(dispute.status, dispute.status)),
                       hand=dispute.hand.number if dispute.hand else None,
                       description=dispute.description, decision=dispute.decision,
                       decided_by=_username(dispute.decided_by))


def _username(user: Any) -> str:
    return user.get_username() if user is not None else ""


def _signed(value: int) -> str:
    if value > 0:
        return f"+{value}"
    return f"−{-value}" if value < 0 else "0"


def _eur(cents: int) -> str:
    return hundredths(cents)


def _game_names(code: str) -> dict[str, str]:
    ruleset = rules.get(code)
    if ruleset is None:
        return {}
    return {g["code"]: g["name"] for g in ruleset.describe().get("games", [])}


def filled_scorecard(event: Event, round_number: int, table_number: int,
                     base_url: str) -> FilledScorecard | None:
    """A table's scorecard hand by hand with the engine's breakdown, for the archive."""
    seats_qs = Seat.objects.select_related("registration__player").order_by("position")
    table = (Table.objects.filter(round__event=event, round__number=round_number,
                                  number=table_number)
             .select_related("round", "scorecard__submitted_by", "scorecard__confirmed_by",
                             "scorecard__verified_by")
             .prefetch_related(Prefetch("seats", queryset=seats_qs)).first())
    if table is None:
        return None
    card = table.scorecard
    hands = list(Hand.objects.filter(scorecard=card).order_by("number")
                 .select_related("entered_by", "confirmed_by"))
    penalties = list(Penalty.objects.filter(table=table)
                     .select_related("registration__player", "hand", "recorded_by")
                     .order_by("created_at"))
    disputes = list(Dispute.objects.filter(table=table).select_related("hand", "decided_by")
                    .order_by("raised_at"))
    money_rows = list(MoneySheetRow.objects.filter(scorecard=card)
                      .select_related("registration__player"))
    money = is_money_ruleset(card.ruleset_code)
    # What a player writes: Kč for money rulesets, points (signed) otherwise.
    amount = (lambda v: sheet_kc(v, sign=True)) if money else _signed
    order = list(card.player_ids)
    # The card's columns follow its player ids; the seats are put in that same order.
    seats = sorted(_seat_lines(table),
                   key=lambda s: order.index(s.start_number) if s.start_number in order else 99)
    names = _game_names(card.ruleset_code)
    filled = []
    for hand in hands:
        record = hand.record or {}
        resting = str(record.get("resting") or "")
        filled.append(FilledHand(
            number=hand.number, game=names.get(record.get("game"), str(record.get("game", ""))),
            declarer=str(record.get("declarer") or ""), partner=str(record.get("partner") or ""),
            resting=resting, value=hand.value,
            cells=[FilledCell(score=int(hand.scores.get(p, 0)),
                              score_text=amount(int(hand.scores.get(p, 0))),
                              running=(sheet_kc(int(hand.running_totals.get(p, 0))) if money
                                       else str(hand.running_totals.get(p, 0))),
                              resting=p == resting)
                   for p in order],
            lines=[FilledLine(player=str(line.get("player", "")), what=str(line.get("what", "")),
                              points_text=amount(int(line.get("points", 0) or 0)),
                              source=dict(line))
                   for line in (hand.lines or [])],
            payout=[int(hand.payout.get(p, 0)) for p in order] if hand.payout else None,
            entered_by=_username(hand.entered_by), confirmed_by=_username(hand.confirmed_by),
            penalties=[f"{p.get('kind', '')} {p.get('player', '')}".strip()
                       for p in record.get("penalties", []) or []],
        ))
    usual = Counter((h.entered_by, h.confirmed_by) for h in filled).most_common(1)
    usual_entered, usual_confirmed = usual[0][0] if usual else ("", "")
    for h in filled:
        h.show_entry = (h.entered_by, h.confirmed_by) != (usual_entered, usual_confirmed)
    payouts = [h.payout for h in filled if h.payout is not None]
    payout_totals = ([_eur(sum(col)) for col in zip(*payouts, strict=True)]
                     if payouts else None)
    url = links.public_table_url(base_url, event.slug, round_number, table_number)
    totals = [int((card.totals or {}).get(p, 0)) for p in order]
    return FilledScorecard(
        event=event, round_number=round_number, table_number=table_number,
        section=table.section, card=card, kind=sheet_kind(event),
        ruleset_title=ruleset_title(card.ruleset_code, event.language),
        mode=shown_mode(card.ruleset_code, card.ruleset_mode, event.language), seats=seats,
        entry_url=url, qr=qr_data_uri(url), hands=filled,
        totals=[amount(t) for t in totals], payout_totals_eur=payout_totals,
        money_rows=[MoneyLine(registration=r.registration, bought_kc=sheet_kc(r.bought_haler),
                              money_kc=sheet_kc(r.money_haler),
                              result_kc=sheet_kc(r.result_haler, sign=True)) for r in money_rows],
        money_total_kc={"bought": sheet_kc(sum(r.bought_haler for r in money_rows)),
                        "money": sheet_kc(sum(r.money_haler for r in money_rows)),
                        "result": sheet_kc(sum(r.result_haler for r in money_rows), sign=True)},
        penalties=penalties, disputes=[_dispute_line(d) for d in disputes],
        finished=lifecycle.is_finished(card),
        usual_entered_by=usual_entered, usual_confirmed_by=usual_confirmed,
    )
