"""Cup series (seed 001): fixed cup points per final place, the best six results plus the
final, whoever played one tournament qualifies for the final; a place with no entry in the
organiser's table gives nothing and the ranking says the table is incomplete.

"Die Ergebnisse der Einzelturniere werden in fixe Cuppunkte umgerechnet (erster Platz 223
Fixpunkte, zweiter 198, dritter 180 ... 50. Platz 1 Fixpunkt). Wer an mindestens einem
Einzelturnier teilgenommen hat, ist für das Finale qualifiziert. Für den Gesamtturniersieg
werden die sechs besten Ergebnisse plus das Final-Ergebnis gewertet."
"""

from __future__ import annotations

import datetime as dt

import pytest

from leagues import cup_totals, selectors, services
from tests.leagues.helpers import make_players, single_table_event, users
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

# Place of each player in each tournament (first place first); the eighth is the final.
FIELDS = [
    ("P1", "P2", "P3", "P4"),
    ("P2", "P1", "P4", "P5"),
    ("P1", "P3", "P5", "P2"),
    ("P3", "P1", "P2", "P4"),
    ("P1", "P4", "P2", "P5"),
    ("P5", "P1", "P3", "P4"),
    ("P1", "P2", "P5", "P3"),
    ("P2", "P1", "P3", "P6"),  # the final: P6 played no tournament before it
]
# The seed's three places and the organiser's own value for the fourth.
TABLE = {1: 223, 2: 198, 3: 180, 4: 166}


def _cup(organiser, referee, **fields):
    players = dict(zip(["P1", "P2", "P3", "P4", "P5", "P6"], make_players(6, "c"), strict=True))
    series = services.cup_create(actor=organiser, name="Cup", slug="cup", **fields)
    for n, order in enumerate(FIELDS, start=1):
        event = single_table_event(f"cup-{n}", [players[k] for k in order], organiser, referee,
                                   starts_on=dt.date(2026, 1, n))
        services.cup_event_add(series=series, event=event, actor=organiser, is_final=n == 8)
    return series, players


def _totals(ranking, players):
    names = {p.pk: k for k, p in players.items()}
    return [(row.rank, names[row.player.pk], row.total) for row in ranking.rows]


def test_eight_tournaments_best_six_plus_the_final_by_hand():
    organiser, referee = users()
    series, p = _cup(organiser, referee)
    services.cup_points_set(series=series, table=TABLE, actor=organiser, reason="completed by the organiser")
    ranking = cup_totals.cup_ranking(series)
    assert not ranking.table_incomplete and ranking.missing_places == []
    # P1: 1st in tournaments 1, 3, 5, 7 (4 x 223) and 2nd in 2, 4, 6 (3 x 198): seven
    # results, the best six are 4 x 223 + 2 x 198 = 1288; 2nd in the final 198: 1486.
    # P2: 198 + 223 + 166 + 180 + 180 + 198 = 1145, won the final 223: 1368.
    # P3: 180 + 198 + 223 + 180 + 166 = 947, final 3rd 180: 1127.
    # P5: 166 + 180 + 166 + 223 + 180 = 915, no final.
    # P4: 166 + 180 + 166 + 198 + 166 = 876, no final.
    # P6: only the final, 4th: 166.
    assert _totals(ranking, p) == [(1, "P1", 1486), (2, "P2", 1368), (3, "P3", 1127), (4, "P5", 915),
                                   (5, "P4", 876), (6, "P6", 166)]
    p1 = ranking.row_for(p["P1"])
    # Equal results: the earlier tournament counts, so the 198 of tournament 6 is dropped.
    assert [(r.event.slug, r.points) for r in p1.dropped] == [("cup-6", 198)]
    assert len(p1.counted) == 7 and p1.final_result.points == 198 and p1.final_result.counted
    assert p1.tournaments_played == 7 and p1.qualified_for_final
    assert ranking.row_for(p["P5"]).qualified_for_final
    assert not ranking.row_for(p["P6"]).qualified_for_final
    assert ranking.row_for(p["P2"]).dropped == []


