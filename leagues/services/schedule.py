"""A season's schedule: drawn by the seating engine's `league` system (in a background job for
large divisions, with progress), checked by the independent checker, two players swapped,
dropped when the members change."""

from __future__ import annotations

import hashlib
import secrets
from itertools import combinations
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues import selectors
from leagues.models import (
    Division,
    Season,
)
from leagues.services.common import err
from leagues.services.seasons import check_planning
from tournaments import services as tournament_services
from tournaments.engine_text.seating_errors import refused_stage, seating_error_text, violation_text
from tournaments.errors import ServiceError
from tournaments.models import Job, Player, Round
from tournaments.runtime import jobs
from tournaments.seating import SeatingInvalid, check_seating, seat_round
from tournaments.services import audit

# Violations of a schedule that make it unusable; the others (a swap that would avoid a
# repeat, a known schedule missed) only describe how good it is, which a manual change may
# knowingly make worse.
HARD_VIOLATIONS = {"result_invalid", "request_invalid", "wrong_number_of_matchdays", "table_too_big",
                   "table_too_small", "too_many_tables", "seated_twice", "player_missing",
                   "unknown_player", "unexpected_bye", "repeat_pairs_wrong"}


class ScheduleRefused(ServiceError):
    """The seating engine refused a division's schedule. Besides the refusal in the request's
    language it keeps the engine's errors (code, params, English, and the division's name), so
    that a background draw, which runs with no request language, can be said in the reader's
    language on the schedule page."""

    def __init__(self, errors: list[dict[str, Any]], seating_errors: list[dict[str, Any]]):
        super().__init__(errors)
        self.seating_errors = seating_errors


def division_seed(seed: int, level: int) -> int:
    digest = hashlib.sha256(f"league-schedule:{seed}:{level}".encode()).hexdigest()
    return int(digest[:12], 16)


def _schedule_request(season: Season, division: Division, player_ids: list[str], seed: int) -> dict[str, Any]:
    league = season.league
    return {"system": "league", "rounds": season.planned_matchdays, "table_size": league.table_size,
            "min_table_size": league.min_table_size, "seed": division_seed(seed, division.level),
            "players": [{"id": pid} for pid in player_ids], "history": []}


def repeat_meetings(rounds: list[list[list[str]]]) -> int:
    """Meetings of a pair after their first, over a whole schedule."""
    met: set[tuple[str, str]] = set()
    repeats = 0
    for tables in rounds:
        pairs = [tuple(sorted(p)) for table in tables for p in combinations(table, 2)]
        repeats += sum(1 for p in pairs if p in met)
        met.update(pairs)
    return repeats


# Divisions of more players than this are scheduled in a background job (`schedule_job_queue`):
# the seating engine's search over such a season takes longer than a request should
# (bench/seating.py: a few seconds at 64 players, ten and more at 80).
SCHEDULE_IN_JOB_ABOVE = 64


SCHEDULE_JOB = "league_schedule"


def schedule_needs_job(season: Season) -> bool:
    return any(division.plays_matchdays and division.memberships.count() > SCHEDULE_IN_JOB_ABOVE
               for division in selectors.divisions_of(season))


