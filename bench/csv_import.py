"""Benchmark of the CSV imports at their row limit (issue #29): a file of CSV_IMPORT_MAX_ROWS
(5,000) new players posted to an event's players import page, and the same number of players
posted to a league season's division import page, each as the organiser's browser posts it
(the whole request: the upload, the checks, the writes and their audit rows).

Each run uses a scratch database (SQLite in a temporary folder unless BENCH_DATABASE_URL
names a PostgreSQL database, whose tables it migrates and fills) and new slugs, so it can be
run again on the same database. It prints the time and the query count of each import beside
the reference: the import must fit in one web request, a few seconds on PostgreSQL on a
2-core machine (docs/performance.md).

Run from the repository root: `python -P bench/csv_import.py [rows]` (or `make bench`).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder would come first on sys.path, where bench/http.py
# hides the standard library's `http` package that Django needs.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

REFERENCE_SECONDS = 5.0
COUNTRIES = ("SI", "Slovenija", "AT", "Österreich", "CZ", "Czechia", "DE", "")


def _setup(workdir: Path) -> None:
    os.environ["DATABASE_URL"] = os.environ.get(
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


def csv_text(rows: int, tag: str, extra_header: str = "", extra: str = "") -> str:
    """`rows` players none of whom is in the registry yet; every third with a federation id."""
    lines = [f"first_name,last_name,club,country,federation_id{extra_header}"]
    for i in range(rows):
        fed = f"B{tag}-{i}" if i % 3 == 0 else ""
        lines.append(f"Player{i},Bench{tag}{i},TK Club {i % 40},{COUNTRIES[i % len(COUNTRIES)]},"
                     f"{fed}{extra}")
    return "\n".join(lines) + "\n"


def _post(client, url: str, text: str) -> tuple[int, float, int]:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.db import connection

    queries = 0

    def count(execute, sql, params, many, context):
        # Django's own query log keeps only the last 9,000; the slow import made more.
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    upload = SimpleUploadedFile("players.csv", text.encode(), content_type="text/csv")
    with connection.execute_wrapper(count):
        start = time.perf_counter()
        response = client.post(url, {"file": upload})
        seconds = time.perf_counter() - start
    return response.status_code, seconds, queries


def main(rows: int) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="bench-csv-"))
    try:
        _setup(workdir)
        import datetime as dt

        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.test import Client

        from config.celery import app as celery_app
        from leagues import services as league_services
        from tournaments import services

        # The background jobs an import queues (the public PDFs) are queued, not run, as in
        # production where a worker runs them: the figures are the request's own cost.
        celery_app.conf.task_always_eager = False
        tag = uuid.uuid4().hex[:6]
        organiser = get_user_model().objects.create(username=f"bench-{tag}", is_staff=True)
        event = services.event_create(
            actor=organiser, name=f"CSV bench {tag}", slug=f"csv-{tag}",
            starts_on=dt.date(2026, 11, 21), ends_on=dt.date(2026, 11, 21),
            ruleset_code="tarok-net-2007", ruleset_mode="tri+1", seating_system="points",
            planned_rounds=3, hands_per_round=16)
        league = league_services.league_create(
            actor=organiser, organisers=[organiser], name=f"CSV league {tag}", slug=f"csv-{tag}",
            division_count=1, division_size=32, movement_count=1, qualification_group=True)
        season = league_services.season_create(league=league, actor=organiser, name="2026",
                                                slug="2026")
        client = Client()
        client.force_login(organiser)
        print(f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, "
              f"{rows} rows, reference {REFERENCE_SECONDS:.0f} s per import")
        failed = False
        cases = [
            ("event players import", f"/manage/e/{event.slug}/players/import/",
             csv_text(rows, f"e{tag}")),
            # The qualification group has no size limit, so every row fits into it.
            ("league division import", f"/manage/leagues/{league.slug}/{season.slug}/players/import/",
             csv_text(rows, f"l{tag}", ",division", ",Qualification group")),
        ]
        for label, url, text in cases:
            status, seconds, queries = _post(client, url, text)
            ok = status == 302 and seconds <= REFERENCE_SECONDS
            failed |= not ok
            print(f"  {label}: {seconds:6.2f} s, {queries} queries, status {status} "
                  f"({'OK' if ok else 'over the reference' if status == 302 else 'refused'})")
        return 1 if failed else 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000))
