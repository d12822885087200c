"""Benchmark of the public seating-list PDF as a visitor gets it (issue #18): the time from
the request to the whole answer, through the whole middleware stack (Django's test client,
in process: the answer is not streamed, so this is its time to the first byte as well).

It builds a TRI+1 event of PLAYERS players (256 unless given) with round 1 seated, publishes
the round (timed: with the embedded eager queue the publication renders the seating list of
a large event), then times the first request for `/e/<slug>/rounds/1/seating.pdf` and a
second one. With `tournaments.printing.public_pdfs` present it then empties the cache and,
with a queue that takes the job but does not run it (a broker whose worker is busy), times
the request that answers 202 with the progress.

Run from the repository root: `python bench/pdf_request.py [players]`; SQLite in a RAM folder.
Run it on an older checkout to get the figures before the change.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder would come first on sys.path, where bench/http.py
# hides the standard library's `http` package that Django needs.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]


def _timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, (time.perf_counter() - start) * 1000


def main() -> int:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    scratch = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    workdir = Path(tempfile.mkdtemp(dir=scratch, prefix="tarok-bench-pdf-request-"))
    try:
        os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
        os.environ["MEDIA_ROOT"] = str(workdir / "media")
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        os.environ.pop("CELERY_BROKER_URL", None)
        import django

        django.setup()
        from django.core.cache import caches
        from django.core.management import call_command
        from django.test import Client

        from sample_data import printouts
        from tournaments import services

        call_command("migrate", verbosity=0)
        call_command("createcachetable", verbosity=0)
        event = printouts.slovenian_event(slug="pdf-request", tables=players // 4)
        rnd = printouts.seat(event, 1)
        url = "/e/pdf-request/rounds/1/seating.pdf"
        Client().get("/e/pdf-request/")  # loads the templates once, as a running server has
        _, publish = _timed(lambda: services.round_publish(rnd=rnd, actor=event.organisers.first()))
        first, first_ms = _timed(lambda: Client().get(url))
        second, second_ms = _timed(lambda: Client().get(url))
        print(f"{players} players ({players // 4} tables)")
        print(f"  publish the round: {publish:,.0f} ms")
        print(f"  first request: {first_ms:,.0f} ms (HTTP {first.status_code})")
        print(f"  second request: {second_ms:,.0f} ms (HTTP {second.status_code})")
        try:
            from tournaments import tasks
        except ImportError:
            return 0
        if not hasattr(tasks, "render_public_pdf"):
            return 0
        from config.celery import app

        caches["default"].clear()
        app.conf.task_always_eager = False
        tasks.render_public_pdf.apply_async = lambda *args, **kwargs: None
        waiting, waiting_ms = _timed(lambda: Client().get(url))
        print(f"  a version not rendered yet, busy worker: {waiting_ms:,.0f} ms "
              f"(HTTP {waiting.status_code})")
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
