"""Every write of leagues and cup series: validate first, then change the database in one
transaction and leave an audit entry (tournaments.audit.record) for every change of a
season's members, schedule, matchdays, final order, promotions and relegations, and of a cup
series' tournaments and points table.

Matchdays are events: they are created, registered, seated, published and closed through
tournaments.services / services_rounds, so a matchday's tables are entered and confirmed
exactly like a tournament's. The schedule comes from the seating engine's `league` system;
the ranking arithmetic and the next season's plan live in leagues.selectors, which these
services call and store.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from leagues import league_standings, next_season, selectors
from leagues.models import (
    CupPoints,
    CupSeries,
    CupSeriesEvent,
    Division,
    League,
    Matchday,
    Season,
    SeasonMembership,
)
from tournaments import audit, jobs, services_rounds
from tournaments import rights as tournament_rights
from tournaments import services as tournament_services
from tournaments.errors import Conflict, Forbidden, NotFound, ServiceError, validation_errors
from tournaments.models import Event, Job, Player, Round
from tournaments.rulesets import ruleset_config_errors
from tournaments.seating import SeatingInvalid, seat_round
from tournaments.seating.checker import check_seating


def _err(field_name: str, code: str, message: str) -> dict[str, Any]:
    return {"hand": None, "field": field_name, "code": code, "message": message}


def _full_clean(obj: Any, exclude: Sequence[str] = ()) -> None:
    try:
        obj.full_clean(exclude=list(exclude))
    except ValidationError as exc:
        raise ServiceError(validation_errors(exc)) from exc


def _jsonable(value: Any) -> Any:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return value


def roman(number: int) -> str:
    out = []
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                           (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


def default_division_name(level: int) -> str:
    # Seed 000 §4.2: "I. II. in III. liga".
    return _("%(roman)s. league") % {"roman": roman(level)}


# ---------------------------------------------------------------------------------------
# Leagues
# ---------------------------------------------------------------------------------------

LEAGUE_FIELDS = {
    "name", "slug", "description", "division_size", "movement_count", "ruleset_code",
    "ruleset_mode", "ruleset_options", "hands_per_matchday", "division_count",
    "qualification_group", "table_size", "min_table_size", "is_public",
}


def _check_league(league: League) -> None:
    errors = [_err(f, "invalid_ruleset", m)
              for f, ms in ruleset_config_errors(league.ruleset_code, league.ruleset_mode,
                                                 league.ruleset_options).items() for m in ms]
    if league.movement_count * 2 > league.division_size:
        errors.append(_err("movement_count", "too_many_moves", _(
            "%(m)s up and %(m)s down do not fit in a division of %(s)s players")
            % {"m": league.movement_count, "s": league.division_size}))
    if league.hands_per_matchday < 1:
        errors.append(_err("hands_per_matchday", "invalid", _("a matchday has at least one game")))
    try:
        league.full_clean(exclude=["organisers"])
    except ValidationError as exc:
        errors.extend(e for e in validation_errors(exc) if not e["field"].startswith("ruleset"))
    if errors:
        raise ServiceError(errors)


@transaction.atomic
def league_create(*, actor: Any, organisers: Sequence[Any] | None = None, **fields: Any) -> League:
    unknown = set(fields) - LEAGUE_FIELDS
    if unknown:
        raise ServiceError(_("unknown league fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    league = League(**fields)
    _check_league(league)
    league.save()
    for user in organisers or []:
        league.organisers.add(user)
    audit.record(actor=actor, action="league.create", target=league,
                 after={k: _jsonable(v) for k, v in fields.items()})
    return league


@transaction.atomic
def league_update(*, league: League, actor: Any, **fields: Any) -> League:
    unknown = set(fields) - LEAGUE_FIELDS
    if unknown:
        raise ServiceError(_("unknown league fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    before = {k: _jsonable(getattr(league, k)) for k in fields}
    for k, v in fields.items():
        setattr(league, k, v)
    _check_league(league)
    league.save()
    audit.record(actor=actor, action="league.update", target=league, before=before,
                 after={k: _jsonable(getattr(league, k)) for k in fields})
    return league


# ---------------------------------------------------------------------------------------
# Seasons, divisions, members
# ---------------------------------------------------------------------------------------

def _check_planning(season: Season) -> None:
    if season.status == Season.Status.FINISHED:
        raise ServiceError(_("the season is finished"), field="season", code="season_finished")
    if selectors.any_matchday_seated(season):
        raise ServiceError(_("a matchday is already seated: the members and the schedule are fixed"),
                           field="season", code="season_started")


def _division_specs(league: League, divisions: Sequence[dict[str, Any]] | None) -> list[dict[str, Any]]:
    if divisions is None:
        specs = [{"name": default_division_name(n), "size": league.division_size,
                  "is_qualification": False, "plays_matchdays": True}
                 for n in range(1, league.division_count + 1)]
        if league.qualification_group:
            specs.append({"name": _("Qualification group"), "size": 0, "is_qualification": True,
                          "plays_matchdays": False})
        return specs
    specs = []
    errors = []
    for i, spec in enumerate(divisions):
        if not isinstance(spec, dict):
            errors.append(_err(f"divisions[{i}]", "not_an_object", _("a division is an object")))
            continue
        is_q = bool(spec.get("is_qualification", False))
        size = spec.get("size", 0 if is_q else league.division_size)
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            errors.append(_err(f"divisions[{i}].size", "invalid", _("size must be a whole number >= 0")))
            continue
        if not is_q and size < league.movement_count * 2:
            errors.append(_err(f"divisions[{i}].size", "too_small", _(
                "a league of %(s)s players cannot send %(m)s up and %(m)s down")
                % {"s": size, "m": league.movement_count}))
        specs.append({"name": str(spec.get("name") or (_("Qualification group") if is_q else default_division_name(i + 1))),
                      "size": size, "is_qualification": is_q,
                      "plays_matchdays": bool(spec.get("plays_matchdays", not is_q))})
    qual = [i for i, s in enumerate(specs) if s["is_qualification"]]
    if len(qual) > 1:
        errors.append(_err("divisions", "two_qualification_groups", _("a season has one qualification group")))
    elif qual and qual[0] != len(specs) - 1:
        errors.append(_err("divisions", "qualification_not_last", _("the qualification group comes last")))
    if not any(not s["is_qualification"] for s in specs):
        errors.append(_err("divisions", "no_league", _("a season needs at least one league")))
    if errors:
        raise ServiceError(errors)
    return specs


@transaction.atomic
def season_create(*, league: League, actor: Any, name: str, slug: str = "",
                  starts_on: dt.date | None = None, ends_on: dt.date | None = None,
                  planned_matchdays: int = 9, seed: int | None = None,
                  divisions: Sequence[dict[str, Any]] | None = None,
                  previous: Season | None = None) -> Season:
    """A new season with its divisions (by default the league's number of leagues, named
    I., II., III. ..., and a qualification group: seed 000 §4.2)."""
    slug = slug or slugify(name)
    if not slug:
        raise ServiceError(_("a season needs a name"), field="name", code="required")
    if league.seasons.filter(slug=slug).exists():
        raise ServiceError(_("the league already has a season %(s)s") % {"s": slug}, field="slug",
                           code="slug_taken")
    if not isinstance(planned_matchdays, int) or planned_matchdays < 1:
        raise ServiceError(_("a season has at least one matchday"), field="planned_matchdays", code="invalid")
    if starts_on and ends_on and ends_on < starts_on:
        raise ServiceError(_("the season ends before it starts"), field="ends_on", code="invalid")
    specs = _division_specs(league, divisions)
    season = Season(league=league, name=name, slug=slug, starts_on=starts_on, ends_on=ends_on,
                    planned_matchdays=planned_matchdays, previous=previous,
                    seed=seed if seed is not None else secrets.randbelow(2**31))
    _full_clean(season, exclude=["previous"])
    season.save()
    for level, spec in enumerate(specs, start=1):
        Division.objects.create(season=season, level=level, **spec)
    audit.record(actor=actor, action="league.season.create", target=season,
                 after={"name": name, "divisions": [s["name"] for s in specs],
                        "planned_matchdays": planned_matchdays})
    return season


SEASON_FIELDS = {"name", "starts_on", "ends_on", "planned_matchdays"}


@transaction.atomic
def season_update(*, season: Season, actor: Any, **fields: Any) -> Season:
    unknown = set(fields) - SEASON_FIELDS
    if unknown:
        raise ServiceError(_("unknown season fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    season = Season.objects.select_for_update().get(pk=season.pk)
    if "planned_matchdays" in fields:
        planned = fields["planned_matchdays"]
        if not isinstance(planned, int) or planned < 1:
            raise ServiceError(_("a season has at least one matchday"), field="planned_matchdays",
                               code="invalid")
        existing = season.matchdays.count()
        if planned < existing:
            raise ServiceError(_("%(n)s matchdays already exist") % {"n": existing},
                               field="planned_matchdays", code="below_existing")
        scheduled = _scheduled_matchdays(season)
        if planned != season.planned_matchdays and selectors.any_matchday_seated(season) and planned > scheduled:
            raise ServiceError(_("the schedule, fixed since the first matchday, has %(n)s matchdays")
                               % {"n": scheduled}, field="planned_matchdays", code="schedule_fixed")
    before = {k: _jsonable(getattr(season, k)) for k in fields}
    for k, v in fields.items():
        setattr(season, k, v)
    if season.starts_on and season.ends_on and season.ends_on < season.starts_on:
        raise ServiceError(_("the season ends before it starts"), field="ends_on", code="invalid")
    _full_clean(season, exclude=["previous"])
    if ("planned_matchdays" in fields and before["planned_matchdays"] != season.planned_matchdays
            and not selectors.any_matchday_seated(season) and season.schedule):
        # The schedule was drawn for the old number of matchdays: it must be drawn again.
        season.schedule = {}
    season.save()
    audit.record(actor=actor, action="league.season.update", target=season, before=before,
                 after={k: _jsonable(getattr(season, k)) for k in fields})
    return season


def _scheduled_matchdays(season: Season) -> int:
    lengths = [len(d.get("rounds", [])) for d in (season.schedule or {}).get("divisions", {}).values()]
    return min(lengths) if lengths else 0


def _drop_schedule(season: Season, division: Division, actor: Any) -> None:
    stored = (season.schedule or {}).get("divisions", {})
    if str(division.level) in stored:
        stored.pop(str(division.level))
        season.save(update_fields=["schedule"])
        audit.record(actor=actor, action="league.schedule.invalidate", target=season,
                     after={"division": division.name},
                     reason=_("the members of the division changed"))


@transaction.atomic
def membership_add(*, division: Division, player: Player, actor: Any, seed_position: int | None = None,
                   origin: str = SeasonMembership.Origin.NEW) -> SeasonMembership:
    season = Season.objects.select_for_update().get(pk=division.season_id)
    _check_planning(season)
    if origin not in SeasonMembership.Origin.values:
        raise ServiceError(_("unknown origin %(o)s") % {"o": origin}, field="origin", code="invalid_choice")
    if season.memberships.filter(player=player).exists():
        raise ServiceError(_("%(p)s is already in this season") % {"p": player}, field="player",
                           code="already_member")
    taken = set(division.memberships.values_list("seed_position", flat=True))
    if division.size and len(taken) >= division.size:
        raise ServiceError(_("%(d)s is full (%(n)s players)") % {"d": division.name, "n": division.size},
                           field="division", code="division_full")
    if seed_position is None:
        seed_position = next(n for n in range(1, len(taken) + 2) if n not in taken)
    if seed_position < 1 or (division.size and seed_position > division.size):
        raise ServiceError(_("seed position %(n)s is outside the division") % {"n": seed_position},
                           field="seed_position", code="out_of_range")
    if seed_position in taken:
        raise ServiceError(_("seed position %(n)s is taken") % {"n": seed_position},
                           field="seed_position", code="seed_position_taken")
    membership = SeasonMembership.objects.create(season=season, division=division, player=player,
                                                 seed_position=seed_position, origin=origin)
    _drop_schedule(season, division, actor)
    audit.record(actor=actor, action="league.membership.add", target=membership,
                 after={"division": division.name, "player": player.pk, "seed_position": seed_position,
                        "origin": origin})
    return membership


@transaction.atomic
def membership_remove(*, membership: SeasonMembership, actor: Any, reason: str = "") -> None:
    season = Season.objects.select_for_update().get(pk=membership.season_id)
    _check_planning(season)
    before = {"division": membership.division.name, "player": membership.player_id,
              "seed_position": membership.seed_position}
    division = membership.division
    audit.record(actor=actor, action="league.membership.remove", target=season, before=before,
                 reason=reason)
    membership.delete()
    _drop_schedule(season, division, actor)


@transaction.atomic
def membership_move(*, membership: SeasonMembership, actor: Any, seed_position: int,
                    division: Division | None = None) -> SeasonMembership:
    """Give a member another seed position, in his division or another of the season, before
    the schedule is fixed. A position held by another member is exchanged: the other takes
    the mover's old place, so that nobody is left without one. The schedule of every division
    whose members changed is dropped (to be drawn again)."""
    season = Season.objects.select_for_update().get(pk=membership.season_id)
    _check_planning(season)
    membership = SeasonMembership.objects.select_related("division", "player").get(pk=membership.pk)
    target = division or membership.division
    if target.season_id != season.pk:
        raise ServiceError(_("%(d)s is not a division of this season") % {"d": target.name},
                           field="division", code="other_season")
    if not isinstance(seed_position, int) or isinstance(seed_position, bool) or seed_position < 1 \
            or (target.size and seed_position > target.size):
        raise ServiceError(_("seed position %(n)s is outside the division") % {"n": seed_position},
                           field="seed_position", code="out_of_range")
    source = membership.division
    before = {"division": source.name, "seed_position": membership.seed_position}
    if source.pk == target.pk and seed_position == membership.seed_position:
        return membership
    holder = target.memberships.filter(seed_position=seed_position).exclude(pk=membership.pk).first()
    if holder is None and target.pk != source.pk and target.size \
            and target.memberships.count() >= target.size:
        raise ServiceError(_("%(d)s is full (%(n)s players)") % {"d": target.name, "n": target.size},
                           field="division", code="division_full")
    old_position = membership.seed_position
    # Park the mover outside every division's positions while the two exchange places: the
    # database holds each position of a division once at every moment.
    parked = (SeasonMembership.objects.filter(season=season).aggregate(m=Max("seed_position"))["m"] or 0) + 1
    membership.seed_position = parked
    membership.save(update_fields=["seed_position"])
    if holder is not None:
        holder.division = source
        holder.seed_position = old_position
        holder.save(update_fields=["division", "seed_position"])
        audit.record(actor=actor, action="league.membership.move", target=holder,
                     before={"division": target.name, "seed_position": seed_position},
                     after={"division": source.name, "seed_position": old_position})
    membership.division = target
    membership.seed_position = seed_position
    membership.save(update_fields=["division", "seed_position"])
    audit.record(actor=actor, action="league.membership.move", target=membership, before=before,
                 after={"division": target.name, "seed_position": seed_position})
    if source.pk != target.pk:
        _drop_schedule(season, source, actor)
        _drop_schedule(season, target, actor)
    return membership


@transaction.atomic
def applicants_select(*, season: Season, applicants: Sequence[Player], actor: Any,
                      criterion: str | None = None, criterion_event: Event | None = None) -> dict[str, list]:
    """Fill the free places of a season being planned from a list of applicants, ranked by one
    of the seed's criteria when more apply than there are places (seed 000 §4.2). The highest
    league is filled first; who finds no place joins the qualification group, or is not
    admitted when the season has none."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    _check_planning(season)
    divisions = selectors.divisions_of(season)
    members = {m.player_id for d in divisions for m in d.memberships.all()}
    errors = [_err(f"applicants[{i}]", "already_member", _("%(p)s is already in this season") % {"p": p})
              for i, p in enumerate(applicants) if p.pk in members]
    if criterion is not None and criterion not in next_season.CRITERIA:
        errors.append(_err("criterion", "invalid_choice", _("unknown criterion %(c)s") % {"c": criterion}))
    if criterion in ("qualification", "pre_competition") and criterion_event is None:
        errors.append(_err("criterion_event", "required", _("the criterion needs its tournament")))
    unique = list(dict.fromkeys(applicants))
    free = []
    for d in selectors.league_divisions(divisions):
        taken = {m.seed_position for m in d.memberships.all()}
        free.extend((d, n) for n in range(1, d.size + 1) if n not in taken)
    if len(unique) > len(free) and criterion is None:
        errors.append(_err("criterion", "required", _(
            "%(a)s players apply for %(f)s free places: choose a selection criterion")
            % {"a": len(unique), "f": len(free)}))
    if errors:
        raise ServiceError(errors)
    ranked = next_season.rank_applicants(unique, criterion, previous=season.previous,
                                       criterion_event=criterion_event)
    qual = selectors.qualification_division(divisions)
    placed, waiting, not_admitted = [], [], []
    q_next = (qual.memberships.aggregate(m=Max("seed_position"))["m"] or 0) + 1 if qual else 0
    for (player, why), slot in zip(ranked, free + [None] * len(ranked), strict=False):
        if slot is not None:
            division, position = slot
            m = SeasonMembership.objects.create(season=season, division=division, player=player,
                                                seed_position=position, origin=SeasonMembership.Origin.NEW)
            placed.append(m)
            _drop_schedule(season, division, actor)
        elif qual is not None:
            m = SeasonMembership.objects.create(season=season, division=qual, player=player,
                                                seed_position=q_next, origin=SeasonMembership.Origin.NEW)
            q_next += 1
            waiting.append(m)
            _drop_schedule(season, qual, actor)
        else:
            not_admitted.append(player)
        audit.record(actor=actor, action="league.membership.select", target=season,
                     after={"player": player.pk, "why": why,
                            "division": slot[0].name if slot else (qual.name if qual else None),
                            "seed_position": slot[1] if slot else None},
                     reason=next_season.criterion_label(criterion))
    return {"placed": placed, "qualification": waiting, "not_admitted": not_admitted}


