"""Benchmark of the rankings (issue #19): rebuilding every rating of one game family from
1,024 players × 100 events, and the ranking list page today and as of a date.

It builds synthetic results with bulk inserts, not through the services: the players, 100
public rated events of the Slovenian family a week apart, every player registered at each, and
ROUNDS rounds per event of tables of four with confirmed scorecards (random totals) in
published rounds: exactly the rows `rankings.services.family_results` reads, so the rebuild
reads them as it reads real results. Then it measures:

- the first rebuild (every rating and history row written) and a second one that finds
  nothing to change (time and queries), with a profile of the first when BENCH_PROFILE is set;
- the ranking list page, the list as of a date in the middle of the history, a season's list
  and the points list (time and queries, medians of REPEAT runs, through the whole middleware
  stack).

Run from the repository root: `python bench/rankings.py [players [events]]`. SQLite in a RAM
folder unless BENCH_DATABASE_URL names a PostgreSQL database (whose tables it migrates and
fills, then ANALYZEs as autovacuum would). BENCH_RANKINGS_ROUNDS (3) and
BENCH_RANKINGS_REPEAT (3) change the shape.
"""

from __future__ import annotations

import cProfile
import datetime as dt
import os
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder would come first on sys.path, where bench/http.py
# hides the standard library's `http` package that Django needs.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

from bench import scale  # noqa: E402

PLAYERS, EVENTS = 1024, 100
ROUNDS = int(os.environ.get("BENCH_RANKINGS_ROUNDS", "3"))
REPEAT = int(os.environ.get("BENCH_RANKINGS_REPEAT", "3"))
FIRST_DAY = dt.date(2024, 9, 7)
RULESET = "tarok-net-2007"


def _setup(workdir: Path) -> None:
    # The same set-up as the day's bench: SQLite in `workdir` unless BENCH_DATABASE_URL.
    scale._setup(workdir)


