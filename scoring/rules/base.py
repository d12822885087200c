"""The one shape every ruleset of the registry has.

`Ruleset` declares, as data, everything the engine, the pages and the printouts ask of a
ruleset: its modes with their seat counts, games, announcements, contra levels, options (with
their choices and labels), penalties with their values, whether it carries state from hand to
hand and what that state starts as, the kind of sheet its tables write on, what its score
column is called, its money (money rulesets) and its cup points (a cup series).

It also runs every scorecard the same way (`Ruleset.score`): parse each hand, check that what
it says can be true, then score the hands in order while the carried state moves on. A family
package (`scoring/rules/<family>/`) writes only its tables and its rules: the three hooks
`parse_hand`, `check_hand` and `score_hand`, and a `Card` subclass when its hands share more
than the mode, the players and the options. The generic checks of the contract (known
ruleset and mode, player list, options) are done by `scoring.engine` before a ruleset sees
the card.
"""

from __future__ import annotations

from typing import Any

from scoring.errors import ErrorCollector
from scoring.rules.checks import is_int
from scoring.rules.declarations import (
    COUNT,
    NO_YES,
    PER_PLAYER,
    SHEET_KINDS,
    SHEET_MONEY,
    SHEET_POINTS,
    SHEET_SCHRIFT,
    SHEET_TRI1,
    YES_NO,
    Announcement,
    Choice,
    Coin,
    ContraLevel,
    CupPoints,
    Game,
    Mode,
    Money,
    Option,
    Penalty,
)

STRING = {"type": "string"}


def object_list_schema(required: list[str], properties: dict[str, Any],
                       closed: bool = True) -> dict[str, Any]:
    """JSON Schema of a list of objects of a hand (announcements, contras, penalties);
    `closed`: no other fields."""
    item: dict[str, Any] = {"type": "object", "required": required, "properties": properties}
    if closed:
        item["additionalProperties"] = False
    return {"type": "array", "items": item}


def announcement_properties(names: list[str], held: bool = False) -> dict[str, Any]:
    """The fields of an announcement of the contract, `names` its possible names."""
    out: dict[str, Any] = {"name": {"enum": names}, "by": STRING,
                           "announced": {"type": "boolean"}, "achieved": {"type": "boolean"}}
    if held:
        out["held"] = {"type": "boolean"}
    return out


class Card:
    """What every hand of one scorecard shares: its mode, its players in seat order and the
    effective options. A family subclasses it to keep what it works out once per card."""

    __slots__ = ("mode", "options", "players", "pset", "ruleset")

    def __init__(self, ruleset: Ruleset, mode: str, players: list[str],
                 options: dict[str, Any]) -> None:
        self.ruleset = ruleset
        self.mode = mode
        self.players = players
        self.pset = frozenset(players)
        self.options = options


