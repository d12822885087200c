"""Rendering a whole round's table sheets in the background, and keeping the result.

A round's sheets are one PDF stored under MEDIA_ROOT as `sheets/round-<id>-v<version>.pdf`,
keyed by the round and its `seating_version`: every change of the seating bumps the version,
so a stored file is current exactly when its name carries the round's present version, and
a new seating gets a new file (the older ones are deleted once the new one is written).

The work is a Job with the unique key `render_sheets:<round id>:<seating version>`: asking
twice (a double click, two organisers) finds the same job, its progress counts the tables
rendered, and the Celery task `tournaments.tasks.render_round_sheets` runs it. Running it
again after a lost worker renders the same file again, written atomically, so it is safe.

A round of more than `PDF_SHEETS_PART_TABLES` tables is rendered in parts when a task queue
runs the jobs: the job's task publishes one task per part (`render_round_sheets_part`), so
that every free worker process takes one; each part is stored as
`round-<id>-v<version>.part-<n>.pdf`, and the part that finds all the others stored joins them
(pypdf) into the round's file, under a lock on the job so it happens once. A part already
stored for the same version is not rendered again when the job is retried. Without a queue
(the embedded default runs tasks in the request) the round is rendered in one go.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Least
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import ServiceError
from tournaments.models import Job, Round
from tournaments.printing import SHEETS_JOB, SHEETS_PART_TASK, child_process, selectors
from tournaments.runtime import jobs

RENDER_JOB = SHEETS_JOB
SHEETS_DIR = "sheets"


def job_key(rnd: Round) -> str:
    return f"{RENDER_JOB}:{rnd.pk}:{rnd.seating_version}"


def sheets_path(round_id: int, seating_version: int) -> Path:
    return Path(settings.MEDIA_ROOT) / SHEETS_DIR / f"round-{round_id}-v{seating_version}.pdf"


def part_path(round_id: int, seating_version: int, part: int) -> Path:
    return sheets_path(round_id, seating_version).with_suffix(f".part-{part}.pdf")


def part_tables() -> int:
    """Tables per part of a round's sheets (PDF_SHEETS_PART_TABLES); 0 means no parts."""
    return max(int(getattr(settings, "PDF_SHEETS_PART_TABLES", 0)), 0)


def _part_slices(tables: int, size: int) -> list[slice]:
    return [slice(start, start + size) for start in range(0, tables, size)]


def current_sheets_file(rnd: Round) -> Path | None:
    """The stored PDF of the round's present seating, if it has been rendered."""
    path = sheets_path(rnd.pk, rnd.seating_version)
    return path if path.is_file() else None


def sheets_job(rnd: Round) -> Job | None:
    """The rendering job of the round's present seating, if one was asked for."""
    return Job.objects.filter(key=job_key(rnd)).first()


@transaction.atomic
def round_sheets_queue(*, rnd: Round, actor: Any, base_url: str) -> Job:
    """Queue the rendering of the round's sheets (or find it queued already).

    `base_url` (scheme and host of the request that asked) goes into the QR codes. A job that
    failed, or that finished but whose file has gone, is queued again.
    """
    rnd = Round.objects.select_related("event").get(pk=rnd.pk)
    tables = rnd.tables.count()
    if tables == 0:
        raise ServiceError(_("round %(number)s has no tables to print") % {"number": rnd.number},
                           field="round",
                           code="no_tables")
    job, created = jobs.find_or_create(
        job_key(rnd), kind=RENDER_JOB, event=rnd.event, total=tables,
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
        result={"round_id": rnd.pk, "round": rnd.number,
                "seating_version": rnd.seating_version, "base_url": base_url})
    stale = (job.status == Job.Status.FAILED
             or (job.status == Job.Status.DONE and current_sheets_file(rnd) is None))
    if stale:
        job = Job.objects.select_for_update().get(pk=job.pk)
        job.status = Job.Status.QUEUED
        job.progress = 0
        job.total = tables
        job.message = ""
        job.save(update_fields=["status", "progress", "total", "message", "updated_at"])
    if created or stale:
        # On commit; a broker that is down leaves the job queued with a message (tournaments.runtime.jobs).
        jobs.queue(job)
    return job


