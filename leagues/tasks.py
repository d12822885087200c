"""Celery tasks of the leagues app: thin wrappers that take a job id and call a service."""

from __future__ import annotations

from celery import shared_task

from leagues import services


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2)
def generate_league_schedule(self, job_id: int) -> dict:
    """Draw a season's schedule (leagues.services.schedule_job_run)."""
    job = services.schedule_job_run(job_id)
    return {"job": job.pk, "status": job.status}