# ---------------------------------------------------------------------------------------
# Schedule
# ---------------------------------------------------------------------------------------

# Violations of a schedule that make it unusable; the others (a swap that would avoid a
# repeat, a known schedule missed) only describe how good it is, which a manual change may
# knowingly make worse.
HARD_VIOLATIONS = {"result_invalid", "request_invalid", "wrong_number_of_matchdays", "table_too_big",
                   "table_too_small", "too_many_tables", "seated_twice", "player_missing",
                   "unknown_player", "unexpected_bye", "repeat_pairs_wrong"}


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
    _check_planning(season)
    version = int((season.schedule or {}).get("version", 0)) + 1
    key = f"{SCHEDULE_JOB}:{season.pk}:{version}"
    job, created = Job.objects.get_or_create(key=key, defaults={
        "kind": SCHEDULE_JOB, "total": 100, "result": {"season": season.pk, "seed": seed},
        "created_by": actor if getattr(actor, "is_authenticated", False) else None})
    if created or job.status == Job.Status.FAILED:
        Job.objects.filter(pk=job.pk).update(status=Job.Status.QUEUED, message="", result={"season": season.pk,
                                                                                           "seed": seed})
        from leagues.tasks import generate_league_schedule

        jobs.dispatch(generate_league_schedule, job)
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
    _check_planning(season)
    league = season.league
    seed = seed if seed is not None else (season.seed if not season.schedule else secrets.randbelow(2**31))
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ServiceError(_("the seed is a whole number >= 0"), field="seed", code="invalid")
    stored: dict[str, Any] = {}
    errors = []
    for division in selectors.divisions_of(season):
        if not division.plays_matchdays:
            continue
        player_ids = [str(m.player_id) for m in division.memberships.all()]
        if not player_ids:
            continue
        if len(player_ids) < league.min_table_size:
            errors.append(_err("divisions", "too_few_players", _(
                "%(d)s has %(n)s players, fewer than one table") % {"d": division.name, "n": len(player_ids)}))
            continue
        request = _schedule_request(season, division, player_ids, seed)
        try:
            result = seat_round(request, progress=progress)
        except SeatingInvalid as exc:
            errors.extend(_err(f"divisions.{division.level}", e.get("code", "invalid"), e["message"])
                          for e in exc.errors)
            continue
        stored[str(division.level)] = {"name": division.name, "players": player_ids,
                                       "rounds": result["rounds"], "repeat_pairs": result["repeat_pairs"],
                                       "notes": result.get("notes", [])}
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
        raise ServiceError([_err("players", v["code"], v["message"]) for v in hard])
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
            "remarks": [v["message"] for v in violations]}


