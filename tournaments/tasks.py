"""Celery tasks of the tournaments app. Thin: they take ids, call a service and return.
Every task is idempotent, so a retry after a lost worker (late acknowledgement) is safe."""

from celery import shared_task

from tournaments.printing import public_pdfs
from tournaments.services import messages, round_jobs


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2)
def generate_round(self, job_id: int) -> dict:
    job = round_jobs.round_generate(job_id)
    return {"job": job.pk, "status": job.status, "result": job.result}


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2)
def render_round_sheets(self, job_id: int) -> dict:
    """Render every table sheet of a round into the stored PDF (tournaments.printing)."""
    # Imported here so that a worker loads WeasyPrint only when it renders sheets.
    from tournaments.printing import services as printing

    job = printing.round_sheets_render(job_id)
    return {"job": job.pk, "status": job.status, "result": job.result}


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2)
def render_round_sheets_part(self, job_id: int, part: int) -> dict:
    """Render one part of a round's sheets; the last part stored joins them."""
    from tournaments.printing import services as printing

    job = printing.round_sheets_render_part(job_id, part)
    return {"job": job.pk, "part": part, "status": job.status}


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2)
def render_public_pdf(self, job_id: int) -> dict:
    """Render one version of a public PDF (seating list, standings) into the cache."""
    job = public_pdfs.public_pdf_render(job_id)
    return {"job": job.pk, "status": job.status}


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2)
def send_messages(self, job_id: int) -> dict:
    """Send a job's e-mails to players (tournaments.services.messages)."""
    job = messages.messages_send(job_id)
    return {"job": job.pk, "status": job.status}


@shared_task(bind=True, acks_late=True, max_retries=None)
def venue_push(self, event_id: int) -> dict:
    """A venue laptop's push of an event it holds (tournaments.venue.pusher); again after
    VENUE_PUSH_RETRY seconds while the server cannot be reached."""
    from django.conf import settings

    from tournaments.venue import pusher

    if not pusher.push_once(event_id):
        raise self.retry(countdown=settings.VENUE_PUSH_RETRY)
    return {"event_id": event_id}
