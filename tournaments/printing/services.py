"""Rendering a whole round's table sheets in the background, and keeping the result.

A round's sheets are one PDF stored under MEDIA_ROOT as `sheets/round-<id>-v<version>.pdf`,
keyed by the round and its `seating_version`: every change of the seating bumps the version,
so a stored file is current exactly when its name carries the round's present version, and
a new seating gets a new file (the older ones are deleted once the new one is written).

The work is a Job with the unique key `render_sheets:<round id>:<seating version>`: asking
twice (a double click, two organisers) finds the same job, its progress counts the tables
rendered, and the Celery task `tournaments.tasks.render_round_sheets` runs it. Running it
again after a lost worker renders the same file again, written atomically, so it is safe.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import jobs
from tournaments.errors import ServiceError
from tournaments.models import Job, Round
from tournaments.printing import SHEETS_JOB, render, selectors

RENDER_JOB = SHEETS_JOB
SHEETS_DIR = "sheets"


def job_key(rnd: Round) -> str:
    return f"{RENDER_JOB}:{rnd.pk}:{rnd.seating_version}"


def sheets_path(round_id: int, seating_version: int) -> Path:
    return Path(settings.MEDIA_ROOT) / SHEETS_DIR / f"round-{round_id}-v{seating_version}.pdf"


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
    key = job_key(rnd)
    defaults = {
        "kind": RENDER_JOB, "event": rnd.event, "total": tables,
        "created_by": actor if getattr(actor, "is_authenticated", False) else None,
        "result": {"round_id": rnd.pk, "round": rnd.number,
                   "seating_version": rnd.seating_version, "base_url": base_url},
    }
    try:
        with transaction.atomic():
            job, created = Job.objects.get_or_create(key=key, defaults=defaults)
    except IntegrityError:
        # Someone else queued the same rendering between our read and our insert.
        job, created = Job.objects.get(key=key), False
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
        # On commit; a broker that is down leaves the job queued with a message (tournaments.jobs).
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


def _remove_older_versions(round_id: int, keep: Path) -> None:
    for old in keep.parent.glob(f"round-{round_id}-v*.pdf"):
        if old != keep:
            old.unlink(missing_ok=True)


def round_sheets_render(job_id: int) -> Job:
    """Run a rendering job (called by the Celery task): render every table of the round,
    counting progress per table, and store the PDF for the job's seating version."""
    job = Job.objects.get(pk=job_id)
    version = int(job.result.get("seating_version", 0))
    round_id = int(job.result.get("round_id", 0))
    path = sheets_path(round_id, version)
    if job.status == Job.Status.DONE and path.is_file():
        return job
    _update(job.pk, status=Job.Status.RUNNING, attempts=job.attempts + 1, progress=0,
            message="")
    rnd = Round.objects.filter(pk=round_id).select_related("event").first()
    if rnd is None or rnd.seating_version != version:
        # The seating changed (or the round went) after the job was queued: these sheets
        # would not match the tables any more. The next request queues the new version.
        _update(job.pk, status=Job.Status.FAILED,
                message="the seating changed after the sheets were asked for; ask again")
        job.refresh_from_db()
        return job
    rnd = selectors.round_for_print(rnd.event, rnd.number)
    try:
        pdf = render.round_sheets_pdf(rnd, job.result.get("base_url", ""),
                                      progress=lambda n: _update(job.pk, progress=n))
    except Exception as exc:
        # Marked failed so the page can say so and the next request queues it again; the
        # error still propagates so the worker logs it.
        _update(job.pk, status=Job.Status.FAILED, message=f"rendering failed: {exc}")
        raise
    _write_atomically(path, pdf)
    _remove_older_versions(round_id, path)
    tables = rnd.tables.count()
    _update(job.pk, status=Job.Status.DONE, progress=tables, total=tables,
            message=f"{tables} tables, {len(pdf)} bytes",
            result={**job.result, "file": str(path.relative_to(settings.MEDIA_ROOT))})
    job.refresh_from_db()
    return job
