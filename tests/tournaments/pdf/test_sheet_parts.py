"""A round's table sheets rendered in parts by several workers (tournaments.printing.services):
the job publishes one task per part, each part is stored, the last one stored joins them in
table order, once; a part stored already is kept when the job runs again. The parts run here
in the test's process, in the order a queue might run them; tests/tournaments/jobs/test_faults.py
runs them on real workers."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from sample_data import printouts
from tests.tournaments.pdf.pdftext import page_texts, reader
from tournaments import services
from tournaments.models import Job
from tournaments.printing import SHEETS_PART_TASK, render, selectors
from tournaments.printing import services as printing
from tournaments.runtime import jobs

pytestmark = [pytest.mark.django_db]

BASE = "https://parts.example.org"


@pytest.fixture
def queue(monkeypatch, settings):
    """A task queue that is not the request (so rounds are cut in parts of two tables) and
    that keeps the published parts for the test to run."""
    settings.PDF_SHEETS_PART_TABLES = 2
    published = []
    monkeypatch.setattr(jobs, "runs_eagerly", lambda: False)
    monkeypatch.setattr(jobs, "publish_now", lambda kind, *args: published.append((kind, *args)))
    # The same minute on every page, however long the test takes.
    monkeypatch.setattr(render, "_printed_at", lambda event: "2026-11-24 10:00")
    return published


@pytest.fixture
def rendered(monkeypatch):
    """The table numbers each rendering call was given."""
    calls = []
    original = render.round_sheets_pdf

    def counting(rnd, base_url, *, part=None, **options):
        calls.append([t.number for t in list(rnd.tables.all())[part or slice(None)]])
        return original(rnd, base_url, part=part, **options)

    monkeypatch.setattr(render, "round_sheets_pdf", counting)
    return calls


def _round_of_five_tables():
    event = printouts.slovenian_event(slug="parts", tables=5)
    return event, printouts.seat(event, 1)


def _queued_job(rnd, django_capture_on_commit_callbacks) -> Job:
    with django_capture_on_commit_callbacks(execute=False):
        return printing.round_sheets_queue(rnd=rnd, actor=None, base_url=BASE)


def _stored_files() -> list[str]:
    return sorted(p.name for p in Path(settings.MEDIA_ROOT, "sheets").glob("*.pdf"))


def test_a_round_is_cut_in_parts_that_are_joined_in_table_order_by_the_last_stored(
        queue, rendered, django_capture_on_commit_callbacks):
    event, rnd = _round_of_five_tables()
    job = _queued_job(rnd, django_capture_on_commit_callbacks)

    running = printing.round_sheets_render(job.pk)
    assert queue == [(SHEETS_PART_TASK, job.pk, 0), (SHEETS_PART_TASK, job.pk, 1),
                     (SHEETS_PART_TASK, job.pk, 2)]
    assert running.status == Job.Status.RUNNING and running.total == 5
    assert running.result["parts"] == 3 and running.result["part_tables"] == 2
    assert rendered == []  # the job itself renders nothing

    # The parts finish in any order; the count follows the tables stored.
    assert printing.round_sheets_render_part(job.pk, 2).progress == 1
    assert printing.round_sheets_render_part(job.pk, 0).progress == 3
    assert printing.current_sheets_file(rnd) is None
    done = printing.round_sheets_render_part(job.pk, 1)
    assert done.status == Job.Status.DONE and done.progress == done.total == 5
    assert rendered == [[5], [1, 2], [3, 4]]
    # One file, the parts gone.
    assert _stored_files() == [f"round-{rnd.pk}-v{rnd.seating_version}.pdf"]

    joined = printing.current_sheets_file(rnd).read_bytes()
    whole = render.round_sheets_pdf(selectors.round_for_print(event, 1), BASE)
    assert page_texts(joined) == page_texts(whole)
    assert reader(joined).metadata.title == f"{event.name} – 1"


def test_a_part_run_twice_is_rendered_once_and_the_join_happens_once(
        queue, rendered, django_capture_on_commit_callbacks):
    _, rnd = _round_of_five_tables()
    job = _queued_job(rnd, django_capture_on_commit_callbacks)
    printing.round_sheets_render(job.pk)
    for part in (0, 0, 1, 2):
        printing.round_sheets_render_part(job.pk, part)
    stored = printing.current_sheets_file(rnd)
    first = stored.read_bytes(), stored.stat().st_mtime_ns
    # A message delivered again after the join: nothing is rendered or written again.
    again = printing.round_sheets_render_part(job.pk, 1)
    assert again.status == Job.Status.DONE
    assert rendered == [[1, 2], [3, 4], [5]]
    assert (stored.read_bytes(), stored.stat().st_mtime_ns) == first


def test_a_failed_part_fails_the_job_and_the_retry_keeps_the_parts_stored(
        queue, rendered, monkeypatch, django_capture_on_commit_callbacks):
    _, rnd = _round_of_five_tables()
    job = _queued_job(rnd, django_capture_on_commit_callbacks)
    printing.round_sheets_render(job.pk)
    printing.round_sheets_render_part(job.pk, 0)

    counting = render.round_sheets_pdf

    def broken(rnd, base_url, *, part=None, **options):
        if part == slice(2, 4):
            raise RuntimeError("printer on fire")
        return counting(rnd, base_url, part=part, **options)

    monkeypatch.setattr(render, "round_sheets_pdf", broken)
    with pytest.raises(RuntimeError):
        printing.round_sheets_render_part(job.pk, 1)
    failed = Job.objects.get(pk=job.pk)
    assert failed.status == Job.Status.FAILED and "printer on fire" in failed.message
    # The third part, still in the queue, does nothing for a failed job.
    assert printing.round_sheets_render_part(job.pk, 2).status == Job.Status.FAILED
    monkeypatch.setattr(render, "round_sheets_pdf", counting)

    # The next request queues the job again; the part stored before the failure is kept.
    again = _queued_job(rnd, django_capture_on_commit_callbacks)
    assert again.pk == job.pk and again.status == Job.Status.QUEUED
    queue.clear()
    printing.round_sheets_render(job.pk)
    for _, _, part in queue:
        printing.round_sheets_render_part(job.pk, part)
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE
    assert rendered == [[1, 2], [3, 4], [5]]
    assert len(reader(printing.current_sheets_file(rnd).read_bytes()).pages) == 5


def test_a_part_of_a_seating_changed_since_fails_the_job_and_stores_nothing(
        queue, rendered, django_capture_on_commit_callbacks):
    event, rnd = _round_of_five_tables()
    job = _queued_job(rnd, django_capture_on_commit_callbacks)
    printing.round_sheets_render(job.pk)
    printing.round_sheets_render_part(job.pk, 0)
    services.round_swap_players(rnd=rnd, first="1", second="5", actor=event.organisers.first())
    stale = printing.round_sheets_render_part(job.pk, 1)
    assert stale.status == Job.Status.FAILED and "seating changed" in stale.message
    assert rendered == [[1, 2]]
    assert printing.current_sheets_file(rnd) is None


def test_without_a_task_queue_a_round_is_rendered_in_one_go(
        settings, rendered, django_capture_on_commit_callbacks):
    settings.PDF_SHEETS_PART_TABLES = 2
    _, rnd = _round_of_five_tables()
    job = _queued_job(rnd, django_capture_on_commit_callbacks)
    done = printing.round_sheets_render(job.pk)
    assert done.status == Job.Status.DONE and done.progress == 5
    assert rendered == [[1, 2, 3, 4, 5]]


def test_a_round_no_larger_than_a_part_is_rendered_in_one_go_by_a_queue(
        queue, rendered, settings, django_capture_on_commit_callbacks):
    settings.PDF_SHEETS_PART_TABLES = 5
    _, rnd = _round_of_five_tables()
    job = _queued_job(rnd, django_capture_on_commit_callbacks)
    assert printing.round_sheets_render(job.pk).status == Job.Status.DONE
    assert queue == [] and rendered == [[1, 2, 3, 4, 5]]


def test_a_part_counts_its_sheets_into_the_progress_as_each_batch_is_laid_out(
        queue, monkeypatch, settings, django_capture_on_commit_callbacks):
    settings.PDF_SHEETS_PART_TABLES = 4
    monkeypatch.setattr(render, "SHEETS_PER_DOCUMENT", 2)
    event, rnd = _round_of_five_tables()
    job = _queued_job(rnd, django_capture_on_commit_callbacks)
    printing.round_sheets_render(job.pk)
    seen = []
    original = render.round_sheets_pdf

    def watching(rnd, base_url, *, part=None, progress=None, **options):
        def told(laid_out):
            progress(laid_out)
            seen.append(Job.objects.get(pk=job.pk).progress)
        return original(rnd, base_url, part=part, progress=told, **options)

    monkeypatch.setattr(render, "round_sheets_pdf", watching)
    printing.round_sheets_render_part(job.pk, 0)
    assert seen == [2, 4]  # two batches of two sheets, each counted whole
    printing.round_sheets_render_part(job.pk, 1)
    assert seen == [2, 4, 5]
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE
