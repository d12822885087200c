"""Benchmark of a whole round's table sheets rendered by real Celery workers (issue #18): the
time from asking for the sheets to the stored PDF, with one worker rendering the round in one
task, one worker rendering it in parts, and two workers sharing the parts
(tournaments.printing.services; PDF_SHEETS_PART_TABLES). Target: a 1,024-player round (256
tables) under 12 s with one worker and under 7 s with two.

It needs PostgreSQL (BENCH_DATABASE_URL, whose tables it migrates and fills) and Redis
(BENCH_BROKER_URL, default redis://127.0.0.1:6379/12); without them it says so in one line and
stops. It builds a TRI+1 event with the builders the tests use too
(sample_data/printouts.py),
starts the workers (`celery worker --pool=solo`, one process each, on a queue of its own), asks
for the sheets through `round_sheets_queue` as the organiser's page does, and polls the job
until it is done. Workers, queue and files are removed at the end.

Run from the repository root: `python -P bench/sheets_workers.py [tables]` (default 256).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

TABLES = 256
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/12")
RUNS = (("one worker, the round in one task", 1, 0),
        ("one worker, parts of 64 tables", 1, 64),
        ("two workers, parts of 64 tables", 2, 64))


def _redis_answers(url: str) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), 1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _start_worker(queue: str, media: Path, part_tables: int, log: Path) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=os.environ["DATABASE_URL"], CELERY_BROKER_URL=BROKER,
               MEDIA_ROOT=str(media), PDF_SHEETS_PART_TABLES=str(part_tables))
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
         "--hostname", f"{log.stem}@%h", "--without-gossip", "--without-mingle",
         "--without-heartbeat", "--loglevel=INFO"],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)


def _wait(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


def main() -> int:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else TABLES
    database = os.environ.get("BENCH_DATABASE_URL", "")
    if not database.startswith("postgres"):
        print("bench/sheets_workers.py: skipped, it needs PostgreSQL in BENCH_DATABASE_URL "
              "(workers in other processes share the database)")
        return 0
    if not _redis_answers(BROKER):
        print(f"bench/sheets_workers.py: skipped, no Redis answers at {BROKER}")
        return 0
    workdir = Path(tempfile.mkdtemp(prefix="tarok-bench-workers-"))
    media = workdir / "media"
    os.environ.update(DATABASE_URL=database, MEDIA_ROOT=str(media), CELERY_BROKER_URL=BROKER,
                      DJANGO_SETTINGS_MODULE="config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db.utils import OperationalError

    from config.celery import app
    from sample_data import printouts
    from tournaments.models import Job
    from tournaments.printing import services as printing

    try:
        call_command("migrate", verbosity=0)
    except OperationalError as exc:
        print(f"bench/sheets_workers.py: skipped, the database in BENCH_DATABASE_URL does not "
              f"answer ({str(exc).strip().splitlines()[-1]})")
        return 0
    queue = f"bench-sheets-{uuid.uuid4().hex[:8]}"
    app.conf.task_default_queue = queue
    slug = f"bench-workers-{uuid.uuid4().hex[:6]}"
    print(f"building {tables} tables ({tables * 4} players)...", flush=True)
    event = printouts.slovenian_event(slug=slug, tables=tables)
    rnd = printouts.seat(event, 1)
    # What the building queued (the public PDFs of a large event) is not this benchmark's.
    app.control.purge()
    workers: list[subprocess.Popen] = []
    try:
        for label, count, part_tables in RUNS:
            Job.objects.filter(key=printing.job_key(rnd)).delete()
            shutil.rmtree(media / "sheets", ignore_errors=True)
            logs = [workdir / f"w{n}-{part_tables}.log" for n in range(count)]
            workers = [_start_worker(queue, media, part_tables, log) for log in logs]
            for log in logs:
                _wait(lambda log=log: " ready." in log.read_text(), 60, "a worker to start")
            start = time.perf_counter()
            job = printing.round_sheets_queue(rnd=rnd, actor=None, base_url="https://bench.example.org")
            done = _wait(lambda job=job: (j := Job.objects.get(pk=job.pk)).status in ("done", "failed") and j,
                         600, "the sheets")
            seconds = time.perf_counter() - start
            for worker in workers:
                worker.terminate()
                worker.wait(timeout=30)
            workers = []
            if done.status != "done":
                print(f"{label}: FAILED: {done.message}")
                return 1
            size = (media / done.result["file"]).stat().st_size
            print(f"{label}: {tables} tables in {seconds:.2f} s "
                  f"({seconds / tables * 1000:.0f} ms per table, {size / 1024:.0f} KiB)", flush=True)
        return 0
    finally:
        for worker in workers:
            worker.kill()
        app.control.purge()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
