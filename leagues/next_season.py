"""The plan of the next season (seed 000 §4.2): who goes up, who goes down and to which seed
position, and who fills the free places by the selection criterion the organiser picks. A
calculation over the finished season's standings; `leagues.services.season_advance` writes
it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from leagues.league_standings import movement_counts
from leagues.models import (
    Division,
    Season,
    SeasonMembership,
)
from leagues.selectors import divisions_of, league_divisions, qualification_division
from tournaments.domain.standings import event_standings
from tournaments.models import Event, Player

CRITERIA = ("previous_season", "qualification", "pre_competition")


def criterion_label(code: str | None) -> str:
    return {
        "previous_season": _("results of the previous league season"),
        "qualification": _("result at the qualification"),
        "pre_competition": _("result at the pre-competition"),
        None: _("order of application"),
    }[code]


@dataclass
class Placement:
    player: Player
    seed_position: int
    origin: str
    from_division: str = ""
    from_rank: int | None = None
    note: str = ""


@dataclass
class PlannedDivision:
    level: int
    name: str
    size: int
    is_qualification: bool
    plays_matchdays: bool
    placements: list[Placement] = field(default_factory=list)

    def vacant_positions(self) -> list[int]:
        if self.is_qualification or not self.size:
            return []
        taken = {p.seed_position for p in self.placements}
        return [n for n in range(1, self.size + 1) if n not in taken]


@dataclass
class NextSeasonPlan:
    divisions: list[PlannedDivision]
    dropped_out: list[Placement]  # out of the league (no qualification group to fall into)
    not_admitted: list[Player]  # applicants left without a place and no qualification group
    applicants_ranked: list[tuple[Player, str]]
    criterion: str | None
    notes: list[str]
    errors: list[dict[str, Any]]

    def placement_of(self, player: Player) -> tuple[PlannedDivision, Placement] | None:
        for division in self.divisions:
            for placement in division.placements:
                if placement.player.pk == player.pk:
                    return division, placement
        return None


def _error(field_name: str, code: str, message: str) -> dict[str, Any]:
    return {"hand": None, "field": field_name, "code": code, "message": message}


def _final_order(division: Division) -> list[SeasonMembership] | None:
    members = list(division.memberships.all())
    if members and all(m.final_rank for m in members):
        return sorted(members, key=lambda m: m.final_rank)
    return None


def rank_applicants(applicants: Sequence[Player], criterion: str | None, *,
                    previous: Season | None = None,
                    criterion_event: Event | None = None) -> list[tuple[Player, str]]:
    """Order applicants by one of the seed's criteria (seed 000 §4.2: "V kolikor se prijavi
    več igralcev, se izbor in vrstni red določi po enem izmed naslednjih kriterijev: doseženi
    rezultati prejšnjega ligaškega prvenstva, doseženi rezultat na kvalifikacijah, doseženi
    rezultat na predtekmovanju"). Who has no result under the criterion follows, in the order
    of application; so do equal results."""
    keyed: list[tuple[tuple, Player, str]] = []
    if criterion == "previous_season":
        ranks: dict[int, tuple[int, int, str]] = {}
        if previous is not None:
            for division in previous.divisions.prefetch_related("memberships"):
                for m in division.memberships.all():
                    ranks[m.player_id] = (division.level, m.final_rank or m.seed_position,
                                          f"{division.name} {m.final_rank or m.seed_position}.")
        for index, player in enumerate(applicants):
            hit = ranks.get(player.pk)
            keyed.append(((0, hit[0], hit[1], index) if hit else (1, 0, 0, index), player,
                          hit[2] if hit else _("no result")))
    elif criterion in ("qualification", "pre_competition"):
        places: dict[int, int] = {}
        if criterion_event is not None:
            for row in event_standings(criterion_event).rows:
                places.setdefault(row.registration.player_id, row.rank)
        for index, player in enumerate(applicants):
            place = places.get(player.pk)
            keyed.append(((0, place, index) if place else (1, 0, index), player,
                          f"{place}." if place else _("did not play")))
    else:
        for index, player in enumerate(applicants):
            keyed.append(((index,), player, f"{index + 1}."))
    keyed.sort(key=lambda k: k[0])
    return [(player, why) for _key, player, why in keyed]


def next_season_plan(season: Season, *, leaving: Iterable[Player] = (),
                     applicants: Sequence[Player] = (), criterion: str | None = None,
                     criterion_event: Event | None = None,
                     qualification_event: Event | None = None) -> NextSeasonPlan:
    """Where every player of a finished season goes (seed 000 §4.2):

    "Po končanem ligaškem prvenstvu izpade iz vsake lige 10 igralcev v nižjo ligo (na
    pozicije od 1 do 10) in po 10 igralcev napreduje v višjo ligo (na pozicije od 23 do 32).
    Zmagovalci območnih lig igrajo kvalifikacije (10 najboljših se uvrsti v višjo ligo). Kdor
    izpade iz III. lige pade v kvalifikacijsko skupino oz. v območno ligo iz katere izhaja."

    With division size S and movement M (32 and 10 by default): relegated players take
    positions 1..M of the lower league, those who stay keep their final rank as position,
    promoted players take S-M+1..S of the higher league. Who leaves frees his place, which the
    best who stayed in the league below takes (and so on down); the free places left are
    filled by the applicants, ranked by the criterion, highest league first.
    """
    league = season.league
    movement = league.movement_count
    divisions = divisions_of(season)
    leagues = league_divisions(divisions)
    qual = qualification_division(divisions)
    errors: list[dict[str, Any]] = []
    notes: list[str] = []
    leaving_ids = {p.pk for p in leaving}
    members = {m.player_id: (d, m) for d in divisions for m in d.memberships.all()}
    for pid in sorted(leaving_ids - set(members)):
        errors.append(_error("leaving", "not_a_member", _("player %(id)s is not in this season") % {"id": pid}))

    orders: dict[int, list[SeasonMembership]] = {}
    for division in leagues:
        order = _final_order(division)
        if order is None:
            errors.append(_error("season", "no_final_order",
                                 _("%(division)s has no final order: finish the season first")
                                 % {"division": division.name}))
            order = list(division.memberships.all())
        orders[division.level] = order

    planned = [PlannedDivision(level=d.level, name=d.name, size=league.division_size,
                               is_qualification=False, plays_matchdays=d.plays_matchdays)
               for d in leagues]
    planned_q = None
    if qual is not None or league.qualification_group:
        planned_q = PlannedDivision(
            level=(qual.level if qual is not None else len(leagues) + 1),
            name=qual.name if qual is not None else _("Qualification group"), size=0,
            is_qualification=True, plays_matchdays=qual.plays_matchdays if qual is not None else False)
    size = league.division_size
    ups: dict[int, list[SeasonMembership]] = {}
    downs: dict[int, list[SeasonMembership]] = {}
    stays: dict[int, list[SeasonMembership]] = {}
    for position, division in enumerate(leagues):
        order = orders[division.level]
        up, down = movement_counts(position, len(leagues), len(order), movement, is_qualification=False)
        ups[division.level] = order[:up]
        downs[division.level] = order[len(order) - down:] if down else []
        stays[division.level] = order[up:len(order) - down]

    # The qualification group's best go up to the lowest league: by the qualification
    # tournament when the organiser names one, else by the group's own final order.
    league_member_ids = {m.player_id for d in leagues for m in d.memberships.all()}
    qual_up: list[tuple[Player, str, int | None]] = []
    qual_stay: list[SeasonMembership] = []
    qual_members = list(qual.memberships.all()) if qual is not None else []
    if qualification_event is not None:
        taken: set[int] = set()
        for row in event_standings(qualification_event).rows:
            pid = row.registration.player_id
            if pid in league_member_ids or pid in leaving_ids or pid in taken:
                continue
            if len(qual_up) >= movement:
                break
            taken.add(pid)
            qual_up.append((row.registration.player, qualification_event.name, row.rank))
        qual_stay = sorted((m for m in qual_members if m.player_id not in taken),
                           key=lambda m: (m.final_rank or 10**6, m.seed_position))
        notes.append(_("The %(n)s best of %(event)s who are not in a league go up.")
                     % {"n": movement, "event": qualification_event.name})
    elif qual is not None and qual_members:
        order = _final_order(qual)
        if order is not None:
            qual_up = [(m.player, qual.name, m.final_rank) for m in order[:movement]]
            qual_stay = order[movement:]
        else:
            qual_stay = sorted(qual_members, key=lambda m: m.seed_position)
            notes.append(_("The qualification group has no ranking and names no qualification "
                           "tournament: nobody goes up from it; its places are free."))

    lowest = leagues[-1].level if leagues else None
    name_of = {d.level: d.name for d in divisions}
    for position, (division, target) in enumerate(zip(leagues, planned, strict=True)):
        level = division.level
        placements = target.placements
        first_free = 1
        if position > 0:
            above = leagues[position - 1].level
            for n, m in enumerate(downs[above], start=1):
                placements.append(Placement(player=m.player, seed_position=n,
                                            origin=SeasonMembership.Origin.RELEGATED,
                                            from_division=name_of[above], from_rank=m.final_rank))
            first_free = movement + 1
        stay_block = size - movement - (first_free - 1)
        stayed = stays[level]
        if len(stayed) > stay_block:
            errors.append(_error("division_size", "division_overfull", _(
                "%(division)s keeps %(n)s players but has %(free)s places between the relegated "
                "and the promoted: change the division size") % {
                "division": division.name, "n": len(stayed), "free": stay_block}))
        for offset, m in enumerate(stayed):
            placements.append(Placement(player=m.player, seed_position=first_free + offset,
                                        origin=SeasonMembership.Origin.STAYED,
                                        from_division=division.name, from_rank=m.final_rank))
        promoted: list[tuple[Player, str, int | None, str]] = []
        if position + 1 < len(leagues):
            below = leagues[position + 1]
            promoted = [(m.player, below.name, m.final_rank, SeasonMembership.Origin.PROMOTED)
                        for m in ups[below.level]]
        elif level == lowest:
            promoted = [(p, src, rank, SeasonMembership.Origin.QUALIFIED) for p, src, rank in qual_up]
        for n, (player, src, rank, origin) in enumerate(promoted, start=size - movement + 1):
            placements.append(Placement(player=player, seed_position=n, origin=origin,
                                        from_division=src, from_rank=rank))

    dropped: list[Placement] = []
    if lowest is not None:
        relegated = downs[lowest]
        if planned_q is not None:
            for n, m in enumerate(relegated, start=1):
                planned_q.placements.append(Placement(
                    player=m.player, seed_position=n, origin=SeasonMembership.Origin.RELEGATED,
                    from_division=name_of[lowest], from_rank=m.final_rank))
        else:
            dropped = [Placement(player=m.player, seed_position=0, origin="", from_division=name_of[lowest],
                                 from_rank=m.final_rank) for m in relegated]
    if planned_q is not None:
        start = len(planned_q.placements) + 1
        for offset, m in enumerate(qual_stay):
            planned_q.placements.append(Placement(
                player=m.player, seed_position=start + offset, origin=SeasonMembership.Origin.STAYED,
                from_division=qual.name if qual else "", from_rank=m.final_rank))

    # Who leaves frees his seed position; the qualification group closes up.
    for target in planned + ([planned_q] if planned_q else []):
        target.placements = [p for p in target.placements if p.player.pk not in leaving_ids]
    dropped = [p for p in dropped if p.player.pk not in leaving_ids]
    if planned_q is not None:
        for n, p in enumerate(sorted(planned_q.placements, key=lambda p: p.seed_position), start=1):
            p.seed_position = n

    # A free place of a league is taken by the best of the league below who stayed there
    # (the next by the previous season's result), which frees his place in turn; so the free
    # places sink to the lowest league, where the applicants take them.
    for upper, lower in zip(planned, planned[1:], strict=False):
        vacant = upper.vacant_positions()
        movers = [p for p in sorted(lower.placements, key=lambda p: p.from_rank or 10**6)
                  if p.origin == SeasonMembership.Origin.STAYED][:len(vacant)]
        for position, mover in zip(vacant, movers, strict=False):
            lower.placements.remove(mover)
            upper.placements.append(Placement(
                player=mover.player, seed_position=position, origin=SeasonMembership.Origin.PROMOTED,
                from_division=mover.from_division, from_rank=mover.from_rank,
                note=_("moved up to a free place")))

    # Applicants fill the free places left, highest league first.
    placed_in_leagues = {p.player.pk for t in planned for p in t.placements}
    seen: set[int] = set()
    for index, player in enumerate(applicants):
        if player.pk in seen:
            errors.append(_error(f"applicants[{index}]", "duplicate",
                                 _("%(player)s applies twice") % {"player": player}))
        seen.add(player.pk)
        if player.pk in placed_in_leagues:
            errors.append(_error(f"applicants[{index}]", "already_placed",
                                 _("%(player)s already has a place in a league") % {"player": player}))
        if player.pk in leaving_ids:
            errors.append(_error(f"applicants[{index}]", "leaving",
                                 _("%(player)s is listed as leaving") % {"player": player}))
    if criterion is not None and criterion not in CRITERIA:
        errors.append(_error("criterion", "invalid_choice",
                             _("unknown criterion %(c)s") % {"c": criterion}))
    if criterion in ("qualification", "pre_competition") and criterion_event is None:
        errors.append(_error("criterion_event", "required",
                             _("the criterion %(c)s needs the tournament whose result decides")
                             % {"c": criterion}))
    free = [(t, n) for t in planned for n in t.vacant_positions()]
    unique_applicants = list(dict.fromkeys(applicants))
    if len(unique_applicants) > len(free) and criterion is None:
        errors.append(_error("criterion", "required", _(
            "%(a)s players apply for %(f)s free places: choose a selection criterion")
            % {"a": len(unique_applicants), "f": len(free)}))
    ranked = rank_applicants(unique_applicants, criterion, previous=season,
                             criterion_event=criterion_event)
    not_admitted: list[Player] = []
    qual_ids = {p.player.pk for p in planned_q.placements} if planned_q else set()
    for (player, why), slot in zip(ranked, free + [None] * len(ranked), strict=False):
        if slot is not None:
            target, position = slot
            if planned_q is not None and player.pk in qual_ids:
                planned_q.placements = [p for p in planned_q.placements if p.player.pk != player.pk]
            target.placements.append(Placement(player=player, seed_position=position,
                                               origin=SeasonMembership.Origin.NEW, note=why))
        elif planned_q is not None:
            if player.pk not in qual_ids:
                planned_q.placements.append(Placement(
                    player=player, seed_position=len(planned_q.placements) + 1,
                    origin=SeasonMembership.Origin.NEW, note=why))
        else:
            not_admitted.append(player)
    if planned_q is not None:
        for n, p in enumerate(sorted(planned_q.placements, key=lambda p: p.seed_position), start=1):
            p.seed_position = n
    for target in planned:
        target.placements.sort(key=lambda p: p.seed_position)
        vacant = target.vacant_positions()
        if vacant:
            notes.append(_("%(division)s has %(n)s free places.") % {"division": target.name, "n": len(vacant)})
    result = planned + ([planned_q] if planned_q else [])
    for target in result:
        target.placements.sort(key=lambda p: p.seed_position)
    return NextSeasonPlan(divisions=result, dropped_out=dropped, not_admitted=not_admitted,
                          applicants_ranked=ranked, criterion=criterion, notes=notes, errors=errors)
