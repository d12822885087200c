"""Validation errors of the scoring contract: one shape for every entry point.

An error names the hand (0-based index, or None for the scorecard as a whole), the field,
a stable machine code and an English message. The engine collects every problem before it
refuses a scorecard, so this module offers a collector as well as the exception.

The list is capped at `MAX_ERRORS` entries: a card of 100,000 bad hands would otherwise give
100,000 errors, more than any reader or client can use. The problems beyond the cap are still
counted, and a closing entry `{"hand": null, "field": "hands", "code": "more_errors",
"params": {"count": N}}` says how many were left out (docs/contracts/scorecard.md, Errors).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The most errors a refusal lists before its closing "and N more" entry.
MAX_ERRORS = 100

# The one list of every `code` the engine gives, for every ruleset (docs/contracts/scorecard.md,
# "Error codes", lists the same codes with their meaning; tests hold the two, the rulesets'
# source and the API schema's enum in step). Stable: a code is never reused for another meaning,
# so a new kind of problem gets a new code here.
ERROR_CODES: tuple[str, ...] = (
    "amount_not_in_coins",
    "announcement_by_defender",
    "announcement_by_not_a_player",
    "announcement_by_resting_player",
    "announcement_by_wrong_player",
    "announcement_by_wrong_side",
    "announcement_conflict",
    "announcement_not_allowed",
    "announcement_not_in_mode",
    "claim_by_renoncer",
    "claim_not_achieved",
    "conceded_and_won",
    "conceded_not_allowed",
    "conceded_with_renons",
    "conflicting_penalties",
    "contra_by_not_a_player",
    "contra_by_wrong_side",
    "contra_level_not_allowed",
    "contra_not_allowed",
    "contra_on_missing_announcement",
    "contra_on_silent",
    "contra_out_of_order",
    "declarer_not_a_player",
    "declarer_not_forehand",
    "druha_povinnost_needs_pagat",
    "duplicate_announcement",
    "duplicate_penalty",
    "duplicate_player",
    "eyes_without_tricks",
    "field_not_allowed",
    "forehand_not_a_player",
    "game_not_in_mode",
    "hands_and_sheet",
    "held_announcement_cannot_fail",
    "held_not_used",
    "impossible_together",
    "initial_state_not_supported",
    "invalid_called_tarok",
    "invalid_contra",
    "invalid_contra_level",
    "invalid_count",
    "invalid_name",
    "invalid_option",
    "invalid_penalty",
    "invalid_player",
    "invalid_players",
    "invalid_round",
    "invalid_stake",
    "invalid_table",
    "klop_points_do_not_add_up",
    "missing",
    "more_errors",
    "named_vogerl_missing",
    "negative_money",
    "negative_top_up",
    "no_tarok_on_played_hand",
    "not_a_boolean",
    "not_a_list",
    "not_a_player",
    "not_a_string",
    "not_allowed_after_misdeal",
    "not_an_integer",
    "not_an_object",
    "out_of_range",
    "partner_is_declarer",
    "partner_not_a_player",
    "partner_not_allowed",
    "penalty_not_allowed_in_game",
    "penalty_player_not_a_player",
    "points_do_not_add_up",
    "points_out_of_range",
    "resting_not_a_player",
    "resting_not_allowed",
    "resting_player_declares",
    "sechserdreier_not_forehand",
    "sheet_does_not_add_up",
    "sheet_not_supported",
    "silent_not_achieved",
    "silent_not_allowed",
    "silent_not_realised",
    "silent_premium_cannot_fail",
    "solo_follows_game",
    "solo_is_announced",
    "solo_with_partner",
    "too_many_contras",
    "top_up_not_in_steps",
    "total_mismatch",
    "tricks_contradict_points",
    "tricks_do_not_add_up",
    "tricks_do_not_match_points",
    "trischaken_blatt_needed",
    "trischaken_points_do_not_add_up",
    "unknown_announcement",
    "unknown_field",
    "unknown_game",
    "unknown_mode",
    "unknown_option",
    "unknown_ruleset",
    "valat_contradicts_points",
    "valat_contradicts_won",
    "valat_points_inconsistent",
    "valat_points_mismatch",
    "won_contradicts_points",
    "wrong_player_count",
)

# Codes of a refusal of the text itself, given by an entry point before the engine reads a
# scorecard (docs/contracts/scorecard.md, "Errors"): over HTTP a body that is not JSON at all is
# `parse_error`, the command says `invalid_json` (or `not_utf8`, `unreadable`).
HTTP_INPUT_CODES: tuple[str, ...] = ("invalid_text", "not_a_number", "parse_error", "too_deep")
COMMAND_INPUT_CODES: tuple[str, ...] = ("invalid_json", "invalid_text", "not_a_number", "not_utf8",
                                        "too_deep", "unreadable")


@dataclass(frozen=True)
class ScoringError:
    hand: int | None
    field: str
    code: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "field": self.field,
            "code": self.code,
            "message": self.message,
        }
        if self.params:
            out["params"] = dict(self.params)
        return out


class ScorecardInvalid(Exception):
    """Raised by `scoring.evaluate` when anything in the scorecard is wrong.

    `.errors` is the list of error dicts of the contract (every problem, not only the first,
    up to `MAX_ERRORS` and a closing `more_errors` entry).
    """

    def __init__(self, errors: list[dict[str, Any]]):
        self.errors = errors
        summary = "; ".join(
            f"hand {e['hand']}: {e['field']}: {e['message']}" if e["hand"] is not None
            else f"{e['field']}: {e['message']}"
            for e in errors[:5]
        )
        more = f" (+{len(errors) - 5} more)" if len(errors) > 5 else ""
        super().__init__(f"scorecard invalid: {summary}{more}")


class ErrorCollector:
    """Gathers every problem of a scorecard so that all of them are reported at once.

    `len()` counts every problem added, also those beyond the cap, so a caller can still tell
    whether a step added any."""

    def __init__(self) -> None:
        self._errors: list[ScoringError] = []
        self._left_out = 0

    def add(self, hand: int | None, field: str, code: str, message: str, **params: Any) -> None:
        if len(self._errors) < MAX_ERRORS:
            self._errors.append(ScoringError(hand, field, code, message, params))
        else:
            self._left_out += 1

    def __bool__(self) -> bool:
        return bool(self._errors)

    def __len__(self) -> int:
        return len(self._errors) + self._left_out

    def as_list(self) -> list[dict[str, Any]]:
        out = [e.as_dict() for e in self._errors]
        if self._left_out:
            n = self._left_out
            out.append(ScoringError(None, "hands", "more_errors",
                                    f"and {n} more error{'' if n == 1 else 's'}",
                                    {"count": n}).as_dict())
        return out

    def raise_if_any(self) -> None:
        if self._errors:
            raise ScorecardInvalid(self.as_list())
