"""Checking an event's body: its fields, registrations, rounds with tables, seats, cards and
hands, penalties, adjustments, disputes and audit trail, and every reference between them; the
result is a plan that `tournaments.archive.write` carries out.

Why one module of some 500 lines: each check adds to one checker and one context, at paths of
one document, and names what the others found (start numbers, tables, hands, the trail's
length); read top to bottom it is the archive format's event part. The audit trail and the
references that name a table, a hand or a registration are `tournaments.archive.check_refs`,
which the leagues' archives share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournaments.archive import check_refs, event_checks, parts
from tournaments.archive.check import Checker, PlayerResolver, check_player
from tournaments.archive.format import (
    ADJUSTMENT_FIELDS,
    DISPUTE_FIELDS,
    EVENT_FIELDS,
    HAND_FIELDS,
    MONEY_ROW_FIELDS,
    PENALTY_FIELDS,
    REGISTRATION_FIELDS,
    ROUND_FIELDS,
    SCORECARD_FIELDS,
    SEAT_FIELDS,
    TABLE_FIELDS,
)
from tournaments.archive.verify import card_spec_from_plan, score_mismatches
from tournaments.domain import limits
from tournaments.domain.rulesets import is_money_ruleset
from tournaments.domain.seating_options import seating_option_errors
from tournaments.models import (
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

EVENT_KEYS = (*EVENT_FIELDS, "organisers", "referees", "registrations", "rounds", "penalties",
              "disputes", "standings_adjustments", "audit")


@dataclass
class ImportContext:
    """What one import shares across the events it reads: the player matches, the users
    named, and the event slugs already taken by this file."""

    resolver: PlayerResolver = field(default_factory=PlayerResolver)
    usernames: set[str] = field(default_factory=set)
    slugs: set[str] = field(default_factory=set)
    # The event an archive replaces in place (a venue's push, tournaments.venue): its own slug
    # is not "taken".
    replacing: int | None = None
    # The cards of the archive the event was last brought to, by (round, table), with its
    # stake: a card that is the same again was scored against the engine then, and is not
    # scored again (a venue's push of one more hand re-scores one card, not 256).
    scored_cards: dict[tuple[int, int], Any] = field(default_factory=dict)
    scored_stake: Any = None
    # The earlier archive's registrations, tables, cards and trail are *the very objects* of
    # the new one where they did not change (a delta patched onto the kept archive shares
    # them, archive.delta.patch): those were checked when they came, and are not checked again
    # (`TRUSTED`); only what ties them to what changed is (a start number given twice, a seat
    # of a registration that is gone, a card's state in its round's). Their plans are then not
    # whole, so only a write of what changed may follow
    # (tournaments.archive.importing.update_event checks again in full otherwise).
    trust_unchanged: bool = False
    checked_audit: list | None = None
    checked_registrations: list | None = None
    checked_tables: dict[tuple[int, int], Any] = field(default_factory=dict)


# A plan made with `ImportContext.trust_unchanged` carries this key: its unchanged cards and
# trail entries are not planned, and only write_changes may write it.
TRUSTED = "trusted_unchanged"


def check_event_body(body: Any, path: str, checker: Checker, ctx: ImportContext) -> dict | None:
    """Check the `event` member of an archive and return a plan for `write_event_body`, or
    None. Every problem is added to the checker; nothing is written."""
    before = len(checker.errors)
    body = checker.obj(body, path, EVENT_KEYS)
    if body is None:
        return None
    plan: dict[str, Any] = {"path": path}

    fields_ = checker.fields(Event, EVENT_FIELDS, body, path)
    if fields_ is not None:
        event = Event(**fields_)
        # The event's own rules: a ruleset, mode and options the engine can score, a stake for
        # a money ruleset, consistent table sizes and dates.
        try:
            event.clean()
        except ValidationError as exc:
            for name, messages in exc.message_dict.items():
                for message in messages:
                    checker.add(f"{path}.{name}", "invalid_ruleset", message)
        if is_money_ruleset(event.ruleset_code) and not event.stake_haler:
            checker.add(f"{path}.stake_haler", "required", _("a money ruleset needs the stake per player"))
        for error in seating_option_errors(event.seating_system, event.seating_options):
            checker.add(f"{path}.{error['field']}", error["code"], error["message"])
        checker.check_constraints(event, path)
        if event.slug in ctx.slugs:
            checker.add(f"{path}.slug", "duplicate_slug",
                        _("event %(slug)s is twice in this archive") % {"slug": event.slug})
        elif Event.objects.filter(slug=event.slug).exclude(pk=ctx.replacing).exists():
            checker.add(f"{path}.slug", "slug_exists",
                        _("an event with the slug %(slug)s already exists in this database; "
                          "delete or rename it first, or import into another database") % {
                            "slug": repr(event.slug)})
        ctx.slugs.add(event.slug)
    plan["fields"] = fields_

    for role in ("organisers", "referees"):
        names = []
        for i, name in enumerate(checker.items(body.get(role, []), f"{path}.{role}")):
            cleaned = checker.username(name, f"{path}.{role}[{i}]", nullable=False)
            if cleaned:
                names.append(cleaned)
                ctx.usernames.add(cleaned)
        plan[role] = names

    regs = _check_registrations(body, path, checker, ctx, plan)
    # Scores are checked against the engine even when some event field is wrong, so one
    # refusal lists both; the engine needs only the stake, and the audit trail the slug.
    known = {"slug": body.get("slug"), "stake_haler": body.get("stake_haler")}
    tables = _check_rounds(body, path, checker, ctx, plan, regs, known)
    _check_penalties(body, path, checker, ctx, plan, regs, tables)
    _check_adjustments(body, path, checker, ctx, plan, regs)
    audit_count = len(body["audit"]) if isinstance(body.get("audit"), (list, parts.Trail)) else 0
    _check_disputes(body, path, checker, ctx, plan, tables, audit_count)
    check_refs.check_audit(body, path, checker, ctx, plan, regs, tables, known)
    if ctx.trust_unchanged:
        plan[TRUSTED] = True
    return plan if len(checker.errors) == before else None


def _check_registrations(body: dict, path: str, checker: Checker, ctx: ImportContext,
                         plan: dict) -> set[int]:
    numbers: set[int] = set()
    plan["registrations"] = []
    occurrences: dict[tuple, int] = {}
    checked = ctx.checked_registrations if ctx.trust_unchanged else None
    for i, reg in enumerate(checker.items(body.get("registrations", []), f"{path}.registrations")):
        p = f"{path}.registrations[{i}]"
        trusted = checked is not None and i < len(checked) and checked[i] is reg
        reg = reg if trusted else checker.obj(reg, p, (*REGISTRATION_FIELDS, "player"))
        if reg is None:
            continue
        if trusted:
            # As it came (its fields and player checked then); its plan names it, no more.
            values, player = {"start_number": reg["start_number"]}, None
        else:
            values = checker.fields(Registration, REGISTRATION_FIELDS, reg, p)
            player = check_player(checker, reg.get("player"), f"{p}.player", ctx.usernames)
        number = reg.get("start_number")
        if isinstance(number, int) and not isinstance(number, bool):
            if number < 1:
                checker.add(f"{p}.start_number", "invalid_number", _("start numbers begin at 1"))
            elif number in numbers:
                checker.add(f"{p}.start_number", "duplicate",
                            _("start number %(number)s is given twice") % {"number": number})
            # Known even when another field of the registration is wrong, so that its seats and
            # hands are not reported as dangling on top of the real problem.
            numbers.add(number)
        if trusted:
            plan["registrations"].append({"fields": values, "path": p, TRUSTED: True})
            continue
        if values is None or player is None:
            continue
        name_key = (player[0]["first_name"], player[0]["last_name"], player[0]["club"])
        occurrence = occurrences.get(name_key, 0)
        occurrences[name_key] = occurrence + 1
        entry = {"fields": values, "player": player, "occurrence": occurrence, "path": p}
        plan["registrations"].append(entry)
    return numbers


def _check_rounds(body: dict, path: str, checker: Checker, ctx: ImportContext, plan: dict,
                  regs: set[int], event_fields: dict
                  ) -> dict[tuple[int, int], set[int]]:
    """Rounds, tables, seats, scorecards and hands; returns {(round, table): hand numbers}."""
    tables: dict[tuple[int, int], set[int]] = {}
    plan["rounds"] = []
    round_numbers: set[int] = set()
    for i, rnd in enumerate(checker.items(body.get("rounds", []), f"{path}.rounds")):
        p = f"{path}.rounds[{i}]"
        rnd = checker.obj(rnd, p, (*ROUND_FIELDS, "tables"))
        if rnd is None:
            continue
        values = checker.fields(Round, ROUND_FIELDS, rnd, p)
        number = values["number"] if values else None
        if values is not None:
            if number < 1:
                checker.add(f"{p}.number", "invalid_number", _("round numbers begin at 1"))
            elif number in round_numbers:
                checker.add(f"{p}.number", "duplicate",
                            _("round %(number)s is given twice") % {"number": number})
            round_numbers.add(number)
        seated: set[int] = set()
        table_numbers: set[int] = set()
        round_plan = {"fields": values, "tables": []}
        for j, table in enumerate(checker.items(rnd.get("tables", []), f"{p}.tables")):
            tp = f"{p}.tables[{j}]"
            trusted = ctx.trust_unchanged and ctx.checked_tables.get((i, j)) is table is not None
            table = table if trusted else checker.obj(table, tp, (*TABLE_FIELDS, "seats", "scorecard"))
            if table is None:
                continue
            # A table as it came: its fields and seats checked then (their plans name them).
            tvalues = ({"number": table["number"]} if trusted
                       else checker.fields(Table, TABLE_FIELDS, table, tp))
            if tvalues is not None:
                if tvalues["number"] < 1:
                    checker.add(f"{tp}.number", "invalid_number", _("table numbers begin at 1"))
                elif tvalues["number"] in table_numbers:
                    checker.add(f"{tp}.number", "duplicate",
                                _("table %(number)s is given twice in this round") % {
                                    "number": tvalues["number"]})
                table_numbers.add(tvalues["number"])
            seats = _check_seats(table, tp, checker, regs, seated, trusted)
            card, hand_numbers = None, set()
            if table.get("scorecard") is not None:
                card, hand_numbers = _check_card(
                    table["scorecard"], f"{tp}.scorecard", checker, ctx, regs, event_fields,
                    number, tvalues["number"] if tvalues else None)
                if card is not None and values is not None:
                    checker.errors.extend(event_checks.card_problems(
                        values["status"], card, f"{tp}.scorecard"))
            if number is not None and tvalues is not None:
                tables[(number, tvalues["number"])] = hand_numbers
            round_plan["tables"].append({"fields": tvalues, "seats": seats, "scorecard": card})
        plan["rounds"].append(round_plan)
    return tables


def _check_seats(table: dict, tp: str, checker: Checker, regs: set[int], seated: set[int],
                 trusted: bool) -> list[dict[str, int]]:
    """A table's seats' plans; `seated`: the start numbers seated in the round so far (this
    table's are added). A trusted table's seats (as they came) are checked only against the
    registrations and the round's other seats."""
    seats = []
    positions: set[int] = set()
    for k, seat in enumerate(checker.items(table.get("seats", []), f"{tp}.seats")):
        sp = f"{tp}.seats[{k}]"
        seat = seat if trusted else checker.obj(seat, sp, (*SEAT_FIELDS, "start_number"))
        if seat is None:
            continue
        svalues = ({"position": seat["position"]} if trusted
                   else checker.fields(Seat, SEAT_FIELDS, seat, sp))
        sn = check_refs.start_number(checker, seat.get("start_number"), f"{sp}.start_number", regs)
        if sn is None:
            continue
        if sn in seated:
            checker.add(f"{sp}.start_number", "seated_twice",
                        _("start number %(number)s is seated twice in this round") % {
                            "number": sn})
        seated.add(sn)
        if svalues is not None:
            if svalues["position"] in positions:
                checker.add(f"{sp}.position", "duplicate",
                            _("seat position %(position)s is given twice at this table") % {
                                "position": svalues["position"]})
            positions.add(svalues["position"])
            seats.append({"position": svalues["position"], "start_number": sn})
    return seats


def _check_card(card: Any, path: str, checker: Checker, ctx: ImportContext, regs: set[int],
                event_fields: dict, round_number: int | None, table_number: int | None
                ) -> tuple[dict | None, set[int]]:
    """A scorecard's plan (None when invalid) and its hand numbers, which penalties and
    disputes may name even when the card itself has problems."""
    if (ctx.trust_unchanged and ctx.scored_cards.get((round_number, table_number)) is card
            and card is not None and ctx.scored_stake == event_fields["stake_haler"]):
        # Checked and scored when it came: what the round's checks read of it, no more (a
        # card kept apart, archive.parts.Part, is not read for it). A trusted plan's hands and
        # money rows are their numbers.
        hands, money = parts.card_numbers(card)
        return ({"fields": {"status": card["status"], "ruleset_code": card["ruleset_code"]},
                 "hands": hands, "money_rows": money, TRUSTED: True}, set(hands))
    before = len(checker.errors)
    card = checker.obj(parts.read_whole(card), path, (*SCORECARD_FIELDS, "submitted_by", "confirmed_by",
                                    "verified_by", "hands", "money_rows"))
    if card is None:
        return None, set()
    values = checker.fields(Scorecard, SCORECARD_FIELDS, card, path)
    people = _check_card_people(card, path, checker, ctx)
    if values is not None:
        _check_card_values(values, path, checker, regs)
    hands, numbers = _check_card_hands(card, path, checker, ctx)
    rows = _check_money_rows(card, path, checker, regs)
    if len(checker.errors) != before or values is None:
        return None, numbers
    plan = {"fields": values, **people, "hands": hands, "money_rows": rows}
    if (ctx.scored_cards.get((round_number, table_number)) == card
            and ctx.scored_stake == event_fields["stake_haler"]):
        return plan, numbers
    # Only a card without other problems is scored again (the engine would repeat them).
    checker.errors.extend(score_mismatches(card_spec_from_plan(plan, event_fields), path,
                                           round_number, table_number))
    return plan, numbers


def _check_card_people(card: dict, path: str, checker: Checker,
                       ctx: ImportContext) -> dict[str, str | None]:
    """Who submitted, confirmed and verified the card (usernames); the confirmer is a second
    person."""
    people = {}
    for role in ("submitted_by", "confirmed_by", "verified_by"):
        people[role] = checker.username(card.get(role), f"{path}.{role}")
        if people[role]:
            ctx.usernames.add(people[role])
    if people["confirmed_by"] and people["confirmed_by"] == people["submitted_by"]:
        checker.add(f"{path}.confirmed_by", "same_person",
                    _("a scorecard is confirmed by a second person, not the one who submitted "
                      "it"))
    return people


def _check_card_values(values: dict, path: str, checker: Checker, regs: set[int]) -> None:
    """The card's own fields: its version, the reason of an annulled card, and its players,
    start numbers of the event's registrations."""
    if values["version"] < 1:
        checker.add(f"{path}.version", "invalid_number", _("versions begin at 1"))
    if values["status"] == Scorecard.Status.ANNULLED and not values["annulled_reason"]:
        checker.add(f"{path}.annulled_reason", "required",
                    _("an annulled scorecard needs its reason"))
    ids = values["player_ids"]
    if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
        checker.add(f"{path}.player_ids", "invalid_players",
                    _("must be a list of start numbers as text"))
        return
    for k, pid in enumerate(ids):
        if limits.whole_number(pid) not in regs:
            checker.add(f"{path}.player_ids[{k}]", "unknown_registration",
                        _("no registration has the start number %(number)s") % {
                            "number": repr(pid)})


def _check_card_hands(card: dict, path: str, checker: Checker, ctx: ImportContext
                      ) -> tuple[list[dict], set[int]]:
    """The card's hands (plans of the valid ones) and their numbers: from 1, each once; a
    hand is confirmed by a second person."""
    hands = []
    numbers: set[int] = set()
    for i, hand in enumerate(checker.items(card.get("hands", []), f"{path}.hands")):
        hp = f"{path}.hands[{i}]"
        hand = checker.obj(hand, hp, (*HAND_FIELDS, "entered_by", "confirmed_by"))
        if hand is None:
            continue
        hvalues = checker.fields(Hand, HAND_FIELDS, hand, hp)
        entered = checker.username(hand.get("entered_by"), f"{hp}.entered_by")
        confirmed = checker.username(hand.get("confirmed_by"), f"{hp}.confirmed_by")
        ctx.usernames.update(u for u in (entered, confirmed) if u)
        if confirmed and confirmed == entered:
            checker.add(f"{hp}.confirmed_by", "same_person",
                        _("a hand is confirmed by a second person, not the one who entered it"))
        if hvalues is None:
            continue
        if hvalues["number"] < 1:
            checker.add(f"{hp}.number", "invalid_number", _("hand numbers begin at 1"))
        elif hvalues["number"] in numbers:
            checker.add(f"{hp}.number", "duplicate",
                        _("hand %(number)s is given twice") % {"number": hvalues["number"]})
        numbers.add(hvalues["number"])
        hands.append({"fields": hvalues, "entered_by": entered, "confirmed_by": confirmed,
                      "path": hp})
    return hands, numbers


def _check_money_rows(card: dict, path: str, checker: Checker, regs: set[int]) -> list[dict]:
    """The money sheet's rows (plans of the valid ones): one per registration of the event."""
    rows = []
    row_numbers: set[int] = set()
    for i, row in enumerate(checker.items(card.get("money_rows", []), f"{path}.money_rows")):
        rp = f"{path}.money_rows[{i}]"
        row = checker.obj(row, rp, (*MONEY_ROW_FIELDS, "start_number"))
        if row is None:
            continue
        rvalues = checker.fields(MoneySheetRow, MONEY_ROW_FIELDS, row, rp)
        sn = check_refs.start_number(checker, row.get("start_number"), f"{rp}.start_number", regs)
        if sn is None:
            continue
        if sn in row_numbers:
            checker.add(f"{rp}.start_number", "duplicate",
                        _("start number %(number)s has two rows on this money sheet") % {
                            "number": sn})
        row_numbers.add(sn)
        if rvalues is not None:
            rows.append({"fields": rvalues, "start_number": sn})
    return rows


def _check_penalties(body: dict, path: str, checker: Checker, ctx: ImportContext, plan: dict,
                     regs: set[int], tables: dict[tuple[int, int], set[int]]) -> None:
    plan["penalties"] = []
    for i, pen in enumerate(checker.items(body.get("penalties", []), f"{path}.penalties")):
        p = f"{path}.penalties[{i}]"
        pen = checker.obj(pen, p, (*PENALTY_FIELDS, "table", "hand", "start_number", "recorded_by"))
        if pen is None:
            continue
        values = checker.fields(Penalty, PENALTY_FIELDS, pen, p)
        table = check_refs.table_ref(checker, pen.get("table"), f"{p}.table", tables, nullable=False)
        hand = check_refs.hand_ref(checker, pen.get("hand"), f"{p}.hand", table, tables)
        sn = check_refs.start_number(checker, pen.get("start_number"), f"{p}.start_number", regs)
        by = checker.username(pen.get("recorded_by"), f"{p}.recorded_by")
        if by:
            ctx.usernames.add(by)
        plan["penalties"].append({"fields": values, "table": table, "hand": hand,
                                  "start_number": sn, "recorded_by": by})


def _check_adjustments(body: dict, path: str, checker: Checker, ctx: ImportContext, plan: dict,
                       regs: set[int]) -> None:
    plan["standings_adjustments"] = []
    items = checker.items(body.get("standings_adjustments", []), f"{path}.standings_adjustments")
    for i, adj in enumerate(items):
        p = f"{path}.standings_adjustments[{i}]"
        adj = checker.obj(adj, p, (*ADJUSTMENT_FIELDS, "start_number", "created_by"))
        if adj is None:
            continue
        values = checker.fields(StandingsAdjustment, ADJUSTMENT_FIELDS, adj, p)
        if values is not None and not values["reason"]:
            checker.add(f"{p}.reason", "required", _("an adjustment needs a reason"))
        sn = check_refs.start_number(checker, adj.get("start_number"), f"{p}.start_number", regs)
        by = checker.username(adj.get("created_by"), f"{p}.created_by")
        if by:
            ctx.usernames.add(by)
        plan["standings_adjustments"].append({"fields": values, "start_number": sn,
                                              "created_by": by})


def _check_disputes(body: dict, path: str, checker: Checker, ctx: ImportContext, plan: dict,
                    tables: dict[tuple[int, int], set[int]], audit_count: int) -> None:
    plan["disputes"] = []
    for i, dispute in enumerate(checker.items(body.get("disputes", []), f"{path}.disputes")):
        p = f"{path}.disputes[{i}]"
        dispute = checker.obj(dispute, p, (*DISPUTE_FIELDS, "table", "hand", "raised_by",
                                           "decided_by", "correction"))
        if dispute is None:
            continue
        values = checker.fields(Dispute, DISPUTE_FIELDS, dispute, p)
        if values is not None and values["status"] == Dispute.Status.DECIDED and (
                not values["decision"] or values["decided_at"] is None):
            checker.add(f"{p}.decision", "required",
                        _("a decided dispute needs its written decision and the time it was "
                          "decided"))
        table = check_refs.table_ref(checker, dispute.get("table"), f"{p}.table", tables, nullable=True)
        hand = check_refs.hand_ref(checker, dispute.get("hand"), f"{p}.hand", table, tables)
        people = {}
        for role in ("raised_by", "decided_by"):
            people[role] = checker.username(dispute.get(role), f"{p}.{role}")
            if people[role]:
                ctx.usernames.add(people[role])
        correction = dispute.get("correction")
        if correction is not None and (not isinstance(correction, int) or isinstance(correction, bool)
                                       or not 0 <= correction < audit_count):
            checker.add(f"{p}.correction", "unknown_audit_entry",
                        _("must be the index of an entry of audit (0 to %(last)s) or null, got "
                          "%(value)s") % {"last": audit_count - 1, "value": repr(correction)})
            correction = None
        plan["disputes"].append({"fields": values, "table": table, "hand": hand, **people,
                                 "correction": correction})


def resolve_players(checker: Checker, ctx: ImportContext, plans: list[dict]) -> None:
    """Match every archived player to a database player once the whole file has been read
    (federation ids and users first, so a namesake is not taken before its owner), and refuse
    two registrations of one event that turn out to be the same player."""
    entries = [reg for plan in plans for reg in plan["registrations"]]
    ctx.resolver.prefetch([reg["player"] for reg in entries])
    first = [r for r in entries if r["player"][0]["federation_id"] or r["player"][1]]
    rest = [r for r in entries if not (r["player"][0]["federation_id"] or r["player"][1])]
    for reg in [*first, *rest]:
        values, user = reg["player"]
        reg["resolved"] = ctx.resolver.resolve(values, user, reg["occurrence"])
    for plan in plans:
        seen: dict[Any, str] = {}
        for reg in plan["registrations"]:
            found = reg["resolved"]
            key = ("db", found.pk) if isinstance(found, Player) else ("new", id(found))
            if key in seen:
                checker.add(f"{reg['path']}.player", "same_player",
                            _("is the same player as %(other)s") % {"other": seen[key]})
            seen.setdefault(key, reg["path"])