def build(players: int, events: int, tag: str) -> None:
    """The synthetic history, one bulk insert per kind of row (in batches)."""
    from django.db import transaction

    from tournaments.domain import search
    from tournaments.models import Event, Player, Registration, Round, Scorecard, Table

    rng = random.Random(19)
    with transaction.atomic():
        people = []
        for i in range(players):
            person = Player(first_name=f"Player{i:04d}", last_name=f"Bench{tag}",
                            club=f"TK {i % 37}", country=("SI", "AT", "CZ", "HR")[i % 4])
            person.search_name, person.search_club = search.player_key(
                person.first_name, person.last_name, person.club)
            people.append(person)
        people = Player.objects.bulk_create(people, batch_size=1000)
        days = [FIRST_DAY + dt.timedelta(days=7 * n) for n in range(events)]
        made = Event.objects.bulk_create(
            [Event(name=f"Bench {tag} {n}", slug=f"bench-{tag}-{n}", venue="Ljubljana",
                   starts_on=day, ends_on=day, ruleset_code=RULESET, ruleset_mode="tri+1",
                   seating_system="random", planned_rounds=ROUNDS, status=Event.Status.FINISHED,
                   is_public=True, rated=True) for n, day in enumerate(days)], batch_size=500)
        Registration.objects.bulk_create(
            [Registration(event=event, player=person, start_number=number)
             for event in made for number, person in enumerate(people, start=1)],
            batch_size=5000)
        rounds = Round.objects.bulk_create(
            [Round(event=event, number=n, status=Round.Status.CLOSED, seating_system="random",
                   seed=n) for event in made for n in range(1, ROUNDS + 1)], batch_size=1000)
        per_table = 4
        tables = Table.objects.bulk_create(
            [Table(round=rnd, number=t) for rnd in rounds
             for t in range(1, players // per_table + 1)], batch_size=5000)
        cards = []
        by_round: dict[int, list[int]] = {}
        for table in tables:
            seats = by_round.get(table.round_id)
            if seats is None:
                seats = by_round[table.round_id] = rng.sample(range(1, players + 1), players)
            numbers = [str(n) for n in seats[(table.number - 1) * per_table:
                                             table.number * per_table]]
            cards.append(Scorecard(table=table, ruleset_code=RULESET, ruleset_mode="tri+1",
                                   player_ids=numbers, status=Scorecard.Status.CONFIRMED,
                                   totals={n: rng.randrange(-300, 301, 10) for n in numbers}))
        Scorecard.objects.bulk_create(cards, batch_size=5000)


class Measure:
    """Wall-clock time and queries of one call. The queries are counted by an execute wrapper,
    not by Django's query log: logging makes the backend render every statement with its
    parameters (on SQLite one more query per statement), which cost a first rebuild a second
    of its ~900 inserts of many rows and is no part of what production runs."""

    def __call__(self, fn):
        from django.db import connection

        count = 0

        def counted(execute, sql, params, many, context):
            nonlocal count
            count += 1
            return execute(sql, params, many, context)

        start = time.perf_counter()
        with connection.execute_wrapper(counted):
            result = fn()
        return result, time.perf_counter() - start, count


def page(url: str, repeat: int = REPEAT) -> tuple[float, int]:
    """Median time and the queries of a page through the whole middleware stack."""
    from django.test import Client

    client = Client()
    measure = Measure()
    runs = []
    for _ in range(repeat):
        response, seconds, queries = measure(lambda: client.get(url))
        assert response.status_code == 200, (url, response.status_code)
        runs.append((seconds, queries))
    return statistics.median(s for s, _ in runs), runs[-1][1]


def main() -> int:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else PLAYERS
    events = int(sys.argv[2]) if len(sys.argv) > 2 else EVENTS
    workdir = Path(tempfile.mkdtemp(dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None,
                                    prefix="tarok-bench-rankings-"))
    try:
        _setup(workdir)
        from django.db import connection

        from rankings import services

        tag = str(int(time.time()))
        start = time.perf_counter()
        build(players, events, tag)
        if connection.vendor == "postgresql":
            # What autovacuum does soon after a bulk load (a server's tables have statistics):
            # without them the planner joins the cards to the rated events by a nested loop
            # over every pair, half a second of the rebuild's reading.
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        tables = events * ROUNDS * (players // 4)
        print(f"database: {connection.vendor}; {players:,} players × {events} events × "
              f"{ROUNDS} rounds = {tables:,} tables; built in "
              f"{time.perf_counter() - start:.0f} s", flush=True)
        measure = Measure()
        profile = cProfile.Profile() if os.environ.get("BENCH_PROFILE") else None
        if profile:
            profile.enable()
        counts, first, first_q = measure(lambda: services.ratings_rebuild("slovenian"))
        if profile:
            profile.disable()
        print(f"rebuild, first: {first:.1f} s, {first_q} queries ({counts['created']:,} steps, "
              f"{counts['ratings_created']:,} ratings written)", flush=True)
        counts, again, again_q = measure(lambda: services.ratings_rebuild("slovenian"))
        print(f"rebuild, nothing changed: {again:.1f} s, {again_q} queries "
              f"({counts['changed']} steps changed)", flush=True)
        if profile:
            pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        middle = FIRST_DAY + dt.timedelta(days=7 * (events // 2))
        from rankings.lists import season_of

        for name, url, repeat in (("ranking list", "/rankings/slovenian/", REPEAT),
                          ("ranking list ?on= (mid-history)",
                           f"/rankings/slovenian/?on={middle.isoformat()}", REPEAT),
                          ("ranking list ?season=", f"/rankings/slovenian/?season="
                                                    f"{season_of(middle).label}", REPEAT),
                          ("ranking list ?on= &country=SI",
                           f"/rankings/slovenian/?on={middle.isoformat()}&country=SI", REPEAT),
                          ("points list (first, standings computed)",
                           f"/rankings/slovenian/points/?on={middle.isoformat()}", 1),
                          ("points list (places cached)",
                           f"/rankings/slovenian/points/?on={middle.isoformat()}", REPEAT)):
            seconds, queries = page(url, repeat)
            print(f"  {name}: {seconds * 1000:,.0f} ms, {queries} queries", flush=True)
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