@transaction.atomic
def schedule_job_queue(*, season: Season, actor: Any, seed: int | None = None) -> Job:
    """Queue the drawing of the season's schedule as a background job with progress. Asking
    twice before it has run finds the same job: its key names the season and the schedule
    version it will write."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    check_planning(season)
    version = int((season.schedule or {}).get("version", 0)) + 1
    key = f"{SCHEDULE_JOB}:{season.pk}:{version}"
    job, created = Job.objects.get_or_create(key=key, defaults={
        "kind": SCHEDULE_JOB, "total": 100, "result": {"season": season.pk, "seed": seed},
        "created_by": actor if getattr(actor, "is_authenticated", False) else None})
    if created or job.status == Job.Status.FAILED:
        Job.objects.filter(pk=job.pk).update(status=Job.Status.QUEUED, message="", result={"season": season.pk,
                                                                                           "seed": seed})
        jobs.queue(job)
    return job


def schedule_job_run(job_id: int) -> Job:
    """Run a schedule job (called by the Celery task): draw the schedule, reporting the
    search's progress on the job. Safe to run again: a done job is left as it is."""
    job = Job.objects.get(pk=job_id)
    if job.status == Job.Status.DONE:
        return job
    season = Season.objects.get(pk=job.result["season"])

    def progress(done: int, total: int) -> None:
        Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, progress=min(99, 100 * done // max(total, 1)),
                                             updated_at=timezone.now())

    try:
        schedule_generate(season=season, actor=job.created_by, seed=job.result.get("seed"), progress=progress)
    except ScheduleRefused as exc:
        # Kept as code and params: the page says it in the language of whoever reads it.
        refused = refused_stage(exc.seating_errors)
        Job.objects.filter(pk=job.pk).update(status=Job.Status.FAILED, message=refused["message"],
                                             result={**job.result, "stage": refused}, updated_at=timezone.now())
    except ServiceError as exc:
        Job.objects.filter(pk=job.pk).update(status=Job.Status.FAILED, message=str(exc), updated_at=timezone.now())
    else:
        Job.objects.filter(pk=job.pk).update(status=Job.Status.DONE, progress=100, updated_at=timezone.now())
    job.refresh_from_db()
    return job


def schedule_job_of(season: Season) -> Job | None:
    """The latest schedule job of the season, if any."""
    return Job.objects.filter(kind=SCHEDULE_JOB, key__startswith=f"{SCHEDULE_JOB}:{season.pk}:").first()


@transaction.atomic
def schedule_generate(*, season: Season, actor: Any, seed: int | None = None,
                      progress: Any = None) -> Season:
    """Draw the season's schedule of every division that plays the matchdays with the seating
    engine's `league` system (as few repeat meetings as possible). Allowed until the first
    matchday is seated; drawing again takes a new seed unless one is given. `progress(done,
    total)` hears how far the search is (a background job shows it)."""
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    check_planning(season)
    league = season.league
    seed = seed if seed is not None else (season.seed if not season.schedule else secrets.randbelow(2**31))
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ServiceError(_("the seed is a whole number >= 0"), field="seed", code="invalid")
    stored: dict[str, Any] = {}
    errors = []
    refused: list[dict[str, Any]] = []
    for division in selectors.divisions_of(season):
        if not division.plays_matchdays:
            continue
        player_ids = [str(m.player_id) for m in division.memberships.all()]
        if not player_ids:
            continue
        if len(player_ids) < league.min_table_size:
            errors.append(err("divisions", "too_few_players", _(
                "%(d)s has %(n)s players, fewer than one table") % {"d": division.name, "n": len(player_ids)}))
            continue
        request = _schedule_request(season, division, player_ids, seed)
        try:
            result = seat_round(request, progress=progress)
        except SeatingInvalid as exc:
            errors.extend(err(f"divisions.{division.level}", e.get("code", "invalid"), seating_error_text(e))
                          for e in exc.errors)
            refused.extend({**e, "division": division.name} for e in exc.errors)
            continue
        stored[str(division.level)] = {"name": division.name, "players": player_ids,
                                       "rounds": result["rounds"], "repeat_pairs": result["repeat_pairs"],
                                       "notes": result.get("notes", [])}
    if errors and len(refused) == len(errors):
        raise ScheduleRefused(errors, refused)
    if errors:
        raise ServiceError(errors)
    if not stored:
        raise ServiceError(_("no division has players to schedule"), field="divisions", code="no_players")
    before = {level: d.get("repeat_pairs") for level, d in (season.schedule or {}).get("divisions", {}).items()}
    version = int((season.schedule or {}).get("version", 0)) + 1
    season.seed = seed
    season.schedule = {"version": version, "seed": seed, "generated_at": timezone.now().isoformat(),
                       "matchdays": season.planned_matchdays, "divisions": stored}
    season.save(update_fields=["seed", "schedule"])
    audit.record(actor=actor, action="league.schedule.generate", target=season, before=before or None,
                 after={"seed": seed, "version": version,
                        "repeat_pairs": {level: d["repeat_pairs"] for level, d in stored.items()}})
    return season


