"""Checking stored scores against the scoring engine: every card of an archive (or of the
database) is scored again and must give exactly the stored values."""

from __future__ import annotations

import json
from typing import Any

from django.db import models
from django.utils.translation import gettext as _

import scoring
from tournaments.archive.format import HAND_FIELDS, MONEY_ROW_FIELDS, json_values
from tournaments.engine_text import error_text
from tournaments.models import (
    Event,
    Hand,
    MoneySheetRow,
    Scorecard,
)


def _normal(value: Any) -> Any:
    """JSON's view of a value, so tuples and lists, or key order, do not count as changes."""
    return json.loads(json.dumps(value, sort_keys=True))


def _differ(stored: Any, engine: Any) -> bool:
    """Whether a stored value differs from the engine's in JSON's view. Equal values are
    the rule: they are told apart at C speed, and only a difference (a tuple for a list) is
    looked at in JSON's view."""
    return stored != engine and _normal(stored) != _normal(engine)


def card_spec_from_plan(plan: dict, event_fields: dict) -> dict[str, Any]:
    return {
        "ruleset_code": plan["fields"]["ruleset_code"],
        "ruleset_mode": plan["fields"]["ruleset_mode"],
        "ruleset_options": plan["fields"]["ruleset_options"],
        "player_ids": plan["fields"]["player_ids"],
        "totals": plan["fields"]["totals"],
        "state": plan["fields"]["state"],
        "stake": event_fields["stake_haler"],
        "hands": [dict(h["fields"]) for h in sorted(plan["hands"], key=lambda h: h["fields"]["number"])],
        "hand_paths": [h["path"] for h in sorted(plan["hands"], key=lambda h: h["fields"]["number"])],
        "money_rows": {str(r["start_number"]): r["fields"] for r in plan["money_rows"]},
    }


def _card_spec_from_db(card: Scorecard, stake: int | None, hands: list[dict[str, Any]],
                       money_rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "ruleset_code": card.ruleset_code, "ruleset_mode": card.ruleset_mode,
        "ruleset_options": card.ruleset_options, "player_ids": card.player_ids,
        "totals": card.totals, "state": card.state, "stake": stake,
        "hands": hands, "hand_paths": [f"hand {h['number']}" for h in hands],
        "money_rows": money_rows,
    }


def score_mismatches(spec: dict[str, Any], path: str, round_number: int | None,
                     table_number: int | None) -> list[dict[str, Any]]:
    """Score the card again with the engine and list every stored value that differs: the
    archive is then corrupt, or was written by a different engine version. The messages are
    in the active language, the engine's own refusals too (rendered from their codes)."""
    rescore = _Rescore(spec, path, round_number, table_number)
    if spec["hands"]:
        rescore.hands()
    elif spec["money_rows"]:
        rescore.money_rows()
    return rescore.problems