# ---------------------------------------------------------------------------------------
# Matchdays
# ---------------------------------------------------------------------------------------

def _matchday_slug(season: Season, number: int) -> str:
    base = slugify(f"{season.league.slug}-{season.slug}-{number}")[:90] or f"matchday-{season.pk}-{number}"
    slug, n = base, 2
    while Event.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


@transaction.atomic
def matchday_create(*, season: Season, actor: Any, date: dt.date, venue: str = "",
                    number: int | None = None) -> Matchday:
    """A matchday (kolo) of the season on the date the organiser sets: an event under the
    league's ruleset and table form, every division playing its tables in one round of the
    league's games (24 by default, seed 000 §4.2 "Ena tekma zajema 24 iger")."""
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    if season.status == Season.Status.FINISHED:
        raise ServiceError(_("the season is finished"), field="season", code="season_finished")
    if not isinstance(date, dt.date):
        raise ServiceError(_("a matchday needs its date"), field="date", code="required")
    number = number or (season.matchdays.aggregate(m=Max("number"))["m"] or 0) + 1
    if number > season.planned_matchdays:
        raise ServiceError(_("the season plans %(n)s matchdays") % {"n": season.planned_matchdays},
                           field="number", code="out_of_range")
    if season.matchdays.filter(number=number).exists():
        raise ServiceError(_("matchday %(n)s exists") % {"n": number}, field="number", code="matchday_exists")
    league = season.league
    organisers = list(league.organisers.all())
    if getattr(actor, "is_authenticated", False) and actor not in organisers:
        organisers.append(actor)
    event = tournament_services.event_create(
        actor=actor, organisers=organisers,
        name=_("%(league)s %(season)s – matchday %(n)s") % {"league": league.name, "season": season.name, "n": number},
        slug=_matchday_slug(season, number), venue=venue, starts_on=date, ends_on=date,
        ruleset_code=league.ruleset_code, ruleset_mode=league.ruleset_mode,
        ruleset_options=dict(league.ruleset_options or {}), seating_system="league", planned_rounds=1,
        hands_per_round=league.hands_per_matchday, table_size=league.table_size,
        min_table_size=league.min_table_size, is_public=league.is_public,
    )
    matchday = Matchday.objects.create(season=season, number=number, date=date, event=event)
    audit.record(actor=actor, action="league.matchday.create", target=matchday, event=event,
                 after={"number": number, "date": date.isoformat()})
    return matchday


