"""Handing background jobs to the task queue, and handing them again when the queue was away.

`queue(job)` is the one way the services queue a Job's Celery task: the task of the job's kind,
registered by its app's AppConfig.ready() (`register_task`; the services never import the
tasks, which import the services), published after the transaction commits; it publishes the task and, when the broker cannot be reached, keeps the
request alive instead of failing it with a 500: the Job stays QUEUED with a message saying
the queue is unavailable and the work will run when it is back.

A job whose worker died (killed, out of memory) stays RUNNING: nothing reports its end. Every
step of a task saves the job (its `updated_at` is the heartbeat), so a RUNNING job that has not
reported for `JOB_STALE_AFTER_SECONDS` is stale (`is_stale`); `retry` queues it again, as do
the organiser's job page, asking for the same work again, and `manage.py requeue_jobs`.

The work then runs once the broker is back without any scheduler (no Celery beat): a QUEUED
job that has waited longer than `JOB_REQUEUE_AFTER_SECONDS` is published again when its
status is polled (the pages poll it) and by `manage.py requeue_jobs`. Every task is
idempotent, so a job published twice (the first message did arrive after all, or a worker was
merely slow) runs once in effect.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import current_app, current_task
from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext
from kombu.exceptions import OperationalError

from tournaments.engine_text.seating_errors import stage_english, stage_text
from tournaments.models import Job

logger = logging.getLogger(__name__)

# A job queued this long ago and still not picked up is published again (seconds); override
# with the setting JOB_REQUEUE_AFTER_SECONDS. Long enough that a busy but healthy queue is not
# flooded with duplicates, short enough that an organiser is not left waiting after an outage.
DEFAULT_REQUEUE_AFTER_SECONDS = 60

# What publishing raises when the broker is down or unreachable: kombu wraps the transport's
# connection errors in OperationalError once the publish retries are spent; a refused or timed
# out socket can surface directly as an OSError (ConnectionError, TimeoutError).
BROKER_ERRORS: tuple[type[BaseException], ...] = (OperationalError, OSError)


def queue_unavailable_message() -> str:
    return gettext("the task queue is unavailable; the job will run when it is back")


# The Celery task of each job kind, registered from the AppConfig.ready() of the app that
# defines it (tournaments: seating, table sheets, public PDFs; leagues: schedules; rankings:
# rebuilds). Tasks call services and services queue jobs, so this registry is what lets the
# services queue work without importing the tasks.
REGISTERED_TASKS: dict[str, Any] = {}


def register_task(kind: str, task: Any) -> None:
    REGISTERED_TASKS[kind] = task


def _task_for(kind: str):
    return REGISTERED_TASKS.get(kind)


def find_or_create(key: str, **defaults: Any) -> tuple[Job, bool]:
    """The job of this unique `key`, created with `defaults` if there is none; True when this
    call created it. Two requests asking at once (a double click, two organisers) find one
    job: the insert is a savepoint of its own, so the loser's IntegrityError leaves the
    caller's transaction usable and it reads the winner's job."""
    try:
        with transaction.atomic():
            return Job.objects.get_or_create(key=key, defaults=defaults)
    except IntegrityError:
        return Job.objects.get(key=key), False


def queue(job: Job) -> None:
    """Queue the registered task of the job's kind once the transaction commits."""
    task = _task_for(job.kind)
    if task is None:
        raise LookupError(f"no task is registered for jobs of kind {job.kind!r}")
    dispatch(task, job)


def publish_now(kind: str, *args: Any, countdown: float | None = None) -> None:
    """Publish the task registered for `kind` with `args` at once: for a worker handing out
    the parts of the job it runs (no transaction to wait for), or putting its own job back
    for `countdown` seconds (a public PDF waiting for the results to settle). A broker error
    propagates, so the caller can fail its job."""
    task = _task_for(kind)
    if task is None:
        raise LookupError(f"no task is registered for {kind!r}")
    # The parts go to the queue their job came from: a worker that serves a queue of its own
    # (a deployment's PDF workers, the tests' workers) hands its parts to its peers.
    running = current_task.request if current_task else None
    delivery = getattr(running, "delivery_info", None) or {}
    queue = delivery.get("routing_key")
    options: dict[str, Any] = {"queue": queue} if queue else {}
    if countdown:
        options["countdown"] = countdown
    task.apply_async(args, **options)


def runs_eagerly() -> bool:
    """Whether queued tasks run in this process at once (the embedded default: no broker)."""
    return bool(current_app.conf.task_always_eager)


def _eager(task) -> bool:
    return bool(task.app.conf.task_always_eager)


def publish(task, job_id: int) -> bool:
    """Publish the task for the job now. True when the broker took it; False (and the job
    keeps a message saying so) when the broker could not be reached."""
    if _eager(task):
        # The embedded default runs the task in process: its own errors must propagate.
        task.delay(job_id)
        return True
    try:
        # Retries and timeouts come from the settings (CELERY_TASK_PUBLISH_RETRY_POLICY,
        # CELERY_BROKER_CONNECTION_TIMEOUT): short, so a request never hangs on a dead broker.
        task.apply_async((job_id,))
    except BROKER_ERRORS as exc:
        logger.warning("task queue unavailable, job %s stays queued: %s", job_id, exc)
        # Only a job still waiting gets the message: a worker may have finished it meanwhile
        # (a second dispatch of a job whose first message did arrive).
        Job.objects.filter(pk=job_id, status=Job.Status.QUEUED).update(
            message=queue_unavailable_message(), updated_at=timezone.now())
        return False
    # The queue took it: clear an earlier "unavailable" message so the page stops saying so.
    # A queued job carries no other message (the services clear it when they queue).
    Job.objects.filter(pk=job_id, status=Job.Status.QUEUED).exclude(message="").update(message="")
    return True


