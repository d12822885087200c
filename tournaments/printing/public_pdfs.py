"""The public PDFs a visitor opens (a round's seating list, the standings) rendered once per
version, in the background for a large event, once per burst of changes, and served from the
cache.

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
version not yet rendered queues it too and answers with the progress (HTTP 202).

Renderings of one PDF are coalesced (issue #35): each PDF (event, kind, round) has one Job,
key `public_pdf:<kind>:<event>:<round or "all">`, which is at most once waiting or running.
Asking while it waits or runs queues nothing more; the task renders the version of the moment
it starts, not the one that queued it; a change that comes while it renders makes it queue
itself again when it ends. The standings' job first waits until the event's results have
been quiet for `PUBLIC_PDF_QUIET_SECONDS` (at most `PUBLIC_PDF_LONGEST_WAIT_SECONDS` from its
queueing), put back in the queue with a countdown, so the confirmations at the end of a round
make one rendering, not one per table. The states are single conditional updates of the job
row (a compare-and-set on its status), so several workers and web processes agree.

With the embedded eager queue (no broker) a queued job runs in the process that queued it:
publishing a round renders its seating list there and then, and a first request gets the
PDF at once. The standings are then not rendered after each change of results, which would
make every confirmation wait for the rendering of the whole list: a request finds the last
rendered version, served at once with its time, and the newest is rendered after that answer
has gone, for the next visitor; with none rendered yet, the request renders it.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.db.models import Count, F, Max
from django.utils import timezone, translation

from tournaments.models import AuditEntry, Event, Job, Player, Round, Table
from tournaments.printing import PUBLIC_PDF_JOB, child_process, pdf_cache
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
        # One job per PDF, whatever its version: the job is the one place that knows whether
        # the PDF is waiting or rendering (the event id is enough, its jobs go with it).
        scope = "all" if self.round_number is None else self.round_number
        return f"public_pdf:{self.kind}:{self.event.pk}:{scope}"


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


def _render(pdf: PublicPdf, *, in_child: bool = False) -> bytes:
    """The PDF rendered; `in_child`: laid out by a child process (a worker's rendering, never
    a request's: child_process.wanted)."""
    # Imported here: WeasyPrint is loaded only by the processes that render.
    from tournaments.printing import render
    from tournaments.printing import selectors as printing_selectors

    with translation.override(pdf.language):
        if pdf.kind == SEATING:
            return render.seating_pdf(printing_selectors.round_for_print(pdf.event,
                                                                         pdf.round_number),
                                      in_child_process=in_child)
        return render.standings_pdf(pdf.event, up_to_round=pdf.round_number,
                                    in_child_process=in_child)


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
# Large events: in the background, one job per PDF
# ---------------------------------------------------------------------------------------

# How long the results must stay unchanged before the standings are rendered (seconds,
# setting PUBLIC_PDF_QUIET_SECONDS): the confirmations at the end of a round come a few a
# second, and each would otherwise start a rendering of the whole list.
DEFAULT_QUIET_SECONDS = 3.0
# ... but a job waits at most this long (PUBLIC_PDF_LONGEST_WAIT_SECONDS) from its queueing:
# results that never settle for long (a steady trickle of cards) still get their standings.
DEFAULT_LONGEST_WAIT_SECONDS = 30.0


def quiet_seconds() -> float:
    return max(float(getattr(settings, "PUBLIC_PDF_QUIET_SECONDS", DEFAULT_QUIET_SECONDS)), 0.0)


def longest_wait_seconds() -> float:
    return max(float(getattr(settings, "PUBLIC_PDF_LONGEST_WAIT_SECONDS",
                             DEFAULT_LONGEST_WAIT_SECONDS)), 0.0)


def pdf_job(pdf: PublicPdf) -> Job | None:
    """The PDF's one job (whatever version it last rendered), if it was ever asked for."""
    return Job.objects.filter(key=pdf.job_key).first()


def _moment(text: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None


def _queue_again(job: Job, *, from_worker: bool = False) -> bool:
    """Put a job that is done or failed back in the queue, its task published on commit.
    Compare-and-set on the status and `updated_at` read: of several callers that found the
    job finished, one queues it, and a caller that read it before its last rendering cannot
    write back what it read. True if this caller did."""
    now = timezone.now()
    result = {k: v for k, v in (job.result or {}).items() if k != "stage"}
    result["queued_at"] = now.isoformat()
    if not Job.objects.filter(pk=job.pk, status=job.status, updated_at=job.updated_at).update(
            status=Job.Status.QUEUED, progress=0, message="", result=result, updated_at=now):
        return False
    if not from_worker:
        # On commit; a broker that is down leaves the job queued with a message
        # (tournaments.runtime.jobs).
        jobs.queue(job)
        return True
    # From its own task: to the queue the task came from (a deployment's PDF workers serve a
    # queue of their own), as the parts of a round's sheets are.
    try:
        jobs.publish_now(RENDER_JOB, job.pk)
    except jobs.BROKER_ERRORS as exc:
        # Left queued: the next poll of its progress, or `requeue_jobs`, publishes it again.
        logger.warning("task queue unavailable, job %s stays queued: %s", job.pk, exc)
        Job.objects.filter(pk=job.pk, status=Job.Status.QUEUED).update(
            message=jobs.queue_unavailable_message(), updated_at=timezone.now())
    return True


def public_pdf_queue(*, pdf: PublicPdf, actor: Any = None) -> Job:
    """Ask for the PDF's newest version; answers the PDF's one job (per event, kind and round).

    A job waiting or rendering is left alone, so no PDF is ever queued twice: the waiting one
    renders the version of the moment it starts, the rendering one looks again when it ends
    (`_again_if_newer`). A job done whose version is no longer the cached one, or failed, is
    queued again. Each write is one conditional statement, no transaction of its own:
    within a caller's, the task is published when it commits."""
    job, created = jobs.find_or_create(
        pdf.job_key, kind=RENDER_JOB, event=pdf.event, total=1,
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
        result={"kind": pdf.kind, "event_id": pdf.event.pk, "round": pdf.round_number,
                "queued_at": timezone.now().isoformat()})
    if created:
        jobs.queue(job)
        return job
    if job.status in (Job.Status.QUEUED, Job.Status.RUNNING):
        return job
    if job.status == Job.Status.DONE and cached(pdf) is not None:
        return job
    _queue_again(job)
    job.refresh_from_db()
    return job


def settle_seconds_left(job: Job) -> float:
    """How long a waiting standings job still waits for the results to settle: until the
    event's last audited change (each one a new results version) is `quiet_seconds()` old,
    or the job has waited `longest_wait_seconds()`. 0 for the seating list (its versions do
    not come in bursts, and a hall waits for it), and without a queue (no worker to wait)."""
    data = job.result if isinstance(job.result, dict) else {}
    quiet = quiet_seconds()
    if data.get("kind") != STANDINGS or quiet <= 0 or _eager():
        return 0.0
    last = (AuditEntry.objects.filter(event_id=job.event_id).order_by("-created_at")
            .values_list("created_at", flat=True).first())
    if last is None:
        return 0.0
    now = timezone.now()
    left = (last - now).total_seconds() + quiet
    if (queued := _moment(data.get("queued_at"))) is not None:
        left = min(left, (queued - now).total_seconds() + longest_wait_seconds())
    return max(left, 0.0)


def settling(job: Job | None) -> bool:
    """Whether the job is waiting for the results to settle (what its progress page says)."""
    return job is not None and job.status == Job.Status.QUEUED and settle_seconds_left(job) > 0


def _update(job_id: int, **fields: Any) -> None:
    Job.objects.filter(pk=job_id).update(updated_at=timezone.now(), **fields)


def public_pdf_render(job_id: int) -> Job:
    """Run a PDF's job (called by the Celery task): once the results have settled, render the
    PDF's version as the database stands when it starts, keep it in the cache, and queue the
    job again if a newer version came while it rendered. Idempotent: a job already running or
    done (a message delivered twice) does nothing."""
    job = Job.objects.get(pk=job_id)
    if job.status != Job.Status.QUEUED:
        return job
    if (left := settle_seconds_left(job)) > 0:
        # Back to the queue for the rest of the quiet period; the worker is free meanwhile.
        # The job stays queued, so every change meanwhile finds it and queues nothing.
        jobs.publish_now(RENDER_JOB, job.pk, countdown=left)
        return job
    started = timezone.now()
    # Claim the job: of two runs of one job (published twice), one renders.
    if not Job.objects.filter(pk=job.pk, status=Job.Status.QUEUED).update(
            status=Job.Status.RUNNING, attempts=F("attempts") + 1, progress=0, message="",
            updated_at=started):
        job.refresh_from_db()
        return job
    data = job.result
    # The newest version, read now: whatever was asked for while the job waited.
    pdf = _current(data.get("kind", ""), int(data.get("event_id", 0)), data.get("round"))
    if pdf is None:
        # The round is gone (seated again): nothing to render.
        _update(job.pk, status=Job.Status.FAILED,
                **jobs.stage_fields(job.pk, "printout_superseded"))
        job.refresh_from_db()
        return job
    rendered = cached(pdf)
    try:
        if rendered is None:
            # A worker lays the list out in a child process, as a round's sheets.
            rendered = _render(pdf, in_child=child_process.wanted())
            pdf_cache.keep(pdf.kind, pdf.parts, pdf.language, rendered)
    except Exception as exc:
        _update(job.pk, status=Job.Status.FAILED,
                **jobs.stage_fields(job.pk, "rendering_failed", error=str(exc)))
        raise
    fields = jobs.stage_fields(job.pk, "printout_done", size=len(rendered))
    # What was rendered and when its content was read: the version a visitor may be given
    # while the next one renders (`last_rendered`), with its time.
    fields["result"]["rendered"] = {"parts": list(pdf.parts), "at": started.isoformat()}
    _update(job.pk, status=Job.Status.DONE, progress=1, total=1, **fields)
    _again_if_newer(job.pk, pdf)
    job.refresh_from_db()
    return job


def _again_if_newer(job_id: int, rendered: PublicPdf) -> None:
    """After a rendering: a change that came while it ran found the job running and queued
    nothing, so the job looks for it here. The job is marked done before this reads the
    version, and a change commits before it asks for its PDF: of the two, at least one sees
    the other, so no change is left unrendered. Without a queue the next request asks."""
    if _eager():
        return
    job = Job.objects.get(pk=job_id)
    newest = _current(rendered.kind, rendered.event.pk, rendered.round_number)
    if newest is None or newest.parts == rendered.parts or cached(newest) is not None:
        return
    if job.status == Job.Status.DONE:
        _queue_again(job, from_worker=True)


@dataclass(frozen=True)
class Rendered:
    """A PDF's last rendered version: its bytes and when its content was read."""

    pdf: bytes
    at: datetime


def last_rendered(pdf: PublicPdf) -> Rendered | None:
    """The PDF's last rendered version by its job, if it is still in the cache."""
    job = pdf_job(pdf)
    rendered = job.result.get("rendered") if job is not None and isinstance(job.result, dict) else None
    if not isinstance(rendered, dict) or (at := _moment(rendered.get("at"))) is None:
        return None
    data = pdf_cache.get(pdf.kind, tuple(rendered.get("parts") or ()), pdf.language)
    return Rendered(data, at) if data is not None else None


def last_for_visitor(pdf: PublicPdf, *, asked: bool = False) -> Rendered | None:
    """What a visitor is given instead of waiting for the newest standings: the last rendered
    version, if there is one, without a queue (the embedded default, where the rendering would
    run in his request) or when he asked for it (the link of the progress page); the newest
    is then asked for after his answer (`queue_quietly`). Not the seating list: an old one
    would send players to the wrong table, and its versions are rendered when they are made
    (`refresh`)."""
    if pdf.kind != STANDINGS or not (asked or _eager()):
        return None
    return last_rendered(pdf)


def queue_quietly(pdf: PublicPdf) -> None:
    """Queue the PDF's newest version, logging instead of raising: called after a visitor's
    answer has gone, where an error has nobody to tell."""
    try:
        public_pdf_queue(pdf=pdf)
    except Exception:
        logger.exception("rendering the %s PDF of event %s failed", pdf.kind, pdf.event.pk)


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


class _Waiting:
    """The refreshes of one event's PDFs that wait for one commit: the first to run does it."""

    __slots__ = ("ran",)

    def __init__(self) -> None:
        self.ran = False


def refresh_after_commit(event: Event) -> None:
    """Called with every audited change of the event that its public pages show: once the
    transaction commits, one refresh of the event's PDFs, however many changes it made (a
    round's close audits three; each refresh reads the event and its cache, some 15 ms at
    1,024 players). Each change queues its own callback, so that a savepoint rolled back takes
    only its own with it; the callbacks of one commit share a `_Waiting`, and the first that
    runs refreshes for all."""
    event_id = event.pk
    connection = transaction.get_connection()
    waiting = connection.__dict__.setdefault("_public_pdf_refreshes", {})
    batch = waiting.get(event_id)
    if batch is None or batch.ran:
        # A new one after a commit; a rolled-back transaction's, which never ran, is kept.
        batch = waiting[event_id] = _Waiting()

    def run() -> None:
        if batch.ran:
            return
        batch.ran = True
        _refresh_quietly(event_id)
    transaction.on_commit(run)
