"""The audit trail of an archive and the references in it: an entry's actor, table and target,
and the table, hand and start number a penalty, a dispute or an adjustment names. Each check
adds what is wrong to the checker at its path and returns the resolved reference (None when it
does not resolve); nothing is written.

The event archive's check (`tournaments.archive.check_event`) and the leagues' archives
(`leagues.archive`, `leagues.archive_cups`, through `check_audit_list`) share them: a trail is
read the same way wherever it is kept."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.db import models
from django.utils.translation import gettext as _

from tournaments.archive import parts
from tournaments.archive.check import Checker
from tournaments.archive.format import AUDIT_FIELDS, TARGET_KEYS
from tournaments.models import AuditEntry

if TYPE_CHECKING:
    from tournaments.archive.check_event import ImportContext


def check_audit(body: dict, path: str, checker: Checker, ctx: ImportContext, plan: dict,
                regs: set[int], tables: dict[tuple[int, int], set[int]],
                event_fields: dict) -> None:
    """Plan the event's trail into `plan["audit"]`. With `ctx.trust_unchanged`, a trail that
    begins with the very entries checked before (`ctx.checked_audit`) checks only the ones
    after them."""
    counts = {"penalty": len(plan["penalties"]), "dispute": len(plan["disputes"]),
              "adjustment": len(plan["standings_adjustments"])}
    rounds = {r for r, _table in tables}

    def check_ref(type_label: str, ref: Any, p: str) -> Any:
        keys = TARGET_KEYS.get(type_label)
        if keys is None:
            checker.add(p, "unknown_ref", _("objects of type %(type)s are named by null") % {
                "type": repr(type_label)})
            return None
        return target_ref(checker, ref, p, keys, regs, rounds, tables, counts, event_fields)

    items = body.get("audit", [])
    checked = ctx.checked_audit if ctx.trust_unchanged else None
    tail = _unchanged_tail(checked, items) if checked is not None else None
    if tail is not None:
        # The earlier trail, unchanged (the same objects, or its chunks kept, unread), was
        # checked when it came: only the entries after it are, at their own paths.
        start = len(checked)
        plan["audit"] = [None] * start + check_audit_list(
            tail, f"{path}.audit", checker, ctx, check_ref, tables, start=start)
        return
    if isinstance(items, parts.Trail):
        items = list(items)
    plan["audit"] = check_audit_list(items, f"{path}.audit", checker, ctx, check_ref, tables)


def _unchanged_tail(checked: Any, items: Any) -> list | None:
    """The entries of the trail `items` after the trail `checked`, when it begins with the very
    entries of `checked` (or with its very chunks); None otherwise."""
    if isinstance(items, parts.Trail):
        if not isinstance(checked, parts.Trail) or len(items) < len(checked):
            return None
        full = len(checked) // parts.TRAIL_CHUNK
        start = full * parts.TRAIL_CHUNK
        if not (all(a is b for a, b in zip(items.chunks[:full], checked.chunks[:full], strict=True))
                and all(a is b for a, b in zip(items[start:len(checked)], checked[start:],
                                               strict=True))):
            return None
        return items[len(checked):]
    if (isinstance(items, list) and isinstance(checked, list) and len(items) >= len(checked)
            and all(new is old for new, old in zip(items, checked, strict=False))):
        return items[len(checked):]
    return None


def check_audit_list(items: Any, path: str, checker: Checker, ctx: ImportContext,
                     check_ref: Any, tables: dict[tuple[int, int], set[int]] | None,
                     start: int = 0) -> list[dict]:
    """Plans of the entries of an audit list. `check_ref(type, ref, path)` checks the natural
    key of an entry's object and returns it (None when it does not resolve); `tables` are the
    tables an entry may name (None: entries name no table). `start`: the index in the whole
    list of `items`' first entry (its paths)."""
    out = []
    for i, entry in enumerate(checker.items(items, path), start):
        p = f"{path}[{i}]"
        entry = checker.obj(entry, p, (*AUDIT_FIELDS, "actor", "table", "target"))
        if entry is None:
            continue
        values = checker.fields(AuditEntry, AUDIT_FIELDS, entry, p)
        actor = checker.username(entry.get("actor"), f"{p}.actor")
        if actor:
            ctx.usernames.add(actor)
        if tables is None:
            table = None
            if entry.get("table") is not None:
                checker.add(f"{p}.table", "unexpected_table", _("must be null here"))
        else:
            table = table_ref(checker, entry.get("table"), f"{p}.table", tables, nullable=True)
        target = checker.obj(entry.get("target"), f"{p}.target", ("type", "ref"))
        type_label = ref = None
        if target is not None:
            type_label = target.get("type")
            if _model_of(type_label) is None:
                checker.add(f"{p}.target.type", "unknown_type",
                            _("%(type)s is not a model of this application") % {
                                "type": repr(type_label)})
            elif target.get("ref") is not None:
                ref = check_ref(type_label, target["ref"], f"{p}.target.ref")
        out.append({"fields": values, "actor": actor, "table": table, "type": type_label,
                    "ref": ref})
    return out


