"""Forming the next season (seed 000 §4.2): the qualification's best into the lowest league,
free places passed down and filled from the applicants by one of the seed's criteria ("V
kolikor se prijavi več igralcev, se izbor in vrstni red določi po enem izmed naslednjih
kriterijev: doseženi rezultati prejšnjega ligaškega prvenstva, doseženi rezultat na
kvalifikacijah, doseženi rezultat na predtekmovanju"), and the final order written by hand."""

from __future__ import annotations

import random

import pytest

from leagues import league_standings, next_season, services
from leagues.models import SeasonMembership
from tests.leagues.helpers import (
    make_players,
    play_matchday,
    random_klop_points,
    single_table_event,
    users,
)
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _finished_season(organiser, referee, *, qualification_group=True):
    """Two leagues of 8 (2 up, 2 down) and a qualification group of 3 that plays no
    matchdays; one matchday played, then the organiser writes the final orders a1..a8 and
    b1..b8 (as the commission may), so every expectation below is plain."""
    league = services.league_create(actor=organiser, name="Mini", slug="mini", division_size=8,
                                    movement_count=2, division_count=2, hands_per_matchday=1,
                                    qualification_group=qualification_group)
    season = services.season_create(league=league, actor=organiser, name="2025", slug="2025",
                                     planned_matchdays=1, seed=9)
    divisions = list(season.divisions.order_by("level"))
    a, b, q = make_players(8, "a"), make_players(8, "b"), make_players(3, "q")
    for group, division in ((a, divisions[0]), (b, divisions[1])):
        for player in group:
            services.membership_add(division=division, player=player, actor=organiser)
    if qualification_group:
        for player in q:
            services.membership_add(division=divisions[2], player=player, actor=organiser)
    services.schedule_generate(season=season, actor=organiser)
    rng = random.Random(1)
    play_matchday(season, 1, organiser, referee, lambda card: random_klop_points(rng, len(card.player_ids)))
    services.season_finish(season=season, actor=organiser)
    season.refresh_from_db()
    for group, division in ((a, divisions[0]), (b, divisions[1])):
        services.division_set_final_order(division=division, players=group, actor=organiser,
                                          reason="order of the test")
    return season, a, b, q


def _placements(season):
    return {m.player_id: (m.division.level, m.seed_position, m.origin)
            for m in SeasonMembership.objects.filter(season=season).select_related("division")}


def test_the_qualification_tournament_sends_its_best_who_are_not_in_a_league_up():
    organiser, referee = users()
    season, a, b, q = _finished_season(organiser, referee)
    outsider = make_players(1, "x")[0]
    # b1 plays the qualification too, but he is in a league: the places go to q2 and the outsider.
    qualification = single_table_event("kvalifikacije", [b[0], q[1], outsider, q[0]], organiser, referee)
    new = services.season_advance(season=season, actor=organiser, name="2026", qualification_event=qualification)
    got = _placements(new)
    expected = {
        **{a[i].pk: (1, i + 1, "stayed") for i in range(6)},
        b[0].pk: (1, 7, "promoted"), b[1].pk: (1, 8, "promoted"),
        a[6].pk: (2, 1, "relegated"), a[7].pk: (2, 2, "relegated"),
        **{b[i].pk: (2, i + 1, "stayed") for i in range(2, 6)},
        q[1].pk: (2, 7, "qualified"), outsider.pk: (2, 8, "qualified"),
        b[6].pk: (3, 1, "relegated"), b[7].pk: (3, 2, "relegated"),
        q[0].pk: (3, 3, "stayed"), q[2].pk: (3, 4, "stayed"),
    }
    assert got == expected
    assert new.formation["qualification_event"] == "kvalifikacije"
    entry = AuditEntry.objects.get(action="league.qualify", after__seed_position=8)
    assert entry.before == {"season": "2025", "division": "kvalifikacije", "rank": 3}


def test_free_places_pass_down_and_applicants_fill_them_by_the_previous_season():
    organiser, referee = users()
    season, a, b, q = _finished_season(organiser, referee)
    newcomer = make_players(1, "n")[0]
    applicants = [newcomer, q[2], q[0]]
    # Four applicants for three places and no criterion: the organiser must choose one.
    extra = make_players(1, "m")[0]
    with pytest.raises(ServiceError) as exc:
        services.season_advance(season=season, actor=organiser, name="2026", leaving=[a[2]],
                                applicants=[*applicants, extra])
    assert {(e["field"], e["code"]) for e in exc.value.errors} == {("criterion", "required")}

    plan = next_season.next_season_plan(season, leaving=[a[2]], applicants=applicants,
                                      criterion="previous_season")
    assert [p.pk for p, _why in plan.applicants_ranked] == [q[0].pk, q[2].pk, newcomer.pk]
    new = services.season_advance(season=season, actor=organiser, name="2026", leaving=[a[2]],
                                  applicants=applicants, criterion="previous_season")
    got = _placements(new)
    # a3 leaves: b3, the best who stayed in the II. league, takes his place 3; that frees
    # b3's place 3 of the II. league, and nobody is ranked in the qualification group, so
    # places 7 and 8 are free too: q1, q3 and the newcomer take 3, 7, 8 in that order.
    assert got[b[2].pk] == (1, 3, "promoted")
    assert a[2].pk not in got
    assert got[q[0].pk] == (2, 3, "new")
    assert got[q[2].pk] == (2, 7, "new")
    assert got[newcomer.pk] == (2, 8, "new")
    assert got[q[1].pk] == (3, 3, "stayed")
    assert sorted(p for lv, p, _o in got.values() if lv == 1) == list(range(1, 9))
    assert sorted(p for lv, p, _o in got.values() if lv == 2) == list(range(1, 9))
    assert new.formation["criterion"] == "previous_season" and new.formation["leaving"] == [a[2].pk]


