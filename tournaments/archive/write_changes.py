"""Bringing a stored event from one archive of it to the next by writing only what changed
(a venue's push, tournaments.venue): the event's and the rounds' fields, the registrations, the
tables' cards with their hands and money rows, and the new entries at the end of the audit
trail. Every row that stays keeps its id, so the trail's entries keep naming their objects.

It applies when the two archives have the same shape (`fits`): the same registrations of the
same players, the same rounds, tables and seats, the same penalties, disputes, adjustments and
officials, no hand or money row gone, and the old trail the start of the new one. Anything else
(a round drawn, a penalty, a player renamed) is written as a whole (`write_event_body`), as an
import is. The archive was checked before (`tournaments.archive.check_event`); the caller
scores the changed cards again from the database."""

from __future__ import annotations

from typing import Any

from tournaments.archive import event_checks, parts
from tournaments.archive.write import Stamps, write_audit
from tournaments.models import (
    Event,
    Hand,
    MoneySheetRow,
    Registration,
    Round,
    Scorecard,
    Seat,
    Table,
)

# What a new entry of the trail may name and still be written here: objects kept by their
# natural keys. A penalty, dispute or adjustment is named by its place in a list, and the
# lists are then not the same (`fits` sends those archives to the whole write).
_KEYED_TARGETS = frozenset({
    "tournaments.event", "tournaments.registration", "tournaments.player", "tournaments.round",
    "tournaments.table", "tournaments.scorecard", "tournaments.seat", "tournaments.hand",
    "tournaments.moneysheetrow"})
_SAME = ("organisers", "referees", "penalties", "disputes", "standings_adjustments")