def target_ref(checker: Checker, ref: Any, path: str, keys: tuple[str, ...],
                      regs: set[int], rounds: set[int], tables: dict[tuple[int, int], set[int]],
                      counts: dict[str, int], event_fields: dict) -> dict | None:
    ref = checker.obj(ref, path, keys)
    if ref is None:
        return None
    if keys == ("slug",):
        if ref.get("slug") != event_fields["slug"]:
            checker.add(f"{path}.slug", "unknown_event",
                        _("names another event than this one"))
            return None
        return ref
    resolved = True
    if "round" in ref and "table" not in ref and ref["round"] not in rounds:
        checker.add(f"{path}.round", "unknown_round",
                    _("there is no round %(round)s") % {"round": repr(ref["round"])})
        resolved = False
    if "table" in ref and (ref.get("round"), ref["table"]) not in tables:
        checker.add(f"{path}.table", "unknown_table",
                    _("there is no table %(table)s in round %(round)s") % {
                        "table": repr(ref["table"]), "round": repr(ref.get("round"))})
        resolved = False
    if "hand" in ref and resolved and ref["hand"] not in tables[(ref["round"], ref["table"])]:
        checker.add(f"{path}.hand", "unknown_hand",
                    _("that table has no hand %(hand)s") % {"hand": repr(ref["hand"])})
        resolved = False
    if "start_number" in ref and ref["start_number"] not in regs:
        checker.add(f"{path}.start_number", "unknown_registration",
                    _("no registration has the start number %(number)s") % {
                        "number": repr(ref["start_number"])})
        resolved = False
    if "position" in ref and not isinstance(ref["position"], int):
        checker.add(f"{path}.position", "invalid_number", _("must be a seat position"))
        resolved = False
    for name, count in counts.items():
        if name in ref and (not isinstance(ref[name], int) or isinstance(ref[name], bool)
                            or not 0 <= ref[name] < count):
            checker.add(f"{path}.{name}", f"unknown_{name}",
                        _("must be an index into the event's %(list)s list, got %(value)s") % {
                            "list": name, "value": repr(ref[name])})
            resolved = False
    return ref if resolved else None


def _model_of(label: Any) -> type[models.Model] | None:
    if not isinstance(label, str) or label.count(".") != 1:
        return None
    try:
        return apps.get_model(label)
    except (LookupError, ValueError):
        return None


def table_ref(checker: Checker, ref: Any, path: str,
                     tables: dict[tuple[int, int], set[int]], *, nullable: bool
                     ) -> tuple[int, int] | None:
    if ref is None:
        if not nullable:
            checker.add(path, "null", _("may not be null"))
        return None
    ref = checker.obj(ref, path, ("round", "table"))
    if ref is None:
        return None
    key = (ref.get("round"), ref.get("table"))
    if key not in tables:
        checker.add(path, "unknown_table", _("there is no table %(table)s in round %(round)s") % {
            "table": repr(key[1]), "round": repr(key[0])})
        return None
    return key


def hand_ref(checker: Checker, number: Any, path: str, table: tuple[int, int] | None,
                    tables: dict[tuple[int, int], set[int]]) -> int | None:
    if number is None:
        return None
    if table is None:
        checker.add(path, "hand_without_table",
                    _("a hand is named only together with its table"))
        return None
    if number not in tables[table]:
        checker.add(path, "unknown_hand",
                    _("round %(round)s table %(table)s has no hand %(hand)s") % {
                        "round": table[0], "table": table[1], "hand": repr(number)})
        return None
    return number


def start_number(checker: Checker, sn: Any, path: str, regs: set[int]) -> int | None:
    """`sn` when it is the start number of one of the event's registrations `regs`; None, and
    the problem added at `path`, otherwise (a seat, a money row, a penalty, an adjustment)."""
    if not isinstance(sn, int) or isinstance(sn, bool) or sn not in regs:
        checker.add(path, "unknown_registration",
                    _("no registration has the start number %(number)s") % {"number": repr(sn)})
        return None
    return sn
