"""The plan of the next season (`leagues.next_season.next_season_plan`) read whole: every
division's placements in order, who drops out, who is not admitted, the notes and the errors
in the order the organiser's form shows them. Each case is one branch of the seed's rules
(seed 000 §4.2) that the walks through `season_advance` do not reach."""

from __future__ import annotations

import pytest

from leagues import next_season, services
from leagues.next_season import next_season_plan
from tests.leagues.helpers import make_players, single_table_event, users
from tests.leagues.services.test_next_season import _finished_season

pytestmark = pytest.mark.django_db


def _name(player) -> str:
    return player.last_name


def _summary(plan) -> dict:
    """The whole plan in names: (player, seed position, origin, from division, from rank, note)."""
    return {
        "divisions": [(d.name, d.is_qualification,
                       [(_name(p.player), p.seed_position, p.origin, p.from_division, p.from_rank,
                         str(p.note)) for p in d.placements])
                      for d in plan.divisions],
        "dropped_out": [(_name(p.player), p.from_division, p.from_rank) for p in plan.dropped_out],
        "not_admitted": [_name(p) for p in plan.not_admitted],
        "applicants_ranked": [(_name(p), str(why)) for p, why in plan.applicants_ranked],
        "notes": [next_season.note_text(n) for n in plan.notes],
        "errors": [(e["field"], e["code"]) for e in plan.errors],
    }


def _stayed(names, division, first=1, start_rank=None):
    start_rank = first if start_rank is None else start_rank
    return [(n, first + k, "stayed", division, start_rank + k, "") for k, n in enumerate(names)]


def test_every_refusal_of_the_plan_is_listed_in_the_order_of_the_form():
    organiser, referee = users()
    season, a, _b, _q = _finished_season(organiser, referee)
    stranger, newcomer = make_players(2, "z")
    plan = next_season_plan(season, leaving=[stranger, a[0]],
                            applicants=[newcomer, newcomer, a[1], a[0]], criterion="bogus")
    assert [(e["field"], e["code"], e["message"]) for e in plan.errors] == [
        ("leaving", "not_a_member", f"player {stranger.pk} is not in this season"),
        ("applicants[1]", "duplicate", f"{newcomer} applies twice"),
        ("applicants[2]", "already_placed", f"{a[1]} already has a place in a league"),
        ("applicants[3]", "leaving", f"{a[0]} is listed as leaving"),
        ("criterion", "invalid_choice", "unknown criterion bogus"),
    ]
    assert all(e["hand"] is None for e in plan.errors)
    # An unknown criterion ranks by the order of application; each applicant once.
    assert _summary(plan)["applicants_ranked"] == [("z001", "1."), ("a001", "2."), ("a000", "3.")]

    plan = next_season_plan(season, criterion="qualification")
    assert [(e["field"], e["code"], e["message"]) for e in plan.errors] == [
        ("criterion_event", "required",
         "the criterion qualification needs the tournament whose result decides")]


def test_a_division_too_small_for_who_stays_is_refused_per_league():
    organiser, referee = users()
    season, _a, _b, _q = _finished_season(organiser, referee)
    season.league.division_size = 6  # not saved: the plan reads the league's size
    plan = next_season_plan(season)
    assert [(e["field"], e["code"], e["message"]) for e in plan.errors] == [
        ("division_size", "division_overfull",
         "I. league keeps 6 players but has 4 places between the relegated and the promoted: "
         "change the division size"),
        ("division_size", "division_overfull",
         "II. league keeps 4 players but has 2 places between the relegated and the promoted: "
         "change the division size"),
    ]


def test_an_unfinished_season_is_planned_as_if_it_ended_today_and_its_group_sends_nobody_up():
    organiser, _referee = users()
    league = services.league_create(actor=organiser, name="Open", slug="open", division_size=4,
                                    movement_count=1, division_count=2, qualification_group=True)
    season = services.season_create(league=league, actor=organiser, name="2025", slug="2025", seed=3)
    divisions = list(season.divisions.order_by("level"))
    a, b, q = make_players(4, "a"), make_players(4, "b"), make_players(2, "q")
    for group, division in ((a, divisions[0]), (b, divisions[1]), (q, divisions[2])):
        for player in group:
            services.membership_add(division=division, player=player, actor=organiser)
    plan = next_season_plan(season)
    summary = _summary(plan)
    first, second, qual = (d.name for d in divisions)
    # A preview, not a refusal: nothing is played, so the seed positions are the ranks so far.
    assert plan.provisional and plan.after is None
    assert summary["errors"] == []
    assert summary["notes"] == [
        "The qualification group has no ranking and names no qualification tournament: nobody "
        "goes up from it; its places are free.",
        f"{second} has 1 free place."]
    # The first goes up, the last down; the group's place 4 in the lowest league is free.
    assert summary["divisions"] == [
        (first, False, [("a000", 1, "stayed", first, 1, ""), ("a001", 2, "stayed", first, 2, ""),
                        ("a002", 3, "stayed", first, 3, ""), ("b000", 4, "promoted", second, 1, "")]),
        (second, False, [("a003", 1, "relegated", first, 4, ""), ("b001", 2, "stayed", second, 2, ""),
                         ("b002", 3, "stayed", second, 3, "")]),
        (qual, True, [("b003", 1, "relegated", second, 4, ""), ("q000", 2, "stayed", qual, None, ""),
                      ("q001", 3, "stayed", qual, None, "")]),
    ]