@transaction.atomic
def matchday_update(*, matchday: Matchday, actor: Any, date: dt.date | None = None,
                    venue: str | None = None) -> Matchday:
    fields: dict[str, Any] = {}
    if date is not None:
        if not isinstance(date, dt.date):
            raise ServiceError(_("a matchday needs its date"), field="date", code="invalid")
        fields.update(starts_on=date, ends_on=date)
    if venue is not None:
        fields["venue"] = venue
    if not fields:
        return matchday
    before = {"date": _jsonable(matchday.date), "venue": matchday.event.venue}
    tournament_services.event_update(event=matchday.event, actor=actor, **fields)
    if date is not None:
        matchday.date = date
        matchday.save(update_fields=["date"])
    audit.record(actor=actor, action="league.matchday.update", target=matchday, event=matchday.event,
                 before=before, after={"date": _jsonable(matchday.date), "venue": matchday.event.venue})
    return matchday


@transaction.atomic
def matchday_seat(*, matchday: Matchday, actor: Any) -> Round:
    """Register the season's players at the matchday and store its tables from the schedule,
    as a draft round whose tables carry their division's name (Table.section). Seating it
    again returns the round already stored."""
    matchday = Matchday.objects.select_related("season__league", "event").get(pk=matchday.pk)
    existing = selectors.matchday_round(matchday)
    if existing is not None:
        return existing
    season = Season.objects.select_for_update().get(pk=matchday.season_id)
    if season.status == Season.Status.FINISHED:
        raise ServiceError(_("the season is finished"), field="season", code="season_finished")
    event = matchday.event
    divisions = [d for d in selectors.divisions_of(season) if d.plays_matchdays and d.memberships.all()]
    errors = []
    plan = []
    for division in divisions:
        stored = selectors.schedule_of(season, division)
        members = [str(m.player_id) for m in division.memberships.all()]
        if not stored:
            errors.append(_err("schedule", "no_schedule", _("%(d)s has no schedule: draw it first")
                               % {"d": division.name}))
            continue
        if sorted(stored["players"]) != sorted(members):
            errors.append(_err("schedule", "schedule_stale", _(
                "the members of %(d)s changed since the schedule was drawn: draw it again")
                % {"d": division.name}))
            continue
        if matchday.number > len(stored["rounds"]):
            errors.append(_err("schedule", "matchday_not_scheduled", _(
                "the schedule of %(d)s has %(n)s matchdays") % {"d": division.name, "n": len(stored["rounds"])}))
            continue
        plan.append((division, stored["rounds"][matchday.number - 1]))
    if errors:
        raise ServiceError(errors)
    if not plan:
        raise ServiceError(_("no division has players"), field="season", code="no_players")
    regs = {r.player_id: r for r in event.registrations.all()}
    number = max((r.start_number for r in regs.values()), default=0)
    for division, _tables in plan:
        for m in division.memberships.all():
            if m.player_id not in regs:
                number += 1
                regs[m.player_id] = tournament_services.registration_create(
                    event=event, player=m.player, actor=actor, start_number=number)
    tables, sections, notes = [], [], []
    repeats = 0
    for division, scheduled in plan:
        for table in scheduled:
            tables.append([str(regs[int(pid)].start_number) for pid in table])
            sections.append(division.name)
        stored = selectors.schedule_of(season, division)
        before_rounds = stored["rounds"][:matchday.number - 1]
        repeats += repeat_meetings([*before_rounds, scheduled]) - repeat_meetings(before_rounds)
    rnd = tournament_services.round_store(
        event=event, number=1, seating_system="league", seed=season.seed, tables=tables, actor=actor,
        generation_key=f"league:{season.pk}:{matchday.number}:{season.schedule.get('version', 0)}",
        notes=notes, repeat_pairs=repeats, sections=sections,
    )
    if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        tournament_services.event_update(event=event, actor=actor, status=Event.Status.RUNNING)
    if season.status == Season.Status.PLANNING:
        season.status = Season.Status.RUNNING
        season.save(update_fields=["status"])
    audit.record(actor=actor, action="league.matchday.seat", target=matchday, event=event,
                 after={"tables": len(tables), "divisions": [d.name for d, _t in plan]})
    return rnd


