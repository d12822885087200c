"""Reads of leagues and cup series, shaped for the pages, the API and the printouts.

- league standings of a season after any matchday (seed 000 §4.2: "Lestvica se objavlja po
  vsakem krogu (kolu). Končni vrstni red je razviden po odigrani zadnji tekmi tekmovanja."),
  built from each matchday's event standings (tournaments.standings.event_standings), with
  the tie-breaks written on every row they decide;
- the plan of the next season: who goes up, who goes down and to which seed position
  (seed 000 §4.2), who fills the free places by the selection criterion the organiser picks;
- the cup ranking of a series (seed 001): fixed cup points per final place, the best results
  counted plus the final, each player's counted and dropped results;
- a player's league and cup career.

The joins are done up front, so a page's query count grows with the number of matchdays or
tournaments, never with the number of players.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

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
from tournaments import lifecycle
from tournaments.models import Event, Player, Round, Scorecard, Table
from tournaments.seating.bounds import no_repeat_bound, schedule_distance
from tournaments.standings import event_standings

# ---------------------------------------------------------------------------------------
# Leagues, seasons
# ---------------------------------------------------------------------------------------


def public_leagues() -> QuerySet[League]:
    return League.objects.filter(is_public=True).order_by("name")


def league_by_slug(slug: str) -> League | None:
    return League.objects.filter(slug=slug).first()


def leagues_organised_by(user) -> QuerySet[League]:
    if getattr(user, "is_staff", False):
        return League.objects.order_by("name")
    return League.objects.filter(organisers=user).order_by("name")


def cups_organised_by(user) -> QuerySet[CupSeries]:
    if getattr(user, "is_staff", False):
        return CupSeries.objects.order_by("name")
    return CupSeries.objects.filter(organisers=user).order_by("name")


def seasons_of(league: League) -> QuerySet[Season]:
    return league.seasons.order_by("-starts_on", "-id")


def season_by_slug(league: League, slug: str) -> Season | None:
    return league.seasons.filter(slug=slug).select_related("league", "previous").first()


def current_season(league: League) -> Season | None:
    """The running season, else the last finished one (its final table), else the one being
    planned: a league's page opens on games played, not on an empty upcoming season."""
    seasons = list(seasons_of(league))
    for status in (Season.Status.RUNNING, Season.Status.FINISHED, Season.Status.PLANNING):
        for season in seasons:
            if season.status == status:
                return season
    return None


def divisions_of(season: Season) -> list[Division]:
    members = SeasonMembership.objects.select_related("player").order_by("seed_position")
    return list(season.divisions.order_by("level").prefetch_related(
        Prefetch("memberships", queryset=members)))


def league_divisions(divisions: Sequence[Division]) -> list[Division]:
    """The leagues proper (I., II., III. ...), highest first; the qualification group apart."""
    return [d for d in sorted(divisions, key=lambda d: d.level) if not d.is_qualification]


def qualification_division(divisions: Sequence[Division]) -> Division | None:
    return next((d for d in divisions if d.is_qualification), None)


def matchdays_of(season: Season) -> list[Matchday]:
    return list(season.matchdays.select_related("event").order_by("number"))


def matchday_round(matchday: Matchday) -> Round | None:
    return matchday.event.rounds.order_by("number").first()


def matchday_is_played(matchday: Matchday) -> bool:
    """A matchday is played when every round of its event is closed."""
    rounds = list(matchday.event.rounds.all())
    return bool(rounds) and all(r.status == Round.Status.CLOSED for r in rounds)


def any_matchday_seated(season: Season) -> bool:
    return Round.objects.filter(event__matchday__season=season).exists()


def schedule_of(season: Season, division: Division) -> dict[str, Any] | None:
    """The stored schedule of one division: {"rounds": [[[player pk, ...], ...], ...],
    "repeat_pairs": n, "notes": [...], "seed": s}, or None."""
    return (season.schedule or {}).get("divisions", {}).get(str(division.level))


