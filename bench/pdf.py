"""Benchmark of the printouts: seconds to render all table sheets of a 64-table round (256
players) into one PDF, for each kind of sheet - the Slovenian TRI+1 sheet, the Austrian
Schrift and the Czech money sheet. Target: under 10 s each on one core.

Run from the repository root as `python bench/pdf.py`; `python bench/pdf.py lists [players ...]`
times the seating list and the standings list of events of 64, 256 and 1,024 players instead
(target: the same time per table at every size). It builds the three events in a
throwaway SQLite database with the builders the tests use too (sample_data/printouts.py), then times
`tournaments.printing.render.round_sheets_pdf`: the reads of the selectors, the QR codes,
the templates and WeasyPrint, exactly what the Celery task does apart from writing the file.

It prints the wall-clock time (the target) and the CPU time of this process: on a machine
busy with other work the wall clock grows while the CPU time says what the rendering costs.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder would come first on sys.path, where bench/http.py
# hides the standard library's `http` package that Django needs.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
TABLES = 64
TARGET_SECONDS = 10.0


def _scratch() -> str | None:
    # A RAM disk when there is one: building the data commits thousands of small
    # transactions, which on a real disk spend most of their time in fsync.
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def _setup(workdir: Path) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
    os.environ["MEDIA_ROOT"] = str(workdir / "media")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


LIST_PLAYERS = (64, 256, 1024)


def lists(sizes: tuple[int, ...]) -> int:
    """Time the seating list and the standings list of events of `sizes` players (tables of
    four): the time per table should stay the same from the smallest to the largest."""
    workdir = Path(tempfile.mkdtemp(dir=_scratch(), prefix="tarok-bench-lists-"))
    try:
        _setup(workdir)
        from pypdf import PdfReader

        from sample_data import printouts
        from tournaments.printing import render, selectors

        for players in sizes:
            tables = players // 4
            event = printouts.slovenian_event(slug=f"bench-list-{players}", tables=tables)
            printouts.seat(event, 1)
            for name, build in (
                    ("seating list", lambda e=event: render.seating_pdf(selectors.round_for_print(e, 1))),
                    ("standings", lambda e=event: render.standings_pdf(e))):
                start, cpu = time.perf_counter(), time.process_time()
                pdf = build()
                seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
                pages = len(PdfReader(io.BytesIO(pdf)).pages)
                print(f"{name}, {players} players: {pages} pages in {seconds:.2f} s "
                      f"({seconds / tables * 1000:.1f} ms per table; CPU {cpu:.2f} s)", flush=True)
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> int:
    if sys.argv[1:2] == ["lists"]:
        return lists(tuple(int(n) for n in sys.argv[2:]) or LIST_PLAYERS)
    workdir = Path(tempfile.mkdtemp(dir=_scratch(), prefix="tarok-bench-pdf-"))
    try:
        _setup(workdir)
        from pypdf import PdfReader

        from sample_data import printouts
        from tournaments.printing import render, selectors

        events = {
            "TRI+1": printouts.slovenian_event(slug="bench-tri1", tables=TABLES),
            "Schrift, 20 games": printouts.austrian_event(slug="bench-schrift", tables=TABLES,
                                                         hands=20),
            "money sheet": printouts.czech_event(slug="bench-money", tables=TABLES),
        }
        worst = 0.0
        for sheet, event in events.items():
            label = f"{sheet} ({event.ruleset_code})"
            printouts.seat(event, 1)
            start, cpu = time.perf_counter(), time.process_time()
            rnd = selectors.round_for_print(event, 1)
            pdf = render.round_sheets_pdf(rnd, "https://tarok.example.org")
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            pages = len(PdfReader(io.BytesIO(pdf)).pages)
            worst = max(worst, seconds)
            print(f"{label}: {TABLES} tables, {pages} pages, {len(pdf) / 1024:.0f} KiB "
                  f"in {seconds:.2f} s ({seconds / TABLES * 1000:.0f} ms per table; "
                  f"CPU {cpu:.2f} s)")
        verdict = "OK" if worst < TARGET_SECONDS else "TOO SLOW"
        print(f"slowest: {worst:.2f} s for {TABLES} tables (target < {TARGET_SECONDS:.0f} s): "
              f"{verdict}")
        return 0 if worst < TARGET_SECONDS else 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