def _round_of(matchday: Matchday) -> Round:
    rnd = selectors.matchday_round(matchday)
    if rnd is None:
        raise NotFound(_("matchday %(n)s is not seated") % {"n": matchday.number}, field="matchday",
                       code="not_seated")
    return rnd


def matchday_publish(*, matchday: Matchday, actor: Any) -> Round:
    return tournament_services.round_publish(rnd=_round_of(matchday), actor=actor)


@transaction.atomic
def matchday_close(*, matchday: Matchday, actor: Any) -> Round:
    """Close the matchday's round (every table confirmed, verified or annulled) and mark its
    event finished: the matchday then counts as played."""
    rnd = services_rounds.round_close(rnd=_round_of(matchday), actor=actor)
    tournament_services.event_update(event=matchday.event, actor=actor, status=Event.Status.FINISHED)
    return rnd


# ---------------------------------------------------------------------------------------
# End of season
# ---------------------------------------------------------------------------------------

@transaction.atomic
def season_finish(*, season: Season, actor: Any) -> Season:
    """After the last matchday: store every league player's final rank (seed 000 §4.2
    "Končni vrstni red je razviden po odigrani zadnji tekmi tekmovanja")."""
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    if season.status == Season.Status.FINISHED:
        raise ServiceError(_("the season is already finished"), field="season", code="season_finished")
    matchdays = selectors.matchdays_of(season)
    if len(matchdays) < season.planned_matchdays:
        raise ServiceError(_("%(n)s of %(p)s matchdays exist") % {"n": len(matchdays), "p": season.planned_matchdays},
                           field="matchdays", code="matchdays_missing")
    unplayed = [m.number for m in matchdays if not selectors.matchday_is_played(m)]
    if unplayed:
        raise ServiceError(_("matchdays not yet closed: %(n)s") % {"n": ", ".join(map(str, unplayed))},
                           field="matchdays", code="matchdays_open")
    standings = league_standings.season_standings(season, rank_unplayed=True)
    result: dict[str, list] = {}
    for ds in standings.divisions:
        if not ds.division.plays_matchdays:
            continue
        for row in ds.rows:
            row.membership.final_rank = row.rank
        SeasonMembership.objects.bulk_update([r.membership for r in ds.rows], ["final_rank"])
        result[ds.division.name] = [[r.membership.player_id, r.rank, r.score] for r in ds.rows]
    season.status = Season.Status.FINISHED
    season.save(update_fields=["status"])
    audit.record(actor=actor, action="league.season.finish", target=season, after=result)
    return season


