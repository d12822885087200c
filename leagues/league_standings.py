"""League standings of a season after any matchday (seed 000 §4.2: "Lestvica se objavlja po
vsakem krogu (kolu). Končni vrstni red je razviden po odigrani zadnji tekmi tekmovanja."),
built from each matchday's event standings (tournaments.domain.standings.event_standings), with the
tie-breaks written on every row they decide, and how many go up and down from a position."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from django.utils.translation import gettext as _

from leagues.models import (
    Division,
    League,
    Matchday,
    Season,
    SeasonMembership,
)
from leagues.selectors import divisions_of, league_divisions, matchdays_of
from tournaments.domain.standings import event_standings, to_decimal
from tournaments.models import Player

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
    # Summed exactly (a matchday's thirds stay thirds, so 5/3 + 5/3 + 11/3 ties with 7).
    exact_table_points: Fraction = Fraction(0)
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
    def table_points(self) -> Decimal:
        """The table points rounded to three places, for display and the API."""
        return to_decimal(self.exact_table_points)

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
        return (-self.score, -self.exact_table_points, best, self.seed_position)


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


def movement_counts(division: Division, divisions: Sequence[Division], member_count: int,
                    league: League) -> tuple[int, int]:
    """(how many go up, how many go down) of `division` among the season's `divisions`: the one
    rule the season's table (its ↑ and ↓) and the next season's plan both ask.

    Seed 000 §4.2: "izpade iz vsake lige 10 igralcev v nižjo ligo ... in po 10 igralcev
    napreduje v višjo ligo"; who drops out of the lowest league falls into the qualification
    group ("Kdor izpade iz III. lige pade v kvalifikacijsko skupino"), whose best go up ("10
    najboljših se uvrsti v višjo ligo"). Decision (docs/leagues.md): a division sends players
    only where the season has a division to receive them, so the top league sends nobody up
    and the lowest division nobody down: the lowest league relegates into the qualification
    group (this season's, or the next season's when the league has one), and without one it
    keeps its bottom players (an organiser lists who leaves)."""
    movement = league.movement_count
    if division.is_qualification:
        return min(movement, member_count), 0
    leagues = league_divisions(divisions)
    has_above = any(d.level < division.level for d in leagues)
    has_below = (any(d.level > division.level for d in divisions)
                 or (league.qualification_group and division.level == leagues[-1].level))
    up = min(movement, member_count) if has_above else 0
    down = min(movement, member_count - up) if has_below else 0
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
            row.exact_table_points += erow.exact_points
            row.adjusted = row.adjusted or erow.adjusted
            if erow.rounds_played:
                row.matchdays_played += 1
            row.per_matchday[matchday.number] = erow.score
            if row.best_matchday is None or erow.score > row.best_matchday:
                row.best_matchday = erow.score

    numbers = [m.number for m in counted]
    for row in rows.values():
        row.cells = [row.per_matchday.get(n) for n in numbers]
    out: list[DivisionStandings] = []
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
            up, down = movement_counts(division, divisions, len(division_rows), season.league)
            for i, r in enumerate(division_rows):
                if i < up:
                    r.zone = "up"
                elif i >= len(division_rows) - down:
                    r.zone = "down"
        out.append(DivisionStandings(division=division, rows=division_rows, final=bool(use_final),
                                     ranked=ranked))
    return SeasonStandings(season=season, divisions=out, matchdays=matchdays, after=last,
                           pending=pending, final=final, after_asked=after)
