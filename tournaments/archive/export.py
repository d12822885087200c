"""Exporting an event: the archive document with everything needed to rebuild it, natural keys
only, lists in a stable order, so that export, import and export again give the same bytes; and
the same document made from an earlier export of it by reading again only what may have
changed since (`export_event_since`: a venue laptop's push of one hand reads one card and the
trail's new entries, not the event's 25,000 hands and 60,000 entries)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db.models import Count, Max, Min, Q

from tournaments.archive import parts
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
from tournaments.domain.limits import whole_number
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
from tournaments.runtime import collector


def export_event(event: Event) -> dict[str, Any]:
    """The archive document of one event."""
    # The collector waits while the document is made (tournaments.runtime.collector): its
    # passes over the growing tree were two fifths of an export at 1,024 players.
    return collector.run_paused(_document, event)


def _document(event: Event, scope: _Scope | None = None) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "kind": "event",
            "exported_with": exported_with(), "event": _EventExport(event, scope).body()}


def event_body(event: Event) -> dict[str, Any]:
    """The `event` member of an archive: the event and everything that belongs to it.

    A fixed number of queries whatever the size of the event."""
    return _EventExport(event).body()


def export_event_since(event: Event, previous: dict[str, Any], since: int) -> dict[str, Any] | None:
    """The archive of `event` made from `previous`, its archive when the newest entry of its
    trail was `since` (a venue laptop's acknowledged push), by reading again only what may
    have changed: the event's, registrations', rounds', tables' and seats' rows and the
    lists beside them (small), the cards whose version or time moved or that a newer entry
    of the trail names, and the trail's newer entries. The same document as `export_event`;
    None when it cannot be made so: `previous` is not this event's archive of the trail up to
    `since` written by this version of the application, a newer entry would not come last in
    the trail's order, or one is of an action not in `_KEEPS_KEYS`; the whole export then. The
    cards left as they were are `previous`'s own objects."""
    scope = _Scope.of(event, previous, since)
    if scope is None:
        return None
    return collector.run_paused(_document, event, scope)


# The trail's actions after which the earlier archive's entries still name their objects by
# the same keys: nothing they name was deleted or given another key. An export since an
# archive is made only over these; after any other (a hand deleted, two players swapped, a
# round's draw stored again, players merged) the whole archive is exported.
_KEEPS_KEYS = frozenset({
    "hand.create", "hand.update", "hand.confirm", "money_sheet.save", "scorecard.submit",
    "scorecard.confirm", "scorecard.verify", "scorecard.annul", "penalty.record",
    "dispute.open", "dispute.decide", "standings.adjust", "standings.refresh", "round.create",
    "round.publish", "round.start_clock", "round.close", "table_link.issue",
    "table_link.reissue", "player_link.issue", "player_link.reissue", "referee_call.call",
    "referee_call.take", "referee_call.resolve", "registration.create", "registration.status",
    "registration.absent", "registration.messages", "player.update", "event.update",
    "event.status", "venue.take", "venue.return", "venue.force_back",
})


class _Scope:
    """What an export since an earlier archive reads again: the tables whose cards may have
    changed, and the trail's entries after `since`; the rest is the earlier archive's."""

    def __init__(self, previous: dict[str, Any], since: int) -> None:
        self.previous, self.since = previous, since
        self.tables: set[int] = set()
        self.cards = {(r["number"], t["number"]): t["scorecard"]
                      for r in previous["rounds"] for t in r["tables"]}

    @classmethod
    def of(cls, event: Event, doc: dict[str, Any], since: int) -> _Scope | None:
        previous = doc.get("event") if isinstance(doc, dict) else None
        if (not isinstance(previous, dict) or previous.get("slug") != event.slug
                or (doc.get("format"), doc.get("version"), doc.get("exported_with"))
                != (FORMAT, VERSION, exported_with())):
            return None  # another event, or written by another version (cards of another shape)
        trail = AuditEntry.objects.filter(event=event).exclude(action__in=LOCAL_ACTIONS)
        newer = trail.filter(pk__gt=since)
        # The earlier archive is the trail up to `since`, and every newer entry sorts after it
        # (a clock set back at the venue would put one in between: the whole export then).
        # One pass over the event's trail (four queries took a third of the export since).
        older, is_new = Q(pk__lte=since), Q(pk__gt=since)
        seen = trail.aggregate(
            older=Count("pk", filter=older), last_older=Max("created_at", filter=older),
            first_newer=Min("created_at", filter=is_new),
            foreign=Count("pk", filter=is_new & ~Q(action__in=_KEEPS_KEYS)))
        if (seen["older"] != len(previous["audit"]) or seen["foreign"]
                or (seen["first_newer"] is not None and seen["last_older"] is not None
                    and seen["last_older"] > seen["first_newer"])):
            return None
        scope = cls(previous, since)
        scope.tables = set(newer.exclude(table=None).values_list("table_id", flat=True))
        scope.tables |= _tables_named(newer)
        # Every write of a card moves its version or its time (the optimistic lock, and
        # closing a round stamps the cards it verifies): the cards that moved are read again.
        for row in Scorecard.objects.filter(table__round__event=event).values(
                "table_id", "table__round__number", "table__number", "version", "updated_at"):
            card = scope.cards.get((row["table__round__number"], row["table__number"]))
            stamp = plain_row(Scorecard, ("version", "updated_at"), row)
            if card is None or (card["version"], card["updated_at"]) != (stamp["version"],
                                                                        stamp["updated_at"]):
                scope.tables.add(row["table_id"])
        return scope


def _tables_named(entries: Any) -> set[int]:
    """The tables of the cards, hands and money rows the entries name."""
    named: dict[int, set[int]] = {}
    for type_id, object_id in entries.values_list("content_type_id", "object_id"):
        pk = whole_number(object_id)
        if pk is not None:
            named.setdefault(type_id, set()).add(pk)
    tables: set[int] = set()
    for type_id, ids in named.items():
        model = ContentType.objects.get_for_id(type_id).model_class()
        if model is Scorecard:
            tables.update(Scorecard.objects.filter(pk__in=ids).values_list("table_id", flat=True))
        elif model in (Hand, MoneySheetRow):
            tables.update(model.objects.filter(pk__in=ids).values_list("scorecard__table_id", flat=True))
    return tables


class _EventExport:
    """One event written out, step by step in the archive's order of members.

    Every kind of row is read with one query as plain values (`values()`, no model objects:
    an event of 1,024 players has some 25,000 hands and 60,000 audit entries), and the users
    they name with one more. The natural keys the steps name each other by are kept here:
    start numbers by registration id, (round, table) by table id, (round, table, hand) by
    hand id."""

    def __init__(self, event: Event, scope: _Scope | None = None) -> None:
        self.event, self.scope = event, scope
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
        if hand_id is not None and hand_id not in self.hand_key and self.scope is not None:
            # A hand of a card not read again (a penalty or dispute names it).
            return Hand.objects.filter(pk=hand_id).values_list("number", flat=True).first()
        return self.hand_key[hand_id][2] if hand_id in self.hand_key else None

    def name(self, user_id: int | None) -> str | None:
        return None if user_id is None else self.names[user_id]

    def body(self) -> dict[str, Any]:
        event = self.event
        body = plain(event, EVENT_FIELDS)
        body["organisers"] = usernames_of(event.organisers)
        body["referees"] = usernames_of(event.referees)
        scope = self.scope
        rows = _EventRows(event, scope)
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
        earlier = scope.previous["audit"] if scope is not None else []
        entry_index = {e["pk"]: len(earlier) + i for i, e in enumerate(rows.entries)}
        self._disputes(body, rows, entry_index)

        refs = _TargetRefs(event, rows, self.table_key, self.hand_key, self.sn_of)
        # An earlier trail kept in chunks (archive.parts.Trail) stays so, its chunks shared.
        body["audit"] = parts.extended(earlier, [
            _audit_row_out(e, self.name(e["actor_id"]), refs.label(e["content_type_id"]),
                           refs.ref(e["content_type_id"], e["object_id"]), self.table_ref(e["table_id"]))
            for e in rows.entries])
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
        scope = self.scope
        by_round: dict[int, list[dict[str, Any]]] = {}
        for t in rows.tables:
            card = cards.get(t["pk"])
            if scope is not None and t["pk"] not in scope.tables:
                card = scope.cards.get(self.table_key[t["pk"]])  # as it was: not read again
            by_round.setdefault(t["round_id"], []).append({
                **plain_row(Table, TABLE_FIELDS, t),
                "seats": seats.get(t["pk"], []),
                "scorecard": card,
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
             "correction": self._entry_index(d["correction_id"], entry_index)}
            for d in rows.disputes
        ]

    def _entry_index(self, entry_id: int | None, entry_index: dict[int, int]) -> int | None:
        """An entry's index in the trail; one of the earlier archive's, counted (an export
        since it reads only the newer entries)."""
        if entry_id is None or entry_id in entry_index or self.scope is None:
            return entry_index.get(entry_id)
        entry = AuditEntry.objects.filter(pk=entry_id, event=self.event).exclude(
            action__in=LOCAL_ACTIONS).values("created_at").first()
        if entry is None:
            return None
        return (AuditEntry.objects.filter(event=self.event).exclude(action__in=LOCAL_ACTIONS)
                .filter(Q(created_at__lt=entry["created_at"])
                        | Q(created_at=entry["created_at"], pk__lt=entry_id)).count())


def _fields(names: tuple[str, ...], *relations: str) -> tuple[str, ...]:
    return ("pk", *names, *relations)


class _EventRows:
    """Every row an event's archive is made of, one query per kind, as plain values in the
    archive's order (the trail by time, then id, as the database sorts them alike)."""

    def __init__(self, event: Event, scope: _Scope | None = None) -> None:
        in_event = {"round__event": event}
        # An export since an earlier archive: the cards of `scope.tables` and the newer
        # entries only.
        cards = {"table__round__event": event}
        card_rows = {"scorecard__table__round__event": event}
        entries = {}
        if scope is not None:
            cards = {**cards, "table_id__in": scope.tables}
            card_rows = {**card_rows, "scorecard__table_id__in": scope.tables}
            entries = {"pk__gt": scope.since}
        self.regs = list(Registration.objects.filter(event=event).order_by("start_number").values(
            *_fields(REGISTRATION_FIELDS, "player_id", "player__user_id"),
            *(f"player__{n}" for n in PLAYER_FIELDS)))
        self.rounds = list(Round.objects.filter(event=event).order_by("number")
                           .values(*_fields(ROUND_FIELDS)))
        self.tables = list(Table.objects.filter(**in_event).order_by("round__number", "number")
                           .values(*_fields(TABLE_FIELDS, "round_id")))
        self.seats = list(Seat.objects.filter(**in_event).order_by("position")
                          .values(*_fields(SEAT_FIELDS, "table_id", "registration_id")))
        self.cards = json_values(Scorecard.objects.filter(**cards),
                                 *_fields(SCORECARD_FIELDS, "table_id", "submitted_by_id",
                                          "confirmed_by_id", "verified_by_id"))
        self.hands = json_values(Hand.objects.filter(**card_rows)
                                 .order_by("scorecard_id", "number"),
                                 *_fields(HAND_FIELDS, "scorecard_id", "entered_by_id",
                                          "confirmed_by_id"))
        self.money_rows = list(MoneySheetRow.objects.filter(**card_rows)
                               .values(*_fields(MONEY_ROW_FIELDS, "scorecard_id", "registration_id")))
        self.penalties = list(Penalty.objects.filter(event=event).values(
            *_fields(PENALTY_FIELDS, "table_id", "hand_id", "registration_id", "recorded_by_id")))
        self.adjustments = list(StandingsAdjustment.objects.filter(event=event).values(
            *_fields(ADJUSTMENT_FIELDS, "registration_id", "created_by_id")))
        self.disputes = list(Dispute.objects.filter(event=event).values(
            *_fields(DISPUTE_FIELDS, "table_id", "hand_id", "raised_by_id", "decided_by_id",
                     "correction_id")))
        self.entries = json_values(AuditEntry.objects.filter(event=event, **entries)
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
