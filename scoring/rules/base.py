"""The shape every ruleset of the registry has: its data (games, announcements, contra
levels, options) and the one method that scores a validated scorecard.

A ruleset family module (one per seed rulebook family) defines a subclass of `Ruleset`, fills
its tables as data and registers one instance per ruleset code with `rules.register`.
The generic checks of the contract (known ruleset and mode, player list, options) are done
by `scoring.engine` before a ruleset sees the card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.errors import ErrorCollector


@dataclass(frozen=True)
class Option:
    """A named reading of a genuinely open clause; `default` is the most literal reading."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    description: str
    clause: str = ""

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "choices": list(self.choices),
            "description": self.description,
            "clause": self.clause,
        }


@dataclass(frozen=True)
class Game:
    """One game of a ruleset's tariff. `value` is the base value (None where a game has none)."""

    code: str
    name: str
    value: int | None
    modes: tuple[str, ...]
    decided_by: str = "points"  # "points", "tricks" (won true/false), "individual" (klop...)
    extra: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        out = {
            "code": self.code,
            "name": self.name,
            "value": self.value,
            "modes": list(self.modes),
            "decided_by": self.decided_by,
        }
        out.update(self.extra)
        return out


@dataclass(frozen=True)
class Announcement:
    code: str
    name: str
    announced_value: int | None
    silent_value: int | None
    modes: tuple[str, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        out = {
            "code": self.code,
            "name": self.name,
            "announced_value": self.announced_value,
            "silent_value": self.silent_value,
            "modes": list(self.modes),
        }
        out.update(self.extra)
        return out


@dataclass(frozen=True)
class ContraLevel:
    level: int
    name: str
    factor: int

    def describe(self) -> dict[str, Any]:
        return {"level": self.level, "name": self.name, "factor": self.factor}


class Ruleset:
    """Base of every ruleset. Subclasses set the class attributes and implement `score`."""

    code: str = ""
    title: str = ""
    source: str = ""  # seed file and what it is
    unit: str = "points"  # "points" or "haler"
    # mode -> (players at the table, players in a hand); e.g. "tri+1": (4, 3)
    modes: dict[str, tuple[int, int]] = {}
    default_mode: str | None = None
    games: tuple[Game, ...] = ()
    announcements: tuple[Announcement, ...] = ()
    contra_levels: tuple[ContraLevel, ...] = ()
    options: tuple[Option, ...] = ()
    penalty_kinds: tuple[str, ...] = ()
    accepts_sheet: bool = False  # money rulesets: a `sheet` instead of `hands`
    docs: str = ""  # path of the decisions page, e.g. "docs/rulesets/tarok-net-2007.md"

    # -- data lookups -------------------------------------------------------------------
    def game(self, code: str) -> Game | None:
        for g in self.games:
            if g.code == code:
                return g
        return None

    def announcement(self, code: str) -> Announcement | None:
        for a in self.announcements:
            if a.code == code:
                return a
        return None

    def option_defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    # -- description for GET /api/v1/rulesets/ ------------------------------------------
    def describe(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "title": self.title,
            "source": self.source,
            "unit": self.unit,
            "modes": [
                {"code": m, "seats": seats, "players_in_hand": playing}
                for m, (seats, playing) in self.modes.items()
            ],
            "default_mode": self.default_mode,
            "games": [g.describe() for g in self.games],
            "announcements": [a.describe() for a in self.announcements],
            "contra_levels": [c.describe() for c in self.contra_levels],
            "options": [o.describe() for o in self.options],
            "penalty_kinds": list(self.penalty_kinds),
            "accepts_sheet": self.accepts_sheet,
            "hand_schema": self.hand_schema(),
            "docs": self.docs,
        }

    def hand_schema(self) -> dict[str, Any]:
        """JSON Schema (draft 2020-12) of one hand of this ruleset. Subclasses may refine it."""
        contra_on = ["game", "klop"] + [a.code for a in self.announcements]
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"Hand of {self.code}",
            "type": "object",
            "required": ["game"],
            "properties": {
                "game": {"enum": [g.code for g in self.games]},
                "declarer": {"type": "string"},
                "partner": {"type": ["string", "null"]},
                "resting": {"type": "string"},
                "forehand": {"type": "string"},
                "points": {"type": "integer", "minimum": 0, "maximum": 70},
                "won": {"type": "boolean"},
                "points_by_player": {
                    "type": "object",
                    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 70},
                },
                "tricks_by_player": {
                    "type": "object",
                    "additionalProperties": {"type": "integer", "minimum": 0},
                },
                "announcements": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["name", "by"],
                        "properties": {
                            "name": {"enum": [a.code for a in self.announcements]},
                            "by": {"type": "string"},
                            "announced": {"type": "boolean"},
                            "achieved": {"type": "boolean"},
                            "held": {"type": "boolean"},
                        },
                    },
                },
                "contras": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["on", "by", "level"],
                        "properties": {
                            "on": {"enum": contra_on},
                            "by": {"type": "string"},
                            "level": {"enum": [c.level for c in self.contra_levels]},
                        },
                    },
                },
                "penalties": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["kind", "player"],
                        "properties": {
                            "kind": {"enum": list(self.penalty_kinds)},
                            "player": {"type": "string"},
                        },
                    },
                },
            },
        }

    # -- scoring --------------------------------------------------------------------------
    def score(
        self,
        mode: str,
        players: list[str],
        hands: list[dict[str, Any]],
        options: dict[str, Any],
        errors: ErrorCollector,
    ) -> list[dict[str, Any]] | None:
        """Validate and score every hand in order.

        Returns one result dict per hand ({"value", "scores", "state", "lines", ...}) or
        None after adding every problem found to `errors`. Must not return a partial result
        when `errors` is non-empty.
        """
        raise NotImplementedError("each ruleset family implements score()")

    def score_sheet(
        self, sheet: dict[str, Any], options: dict[str, Any], errors: ErrorCollector
    ) -> dict[str, Any] | None:
        """Money rulesets: validate a round's money sheet and return the result dict."""
        errors.add(None, "sheet", "sheet_not_supported",
                   f"ruleset {self.code} scores hands, not a money sheet")
        return None
