"""The seating engine: who sits at which table in the next round of a tarok event.

Pure Python, deterministic for a request's `seed`. Systems: `random` (a draw that avoids
repeat meetings), `points` (seed 000 §4.1 b), `knockout` (seed 000 §4.1 a), `league` (a
whole season, seed 002 §4.2) and `fixed` (the organiser's list, checked). The independent
checker lives in `tournaments.seating.checker`; TRI+1 dealing and resting in
`tournaments.seating.rotation`; table points in `tournaments.seating.points`.
"""

from .engine import seat_round
from .errors import SeatingInvalid
from .request import SYSTEMS

__all__ = ["SYSTEMS", "SeatingInvalid", "seat_round"]
