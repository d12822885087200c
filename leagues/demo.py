"""The demo league and cup of `manage.py seed_demo`, built through the services as an
organiser would: `demo-league` (two leagues of 8 and a qualification group, a played season
of 3 matchdays, the next season formed by promotion, relegation and selection) and
`demo-cup` (a Steirischer Tarockcup series of three tournaments and a final).

Each builder returns the existing object when it is already there, so running the command
again changes nothing. Hands come from seeded random generators: every run builds the same
demo. The games per matchday are fewer than a real one's 24 so the demo builds in seconds.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.db import transaction

from leagues import services
from leagues.models import CupSeries, League
from tournaments import services as tournament_services

# The Slovenian demo players of tournaments.demo, so a player's page shows his tournament
# and his league side by side.
from tournaments.demo import SLOVENIAN_PLAYERS
from tournaments.demo import demo_players as _players
from tournaments.demo import demo_user as _user
from tournaments.models import Event, Registration, Round, Scorecard
from tournaments.seating import rest_rotation
from tournaments.services import officials, round_jobs

AUSTRIAN_PLAYERS = [
    ("Johann", "Gruber", "Tarockrunde Graz"), ("Maria", "Huber", "Tarockrunde Graz"),
    ("Franz", "Wagner", "TC Leoben"), ("Anna", "Pichler", "TC Leoben"),
    ("Josef", "Steiner", "Tarockklub Bruck"), ("Theresia", "Moser", "Tarockklub Bruck"),
    ("Karl", "Hofer", "TC Weiz"), ("Elisabeth", "Leitner", "TC Weiz"),
    ("Alois", "Berger", "Tarockrunde Graz"), ("Rosa", "Fuchs", "TC Leoben"),
]

def _tri1_hand(rng: random.Random, seated: list[str], resting: str | None) -> dict[str, Any]:
    """A plausible TRI+1 hand: mostly trojka, dvojka or enka, now and then a klop."""
    playing = [p for p in seated if p != resting]
    if rng.random() < 0.12:
        while True:
            cuts = sorted(rng.sample(range(1, 70), len(seated) - 1))
            parts = [b - a for a, b in zip([0, *cuts], [*cuts, 70], strict=True)]
            if max(parts) < 35:
                break
        hand: dict[str, Any] = {"game": "klop", "points_by_player": dict(zip(seated, parts, strict=True))}
    else:
        game = rng.choices(["trojka", "dvojka", "enka"], weights=[65, 25, 10])[0]
        hand = {"game": game, "declarer": rng.choice(playing),
                "points": max(0, min(70, int(rng.gauss(40, 10))))}
    if resting:
        hand["resting"] = resting
    return hand


def _koenigrufen_hand(rng: random.Random, seated: list[str]) -> dict[str, Any]:
    """A plausible Königrufen hand of the Tarockcup: Rufer mostly, some Dreier and Trischaken."""
    roll = rng.random()
    if roll < 0.12:
        while True:
            cuts = sorted(rng.sample(range(1, 70), 3))
            parts = [b - a for a, b in zip([0, *cuts], [*cuts, 70], strict=True)]
            if max(parts) < 35:
                break
        return {"game": "trischaken", "forehand": rng.choice(seated),
                "points_by_player": dict(zip(seated, parts, strict=True))}
    declarer = rng.choice(seated)
    points = max(0, min(70, int(rng.gauss(38, 9))))
    if points == 35:
        # With exactly 35 the Blatt decide (seed 001); the demo keeps to clear results.
        points = 36
    if roll < 0.3:
        return {"game": "dreier", "declarer": declarer, "points": points}
    partner = rng.choice([p for p in seated if p != declarer])
    return {"game": "rufer", "declarer": declarer, "partner": partner, "points": points}


def _play(rnd: Round, rng: random.Random, hands: int, entered_by: Any, confirmed_by: Any, *, tri1: bool) -> None:
    for card in Scorecard.objects.filter(table__round=rnd).order_by("table__number"):
        seated = list(card.player_ids)
        rotation = rest_rotation(seated, hands) if tri1 else None
        for number in range(1, hands + 1):
            if tri1:
                record = _tri1_hand(rng, seated, rotation[number - 1]["resting"])
            else:
                record = _koenigrufen_hand(rng, seated)
            card.refresh_from_db()
            tournament_services.hand_save(scorecard=card, number=number, record=record, actor=entered_by,
                                          expected_version=card.version)
        tournament_services.scorecard_submit(scorecard=card, actor=entered_by)
        tournament_services.scorecard_confirm(scorecard=card, actor=confirmed_by)


@transaction.atomic
def league_demo(stdout: Any = None) -> League:
    existing = League.objects.filter(slug="demo-league").first()
    if existing is not None:
        return existing
    organiser = _user("organiser", staff=True)
    referee = _user("referee")
    league = services.league_create(
        actor=organiser, organisers=[organiser], name="Demo: Tarok liga", slug="demo-league",
        # A Slovenian league: its description, division and matchday names are in Slovenian.
        description="Dve ligi po osem igralcev in kvalifikacijska skupina: po dva igralca "
                    "napredujeta in po dva izpadeta. Pomanjšan posnetek lige po pravilih "
                    "Tarok.net (§4.2), ki jo igra 32 igralcev, od tega jih po 10 napreduje in "
                    "po 10 izpade.",
        language="sl",
        division_size=8, movement_count=2, division_count=2, qualification_group=True,
        ruleset_code="tarok-net-2007", ruleset_mode="tri+1", hands_per_matchday=4,
    )
    season = services.season_create(league=league, actor=organiser, name="2025/26", slug="2025-26",
                                     starts_on=dt.date(2025, 10, 7), ends_on=dt.date(2025, 12, 2),
                                     planned_matchdays=3, seed=2025)
    first, second, qual = list(season.divisions.order_by("level"))
    players = _players(SLOVENIAN_PLAYERS[:20], "SI")
    for i, player in enumerate(players):
        division = first if i < 8 else second if i < 16 else qual
        services.membership_add(division=division, player=player, actor=organiser)
    services.schedule_generate(season=season, actor=organiser)
    rng = random.Random(20251007)
    for number, day in enumerate((dt.date(2025, 10, 7), dt.date(2025, 11, 4), dt.date(2025, 12, 2)), start=1):
        matchday = services.matchday_create(season=season, actor=organiser, date=day,
                                            venue="Gostilna pri Tarokistu, Ljubljana", number=number)
        officials.event_official_add(event=matchday.event, user=referee, role="referee",
                                               actor=organiser)
        rnd = services.matchday_seat(matchday=matchday, actor=organiser)
        services.matchday_publish(matchday=matchday, actor=organiser)
        _play(rnd, rng, league.hands_per_matchday, organiser, referee, tri1=True)
        services.matchday_close(matchday=matchday, actor=organiser)
    season.refresh_from_db()
    services.season_finish(season=season, actor=organiser)
    # The qualification group played no qualification here: its players apply for the free
    # places and the seed's first criterion (the previous season) orders them.
    applicants = [m.player for m in qual.memberships.order_by("seed_position")]
    new = services.season_advance(season=season, actor=organiser, name="2026/27", slug="2026-27",
                                  starts_on=dt.date(2026, 10, 6), planned_matchdays=3, seed=2026,
                                  applicants=applicants, criterion="previous_season")
    services.schedule_generate(season=new, actor=organiser)
    return league


@transaction.atomic
def cup_demo(stdout: Any = None) -> CupSeries:
    existing = CupSeries.objects.filter(slug="demo-cup").first()
    if existing is not None:
        return existing
    organiser = _user("organiser", staff=True)
    referee = _user("referee")
    series = services.cup_create(
        actor=organiser, organisers=[organiser], seed_points=True, name="Demo: Steirischer Tarockcup",
        slug="demo-cup", season_label="2017/18", best_results_counted=2, final_counts_extra=True,
    )
    players = _players(AUSTRIAN_PLAYERS, "AT")
    rng = random.Random(20171021)
    days = [("demo-cup-1", "Graz", dt.date(2017, 10, 21)), ("demo-cup-2", "Leoben", dt.date(2017, 11, 18)),
            ("demo-cup-3", "Bruck an der Mur", dt.date(2018, 1, 20)),
            ("demo-cup-final", "Graz", dt.date(2018, 4, 21))]
    for index, (slug, venue, day) in enumerate(days):
        is_final = slug.endswith("final")
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            event = tournament_services.event_create(
                actor=organiser, name=f"Demo: Tarockcup {'Finale' if is_final else venue}", slug=slug,
                venue=venue, starts_on=day, ends_on=day, time_zone="Europe/Vienna", language="de",
                ruleset_code="steirischer-tarockcup-2017", ruleset_mode="four", seating_system="random",
                planned_rounds=3, hands_per_round=4, status=Event.Status.RUNNING,
            )
            event.referees.add(referee)
            # Eight of the ten play each day, so the players' numbers of results differ.
            field = players if is_final else [p for i, p in enumerate(players) if i % 5 != index][:8]
            for player in field[:8]:
                reg = tournament_services.registration_create(event=event, player=player, actor=organiser)
                tournament_services.registration_set_status(
                    registration=reg, status=Registration.Status.CHECKED_IN, actor=organiser)
            for _round in range(event.planned_rounds):
                job = round_jobs.round_generation_queue(event=event, actor=organiser)
                job.refresh_from_db()
                if job.status != job.Status.DONE:
                    job = round_jobs.round_generate(job.pk)
                rnd = event.rounds.get(number=job.result["round"])
                tournament_services.round_publish(rnd=rnd, actor=organiser)
                _play(rnd, rng, event.hands_per_round, organiser, referee, tri1=False)
                round_jobs.round_close(rnd=rnd, actor=organiser)
            tournament_services.event_update(event=event, actor=organiser, status=Event.Status.FINISHED)
        services.cup_event_add(series=series, event=event, actor=organiser, is_final=is_final, order=index + 1)
    return series


DEMOS = [("demo-league", league_demo), ("demo-cup", cup_demo)]
