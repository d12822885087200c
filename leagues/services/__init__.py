"""Every write of leagues and cup series: validate first, then change the database in one
transaction and leave an audit entry (tournaments.services.audit.record) for every change of a
season's members, schedule, matchdays, final order, promotions and relegations, and of a cup
series' tournaments and points table.

Matchdays are events: they are created, registered, seated, published and closed through
tournaments.services (and its round_jobs), so a matchday's tables are entered and confirmed
exactly like a tournament's. The schedule comes from the seating engine's `league` system;
the ranking arithmetic and the next season's plan live in leagues.league_standings and
leagues.next_season, which these services call and store.

One module per concept: `leagues`, `seasons` (divisions and members), `schedule`,
`matchdays`, `season_end`, `cups`, `members_import` (a season's players from a CSV file),
and `common` (what they share). The names below are the
services' public face: callers write `services.season_create(...)`.
"""

from leagues.services.common import (
    default_division_name,
)
from leagues.services.cups import (
    CUP_FIELDS,
    cup_create,
    cup_event_add,
    cup_event_remove,
    cup_points_set,
    cup_update,
    seed_cup_points,
)
from leagues.services.leagues import (
    LEAGUE_FIELDS,
    league_create,
    league_update,
)
from leagues.services.matchdays import (
    matchday_close,
    matchday_create,
    matchday_publish,
    matchday_seat,
    matchday_update,
)
from leagues.services.schedule import (
    HARD_VIOLATIONS,
    SCHEDULE_IN_JOB_ABOVE,
    SCHEDULE_JOB,
    division_seed,
    repeat_meetings,
    schedule_generate,
    schedule_job_of,
    schedule_job_queue,
    schedule_job_run,
    schedule_needs_job,
    schedule_swap,
)
from leagues.services.season_end import (
    division_set_final_order,
    season_advance,
    season_finish,
)
from leagues.services.seasons import (
    SEASON_FIELDS,
    applicants_select,
    membership_add,
    membership_move,
    membership_remove,
    memberships_add_many,
    season_create,
    season_update,
)

__all__ = [
    "CUP_FIELDS",
    "HARD_VIOLATIONS",
    "LEAGUE_FIELDS",
    "SCHEDULE_IN_JOB_ABOVE",
    "SCHEDULE_JOB",
    "SEASON_FIELDS",
    "applicants_select",
    "cup_create",
    "cup_event_add",
    "cup_event_remove",
    "cup_points_set",
    "cup_update",
    "default_division_name",
    "division_seed",
    "division_set_final_order",
    "league_create",
    "league_update",
    "matchday_close",
    "matchday_create",
    "matchday_publish",
    "matchday_seat",
    "matchday_update",
    "membership_add",
    "memberships_add_many",
    "membership_move",
    "membership_remove",
    "repeat_meetings",
    "schedule_generate",
    "schedule_job_of",
    "schedule_job_queue",
    "schedule_job_run",
    "schedule_needs_job",
    "schedule_swap",
    "season_advance",
    "season_create",
    "season_finish",
    "season_update",
    "seed_cup_points",
]