class _Rescore:
    """One card scored again: where it is (for the messages) and the problems found, each
    at the path of the stored value that differs."""

    def __init__(self, spec: dict[str, Any], path: str, round_number: int | None,
                 table_number: int | None) -> None:
        self.spec = spec
        self.path = path
        self.round_number = round_number
        self.table_number = table_number
        self.where = _("round %(round)s, table %(table)s") % {"round": round_number,
                                                               "table": table_number}
        self.engine_note = _("the archive is corrupt or comes from a different version of the "
                             "scoring engine")
        self.problems: list[dict[str, Any]] = []

    def add(self, p: str, code: str, message: str, hand: int | None = None) -> None:
        self.problems.append({"hand": hand, "field": p, "code": code, "message": f"{p}: {message}"})

    def totals_differ(self, result: dict[str, Any]) -> str:
        return _("%(where)s: the stored totals %(stored)s differ from the engine's %(engine)s; "
                 "%(note)s") % {"where": self.where, "stored": _normal(self.spec["totals"]),
                                "engine": _normal(result["totals"]), "note": self.engine_note}

    def hands(self) -> None:
        """A card of hands: each hand's stored value, scores, running totals, state, lines
        and payout, then the card's totals and its state after the last hand."""
        spec = self.spec
        card: dict[str, Any] = {"ruleset": spec["ruleset_code"], "players": list(spec["player_ids"]),
                                "hands": [h["record"] for h in spec["hands"]]}
        if spec["ruleset_mode"]:
            card["mode"] = spec["ruleset_mode"]
        if spec["ruleset_options"]:
            card["options"] = spec["ruleset_options"]
        try:
            result = scoring.evaluate(card)
        except scoring.ScorecardInvalid as exc:
            for error in exc.errors:
                # An error of a hand is named at the hand, one of the card at the card.
                index = error.get("hand")
                p = spec["hand_paths"][index] if isinstance(index, int) and index < len(
                    spec["hand_paths"]) else self.path
                self.add(f"{p}.record", "engine_refuses",
                         _("%(where)s: the scoring engine refuses this scorecard (%(error)s); "
                           "%(note)s") % {"where": self.where,
                                          "error": error_text(error, spec["ruleset_code"]),
                                          "note": self.engine_note}, index)
            return
        self._compare_hands(result)
        if _differ(spec["totals"], result["totals"]):
            self.add(f"{self.path}.totals", "score_mismatch", self.totals_differ(result))
        last_state = result["hands"][-1].get("state", {})
        if _differ(spec["state"], last_state):
            self.add(f"{self.path}.state", "score_mismatch",
                     _("%(where)s: the stored state differs from the engine's after the last hand; "
                       "%(note)s") % {"where": self.where, "note": self.engine_note})

    def _compare_hands(self, result: dict[str, Any]) -> None:
        """Each stored hand against the engine's; the running totals are added up here."""
        spec = self.spec
        running = {p: 0 for p in spec["player_ids"]}
        for i, (stored, scored) in enumerate(zip(spec["hands"], result["hands"], strict=True)):
            for p, s in scored["scores"].items():
                running[p] = running.get(p, 0) + s
            expected = {"value": scored["value"], "scores": scored["scores"],
                        "running_totals": dict(running), "state": scored.get("state", {}),
                        "lines": scored.get("lines", []), "payout": scored.get("payout")}
            for name, value in expected.items():
                if _differ(stored[name], value):
                    values = {"where": self.where, "hand": stored["number"], "name": name,
                              "stored": _normal(stored[name]), "engine": _normal(value),
                              "note": self.engine_note}
                    # Lines and state are too long to quote in a message.
                    if name in ("lines", "state"):
                        message = _("%(where)s, hand %(hand)s: the stored %(name)s differ from "
                                    "what the scoring engine computes; %(note)s") % values
                    else:
                        message = _("%(where)s, hand %(hand)s: the stored %(name)s differ from "
                                    "what the scoring engine computes: stored %(stored)s, engine "
                                    "%(engine)s; %(note)s") % values
                    self.add(f"{spec['hand_paths'][i]}.{name}", "score_mismatch", message, i)

    def money_rows(self) -> None:
        """A money sheet: each row's stored result, then the card's totals."""
        spec, path = self.spec, self.path
        sheet = {"table": self.table_number, "round": self.round_number, "stake": spec["stake"],
                 "players": [{"player": pid, "bought": (spec["money_rows"].get(pid) or {}).get("bought_haler", 0),
                              "money": (spec["money_rows"].get(pid) or {}).get("money_haler")}
                             for pid in spec["player_ids"]]}
        card = {"ruleset": spec["ruleset_code"], "sheet": sheet}
        if spec["ruleset_options"]:
            card["options"] = spec["ruleset_options"]
        try:
            result = scoring.evaluate(card)
        except scoring.ScorecardInvalid as exc:
            for error in exc.errors:
                self.add(f"{path}.money_rows", "engine_refuses",
                         _("%(where)s: the scoring engine refuses this money sheet (%(error)s); "
                           "%(note)s") % {"where": self.where,
                                          "error": error_text(error, spec["ruleset_code"]),
                                          "note": self.engine_note})
            return
        for pid, row in sorted(spec["money_rows"].items()):
            if row["result_haler"] != result["totals"].get(pid):
                self.add(f"{path}.money_rows", "score_mismatch",
                         _("%(where)s, start number %(number)s: the stored result %(stored)s h "
                           "differs from the engine's %(engine)s h; %(note)s") % {
                             "where": self.where, "number": pid, "stored": row["result_haler"],
                             "engine": result["totals"].get(pid), "note": self.engine_note})
        if _differ(spec["totals"], result["totals"]):
            self.add(f"{path}.totals", "score_mismatch", self.totals_differ(result))