def schedule_view(season: Season, divisions: Sequence[Division]) -> list[dict[str, Any]]:
    """The schedule with player objects instead of ids, per division and matchday."""
    players = {str(m.player_id): m.player for d in divisions for m in d.memberships.all()}
    out = []
    for division in divisions:
        stored = schedule_of(season, division)
        if not stored:
            continue
        rounds = stored.get("rounds", [])
        league = season.league
        out.append({
            "division": division,
            "repeat_pairs": stored.get("repeat_pairs", 0),
            "notes": stored.get("notes", []),
            # The bound of the field and how far this schedule is from it, from the seating
            # engine as {code, params, text}; recomputed so older stored schedules show it too.
            "bound": no_repeat_bound(len(stored.get("players", [])), league.table_size, league.min_table_size),
            "distance": schedule_distance(rounds, (), len(stored.get("players", [])), league.table_size,
                                          league.min_table_size),
            "matchdays": [
                {"number": n, "tables": [[players.get(pid) for pid in table] for table in tables]}
                for n, tables in enumerate(stored.get("rounds", []), start=1)
            ],
        })
    return out


# ---------------------------------------------------------------------------------------
# League standings
# ---------------------------------------------------------------------------------------

TIE_BREAKS = ("table_points", "best_matchday", "seed_position")


def tie_break_label(code: str) -> str:
    return {
        "table_points": _("table points"),
        "best_matchday": _("best matchday"),
        "seed_position": _("seed position"),
    }[code]


@dataclass
class LeagueRow:
    membership: SeasonMembership
    rank: int = 0
    score: int = 0
    table_points: Decimal = Decimal(0)
    matchdays_played: int = 0
    best_matchday: int | None = None
    per_matchday: dict[int, int] = field(default_factory=dict)
    cells: list[int | None] = field(default_factory=list)  # score per counted matchday, in order
    adjusted: bool = False
    tie_break: str = ""
    zone: str = ""  # "up", "down" or ""

    @property
    def player(self) -> Player:
        return self.membership.player

    @property
    def seed_position(self) -> int:
        return self.membership.seed_position

    @property
    def tie_break_label(self) -> str:
        return tie_break_label(self.tie_break) if self.tie_break else ""

    def sort_key(self) -> tuple:
        # Seed 000 §4.2 names no criterion; the decisions (docs/leagues.md): the cumulative
        # score, then table points (4/3/2/1 by the place at each table), then the best single
        # matchday, then the seed position, which is unique in a division, so no two rows tie.
        best = -self.best_matchday if self.best_matchday is not None else math.inf
        return (-self.score, -self.table_points, best, self.seed_position)


@dataclass
class DivisionStandings:
    division: Division
    rows: list[LeagueRow]
    final: bool
    ranked: bool = True

    @property
    def moves_up(self) -> int:
        return sum(1 for r in self.rows if r.zone == "up")

    @property
    def moves_down(self) -> int:
        return sum(1 for r in self.rows if r.zone == "down")


@dataclass
class SeasonStandings:
    season: Season
    divisions: list[DivisionStandings]
    matchdays: list[Matchday]
    after: int | None  # the last matchday with a counted table, within the asked range
    pending: list[tuple[int, int]]  # (matchday, table) whose scorecards are not yet confirmed
    final: bool
    after_asked: int | None = None

    @property
    def counted_numbers(self) -> list[int]:
        """The matchdays whose results the standings add up (the columns of the table)."""
        return [m.number for m in self.matchdays if self.after_asked is None or m.number <= self.after_asked]

    def for_division(self, division: Division) -> DivisionStandings | None:
        return next((d for d in self.divisions if d.division.pk == division.pk), None)


def movement_counts(position: int, league_count: int, member_count: int, movement: int,
                    *, is_qualification: bool) -> tuple[int, int]:
    """(how many go up, how many go down) of a division: seed 000 §4.2 "izpade iz vsake lige
    10 igralcev v nižjo ligo ... in po 10 igralcev napreduje v višjo ligo"; the lowest league
    drops its 10 too ("Kdor izpade iz III. lige pade v kvalifikacijsko skupino oz. v območno
    ligo iz katere izhaja"); the qualification group's best go up ("10 najboljših se uvrsti
    v višjo ligo"). `position` is 0 for the I. league."""
    if is_qualification:
        return min(movement, member_count), 0
    up = min(movement, member_count) if position > 0 else 0
    down = min(movement, member_count - up)
    return up, down


