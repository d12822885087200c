"""League standings after every matchday, with hand-computed numbers and the tie-breaks
written on the rows (seed 000 §4.2: "Lestvica se objavlja po vsakem krogu (kolu). Končni
vrstni red je razviden po odigrani zadnji tekmi tekmovanja."), and the schedule: drawn by the
seating engine's league system, drawn again only before the first matchday, swaps re-checked.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import translation

from leagues import league_standings, selectors, services
from leagues.models import Season
from tests.leagues.helpers import klop_record, make_players, play_card, users
from tournaments import services as ts
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Round, Scorecard

pytestmark = pytest.mark.django_db


def _league_with_eight(organiser, *, matchdays=2):
    league = services.league_create(actor=organiser, name="Osem", slug="osem", division_size=8,
                                    movement_count=2, division_count=1, hands_per_matchday=1)
    season = services.season_create(league=league, actor=organiser, name="2025", planned_matchdays=matchdays,
                                     seed=1)
    division = season.divisions.get(level=1)
    players = make_players(8, prefix="S")
    for p in players:
        services.membership_add(division=division, player=p, actor=organiser)
    return league, season, division, dict(zip("ABCDEFGH", players, strict=True))


def _play_own_tables(season, number, tables, points, organiser, referee, *, confirm_all=True):
    """A matchday whose tables the test chooses (the standings read only the matchday's
    confirmed scorecards): `tables` of players, `points` the klop points per seat."""
    matchday = services.matchday_create(season=season, actor=organiser, date=dt.date(2025, 10, number),
                                        number=number)
    event = matchday.event
    regs = {}
    for table in tables:
        for p in table:
            regs[p.pk] = ts.registration_create(event=event, player=p, actor=organiser)
    ids = [[str(regs[p.pk].start_number) for p in table] for table in tables]
    rnd = ts.round_store(event=event, number=1, seating_system="league", seed=1, tables=ids, actor=organiser,
                         sections=["I. league"] * len(ids))
    ts.round_publish(rnd=rnd, actor=organiser)
    for i, card in enumerate(Scorecard.objects.filter(table__round=rnd).order_by("table__number")):
        if confirm_all or i == 0:
            play_card(card, klop_record(list(card.player_ids), points[i]), organiser, referee)
    return matchday


def test_standings_after_each_matchday_with_hand_computed_scores_and_tie_breaks():
    organiser, referee = users()
    _league, season, division, p = _league_with_eight(organiser)
    A, B, C, D, E, F, G, H = (p[k] for k in "ABCDEFGH")
    # Matchday 1: A -4, B -12, C -20, D -34 and E -4, F -12, G -20, H -34.
    _play_own_tables(season, 1, [[A, B, C, D], [E, F, G, H]], [[4, 12, 20, 34], [4, 12, 20, 34]],
                     organiser, referee)
    # Matchday 2: A -34, E -20, B -12, F -4 and C -12, G -4, D -34, H -20.
    _play_own_tables(season, 2, [[A, E, B, F], [C, G, D, H]], [[34, 20, 12, 4], [12, 4, 34, 20]],
                     organiser, referee)

    after1 = league_standings.season_standings(season, after=1).for_division(division)
    # Equal scores: table points equal, best matchday equal, so the seed position decides.
    assert [(r.player, r.score, r.table_points) for r in after1.rows] == [
        (A, -4, 4), (E, -4, 4), (B, -12, 3), (F, -12, 3), (C, -20, 2), (G, -20, 2), (D, -34, 1), (H, -34, 1)]
    assert [r.tie_break for r in after1.rows] == ["seed_position"] * 8

    standings = league_standings.season_standings(season)
    assert standings.after == 2 and not standings.final
    rows = standings.for_division(division).rows
    # Totals: F -16; B, E, G -24; C -32; A -38; H -54; D -68.
    # Table points: A 4+1, B 3+3, C 2+3, D 1+1, E 4+2, F 3+4, G 2+4, H 1+2.
    assert [(r.rank, r.player, r.score, r.table_points, r.matchdays_played) for r in rows] == [
        (1, F, -16, Decimal(7), 2), (2, E, -24, Decimal(6), 2), (3, G, -24, Decimal(6), 2),
        (4, B, -24, Decimal(6), 2), (5, C, -32, Decimal(5), 2), (6, A, -38, Decimal(5), 2),
        (7, H, -54, Decimal(3), 2), (8, D, -68, Decimal(2), 2)]
    # E, G and B tie on score and table points: the best matchday (-4, -4, -12) puts B
    # last; E before G by the seed position.
    assert [r.tie_break for r in rows[1:4]] == ["seed_position", "seed_position", "best_matchday"]
    assert rows[1].per_matchday == {1: -4, 2: -20} and rows[1].cells == [-4, -20]
    # One league and a qualification group: nobody goes up, the last two go down.
    assert [r.zone for r in rows] == ["", "", "", "", "", "", "down", "down"]


def test_unconfirmed_tables_are_pending_and_do_not_count():
    organiser, referee = users()
    _league, season, division, p = _league_with_eight(organiser, matchdays=1)
    tables = [[p["A"], p["B"], p["C"], p["D"]], [p["E"], p["F"], p["G"], p["H"]]]
    _play_own_tables(season, 1, tables, [[4, 12, 20, 34], [4, 12, 20, 34]], organiser, referee,
                     confirm_all=False)
    standings = league_standings.season_standings(season)
    assert standings.pending == [(1, 2)]
    rows = {r.player.pk: r for r in standings.for_division(division).rows}
    assert rows[p["A"].pk].score == -4 and rows[p["A"].pk].matchdays_played == 1
    assert rows[p["E"].pk].score == 0 and rows[p["E"].pk].matchdays_played == 0
    with pytest.raises(ServiceError) as exc:
        services.matchday_close(matchday=season.matchdays.get(), actor=organiser)
    assert exc.value.errors[0]["code"] == "tables_pending"


def test_the_schedule_comes_from_the_league_system_and_is_fixed_once_a_matchday_is_seated():
    organiser, _referee = users()
    league = services.league_create(actor=organiser, name="Dvajset osem", slug="l28", division_size=28,
                                    movement_count=10, division_count=1, qualification_group=False)
    season = services.season_create(league=league, actor=organiser, name="2025", planned_matchdays=9, seed=5)
    division = season.divisions.get()
    players = make_players(28, prefix="T")
    for player in players:
        services.membership_add(division=division, player=player, actor=organiser)
    services.schedule_generate(season=season, actor=organiser)
    season.refresh_from_db()
    stored = season.schedule["divisions"]["1"]
    # Seed 002 §4.2 "28 ali 32 igralcev": 28 players, 9 matchdays, every pair meets once.
    assert stored["repeat_pairs"] == 0 and len(stored["rounds"]) == 9
    pairs = {frozenset((a, b)) for md in stored["rounds"] for t in md for a in t for b in t if a != b}
    assert len(pairs) == 28 * 27 // 2

    # Drawing again before the first matchday takes a new seed.
    first_seed = season.seed
    services.schedule_generate(season=season, actor=organiser)
    season.refresh_from_db()
    assert season.seed != first_seed and season.schedule["version"] == 2

    # A swap is re-checked: in this design every pair meets exactly once, so moving two
    # players between tables makes each meet three players he already met: 6 repeats.
    md1 = season.schedule["divisions"]["1"]["rounds"][0]
    a, b = md1[0][0], md1[1][0]
    by_pk = {str(pl.pk): pl for pl in players}
    with translation.override("sl"):
        result = services.schedule_swap(season=season, division=division, matchday_number=1, first=by_pk[a],
                                        second=by_pk[b], actor=organiser, reason="A asked to play at table 2")
    assert result == {"repeat_pairs": 6, "repeat_pairs_before": 0, "remarks": result["remarks"]}
    assert result["remarks"], "the checker says the schedule is no longer free of repeats"
    # ... in the language of the request that swapped
    assert ("28 igralcev lahko brez enega samega ponovnega srečanja odigra kol lige: 9; ta razpored "
            "ima ponovnih srečanj: 6" in result["remarks"]), result["remarks"]
    season.refresh_from_db()
    assert season.schedule["divisions"]["1"]["rounds"][0][0][0] == b
    entry = AuditEntry.objects.get(action="league.schedule.swap")
    assert entry.reason == "A asked to play at table 2" and entry.after["repeat_pairs"] == 6

    with pytest.raises(ServiceError) as exc:
        services.schedule_swap(season=season, division=division, matchday_number=10, first=by_pk[a],
                               second=by_pk[b], actor=organiser)
    assert exc.value.errors[0]["field"] == "matchday"

    # Seating matchday 1 fixes the schedule and the members.
    matchday = services.matchday_create(season=season, actor=organiser, date=dt.date(2025, 10, 1))
    rnd = services.matchday_seat(matchday=matchday, actor=organiser)
    assert services.matchday_seat(matchday=matchday, actor=organiser) == rnd  # idempotent
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING
    seated = [[str(s.registration.player_id) for s in t.seats.order_by("position")]
              for t in rnd.tables.order_by("number")]
    assert seated == season.schedule["divisions"]["1"]["rounds"][0]
    assert {t.section for t in rnd.tables.all()} == {division.name}
    # The members were registered together, each with his entry in the trail.
    assert sorted(matchday.event.registrations.values_list("start_number", flat=True)) == list(range(1, 29))
    assert AuditEntry.objects.filter(event=matchday.event, action="registration.create").count() == 28
    for call in (lambda: services.schedule_generate(season=season, actor=organiser),
                 lambda: services.membership_add(division=division, player=make_players(1, "X")[0], actor=organiser)):
        with pytest.raises(ServiceError) as exc:
            call()
        assert exc.value.errors[0]["code"] == "season_started"

    # A swap in the seated draft changes the seats too; once published it is refused.
    t1, t2 = seated[0][1], seated[1][1]
    services.schedule_swap(season=season, division=division, matchday_number=1, first=by_pk[t1],
                           second=by_pk[t2], actor=organiser)
    rnd.refresh_from_db()
    moved = rnd.seats.get(registration__player_id=int(t1))
    assert moved.table.number == 2 and rnd.seating_version == 2
    ts.round_publish(rnd=rnd, actor=organiser)
    with pytest.raises(ServiceError) as exc:
        services.schedule_swap(season=season, division=division, matchday_number=1, first=by_pk[t1],
                               second=by_pk[t2], actor=organiser)
    assert exc.value.errors[0]["code"] == "matchday_published"
    assert Round.objects.get(pk=rnd.pk).status == "published"


def test_a_change_of_members_drops_the_schedule_until_it_is_drawn_again():
    organiser, _referee = users()
    _league, season, division, p = _league_with_eight(organiser, matchdays=2)
    services.schedule_generate(season=season, actor=organiser)
    services.membership_remove(membership=season.memberships.get(player=p["H"]), actor=organiser,
                               reason="moved abroad")
    season.refresh_from_db()
    assert selectors.schedule_of(season, division) is None
    matchday = services.matchday_create(season=season, actor=organiser, date=dt.date(2025, 10, 1))
    with pytest.raises(ServiceError) as exc:
        services.matchday_seat(matchday=matchday, actor=organiser)
    assert exc.value.errors[0]["code"] == "no_schedule"
    services.schedule_generate(season=season, actor=organiser)
    rnd = services.matchday_seat(matchday=matchday, actor=organiser)
    # Seven players: one table of four and one of three (min_table_size 3).
    assert sorted(t.seats.count() for t in rnd.tables.all()) == [3, 4]
    assert AuditEntry.objects.filter(action="league.membership.remove", reason="moved abroad").exists()
