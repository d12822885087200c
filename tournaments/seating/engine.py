"""`seat_round`: validate a request, hand it to its system, return the contract's result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .fixed import seat_fixed
from .knockout import seat_knockout
from .league import seat_league
from .points import seat_points
from .random_draw import seat_random
from .request import parse_request

SEATERS = {
    "random": seat_random,
    "points": seat_points,
    "knockout": seat_knockout,
    "league": seat_league,
    "fixed": seat_fixed,
}


def seat_round(request: Any, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Seat the next round (or, for `league`, the whole season); raises SeatingInvalid.
    `progress(done, total)` is called now and then while a league season is searched."""
    parsed = parse_request(request)
    if parsed.system == "league":
        return seat_league(parsed, progress=progress)
    return SEATERS[parsed.system](parsed)
