"""The seating engine's round notes in the reader's language, rendered from each note's `code`
and `params` (its English `text` when the code is not known here, and a round stored before
notes had codes as it is)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.utils.translation import npgettext_lazy, pgettext_lazy

from tournaments.engine_text.common import english_reader, fill
from tournaments.engine_text.seating_errors import VIOLATION_CODES, violation_text

logger = logging.getLogger(__name__)

# -- round notes of the seating engine ------------------------------------------------------------
# The seating engine (tournaments.seating) gives every note a `code`, its `params` and its
# English `text` (tournaments/seating/notes.py). A note is rendered from code and params; a
# note whose code is not known here, or a round stored before notes had codes (a plain
# English string), is shown as the engine wrote it.

_NOTES: dict[str, Any] = {
    "fixed_list": pgettext_lazy("engine", "the organiser's own table list"),
    "short_table": pgettext_lazy("engine", "table %(table)s has %(count)s players: %(total)s is not a "
                                           "multiple of %(size)s"),
    "knockout_tie": pgettext_lazy("engine", "table %(table)s: %(first)s and %(second)s have the same total "
                                            "(%(total)s); the seeded draw puts %(first)s ahead"),
    "knockout_main_draw": pgettext_lazy("engine", "main draw of %(count)s players, tables in draw order "
                                                  "(Tarok.net rules §4.1 a)"),
    "knockout_final_draw": pgettext_lazy("engine", "four players: this is the final"),
    "knockout_pre_competition": pgettext_lazy("engine", "pre-competition: %(count)s registered, the main draw "
                                                        "needs %(target)s, so %(drop)s must drop out; %(playing)s "
                                                        "drawn players play it, two go through from each table "
                                                        "(Tarok.net rules §4.1 a)"),
    "knockout_odd_drop": pgettext_lazy("engine", "table %(table)s has 3 players: one drops out there, because "
                                                 "%(drop)s is odd"),
    "knockout_after_pre_competition": pgettext_lazy("engine", "main draw of %(count)s players after the "
                                                              "pre-competition, tables in draw order"),
    "knockout_halves": pgettext_lazy("engine", "next round from halves A and B of the winners' list "
                                               "(Tarok.net rules §4.1 a)"),
    "knockout_final": pgettext_lazy("engine", "four players left: the final (Tarok.net rules §4.1 a)"),
    "league_construction": pgettext_lazy("engine", "%(used)s matchdays come from %(source)s; the tabu search "
                                                   "kept or improved them"),
    "points_first_round": pgettext_lazy("engine", "round 1: the players are drawn into tables (Tarok.net rules §4.1 b)"),
    "points_order": pgettext_lazy("engine", "tables by points: those who played the last round first "
                                            "(table 1 = most points)%(rest)s"),
    "random_draw": pgettext_lazy("engine", "the tables are drawn at random, as the Tarockcup rules say "
                                           "(“a random generator decides”)"),
    "random_swapped": pgettext_lazy("engine", "players were swapped after the draw to avoid meeting earlier "
                                              "opponents"),
}
# Notes about a number of things, said in the form of the language for that number.
_COUNTED: dict[str, Any] = {
    "knockout_byes": npgettext_lazy("engine", "%(count)s player goes straight into the main draw (a bye)",
                                    "%(count)s players go straight into the main draw (byes)", "count"),
    "knockout_out_earlier": npgettext_lazy("engine", "%(count)s available player went out in an earlier round",
                                           "%(count)s available players went out in an earlier round", "count"),
    "league_clubs": npgettext_lazy("engine", "two players of one club sit at one table %(together)s time",
                                   "two players of one club sit at one table %(together)s times", "together"),
    "league_absent": npgettext_lazy("engine", "%(count)s player is absent", "%(count)s players are absent",
                                    "count"),
    "random_repeats": npgettext_lazy("engine", "%(repeats)s pair of players meets again: no single swap of two "
                                               "players avoids it",
                                     "%(repeats)s pairs of players meet again: no single swap of two players "
                                     "avoids it", "repeats"),
}
# Notes of several counted parts: each part in the form for its own number, then joined.
_PARTS: dict[str, tuple[tuple[Any, str], ...]] = {
    "league_summary": (
        (npgettext_lazy("engine", "%(rounds)s matchday: %(met)s of %(pairs)s pairs meet",
                        "%(rounds)s matchdays: %(met)s of %(pairs)s pairs meet", "rounds"), ", "),
        (npgettext_lazy("engine", "%(repeats)s repeat meeting", "%(repeats)s repeat meetings", "repeats"), ""),
    ),
    "schedule_distance": (
        (npgettext_lazy("engine", "%(matchdays)s matchday: the first %(clean)s without a repeat meeting",
                        "%(matchdays)s matchdays: the first %(clean)s without a repeat meeting", "matchdays"),
         "; "),
        (npgettext_lazy("engine", "%(repeats)s repeat meeting (at least %(floor)s unavoidable)",
                        "%(repeats)s repeat meetings (at least %(floor)s unavoidable)", "repeats"), ", "),
        (npgettext_lazy("engine", "no pair more than %(most)s time", "no pair more than %(most)s times",
                        "most"), ""),
    ),
}
# The bound of a field reads differently when the best known length reaches it, falls short
# of it, or is not known.
_BOUND = {
    "reached": npgettext_lazy("engine", "%(players)s players: at most %(upper)s matchday without any pair "
                                        "meeting twice, and so many are possible",
                              "%(players)s players: at most %(upper)s matchdays without any pair "
                              "meeting twice, and so many are possible", "upper"),
    "short": npgettext_lazy("engine", "%(players)s players: at most %(upper)s matchday without any pair "
                                      "meeting twice; %(known)s are known to be possible",
                            "%(players)s players: at most %(upper)s matchdays without any pair "
                            "meeting twice; %(known)s are known to be possible", "upper"),
    "unknown": npgettext_lazy("engine", "%(players)s players: at most %(upper)s matchday without any pair "
                                        "meeting twice",
                              "%(players)s players: at most %(upper)s matchdays without any pair "
                              "meeting twice", "upper"),
}
# Where a league's constructed matchdays come from (tournaments/seating/designs.py).
_SOURCES = {
    "rbibd": pgettext_lazy("engine", "a resolvable design in which every pair meets exactly once"),
    "rgdd": pgettext_lazy("engine", "a resolvable group divisible design"),
    "published": pgettext_lazy("engine", "the published 10-matchday schedule for 32 players"),
}
_MATCHDAY = pgettext_lazy("engine", "matchday %(number)s: %(note)s")
_LATE = npgettext_lazy("engine", ", then %(late)s late entry", ", then %(late)s late entries", "late")
_MISSED = npgettext_lazy("engine", ", then %(missed)s who missed the last round",
                         ", then %(missed)s who missed the last round", "missed")

# A swapped round carries the checker's violations as notes (tournaments.services.rounds):
# code "checker", the violation's code and params.
_CHECKER = pgettext_lazy("engine", "checker: %(note)s")

NOTE_CODES = frozenset(_NOTES) | frozenset(_COUNTED) | frozenset(_PARTS) | {"no_repeat_bound", "checker"}


def _checker_text(params: dict[str, Any], english: str) -> str:
    violation = params.pop("violation")
    if violation not in VIOLATION_CODES:
        return english
    text = violation_text({"code": violation, "params": params,
                           "message": english.removeprefix("checker: ")})
    return fill(_CHECKER, note=text)


def _note_values(code: str, params: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The message of a note and the values to fill in."""
    values = dict(params)
    if code == "no_repeat_bound":
        known, upper = values.get("known"), values["upper"]
        variant = "unknown" if known is None else ("reached" if known == upper else "short")
        return _BOUND[variant], values
    if code == "points_order":
        rest = ""
        if values.get("late"):
            rest += _LATE % {"late": values["late"]}
        if values.get("missed"):
            rest += _MISSED % {"missed": values["missed"]}
        values["rest"] = rest
    if code in _PARTS:
        # Already said: filled here, so the caller's filling finds nothing left to fill.
        return "%(said)s", {"said": "".join(str(part % values) + joint for part, joint in _PARTS[code])}
    if code == "league_construction":
        values["source"] = str(_SOURCES[values["source"]])
    return (_COUNTED[code] if code in _COUNTED else _NOTES[code]), values


def note_text(note: Any) -> str:
    """A round note of the seating engine in the active language (its English text when the
    code is not known here, and a stored plain string as it is)."""
    if not isinstance(note, Mapping):
        return str(note or "")
    english = str(note.get("text") or "")
    code = str(note.get("code") or "")
    params = note.get("params")
    if english_reader() or code not in NOTE_CODES or not isinstance(params, Mapping):
        return english
    try:
        if code == "checker":
            return _checker_text(dict(params), english)
        msgid, values = _note_values(code, dict(params))
        text = fill(msgid, **values)
        if "matchday" in params:
            text = fill(_MATCHDAY, number=params["matchday"], note=text)
        return text
    except (KeyError, IndexError, TypeError, ValueError):
        logger.debug("seating note %r not translated", code, exc_info=True)
        return english
