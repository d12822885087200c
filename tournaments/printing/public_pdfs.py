"""The public PDFs a visitor opens (a round's seating list, the standings) rendered once per
version, in the background for a large event, and served from the cache.

What a PDF's content depends on makes its version (`PublicPdf.parts`):
- the seating list of a round: the round (its id, so a round seated again under the same
  number is a new one) and its `seating_version`, the event's `updated_at` (its name, venue,
  language) and the newest `updated_at` of its players (a corrected name, a merge). Not the
  event's results version: a confirmed card does not change who sits where, and the list
  rendered when the round was published stays good through the whole round;
- the standings (whole, or after a round): the event's `results_version`.

Both are written in the event's language (`tournaments.printing.render`) whatever the
reader's, so each version is rendered once, not once per language of the site.

An event of at most `PDF_INLINE_MAX_TABLES` tables (setting, default 16) renders a missing
PDF in the request, as its few tables take well under a second. A larger one never does:
after every audited change of the event (`tournaments.services.audit.record` calls
`refresh_after_commit`) the present seating list of the round being played (published, not
closed) and its standings are queued for rendering if not cached yet, and a request for a
version not yet rendered queues it too and answers with the progress (HTTP 202). The work is a Job with the
unique key `public_pdf:<kind>:<event>:<version digest>`, so two requests, or a request and
the change, asking for the same version find one job; the task renders it once and finds
it cached if run again. A job whose version was superseded before it ran renders nothing.

With the embedded eager queue (no broker) a queued job runs in the process that queued it:
publishing a round renders its seating list there and then, and a first request gets the
PDF at once. The standings are then not rendered after each change of results, which would
make every confirmation wait for the rendering of the whole list; the first request after
the change renders them (through the same job, so a second request shows the progress).
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone, translation

from tournaments.models import Event, Job, Player, Round, Table
from tournaments.printing import PUBLIC_PDF_JOB, pdf_cache
from tournaments.runtime import jobs

logger = logging.getLogger(__name__)

RENDER_JOB = PUBLIC_PDF_JOB
SEATING = "seating"
STANDINGS = "standings"

DEFAULT_INLINE_MAX_TABLES = 16
# How long a request rendering inline waits for another request already rendering the same
# version before rendering it itself (seconds); an inline rendering takes about one.
INLINE_WAIT_SECONDS = 10.0
_MARKER_SECONDS = 60


def _micros(moment) -> int:
    return int(moment.timestamp() * 1_000_000) if moment else 0


def event_key(event: Event) -> tuple:
    # The creation time with the id: an id a deleted event had never finds its old PDFs.
    return (event.pk, _micros(event.created_at))


@dataclass(frozen=True)
class PublicPdf:
    """One public PDF of an event at one version: what to render and where it is kept."""

    kind: str
    event: Event
    # the seating list's round; the standings' last round (None: all rounds)
    round_number: int | None
    parts: tuple

    @property
    def language(self) -> str:
        return self.event.language or "en"

    @property
    def job_key(self) -> str:
        digest = hashlib.sha256(repr(self.parts).encode()).hexdigest()[:32]
        return f"public_pdf:{self.kind}:{self.event.pk}:{digest}"


def _players_stamp(event: Event) -> int:
    return _micros(Player.objects.filter(registrations__event=event)
                   .aggregate(newest=Max("updated_at"))["newest"])


def seating_of(event: Event, rnd: Round) -> PublicPdf:
    parts = (*event_key(event), _micros(event.updated_at), rnd.pk, rnd.number,
             rnd.seating_version, _players_stamp(event))
    return PublicPdf(SEATING, event, rnd.number, parts)


def standings_of(event: Event, up_to_round: int | None = None) -> PublicPdf:
    return PublicPdf(STANDINGS, event, up_to_round,
                     (*event_key(event), event.results_version, up_to_round))


def _current(spec_kind: str, event_id: int, round_number: int | None) -> PublicPdf | None:
    """The PDF of this kind as the database stands now (None: the round or event is gone)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return None
    if spec_kind == SEATING:
        rnd = event.rounds.filter(number=round_number).first()
        return seating_of(event, rnd) if rnd is not None else None
    return standings_of(event, round_number)


def cached(pdf: PublicPdf) -> bytes | None:
    return pdf_cache.get(pdf.kind, pdf.parts, pdf.language)


def _render(pdf: PublicPdf) -> bytes:
    # Imported here: WeasyPrint is loaded only by the processes that render.
    from tournaments.printing import render
    from tournaments.printing import selectors as printing_selectors

    with translation.override(pdf.language):
        if pdf.kind == SEATING:
            return render.seating_pdf(printing_selectors.round_for_print(pdf.event,
                                                                         pdf.round_number))
        return render.standings_pdf(pdf.event, up_to_round=pdf.round_number)


# ---------------------------------------------------------------------------------------
# Small events: in the request
# ---------------------------------------------------------------------------------------

def inline_max_tables() -> int:
    return int(getattr(settings, "PDF_INLINE_MAX_TABLES", DEFAULT_INLINE_MAX_TABLES))


def event_tables(event: Event) -> int:
    """The event's size in tables: its latest round's, or its registrations' by four before
    any round is seated."""
    latest = (Table.objects.filter(round__event=event).values("round__number")
              .annotate(n=Count("pk")).order_by("-round__number").first())
    if latest is not None:
        return latest["n"]
    return math.ceil(event.registrations.count() / 4)


def renders_inline(event: Event) -> bool:
    return event_tables(event) <= inline_max_tables()


