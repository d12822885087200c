"""A hand of the Tarok.net rules as read from a scorecard (`Hand`, its announcements `Ann`),
the games of each mode as the reader and the scorer need them (`SPECS`), and what every hand
of one card shares (`TarokNetCard`)."""

from __future__ import annotations

from typing import Any

from scoring.rules.base import Card, Ruleset
from scoring.rules.tarok_net.tables import (
    CALLED_KING_GAMES,
    FOUR,
    FOUR_HANDED_GAMES,
    ROUNDERS,
    THREE,
    THREE_HANDED_GAMES,
    TRI1,
    TWO,
    TWO_HANDED_GAMES,
)


class GameSpec:
    """One game of one mode, as the reader and the scorer need it."""

    __slots__ = ("called_king", "code", "decided_by", "name", "partner_game", "partner_value",
                 "value")

    def __init__(self, code: str, name: str, value: int | None, partner_value: int | None,
                 decided_by: str, mode: str) -> None:
        self.code = code
        self.name = name
        self.value = value
        self.partner_value = partner_value
        self.decided_by = decided_by
        self.partner_game = partner_value is not None
        self.called_king = mode == FOUR and code in CALLED_KING_GAMES


def _game_specs() -> dict[str, dict[str, GameSpec]]:
    specs: dict[str, dict[str, GameSpec]] = {}
    for mode in (TRI1, THREE):
        specs[mode] = {c: GameSpec(c, n, v, None, d, mode) for c, n, v, d in THREE_HANDED_GAMES}
    specs[FOUR] = {c: GameSpec(c, n, v, pv, d, FOUR) for c, n, v, pv, d in FOUR_HANDED_GAMES}
    specs[TWO] = {c: GameSpec(c, n, None, None, d, TWO) for c, n, d in TWO_HANDED_GAMES}
    return specs


SPECS = _game_specs()
ALL_GAME_CODES = frozenset(c for m in SPECS.values() for c in m)


class Ann:
    """One announcement of a hand; `level` and `contra_by` are filled by the contras."""

    __slots__ = ("achieved", "announced", "by", "contra_by", "declarer_side", "held", "index",
                 "level", "name")

    def __init__(self, index: int, name: str, by: str, announced: bool, achieved: bool | None,
                 held: bool, declarer_side: bool) -> None:
        self.index = index
        self.name = name
        self.by = by
        self.announced = announced
        self.achieved = achieved
        self.held = held
        self.declarer_side = declarer_side
        self.level = 0
        self.contra_by: str | None = None


class Hand:
    """A read hand: `void` (misdeal / no tarok, no game), or a game with its sides."""

    __slots__ = ("announcements", "declarer", "game_contra_by", "game_level", "in_hand",
                 "klop_contras", "partner", "penalties", "points", "points_by_player",
                 "renons", "resting", "spec", "tricks_by_player", "void", "won")

    def __init__(self) -> None:
        self.spec: GameSpec | None = None
        self.declarer: str | None = None
        self.partner: str | None = None
        self.resting: str | None = None
        self.in_hand: list[str] = []
        self.points: int | None = None
        self.won: bool | None = None
        self.points_by_player: dict[str, int] | None = None
        self.tricks_by_player: dict[str, int] | None = None
        self.announcements: list[Ann] = []
        self.game_level = 0
        self.game_contra_by: str | None = None
        self.klop_contras: list[str] = []  # who said kontra, then rekontra
        self.penalties: list[tuple[str, str, str | None]] = []
        self.renons = False
        self.void = False


class TarokNetCard(Card):
    """One card of the Tarok.net rules: its version, whether somebody rests, and the options
    the scorer looks at in every hand."""

    __slots__ = ("double_defenders", "held_half", "radelc_games", "revised", "rnd",
                 "with_resting")

    def __init__(self, ruleset: Ruleset, mode: str, players: list[str],
                 options: dict[str, Any]) -> None:
        super().__init__(ruleset, mode, players, options)
        self.revised: bool = ruleset.revised  # type: ignore[attr-defined]
        self.radelc_games: frozenset[str] = ruleset.radelc_games  # type: ignore[attr-defined]
        self.with_resting = mode == TRI1 and len(players) == 4
        self.rnd = ROUNDERS[options["rounding"]]
        self.double_defenders = options["radelc_doubles_defenders"]
        self.held_half = options.get("held_trula_second_share") == "half"
