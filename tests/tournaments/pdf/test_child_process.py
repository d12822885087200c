"""The child process that lays a round's sheets out for a worker
(tournaments.printing.child_process): the PDF and each progress come back to the worker, an
error in the child is raised in the worker with its text, a child that dies is reported, the
child cannot use the database it shares with the worker, and a worker of a task queue lays a
round's sheets and the public lists out there."""

from __future__ import annotations

import os

import pytest
from django.core.cache import caches
from django.db import connection

from sample_data import printouts
from tests.tournaments.pdf.pdftext import page_texts
from tournaments.models import Event, Job
from tournaments.printing import child_process, pdf_cache, public_pdfs
from tournaments.printing import services as printing
from tournaments.runtime import jobs

pytestmark = pytest.mark.skipif(not child_process.available(),
                                reason="needs os.fork (the workers' child process)")


def test_the_pdf_and_every_progress_come_back_from_the_child():
    told = []

    def build(progress):
        progress(16)
        progress(20)
        # Made in the child: the parent's pid differs from the child's.
        return b"%PDF-1.7 from " + str(os.getpid()).encode() + b" " + b"x" * 200_000

    pdf = child_process.run(build, told.append)
    assert told == [16, 20]
    assert pdf.startswith(b"%PDF-1.7 from ") and len(pdf) > 200_000
    assert int(pdf.split()[2]) != os.getpid()


def test_an_error_in_the_child_is_raised_in_the_worker_with_its_text():
    def build(progress):
        progress(1)
        raise ValueError("no tables to print")

    told = []
    with pytest.raises(child_process.ChildRenderingFailed, match="ValueError: no tables to print"):
        child_process.run(build, told.append)
    assert told == [1]


def test_a_child_that_dies_without_a_pdf_is_reported():
    with pytest.raises(child_process.ChildRenderingFailed,
                       match=r"ended without a PDF \(status 3\)"):
        child_process.run(lambda progress: os._exit(3))


@pytest.mark.django_db
def test_the_child_cannot_use_the_database_and_the_worker_still_can():
    printouts.slovenian_event(slug="child-db", tables=1)

    def build(progress):
        return Event.objects.get(slug="child-db").name.encode()

    with pytest.raises(child_process.ChildRenderingFailed, match="does not use the database"):
        child_process.run(build)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert Event.objects.filter(slug="child-db").exists()


@pytest.mark.django_db
def test_a_worker_lays_a_rounds_sheets_out_in_a_child_the_request_does_not(
        monkeypatch, settings, django_capture_on_commit_callbacks):
    event = printouts.slovenian_event(slug="child-sheets", tables=3)
    rnd = printouts.seat(event, 1)
    forked = []
    original = child_process.run
    monkeypatch.setattr(child_process, "run",
                        lambda build, progress=None: forked.append(1) or original(build, progress))
    # Without a broker the request's own process renders the sheets.
    assert not child_process.wanted()
    # A worker of a task queue (rounds of 3 tables stay in one part).
    monkeypatch.setattr(jobs, "runs_eagerly", lambda: False)
    monkeypatch.setattr(jobs, "queue", lambda job: None)
    assert child_process.wanted()
    with django_capture_on_commit_callbacks(execute=True):
        job = printing.round_sheets_queue(rnd=rnd, actor=None, base_url="https://w.example.org")
    done = printing.round_sheets_render(job.pk)
    assert forked == [1]
    assert (done.status, done.progress, done.total) == ("done", 3, 3)
    pdf = printing.current_sheets_file(rnd).read_bytes()
    assert [f"Miza {n}" in text for n, text in enumerate(page_texts(pdf), start=1)] == [True] * 3
    settings.PDF_SHEETS_CHILD_PROCESS = False
    assert not child_process.wanted()


@pytest.mark.django_db
def test_a_worker_lays_the_public_lists_out_in_a_child_the_request_does_not(
        monkeypatch, settings, django_capture_on_commit_callbacks):
    settings.PUBLIC_PDF_QUIET_SECONDS = 0
    event = printouts.slovenian_event(slug="child-lists", tables=3)
    printouts.seat(event, 1)
    event.refresh_from_db()  # the versions the seating moved
    forked = []
    original = child_process.run
    monkeypatch.setattr(child_process, "run",
                        lambda build, progress=None: forked.append(1) or original(build, progress))
    # A request renders a small event's list in its own process, without a broker and with
    # one (a request's process may run threads, which a fork would copy mid-work).
    standings = public_pdfs.standings_of(event)
    assert public_pdfs.render_inline(standings)
    monkeypatch.setattr(jobs, "runs_eagerly", lambda: False)
    monkeypatch.setattr(jobs, "queue", lambda job: None)
    monkeypatch.setattr(jobs, "publish_now", lambda *args, **kwargs: None)
    caches["default"].delete(pdf_cache.pdf_key(standings.kind, standings.parts, standings.language))
    assert public_pdfs.render_inline(standings)
    assert forked == []
    # A worker of a task queue.
    rnd = event.rounds.get(number=1)
    for pdf in (public_pdfs.seating_of(event, rnd), public_pdfs.standings_of(event)):
        caches["default"].delete(pdf_cache.pdf_key(pdf.kind, pdf.parts, pdf.language))
        with django_capture_on_commit_callbacks(execute=True):
            job = public_pdfs.public_pdf_queue(pdf=pdf)
        assert public_pdfs.public_pdf_render(job.pk).status == Job.Status.DONE
    assert forked == [1, 1]
    seating = " ".join(page_texts(public_pdfs.cached(public_pdfs.seating_of(event, rnd))))
    standings = " ".join(page_texts(public_pdfs.cached(public_pdfs.standings_of(event))))
    assert "Miza 3" in seating and "Novak" in seating and "Novak" in standings