def checked_cards(plan: dict) -> dict[tuple[int, int], dict[str, Any]]:
    """The cards of a checked event plan as the engine checked them (`card_spec_from_plan`),
    by (round, table)."""
    return {(rplan["fields"]["number"], tplan["fields"]["number"]):
            card_spec_from_plan(tplan["scorecard"], plan["fields"])
            for rplan in plan["rounds"] for tplan in rplan["tables"] if tplan["scorecard"] is not None}


def _as_checked(spec: dict[str, Any], checked: dict[str, Any] | None) -> bool:
    """Whether a stored card holds exactly what the archive's check gave to the engine and
    found to be the engine's own results: every input (ruleset, players, records, stake,
    money) and every stored result (each hand's, the card's totals and state)."""
    if checked is None:
        return False
    return all(spec[key] == checked[key] for key in (
        "ruleset_code", "ruleset_mode", "ruleset_options", "player_ids", "totals", "state", "stake",
        "hands", "money_rows"))


def verify_event_scores(event: Event, cards: set[tuple[int, int]] | None = None,
                        checked: dict[tuple[int, int], dict[str, Any]] | None = None
                        ) -> list[dict[str, Any]]:
    """Score every scorecard of a stored event again (or only `cards`, by (round, table)) and
    list where the stored values differ.

    `checked`: the cards of the archive just written, as the import's check scored them
    (`checked_cards`). A stored card that holds exactly those values gives what the engine gave
    for them (the engine is a pure function), so it is not scored a second time; any other is."""
    problems = []
    stored = (Scorecard.objects.filter(table__round__event=event)
              .select_related("table__round").order_by("table__round__number", "table__number"))
    if cards is not None:
        keys = models.Q(pk__in=[])
        for rnd, number in cards:
            keys |= models.Q(table__round__number=rnd, table__number=number)
        stored = stored.filter(keys)
    stored = list(stored)
    ids = [card.pk for card in stored]
    # The cards' hands and money rows with one query each (not two a card), as plain values.
    hands: dict[int, list[dict[str, Any]]] = {}
    for h in json_values(Hand.objects.filter(scorecard_id__in=ids).order_by("scorecard_id", "number"),
                         "scorecard_id", *HAND_FIELDS):
        hands.setdefault(h.pop("scorecard_id"), []).append(h)
    rows: dict[int, dict[str, dict[str, Any]]] = {}
    for r in (MoneySheetRow.objects.filter(scorecard_id__in=ids)
              .values("scorecard_id", "registration__start_number", *MONEY_ROW_FIELDS)):
        rows.setdefault(r["scorecard_id"], {})[str(r["registration__start_number"])] = {
            n: r[n] for n in MONEY_ROW_FIELDS}
    for card in stored:
        rnd, number = card.table.round.number, card.table.number
        spec = _card_spec_from_db(card, event.stake_haler, hands.get(card.pk, []), rows.get(card.pk, {}))
        if _as_checked(spec, (checked or {}).get((rnd, number))):
            continue
        problems.extend(score_mismatches(spec, f"{event.slug}: round {rnd} table {number}", rnd, number))
    return problems
