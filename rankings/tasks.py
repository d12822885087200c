"""Celery tasks of the rankings. Thin: they take a job's id and call the service; rebuilding a
family's ratings is idempotent, so a retry after a lost worker is safe."""

from celery import shared_task

from rankings import services


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2)
def rebuild_ratings(self, job_id: int) -> dict:
    job = services.run_rebuild_job(job_id)
    return {"job": job.pk, "status": job.status, "result": job.result}
