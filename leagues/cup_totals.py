"""The ranking of a cup series (seed 001): fixed cup points per final place, the best results
counted plus the final, each player's counted and dropped results."""

from __future__ import annotations

from dataclasses import dataclass

from leagues.models import (
    CupSeries,
    CupSeriesEvent,
)
from leagues.selectors import cup_events, cup_points_table
from tournaments.domain.standings import event_standings
from tournaments.models import Event, Player


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