def fits(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether the event body `new` can be written over `old` change by change (both checked
    archives' `event` members)."""
    if any(old[key] != new[key] for key in _SAME):
        return False
    if ([(r["start_number"], r["player"]) for r in old["registrations"]]
            != [(r["start_number"], r["player"]) for r in new["registrations"]]):
        return False
    if [r["number"] for r in old["rounds"]] != [r["number"] for r in new["rounds"]]:
        return False
    for old_round, new_round in zip(old["rounds"], new["rounds"], strict=True):
        if ([(t["number"], t["seats"], t["scorecard"] is None) for t in old_round["tables"]]
                != [(t["number"], t["seats"], t["scorecard"] is None) for t in new_round["tables"]]):
            return False
        for old_table, new_table in zip(old_round["tables"], new_round["tables"], strict=True):
            old_card, new_card = old_table["scorecard"], new_table["scorecard"]
            if old_card is None or old_card == new_card:
                continue
            if not ({h["number"] for h in old_card["hands"]} <= {h["number"] for h in new_card["hands"]}
                    and {r["start_number"] for r in old_card["money_rows"]}
                    <= {r["start_number"] for r in new_card["money_rows"]}):
                return False
    added = parts.tail_after(old["audit"], new["audit"])
    if added is None:
        return False
    return all(e["target"]["type"] in _KEYED_TARGETS for e in added)


def write_changes(plan: dict, old: dict[str, Any], new: dict[str, Any], event: Event,
                  users: dict[str, Any]) -> set[tuple[int, int]]:
    """Write the checked `plan` of the body `new` over the stored event, which is at `old`
    (`fits(old, new)`). Runs in the caller's transaction; answers the (round, table) of every
    card it wrote."""
    stamps = Stamps()
    Event.objects.filter(pk=event.pk).update(**plan["fields"])
    old_regs = {r["start_number"]: r for r in old["registrations"]}
    # Whether the carried totals, or what they are checked against, may have moved: the
    # event's fields (its scoring), a registration, a round (closed, say), or a card of the
    # rounds up to the last closed one.
    carried_moved = any(old[key] != new[key] for key in new
                        if key not in ("registrations", "rounds", "audit", "updated_at"))
    last_closed = max((r["fields"]["number"] for r in plan["rounds"]
                       if r["fields"]["status"] == Round.Status.CLOSED), default=0)
    for entry, raw in zip(plan["registrations"], new["registrations"], strict=True):
        if raw != old_regs[raw["start_number"]]:
            carried_moved = True
            Registration.objects.filter(event=event, start_number=raw["start_number"]).update(
                **entry["fields"])
    reg_ids = dict(event.registrations.values_list("start_number", "pk"))
    tables = {(t.round.number, t.number): t
              for t in Table.objects.filter(round__event=event).select_related("round")}
    changed: set[tuple[int, int]] = set()
    for rplan, old_round, new_round in zip(plan["rounds"], old["rounds"], new["rounds"], strict=True):
        number = rplan["fields"]["number"]
        if {k: v for k, v in old_round.items() if k != "tables"} != {
                k: v for k, v in new_round.items() if k != "tables"}:
            carried_moved = True
            Round.objects.filter(event=event, number=number).update(**rplan["fields"])
        for tplan, old_table, new_table in zip(rplan["tables"], old_round["tables"],
                                               new_round["tables"], strict=True):
            table = tables[(number, tplan["fields"]["number"])]
            if old_table["section"] != new_table["section"]:
                Table.objects.filter(pk=table.pk).update(**tplan["fields"])
            if old_table["scorecard"] != new_table["scorecard"]:
                _write_card(tplan["scorecard"], old_table["scorecard"], new_table["scorecard"],
                            table, users, reg_ids, stamps)
                changed.add((number, table.number))
                carried_moved = carried_moved or number <= last_closed
    start = len(old["audit"])
    write_audit(plan["audit"][start:], event=event, users=users,
                find_target=_finder(event, tables, reg_ids), tables=tables)
    stamps.apply()
    event.refresh_from_db()
    if carried_moved:
        # Otherwise they are the ones checked when the stored event was written (a hand typed
        # in a round still being played moves none).
        for pk, points in event_checks.refuse_wrong_carried_totals(event, plan).items():
            Registration.objects.filter(pk=pk).update(tournament_points=points)
    return changed


def _write_card(cplan: dict, old: dict[str, Any] | None, new: dict[str, Any], table: Table,
                users: dict[str, Any], reg_ids: dict[int, int], stamps: Stamps) -> None:
    """One changed card: its row, its changed and new hands, its changed and new money rows."""
    def user(name: str | None) -> Any:
        return users[name] if name else None

    people = {role: user(cplan[role]) for role in ("submitted_by", "confirmed_by", "verified_by")}
    if old is None:  # pragma: no cover - `fits` keeps a table's card present or absent
        raise ValueError("a card that was not there")
    card = Scorecard.objects.get(table=table)
    Scorecard.objects.filter(pk=card.pk).update(**people, **cplan["fields"])
    old_hands = {h["number"]: h for h in old["hands"]}
    hand_ids = dict(card.hands.values_list("number", "pk"))
    new_hands = []
    for hplan, raw in zip(cplan["hands"], new["hands"], strict=True):
        number = raw["number"]
        values = {"entered_by": user(hplan["entered_by"]), "confirmed_by": user(hplan["confirmed_by"]),
                  **hplan["fields"]}
        if number not in hand_ids:
            new_hands.append(Hand(scorecard=card, **values))
        elif old_hands.get(number) != raw:
            Hand.objects.filter(pk=hand_ids[number]).update(**values)
    Hand.objects.bulk_create(new_hands, batch_size=500)
    for hand, hplan in zip(new_hands, [h for h in cplan["hands"] if h["fields"]["number"] not in hand_ids],
                           strict=True):
        stamps.keep(hand, hplan["fields"])
    old_rows = {r["start_number"]: r for r in old["money_rows"]}
    row_ids = dict(card.money_rows.values_list("registration__start_number", "pk"))
    new_rows = []
    for rplan, raw in zip(cplan["money_rows"], new["money_rows"], strict=True):
        number = raw["start_number"]
        if number not in row_ids:
            new_rows.append(MoneySheetRow(scorecard=card, registration_id=reg_ids[number],
                                          **rplan["fields"]))
        elif old_rows.get(number) != raw:
            MoneySheetRow.objects.filter(pk=row_ids[number]).update(**rplan["fields"])
    MoneySheetRow.objects.bulk_create(new_rows, batch_size=500)


def _finder(event: Event, tables: dict[tuple[int, int], Table], reg_ids: dict[int, int]) -> Any:
    """The object a new entry of the trail names, looked up by its natural key (a few entries
    a push: one query each)."""
    def find(type_label: str, ref: dict[str, Any]) -> Any:
        table = tables.get((ref.get("round"), ref.get("table")))
        if type_label == "tournaments.event":
            return event
        if type_label == "tournaments.registration":
            return Registration.objects.filter(pk=reg_ids.get(ref["start_number"])).first()
        if type_label == "tournaments.player":
            reg = Registration.objects.filter(pk=reg_ids.get(ref["start_number"])).first()
            return reg.player if reg else None
        if type_label == "tournaments.round":
            return event.rounds.filter(number=ref["round"]).first()
        if type_label == "tournaments.table":
            return table
        if type_label == "tournaments.scorecard":
            return Scorecard.objects.filter(table=table).first()
        if type_label == "tournaments.seat":
            return Seat.objects.filter(table=table, position=ref["position"]).first()
        if type_label == "tournaments.hand":
            return Hand.objects.filter(scorecard__table=table, number=ref["hand"]).first()
        if type_label == "tournaments.moneysheetrow":
            return MoneySheetRow.objects.filter(scorecard__table=table,
                                                registration_id=reg_ids.get(ref["start_number"])).first()
        raise ValueError(type_label)  # pragma: no cover - `fits` lets no other kind through

    return find

