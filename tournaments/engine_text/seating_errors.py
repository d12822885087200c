"""The seating engine's refusals in the reader's language: its validation errors
(tournaments/seating/errors.py), the independent checker's violations
(tournaments/seating/checker.py) and the stages of a background job, each rendered from its
stable `code` and `params` (its English `message` when the code is not known here, or when no
form of its message fits the params it carries). The stages are those of the seating and
schedule jobs and, since `tournaments.runtime.jobs.job_message` is the one way a job's message is said,
those of the printouts' jobs too (`tournaments.runtime.jobs.stage_fields`).

One code can say slightly different things: `duplicate_player` is a player at two tables of
the organiser's list, or a player with two fixed seats on one matchday, or simply a player
listed twice. A code therefore has one or more messages, the most specific first, and the first
whose named values are all among the error's params (and its `field`) is the one said.

The engine runs in a worker with no request language, so what a job stores is code, params
and the engine's English; the page renders it in the language of whoever reads it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import npgettext_lazy, pgettext_lazy

from tournaments.engine_text.common import english_reader, fill

logger = logging.getLogger(__name__)

# -- validation errors of a seating request (SeatingInvalid) ------------------------------------

_ERRORS: dict[str, tuple[Any, ...]] = {
    "advancing_player_missing": (
        pgettext_lazy("engine", "player %(player)s went through at table %(table)s but is not among the "
                                "available players"),),
    "bad_club": (pgettext_lazy("engine", "%(field)s must be the name of a club"),),
    "bad_club_weight": (pgettext_lazy("engine", "the club weight must be a number, 0 or more"),),
    "bad_hands": (pgettext_lazy("engine", "the number of hands must be a whole number from 1"),),
    "bad_matchday": (pgettext_lazy("engine", "%(field)s must be a matchday from 1 to %(matchdays)s"),),
    "bad_min_table_size": (
        pgettext_lazy("engine", "the smallest table (%(smallest)s) is larger than a full table (%(largest)s)"),
        pgettext_lazy("engine", "the smallest table size must be a whole number from 1"),),
    "bad_number": (pgettext_lazy("engine", "%(field)s must be a positive number"),),
    "bad_option": (pgettext_lazy("engine", "this value of %(field)s is not allowed"),),
    "bad_placing": (pgettext_lazy("engine", "the placing must list the table's players"),),
    "bad_player_id": (pgettext_lazy("engine", "%(field)s must be a player id"),),
    "bad_players": (pgettext_lazy("engine", "the players must be a list of player ids in seat order"),),
    "bad_reference": (pgettext_lazy("engine", "the reference of the extra points is not known"),),
    "bad_round": (pgettext_lazy("engine", "the round must be a whole number from 1"),),
    "bad_rounds": (
        pgettext_lazy("engine", "a league needs the number of matchdays, a whole number from 1 to %(largest)s"),
        pgettext_lazy("engine", "a league needs the number of matchdays, a whole number from 1"),),
    "bad_seed": (pgettext_lazy("engine", "the seed must be a whole number"),),
    "bad_table": (pgettext_lazy("engine", "%(field)s must be a table number from 1"),),
    "bad_table_size": (
        pgettext_lazy("engine", "table %(table)s has %(count)s players; allowed are %(smallest)s to "
                                "%(largest)s"),
        pgettext_lazy("engine", "knock-out tables seat 4 (3 at one pre-competition table); table %(table)s "
                                "had %(count)s"),
        pgettext_lazy("engine", "TRI + 1 is played by 4 (or 3) at a table, not by %(count)s"),
        pgettext_lazy("engine", "a table seats 2 to %(largest)s players"),
        pgettext_lazy("engine", "the table size must be a whole number from 1"),),
    "cannot_seat": (
        pgettext_lazy("engine", "%(drop)s of %(count)s players must drop out to reach %(target)s; an odd "
                                "number needs one pre-competition table of three, smaller than the "
                                "smallest table allowed (%(smallest)s)"),
        pgettext_lazy("engine", "%(count)s players cannot sit at tables of %(smallest)s to %(largest)s: "
                                "%(tables)s tables would need at least %(needed)s"),),
    "duplicate_player": (
        pgettext_lazy("engine", "player %(player)s sits at table %(first)s and at table %(second)s"),
        pgettext_lazy("engine", "player %(player)s has two fixed seats on matchday %(matchday)s"),
        pgettext_lazy("engine", "player %(player)s is listed twice"),
        pgettext_lazy("engine", "a player is listed twice"),),
    "empty_table": (pgettext_lazy("engine", "%(field)s: the table has no players"),),
    "field_not_main_draw_size": (
        pgettext_lazy("engine", "%(count)s players go on (%(through)s through from the previous round, "
                                "%(skipped)s who did not play it); the knock-out needs 4, 8, 16, 32, ..."),),
    "final_played": (pgettext_lazy("engine", "the previous round was the final: the knock-out is over"),),
    "fixed_player_absent": (
        pgettext_lazy("engine", "player %(player)s has a fixed seat on matchday %(matchday)s but is absent "
                                "then"),),
    "knockout_needs_four": (
        pgettext_lazy("engine", "the knock-out system seats four at a table, two go through (Tarok.net rules §4.1 a)"),),
    "knockout_needs_previous_round": (
        pgettext_lazy("engine", "a knock-out round after the first needs the placing of every table of the "
                                "previous round"),),
    "late_entry_played": (
        pgettext_lazy("engine", "player %(player)s is marked as a late entry and as having played the last "
                                "round"),),
    "league_only": (pgettext_lazy("engine", "%(field)s is only for the league system"),),
    "missing_field": (
        pgettext_lazy("engine", "player %(player)s lacks the points, score or last-round attendance that the "
                                "points system needs from round 2 on"),
        pgettext_lazy("engine", "%(field)s is missing"),),
    "missing_placing": (
        pgettext_lazy("engine", "table %(table)s of the previous round needs its placing (first to last) or "
                                "its totals"),),
    "missing_scores": (pgettext_lazy("engine", "the extra points need the score of every placed player"),),
    "missing_seed": (pgettext_lazy("engine", "this seating system draws, so it needs a whole-number seed"),),
    "missing_tables": (pgettext_lazy("engine", "the fixed system needs the organiser's table list"),),
    "no_players": (pgettext_lazy("engine", "there is nobody to seat"),),
    "no_such_table": (
        pgettext_lazy("engine", "matchday %(matchday)s has %(tables)s tables, so player %(player)s cannot "
                                "keep table %(table)s"),),
    "not_a_boolean": (pgettext_lazy("engine", "%(field)s must be yes or no"),),
    "not_a_list": (pgettext_lazy("engine", "%(field)s must be a list"),),
    "not_a_number": (pgettext_lazy("engine", "%(field)s must be a number"),),
    "not_an_object": (pgettext_lazy("engine", "%(field)s does not have the expected form"),),
    "placing_contradicts_totals": (pgettext_lazy("engine", "%(field)s puts a lower total before a higher one"),),
    "placing_mismatch": (
        pgettext_lazy("engine", "%(field)s must list exactly the table's players, first to last"),),
    "player_not_seated": (pgettext_lazy("engine", "player %(player)s is available but has no table"),),
    "previous_round_in_first_round": (
        pgettext_lazy("engine", "round 1 of a knock-out is a draw: it has no previous round"),),
    "rounds_not_allowed": (
        pgettext_lazy("engine", "a whole season of matchdays is only for the league system"),),
    "table_overfull": (
        pgettext_lazy("engine", "matchday %(matchday)s: %(count)s players are fixed at table %(table)s, "
                                "which seats %(seats)s"),),
    "table_too_big": (pgettext_lazy("engine", "%(count)s players at a table of %(size)s"),),
    "tables_not_allowed": (
        pgettext_lazy("engine", "the organiser's own table list is only for the fixed system"),),
    "too_few_players": (pgettext_lazy("engine", "a knock-out needs at least 4 players, not %(count)s"),),
    "totals_mismatch": (
        pgettext_lazy("engine", "%(field)s must give a total for exactly the table's players"),),
    "unknown_field": (pgettext_lazy("engine", "%(field)s is not a known field"),),
    "unknown_player": (
        pgettext_lazy("engine", "player %(player)s is absent on matchday %(matchday)s but is not among the "
                                "players"),
        pgettext_lazy("engine", "player %(player)s at table %(table)s is not among the available players"),
        pgettext_lazy("engine", "%(field)s must be one of the players"),),
    "unknown_system": (pgettext_lazy("engine", "the seating system is not known"),),
}

# -- violations found by the independent checker ----------------------------------------------

_VIOLATIONS: dict[str, tuple[Any, ...]] = {
    "eliminated_in_draw": (pgettext_lazy("engine", "nobody is eliminated before playing"),),
    "eliminated_list": (
        pgettext_lazy("engine", "the eliminated must be exactly the players of the previous round who did "
                                "not go through: %(expected)s"),),
    "eliminated_player_seated": (
        pgettext_lazy("engine", "player %(player)s did not finish in the top two at table %(previous)s but "
                                "is seated"),
        pgettext_lazy("engine", "player %(player)s went out in an earlier round but is seated"),),
    "fixed_changed": (
        pgettext_lazy("engine", "the fixed system must keep the organiser's tables unchanged, in the same "
                                "order"),),
    "fixed_seat_moved": (
        pgettext_lazy("engine", "player %(player)s must sit at table %(seat)s on matchday %(matchday)s"),),
    "halves_rule": (
        pgettext_lazy("engine", "table %(table)s must take the player placed %(place)s. at previous table "
                                "%(previous)s (halves A and B, Tarok.net rules §4.1 a)"),),
    "known_schedule_missed": (
        pgettext_lazy("engine", "%(count)s players can play %(reachable)s matchdays without any repeat "
                                "meeting; this schedule has %(repeats)s"),),
    "knockout_draw_size": (
        pgettext_lazy("engine", "%(count)s players: the main draw needs %(target)s, so the first round needs "
                                "%(fours)s tables of four and %(threes)s of three"),),
    "knockout_table_size": (pgettext_lazy("engine", "every table after the first draw seats four"),),
    "met_again": (
        pgettext_lazy("engine", "table %(table)s seats %(times)s players from previous table %(previous)s"),),
    "not_swap_optimal": (
        pgettext_lazy("engine", "swapping %(player)s (table %(table)s) and %(other)s (table %(other_table)s) "
                                "would avoid repeat meetings: %(avoided)s"),
        pgettext_lazy("engine", "swapping %(player)s (table %(table)s) and %(other)s (table %(other_table)s) "
                                "on matchday %(matchday)s would spread the meetings better"),),
    "player_missing": (
        pgettext_lazy("engine", "player %(player)s is neither seated nor listed among the byes or the "
                                "eliminated"),),
    "points_order": (
        pgettext_lazy("engine", "player %(player)s at table %(table)s ranks ahead of player %(other)s at an "
                                "earlier table"),),
    "repeat_pairs_wrong": (
        pgettext_lazy("engine", "the seating has %(repeats)s repeat meetings, the result says %(claimed)s"),
        pgettext_lazy("engine", "the seating has %(repeats)s repeat meetings, the result says otherwise"),),
    "request_invalid": (
        pgettext_lazy("engine", "player %(player)s has no points or score"),
        pgettext_lazy("engine", "table %(previous)s of the previous round has no usable placing or totals"),
        pgettext_lazy("engine", "the previous round (%(count)s players) is not a round of the main draw"),
        pgettext_lazy("engine", "the seating request is not valid"),),
    "result_invalid": (pgettext_lazy("engine", "the seating result is not valid"),),
    "seated_twice": (pgettext_lazy("engine", "player %(player)s appears %(times)s times"),),
    "short_table_not_last": (
        pgettext_lazy("engine", "in the points system the tables are filled in order, so incomplete tables "
                                "come last"),),
    "table_too_big": (
        pgettext_lazy("engine", "table %(table)s has %(count)s players, more than %(size)s"),),
    "table_too_small": (
        pgettext_lazy("engine", "table %(table)s has %(count)s players, fewer than %(smallest)s"),),
    "too_few_players": (pgettext_lazy("engine", "a knock-out needs at least four players"),),
    "too_many_tables": (
        pgettext_lazy("engine", "%(count)s players need %(needed)s tables of up to %(size)s, the seating uses "
                                "%(used)s"),),
    "two_go_through": (
        pgettext_lazy("engine", "%(count)s players of previous table %(table)s are seated; exactly two go "
                                "through"),),
    "unexpected_bye": (pgettext_lazy("engine", "nobody has a bye here: every available player is seated"),),
    "unknown_player": (
        pgettext_lazy("engine", "player %(player)s at table %(table)s is not an available player"),
        pgettext_lazy("engine", "player %(player)s is not an available player"),),
    "wrong_number_of_matchdays": (
        pgettext_lazy("engine", "%(asked)s matchdays asked, %(given)s given"),
        pgettext_lazy("engine", "the schedule has %(given)s matchdays, not the number asked"),),
}
# The same words as a matchday's round note (engine_text.notes): one catalogue entry.
_MATCHDAY = pgettext_lazy("engine", "matchday %(number)s: %(note)s")

# -- stages of the job that seats a round (tournaments/services/round_jobs.py) ----------------------

_STAGES: dict[str, Any] = {
    "building_request": pgettext_lazy("engine", "building the seating request for round %(round)s"),
    "seating": pgettext_lazy("engine", "seating the players"),
    "seating_refused": pgettext_lazy("engine", "the seating was refused: %(reasons)s"),
    "check_failed": pgettext_lazy("engine", "the seating failed its check: %(reasons)s"),
    "done": npgettext_lazy("engine", "round %(round)s: %(tables)s table", "round %(round)s: %(tables)s tables",
                           "tables"),
    # ... and of the jobs that render printouts (tournaments/printing/services.py, public_pdfs.py).
    "sheets_seating_changed": pgettext_lazy("engine", "the seating changed after the sheets were asked for; "
                                                      "ask again"),
    "rendering_failed": pgettext_lazy("engine", "rendering failed: %(error)s"),
    "sheets_done": npgettext_lazy("engine", "%(tables)s table, %(size)s bytes", "%(tables)s tables, %(size)s bytes",
                                  "tables"),
    "printout_done": pgettext_lazy("engine", "%(size)s bytes"),
    "printout_superseded": pgettext_lazy("engine", "a newer version was asked for before this one was rendered"),
    # ... and of the jobs that send e-mails to players (tournaments/services/messages.py).
    "messages_done": npgettext_lazy("engine", "%(sent)s message sent", "%(sent)s messages sent", "sent"),
    "messages_failed": npgettext_lazy("engine", "%(failed)s messages could not be sent (%(sent)s sent); "
                                                "ask again to try them once more",
                                      "%(failed)s messages could not be sent (%(sent)s sent); "
                                      "ask again to try them once more", "failed"),
}

SEATING_ERROR_CODES = frozenset(_ERRORS)
VIOLATION_CODES = frozenset(_VIOLATIONS)
STAGE_CODES = frozenset(_STAGES)

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _say(forms: tuple[Any, ...], values: dict[str, Any]) -> tuple[str, set[str]]:
    """The first form of a message whose named values are all known, filled in, and the
    names it used."""
    for msgid in forms:
        names = set(_PLACEHOLDER.findall(str(msgid)))
        if names <= values.keys():
            return fill(msgid, **values), names
    raise KeyError("no form of the message fits the params")


def _render(item: Any, catalogue: dict[str, tuple[Any, ...]], *, matchday_prefix: bool) -> str:
    if not isinstance(item, Mapping):
        return str(item or "")
    english = str(item.get("message") or "")
    code = str(item.get("code") or "")
    params = item.get("params")
    forms = catalogue.get(code)
    if english_reader() or forms is None or not isinstance(params, Mapping):
        return english
    values = {k: v for k, v in params.items() if v is not None}
    if item.get("field"):
        values.setdefault("field", str(item["field"]))
    try:
        text, used = _say(forms, values)
        # A checker's violation on one matchday of a league: said with its matchday, unless
        # the message names the matchday itself.
        if matchday_prefix and "matchday" in values and "matchday" not in used:
            text = fill(_MATCHDAY, number=values["matchday"], note=text)
        return text
    except (KeyError, IndexError, TypeError, ValueError):
        logger.debug("seating %r not translated", code, exc_info=True)
        return english


def seating_error_text(error: Mapping[str, Any] | Any) -> str:
    """A validation error of the seating engine in the active language (its English `message`
    when the code or its params are not known here)."""
    return _render(error, _ERRORS, matchday_prefix=False)


def violation_text(violation: Mapping[str, Any] | Any) -> str:
    """A violation found by the seating checker in the active language (its English `message`
    when the code or its params are not known here)."""
    return _render(violation, _VIOLATIONS, matchday_prefix=True)


def stage(code: str, message: str, **params: Any) -> dict[str, Any]:
    """What a seating job keeps of a stage: its code, params and English message (the job's
    `message`). Errors and violations the stage reports go in `params` as `errors`/`violations`."""
    return {"code": code, "params": params, "message": message}


def refused_stage(errors: list[dict[str, Any]]) -> dict[str, Any]:
    """The stage of a seating the engine refused (a round's, or a league's schedule whose
    errors name their division): the errors kept as code and params, the English joined."""
    return stage("seating_refused", "the seating was refused: " + "; ".join(
        _in_division(e, e["message"]) for e in errors), errors=errors)


def stage_english(code: str, params: Mapping[str, Any]) -> str:
    """A stage of a job in English: what a job stores as its message, next to the stage's code
    and params from which each reader's language is said (`stage_text`)."""
    with translation.override("en"):
        return str(_STAGES[code] % dict(params))