def dispatch(task, job: Job) -> None:
    """Queue the job's task once the surrounding transaction commits (at once outside one).
    A broker that is down never fails the caller: see `publish`."""
    job_id = job.pk
    transaction.on_commit(lambda: publish(task, job_id))


# A running job that has not reported progress for this long has lost its worker (seconds);
# override with JOB_STALE_AFTER_SECONDS. Every task saves its job at each step, and no step
# takes minutes, so a live job is never mistaken for a dead one.
DEFAULT_STALE_AFTER_SECONDS = 600


def stale_after_seconds() -> float:
    return float(getattr(settings, "JOB_STALE_AFTER_SECONDS", DEFAULT_STALE_AFTER_SECONDS))


def is_stale(job: Job) -> bool:
    """A RUNNING job whose worker stopped reporting: it will not finish by itself."""
    return (job.status == Job.Status.RUNNING
            and job.updated_at <= timezone.now() - timedelta(seconds=stale_after_seconds()))


def job_message(job: Job) -> str:
    """What a job says, in the reader's language: a job that keeps its stage as code and
    params (the seating of a round, a league's schedule) is said from them; any other message
    is shown as it was written."""
    result = job.result if isinstance(job.result, dict) else {}
    return stage_text(result.get("stage"), job.message)


def stage_fields(job_id: int, code: str, **params: Any) -> dict[str, Any]:
    """The fields that give a job its message as a stage (`code`, `params`) and in English, so
    that `job_message` says it in each reader's language; the job's result is kept."""
    english = stage_english(code, params)
    result = Job.objects.filter(pk=job_id).values_list("result", flat=True).first()
    result = result if isinstance(result, dict) else {}
    return {"message": english,
            "result": {**result, "stage": {"code": code, "params": params, "message": english}}}


def stale_message() -> str:
    return gettext("the worker running this job stopped reporting; it was queued again")


def retry(job: Job) -> bool:
    """Queue a FAILED or stale RUNNING job again (after the transaction commits). The
    conditional update lets one of several callers win; True if this one did. Tasks are
    idempotent, so a worker that was merely slow does no harm by finishing too."""
    cutoff = timezone.now() - timedelta(seconds=stale_after_seconds())
    claimed = Job.objects.filter(pk=job.pk).filter(
        models.Q(status=Job.Status.FAILED)
        | models.Q(status=Job.Status.RUNNING, updated_at__lte=cutoff)
    ).update(status=Job.Status.QUEUED, message=stale_message() if job.status == Job.Status.RUNNING
             else "", updated_at=timezone.now())
    if not claimed:
        return False
    task = _task_for(job.kind)
    if task is not None:
        dispatch(task, job)
    job.refresh_from_db()
    return True


def requeue_after_seconds() -> float:
    return float(getattr(settings, "JOB_REQUEUE_AFTER_SECONDS", DEFAULT_REQUEUE_AFTER_SECONDS))


def _claim(job_id: int, older_than: float) -> bool:
    """Take the right to publish a waiting job again. The conditional update lets exactly one
    of several polling pages (or the command) win, and restarts the job's waiting time."""
    cutoff = timezone.now() - timedelta(seconds=older_than)
    return bool(Job.objects.filter(pk=job_id, status=Job.Status.QUEUED,
                                   updated_at__lte=cutoff).update(updated_at=timezone.now()))


def requeue_if_waiting(job: Job, older_than: float | None = None) -> bool:
    """Publish a QUEUED job again if it has waited longer than `older_than` seconds (default
    JOB_REQUEUE_AFTER_SECONDS). Called when a job's status is polled. True if published."""
    if job.status != Job.Status.QUEUED:
        return False
    task = _task_for(job.kind)
    if task is None or _eager(task):
        return False
    limit = requeue_after_seconds() if older_than is None else older_than
    if not _claim(job.pk, limit):
        return False
    published = publish(task, job.pk)
    # The caller shows this instance: let it carry the message just written (or cleared).
    job.refresh_from_db()
    return published


def requeue_waiting(older_than: float | None = None) -> dict[str, Any]:
    """Publish every QUEUED job again that has waited longer than `older_than` seconds, and
    every stale RUNNING job (its worker died): the recovery after a broker outage or a lost
    worker (`manage.py requeue_jobs`)."""
    limit = requeue_after_seconds() if older_than is None else older_than
    cutoff = timezone.now() - timedelta(seconds=limit)
    published, unavailable = [], []
    # Jobs whose worker died go back to the queue first, then out with the waiting ones.
    stale = timezone.now() - timedelta(seconds=stale_after_seconds())
    Job.objects.filter(status=Job.Status.RUNNING, updated_at__lte=stale).update(
        status=Job.Status.QUEUED, message=stale_message(), updated_at=cutoff)
    for job in Job.objects.filter(status=Job.Status.QUEUED, updated_at__lte=cutoff).order_by("pk"):
        task = _task_for(job.kind)
        if task is None or _eager(task) or not _claim(job.pk, limit):
            continue
        (published if publish(task, job.pk) else unavailable).append(job.pk)
    return {"published": published, "unavailable": unavailable}