def _update(job_id: int, **fields: Any) -> None:
    # Plain updates outside any transaction: a page polling the job sees each table count.
    Job.objects.filter(pk=job_id).update(updated_at=timezone.now(), **fields)


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".rendering-", suffix=".pdf")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _remove_other_files(round_id: int, keep: Path) -> None:
    """Remove the round's stored sheets but `keep`: older versions and the joined parts."""
    for old in keep.parent.glob(f"round-{round_id}-v*.pdf"):
        if old != keep:
            old.unlink(missing_ok=True)


def _start(job_id: int) -> tuple[Job, Round | None]:
    """The job and its round read for printing, or None (and the job failed) when the seating
    changed, or the round went, after the job was queued: these sheets would not match the
    tables any more. The next request queues the new version."""
    job = Job.objects.get(pk=job_id)
    rnd = (Round.objects.filter(pk=int(job.result.get("round_id", 0)))
           .select_related("event").first())
    if rnd is None or rnd.seating_version != int(job.result.get("seating_version", 0)):
        _update(job.pk, status=Job.Status.FAILED,
                **jobs.stage_fields(job.pk, "sheets_seating_changed"))
        job.refresh_from_db()
        return job, None
    return job, selectors.round_for_print(rnd.event, rnd.number)


def _finish(job_id: int, path: Path, pdf: bytes, tables: int) -> None:
    _write_atomically(path, pdf)
    fields = jobs.stage_fields(job_id, "sheets_done", tables=tables, size=len(pdf))
    fields["result"]["file"] = str(path.relative_to(settings.MEDIA_ROOT))
    _update(job_id, status=Job.Status.DONE, progress=tables, total=tables, **fields)


def _failed(job_id: int, exc: Exception) -> None:
    # Marked failed so the page can say so and the next request queues it again; the error
    # still propagates so the worker logs it.
    _update(job_id, status=Job.Status.FAILED,
            **jobs.stage_fields(job_id, "rendering_failed", error=str(exc)))


def round_sheets_render(job_id: int) -> Job:
    """Run a rendering job (called by the Celery task): render every table of the round,
    counting progress per table, and store the PDF for the job's seating version; or, for a
    round of more than `part_tables()` tables with a task queue, publish its parts."""
    job = Job.objects.get(pk=job_id)
    version = int(job.result.get("seating_version", 0))
    round_id = int(job.result.get("round_id", 0))
    path = sheets_path(round_id, version)
    if job.status == Job.Status.DONE and path.is_file():
        return job
    _update(job.pk, status=Job.Status.RUNNING, attempts=job.attempts + 1, progress=0,
            message="")
    job, rnd = _start(job_id)
    if rnd is None:
        return job
    tables = len(rnd.tables.all())
    size = part_tables()
    if size and tables > size and not jobs.runs_eagerly():
        return _publish_parts(job, tables, size)
    try:
        pdf = _render().round_sheets_pdf(rnd, job.result.get("base_url", ""),
                                      progress=lambda n: _update(job.pk, progress=n),
                                      in_child_process=child_process.wanted())
    except Exception as exc:
        _failed(job.pk, exc)
        raise
    _finish(job.pk, path, pdf, tables)
    _remove_other_files(round_id, path)
    job.refresh_from_db()
    return job


def _publish_parts(job: Job, tables: int, size: int) -> Job:
    parts = len(_part_slices(tables, size))
    # The part size is kept with the job: a part must cut the round where the others did,
    # whatever the settings say by the time it runs.
    _update(job.pk, total=tables, result={**job.result, "parts": parts, "part_tables": size})
    try:
        for part in range(parts):
            jobs.publish_now(SHEETS_PART_TASK, job.pk, part)
    except jobs.BROKER_ERRORS as exc:
        _failed(job.pk, exc)
        raise
    job.refresh_from_db()
    return job