@transaction.atomic
def division_set_final_order(*, division: Division, players: Sequence[Player], actor: Any,
                             reason: str) -> Division:
    """Write a division's final order by hand, with the reason: the commission's decision on
    a final order (seed 000 §4: "komisija (razsodišče), ki ... vodi celotno tekmovanje"), or
    the ranking of a qualification group that played no matchdays."""
    season = Season.objects.select_for_update().get(pk=division.season_id)
    if season.status != Season.Status.FINISHED:
        raise ServiceError(_("finish the season first"), field="season", code="season_not_finished")
    if Season.objects.filter(previous=season).exists():
        raise ServiceError(_("the next season is already formed from this order"), field="season",
                           code="season_advanced")
    if not reason.strip():
        raise ServiceError(_("a change of the final order needs a reason"), field="reason", code="required")
    members = {m.player_id: m for m in division.memberships.all()}
    ids = [p.pk for p in players]
    if sorted(ids) != sorted(members) or len(set(ids)) != len(ids):
        raise ServiceError(_("list every player of %(d)s exactly once") % {"d": division.name},
                           field="players", code="not_a_permutation")
    before = [[m.player_id, m.final_rank] for m in sorted(members.values(), key=lambda m: (m.final_rank or 0, m.seed_position))]
    for rank, pid in enumerate(ids, start=1):
        members[pid].final_rank = rank
    SeasonMembership.objects.bulk_update(members.values(), ["final_rank"])
    audit.record(actor=actor, action="league.final_order", target=division, before=before,
                 after=[[pid, rank] for rank, pid in enumerate(ids, start=1)], reason=reason.strip())
    return division


