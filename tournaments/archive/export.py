"""Exporting an event: the archive document with everything needed to rebuild it, natural keys
only, lists in a stable order, so that export, import and export again give the same bytes."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType

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
    PLAYER_FIELDS,
    REGISTRATION_FIELDS,
    ROUND_FIELDS,
    SCORECARD_FIELDS,
    SEAT_FIELDS,
    TABLE_FIELDS,
    VERSION,
    exported_with,
    json_values,
    plain,
    plain_row,
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
    Player,
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
    """One event written out, step by step in the archive's order of members.

    Every kind of row is read with one query as plain values (`values()`, no model objects:
    an event of 1,024 players has some 25,000 hands and 60,000 audit entries), and the users
    they name with one more. The natural keys the steps name each other by are kept here:
    start numbers by registration id, (round, table) by table id, (round, table, hand) by
    hand id."""

    def __init__(self, event: Event) -> None:
        self.event = event
        self.sn_of: dict[int, int] = {}
        self.table_key: dict[int, tuple[int, int]] = {}
        self.hand_key: dict[int, tuple[int, int, int]] = {}
        self.names: dict[int, str] = {}

    def table_ref(self, table_id: int | None) -> dict[str, int] | None:
        if table_id is None or table_id not in self.table_key:
            return None
        rnd, number = self.table_key[table_id]
        return {"round": rnd, "table": number}

    def hand_number(self, hand_id: int | None) -> int | None:
        return self.hand_key[hand_id][2] if hand_id in self.hand_key else None

    def name(self, user_id: int | None) -> str | None:
        return None if user_id is None else self.names[user_id]

    def body(self) -> dict[str, Any]:
        event = self.event
        body = plain(event, EVENT_FIELDS)
        body["organisers"] = usernames_of(event.organisers)
        body["referees"] = usernames_of(event.referees)
        rows = _EventRows(event)
        self.names = rows.usernames()
        self.sn_of = {r["pk"]: r["start_number"] for r in rows.regs}
        body["registrations"] = [
            {**plain_row(Registration, REGISTRATION_FIELDS, r),
             "player": {**plain_row(Player, PLAYER_FIELDS, {n: r[f"player__{n}"] for n in PLAYER_FIELDS}),
                        "user": self.name(r["player__user_id"])}}
            for r in rows.regs
        ]
        round_number = {r["pk"]: r["number"] for r in rows.rounds}
        self.table_key = {t["pk"]: (round_number[t["round_id"]], t["number"]) for t in rows.tables}
        body["rounds"] = self._rounds(rows)
        self._penalties_and_adjustments(body, rows)
        entry_index = {e["pk"]: i for i, e in enumerate(rows.entries)}
        self._disputes(body, rows, entry_index)

        refs = _TargetRefs(event, rows, self.table_key, self.hand_key, self.sn_of)
        body["audit"] = [
            _audit_row_out(e, self.name(e["actor_id"]), refs.label(e["content_type_id"]),
                           refs.ref(e["content_type_id"], e["object_id"]), self.table_ref(e["table_id"]))
            for e in rows.entries
        ]
        return body

    def _rounds(self, rows: _EventRows) -> list[dict[str, Any]]:
        """The rounds with their tables, each with its seats and scorecard (hands and money
        rows)."""
        sn_of, name = self.sn_of, self.name
        seats: dict[int, list[dict[str, Any]]] = {}
        for s in rows.seats:
            seats.setdefault(s["table_id"], []).append(
                {**plain_row(Seat, SEAT_FIELDS, s), "start_number": sn_of[s["registration_id"]]})
        card_table = {c["pk"]: c["table_id"] for c in rows.cards}
        hands: dict[int, list[dict[str, Any]]] = {}
        for h in rows.hands:
            hands.setdefault(h["scorecard_id"], []).append(
                {**plain_row(Hand, HAND_FIELDS, h), "entered_by": name(h["entered_by_id"]),
                 "confirmed_by": name(h["confirmed_by_id"])})
            self.hand_key[h["pk"]] = (*self.table_key[card_table[h["scorecard_id"]]], h["number"])
        money: dict[int, list[dict[str, Any]]] = {}
        for r in rows.money_rows:
            money.setdefault(r["scorecard_id"], []).append(
                {**plain_row(MoneySheetRow, MONEY_ROW_FIELDS, r),
                 "start_number": sn_of[r["registration_id"]]})
        cards = {}
        for c in rows.cards:
            cards[c["table_id"]] = {
                **plain_row(Scorecard, SCORECARD_FIELDS, c),
                "submitted_by": name(c["submitted_by_id"]),
                "confirmed_by": name(c["confirmed_by_id"]),
                "verified_by": name(c["verified_by_id"]),
                "hands": hands.get(c["pk"], []),
                "money_rows": sorted(money.get(c["pk"], []), key=lambda r: r["start_number"]),
            }
        by_round: dict[int, list[dict[str, Any]]] = {}
        for t in rows.tables:
            by_round.setdefault(t["round_id"], []).append({
                **plain_row(Table, TABLE_FIELDS, t),
                "seats": seats.get(t["pk"], []),
                "scorecard": cards.get(t["pk"]),
            })
        return [{**plain_row(Round, ROUND_FIELDS, r), "tables": by_round.get(r["pk"], [])}
                for r in rows.rounds]

    def _penalties_and_adjustments(self, body: dict[str, Any], rows: _EventRows) -> None:
        """The penalties and standings adjustments in a stable order (their times first)."""
        sn_of = self.sn_of
        rows.penalties.sort(
            key=lambda p: (p["created_at"], self.table_key.get(p["table_id"], (0, 0)),
                           self.hand_number(p["hand_id"]) or 0, sn_of[p["registration_id"]],
                           p["kind"], p["pk"]))
        body["penalties"] = [
            {**plain_row(Penalty, PENALTY_FIELDS, p), "table": self.table_ref(p["table_id"]),
             "hand": self.hand_number(p["hand_id"]), "start_number": sn_of[p["registration_id"]],
             "recorded_by": self.name(p["recorded_by_id"])}
            for p in rows.penalties
        ]
        rows.adjustments.sort(key=lambda a: (a["created_at"], sn_of[a["registration_id"]], a["pk"]))
        body["standings_adjustments"] = [
            {**plain_row(StandingsAdjustment, ADJUSTMENT_FIELDS, a),
             "start_number": sn_of[a["registration_id"]], "created_by": self.name(a["created_by_id"])}
            for a in rows.adjustments
        ]

    def _disputes(self, body: dict[str, Any], rows: _EventRows, entry_index: dict[int, int]) -> None:
        """The disputes in the order they were raised; a correction is named by its index in
        the trail."""
        rows.disputes.sort(key=lambda d: (d["raised_at"], d["pk"]))
        body["disputes"] = [
            {**plain_row(Dispute, DISPUTE_FIELDS, d), "table": self.table_ref(d["table_id"]),
             "hand": self.hand_number(d["hand_id"]), "raised_by": self.name(d["raised_by_id"]),
             "decided_by": self.name(d["decided_by_id"]),
             "correction": entry_index.get(d["correction_id"])}
            for d in rows.disputes
        ]


def _fields(names: tuple[str, ...], *relations: str) -> tuple[str, ...]:
    return ("pk", *names, *relations)


class _EventRows:
    """Every row an event's archive is made of, one query per kind, as plain values in the
    archive's order (the trail by time, then id, as the database sorts them alike)."""

    def __init__(self, event: Event) -> None:
        in_event = {"round__event": event}
        self.regs = list(Registration.objects.filter(event=event).order_by("start_number").values(
            *_fields(REGISTRATION_FIELDS, "player_id", "player__user_id"),
            *(f"player__{n}" for n in PLAYER_FIELDS)))
        self.rounds = list(Round.objects.filter(event=event).order_by("number")
                           .values(*_fields(ROUND_FIELDS)))
        self.tables = list(Table.objects.filter(**in_event).order_by("round__number", "number")
                           .values(*_fields(TABLE_FIELDS, "round_id")))
        self.seats = list(Seat.objects.filter(**in_event).order_by("position")
                          .values(*_fields(SEAT_FIELDS, "table_id", "registration_id")))
        self.cards = json_values(Scorecard.objects.filter(table__round__event=event),
                                 *_fields(SCORECARD_FIELDS, "table_id", "submitted_by_id",
                                          "confirmed_by_id", "verified_by_id"))
        self.hands = json_values(Hand.objects.filter(scorecard__table__round__event=event)
                                 .order_by("scorecard_id", "number"),
                                 *_fields(HAND_FIELDS, "scorecard_id", "entered_by_id",
                                          "confirmed_by_id"))
        self.money_rows = list(MoneySheetRow.objects.filter(scorecard__table__round__event=event)
                               .values(*_fields(MONEY_ROW_FIELDS, "scorecard_id", "registration_id")))
        self.penalties = list(Penalty.objects.filter(event=event).values(
            *_fields(PENALTY_FIELDS, "table_id", "hand_id", "registration_id", "recorded_by_id")))
        self.adjustments = list(StandingsAdjustment.objects.filter(event=event).values(
            *_fields(ADJUSTMENT_FIELDS, "registration_id", "created_by_id")))
        self.disputes = list(Dispute.objects.filter(event=event).values(
            *_fields(DISPUTE_FIELDS, "table_id", "hand_id", "raised_by_id", "decided_by_id",
                     "correction_id")))
        self.entries = json_values(AuditEntry.objects.filter(event=event)
                                   .exclude(action__in=LOCAL_ACTIONS).order_by("created_at", "pk"),
                                   *_fields(AUDIT_FIELDS, "actor_id", "content_type_id",
                                            "object_id", "table_id"))

    def usernames(self) -> dict[int, str]:
        """{user id: username} of every user the rows name, with one query."""
        ids = {r["player__user_id"] for r in self.regs}
        for rows, names in ((self.cards, ("submitted_by_id", "confirmed_by_id", "verified_by_id")),
                            (self.hands, ("entered_by_id", "confirmed_by_id")),
                            (self.penalties, ("recorded_by_id",)),
                            (self.adjustments, ("created_by_id",)),
                            (self.disputes, ("raised_by_id", "decided_by_id")),
                            (self.entries, ("actor_id",))):
            for name in names:
                ids.update(r[name] for r in rows)
        ids.discard(None)
        if not ids:
            return {}
        model = get_user_model()
        return dict(model.objects.filter(pk__in=ids).values_list("pk", model.USERNAME_FIELD))