def render_inline(pdf: PublicPdf) -> bytes:
    """Render the PDF in this request and keep it. A request that finds another one rendering
    the same version (a marker in the cache) waits for its PDF instead of rendering it too."""
    cache = caches["default"]
    marker = "rendering:" + pdf_cache.pdf_key(pdf.kind, pdf.parts, pdf.language)
    deadline = time.monotonic() + INLINE_WAIT_SECONDS
    while not cache.add(marker, 1, timeout=_MARKER_SECONDS):
        if (found := cached(pdf)) is not None:
            return found
        if time.monotonic() > deadline:
            break
        time.sleep(0.2)
    try:
        if (found := cached(pdf)) is not None:
            return found
        rendered = _render(pdf)
        pdf_cache.keep(pdf.kind, pdf.parts, pdf.language, rendered)
        return rendered
    finally:
        cache.delete(marker)


# ---------------------------------------------------------------------------------------
# Large events: in the background
# ---------------------------------------------------------------------------------------

def pdf_job(pdf: PublicPdf) -> Job | None:
    return Job.objects.filter(key=pdf.job_key).first()


def public_pdf_queue(*, pdf: PublicPdf, actor: Any = None) -> Job:
    """Queue the rendering of this version of the PDF (or find it queued already). A job
    that failed, or that finished but whose PDF has left the cache, is queued again. Each
    write is one statement (the job found or created, a conditional update), so no
    transaction of its own: within a caller's, the task is published when it commits."""
    job, created = jobs.find_or_create(
        pdf.job_key, kind=RENDER_JOB, event=pdf.event, total=1,
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
        result={"kind": pdf.kind, "event_id": pdf.event.pk, "round": pdf.round_number,
                "parts": list(pdf.parts)})
    stale = (job.status == Job.Status.FAILED
             or (job.status == Job.Status.DONE and cached(pdf) is None))
    if stale:
        stale = bool(Job.objects.filter(pk=job.pk, status=job.status).update(
            status=Job.Status.QUEUED, progress=0, message="", updated_at=timezone.now()))
        job.refresh_from_db()
    if created or stale:
        # On commit; a broker that is down leaves the job queued with a message (tournaments.runtime.jobs).
        jobs.queue(job)
    return job


def _update(job_id: int, **fields: Any) -> None:
    Job.objects.filter(pk=job_id).update(updated_at=timezone.now(), **fields)


def public_pdf_render(job_id: int) -> Job:
    """Run a rendering job (called by the Celery task): render the PDF of the job's version
    into the cache, unless it is there already, another worker is rendering it, or the
    event has moved on to a newer version."""
    job = Job.objects.get(pk=job_id)
    data = job.result
    pdf = _current(data.get("kind", ""), int(data.get("event_id", 0)), data.get("round"))
    if pdf is None or list(pdf.parts) != data.get("parts"):
        # A newer version was asked for meanwhile: that one's job renders it.
        _update(job.pk, status=Job.Status.FAILED,
                **jobs.stage_fields(job.pk, "printout_superseded"))
        job.refresh_from_db()
        return job
    if cached(pdf) is not None:
        _update(job.pk, status=Job.Status.DONE, progress=1, total=1)
        job.refresh_from_db()
        return job
    # Claim the job: of two runs of one job (published twice), one renders.
    if not Job.objects.filter(pk=job.pk, status=Job.Status.QUEUED).update(
            status=Job.Status.RUNNING, attempts=job.attempts + 1, progress=0, message="",
            updated_at=timezone.now()):
        job.refresh_from_db()
        return job
    try:
        rendered = _render(pdf)
    except Exception as exc:
        _update(job.pk, status=Job.Status.FAILED,
                **jobs.stage_fields(job.pk, "rendering_failed", error=str(exc)))
        raise
    pdf_cache.keep(pdf.kind, pdf.parts, pdf.language, rendered)
    _update(job.pk, status=Job.Status.DONE, progress=1, total=1,
            **jobs.stage_fields(job.pk, "printout_done", size=len(rendered)))
    forget_older_jobs(job)
    job.refresh_from_db()
    return job


def forget_older_jobs(job: Job) -> int:
    """Delete the finished or superseded jobs of earlier versions of the same PDF (the same
    event, kind and round) once this one is rendered: every confirmed card of a large event
    queues a standings version, and nobody asks for an old one again (a request for it would
    queue it anew). Jobs still waiting or running are left alone. Returns how many went."""
    data = job.result
    deleted, _ = (Job.objects.filter(kind=RENDER_JOB, event_id=job.event_id,
                                     created_at__lte=job.created_at,
                                     status__in=(Job.Status.DONE, Job.Status.FAILED))
                  .filter(result__kind=data.get("kind"), result__round=data.get("round"))
                  .exclude(pk=job.pk).delete())
    return deleted


def _eager() -> bool:
    return jobs.runs_eagerly()


def refresh(event_id: int) -> list[Job]:
    """Queue what a change of a large event made stale: the seating list of the round being
    played (published, not closed yet) and, with a real queue, the standings. Nothing for a
    small event."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or renders_inline(event):
        return []
    wanted = []
    # A closed round's list is rarely opened by a crowd (nor an imported event's): on request.
    rnd = (event.rounds.filter(status__in=(Round.Status.PUBLISHED, Round.Status.PLAYING))
           .order_by("-number").first())
    if rnd is not None:
        wanted.append(seating_of(event, rnd))
    if not _eager():
        wanted.append(standings_of(event))
    return [public_pdf_queue(pdf=pdf) for pdf in wanted if cached(pdf) is None]


def _refresh_quietly(event_id: int) -> None:
    try:
        refresh(event_id)
    except Exception:
        # The change is committed; a PDF that failed to render is rendered on request.
        logger.exception("rendering the public PDFs of event %s failed", event_id)


def refresh_after_commit(event: Event) -> None:
    """Called with every audited change of the event that its public pages show."""
    event_id = event.pk
    transaction.on_commit(lambda: _refresh_quietly(event_id))
