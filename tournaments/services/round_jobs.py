"""Services that generate, close and score rounds: queueing the seating of the next round as
an idempotent background job, running that job (called by the Celery task), and closing a
round, which turns the tables' scorecards into table points and carried scores.

The seating itself is decided by the pure engine in `tournaments.seating`; this module only
builds its request from the database and stores its answer. The job runs in a worker with no
request language, so each stage is kept in the job's result as code, params and the engine's
English (`engine_text.seating_errors.stage`), and the job's page says it in the reader's
language; the job's `message` is the English.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.domain import lifecycle, rights, standings
from tournaments.engine_text.seating_errors import refused_stage, stage
from tournaments.errors import Conflict, ServiceError
from tournaments.models import Event, Job, Round, Scorecard
from tournaments.runtime import collector, jobs
from tournaments.seating import SeatingInvalid, seat_round
from tournaments.seating.checker import check_seating
from tournaments.services import audit, event_status_follow, round_store
from tournaments.services.scorecards import carry_closed_round

SEAT_JOB = "seat_round"


def round_seed(event: Event, number: int) -> int:
    """A deterministic seed per event and round, so a regenerated draw is the same draw."""
    base = event.seating_options.get("seed") if isinstance(event.seating_options, dict) else None
    digest = hashlib.sha256(f"{event.slug}:{base}:{number}".encode()).hexdigest()
    return int(digest[:12], 16)


def next_round_number(event: Event) -> int:
    return selectors.next_round_number(event)


@transaction.atomic
def round_generation_queue(*, event: Event, actor: Any) -> Job:
    """Queue the seating of the event's next round. Asking twice (two organisers at once, a
    double click) finds the same job: its key is unique per event and round number."""
    rights.require_organiser(actor, event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    number = next_round_number(event)
    refusal = lifecycle.seating_refusal(event, number)
    if refusal:
        raise ServiceError(refusal[1], field="round", code=refusal[0])
    key = f"{SEAT_JOB}:{event.pk}:{number}"
    job, created = jobs.find_or_create(
        key, kind=SEAT_JOB, event=event, total=3, result={"round": number},
        created_by=actor if getattr(actor, "is_authenticated", False) else None)
    if created:
        # On commit; a broker that is down leaves the job queued with a message (tournaments.runtime.jobs).
        jobs.queue(job)
    elif job.status == Job.Status.FAILED or jobs.is_stale(job):
        # Asking again after a failure, or after the worker died (a stale RUNNING job), queues
        # the same job again rather than answering with the stuck one.
        jobs.retry(job)
    elif job.status == Job.Status.DONE and not event.rounds.filter(number=number).exists():
        # The draft it made was discarded (a reopened round, `round_reopen`): seat it again.
        Job.objects.filter(pk=job.pk).update(status=Job.Status.QUEUED, progress=0, message="",
                                             result={"round": number}, updated_at=timezone.now())
        job.refresh_from_db()
        jobs.queue(job)
    return job


def _progress(job: Job, step: int, message: str, status: str = Job.Status.RUNNING,
              stage_item: dict[str, Any] | None = None) -> None:
    """Report a step: its English message, and the stage it is (code and params) for the page."""
    result = {k: v for k, v in (job.result or {}).items() if k != "stage"}
    if stage_item is not None:
        result["stage"] = stage_item
    Job.objects.filter(pk=job.pk).update(progress=step, message=message, status=status, result=result,
                                         updated_at=timezone.now())


def _stage(job: Job, step: int, item: dict[str, Any], status: str = Job.Status.RUNNING) -> None:
    _progress(job, step, item["message"], status=status, stage_item=item)


def round_generate(job_id: int) -> Job:
    """Run a seating job: build the request, call the engine, store the round as a draft.

    Safe to run again after a crash or a retry: the round's (event, number) and the job's
    key make a second run return the stored round.
    """
    job = Job.objects.select_related("event").get(pk=job_id)
    if job.status == Job.Status.DONE:
        return job
    Job.objects.filter(pk=job.pk).update(attempts=job.attempts + 1)
    event = job.event
    number = int(job.result.get("round", 0)) or next_round_number(event)
    _stage(job, 1, stage("building_request", f"building the seating request for round {number}", round=number))
    seed = round_seed(event, number)
    request = selectors.seating_request(event, number, seed)
    _stage(job, 2, stage("seating", "seating the players"))
    try:
        result = seat_round(request)
    except SeatingInvalid as exc:
        _stage(job, 2, refused_stage(exc.errors), status=Job.Status.FAILED)
        job.refresh_from_db()
        return job
    # The independent checker guards the engine: a round it refuses is never stored.
    violations = check_seating(request, result)
    if violations:
        _stage(job, 2, stage("check_failed", "the seating failed its check: " + "; ".join(
            v["message"] for v in violations), violations=violations), status=Job.Status.FAILED)
        job.refresh_from_db()
        return job
    try:
        rnd = round_store(
            event=event, number=number, seating_system=event.seating_system, seed=seed,
            tables=result["tables"], actor=job.created_by, generation_key=job.key,
            byes=result.get("byes", []), eliminated=result.get("eliminated", []),
            notes=result.get("notes", []), repeat_pairs=result.get("repeat_pairs", 0),
        )
    except (ServiceError, Conflict) as exc:
        _progress(job, 2, str(exc), status=Job.Status.FAILED)
        job.refresh_from_db()
        return job
    tables = rnd.tables.count()
    done = stage("done", f"round {rnd.number}: {tables} table{'' if tables == 1 else 's'}",
                 round=rnd.number, tables=tables)
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.DONE, progress=3, updated_at=timezone.now(), message=done["message"],
        result={"round": rnd.number, "round_id": rnd.pk, "tables": len(result["tables"]),
                "repeat_pairs": result.get("repeat_pairs", 0), "stage": done},
    )
    job.refresh_from_db()
    return job


@transaction.atomic
def round_close(*, rnd: Round, actor: Any) -> Round:
    """Close a round: every table must be confirmed, verified or annulled. Awards the table
    points of the points system and adds each player's score to the carried totals."""
    # The standings of every counted card are computed here, tens of thousands of objects that
    # die with the close: made with the collector on, they set off its passes over the whole
    # process (a close of 1,024 players took 80-90 ms, or 135-180 ms when a pass came), and
    # with it paused until they are gone they never count (tournaments.runtime.collector).
    return collector.run_paused(_round_close, rnd=rnd, actor=actor)


