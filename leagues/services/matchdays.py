"""A season's matchdays: each one an event created, registered, seated from the schedule,
published and closed through the tournaments' services, so its tables are entered and
confirmed exactly like a tournament's; its date and venue changed."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _

from leagues import names, selectors
from leagues.models import (
    Matchday,
    Season,
)
from leagues.services.common import err, jsonable
from leagues.services.schedule import repeat_meetings
from tournaments import services as tournament_services
from tournaments.errors import NotFound, ServiceError
from tournaments.models import Event, Registration, Round
from tournaments.services import audit, round_jobs


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
        name=names.matchday_event_name(league, season, number), language=league.language,
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
    before = {"date": jsonable(matchday.date), "venue": matchday.event.venue}
    tournament_services.event_update(event=matchday.event, actor=actor, **fields)
    if date is not None:
        matchday.date = date
        matchday.save(update_fields=["date"])
    audit.record(actor=actor, action="league.matchday.update", target=matchday, event=matchday.event,
                 before=before, after={"date": jsonable(matchday.date), "venue": matchday.event.venue})
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
            errors.append(err("schedule", "no_schedule", _("%(d)s has no schedule: draw it first")
                               % {"d": division.name}))
            continue
        if sorted(stored["players"]) != sorted(members):
            errors.append(err("schedule", "schedule_stale", _(
                "the members of %(d)s changed since the schedule was drawn: draw it again")
                % {"d": division.name}))
            continue
        if matchday.number > len(stored["rounds"]):
            errors.append(err("schedule", "matchday_not_scheduled", _(
                "the schedule of %(d)s has %(n)s matchdays") % {"d": division.name, "n": len(stored["rounds"])}))
            continue
        plan.append((division, stored["rounds"][matchday.number - 1]))
    if errors:
        raise ServiceError(errors)
    if not plan:
        raise ServiceError(_("no division has players"), field="season", code="no_players")
    regs = {r.player_id: r for r in event.registrations.all()}
    number = max((r.start_number for r in regs.values()), default=0)
    # The members not registered yet, registered together (one insert, one audit entry each).
    new = {}
    for division, _tables in plan:
        for m in division.memberships.select_related("player"):
            if m.player_id not in regs and m.player_id not in new:
                number += 1
                new[m.player_id] = (m.player, number, Registration.Status.REGISTERED)
    if new:
        regs.update((r.player_id, r) for r in tournament_services.registrations_create_many(
            event=event, entries=list(new.values()), actor=actor))
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
    rnd = round_jobs.round_close(rnd=_round_of(matchday), actor=actor)
    tournament_services.event_update(event=matchday.event, actor=actor, status=Event.Status.FINISHED)
    return rnd