def _tie_breaks(rows: list[LeagueRow]) -> None:
    def decided_by(a: LeagueRow, b: LeagueRow) -> str:
        ka, kb = a.sort_key(), b.sort_key()
        for code, x, y in zip(TIE_BREAKS, ka[1:], kb[1:], strict=True):
            if x != y:
                return code
        return ""

    for i, row in enumerate(rows):
        if i > 0 and rows[i - 1].score == row.score:
            row.tie_break = decided_by(rows[i - 1], row)
        elif i + 1 < len(rows) and rows[i + 1].score == row.score:
            row.tie_break = decided_by(row, rows[i + 1])


def season_standings(season: Season, *, after: int | None = None,
                     divisions: Sequence[Division] | None = None,
                     rank_unplayed: bool = False) -> SeasonStandings:
    """Cumulative standings of every division after matchday `after` (all matchdays so far
    when None). Once the season is finished the stored final ranks give the order, so an
    organiser's written correction of the final order shows here too. Before any result
    counts the divisions are listed in seed order without ranks, unless `rank_unplayed`."""
    divisions = list(divisions) if divisions is not None else divisions_of(season)
    matchdays = matchdays_of(season)
    counted = [m for m in matchdays if after is None or m.number <= after]
    final = season.status == Season.Status.FINISHED and after is None
    rows: dict[int, LeagueRow] = {}
    for division in divisions:
        for membership in division.memberships.all():
            rows[membership.player_id] = LeagueRow(membership=membership)
    pending: list[tuple[int, int]] = []
    last = None
    for matchday in counted:
        standing = event_standings(matchday.event)
        pending.extend((matchday.number, table) for _rnd, table in standing.pending_tables)
        for erow in standing.rows:
            row = rows.get(erow.registration.player_id)
            if row is None or not (erow.rounds_played or erow.adjusted):
                continue
            last = max(last or 0, matchday.number)
            row.score += erow.score
            row.table_points += erow.points
            row.adjusted = row.adjusted or erow.adjusted
            if erow.rounds_played:
                row.matchdays_played += 1
            row.per_matchday[matchday.number] = erow.score
            if row.best_matchday is None or erow.score > row.best_matchday:
                row.best_matchday = erow.score

    numbers = [m.number for m in counted]
    for row in rows.values():
        row.cells = [row.per_matchday.get(n) for n in numbers]
    leagues = league_divisions(divisions)
    out: list[DivisionStandings] = []
    movement = season.league.movement_count
    for division in sorted(divisions, key=lambda d: d.level):
        division_rows = [rows[m.player_id] for m in division.memberships.all()]
        use_final = final and division_rows and all(r.membership.final_rank for r in division_rows)
        if use_final:
            division_rows.sort(key=lambda r: r.membership.final_rank)
            for r in division_rows:
                r.rank = r.membership.final_rank
        elif division.plays_matchdays and (last is not None or rank_unplayed):
            division_rows.sort(key=LeagueRow.sort_key)
            for i, r in enumerate(division_rows, start=1):
                r.rank = i
        else:
            # Nothing played yet, or a group that plays no matchdays: no ranking until results
            # count or the organiser writes one.
            division_rows.sort(key=lambda r: r.seed_position)
        ranked = bool(use_final or (division.plays_matchdays and (last is not None or rank_unplayed)))
        if ranked:
            _tie_breaks(division_rows)
            position = leagues.index(division) if division in leagues else 0
            up, down = movement_counts(position, len(leagues), len(division_rows), movement,
                                       is_qualification=division.is_qualification)
            for i, r in enumerate(division_rows):
                if i < up:
                    r.zone = "up"
                elif i >= len(division_rows) - down:
                    r.zone = "down"
        out.append(DivisionStandings(division=division, rows=division_rows, final=bool(use_final),
                                     ranked=ranked))
    return SeasonStandings(season=season, divisions=out, matchdays=matchdays, after=last,
                           pending=pending, final=final, after_asked=after)