def _round_close(*, rnd: Round, actor: Any) -> Round:
    rights.require_organiser(actor, rnd.event)
    # The round's cards first, then its row, then the event's (through the refresh of the
    # carried totals below): the order a table's write takes them (its card, the round's row
    # that shows the cards' states, the event's at its audit entry), and a correction's (its
    # card, then the event's). Locked the other way, a table handing its card in while the
    # close waited for that card deadlocked with it. The cards locked, a change of one comes
    # wholly before the check below (and the close is refused) or after the close.
    # Their state and table number alone: the sheets' JSON of 256 cards read into models was
    # a tenth of a 1,024-player close.
    cards = list(Scorecard.objects.select_for_update(of=("self",)).filter(table__round_id=rnd.pk)
                 .select_related("table").only("pk", "status", "table__number").order_by("pk"))
    rnd = Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=rnd.pk)
    if rnd.status == Round.Status.CLOSED:
        raise ServiceError(_("the round is already closed"), field="round", code="round_closed")
    if rnd.status == Round.Status.DRAFT:
        raise ServiceError(_("publish the round before closing it"), field="round",
                           code="round_not_published")
    pending = [c.table.number for c in cards if not lifecycle.is_finished(c)]
    if pending:
        raise ServiceError(_("tables not yet confirmed: %(tables)s") % {
            "tables": ", ".join(map(str, sorted(pending)))}, field="tables", code="tables_pending")
    event = rnd.event
    # One update for all the confirmed cards, whatever the number of tables.
    Scorecard.objects.filter(pk__in=[c.pk for c in cards if c.status == Scorecard.Status.CONFIRMED]
                             ).update(status=Scorecard.Status.VERIFIED, updated_at=timezone.now(),
                                      verified_by=actor if getattr(actor, "is_authenticated", False) else None)
    rnd.status = Round.Status.CLOSED
    rnd.closed_at = timezone.now()
    rnd.save(update_fields=["status", "closed_at"])
    # What the round's cards give is added to the carried totals (after the event's row is
    # locked: carry_closed_round), and is the audit's record of what the round awarded. A later
    # round cannot be closed while this one is open (lifecycle), so this round is the last closed.
    awarded = {str(start): {"points": str(standings.to_decimal(points)), "score": str(score)}
               for start, (points, score) in sorted(
                   carry_closed_round(event, rnd.number, actor=actor).items())}
    audit.record(actor=actor, action="round.close", target=rnd, event=event, after=awarded)
    rounds = event.rounds.values_list("status", flat=True)
    event_status_follow(event, lifecycle.status_after_close(
        event, closed_rounds=sum(1 for s in rounds if s == Round.Status.CLOSED),
        open_rounds=sum(1 for s in rounds if s != Round.Status.CLOSED)), actor=actor)
    return rnd

