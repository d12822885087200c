"""The points system of seed 000 §4.1 b: table points and the seating of the next round.

Table points ("Zmagovalec mize dobi 4 točke, drugi 3 točke, tretji 2 točki in četrti 1 točko")
are the table size minus the place index, reduced for every missing seat at an incomplete
table ("se točke zmanjšajo za 0.333 za vsakega manjkajočega igralca"). The deduction is an
option: `"1/3"` (default: the exact third, the only reading under which the seed's own worked
example "4 – (0.333+0.333+0.333) = 3" holds) or `"0.333"` (the rounded number the seed writes,
giving 3.001). Values are `fractions.Fraction`, so
sums over many rounds stay exact; the standings code converts them for display.

The organiser may add points for the score difference by a formula fixed in advance
("Organizator lahko k osnovnim točkam po vnaprej izdelani formuli pripisuje še točke za
razlike"): `ExtraPointsFormula` describes one such formula declaratively so that an event
can store it.

Seating: round 1 is a draw; later rounds put those who played the last round first, by
points (then score, then a seeded draw), table 1 first; then the late entries (a seeded
draw); then, by total points, those who missed the last round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import ErrorCollector, refuse
from .layout import short_table_notes, split, table_sizes
from .meetings import from_history
from .notes import counted, note
from .request import SeatingRequest

MISSING_SEAT_DEDUCTIONS = {"0.333": Fraction(333, 1000), "1/3": Fraction(1, 3)}
DEFAULT_MISSING_SEAT_DEDUCTION = "1/3"
EXTRA_REFERENCES = ("table_mean", "last_at_table")


@dataclass(frozen=True)
class ExtraPointsFormula:
    """Extra points for the score difference, fixed by the organiser before the event.

    A player gets `points` for every `per` of score above the reference (the table's mean
    score, or the score of the last player at the table), negative below it, capped at
    `cap` either way when a cap is given.
    """

    per: Fraction
    points: Fraction
    reference: str = "table_mean"
    cap: Fraction | None = None

    @classmethod
    def from_dict(cls, spec: Any) -> ExtraPointsFormula:
        problems = ErrorCollector()
        if not isinstance(spec, dict):
            refuse("extra", "not_an_object", "the extra-points formula must be an object")
        for key in sorted(set(spec) - {"per", "points", "reference", "cap"}):
            problems.add("extra." + key, "unknown_field", f"unknown field {key!r} in the formula")
        values: dict[str, Fraction] = {}
        for key in ("per", "points", "cap"):
            if key not in spec or spec[key] is None:
                if key != "cap":
                    problems.add("extra." + key, "missing_field", f"the formula needs {key}")
                continue
            try:
                value = Fraction(str(spec[key])) if not isinstance(spec[key], bool) else None
            except (ValueError, ZeroDivisionError):
                value = None
            if value is None or value <= 0:
                problems.add("extra." + key, "bad_number", f"{key} must be a positive number, got {spec[key]!r}")
            else:
                values[key] = value
        reference = spec.get("reference", "table_mean")
        if reference not in EXTRA_REFERENCES:
            problems.add("extra.reference", "bad_reference",
                         f"reference must be one of {', '.join(EXTRA_REFERENCES)}, got {reference!r}")
        problems.raise_if_any()
        return cls(per=values["per"], points=values["points"], reference=reference,
                   cap=values.get("cap"))

    def extra_points(self, placing: list[str], scores: dict[str, Any]) -> dict[str, Fraction]:
        exact = {p: Fraction(str(scores[p])) for p in placing}
        if self.reference == "table_mean":
            reference = sum(exact.values()) / len(placing)
        else:
            reference = exact[placing[-1]]
        result = {}
        for player in placing:
            value = (exact[player] - reference) / self.per * self.points
            if self.cap is not None:
                value = max(-self.cap, min(self.cap, value))
            result[player] = value
        return result


def table_points(placing: list[str], table_size: int = 4, extra: Any = None,
                 scores: dict[str, Any] | None = None,
                 missing_seat_deduction: str = DEFAULT_MISSING_SEAT_DEDUCTION) -> dict[str, Fraction]:
    """Tournament points of one table: {player: points}.

    `placing` lists the table's players first to last (ties already decided); `table_size`
    is the size of a full table (4); `extra` is an `ExtraPointsFormula`, its dict form, or
    None; `scores` the game scores, needed only with `extra`.
    """
    errors = ErrorCollector()
    if not isinstance(placing, list) or not placing or not all(isinstance(p, str) and p for p in placing):
        errors.add("placing", "bad_placing", "placing must be a non-empty list of player ids")
    elif len(set(placing)) != len(placing):
        errors.add("placing", "duplicate_player", "placing lists a player twice")
    if not isinstance(table_size, int) or isinstance(table_size, bool) or table_size < 1:
        errors.add("table_size", "bad_table_size", f"table_size must be a whole number >= 1, got {table_size!r}")
    elif not errors and len(placing) > table_size:
        errors.add("placing", "table_too_big", f"{len(placing)} players at a table of {table_size}",
                   count=len(placing), size=table_size)
    if missing_seat_deduction not in MISSING_SEAT_DEDUCTIONS:
        errors.add("missing_seat_deduction", "bad_option",
                   f"missing_seat_deduction must be one of {', '.join(MISSING_SEAT_DEDUCTIONS)}")
    formula = None
    if extra is not None and not errors:
        formula = extra if isinstance(extra, ExtraPointsFormula) else ExtraPointsFormula.from_dict(extra)
        if not isinstance(scores, dict) or any(p not in scores for p in placing):
            errors.add("scores", "missing_scores", "extra points need every placed player's score")
        elif not all(isinstance(scores[p], (int, float)) and not isinstance(scores[p], bool) for p in placing):
            errors.add("scores", "not_a_number", "every score must be a number")
    errors.raise_if_any()

    deduction = MISSING_SEAT_DEDUCTIONS[missing_seat_deduction] * (table_size - len(placing))
    # A full table (nearly every table) has nothing to deduct: one Fraction per player, not two
    # (the standings place every table of an event, 1,024 of them at 1,024 players).
    points = ({player: Fraction(table_size - place) - deduction for place, player in enumerate(placing)}
              if deduction else
              {player: Fraction(table_size - place) for place, player in enumerate(placing)})
    if formula is not None:
        for player, bonus in formula.extra_points(placing, scores).items():
            points[player] += bonus
    return points


def seating_order(request: SeatingRequest, rng: random.Random) -> list[str]:
    """The order in which players fill tables 1, 2, 3, ... in a round after the first."""
    # One draw number per player decides ties of points and score; drawing it for the sorted
    # ids keeps it independent of the order the players were listed in.
    draw = {player_id: rng.random() for player_id in sorted(request.player_ids)}
    played = [p for p in request.players if p.played_last_round and not p.new]
    late = [p for p in request.players if p.new]
    missed = [p for p in request.players if not p.played_last_round and not p.new]

    def by_standing(player):
        return (-player.points, -player.score, draw[player.id])

    return ([p.id for p in sorted(played, key=by_standing)]
            + [p.id for p in sorted(late, key=lambda p: draw[p.id])]
            + [p.id for p in sorted(missed, key=by_standing)])


def seat_points(request: SeatingRequest) -> dict[str, Any]:
    rng = random.Random(request.seed)
    sizes = table_sizes(len(request.players), request.table_size, request.min_table_size)
    notes: list[dict[str, Any]] = []
    if request.round == 1:
        order = sorted(request.player_ids)
        rng.shuffle(order)
        notes.append(note("points_first_round", "round 1: the players are drawn into tables (Tarok.net rules §4.1 b)"))
    else:
        order = seating_order(request, rng)
        late = sum(1 for p in request.players if p.new)
        missed = sum(1 for p in request.players if not p.played_last_round and not p.new)
        notes.append(note("points_order", "tables by points: those who played the last round first "
                          "(table 1 = most points)"
                          + (counted(late, ", then {late} late entry", ", then {late} late entries")
                             if late else "")
                          + (", then {missed} who missed the last round" if missed else ""),
                          late=late, missed=missed))
    tables = split(order, sizes)
    notes.extend(short_table_notes(tables, request.table_size))
    return {
        "tables": tables,
        "byes": [],
        "eliminated": [],
        "repeat_pairs": from_history(request.history).repeat_pairs(tables),
        "notes": notes,
    }