class _TargetRefs:
    """The natural key of every object an audit entry of the event may name, by content type
    and object id; each type's keys made the first time an entry names that type."""

    def __init__(self, event: Event, rows: _EventRows, table_key: dict[int, tuple[int, int]],
                 hand_key: dict[int, tuple[int, int, int]], sn_of: dict[int, int]) -> None:
        self.event, self.rows = event, rows
        self.table_key, self.hand_key, self.sn_of = table_key, hand_key, sn_of
        self.labels: dict[int, str] = {}
        self.refs: dict[int, dict[str, Any]] = {}

    def label(self, content_type_id: int) -> str:
        if content_type_id not in self.labels:
            ct = ContentType.objects.get_for_id(content_type_id)
            self.labels[content_type_id] = f"{ct.app_label}.{ct.model}"
        return self.labels[content_type_id]

    def ref(self, content_type_id: int, object_id: str) -> Any:
        if content_type_id not in self.refs:
            self.refs[content_type_id] = self._refs_of(self.label(content_type_id))
        return self.refs[content_type_id].get(object_id)

    def _refs_of(self, label: str) -> dict[str, Any]:
        rows, table_key, sn_of = self.rows, self.table_key, self.sn_of
        card_key = {c["pk"]: table_key[c["table_id"]] for c in rows.cards}
        makers = {
            "tournaments.event": lambda: {str(self.event.pk): {"slug": self.event.slug}},
            "tournaments.registration": lambda: {str(r["pk"]): {"start_number": r["start_number"]}
                                                 for r in rows.regs},
            "tournaments.player": lambda: {str(r["player_id"]): {"start_number": r["start_number"]}
                                           for r in rows.regs},
            "tournaments.round": lambda: {str(r["pk"]): {"round": r["number"]} for r in rows.rounds},
            "tournaments.table": lambda: {str(pk): {"round": k[0], "table": k[1]}
                                          for pk, k in table_key.items()},
            "tournaments.scorecard": lambda: {str(pk): {"round": k[0], "table": k[1]}
                                              for pk, k in card_key.items()},
            "tournaments.seat": lambda: {
                str(s["pk"]): {"round": table_key[s["table_id"]][0],
                               "table": table_key[s["table_id"]][1], "position": s["position"]}
                for s in rows.seats},
            "tournaments.hand": lambda: {str(pk): {"round": k[0], "table": k[1], "hand": k[2]}
                                         for pk, k in self.hand_key.items()},
            "tournaments.moneysheetrow": lambda: {
                str(r["pk"]): {"round": card_key[r["scorecard_id"]][0],
                               "table": card_key[r["scorecard_id"]][1],
                               "start_number": sn_of[r["registration_id"]]}
                for r in rows.money_rows},
            "tournaments.penalty": lambda: {str(p["pk"]): {"penalty": i}
                                            for i, p in enumerate(rows.penalties)},
            "tournaments.dispute": lambda: {str(d["pk"]): {"dispute": i}
                                            for i, d in enumerate(rows.disputes)},
            "tournaments.standingsadjustment": lambda: {str(a["pk"]): {"adjustment": i}
                                                        for i, a in enumerate(rows.adjustments)},
        }
        return makers[label]() if label in makers else {}


def _audit_row_out(row: dict[str, Any], actor: str | None, label: str, ref: Any, table: Any
                   ) -> dict[str, Any]:
    """`audit_out` of an entry read with values()."""
    return {**plain_row(AuditEntry, AUDIT_FIELDS, row), "actor": actor, "table": table,
            "target": {"type": label, "ref": ref}}


def audit_out(entry: AuditEntry, ref: Any, table: Any) -> dict[str, Any]:
    """One audit entry as the archive writes it; `ref` is the natural key of its object."""
    return {**plain(entry, AUDIT_FIELDS), "actor": username(entry.actor), "table": table,
            "target": {"type": f"{entry.content_type.app_label}.{entry.content_type.model}",
                       "ref": ref}}
