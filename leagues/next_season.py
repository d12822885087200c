"""The plan of the next season (seed 000 §4.2): who goes up, who goes down and to which seed
position, and who fills the free places by the selection criterion the organiser picks. A
calculation over the finished season's final order, or, while the season still runs, over its
standings as if it ended today (a preview: `provisional`); `leagues.services.season_advance`
writes it, from a finished season only."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues.league_standings import movement_counts, season_standings
from leagues.models import (
    Division,
    Season,
    SeasonMembership,
)
from leagues.names import qualification_group_name
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


def note_text(note: dict[str, Any] | str) -> str:
    """A plan's note in the reader's language; a season formed before notes were stored as
    codes keeps its words as they were written."""
    if isinstance(note, str):
        return note
    code = note.get("code")
    if code == "qualification_unranked":
        return _("The qualification group has no ranking and names no qualification tournament: "
                 "nobody goes up from it; its places are free.")
    if code == "qualification_event":
        return _("The %(n)s best of %(event)s who are not in a league go up.") % note
    if code == "free_places":
        return ngettext("%(division)s has %(n)s free place.", "%(division)s has %(n)s free places.",
                        note["n"]) % note
    return str(note)


@dataclass
class NextSeasonPlan:
    divisions: list[PlannedDivision]
    # Out of the league: nobody since the lowest league relegates only into a qualification
    # group (`movement_counts`); kept for the API's shape and the formation record, where the
    # seasons formed before that decision list theirs.
    dropped_out: list[Placement]
    not_admitted: list[Player]  # applicants left without a place and no qualification group
    applicants_ranked: list[tuple[Player, str]]
    criterion: str | None
    # Each note a code and its values (note_text says it in the reader's words): the plan is
    # stored with the season it formed, read later in other languages.
    notes: list[dict[str, Any]]
    errors: list[dict[str, Any]]
    # While the season runs: the plan as if it ended today, after matchday `after` (None: no
    # result counts yet, the seed positions stand in for the ranks).
    provisional: bool = False
    after: int | None = None

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
    planner = _Planner(season, leaving)
    planner.check_leaving()
    ups, downs, stays = planner.split_by_movement(planner.final_orders())
    qual_up, qual_stay = planner.qualification_movers(qualification_event)
    planner.place_leagues(ups, downs, stays, qual_up)
    planner.place_below_the_lowest(downs, qual_stay)
    planner.remove_who_leaves()
    planner.pass_free_places_down()
    planner.check_applicants(applicants, criterion, criterion_event)
    ranked, not_admitted = planner.admit(applicants, criterion, criterion_event)
    return planner.plan(ranked, not_admitted, criterion)


class _Planner:
    """The plan of `next_season_plan` as it is built: the finished season's divisions, the
    planned divisions filled step by step (one method a step, called in the order of the seed's
    rules), and the notes and errors in the order the organiser's form shows them."""

    def __init__(self, season: Season, leaving: Iterable[Player]) -> None:
        self.season = season
        league = season.league
        self.movement = league.movement_count
        self.size = league.division_size
        self.divisions = divisions_of(season)
        self.leagues = league_divisions(self.divisions)
        self.qual = qualification_division(self.divisions)
        self.errors: list[dict[str, Any]] = []
        self.notes: list[dict[str, Any]] = []
        self.leaving_ids = {p.pk for p in leaving}
        self.lowest = self.leagues[-1].level if self.leagues else None
        self.name_of = {d.level: d.name for d in self.divisions}
        self.planned = [PlannedDivision(level=d.level, name=d.name, size=self.size,
                                        is_qualification=False, plays_matchdays=d.plays_matchdays)
                        for d in self.leagues]
        self.planned_q: PlannedDivision | None = None
        qual = self.qual
        if qual is not None or league.qualification_group:
            self.planned_q = PlannedDivision(
                level=(qual.level if qual is not None else len(self.leagues) + 1),
                name=qual.name if qual is not None else qualification_group_name(league.language), size=0,
                is_qualification=True,
                plays_matchdays=qual.plays_matchdays if qual is not None else False)
        # A running season is planned from its standings so far ("if it ended today"): their
        # order and ranks stand in for the final ones the season does not have yet.
        self.provisional = season.status != Season.Status.FINISHED
        self.after: int | None = None
        self.current: dict[int, list[SeasonMembership]] = {}
        self.rank_of: dict[int, int] = {}
        if self.provisional:
            standings = season_standings(season, divisions=self.divisions, rank_unplayed=True)
            self.after = standings.after
            for ds in standings.divisions:
                if ds.ranked:
                    self.current[ds.division.level] = [row.membership for row in ds.rows]
                    self.rank_of.update({row.membership.pk: row.rank for row in ds.rows})

    def rank(self, membership: SeasonMembership) -> int | None:
        """The final rank, or in a running season the rank so far."""
        return membership.final_rank or self.rank_of.get(membership.pk)

    def order(self, division: Division) -> list[SeasonMembership] | None:
        """The division's final order, or in a running season its order so far; None when it
        has neither."""
        final = _final_order(division)
        if final is not None or not self.provisional:
            return final
        return self.current.get(division.level)

    def _all_planned(self) -> list[PlannedDivision]:
        return self.planned + ([self.planned_q] if self.planned_q else [])

    def check_leaving(self) -> None:
        """Who is said to leave must be a member of the season."""
        members = {m.player_id for d in self.divisions for m in d.memberships.all()}
        for pid in sorted(self.leaving_ids - members):
            self.errors.append(_error("leaving", "not_a_member",
                                      _("player %(id)s is not in this season") % {"id": pid}))

    def final_orders(self) -> dict[int, list[SeasonMembership]]:
        """Each league's final order by level (its order so far in a running season); a league
        without one is an error, and its seed order stands in so the rest of the plan can still
        be shown."""
        orders: dict[int, list[SeasonMembership]] = {}
        for division in self.leagues:
            order = self.order(division)
            if order is None:
                self.errors.append(_error(
                    "season", "no_final_order",
                    _("%(division)s has no final order: finish the season first")
                    % {"division": division.name}))
                order = list(division.memberships.all())
            orders[division.level] = order
        return orders

    def split_by_movement(self, orders: dict[int, list[SeasonMembership]]
                          ) -> tuple[dict[int, list[SeasonMembership]], ...]:
        """Each league's final order cut into who goes up, who goes down and who stays."""
        ups: dict[int, list[SeasonMembership]] = {}
        downs: dict[int, list[SeasonMembership]] = {}
        stays: dict[int, list[SeasonMembership]] = {}
        for division in self.leagues:
            order = orders[division.level]
            up, down = movement_counts(division, self.divisions, len(order), self.season.league)
            ups[division.level] = order[:up]
            downs[division.level] = order[len(order) - down:] if down else []
            stays[division.level] = order[up:len(order) - down]
        return ups, downs, stays

    def qualification_movers(self, qualification_event: Event | None
                             ) -> tuple[list[tuple[Player, str, int | None]], list[SeasonMembership]]:
        """Who goes up from the qualification group to the lowest league (player, where from,
        rank) and who stays in the group: by the qualification tournament when the organiser
        names one, else by the group's own final order."""
        league_member_ids = {m.player_id for d in self.leagues for m in d.memberships.all()}
        qual = self.qual
        qual_members = list(qual.memberships.all()) if qual is not None else []
        if qualification_event is not None:
            return self._qualified_by_event(qualification_event, league_member_ids, qual_members)
        if qual is not None and qual_members:
            order = self.order(qual)
            if order is not None:
                up, _down = movement_counts(qual, self.divisions, len(order), self.season.league)
                return [(m.player, qual.name, self.rank(m)) for m in order[:up]], order[up:]
            self.notes.append({"code": "qualification_unranked"})
            return [], sorted(qual_members, key=lambda m: m.seed_position)
        return [], []

    def _qualified_by_event(self, event: Event, league_member_ids: set[int],
                            qual_members: list[SeasonMembership]
                            ) -> tuple[list[tuple[Player, str, int | None]], list[SeasonMembership]]:
        """The best of the qualification tournament who are in no league and do not leave go
        up; the group's members who do not stay in it by their final rank."""
        qual_up: list[tuple[Player, str, int | None]] = []
        taken: set[int] = set()
        for row in event_standings(event).rows:
            pid = row.registration.player_id
            if pid in league_member_ids or pid in self.leaving_ids or pid in taken:
                continue
            if len(qual_up) >= self.movement:
                break
            taken.add(pid)
            qual_up.append((row.registration.player, event.name, row.rank))
        qual_stay = sorted((m for m in qual_members if m.player_id not in taken),
                           key=lambda m: (self.rank(m) or 10**6, m.seed_position))
        self.notes.append({"code": "qualification_event", "n": self.movement, "event": event.name})
        return qual_up, qual_stay

    def place_leagues(self, ups: dict[int, list[SeasonMembership]],
                      downs: dict[int, list[SeasonMembership]],
                      stays: dict[int, list[SeasonMembership]],
                      qual_up: list[tuple[Player, str, int | None]]) -> None:
        """Every league's seed positions, highest league first."""
        for position, (division, target) in enumerate(zip(self.leagues, self.planned, strict=True)):
            self._place_league(position, division, target, ups, downs, stays, qual_up)

    def _place_league(self, position: int, division: Division, target: PlannedDivision,
                      ups: dict[int, list[SeasonMembership]],
                      downs: dict[int, list[SeasonMembership]],
                      stays: dict[int, list[SeasonMembership]],
                      qual_up: list[tuple[Player, str, int | None]]) -> None:
        """One league: the relegated from the league above on 1..M, who stayed by final rank
        after them, the promoted from the league below (or the qualified, for the lowest
        league) on S-M+1..S. Who stayed but does not fit between them is an error."""
        movement, size = self.movement, self.size
        placements = target.placements
        first_free = 1
        if position > 0:
            above = self.leagues[position - 1].level
            for n, m in enumerate(downs[above], start=1):
                placements.append(Placement(player=m.player, seed_position=n,
                                            origin=SeasonMembership.Origin.RELEGATED,
                                            from_division=self.name_of[above], from_rank=self.rank(m)))
            first_free = movement + 1
        # The last M places wait for who comes up from below; the lowest league without a
        # qualification group has nobody below, and keeps its own players there.
        reserved = movement if position + 1 < len(self.leagues) or self.planned_q is not None else 0
        stay_block = size - reserved - (first_free - 1)
        stayed = stays[division.level]
        if len(stayed) > stay_block:
            self.errors.append(_error("division_size", "division_overfull", _(
                "%(division)s keeps %(n)s players but has %(free)s places between the relegated "
                "and the promoted: change the division size") % {
                "division": division.name, "n": len(stayed), "free": stay_block}))
        for offset, m in enumerate(stayed):
            placements.append(Placement(player=m.player, seed_position=first_free + offset,
                                        origin=SeasonMembership.Origin.STAYED,
                                        from_division=division.name, from_rank=self.rank(m)))
        promoted: list[tuple[Player, str, int | None, str]] = []
        if position + 1 < len(self.leagues):
            below = self.leagues[position + 1]
            promoted = [(m.player, below.name, self.rank(m), SeasonMembership.Origin.PROMOTED)
                        for m in ups[below.level]]
        elif division.level == self.lowest:
            promoted = [(p, src, rank, SeasonMembership.Origin.QUALIFIED) for p, src, rank in qual_up]
        for n, (player, src, rank, origin) in enumerate(promoted, start=size - movement + 1):
            placements.append(Placement(player=player, seed_position=n, origin=origin,
                                        from_division=src, from_rank=rank))

    def place_below_the_lowest(self, downs: dict[int, list[SeasonMembership]],
                               qual_stay: list[SeasonMembership]) -> None:
        """Who is relegated from the lowest league falls into the qualification group (first),
        then who stays in the group. Without a group nobody is relegated from the lowest league
        (`movement_counts`), so nobody drops out."""
        planned_q, lowest = self.planned_q, self.lowest
        if planned_q is not None and lowest is not None:
            for n, m in enumerate(downs[lowest], start=1):
                planned_q.placements.append(Placement(
                    player=m.player, seed_position=n, origin=SeasonMembership.Origin.RELEGATED,
                    from_division=self.name_of[lowest], from_rank=self.rank(m)))
        if planned_q is not None:
            start = len(planned_q.placements) + 1
            for offset, m in enumerate(qual_stay):
                planned_q.placements.append(Placement(
                    player=m.player, seed_position=start + offset,
                    origin=SeasonMembership.Origin.STAYED,
                    from_division=self.qual.name if self.qual else "", from_rank=self.rank(m)))

    def remove_who_leaves(self) -> None:
        """Who leaves frees his seed position; the qualification group closes up."""
        for target in self._all_planned():
            target.placements = [p for p in target.placements if p.player.pk not in self.leaving_ids]
        self._close_up_qualification()

    def _close_up_qualification(self) -> None:
        if self.planned_q is not None:
            for n, p in enumerate(sorted(self.planned_q.placements, key=lambda p: p.seed_position),
                                  start=1):
                p.seed_position = n

    def pass_free_places_down(self) -> None:
        """A free place of a league is taken by the best of the league below who stayed there
        (the next by the previous season's result), which frees his place in turn; so the free
        places sink to the lowest league, where the applicants take them."""
        for upper, lower in zip(self.planned, self.planned[1:], strict=False):
            vacant = upper.vacant_positions()
            movers = [p for p in sorted(lower.placements, key=lambda p: p.from_rank or 10**6)
                      if p.origin == SeasonMembership.Origin.STAYED][:len(vacant)]
            for position, mover in zip(vacant, movers, strict=False):
                lower.placements.remove(mover)
                upper.placements.append(Placement(
                    player=mover.player, seed_position=position,
                    origin=SeasonMembership.Origin.PROMOTED,
                    from_division=mover.from_division, from_rank=mover.from_rank,
                    note=_("moved up to a free place")))

    def check_applicants(self, applicants: Sequence[Player], criterion: str | None,
                         criterion_event: Event | None) -> None:
        """An applicant applies once, has no place in a league yet and does not leave; the
        criterion is one of the seed's, with the tournament it needs."""
        placed_in_leagues = {p.player.pk for t in self.planned for p in t.placements}
        seen: set[int] = set()
        for index, player in enumerate(applicants):
            where = f"applicants[{index}]"
            if player.pk in seen:
                self.errors.append(_error(where, "duplicate",
                                          _("%(player)s applies twice") % {"player": player}))
            seen.add(player.pk)
            if player.pk in placed_in_leagues:
                self.errors.append(_error(
                    where, "already_placed",
                    _("%(player)s already has a place in a league") % {"player": player}))
            if player.pk in self.leaving_ids:
                self.errors.append(_error(where, "leaving",
                                          _("%(player)s is listed as leaving") % {"player": player}))
        if criterion is not None and criterion not in CRITERIA:
            self.errors.append(_error("criterion", "invalid_choice",
                                      _("unknown criterion %(c)s") % {"c": criterion}))
        if criterion in ("qualification", "pre_competition") and criterion_event is None:
            self.errors.append(_error(
                "criterion_event", "required",
                _("the criterion %(c)s needs the tournament whose result decides") % {"c": criterion}))

    def admit(self, applicants: Sequence[Player], criterion: str | None,
              criterion_event: Event | None) -> tuple[list[tuple[Player, str]], list[Player]]:
        """The applicants, ranked by the criterion, take the free places left, highest league
        first; who finds none goes to the qualification group, or without one is not admitted.
        More applicants than places need a criterion. Returns the ranking and who is not
        admitted."""
        free = [(t, n) for t in self.planned for n in t.vacant_positions()]
        unique_applicants = list(dict.fromkeys(applicants))
        if len(unique_applicants) > len(free) and criterion is None:
            self.errors.append(_error("criterion", "required", _(
                "%(a)s players apply for %(f)s free places: choose a selection criterion")
                % {"a": len(unique_applicants), "f": len(free)}))
        ranked = rank_applicants(unique_applicants, criterion, previous=self.season,
                                 criterion_event=criterion_event)
        planned_q = self.planned_q
        not_admitted: list[Player] = []
        qual_ids = {p.player.pk for p in planned_q.placements} if planned_q else set()
        for (player, why), slot in zip(ranked, free + [None] * len(ranked), strict=False):
            if slot is not None:
                target, position = slot
                if planned_q is not None and player.pk in qual_ids:
                    planned_q.placements = [p for p in planned_q.placements
                                            if p.player.pk != player.pk]
                target.placements.append(Placement(player=player, seed_position=position,
                                                   origin=SeasonMembership.Origin.NEW, note=why))
            elif planned_q is not None:
                if player.pk not in qual_ids:
                    planned_q.placements.append(Placement(
                        player=player, seed_position=len(planned_q.placements) + 1,
                        origin=SeasonMembership.Origin.NEW, note=why))
            else:
                not_admitted.append(player)
        return ranked, not_admitted

    def plan(self, ranked: list[tuple[Player, str]], not_admitted: list[Player],
             criterion: str | None) -> NextSeasonPlan:
        """The finished plan: the qualification group closed up, every division in seed
        order, a note for each league with free places."""
        self._close_up_qualification()
        for target in self.planned:
            target.placements.sort(key=lambda p: p.seed_position)
            vacant = target.vacant_positions()
            if vacant:
                self.notes.append({"code": "free_places", "division": target.name, "n": len(vacant)})
        result = self._all_planned()
        for target in result:
            target.placements.sort(key=lambda p: p.seed_position)
        return NextSeasonPlan(divisions=result, dropped_out=[], not_admitted=not_admitted,
                              applicants_ranked=ranked, criterion=criterion, notes=self.notes,
                              errors=self.errors, provisional=self.provisional, after=self.after)