def test_the_number_of_counted_results_and_the_final_are_configurable():
    organiser, referee = users()
    series, p = _cup(organiser, referee)
    services.cup_points_set(series=series, table=TABLE, actor=organiser)
    services.cup_update(series=series, actor=organiser, best_results_counted=3)
    # Best three plus the final: P1 3 x 223 + 198; P2 223 + 198 + 198 + 223; P3 223 + 198 +
    # 180 + 180; P5 223 + 180 + 180; P4 198 + 180 + 166; P6 166.
    assert _totals(cup_totals.cup_ranking(series), p) == [
        (1, "P1", 867), (2, "P2", 842), (3, "P3", 781), (4, "P5", 583), (5, "P4", 544), (6, "P6", 166)]
    services.cup_update(series=series, actor=organiser, best_results_counted=6, final_counts_extra=False)
    # The final then is one result among the others: P1 keeps 4 x 223 + 2 x 198 (the final's
    # 198 comes last among equals and is dropped); P2 drops his 166: 223 + 223 + 198 + 198 +
    # 180 + 180; P3 has six results and keeps them all.
    ranking = cup_totals.cup_ranking(series)
    assert _totals(ranking, p)[:3] == [(1, "P1", 1288), (2, "P2", 1202), (3, "P3", 1127)]
    assert not ranking.row_for(p["P1"]).final_result.counted


def test_the_seed_table_is_incomplete_and_missing_places_score_nothing():
    organiser, referee = users()
    series, p = _cup(organiser, referee, seed_points=True)
    assert selectors.cup_points_table(series) == {1: 223, 2: 198, 3: 180, 50: 1}
    ranking = cup_totals.cup_ranking(series)
    assert ranking.table_incomplete and ranking.missing_places == [4]
    p4 = ranking.row_for(p["P4"])
    assert [(r.place, r.points, r.has_entry) for r in p4.results if r.place == 4] == [(4, 0, False)] * 3
    # P4: 180 (2nd tournament) + 198 (5th) only.
    assert p4.total == 378


def test_an_unfinished_tournament_does_not_count_yet():
    organiser, referee = users()
    a, b, c = make_players(3, "u")
    series = services.cup_create(actor=organiser, name="U", slug="u")
    services.cup_points_set(series=series, table={1: 10, 2: 5, 3: 1}, actor=organiser)
    done = single_table_event("u-1", [a, b, c], organiser, referee)
    running = single_table_event("u-2", [c, b, a], organiser, referee, finished=False)
    services.cup_event_add(series=series, event=done, actor=organiser)
    services.cup_event_add(series=series, event=running, actor=organiser)
    ranking = cup_totals.cup_ranking(series)
    assert [se.event.slug for se in ranking.counted_events] == ["u-1"]
    assert [(r.player, r.total) for r in ranking.rows] == [(a, 10), (b, 5), (c, 1)]


def test_the_points_table_and_the_series_tournaments_are_validated_and_audited():
    organiser, referee = users()
    series = services.cup_create(actor=organiser, name="V", slug="v")
    with pytest.raises(ServiceError) as exc:
        services.cup_points_set(series=series, table={"1": 100, "2": 120, "x": 1, "3": -1}, actor=organiser)
    assert {(e["field"], e["code"]) for e in exc.value.errors} == {
        ("points.x", "invalid_place"), ("points.3", "invalid_points"), ("points.2", "not_decreasing")}
    services.cup_points_set(series=series, table={"1": 100, "2": 60}, actor=organiser, reason="agreed")
    entry = AuditEntry.objects.get(action="cup.points.set")
    assert entry.after == {"1": 100, "2": 60} and entry.reason == "agreed"
    a, b, c = make_players(3, "v")
    first = single_table_event("v-1", [a, b, c], organiser, referee)
    final = single_table_event("v-2", [a, b, c], organiser, referee)
    services.cup_event_add(series=series, event=first, actor=organiser, is_final=True)
    with pytest.raises(ServiceError) as exc:
        services.cup_event_add(series=series, event=final, actor=organiser, is_final=True)
    assert exc.value.errors[0]["code"] == "final_exists"
    with pytest.raises(ServiceError) as exc:
        services.cup_event_add(series=series, event=first, actor=organiser)
    assert exc.value.errors[0]["code"] == "already_in_series"
    services.cup_event_remove(series=series, event=first, actor=organiser, reason="wrong event")
    assert AuditEntry.objects.filter(action="cup.event.remove", reason="wrong event").exists()
    assert list(series.series_events.all()) == []


@pytest.mark.parametrize("place", ["²", "١", "１", "+1", " 1", "1_0", "-1", "99999", "9" * 30])
def test_a_place_is_ascii_digits_within_what_the_table_holds(place):
    # JSON keys are text: int() would read "١" and "1_0" as places, and 99999 is no small
    # integer a column holds.
    organiser, _referee = users()
    series = services.cup_create(actor=organiser, name="V", slug="v")
    with pytest.raises(ServiceError) as exc:
        services.cup_points_set(series=series, table={place: 10}, actor=organiser)
    assert [(e["field"], e["code"]) for e in exc.value.errors] == [(f"points.{place}", "invalid_place")]
    assert not series.points_table.exists()