def test_without_a_qualification_group_the_bottom_of_the_lowest_league_stays():
    organiser, referee = users()
    season, a, b, _q = _finished_season(organiser, referee, qualification_group=False)
    # The table and the plan ask one rule: the lowest league, with nothing below, sends nobody
    # down (no ↓), and the top league nobody up.
    standings = league_standings.season_standings(season)
    assert [[r.zone for r in ds.rows] for ds in standings.divisions] == [
        [""] * 6 + ["down"] * 2, ["up"] * 2 + [""] * 6]
    new = services.season_advance(season=season, actor=organiser, name="2026")
    got = _placements(new)
    assert got[b[6].pk] == (2, 7, "stayed") and got[b[7].pk] == (2, 8, "stayed")
    assert new.formation["dropped_out"] == []
    assert not AuditEntry.objects.filter(action="league.drop_out").exists()
    assert [d.is_qualification for d in new.divisions.all()] == [False, False]


def test_a_first_season_is_filled_from_applicants_by_the_pre_competition():
    organiser, referee = users()
    league = services.league_create(actor=organiser, name="Nova", slug="nova", division_size=4,
                                    movement_count=1, division_count=1)
    season = services.season_create(league=league, actor=organiser, name="2025")
    players = make_players(6, "p")
    pre = single_table_event("predtekmovanje", [players[4], players[1], players[5]], organiser, referee)
    out = services.applicants_select(season=season, applicants=players, actor=organiser,
                                     criterion="pre_competition", criterion_event=pre)
    # Those who played the pre-competition first, by their place; then the order of application.
    assert [(m.player, m.seed_position) for m in out["placed"]] == [
        (players[4], 1), (players[1], 2), (players[5], 3), (players[0], 4)]
    assert [m.player for m in out["qualification"]] == [players[2], players[3]]
    assert AuditEntry.objects.filter(action="league.membership.select").count() == 6
    with pytest.raises(ServiceError) as exc:
        services.applicants_select(season=season, applicants=[players[0]], actor=organiser)
    assert exc.value.errors[0]["code"] == "already_member"


def test_the_final_order_written_by_hand_needs_a_reason_and_is_audited():
    organiser, referee = users()
    season, a, b, q = _finished_season(organiser, referee)
    first = season.divisions.get(level=1)
    with pytest.raises(ServiceError) as exc:
        services.division_set_final_order(division=first, players=a, actor=organiser, reason=" ")
    assert exc.value.errors[0]["field"] == "reason"
    with pytest.raises(ServiceError) as exc:
        services.division_set_final_order(division=first, players=a[:7], actor=organiser, reason="x")
    assert exc.value.errors[0]["code"] == "not_a_permutation"
    swapped = [a[1], a[0], *a[2:]]
    services.division_set_final_order(division=first, players=swapped, actor=organiser,
                                      reason="commission: a2 won the tie")
    entry = AuditEntry.objects.filter(action="league.final_order").first()
    assert entry.reason == "commission: a2 won the tie"
    assert entry.after[:2] == [[a[1].pk, 1], [a[0].pk, 2]]
    standings = league_standings.season_standings(season)
    assert standings.final
    assert [r.player for r in standings.for_division(first).rows][:2] == [a[1], a[0]]
    # The qualification group played nothing: its order is written by hand the same way.
    qual = season.divisions.get(is_qualification=True)
    services.division_set_final_order(division=qual, players=[q[2], q[0], q[1]], actor=organiser,
                                      reason="result of the qualification")
    plan = next_season.next_season_plan(season)
    lowest = plan.divisions[1]
    assert [(p.player, p.seed_position, p.origin) for p in lowest.placements][-2:] == [
        (q[2], 7, "qualified"), (q[0], 8, "qualified")]
    services.season_advance(season=season, actor=organiser, name="2026")
    with pytest.raises(ServiceError) as exc:
        services.division_set_final_order(division=first, players=a, actor=organiser, reason="late")
    assert exc.value.errors[0]["code"] == "season_advanced"
