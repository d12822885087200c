"""Every write of the tournament domain: validate first, then change the database in one
transaction and leave an audit entry for every change of results, seating, penalties,
disputes and standings.

Views, serializers, management commands and Celery tasks call these functions and only
these; they never save models themselves. One module per concept: `events` (players,
events, the event's status), `registrations`, `player_entry` (typed in or imported), `rounds`, `scorecards` (hands,
cards, money sheets, carried totals), `officiating` (penalties, disputes, adjustments) and
`validation` (the checks every write shares); and, called by their own module's name, the
seating job and a round's close (`round_jobs`), the player registry's corrections, merges
and managers (`player_registry`), the check-in desk's bulk actions (`checkin`), the event's
officials (`officials`), the table links (`table_links`), the calls for the referee and the
notices to the hall (`referee_calls`) and the audit trail (`audit`). The names below are the services' public face: callers write
`services.hand_save(...)` whatever module holds it. Shared building blocks (the checks, the
CSV reading and registry matching the leagues' import reuses) are imported from the module
they live in.
"""

from tournaments.services.events import (
    EVENT_FIELDS,
    event_create,
    event_status_follow,
    event_update,
    player_career_hide,
    player_create,
    players_create_many,
)
from tournaments.services.officiating import (
    dispute_decide,
    dispute_open,
    penalty_record,
    standings_adjust,
)
from tournaments.services.player_entry import (
    IMPORT_COLUMNS,
    IMPORT_STATUSES,
    PLAYER_IMPORT_COLUMNS,
    registration_add,
    registrations_import_csv,
)
from tournaments.services.registrations import (
    registration_create,
    registration_set_status,
    registrations_create_many,
)
from tournaments.services.rounds import (
    CHECKER_NOTE,
    is_checker_note,
    round_publish,
    round_reopen,
    round_start_clock,
    round_store,
    round_swap_players,
    round_unpublish,
    seating_violations,
)
from tournaments.services.scorecards import (
    hand_confirm,
    hand_delete,
    hand_save,
    money_sheet_save,
    refresh_carried_totals,
    scorecard_annul,
    scorecard_confirm,
    scorecard_submit,
    scorecard_verify,
)

__all__ = [
    "CHECKER_NOTE",
    "EVENT_FIELDS",
    "IMPORT_COLUMNS",
    "IMPORT_STATUSES",
    "PLAYER_IMPORT_COLUMNS",
    "dispute_decide",
    "dispute_open",
    "event_create",
    "event_status_follow",
    "event_update",
    "hand_confirm",
    "hand_delete",
    "hand_save",
    "is_checker_note",
    "money_sheet_save",
    "penalty_record",
    "player_create",
    "player_career_hide",
    "players_create_many",
    "refresh_carried_totals",
    "registration_add",
    "registration_create",
    "registration_set_status",
    "registrations_create_many",
    "registrations_import_csv",
    "round_publish",
    "round_start_clock",
    "round_store",
    "round_reopen",
    "round_swap_players",
    "round_unpublish",
    "scorecard_annul",
    "scorecard_confirm",
    "scorecard_submit",
    "scorecard_verify",
    "seating_violations",
    "standings_adjust",
]
