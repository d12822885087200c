"""The declarations a ruleset is made of, as plain data: its modes, options with their
choices and labels, games, announcements, contra levels, penalties, money and cup points;
and the names of the sheet kinds and of the kinds of carried state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# The sheets a table writes on (tournaments' printouts pick the paper by these).
SHEET_POINTS = "points"    # one row per game, a column per player
SHEET_TRI1 = "tri1"        # seed 000 §3: TRI + 1, the dealer rests
SHEET_SCHRIFT = "schrift"  # seed 001: Königrufen, plus and minus, every row sums to zero
SHEET_MONEY = "money"      # seed 004: the round's money sheet
SHEET_KINDS = (SHEET_POINTS, SHEET_TRI1, SHEET_SCHRIFT, SHEET_MONEY)

# How a field of the carried state is kept: a count per player, or one count for the table.
PER_PLAYER = "per_player"
COUNT = "count"


@dataclass(frozen=True)
class Mode:
    """A table form: how many players sit on the card and how many play each hand."""

    code: str
    seats: int
    players_in_hand: int
    # other table sizes the mode accepts (TRI + 1 at a table of three, without a resting player)
    other_seat_counts: tuple[int, ...] = ()
    # whether a hand of this form may have contras, and which penalty kinds it knows (None:
    # every kind of the ruleset); two-player tarok (Tarok.net §2.2) has neither
    contras: bool = True
    penalty_kinds: tuple[str, ...] | None = None
    # whether the ruleset's carried state (radelci) is kept in this form
    carries_state: bool = True

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return (self.seats, *self.other_seat_counts)

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "seats": self.seats,
                               "players_in_hand": self.players_in_hand,
                               "seat_counts": list(self.seat_counts), "contras": self.contras}
        if not self.carries_state:
            out["carries_state"] = False
        if self.penalty_kinds is not None:
            out["penalty_kinds"] = list(self.penalty_kinds)
        return out


@dataclass(frozen=True)
class Choice:
    """One value of an option and what a person is shown for it."""

    value: Any
    label: str


# The choices of a yes/no option, the default first.
YES_NO = (Choice(True, "yes"), Choice(False, "no"))
NO_YES = (Choice(False, "no"), Choice(True, "yes"))


@dataclass(frozen=True)
class Option:
    """A named reading of a genuinely open clause; `default` is the most literal reading."""

    name: str
    label: str
    default: Any
    choices: tuple[Choice, ...]
    description: str
    clause: str = ""

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(c.value for c in self.choices)

    def accepts(self, value: Any) -> bool:
        # True is not 1: a JSON boolean is no answer to a numeric option, nor the reverse
        return type(value) is type(self.default) and value in self.values

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "default": self.default,
            "choices": list(self.values),
            "choice_labels": [{"value": c.value, "label": c.label} for c in self.choices],
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
    # "played": decided by the play; "held": shown from the hand at the start and never lost
    # (the Czech hlášky such as trul)
    kind: str = "played"

    def describe(self) -> dict[str, Any]:
        out = {
            "code": self.code,
            "name": self.name,
            "announced_value": self.announced_value,
            "silent_value": self.silent_value,
            "modes": list(self.modes),
            "kind": self.kind,
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


@dataclass(frozen=True)
class Penalty:
    """A penalty kind of `penalties[].kind`. `value` is the fixed amount the seed gives (in the
    ruleset's unit, what the offender loses, or pays each other player in money rules); None
    where the amount depends on the hand, as `rule` says."""

    kind: str
    name: str
    value: int | None
    rule: str
    clause: str

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "value": self.value, "rule": self.rule,
                "clause": self.clause}


@dataclass(frozen=True)
class Coin:
    coin: int
    count: int


@dataclass(frozen=True)
class Money:
    """The money of a money ruleset, every amount in its smallest unit (`unit` of the result)."""

    currency: str           # what the players write: "Kč"
    subunit: str            # the unit of the amounts: "haléř"
    subunits_per_unit: int  # 100 haléř = 1 Kč
    smallest_coin: int      # no amount on the table is finer than this
    stake_bag: tuple[Coin, ...]
    top_up_step: int
    game_cap: int
    clause: str

    @property
    def stake(self) -> int:
        return sum(c.coin * c.count for c in self.stake_bag)

    def describe(self) -> dict[str, Any]:
        return {
            "currency": self.currency,
            "subunit": self.subunit,
            "subunits_per_unit": self.subunits_per_unit,
            "smallest_coin": self.smallest_coin,
            "stake": self.stake,
            "stake_bag": [{"coin": c.coin, "count": c.count} for c in self.stake_bag],
            "top_up_step": self.top_up_step,
            "game_cap": self.game_cap,
            # the step every amount is rounded up to: the smallest coin
            "rounding_step": self.smallest_coin,
            "clause": self.clause,
        }


@dataclass(frozen=True)
class CupPoints:
    """The fixed cup points of a cup series and how a player's series total is formed."""

    places: Mapping[int, int]  # only the places the seed names
    complete: bool             # False: the organiser completes the table
    best_results: int
    plus_final: bool
    tournaments_to_qualify_for_final: int
    rounds_per_tournament: int
    clause: str

    def describe(self) -> dict[str, Any]:
        return {
            "seed_places": {str(k): v for k, v in self.places.items()},
            "complete": self.complete,
            "note": "only the places the seed names; the organiser completes the table",
            "counting": {
                "best_results": self.best_results,
                "plus_final": self.plus_final,
                "tournaments_to_qualify_for_final": self.tournaments_to_qualify_for_final,
                "rounds_per_tournament": self.rounds_per_tournament,
            },
            "clause": self.clause,
        }