@transaction.atomic
def season_advance(*, season: Season, actor: Any, name: str, slug: str = "",
                   starts_on: dt.date | None = None, ends_on: dt.date | None = None,
                   planned_matchdays: int | None = None, seed: int | None = None,
                   leaving: Iterable[Player] = (), applicants: Sequence[Player] = (),
                   criterion: str | None = None, criterion_event: Event | None = None,
                   qualification_event: Event | None = None) -> Season:
    """Form the next season from a finished one: promotions and relegations into the seed
    positions seed 000 §4.2 names, the lowest league's relegated into the qualification group,
    the qualification's best into the lowest league, and free places filled from the
    applicants by the chosen criterion (see next_season.next_season_plan). Every promotion,
    relegation and qualification is written to the audit trail."""
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    if season.status != Season.Status.FINISHED:
        raise ServiceError(_("finish the season first"), field="season", code="season_not_finished")
    if Season.objects.filter(previous=season).exists():
        raise Conflict(_("the next season is already formed"), field="season", code="season_advanced")
    leaving = list(leaving)
    plan = next_season.next_season_plan(season, leaving=leaving, applicants=applicants, criterion=criterion,
                                      criterion_event=criterion_event, qualification_event=qualification_event)
    if plan.errors:
        raise ServiceError(plan.errors)
    new = season_create(
        league=season.league, actor=actor, name=name, slug=slug, starts_on=starts_on, ends_on=ends_on,
        planned_matchdays=planned_matchdays or season.planned_matchdays, seed=seed, previous=season,
        divisions=[{"name": d.name, "size": d.size, "is_qualification": d.is_qualification,
                    "plays_matchdays": d.plays_matchdays} for d in plan.divisions],
    )
    divisions = {d.level: d for d in new.divisions.all()}
    actions = {SeasonMembership.Origin.PROMOTED: "league.promote",
               SeasonMembership.Origin.RELEGATED: "league.relegate",
               SeasonMembership.Origin.QUALIFIED: "league.qualify"}
    for level, planned in enumerate(plan.divisions, start=1):
        division = divisions[level]
        for p in planned.placements:
            membership = SeasonMembership.objects.create(
                season=new, division=division, player=p.player, seed_position=p.seed_position, origin=p.origin)
            if p.origin in actions:
                audit.record(actor=actor, action=actions[p.origin], target=membership,
                             before={"season": season.slug, "division": p.from_division, "rank": p.from_rank},
                             after={"season": new.slug, "division": division.name,
                                    "seed_position": p.seed_position})
    old = {m.player_id: m for m in season.memberships.all()}
    for p in plan.dropped_out:
        audit.record(actor=actor, action="league.drop_out", target=old[p.player.pk],
                     before={"division": p.from_division, "rank": p.from_rank}, after=None)
    new.formation = {
        "from": season.slug,
        "qualification_event": qualification_event.slug if qualification_event else None,
        "criterion": criterion,
        "criterion_event": criterion_event.slug if criterion_event else None,
        "leaving": [p.pk for p in leaving],
        "applicants": [[player.pk, why] for player, why in plan.applicants_ranked],
        "dropped_out": [p.player.pk for p in plan.dropped_out],
        "not_admitted": [p.pk for p in plan.not_admitted],
        "notes": plan.notes,
    }
    new.save(update_fields=["formation"])
    audit.record(actor=actor, action="league.season.advance", target=new,
                 before={"season": season.slug}, after=new.formation)
    return new


# ---------------------------------------------------------------------------------------
# Cup series
# ---------------------------------------------------------------------------------------

CUP_FIELDS = {"name", "slug", "season_label", "best_results_counted", "final_counts_extra", "is_public"}


def seed_cup_points() -> dict[int, int]:
    """The cup points seed 001 names (223, 198, 180 for places 1-3 and 1 for place 50), as the
    registry's cup series holds them; nothing in between is filled in."""
    from scoring import rules

    cup = rules.cup_points()
    return dict(cup.places) if cup is not None else {}


def _check_cup(series: CupSeries) -> None:
    try:
        series.full_clean(exclude=["organisers", "events"])
    except ValidationError as exc:
        raise ServiceError(validation_errors(exc)) from exc
    if series.best_results_counted < 1:
        raise ServiceError(_("at least one result counts"), field="best_results_counted", code="invalid")