def stage_text(stage_item: Mapping[str, Any] | Any, current: str) -> str:
    """The job's stage in the active language. `current` is the job's stored message: a stage
    kept in the job's result is said only while the message is still the stage's own (a retry
    or a queue outage writes another message, which is then shown as it is)."""
    if not isinstance(stage_item, Mapping) or stage_item.get("message") != current:
        return current
    code = str(stage_item.get("code") or "")
    params = stage_item.get("params")
    msgid = _STAGES.get(code)
    if english_reader() or msgid is None or not isinstance(params, Mapping):
        return current
    values = dict(params)
    try:
        if "errors" in values:
            values["reasons"] = "; ".join(_in_division(e, seating_error_text(e)) for e in values.pop("errors"))
        if "violations" in values:
            values["reasons"] = "; ".join(violation_text(v) for v in values.pop("violations"))
        # `%` on the lazy message itself: a plural one chooses its form by the named number
        return str(msgid % values)
    except (KeyError, IndexError, TypeError, ValueError):
        logger.debug("seating job stage %r not translated", code, exc_info=True)
        return current


def _in_division(error: Any, text: str) -> str:
    """An error of one division's schedule (a league) is said with the division's name."""
    division = error.get("division") if isinstance(error, Mapping) else None
    return f"{division}: {text}" if division else text
