"""The rating engine: a multiplayer rating with uncertainty (Weng–Lin, the Plackett–Luce model
of the `openskill` package) run over tables in the order they were played.

Pure Python (no Django): it takes the tables as plain values and answers every player's rating
after each event, so the same results always give the same ratings. A table is a list of
players in its placing, first to last, with their scores; equal scores share a place.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

# The conservative value shown in the ranking lists: what the player is at least, with 99.7 %
# confidence (mean − 3σ). A newcomer starts at 0 (25 − 3 × 25/3).
SIGMAS = 3


@dataclass(frozen=True)
class RatedTable:
    """One table's result: its players first to last, and each one's score (same order)."""

    players: tuple[Hashable, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class RatedEvent:
    """One event's tables in the order they were played (round by round)."""

    key: Hashable
    tables: tuple[RatedTable, ...]


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    tables: int = 0
    events: int = 0

    @property
    def conservative(self) -> float:
        return self.mu - SIGMAS * self.sigma


@dataclass(frozen=True)
class Step:
    """A player's rating after one event he played, and how many tables he played there."""

    event: Hashable
    player: Hashable
    rating: Rating
    event_tables: int


def places(scores: Sequence[int]) -> list[int]:
    """1-based places of scores listed best first; equal scores share the better place."""
    out: list[int] = []
    for i, score in enumerate(scores):
        out.append(out[-1] if i and scores[i - 1] == score else i + 1)
    return out


def rate(events: Iterable[RatedEvent], *,
         progress: Callable[[int], None] | None = None) -> tuple[dict[Hashable, Rating], list[Step]]:
    """Every player's rating after the events (in the order given), and his rating after each
    event he played. A table of fewer than two players rates nobody."""
    model = PlackettLuce()
    # The model's own rating of each player, handed back to it at his next table (a new one
    # per player and table would cost more than the rating itself: each draws a uuid), and
    # his counts; a `Rating` is made only after each event and at the end.
    skill: dict[Hashable, Any] = {}
    tables_of: dict[Hashable, int] = {}
    events_of: dict[Hashable, int] = {}
    steps: list[Step] = []
    for done, event in enumerate(events, start=1):
        played: dict[Hashable, int] = {}
        for table in event.tables:
            if len(table.players) < 2:
                continue
            # A newcomer gets his own start rating: the model copies the teams as one
            # whole, so one object shared by two players would be one player to it.
            teams = [[skill[p] if p in skill else model.rating()] for p in table.players]
            after = model.rate(teams, ranks=places(table.scores))
            for player, (new,) in zip(table.players, after, strict=True):
                skill[player] = new
                tables_of[player] = tables_of.get(player, 0) + 1
                played[player] = played.get(player, 0) + 1
        for player, tables in played.items():
            events_of[player] = events_of.get(player, 0) + 1
            new = skill[player]
            steps.append(Step(event=event.key, player=player,
                              rating=Rating(new.mu, new.sigma, tables_of[player],
                                            events_of[player]),
                              event_tables=tables))
        if progress:
            progress(done)
    current = {player: Rating(new.mu, new.sigma, tables_of[player], events_of[player])
               for player, new in skill.items()}
    return current, steps
