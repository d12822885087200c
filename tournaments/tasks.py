"""Celery tasks of the tournaments app. Thin: they take ids, call a service and return.
Every task is idempotent, so a retry after a lost worker (late acknowledgement) is safe."""

from celery import shared_task

from tournaments import services_rounds


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2)
def generate_round(self, job_id: int) -> dict:
    job = services_rounds.round_generate(job_id)
    return {"job": job.pk, "status": job.status, "result": job.result}
