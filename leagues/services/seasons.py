"""Writes of a season: created and changed, its divisions, and its members (added, moved to
another seed position or division, taken out, applicants selected by the seed's criteria)."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from leagues import names, next_season, selectors
from leagues.models import (
    Division,
    League,
    Season,
    SeasonMembership,
)
from leagues.services.common import default_division_name, err, full_clean, jsonable
from tournaments.domain.web_address import address_part
from tournaments.errors import ServiceError
from tournaments.models import Event, Player
from tournaments.services import audit


def check_planning(season: Season) -> None:
    if season.status == Season.Status.FINISHED:
        raise ServiceError(_("the season is finished"), field="season", code="season_finished")
    if selectors.any_matchday_seated(season):
        raise ServiceError(_("a matchday is already seated: the members and the schedule are fixed"),
                           field="season", code="season_started")


def _division_specs(league: League, divisions: Sequence[dict[str, Any]] | None) -> list[dict[str, Any]]:
    if divisions is None:
        specs = [{"name": default_division_name(n, league.language), "size": league.division_size,
                  "is_qualification": False, "plays_matchdays": True}
                 for n in range(1, league.division_count + 1)]
        if league.qualification_group:
            specs.append({"name": names.qualification_group_name(league.language), "size": 0, "is_qualification": True,
                          "plays_matchdays": False})
        return specs
    specs = []
    errors = []
    for i, spec in enumerate(divisions):
        if not isinstance(spec, dict):
            errors.append(err(f"divisions[{i}]", "not_an_object", _("a division is an object")))
            continue
        is_q = bool(spec.get("is_qualification", False))
        size = spec.get("size", 0 if is_q else league.division_size)
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            errors.append(err(f"divisions[{i}].size", "invalid", _("size must be a whole number >= 0")))
            continue
        if not is_q and size < league.movement_count * 2:
            errors.append(err(f"divisions[{i}].size", "too_small", _(
                "a league of %(s)s players cannot send %(m)s up and %(m)s down")
                % {"s": size, "m": league.movement_count}))
        specs.append({"name": str(spec.get("name") or (names.qualification_group_name(league.language) if is_q
                                                        else default_division_name(i + 1, league.language))),
                      "size": size, "is_qualification": is_q,
                      "plays_matchdays": bool(spec.get("plays_matchdays", not is_q))})
    qual = [i for i, s in enumerate(specs) if s["is_qualification"]]
    if len(qual) > 1:
        errors.append(err("divisions", "two_qualification_groups", _("a season has one qualification group")))
    elif qual and qual[0] != len(specs) - 1:
        errors.append(err("divisions", "qualification_not_last", _("the qualification group comes last")))
    if not any(not s["is_qualification"] for s in specs):
        errors.append(err("divisions", "no_league", _("a season needs at least one league")))
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
    slug = slug or address_part(name)
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
    full_clean(season, exclude=["previous"])
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
    before = {k: jsonable(getattr(season, k)) for k in fields}
    for k, v in fields.items():
        setattr(season, k, v)
    if season.starts_on and season.ends_on and season.ends_on < season.starts_on:
        raise ServiceError(_("the season ends before it starts"), field="ends_on", code="invalid")
    full_clean(season, exclude=["previous"])
    if ("planned_matchdays" in fields and before["planned_matchdays"] != season.planned_matchdays
            and not selectors.any_matchday_seated(season) and season.schedule):
        # The schedule was drawn for the old number of matchdays: it must be drawn again.
        season.schedule = {}
    season.save()
    audit.record(actor=actor, action="league.season.update", target=season, before=before,
                 after={k: jsonable(getattr(season, k)) for k in fields})
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
    check_planning(season)
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
                 after=_membership_added(membership))
    return membership


def _membership_added(membership: SeasonMembership) -> dict[str, Any]:
    return {"division": membership.division.name, "player": membership.player_id,
            "seed_position": membership.seed_position, "origin": membership.origin}


@transaction.atomic
def memberships_add_many(*, season: Season, entries: Sequence[tuple[Division, Player, int | None]],
                         actor: Any, origin: str = SeasonMembership.Origin.NEW) -> list[SeasonMembership]:
    """`membership_add` for many players at once (the rows of a CSV import), in a number of
    queries that does not grow with the list: the same checks, made over the whole list in
    its order as one call after another would make them (the season still being planned,
    each player once in the season, a division not over its size, each seed position inside
    the division and free; a position left None is the next free one of its division), then
    one insert per 500 members, one audit entry for each, and each changed division's
    schedule dropped once. All or none.

    `entries` are (division of this season, saved player, seed position or None); refusals
    name `entries[i].<field>`, i counting from 0."""
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    check_planning(season)
    if origin not in SeasonMembership.Origin.values:
        raise ServiceError(_("unknown origin %(o)s") % {"o": origin}, field="origin", code="invalid_choice")
    members = set(season.memberships.values_list("player_id", flat=True))
    taken: dict[int, set[int]] = {d.pk: set() for d in season.divisions.all()}
    for division_id, position in season.memberships.values_list("division_id", "seed_position"):
        taken[division_id].add(position)
    errors: list[dict[str, Any]] = []
    new = []
    for i, (division, player, seed_position) in enumerate(entries):
        def bad(field: str, code: str, message: str) -> None:
            errors.append(err(f"entries[{i}].{field}", code, message))  # noqa: B023

        if division.pk not in taken:
            bad("division", "unknown_division", _("%(d)s is not a division of this season") % {"d": division.name})
            continue
        positions = taken[division.pk]
        if player.pk in members:
            bad("player", "already_member", _("%(p)s is already in this season") % {"p": player})
            continue
        if division.size and len(positions) >= division.size:
            bad("division", "division_full", _("%(d)s is full (%(n)s players)") % {"d": division.name,
                                                                                  "n": division.size})
            continue
        if seed_position is None:
            seed_position = next(n for n in range(1, len(positions) + 2) if n not in positions)
        if seed_position < 1 or (division.size and seed_position > division.size):
            bad("seed_position", "out_of_range",
                _("seed position %(n)s is outside the division") % {"n": seed_position})
            continue
        if seed_position in positions:
            bad("seed_position", "seed_position_taken", _("seed position %(n)s is taken") % {"n": seed_position})
            continue
        members.add(player.pk)
        positions.add(seed_position)
        division.season = season  # the members' names say their season and league
        new.append(SeasonMembership(season=season, division=division, player=player,
                                    seed_position=seed_position, origin=origin))
    if errors:
        raise ServiceError(errors)
    created = SeasonMembership.objects.bulk_create(new, batch_size=500)
    if any(m.pk is None for m in created):  # pragma: no cover - PostgreSQL and SQLite return keys
        raise ServiceError(_("the database returned no keys for the new members"), code="no_keys_returned")
    for division in {m.division_id: m.division for m in created}.values():
        _drop_schedule(season, division, actor)
    audit.record_many(actor=actor, action="league.membership.add",
                      changes=[(m, _membership_added(m)) for m in created])
    return created


@transaction.atomic
def membership_remove(*, membership: SeasonMembership, actor: Any, reason: str = "") -> None:
    season = Season.objects.select_for_update().get(pk=membership.season_id)
    check_planning(season)
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
    check_planning(season)
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
    check_planning(season)
    divisions = selectors.divisions_of(season)
    members = {m.player_id for d in divisions for m in d.memberships.all()}
    errors = [err(f"applicants[{i}]", "already_member", _("%(p)s is already in this season") % {"p": p})
              for i, p in enumerate(applicants) if p.pk in members]
    if criterion is not None and criterion not in next_season.CRITERIA:
        errors.append(err("criterion", "invalid_choice", _("unknown criterion %(c)s") % {"c": criterion}))
    if criterion in ("qualification", "pre_competition") and criterion_event is None:
        errors.append(err("criterion_event", "required", _("the criterion needs its tournament")))
    unique = list(dict.fromkeys(applicants))
    free = []
    for d in selectors.league_divisions(divisions):
        taken = {m.seed_position for m in d.memberships.all()}
        free.extend((d, n) for n in range(1, d.size + 1) if n not in taken)
    if len(unique) > len(free) and criterion is None:
        errors.append(err("criterion", "required", _(
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