class Ruleset:
    """Base of every ruleset: subclasses fill the declarations and the three hooks."""

    code: str = ""
    title: str = ""
    # The game the ruleset is a rulebook of ("slovenian", "koenigrufen", "taroky"): rulesets
    # of one family play the same game, so a player's rating runs across them (rankings).
    family: str = ""
    source: str = ""  # seed file and what it is
    docs: str = ""  # the decisions page, e.g. "docs/rulesets/tarok-net-2007.md"
    unit: str = "points"  # "points", or "haler" for money rulesets (see `money`)
    modes: dict[str, Mode] = {}
    default_mode: str | None = None
    # the mode a league of this rulebook plays (seed 000 §4.2), where the rulebook has leagues
    league_mode: str | None = None
    games: tuple[Game, ...] = ()
    announcements: tuple[Announcement, ...] = ()
    contra_levels: tuple[ContraLevel, ...] = ()
    options: tuple[Option, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    carries_state: bool = False  # radelci and the like carry from hand to hand
    accepts_sheet: bool = False  # money rulesets: a `sheet` instead of `hands`
    sheet: str = SHEET_POINTS
    sheet_by_mode: dict[str, str] = {}  # modes whose sheet differs from `sheet`
    # The players' own word for the score column ("Schrift"); "" for the generic "score".
    score_label: str = ""
    money: Money | None = None
    cup_points: CupPoints | None = None
    card_type: type[Card] = Card

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

    @property
    def penalty_kinds(self) -> tuple[str, ...]:
        return tuple(p.kind for p in self.penalties)

    def option_defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def seat_counts(self, mode: str) -> tuple[int, ...]:
        """The table sizes a mode accepts."""
        return self.modes[mode].seat_counts

    def keeps_state(self, mode: str) -> bool:
        """Whether radelci and the like carry from hand to hand in this table form."""
        return self.carries_state and self.modes[mode].carries_state

    def sheet_kind(self, mode: str) -> str:
        """Which paper a table of this ruleset writes on (one of `SHEET_KINDS`)."""
        return self.sheet_by_mode.get(mode, self.sheet)

    def state_fields(self, options: dict[str, Any]) -> dict[str, str]:
        """What carries from hand to hand under these options: field -> PER_PLAYER or COUNT."""
        return {}

    def initial_state(self, players: list[str], options: dict[str, Any]) -> dict[str, Any]:
        """The state before the first hand of a card that continues nothing."""
        return {name: ({p: 0 for p in players} if kind == PER_PLAYER else 0)
                for name, kind in self.state_fields(options).items()}

    # -- description for GET /api/v1/rulesets/ ------------------------------------------
    def describe(self) -> dict[str, Any]:
        defaults = self.option_defaults()
        return {
            "code": self.code,
            "title": self.title,
            "source": self.source,
            "unit": self.unit,
            "modes": [m.describe() for m in self.modes.values()],
            "default_mode": self.default_mode,
            "league_mode": self.league_mode,
            "games": [g.describe() for g in self.games],
            "announcements": [a.describe() for a in self.announcements],
            "contra_levels": [c.describe() for c in self.contra_levels],
            "options": [o.describe() for o in self.options],
            "penalty_kinds": list(self.penalty_kinds),
            "penalties": [p.describe() for p in self.penalties],
            "carries_state": self.carries_state,
            "state_fields": self.state_fields(defaults),
            "accepts_sheet": self.accepts_sheet,
            "sheet_kinds": {m: self.sheet_kind(m) for m in self.modes},
            "score_label": self.score_label,
            "money": self.money.describe() if self.money is not None else None,
            "cup_points": self.cup_points.describe() if self.cup_points is not None else None,
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
                "announcements": object_list_schema(
                    ["name", "by"],
                    announcement_properties([a.code for a in self.announcements], held=True),
                    closed=False),
                "contras": object_list_schema(
                    ["on", "by", "level"],
                    {"on": {"enum": contra_on}, "by": STRING,
                     "level": {"enum": [c.level for c in self.contra_levels]}},
                    closed=False),
                "penalties": object_list_schema(
                    ["kind", "player"],
                    {"kind": {"enum": list(self.penalty_kinds)}, "player": STRING},
                    closed=False),
            },
        }

    # -- scoring: the same steps for every ruleset -----------------------------------------
    def score(
        self,
        mode: str,
        players: list[str],
        hands: list[dict[str, Any]],
        options: dict[str, Any],
        errors: ErrorCollector,
        initial_state: Any = None,
    ) -> list[dict[str, Any]] | None:
        """Parse every hand, check it can be true, then score the hands in order.

        Returns one result per hand ({"value", "scores", "state", "lines", ...}) or None after
        adding every problem found to `errors`; never a partial result.
        """
        card = self.card_type(self, mode, players, options)
        state = self._start_state(card, initial_state, errors)
        parsed = []
        for i, raw in enumerate(hands):
            before = len(errors)
            hand = self.parse_hand(i, raw, card, errors)
            if hand is not None and len(errors) == before:
                self.check_hand(i, hand, card, errors)
            parsed.append(hand)
        if errors:
            return None
        results = []
        for hand in parsed:
            result = self.score_hand(hand, card, state)
            result["state"] = {k: dict(v) if isinstance(v, dict) else v
                               for k, v in state.items()}
            results.append(result)
        return results

    # The hooks of a family. Each is a plain function of the family's modules, set on the
    # subclass with staticmethod().
    def parse_hand(self, i: int, raw: dict[str, Any], card: Card,
                   errors: ErrorCollector) -> Any:
        """Hand `i` as the family's own typed hand, or None after adding its problems."""
        raise NotImplementedError(f"{type(self).__name__} must set parse_hand")

    def check_hand(self, i: int, hand: Any, card: Card, errors: ErrorCollector) -> None:
        """Add a problem for everything in a well-formed hand that cannot be true together."""
        raise NotImplementedError(f"{type(self).__name__} must set check_hand")

    def score_hand(self, hand: Any, card: Card, state: dict[str, Any]) -> dict[str, Any]:
        """The result of one checked hand ({"value", "scores", "lines", ...}); moves `state`
        on to what carries to the next hand."""
        raise NotImplementedError(f"{type(self).__name__} must set score_hand")

    def _start_state(self, card: Card, given: Any, errors: ErrorCollector) -> dict[str, Any]:
        """The initial state, with what `initial_state` (a card continued from an earlier
        one) gives; the engine passes it only to rulesets that carry state."""
        fields = self.state_fields(card.options)
        state = self.initial_state(card.players, card.options)
        if given is None:
            return state
        names = ", ".join(fields) or "none"
        if not isinstance(given, dict):
            errors.add(None, "initial_state", "not_an_object",
                       f"initial_state must be an object with the fields {names}")
            return state
        for key, value in given.items():
            where = f"initial_state.{key}"
            kind = fields.get(key)
            if kind is None:
                errors.add(None, where, "unknown_field",
                           f"initial_state has no field {key!r} (fields: {names})")
            elif kind == COUNT:
                if not is_int(value) or value < 0:
                    errors.add(None, where, "invalid_count",
                               f"{where} must be a whole number >= 0, got {value!r}")
                else:
                    state[key] = value
            elif not isinstance(value, dict):
                errors.add(None, where, "not_an_object",
                           f"{where} must be an object {{player: count}}")
            else:
                target = state[key]
                for p, n in value.items():
                    if p not in target:
                        errors.add(None, f"{where}.{p}", "not_a_player",
                                   f"{p!r} is not a player of this card", player=p)
                    elif not is_int(n) or n < 0:
                        errors.add(None, f"{where}.{p}", "invalid_count",
                                   f"{where}.{p} must be a whole number >= 0, got {n!r}",
                                   player=p)
                    else:
                        target[p] = n
        return state

    def score_sheet(
        self, sheet: dict[str, Any], options: dict[str, Any], errors: ErrorCollector
    ) -> dict[str, Any] | None:
        """Money rulesets: validate a round's money sheet and return the result dict."""
        errors.add(None, "sheet", "sheet_not_supported",
                   f"ruleset {self.code} scores hands, not a money sheet")
        return None


__all__ = [
    "STRING",
    "announcement_properties",
    "object_list_schema",
    "Announcement",
    "COUNT",
    "Card",
    "Choice",
    "Coin",
    "ContraLevel",
    "CupPoints",
    "Game",
    "Mode",
    "Money",
    "NO_YES",
    "Option",
    "PER_PLAYER",
    "Penalty",
    "Ruleset",
    "SHEET_KINDS",
    "SHEET_MONEY",
    "SHEET_POINTS",
    "SHEET_SCHRIFT",
    "SHEET_TRI1",
    "YES_NO",
]