def test_a_qualification_with_too_few_outsiders_leaves_a_place_that_an_applicant_takes():
    organiser, referee = users()
    season, a, b, q = _finished_season(organiser, referee)
    # Only q2 of the qualification is outside the leagues (b1 and a1 are in one): one place
    # of two goes to the qualification.
    qualification = single_table_event("kvalifikacije", [b[0], q[1], a[0]], organiser, referee)
    newcomer = make_players(1, "n")[0]
    plan = next_season_plan(season, qualification_event=qualification, applicants=[newcomer, q[0]],
                            criterion="qualification", criterion_event=qualification)
    summary = _summary(plan)
    assert summary["errors"] == [] and summary["dropped_out"] == [] and summary["not_admitted"] == []
    assert summary["notes"] == ["The 2 best of kvalifikacije who are not in a league go up."]
    assert summary["applicants_ranked"] == [("n000", "did not play"), ("q000", "did not play")]
    assert summary["divisions"] == [
        ("I. league", False, _stayed([f"a00{i}" for i in range(6)], "I. league")
         + [("b000", 7, "promoted", "II. league", 1, ""), ("b001", 8, "promoted", "II. league", 2, "")]),
        ("II. league", False,
         [("a006", 1, "relegated", "I. league", 7, ""), ("a007", 2, "relegated", "I. league", 8, "")]
         + _stayed(["b002", "b003", "b004", "b005"], "II. league", first=3)
         + [("q001", 7, "qualified", "kvalifikacije", 2, ""), ("n000", 8, "new", "", None, "did not play")]),
        # q1 applied and found no place: he stays in the qualification group, which closes up.
        ("Qualification group", True,
         [("b006", 1, "relegated", "II. league", 7, ""), ("b007", 2, "relegated", "II. league", 8, ""),
          ("q000", 3, "stayed", "Qualification group", None, ""),
          ("q002", 4, "stayed", "Qualification group", None, "")]),
    ]


def test_without_a_qualification_group_the_lowest_league_keeps_its_last_and_applicants_left_over_are_not_admitted():
    organiser, referee = users()
    season, a, b, _q = _finished_season(organiser, referee, qualification_group=False)
    applicants = make_players(5, "n")
    plan = next_season_plan(season, leaving=[a[0], b[0]], applicants=applicants)
    assert [(e["field"], e["code"], e["message"]) for e in plan.errors] == [
        ("criterion", "required", "5 players apply for 2 free places: choose a selection criterion")]
    plan = next_season_plan(season, leaving=[a[0], b[0]], applicants=applicants,
                            criterion="previous_season")
    summary = _summary(plan)
    assert not plan.provisional
    assert summary["errors"] == [] and summary["notes"] == []
    assert summary["not_admitted"] == ["n002", "n003", "n004"]
    # There is no division below the lowest league: nobody goes down from it, nobody drops out.
    assert summary["dropped_out"] == []
    assert summary["applicants_ranked"] == [(f"n00{i}", "no result") for i in range(5)]
    # a1 and b1 (promoted to place 7) leave: b3 and b4, the best who stayed below, move up to
    # places 1 and 7, and the applicants take their places 3 and 4 of the lowest league; b7
    # and b8 keep their places 7 and 8.
    assert summary["divisions"] == [
        ("I. league", False, [("b002", 1, "promoted", "II. league", 3, "moved up to a free place")]
         + _stayed([f"a00{i}" for i in range(1, 6)], "I. league", first=2)
         + [("b003", 7, "promoted", "II. league", 4, "moved up to a free place"),
            ("b001", 8, "promoted", "II. league", 2, "")]),
        ("II. league", False,
         [("a006", 1, "relegated", "I. league", 7, ""), ("a007", 2, "relegated", "I. league", 8, ""),
          ("n000", 3, "new", "", None, "no result"), ("n001", 4, "new", "", None, "no result")]
         + _stayed(["b004", "b005", "b006", "b007"], "II. league", first=5)),
    ]


def test_the_notes_are_stored_as_codes_and_read_in_the_readers_language():
    """A plan's notes keep their codes and values (the formation record of the season they
    form is read later in other languages, #33); older seasons' words are shown as written."""
    from django.utils import translation

    free = {"code": "free_places", "division": "II. liga", "n": 3}
    with translation.override("sl"):
        assert next_season.note_text(free) == "II. liga ima 3 prosta mesta."
        assert "kvalifikacijska skupina" in next_season.note_text({"code": "qualification_unranked"}).lower()
    with translation.override("en"):
        assert next_season.note_text({**free, "n": 1}) == "II. liga has 1 free place."
    assert next_season.note_text("Words written before.") == "Words written before."