# ---------------------------------------------------------------------------------------
# The next season: promotion, relegation, selection of applicants
# ---------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------
# Cup series
# ---------------------------------------------------------------------------------------


def public_cups() -> QuerySet[CupSeries]:
    return CupSeries.objects.filter(is_public=True).order_by("name")


def cup_by_slug(slug: str) -> CupSeries | None:
    return CupSeries.objects.filter(slug=slug).first()


def cup_events(series: CupSeries) -> list[CupSeriesEvent]:
    return list(series.series_events.select_related("event").order_by("order", "event__starts_on", "id"))


def cup_points_table(series: CupSeries) -> dict[int, int]:
    return dict(CupPoints.objects.filter(series=series).order_by("place").values_list("place", "points"))


@dataclass
class CupResult:
    series_event: CupSeriesEvent
    place: int
    points: int  # 0 when the table has no entry for the place
    has_entry: bool
    counted: bool = False

    @property
    def event(self) -> Event:
        return self.series_event.event

    @property
    def is_final(self) -> bool:
        return self.series_event.is_final


@dataclass
class CupRow:
    player: Player
    results: list[CupResult]
    rank: int = 0
    total: int = 0

    @property
    def counted(self) -> list[CupResult]:
        return [r for r in self.results if r.counted]

    @property
    def dropped(self) -> list[CupResult]:
        return [r for r in self.results if not r.counted]

    @property
    def final_result(self) -> CupResult | None:
        return next((r for r in self.results if r.is_final), None)

    @property
    def tournaments_played(self) -> int:
        return sum(1 for r in self.results if not r.is_final)

    @property
    def qualified_for_final(self) -> bool:
        # Seed 001: "Wer an mindestens einem Einzelturnier teilgenommen hat, ist für das
        # Finale qualifiziert."
        return self.tournaments_played >= 1

    def result_for(self, series_event: CupSeriesEvent) -> CupResult | None:
        return next((r for r in self.results if r.series_event.pk == series_event.pk), None)

    def sort_key(self) -> tuple:
        final = self.final_result.points if self.final_result and self.final_result.counted else 0
        best = sorted((r.points for r in self.counted if not r.is_final), reverse=True)
        return (-self.total, -final, [-p for p in best])


@dataclass
class CupRanking:
    series: CupSeries
    events: list[CupSeriesEvent]
    counted_events: list[CupSeriesEvent]  # finished tournaments, whose final ranking counts
    table: dict[int, int]
    rows: list[CupRow]
    missing_places: list[int]  # places reached in a tournament with no entry below the table's last
    beyond_table: list[int]  # places after the table's last entry (no points)

    @property
    def table_incomplete(self) -> bool:
        return bool(self.missing_places) or not self.table

    @property
    def grid(self) -> list[tuple[CupRow, list[CupResult | None]]]:
        """Each row with its result per tournament of the series, in the series' order."""
        return [(row, [row.result_for(se) for se in self.events]) for row in self.rows]

    def row_for(self, player: Player) -> CupRow | None:
        return next((r for r in self.rows if r.player.pk == player.pk), None)


