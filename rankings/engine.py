"""The rating engine: a multiplayer rating with uncertainty (Weng–Lin, the Plackett–Luce model
of the `openskill` package) run over tables in the order they were played.

Pure Python (no Django): it takes the tables as plain values and answers every player's rating
after each event, so the same results always give the same ratings. A table is a list of
players in its placing, first to last, with their scores; equal scores share a place.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, NamedTuple

from openskill.models import PlackettLuce

# The conservative value shown in the ranking lists: what the player is at least, with 99.7 %
# confidence (mean − 3σ). A newcomer starts at 0 (25 − 3 × 25/3).
SIGMAS = 3

# Named tuples, not dataclasses: a rebuild makes one per table and two per player and event
# (hundreds of thousands), and a frozen dataclass costs several times a tuple to build.


class RatedTable(NamedTuple):
    """One table's result: its players first to last, and each one's score (same order)."""

    players: tuple[Hashable, ...]
    scores: tuple[int, ...]


class RatedEvent(NamedTuple):
    """One event's tables in the order they were played (round by round)."""

    key: Hashable
    tables: tuple[RatedTable, ...]


class Rating(NamedTuple):
    mu: float
    sigma: float
    tables: int = 0
    events: int = 0

    @property
    def conservative(self) -> float:
        return self.mu - SIGMAS * self.sigma


class Step(NamedTuple):
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


TableRater = Callable[[list[Any], list[int]], list[Any]]


def public_rater(model: PlackettLuce) -> TableRater:
    """Rates one table of one-player teams by the model's public `rate`: the players' model
    ratings and their places in, their new model ratings out (new objects)."""

    def rate_table(ratings: list[Any], ranks: list[int]) -> list[Any]:
        return [team[0] for team in model.rate([[r] for r in ratings], ranks=ranks)]

    return rate_table


def direct_rater(model: PlackettLuce) -> TableRater:
    """The same as `public_rater` for what the engine hands it, five times faster: the model's
    `rate` checks its arguments, deep-copies the teams (a new rating, with a new uuid, per
    player and table: 55 % of its time), adds the dynamics τ to each σ, orders the teams by
    rank, computes (`_compute`, openskill's own maths) and orders them back. The engine's
    ranks are already in order (`places` never decreases) and its ratings are its own to
    change, so this does only the τ step, exactly as `rate` writes it, and the computing;
    the ratings passed in are changed and answered. `_compute` is openskill's internal
    method: `table_rater` uses this only after checking that it answers `rate`'s floats."""
    compute = model._compute
    tau = model.tau
    tau_squared = tau * tau
    sqrt = math.sqrt

    def rate_table(ratings: list[Any], ranks: list[int]) -> list[Any]:
        for rating in ratings:
            rating.sigma = sqrt(rating.sigma * rating.sigma + tau_squared)
        # `_compute` writes the new μ and σ into the ratings it is given (`rate` gives it its
        # copies); the probe of `table_rater` checks that too.
        compute(teams=[[r] for r in ratings], ranks=ranks)
        return ratings

    return rate_table


# Tables the two raters must agree on, bit for bit, before the direct one is used: players
# (μ, σ) at their places, with shared places, newcomers and tables of two to four.
PROBE_TABLES = (
    (((25.0, 25 / 3), (25.0, 25 / 3), (25.0, 25 / 3), (25.0, 25 / 3)), (1, 2, 3, 4)),
    (((31.5, 4.25), (18.75, 6.5), (26.125, 2.0), (12.0, 7.75)), (1, 2, 2, 4)),
    (((22.0, 1.5), (29.0, 3.25), (25.0, 25 / 3)), (1, 1, 3)),
    (((27.5, 5.0), (20.0, 3.5)), (1, 1)),
    (((19.0, 0.75), (33.0, 8.0)), (1, 2)),
)


def table_rater(model: PlackettLuce) -> TableRater:
    """The direct rater if it answers what the public `rate` answers on the probe tables
    (an openskill whose internals changed falls back to the public `rate`), else the public
    one. Either way openskill does the maths."""
    public = public_rater(model)
    try:
        direct = direct_rater(model)
        for players, ranks in PROBE_TABLES:
            by_public = public([model.rating(mu, sigma) for mu, sigma in players], list(ranks))
            by_direct = direct([model.rating(mu, sigma) for mu, sigma in players], list(ranks))
            if [(r.mu, r.sigma) for r in by_public] != [(r.mu, r.sigma) for r in by_direct]:
                return public
    except (AttributeError, TypeError, ValueError, KeyError, IndexError):
        return public
    return direct


def rate(events: Iterable[RatedEvent], *, progress: Callable[[int], None] | None = None,
         rater: Callable[[PlackettLuce], TableRater] = table_rater,
         ) -> tuple[dict[Hashable, Rating], list[Step]]:
    """Every player's rating after the events (in the order given), and his rating after each
    event he played. A table of fewer than two players rates nobody."""
    model = PlackettLuce()
    rate_table = rater(model)
    # The model's own rating of each player, handed back to it at his next table (a new one
    # per player and table would cost more than the rating itself: each draws a uuid), and
    # his counts; a `Rating` is made only after each event and at the end.
    skill: dict[Hashable, Any] = {}
    tables_of: Counter[Hashable] = Counter()
    events_of: Counter[Hashable] = Counter()
    steps: list[Step] = []
    new_rating = model.rating
    for done, event in enumerate(events, start=1):
        seated: list[Hashable] = []
        for players, scores in event.tables:
            if len(players) < 2:
                continue
            # A newcomer gets his own start rating: one object shared by two players would
            # be one player to the model.
            after = rate_table([skill[p] if p in skill else new_rating() for p in players],
                               places(scores))
            skill.update(zip(players, after, strict=True))
            seated += players
        played = Counter(seated)
        tables_of.update(played)
        events_of.update(played.keys())
        event_key = event.key
        for player, tables in played.items():
            new = skill[player]
            steps.append(Step(event_key, player, Rating(new.mu, new.sigma, tables_of[player],
                                                        events_of[player]), tables))
        if progress:
            progress(done)
    current = {player: Rating(new.mu, new.sigma, tables_of[player], events_of[player])
               for player, new in skill.items()}
    return current, steps
