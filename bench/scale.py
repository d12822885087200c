"""Benchmark of a big tournament day (issue #18): events of 64, 256 and 1,024 players built
through the services, and the operations of the day timed on them with their query counts.

For each size it builds a TRI+1 event (tables of four) of ROUNDS rounds of HANDS hands per
table, every hand entered, every card handed in and confirmed and every round but the last
closed, all through `tournaments.services` as the pages do. Then it measures, medians of
REPEAT runs where an operation can be repeated:

- the public standings and event pages, uncached (through the whole middleware stack);
- the seating-list and standings PDFs as a worker renders them (laid out in a child process),
  and beside them rendered in the process with the collection of what they leave;
- entering the last hand of a card (time and queries), and the archive made since the one
  before it (`export_event_since`, what a venue's push exports) beside the whole export;
- the desk checking everybody in at once, beside the same one by one;
- closing the last round (beside two references: the close before issue #35, and the carried
  totals counted again from every closed round), and seating the next one (the seating job);
- correcting a hand of a card of the closed round (time and queries);
- importing an export of the event again as a copy (`import_event`, time and queries).

Run from the repository root: `python bench/scale.py [--build-only | --reuse TAG] [players ...]`.
SQLite in a RAM folder unless BENCH_DATABASE_URL names a PostgreSQL database (whose tables it
migrates and fills). BENCH_SCALE_ROUNDS (4), BENCH_SCALE_HANDS (24) and BENCH_SCALE_REPEAT (3)
change the shape; the full default run takes tens of minutes on a small machine, most of it
the building (about 10 minutes for 1,024 players at 4 x 24 on PostgreSQL).

Measuring changes the event (a hand entered, the round closed, the next one seated), so a
second run cannot measure the same event again. With PostgreSQL the building and the measuring
can be parted: `--build-only` builds the events `scale-<players>-<TAG>` and prints the TAG;
`--reuse TAG` measures them on a fresh copy of that database (CREATE DATABASE ... TEMPLATE),
dropped afterwards, so every run starts from the same built day.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import gzip
import os
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

PLAYERS = (64, 256, 1024)
ROUNDS = int(os.environ.get("BENCH_SCALE_ROUNDS", "4"))
HANDS = int(os.environ.get("BENCH_SCALE_HANDS", "24"))
REPEAT = int(os.environ.get("BENCH_SCALE_REPEAT", "3"))


def _setup(workdir: Path, database_url: str | None = None) -> None:
    os.environ["DATABASE_URL"] = database_url or os.environ.get(
        "BENCH_DATABASE_URL", f"sqlite:///{workdir / 'bench.sqlite3'}")
    os.environ["MEDIA_ROOT"] = str(workdir / "media")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)


class Measure:
    """Wall-clock time and queries of one call."""

    def __init__(self):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        self._capture = CaptureQueriesContext(connection)

    def __call__(self, fn):
        start = time.perf_counter()
        with self._capture:
            result = fn()
        return result, time.perf_counter() - start, len(self._capture)


def _records(card, hands: int, seed: int) -> list[dict]:
    from tournaments.demo import _tri1_hand
    from tournaments.seating.rotation import rest_rotation

    rng = random.Random(seed)
    rotation = rest_rotation(list(card.player_ids), hands)
    return [_tri1_hand(rng, list(card.player_ids), r["resting"]) for r in rotation]


def _enter(card, number, record, actor, reason=""):
    from tournaments import services

    card.refresh_from_db(fields=["version"])
    return services.hand_save(scorecard=card, number=number, record=record, actor=actor,
                              expected_version=card.version, reason=reason)


def _play(rnd, hands: int, *, leave_open=None) -> None:
    from tournaments import services
    from tournaments.models import Scorecard

    event = rnd.event
    organiser, referee = event.organisers.first(), event.referees.first()
    for card in Scorecard.objects.filter(table__round=rnd).select_related("table"):
        records = _records(card, hands, seed=rnd.number * 10_000 + card.table.number)
        last = hands - 1 if card.pk == leave_open else hands
        for number in range(1, last + 1):
            _enter(card, number, records[number - 1], organiser)
        if card.pk == leave_open:
            continue
        card.refresh_from_db()
        services.scorecard_submit(scorecard=card, actor=organiser)
        services.scorecard_confirm(scorecard=card, actor=referee)


def _seat(event, number: int):
    from sample_data import printouts
    from tournaments.services import round_jobs

    if number == 1:
        return printouts.seat(event, 1)
    job = round_jobs.round_generation_queue(event=event, actor=event.organisers.first())
    round_jobs.round_generate(job.pk)
    return event.rounds.get(number=number)


def build(players: int, tag: str):
    """The event with rounds 1..ROUNDS-1 closed and round ROUNDS played but for the last hand
    of table 1."""
    from sample_data import printouts
    from tournaments import services
    from tournaments.models import Scorecard
    from tournaments.services import round_jobs

    event = printouts.slovenian_event(slug=f"scale-{players}-{tag}", tables=players // 4,
                                     planned_rounds=ROUNDS + 1, name=f"Scale {players}",
                                     hands_per_round=HANDS)
    organiser = event.organisers.first()
    for number in range(1, ROUNDS + 1):
        rnd = _seat(event, number)
        services.round_publish(rnd=rnd, actor=organiser)
        open_card = None
        if number == ROUNDS:
            open_card = Scorecard.objects.get(table__round=rnd, table__number=1).pk
        _play(rnd, HANDS, leave_open=open_card)
        if number < ROUNDS:
            round_jobs.round_close(rnd=rnd, actor=organiser)
    return event


@contextlib.contextmanager
def _closing_as_before():
    """Closing a round as before issue #35: the carried totals from standings of their own
    and written with bulk_update (the reference of the close's figure)."""
    from tournaments.models import Registration
    from tournaments.services import scorecards

    write, refresh = scorecards._write_totals, scorecards.refresh_carried_totals
    scorecards._write_totals = lambda changed: Registration.objects.bulk_update(
        [Registration(pk=c.pk, tournament_points=c.tournament_points, score=c.score)
         for c in changed], ["tournament_points", "score"])

    def refresh_twice(event, number, *, actor=None):
        # The close computed the standings for its audit, and the refresh again for itself,
        # from every closed round's cards.
        from tournaments.domain import standings
        standings.event_standings(event, up_to_round=number, with_players=False)
        rows = refresh(event, actor=actor) or []
        return {r.start_number: r.exact_per_round[number] for r in rows if number in r.exact_per_round}

    try:
        with _carrying(refresh_twice):
            yield
    finally:
        scorecards._write_totals = write


def _closing_whole():
    """Closing a round with the carried totals computed again from every closed round's cards
    (refresh_carried_totals), not the closed round's added (the reference of the close's
    figure, beside the one before #35)."""
    from tournaments.services import scorecards

    def whole(event, number, *, actor=None):
        rows = scorecards.refresh_carried_totals(event, actor=actor) or []
        return {r.start_number: r.exact_per_round[number] for r in rows if number in r.exact_per_round}
    return _carrying(whole)


@contextlib.contextmanager
def _carrying(carry):
    """The close carrying the totals with `carry` instead of carry_closed_round."""
    from tournaments.services import round_jobs

    kept = round_jobs.carry_closed_round
    round_jobs.carry_closed_round = carry
    try:
        yield
    finally:
        round_jobs.carry_closed_round = kept


def _median(fn, repeat=REPEAT):
    runs = [fn() for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), runs[-1][1]


def _closes(last, organiser, measure_call) -> dict[str, tuple[float, int | None]]:
    """Closing the last round, medians of closes as the code does it now alternating with
    the two references; the round left closed."""
    from tournaments import services
    from tournaments.services import round_jobs

    out: dict[str, tuple[float, int | None]] = {}

    def close():
        return measure_call(lambda: round_jobs.round_close(rnd=last, actor=organiser))[1:]

    # The reference from the same run: the round opened again and closed the way it was before
    # issue #35 (the standings computed twice, the totals written by bulk_update's CASE per
    # row), alternating with closes as it is now; medians of each, the event left closed.
    # A second reference: the carried totals computed again from every closed round's cards,
    # as the close did until the round's own cards were added (issue #35's seventh stop).
    now, before, whole = [close()], [], []
    for _ in range(REPEAT):
        services.round_reopen(rnd=last, actor=organiser, reason="bench")
        with _closing_as_before():
            before.append(close())
        services.round_reopen(rnd=last, actor=organiser, reason="bench")
        with _closing_whole():
            whole.append(close())
        services.round_reopen(rnd=last, actor=organiser, reason="bench")
        now.append(close())
    out["close a round"] = (statistics.median(c[0] for c in now), now[0][1])
    out["close a round, every closed round counted again (reference)"] = (
        statistics.median(c[0] for c in whole), whole[0][1])
    out["close a round, the way before #35 (reference)"] = (
        statistics.median(c[0] for c in before), before[0][1])
    return out


def measure(event) -> dict[str, tuple[float, int | None]]:
    from django.core.cache import caches
    from django.test import Client

    from config.celery import app as celery_app
    from tournaments import services
    from tournaments.models import Scorecard
    from tournaments.runtime.page_cache import forget_all
    from tournaments.services import round_jobs

    measure_call = Measure()
    out: dict[str, tuple[float, int | None]] = {}
    organiser, referee = event.organisers.first(), event.referees.first()

    def page(url):
        def once():
            caches["pages"].clear()
            forget_all()
            response, seconds, queries = measure_call(lambda: Client().get(url))
            assert response.status_code == 200, (url, response.status_code)
            return seconds, queries
        return once

    for url in (f"/e/{event.slug}/standings/", f"/e/{event.slug}/"):
        Client().get(url)  # loads the templates once, as a running server has
    out["public standings page, uncached"] = _median(page(f"/e/{event.slug}/standings/"))
    out["public event page, uncached"] = _median(page(f"/e/{event.slug}/"))

    def cached():
        Client().get(f"/e/{event.slug}/standings/")
        return measure_call(lambda: Client().get(f"/e/{event.slug}/standings/"))[1:]
    out["public standings page, cached"] = _median(cached)
    last = event.rounds.order_by("-number").first()
    out.update(_lists(event, last, measure_call))

    # From here on the background jobs a write queues (the ratings, the public PDFs) are
    # queued and not run, as in production where a worker runs them: the figures are the
    # request's own cost. (The embedded default would run them inside the request.)
    celery_app.conf.task_always_eager = False
    card = Scorecard.objects.select_related("table").get(table__round=last, table__number=1)
    record = _records(card, HANDS, seed=last.number * 10_000 + 1)[HANDS - 1]
    previous, since = _exported_now(event)
    _, seconds, queries = measure_call(lambda: _enter(card, HANDS, record, organiser))
    out["enter a hand"] = (seconds, queries)
    out.update(_export_since(event, previous, since))
    previous = None  # hundreds of megabytes at 1,024 players, not needed again
    card.refresh_from_db()
    services.scorecard_submit(scorecard=card, actor=organiser)
    services.scorecard_confirm(scorecard=card, actor=referee)

    out.update(_closes(last, organiser, measure_call))

    def seat_next():
        job = round_jobs.round_generation_queue(event=event, actor=organiser)
        return round_jobs.round_generate(job.pk)
    _, seconds, queries = measure_call(seat_next)
    out["seat the next round"] = (seconds, queries)

    card = Scorecard.objects.get(table__round=last, table__number=2)
    corrections = []
    for attempt in range(REPEAT):
        hand = card.hands.get(number=1)
        changed = dict(hand.record, points=(hand.record.get("points", 35) + 7 + attempt) % 70) \
            if "points" in hand.record else hand.record
        corrections.append(measure_call(lambda c=changed: _enter(
            card, 1, c, referee, reason="bench correction"))[1:])
    out["correct a hand in a closed round"] = (statistics.median(c[0] for c in corrections),
                                               corrections[-1][1])
    out.update(_archive(event))
    out["import_event (a copy of the event)"] = _import_copy(event)
    # Last: the one-by-one reference runs some 16,000 queries at 1,024 players, more than the
    # log that the other figures' query counts are read from keeps.
    out.update(_check_in(event))
    celery_app.conf.task_always_eager = True
    return out


def _check_in(event) -> dict[str, tuple[float, int | None]]:
    """The desk's "check in everybody registered", beside its reference from the same run:
    the same players checked in one by one (each row's button), as the bulk action did before.
    Every player made registered first; they are left checked in, as after the desk."""
    from tournaments.models import Registration
    from tournaments.services import checkin, registrations

    organiser = event.organisers.first()

    def one_by_one():
        for reg in event.registrations.filter(status=Registration.Status.REGISTERED):
            registrations.status_change(registration=reg, status=Registration.Status.CHECKED_IN,
                                        actor=organiser)
    event.registrations.update(status=Registration.Status.REGISTERED, checked_in_at=None)
    bulk = _counted(lambda: checkin.registrations_bulk_status(
        event=event, action="check_in_all", actor=organiser))
    event.registrations.update(status=Registration.Status.REGISTERED, checked_in_at=None)
    return {"check in everybody": bulk,
            "check in everybody one by one (reference)": _counted(one_by_one)}


def _archive(event) -> dict:
    """The export (`export_event`, medians), and the archive's size a hand, as a file and as
    the API sends it (gzip)."""
    from tournaments import archive
    from tournaments.models import Hand

    def exported():
        with archive.read_snapshot():
            return Measure()(lambda: archive.export_event(event))
    runs = [exported() for _ in range(REPEAT)]
    text = archive.dumps(runs[-1][0]).encode("utf-8")
    hands = Hand.objects.filter(scorecard__table__round__event=event).count()
    packed = gzip.compress(text, compresslevel=6)
    return {"export_event": (statistics.median(r[1] for r in runs), runs[-1][2]),
            "the archive a hand, file / gzip": f"{len(text) / hands:,.0f} B / {len(packed) / hands:,.0f} B"}


def _exported_now(event) -> tuple[dict, int]:
    """The event's archive and its version (the newest entry of its trail), as a venue
    laptop keeps them after a push the server acknowledged."""
    from tournaments import archive
    from tournaments.venue.client import state_version

    with archive.read_snapshot():
        return archive.export_event(event), state_version(event)


def _export_since(event, previous: dict, since_version: int) -> dict:
    """The archive made from `previous` after one hand was entered (`export_event_since`, what
    a venue's push exports), beside the whole export of the same state (its reference); the
    two must be the same document."""
    from tournaments import archive

    def timed(make):
        # Only the last run's document is kept: at 1,024 players one is hundreds of megabytes.
        seconds, doc = [], None
        for _ in range(REPEAT):
            doc = None
            with archive.read_snapshot():
                start = time.perf_counter()
                doc = make()
                seconds.append(time.perf_counter() - start)
        return statistics.median(seconds), doc
    since, since_doc = timed(lambda: archive.export_event_since(event, previous, since_version))
    assert since_doc is not None, "no export since: the whole archive would be exported"
    since_text, since_doc = archive.delta.canonical(since_doc), None
    whole, whole_doc = timed(lambda: archive.export_event(event))
    assert archive.delta.canonical(whole_doc) == since_text, "the export since differs from the whole"
    return {"export_event_since, one hand entered": (since, None),
            "export_event of the same (reference)": (whole, None)}


def _lists(event, last, measure_call) -> dict[str, tuple[float, int | None]]:
    """The seating list of the last round and the standings as PDFs."""
    from tournaments.printing import render, selectors

    out: dict[str, tuple[float, int | None]] = {}
    # The lists as a worker renders them (laid out in a child process), and beside them in
    # this process, as a request renders a small event's, with the collector's pass over the
    # laid-out boxes they leave counted in: made while it waited, they are all young, and its
    # next pass over the young objects (whatever runs next pays it) frees them.
    def seating(in_child):
        return render.seating_pdf(selectors.round_for_print(event, last.number),
                                  in_child_process=in_child)

    def in_process(build):
        return lambda: measure_call(lambda: (build(False), gc.collect(0)))[1:]
    out["seating-list PDF, a worker"] = _median(lambda: measure_call(lambda: seating(True))[1:])
    out["seating-list PDF in the process, collected (reference)"] = _median(in_process(seating))
    out["standings PDF, a worker"] = _median(lambda: measure_call(
        lambda: render.standings_pdf(event, in_child_process=True))[1:])
    out["standings PDF in the process, collected (reference)"] = _median(in_process(
        lambda in_child: render.standings_pdf(event, in_child_process=in_child)))
    out.update(_standings_anatomy(event))
    return out


def _standings_anatomy(event) -> dict[str, tuple[float, None]]:
    """Where the standings PDF's time goes: the list's markup laid out and written as it is,
    and the same markup with each player's cells joined into one cell of the same text. The
    first costs about a cell's worth of WeasyPrint work (a block, a line, a text of its own)
    for each of a row's cells; the second one for a row."""
    import re

    from tournaments.printing import base, render, selectors
    from tournaments.runtime import collector

    sheet = selectors.standings_sheet(event)
    context = {**render.base_context(event), "sheet": sheet,
               "columns": render.standings_columns(len(sheet.rounds), sheet.uses_points)}
    markup = base.html("pdf/standings.html", context, event.language)

    def one_cell(row):
        words = re.sub(r"<[^>]+>", " ", row.group(1)).split()
        return f'<tr><td colspan="99">{" ".join(words)}</td></tr>'
    head, body = markup.split("<tbody>", 1)
    body, tail = body.split("</tbody>", 1)
    joined = head + "<tbody>" + re.sub(r"<tr[^>]*>(.*?)</tr>", one_cell, body, flags=re.S) \
        + "</tbody>" + tail

    def laid_out(text):
        def once():
            start = time.perf_counter()
            with collector.paused():
                base.write([base.document(text)], "anatomy")
            gc.collect(0)
            return time.perf_counter() - start, None
        return once
    cells = len(re.findall(r"<td", body.split("</tr>", 1)[0]))
    return {f"standings PDF's layout, {cells} cells a player": _median(laid_out(markup)),
            "the same with one cell a player": _median(laid_out(joined))}


def _import_copy(event) -> tuple[float, int]:
    """Export the event and import it again under another slug (its players are matched to
    the registry's, so this times writing the event itself), counting every query (more
    than CaptureQueriesContext keeps)."""
    import json

    from tournaments import archive

    copy = f"{event.slug}-copy"
    # The slug names the event in the document and in its audit entries' targets.
    doc = json.loads(archive.dumps(archive.export_event(event)).replace(
        f'"slug": "{event.slug}"', f'"slug": "{copy}"'))
    return _counted(lambda: archive.import_event(doc, actor=None))


def _counted(fn) -> tuple[float, int]:
    """Wall-clock time and queries of `fn()`, counting every query (more than
    CaptureQueriesContext keeps)."""
    from django.db import connection

    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    start = time.perf_counter()
    with connection.execute_wrapper(count):
        fn()
    return time.perf_counter() - start, queries


@contextlib.contextmanager
def _database_copy(url: str):
    """A fresh copy of the PostgreSQL database `url` (CREATE DATABASE ... TEMPLATE, a copy of
    its files: seconds, where building the events takes minutes), dropped afterwards."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    parts = urlsplit(url)
    base = parts.path.lstrip("/")
    copy = f"{base}_run_{os.getpid()}"
    server = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{copy}" TEMPLATE "{base}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{copy}"))
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')


def _cell(value) -> str:
    if isinstance(value, str):
        return value
    seconds, queries = value
    return f"{seconds * 1000:,.0f} ms" + ("" if queries is None else f" ({queries} q)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("players", nargs="*", type=int, default=list(PLAYERS))
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--build-only", action="store_true",
                       help="build the events in BENCH_DATABASE_URL and print their TAG")
    group.add_argument("--reuse", metavar="TAG",
                       help="measure the events scale-<players>-<TAG> built by --build-only, "
                            "on a copy of BENCH_DATABASE_URL")
    args = parser.parse_args()
    base_url = os.environ.get("BENCH_DATABASE_URL", "")
    if (args.build_only or args.reuse) and not base_url.startswith(("postgres://", "postgresql://")):
        parser.error("--build-only and --reuse need BENCH_DATABASE_URL naming a PostgreSQL database")
    workdir = Path(tempfile.mkdtemp(dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None,
                                    prefix="tarok-bench-scale-"))
    try:
        with _database_copy(base_url) if args.reuse else contextlib.nullcontext() as url:
            return _run(args, workdir, url)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _run(args, workdir: Path, url: str | None) -> int:
    _setup(workdir, url)
    from django.db import connection

    from tournaments.models import Event

    sizes = tuple(args.players)
    tag = args.reuse or str(int(time.time()))
    print(f"database: {connection.vendor}; {ROUNDS} rounds of {HANDS} hands per table; "
          f"medians of {REPEAT} runs where repeatable", flush=True)
    results = {}
    for players in sizes:
        event = Event.objects.filter(slug=f"scale-{players}-{tag}").first() if args.reuse else None
        if event is None:
            if args.reuse:
                print(f"no event scale-{players}-{tag} in the database", file=sys.stderr)
                return 2
            start = time.perf_counter()
            event = build(players, tag)
            print(f"built {players} players in {time.perf_counter() - start:.0f} s", flush=True)
        if args.build_only:
            continue
        results[players] = measure(event)
        for name, value in results[players].items():
            print(f"  {name}: {_cell(value)}", flush=True)
    if args.build_only:
        print(f"built with TAG {tag}: measure with --reuse {tag}")
        return 0
    names = list(next(iter(results.values())))
    print("\n| operation | " + " | ".join(f"{p:,}" for p in sizes) + " |")
    print("| --- |" + " --- |" * len(sizes))
    for name in names:
        print(f"| {name} | " + " | ".join(_cell(results[p][name]) for p in sizes) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
