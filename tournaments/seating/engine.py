"""`seat_round`: validate a request, hand it to its system, return the contract's result."""

from __future__ import annotations

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


def seat_round(request: Any) -> dict[str, Any]:
    """Seat the next round (or, for `league`, the whole season); raises SeatingInvalid."""
    parsed = parse_request(request)
    return SEATERS[parsed.system](parsed)
