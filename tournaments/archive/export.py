"""Exporting an event: the archive document with everything needed to rebuild it, natural keys
only, lists in a stable order, so that export, import and export again give the same bytes."""

from __future__ import annotations

from typing import Any

from tournaments.archive.format import (
    ADJUSTMENT_FIELDS,
    AUDIT_FIELDS,
    DISPUTE_FIELDS,
    EVENT_FIELDS,
    FORMAT,
    HAND_FIELDS,
    LOCAL_ACTIONS,
    MONEY_ROW_FIELDS,
    PENALTY_FIELDS,
    REGISTRATION_FIELDS,
    ROUND_FIELDS,
    SCORECARD_FIELDS,
    SEAT_FIELDS,
    TABLE_FIELDS,
    VERSION,
    exported_with,
    plain,
    player_key,
    username,
    usernames_of,
)
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


def export_event(event: Event) -> dict[str, Any]:
    """The archive document of one event."""
    return {"format": FORMAT, "version": VERSION, "kind": "event",
            "exported_with": exported_with(), "event": event_body(event)}


def event_body(event: Event) -> dict[str, Any]:
    """The `event` member of an archive: the event and everything that belongs to it.

    A fixed number of queries whatever the size of the event."""
    return _EventExport(event).body()


class _EventExport:
    """One event written out, step by step in the archive's order of members. The natural
    keys the steps name each other by are kept here: start numbers by registration id,
    (round, table) by table id, (round, table, hand) by hand id."""

    def __init__(self, event: Event) -> None:
        self.event = event
        self.sn_of: dict[int, int] = {}
        self.table_key: dict[int, tuple[int, int]] = {}
        self.hand_key: dict[int, tuple[int, int, int]] = {}

    def table_ref(self, table_id: int | None) -> dict[str, int] | None:
        if table_id is None or table_id not in self.table_key:
            return None
        rnd, number = self.table_key[table_id]
        return {"round": rnd, "table": number}

    def hand_number(self, hand_id: int | None) -> int | None:
        return self.hand_key[hand_id][2] if hand_id in self.hand_key else None

    def body(self) -> dict[str, Any]:
        event = self.event
        body = plain(event, EVENT_FIELDS)
        body["organisers"] = usernames_of(event.organisers)
        body["referees"] = usernames_of(event.referees)

        regs = list(event.registrations.select_related("player__user").order_by("start_number"))
        self.sn_of = {r.pk: r.start_number for r in regs}
        body["registrations"] = [
            {**plain(r, REGISTRATION_FIELDS), "player": player_key(r.player)} for r in regs
        ]
        rounds = list(event.rounds.order_by("number"))
        tables = list(Table.objects.filter(round__event=event).select_related("round")
                      .order_by("round__number", "number"))
        self.table_key = {t.pk: (t.round.number, t.number) for t in tables}
        cards, rows, body["rounds"] = self._rounds(rounds, tables)
        penalties, adjustments = self._penalties_and_adjustments(body)
        entries = sorted(event.audit_entries.exclude(action__in=LOCAL_ACTIONS)
                         .select_related("actor", "content_type"),
                         key=lambda e: (e.created_at, e.pk))
        disputes = self._disputes(body, {e.pk: i for i, e in enumerate(entries)})

        refs = _target_refs(event, regs, rounds, tables, self.table_key, cards, self.hand_key, rows,
                            penalties, disputes, adjustments)
        body["audit"] = [
            audit_out(e, refs.get((e.content_type.app_label, e.content_type.model), {}).get(e.object_id),
                      self.table_ref(e.table_id))
            for e in entries
        ]
        return body

    def _rounds(self, rounds: list[Round], tables: list[Table]
                ) -> tuple[dict[int, Scorecard], dict[int, list[MoneySheetRow]], list[dict[str, Any]]]:
        """The rounds with their tables, each with its seats and scorecard (hands and money
        rows), read with one query per kind. Returns the cards by table id, the money rows
        by card id (the trail names them) and the rounds' part of the archive."""
        event, sn_of = self.event, self.sn_of
        cards = {c.table_id: c for c in Scorecard.objects.filter(table__round__event=event)
                 .select_related("submitted_by", "confirmed_by", "verified_by")}
        seats: dict[int, list[Seat]] = {}
        for s in Seat.objects.filter(round__event=event).order_by("position"):
            seats.setdefault(s.table_id, []).append(s)
        hands: dict[int, list[Hand]] = {}
        for h in (Hand.objects.filter(scorecard__table__round__event=event)
                  .select_related("entered_by", "confirmed_by", "scorecard").order_by("number")):
            hands.setdefault(h.scorecard_id, []).append(h)
            self.hand_key[h.pk] = (*self.table_key[h.scorecard.table_id], h.number)
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
        body = [{**plain(r, ROUND_FIELDS), "tables": by_round.get(r.pk, [])} for r in rounds]
        return cards, rows, body

    def _penalties_and_adjustments(self, body: dict[str, Any]
                                   ) -> tuple[list[Penalty], list[StandingsAdjustment]]:
        """The penalties and standings adjustments in a stable order (their times first)."""
        event, sn_of = self.event, self.sn_of
        penalties = sorted(
            event.penalties.select_related("recorded_by"),
            key=lambda p: (p.created_at, self.table_key.get(p.table_id, (0, 0)),
                           self.hand_number(p.hand_id) or 0, sn_of[p.registration_id], p.kind, p.pk))
        body["penalties"] = [
            {**plain(p, PENALTY_FIELDS), "table": self.table_ref(p.table_id),
             "hand": self.hand_number(p.hand_id), "start_number": sn_of[p.registration_id],
             "recorded_by": username(p.recorded_by)}
            for p in penalties
        ]
        adjustments = sorted(event.standings_adjustments.select_related("created_by"),
                             key=lambda a: (a.created_at, sn_of[a.registration_id], a.pk))
        body["standings_adjustments"] = [
            {**plain(a, ADJUSTMENT_FIELDS), "start_number": sn_of[a.registration_id],
             "created_by": username(a.created_by)}
            for a in adjustments
        ]
        return penalties, adjustments

    def _disputes(self, body: dict[str, Any], entry_index: dict[int, int]) -> list[Dispute]:
        """The disputes in the order they were raised; a correction is named by its index in
        the trail."""
        disputes = sorted(self.event.disputes.select_related("raised_by", "decided_by"),
                          key=lambda d: (d.raised_at, d.pk))
        body["disputes"] = [
            {**plain(d, DISPUTE_FIELDS), "table": self.table_ref(d.table_id),
             "hand": self.hand_number(d.hand_id), "raised_by": username(d.raised_by),
             "decided_by": username(d.decided_by), "correction": entry_index.get(d.correction_id)}
            for d in disputes
        ]
        return disputes


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

def audit_out(entry: AuditEntry, ref: Any, table: Any) -> dict[str, Any]:
    """One audit entry as the archive writes it; `ref` is the natural key of its object."""
    return {**plain(entry, AUDIT_FIELDS), "actor": username(entry.actor), "table": table,
            "target": {"type": f"{entry.content_type.app_label}.{entry.content_type.model}",
                       "ref": ref}}