def _advancing(job_id: int) -> Callable[[int], None]:
    """The progress callback of a part: counts the part's sheets laid out since its last call
    into the job. Parts count into the same job at once; a part rendered again after a lost
    worker must not count past the total."""
    counted = 0

    def advance(laid_out: int) -> None:
        nonlocal counted
        Job.objects.filter(pk=job_id).update(
            progress=Least(F("progress") + (laid_out - counted), F("total")),
            updated_at=timezone.now())
        counted = laid_out

    return advance


def _stored_tables(round_id: int, version: int, slices: list[slice], tables: int) -> int:
    return sum(len(range(tables)[piece]) for part, piece in enumerate(slices)
               if part_path(round_id, version, part).is_file())


def round_sheets_render_part(job_id: int, part: int) -> Job:
    """Render one part of a round's sheets (called by its Celery task) and, if it is the last
    to be stored, join the parts into the round's PDF. Idempotent: a part stored already is
    not rendered again, and the join happens once."""
    job = Job.objects.get(pk=job_id)
    version = int(job.result.get("seating_version", 0))
    round_id = int(job.result.get("round_id", 0))
    path = sheets_path(round_id, version)
    if (job.status == Job.Status.DONE and path.is_file()) or job.status == Job.Status.FAILED:
        # Done, or another part failed: the next request for the sheets starts it again.
        return job
    job, rnd = _start(job_id)
    if rnd is None:
        return job
    tables = len(rnd.tables.all())
    slices = _part_slices(tables, int(job.result.get("part_tables") or tables))
    piece = part_path(round_id, version, part)
    if not piece.is_file():
        try:
            pdf = _render().round_sheets_pdf(rnd, job.result.get("base_url", ""), part=slices[part],
                                          progress=_advancing(job.pk),
                                          in_child_process=child_process.wanted())
        except Exception as exc:
            _failed(job.pk, exc)
            raise
        _write_atomically(piece, pdf)
    done = _stored_tables(round_id, version, slices, tables)
    # Counted per table while rendering; set from the stored parts when one is stored (a part
    # found stored, after a retry, counts here). Parts finish in any order: it only grows.
    Job.objects.filter(pk=job.pk, progress__lt=done).update(progress=done,
                                                            updated_at=timezone.now())
    if done == tables:
        _join(job.pk, rnd, path, [part_path(round_id, version, n) for n in range(len(slices))])
    job.refresh_from_db()
    return job


def _render():
    """The renderer, imported when a job renders: WeasyPrint is loaded only by the processes
    that render, not by every web process that queues a job or shows its progress."""
    from tournaments.printing import render

    return render


def _joined(pieces: list[Path], title: str) -> bytes:
    import pikepdf  # as WeasyPrint: loaded by the processes that render only

    # pikepdf (qpdf) copies the pages without reading their drawings: a few milliseconds a
    # page, where pypdf took 20. Object streams keep the file as small as WeasyPrint's.
    with pikepdf.new() as joined:
        opened = [pikepdf.open(piece) for piece in pieces]
        try:
            for document in opened:
                joined.pages.extend(document.pages)
            with joined.open_metadata(set_pikepdf_as_editor=False) as metadata:
                metadata["dc:title"] = title
            joined.docinfo["/Title"] = title
            out = io.BytesIO()
            joined.save(out, object_stream_mode=pikepdf.ObjectStreamMode.generate)
        finally:
            for document in opened:
                document.close()
    return out.getvalue()


def _join(job_id: int, rnd: Round, path: Path, pieces: list[Path]) -> None:
    with transaction.atomic():
        # The lock makes one of the parts that find every piece stored do the join.
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.status != Job.Status.RUNNING:
            return
        _finish(job_id, path, _joined(pieces, _render().round_sheets_title(rnd)),
                len(rnd.tables.all()))
    _remove_other_files(rnd.pk, path)