@transaction.atomic
def schedule_swap(*, season: Season, division: Division, matchday_number: int, first: Player,
                  second: Player, actor: Any, reason: str = "") -> dict[str, Any]:
    """Exchange two players' places in one matchday of a division's schedule, then check the
    whole schedule again with the seating checker. A matchday already seated changes too
    while its round is a draft; a published one is refused. Returns the new repeat count and
    what the checker says about the schedule's quality."""
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    if season.status == Season.Status.FINISHED:
        raise ServiceError(_("the season is finished"), field="season", code="season_finished")
    stored = selectors.schedule_of(season, division)
    if not stored:
        raise ServiceError(_("%(d)s has no schedule") % {"d": division.name}, field="division", code="no_schedule")
    rounds = stored["rounds"]
    if not isinstance(matchday_number, int) or not 1 <= matchday_number <= len(rounds):
        raise ServiceError(_("the schedule has matchdays 1 to %(n)s") % {"n": len(rounds)},
                           field="matchday", code="out_of_range")
    a, b = str(first.pk), str(second.pk)
    if a == b:
        raise ServiceError(_("choose two different players"), field="players", code="same_player")
    tables = [list(t) for t in rounds[matchday_number - 1]]
    where = {}
    for t, table in enumerate(tables):
        for s, pid in enumerate(table):
            where[pid] = (t, s)
    for pid, label in ((a, first), (b, second)):
        if pid not in where:
            raise ServiceError(_("%(p)s is not in the schedule of %(d)s") % {"p": label, "d": division.name},
                               field="players", code="not_scheduled")
    matchday = season.matchdays.filter(number=matchday_number).select_related("event").first()
    rnd = selectors.matchday_round(matchday) if matchday else None
    if rnd is not None and rnd.status != Round.Status.DRAFT:
        raise ServiceError(_("matchday %(n)s is already published") % {"n": matchday_number},
                           field="matchday", code="matchday_published")
    (ta, sa), (tb, sb) = where[a], where[b]
    tables[ta][sa], tables[tb][sb] = b, a
    new_rounds = [list(map(list, r)) for r in rounds]
    new_rounds[matchday_number - 1] = tables
    repeats = repeat_meetings(new_rounds)
    request = _schedule_request(season, division, stored["players"], season.seed)
    request["rounds"] = len(new_rounds)
    violations = check_seating(request, {"rounds": new_rounds, "repeat_pairs": repeats, "byes": [],
                                         "eliminated": [], "notes": []})
    hard = [v for v in violations if v["code"] in HARD_VIOLATIONS]
    if hard:
        raise ServiceError([err("players", v["code"], violation_text(v)) for v in hard])
    if rnd is not None:
        regs = {r.player_id: str(r.start_number) for r in matchday.event.registrations.all()}
        tournament_services.round_swap_players(rnd=rnd, first=regs[first.pk], second=regs[second.pk], actor=actor)
    before_repeats = stored.get("repeat_pairs", 0)
    stored["rounds"] = new_rounds
    stored["repeat_pairs"] = repeats
    stored["checked"] = [v["message"] for v in violations]
    season.save(update_fields=["schedule"])
    audit.record(actor=actor, action="league.schedule.swap", target=season,
                 event=matchday.event if matchday else None,
                 before={"division": division.name, "matchday": matchday_number,
                         "tables": rounds[matchday_number - 1], "repeat_pairs": before_repeats},
                 after={"division": division.name, "matchday": matchday_number, "tables": tables,
                        "repeat_pairs": repeats},
                 reason=reason)
    return {"repeat_pairs": repeats, "repeat_pairs_before": before_repeats,
            "remarks": [violation_text(v) for v in violations]}
