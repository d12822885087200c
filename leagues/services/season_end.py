"""The end of a season: finished with its final order stored, and the next season formed
from the plan (`leagues.next_season`): promotions, relegations, qualification, applicants."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from leagues import league_standings, next_season, selectors
from leagues.models import (
    Division,
    Season,
    SeasonMembership,
)
from leagues.services.seasons import season_create
from tournaments.errors import Conflict, ServiceError
from tournaments.models import Event, Player
from tournaments.services import audit


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
