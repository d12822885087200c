"""A whole season simulated through the services: three leagues of 32 and a qualification
group of 12 play two matchdays, the season is finished and the next one formed, and every
one of the 108 players is checked against seed 000 §4.2:

"Po končanem ligaškem prvenstvu izpade iz vsake lige 10 igralcev v nižjo ligo (na pozicije od
1 do 10) in po 10 igralcev napreduje v višjo ligo (na pozicije od 23 do 32). ... Kdor izpade
iz III. lige pade v kvalifikacijsko skupino."

The expected final order is computed here from the confirmed scorecards alone (score, then
table points 4/3/2/1, then the best matchday, then the seed position), not by the code under
test.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from leagues import league_standings, services
from leagues.models import Season, SeasonMembership
from tests.leagues.helpers import make_players, play_matchday, random_klop_points, users
from tournaments.errors import Conflict, ServiceError
from tournaments.models import AuditEntry, Scorecard

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

DIVISIONS = [{"name": "I. liga"}, {"name": "II. liga"}, {"name": "III. liga"},
             {"name": "Kvalifikacijska skupina", "is_qualification": True, "plays_matchdays": True}]


def _expected_final_order(season: Season) -> dict[int, list[int]]:
    """{division level: [player pk, ...] first to last}, from the scorecards only."""
    score: dict[int, int] = defaultdict(int)
    table_points: dict[int, int] = defaultdict(int)
    per_matchday: dict[int, list[int]] = defaultdict(list)
    for matchday in season.matchdays.all():
        by_number = {str(r.start_number): r.player_id for r in matchday.event.registrations.all()}
        for card in Scorecard.objects.filter(table__round__event=matchday.event):
            assert card.status == "verified"
            assert len(card.player_ids) == 4
            placing = sorted(card.player_ids, key=lambda p: (-card.totals[p], int(p)))
            for place, pid in enumerate(placing):
                player = by_number[pid]
                score[player] += card.totals[pid]
                table_points[player] += 4 - place
                per_matchday[player].append(card.totals[pid])
    out = {}
    for division in season.divisions.all():
        members = list(division.memberships.all())
        members.sort(key=lambda m: (-score[m.player_id], -table_points[m.player_id],
                                    -max(per_matchday[m.player_id]), m.seed_position))
        out[division.level] = [m.player_id for m in members]
    return out


def _expected_next(order: dict[int, list[int]]) -> dict[int, tuple[int, int, str]]:
    """Seed 000 §4.2 by hand: {player: (division level, seed position, origin)}."""
    first, second, third, qual = order[1], order[2], order[3], order[4]
    out = {}
    for rank, pid in enumerate(first, start=1):
        out[pid] = (1, rank, "stayed") if rank <= 22 else (2, rank - 22, "relegated")
    for rank, pid in enumerate(second, start=1):
        if rank <= 10:
            out[pid] = (1, 22 + rank, "promoted")
        elif rank <= 22:
            out[pid] = (2, rank, "stayed")
        else:
            out[pid] = (3, rank - 22, "relegated")
    for rank, pid in enumerate(third, start=1):
        if rank <= 10:
            out[pid] = (2, 22 + rank, "promoted")
        elif rank <= 22:
            out[pid] = (3, rank, "stayed")
        else:
            out[pid] = (4, rank - 22, "relegated")  # into the qualification group
    for rank, pid in enumerate(qual, start=1):
        out[pid] = (3, 22 + rank, "qualified") if rank <= 10 else (4, rank, "stayed")
    return out


def test_three_leagues_of_32_through_promotion_and_relegation_player_by_player():
    organiser, referee = users()
    league = services.league_create(actor=organiser, name="Liga", slug="liga", division_size=32,
                                    movement_count=10, division_count=3, hands_per_matchday=1)
    season = services.season_create(league=league, actor=organiser, name="2025/26", slug="2025-26",
                                     planned_matchdays=2, seed=7, divisions=DIVISIONS)
    divisions = list(season.divisions.order_by("level"))
    players = make_players(108)
    for i, player in enumerate(players):
        division = divisions[min(i // 32, 3)]
        services.membership_add(division=division, player=player, actor=organiser)
    assert [d.memberships.count() for d in divisions] == [32, 32, 32, 12]

    services.schedule_generate(season=season, actor=organiser)
    season.refresh_from_db()
    # 32 players: the engine's construction avoids every repeat meeting over 2 matchdays.
    assert [season.schedule["divisions"][str(level)]["repeat_pairs"] for level in (1, 2, 3)] == [0, 0, 0]

    rng = random.Random(11)
    for number in (1, 2):
        play_matchday(season, number, organiser, referee, lambda card: random_klop_points(rng, 4))
    # Every division played at its own tables, named by Table.section.
    md1 = season.matchdays.get(number=1)
    sections = sorted({c.table.section for c in Scorecard.objects.filter(table__round__event=md1.event)})
    assert sections == sorted(d["name"] for d in DIVISIONS)

    services.season_finish(season=season, actor=organiser)
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    expected_order = _expected_final_order(season)
    for level, order in expected_order.items():
        ranks = {m.player_id: m.final_rank for m in season.memberships.filter(division__level=level)}
        assert [pid for pid, _ in sorted(ranks.items(), key=lambda kv: kv[1])] == order, level

    new = services.season_advance(season=season, actor=organiser, name="2026/27", slug="2026-27")
    assert new.previous == season
    assert [(d.level, d.name, d.is_qualification) for d in new.divisions.order_by("level")] == [
        (1, "I. liga", False), (2, "II. liga", False), (3, "III. liga", False),
        (4, "Kvalifikacijska skupina", True)]
    expected = _expected_next(expected_order)
    got = {m.player_id: (m.division.level, m.seed_position, m.origin)
           for m in SeasonMembership.objects.filter(season=new).select_related("division")}
    assert len(got) == 108
    for player in players:
        assert got[player.pk] == expected[player.pk], player
    # Every league is full again: 10 relegated at 1-10, 12 who stayed, 10 promoted at 23-32.
    for level in (1, 2, 3):
        positions = sorted(p for lv, p, _ in got.values() if lv == level)
        assert positions == list(range(1, 33))
    assert sorted(p for lv, p, _ in got.values() if lv == 4) == list(range(1, 13))

    # Every move is in the audit trail, with where the player came from.
    assert AuditEntry.objects.filter(action="league.promote").count() == 20
    assert AuditEntry.objects.filter(action="league.relegate").count() == 30
    assert AuditEntry.objects.filter(action="league.qualify").count() == 10
    best_of_second = expected_order[2][0]
    entry = AuditEntry.objects.get(action="league.promote", object_id=str(
        SeasonMembership.objects.get(season=new, player_id=best_of_second).pk))
    assert entry.before == {"season": "2025-26", "division": "II. liga", "rank": 1}
    assert entry.after == {"season": "2026-27", "division": "I. liga", "seed_position": 23}

    # The plan the season page previews is the one that was applied.
    assert league_standings.season_standings(season).final


def test_the_next_season_can_be_formed_only_once_and_only_from_a_finished_season():
    organiser, referee = users()
    league = services.league_create(actor=organiser, name="Mala", slug="mala", division_size=8,
                                    movement_count=2, division_count=2, hands_per_matchday=1)
    season = services.season_create(league=league, actor=organiser, name="A", planned_matchdays=1, seed=3)
    first, second, _qual = season.divisions.order_by("level")
    for i, player in enumerate(make_players(16)):
        services.membership_add(division=first if i < 8 else second, player=player, actor=organiser)
    services.schedule_generate(season=season, actor=organiser)
    with pytest.raises(ServiceError) as exc:
        services.season_advance(season=season, actor=organiser, name="B")
    assert exc.value.errors[0]["code"] == "season_not_finished"
    with pytest.raises(ServiceError) as exc:
        services.season_finish(season=season, actor=organiser)
    assert exc.value.errors[0]["code"] == "matchdays_missing"
    rng = random.Random(5)
    play_matchday(season, 1, organiser, referee, lambda card: random_klop_points(rng, 4))
    services.season_finish(season=season, actor=organiser)
    services.season_advance(season=season, actor=organiser, name="B")
    with pytest.raises(Conflict):
        services.season_advance(season=season, actor=organiser, name="C")
