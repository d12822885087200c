"""The seating engine: who sits at which table in the next round of a tarok event.

Pure Python, deterministic for a request's `seed`. Systems: `random` (a draw that avoids
repeat meetings), `points` (seed 000 §4.1 b), `knockout` (seed 000 §4.1 a), `league` (a
whole season, seed 002 §4.2) and `fixed` (the organiser's list, checked). The independent
checker lives in `tournaments.seating.checker`; TRI+1 dealing and resting in
`tournaments.seating.rotation`; table points in `tournaments.seating.points`.

What the apps above tournaments use (a league's schedule is seated by this engine) is named
here: they import this package, never its modules (import-linter's front-door contract).
"""

from .bounds import no_repeat_bound, schedule_distance
from .checker import check_seating
from .engine import seat_round
from .errors import SeatingInvalid
from .request import SYSTEMS
from .rotation import rest_rotation

__all__ = ["SYSTEMS", "SeatingInvalid", "check_seating", "no_repeat_bound", "rest_rotation",
           "schedule_distance", "seat_round"]
