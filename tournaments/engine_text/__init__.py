"""Engine text in the active language: the breakdown lines of a scored hand, the
scoring engine's validation errors (rendered from their stable `code` and `params`), the
seating engine's round notes, its refusals and its checker's violations (rendered from their
`code` and `params` too).

The scoring engine (`scoring.rules`) is pure Python and writes English only; it gives every
line and error a machine code and its parameters so that the Django side can say the same
thing in the reader's language. The messages live in the main catalogue under the gettext
context "engine". Names of games, announcements and contras (trojka, klop, Trischaken,
povinnost, flek, Kontra...) are the words players use at the table and are never translated.

Whatever cannot be rendered (an unknown code, a missing or odd parameter, a translation whose
placeholders do not fit) falls back to the engine's own English text: a tournament page must
never fail, nor show a half-formatted sentence, because of a line it does not know.

The package: `lines` (breakdown lines), `errors` (validation errors), `notes` (seating notes),
`seating_errors` (the seating engine's errors, the checker's violations and the stages of a
seating job) and `common` (the names and number formats they share).
"""

from tournaments.engine_text.errors import ERROR_CODES, error_text
from tournaments.engine_text.lines import LINE_CODES, line_text
from tournaments.engine_text.notes import NOTE_CODES, note_text
from tournaments.engine_text.seating_errors import (
    SEATING_ERROR_CODES,
    VIOLATION_CODES,
    seating_error_text,
    stage_text,
    violation_text,
)

__all__ = ["ERROR_CODES", "LINE_CODES", "NOTE_CODES", "SEATING_ERROR_CODES", "VIOLATION_CODES", "error_text",
           "line_text", "note_text", "seating_error_text", "stage_text", "violation_text"]