def cup_ranking(series: CupSeries) -> CupRanking:
    """The overall ranking of a cup series (seed 001):

    "Die Ergebnisse der Einzelturniere werden in fixe Cuppunkte umgerechnet (erster Platz 223
    Fixpunkte, zweiter 198, dritter 180 ... 50. Platz 1 Fixpunkt)." and "Für den
    Gesamtturniersieg werden die sechs besten Ergebnisse plus das Final-Ergebnis gewertet."

    A tournament counts once its event is finished; its final ranking is the event's
    standings. A place with no entry in the series' table gives no points (never a guessed
    value) and the ranking says which places are missing.
    """
    events = cup_events(series)
    table = cup_points_table(series)
    last_place = max(table) if table else 0
    counted_events = [se for se in events if se.event.status == Event.Status.FINISHED]
    rows: dict[int, CupRow] = {}
    missing: set[int] = set()
    beyond: set[int] = set()
    for se in counted_events:
        for erow in event_standings(se.event).rows:
            if not erow.rounds_played:
                continue
            place = erow.rank
            points = table.get(place)
            if points is None:
                (missing if place < last_place or not table else beyond).add(place)
            player = erow.registration.player
            row = rows.setdefault(player.pk, CupRow(player=player, results=[]))
            row.results.append(CupResult(series_event=se, place=place, points=points or 0,
                                         has_entry=points is not None))
    best_n = series.best_results_counted
    for row in rows.values():
        regular = [r for r in row.results if not (r.is_final and series.final_counts_extra)]
        # Equal points: the earlier tournament is the one counted (only the totals matter).
        for r in sorted(regular, key=lambda r: (-r.points, r.series_event.order, r.series_event.pk))[:best_n]:
            r.counted = True
        if series.final_counts_extra:
            for r in row.results:
                if r.is_final:
                    r.counted = True
        row.total = sum(r.points for r in row.results if r.counted)
    ordered = sorted(rows.values(), key=lambda r: (r.sort_key(), r.player.last_name, r.player.first_name, r.player.pk))
    previous = None
    for i, row in enumerate(ordered, start=1):
        key = row.sort_key()
        row.rank = previous[1] if previous and previous[0] == key else i
        previous = (key, row.rank)
    return CupRanking(series=series, events=events, counted_events=counted_events, table=table,
                      rows=ordered, missing_places=sorted(missing), beyond_table=sorted(beyond))


# ---------------------------------------------------------------------------------------
# A player's career in leagues and cups
# ---------------------------------------------------------------------------------------


@dataclass
class LeagueCareerEntry:
    league: League
    season: Season
    division: Division
    seed_position: int
    origin: str
    origin_label: str
    rank: int | None
    final: bool
    score: int
    matchdays_played: int


@dataclass
class CupCareerEntry:
    series: CupSeries
    rank: int
    total: int
    tournaments_played: int
    counted: int
    players: int


def player_career(player: Player) -> dict[str, list]:
    """The leagues and cups part of a player's page: every league season he was a member of
    (division, seed position, where he came from, his rank: final once the season is
    finished, current otherwise) and every cup series he played a counted tournament of."""
    memberships = list(
        SeasonMembership.objects.filter(player=player)
        .select_related("season__league", "division")
        .order_by("-season__starts_on", "-season__id")
    )
    leagues: list[LeagueCareerEntry] = []
    for m in memberships:
        season = m.season
        if not season.league.is_public:
            continue
        standings = season_standings(season, divisions=[m.division])
        row = next((r for d in standings.divisions for r in d.rows if r.membership.player_id == player.pk), None)
        leagues.append(LeagueCareerEntry(
            league=season.league, season=season, division=m.division,
            seed_position=m.seed_position, origin=m.origin, origin_label=m.get_origin_display(),
            rank=(row.rank or None) if row and (row.matchdays_played or standings.final) else None,
            final=standings.final, score=row.score if row else 0,
            matchdays_played=row.matchdays_played if row else 0,
        ))
    cups: list[CupCareerEntry] = []
    series_qs = (CupSeries.objects.filter(is_public=True, series_events__event__registrations__player=player)
                 .distinct().order_by("name"))
    for series in series_qs:
        ranking = cup_ranking(series)
        row = ranking.row_for(player)
        if row is None:
            continue
        cups.append(CupCareerEntry(series=series, rank=row.rank, total=row.total,
                                   tournaments_played=row.tournaments_played,
                                   counted=len(row.counted), players=len(ranking.rows)))
    return {"leagues": leagues, "cups": cups}


# ---------------------------------------------------------------------------------------
# Matchday tables (for a season page)
# ---------------------------------------------------------------------------------------


def pending_cards_of(matchday: Matchday) -> int:
    return Scorecard.objects.filter(table__round__event=matchday.event, status__in=lifecycle.PENDING_CARDS).count()


def matchday_tables(matchday: Matchday) -> list[Table]:
    return list(Table.objects.filter(round__event=matchday.event).select_related("scorecard")
                .prefetch_related("seats__registration__player").order_by("round__number", "number"))
