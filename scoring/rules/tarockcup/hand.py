"""A hand of the Steirischer Tarockcup as read from a scorecard: the game, its sides, the
premiums (`Premium`) and the contras (`Contra`) with the factors the contra chains give."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.rules.checks import ReadAnnouncement
from scoring.rules.tarockcup.tables import GameRule

# A premium of the hand, as read.
Premium = ReadAnnouncement


@dataclass
class Contra:
    index: int
    on: str
    by: str
    level: int
    against: str | None


@dataclass
class Hand:
    index: int
    game: GameRule
    declarer: str | None = None
    partner: str | None = None
    forehand: str | None = None
    won: bool | None = None
    points: int | None = None  # the declarer's side's, where given
    conceded: bool = False
    points_by_player: dict[str, int] = field(default_factory=dict)
    blatt_by_player: dict[str, int] = field(default_factory=dict)
    premiums: list[Premium] = field(default_factory=list)
    contras: list[Contra] = field(default_factory=list)
    renoncers: list[str] = field(default_factory=list)
    mond: list[str] = field(default_factory=list)  # option mondfang = zero only
    # filled by the contra check: target -> factor, or for individual contras in negative
    # games "game" -> {defender: factor}
    contra_factor: dict[str, int] = field(default_factory=dict)
    individual_factor: dict[str, int] = field(default_factory=dict)
    contra_notes: list[dict[str, Any]] = field(default_factory=list)


def on_decl_side(h: Hand, player: str) -> bool:
    return player == h.declarer or (h.partner is not None and player == h.partner)


def valat_applies(h: Hand) -> bool:
    for p in h.premiums:
        if p.code == "valat" and (p.announced or p.achieved):
            return True
    return False
