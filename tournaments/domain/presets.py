"""Named presets of the event form: the day a rulebook describes (its ruleset, seating system,
rounds, their length and the stake), stored as data in one place and applied to a new event
form's initial values only. Choosing one fills a blank form; it never changes an event, nor
what an organiser typed (the form is a new one, and a preset chosen after typing asks first).

Each preset quotes the clause it follows (docs/seating.md, "Presets").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Preset:
    code: str
    label: str | Promise
    summary: str | Promise
    seed_clause: str
    # EventForm field names and their initial values.
    values: dict[str, Any] = field(default_factory=dict)
    # What the organiser still has to decide himself (shown with the summary), if anything.
    note: str | Promise = ""


# The Tarok.net rules fix a round by its games, not by time (seed 000 §3: "Igra se 24 iger.";
# §4: "Število krogov določi organizator.", nothing on minutes; the later revision, seed 002,
# neither). So their presets leave the round's duration, and with it the round clock, to the
# organiser, and say so (the round's page says too that the clock needs a duration).
_NO_CLOCK = _("The rulebook sets no time for a round: give the round's duration if you want "
              "the round clock.")

PRESETS: tuple[Preset, ...] = (
    Preset(
        code="gp-vysociny-day",
        label=_("Czech GP day (GP Vysočiny)"),
        summary=_("Money play, 4 rounds of 55 minutes, stake 20 Kč per player and round."),
        seed_clause='seed 004: "Hrací doba: 4x55 minut", "Herní strop: 20,- Kč"',
        values={"ruleset_code": "gp-vysociny-2004", "seating_system": "random",
                "planned_rounds": 4, "round_duration_minutes": 55, "stake_kc": 20,
                "table_size": 4, "min_table_size": 3, "language": "cs"},
    ),
    Preset(
        code="tarockcup-day",
        label=_("Steirischer Tarockcup day"),
        summary=_("3 rounds, random seating; the tournament result is the Schrift (the "
                  "written score)."),
        seed_clause=('seed 001: "Es entscheidet ein Zufallsgenerator." … "Es werden 3 Runden '
                     'gespielt." … "Für das Turnierergebnis ist nur die Schrift ausschlaggebend."'),
        values={"ruleset_code": "steirischer-tarockcup-2017", "seating_system": "random",
                "planned_rounds": 3, "table_size": 4, "min_table_size": 3, "language": "de"},
    ),
    Preset(
        code="tarok-net-knockout",
        label=_("Tarok.net knock-out"),
        summary=_("TRI + 1, 24 hands a round; when the field is not 4, 8, 16, 32 … players, a "
                  "pre-competition at tables of four and three comes first, two per table "
                  "going out. Set the rounds: the pre-competition (if any), then one round per "
                  "halving down to the final table of four."),
        seed_clause=('seed 000 §4.1 a: "V kolikor ni prijavljeno točno toliko igralcev ... se '
                     'odigra predtekmovanje ... Izpadata po 2 igralca." §3: "Igra se 24 iger."'),
        values={"ruleset_code": "tarok-net-2007", "ruleset_mode": "tri+1",
                "seating_system": "knockout", "hands_per_round": 24, "table_size": 4,
                "min_table_size": 3, "language": "sl"},
        note=_NO_CLOCK,
    ),
    Preset(
        code="tarok-net-points",
        label=_("Tarok.net points system"),
        summary=_("TRI + 1, 24 hands a round, table points 4, 3, 2, 1; players who arrive late "
                  "or miss a round are seated after the others."),
        seed_clause=('seed 000 §4.1 b: "Ta sistem je primeren kadar udeležba igralcev ni '
                     'predvidljiva (eni odidejo predčasno, eni pridejo naknadno)."'),
        values={"ruleset_code": "tarok-net-2007", "ruleset_mode": "tri+1",
                "seating_system": "points", "hands_per_round": 24, "table_size": 4,
                "min_table_size": 3, "language": "sl"},
        note=_NO_CLOCK,
    ),
)


def get(code: str) -> Preset | None:
    return next((p for p in PRESETS if p.code == code), None)


def for_ruleset(code: str) -> list[Preset]:
    return [p for p in PRESETS if p.values.get("ruleset_code") == code]
