"""Regenerates the PNG examples of the printouts in this folder (see docs/printing.md).

Run from the repository root: `.venv/bin/python docs/printing/examples.py`. It builds a Czech,
an Austrian and a Slovenian event in a throwaway SQLite database with the same builders the
tests use (sample_data/printouts.py), renders each printout with tournaments.printing.render,
and turns page 1 into a PNG with pypdfium2. The PDFs are kept next to the
PNGs only with --pdf.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
BASE_URL = "https://tarok.example.org"
DPI = 110


def _scratch() -> str | None:
    # A RAM disk when there is one: building the data commits thousands of small
    # transactions, which on a real disk spend most of their time in fsync.
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def _setup(workdir: Path) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'examples.sqlite3'}"
    os.environ["MEDIA_ROOT"] = str(workdir / "media")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _png(pdf: bytes, name: str, workdir: Path, keep_pdf: bool) -> Path:
    pdf_path = workdir / f"{name}.pdf"
    pdf_path.write_bytes(pdf)
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    document[0].render(scale=DPI / 72).to_pil().save(OUT / f"{name}.png")
    document.close()
    if keep_pdf:
        shutil.copy(pdf_path, OUT / f"{name}.pdf")
    return OUT / f"{name}.png"


def main(keep_pdf: bool = False) -> None:
    workdir = Path(tempfile.mkdtemp(dir=_scratch(), prefix="tarok-print-"))
    try:
        _setup(workdir)
        from sample_data import printouts
        from tournaments import services
        from tournaments.models import Event
        from tournaments.printing import render, selectors
        from tournaments.services import round_jobs

        czech = printouts.czech_event()
        czech_round = printouts.czech_round_two(czech)
        made = [_png(render.table_sheet_pdf(czech_round, 4, BASE_URL), "czech-money-sheet",
                     workdir, keep_pdf)]

        slovenian = printouts.slovenian_event(tables=6)
        organiser = slovenian.organisers.first()
        for number in range(1, slovenian.planned_rounds + 1):
            if number == 1:
                rnd = printouts.seat(slovenian, 1)
            else:
                # Later rounds are seated by the points system, as an organiser does it.
                job = round_jobs.round_generation_queue(event=slovenian, actor=organiser)
                round_jobs.round_generate(job.pk)
                rnd = slovenian.rounds.get(number=number)
            if number == slovenian.planned_rounds:
                # The last round's sheet of table 2 and its wall list, before it is played.
                made.append(_png(render.table_sheet_pdf(selectors.round_for_print(
                    slovenian, number), 2, BASE_URL), "tri1-sheet", workdir, keep_pdf))
                made.append(_png(render.seating_pdf(selectors.round_for_print(
                    slovenian, number)), "seating-list", workdir, keep_pdf))
            services.round_publish(rnd=rnd, actor=organiser)
            for table in rnd.tables.all():
                printouts.play_tri1_table(table, seed=number * 100 + table.number)
            round_jobs.round_close(rnd=rnd, actor=organiser)
        services.event_update(event=slovenian, actor=organiser, status=Event.Status.FINISHED)
        made.append(_png(render.standings_pdf(slovenian), "standings", workdir, keep_pdf))

        austrian = printouts.austrian_event()
        at1 = printouts.seat(austrian, 1)
        made.append(_png(render.table_sheet_pdf(at1, 2, BASE_URL), "schrift-sheet", workdir,
                         keep_pdf))
        printouts.play_schrift_table(at1.tables.get(number=2))
        card = selectors.filled_scorecard(austrian, 1, 2, BASE_URL)
        made.append(_png(render.scorecard_pdf(card), "filled-scorecard", workdir, keep_pdf))
        for path in made:
            print(path.relative_to(ROOT))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main(keep_pdf="--pdf" in sys.argv)