@transaction.atomic
def cup_create(*, actor: Any, organisers: Sequence[Any] | None = None, seed_points: bool = False,
               **fields: Any) -> CupSeries:
    unknown = set(fields) - CUP_FIELDS
    if unknown:
        raise ServiceError(_("unknown cup fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    series = CupSeries(**fields)
    _check_cup(series)
    series.save()
    for user in organisers or []:
        series.organisers.add(user)
    table = seed_cup_points() if seed_points else {}
    CupPoints.objects.bulk_create(CupPoints(series=series, place=k, points=v) for k, v in sorted(table.items()))
    audit.record(actor=actor, action="cup.create", target=series,
                 after={**{k: _jsonable(v) for k, v in fields.items()},
                        "points": {str(k): v for k, v in sorted(table.items())}})
    return series


@transaction.atomic
def cup_update(*, series: CupSeries, actor: Any, **fields: Any) -> CupSeries:
    unknown = set(fields) - CUP_FIELDS
    if unknown:
        raise ServiceError(_("unknown cup fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    before = {k: getattr(series, k) for k in fields}
    for k, v in fields.items():
        setattr(series, k, v)
    _check_cup(series)
    series.save()
    audit.record(actor=actor, action="cup.update", target=series, before=before, after=fields)
    return series


@transaction.atomic
def cup_event_add(*, series: CupSeries, event: Event, actor: Any, is_final: bool = False,
                  order: int | None = None) -> CupSeriesEvent:
    """Add a tournament to the series: one its organiser may organise (another organiser's
    event, or a private one he may not see, is not his to put in a public ranking)."""
    if not tournament_rights.can_view_event(actor, event):
        raise NotFound(_("there is no event %(slug)s") % {"slug": event.slug}, field="event",
                       code="unknown_event")
    if not tournament_rights.is_organiser(actor, event):
        raise Forbidden(_("only the organisers of %(event)s may add it to a cup series")
                        % {"event": event.name}, field="event", code="not_organiser")
    if series.series_events.filter(event=event).exists():
        raise ServiceError(_("%(e)s is already in the series") % {"e": event}, field="event", code="already_in_series")
    if is_final and series.series_events.filter(is_final=True).exists():
        raise ServiceError(_("the series already has its final"), field="is_final", code="final_exists")
    if order is None:
        order = (series.series_events.aggregate(m=Max("order"))["m"] or 0) + 1
    if not isinstance(order, int) or order < 0:
        raise ServiceError(_("the order is a whole number >= 0"), field="order", code="invalid")
    item = CupSeriesEvent.objects.create(series=series, event=event, order=order, is_final=is_final)
    audit.record(actor=actor, action="cup.event.add", target=series, event=event,
                 after={"event": event.slug, "order": order, "is_final": is_final})
    return item


@transaction.atomic
def cup_event_remove(*, series: CupSeries, event: Event, actor: Any, reason: str = "") -> None:
    item = series.series_events.filter(event=event).first()
    if item is None:
        raise NotFound(_("%(e)s is not in the series") % {"e": event}, field="event", code="not_in_series")
    before = {"event": event.slug, "order": item.order, "is_final": item.is_final}
    item.delete()
    audit.record(actor=actor, action="cup.event.remove", target=series, event=event, before=before,
                 reason=reason)


def _parse_table(table: Any) -> tuple[dict[int, int], list[dict[str, Any]]]:
    errors = []
    parsed: dict[int, int] = {}
    if not isinstance(table, dict):
        return {}, [_err("points", "not_an_object", _("the table maps places to points"))]
    for key, value in table.items():
        try:
            place = int(key)
        except (TypeError, ValueError):
            errors.append(_err(f"points.{key}", "invalid_place", _("%(k)s is not a place") % {"k": key}))
            continue
        if place < 1:
            errors.append(_err(f"points.{key}", "invalid_place", _("places start at 1")))
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            errors.append(_err(f"points.{key}", "invalid_points", _("points are a whole number >= 0")))
            continue
        if place in parsed:
            errors.append(_err(f"points.{key}", "duplicate_place", _("place %(p)s twice") % {"p": place}))
        parsed[place] = value
    ordered = sorted(parsed.items())
    for (p1, v1), (p2, v2) in zip(ordered, ordered[1:], strict=False):
        if v2 > v1:
            errors.append(_err(f"points.{p2}", "not_decreasing", _(
                "place %(p2)s would get more points (%(v2)s) than place %(p1)s (%(v1)s)")
                % {"p1": p1, "v1": v1, "p2": p2, "v2": v2}))
    return parsed, errors


@transaction.atomic
def cup_points_set(*, series: CupSeries, table: dict[Any, Any], actor: Any, reason: str = "") -> dict[int, int]:
    """Replace the series' cup-points table (place -> points). The organiser completes what
    seed 001 leaves open; a better place never gets fewer points than a worse one."""
    parsed, errors = _parse_table(table)
    if errors:
        raise ServiceError(errors)
    before = selectors.cup_points_table(series)
    CupPoints.objects.filter(series=series).delete()
    CupPoints.objects.bulk_create(CupPoints(series=series, place=k, points=v) for k, v in sorted(parsed.items()))
    audit.record(actor=actor, action="cup.points.set", target=series,
                 before={str(k): v for k, v in before.items()},
                 after={str(k): v for k, v in sorted(parsed.items())}, reason=reason)
    return parsed
