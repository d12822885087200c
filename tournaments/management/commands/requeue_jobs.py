"""`manage.py requeue_jobs`: hand every job still waiting in the QUEUED state to the task queue
again, the recovery after a broker outage, and every stale RUNNING job too (its worker died:
no progress for JOB_STALE_AFTER_SECONDS), see tournaments.runtime.jobs and docs/deploy.md.

Safe to run at any time and as often as wanted (cron, a deploy hook, by hand): the tasks are
idempotent, so a job whose first message did arrive runs once in effect."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments.runtime import jobs


class Command(BaseCommand):
    help = ("Publish again every QUEUED job that has waited longer than --older-than seconds, "
            "and every RUNNING job whose worker stopped reporting.")

    def add_arguments(self, parser):
        parser.add_argument(
            "--older-than", type=float, default=None,
            help="only jobs queued (or last published) at least this many seconds ago "
                 f"(default: the setting JOB_REQUEUE_AFTER_SECONDS, {jobs.DEFAULT_REQUEUE_AFTER_SECONDS})")

    def handle(self, *args, older_than=None, **options):
        if older_than is not None and older_than < 0:
            raise CommandError("--older-than must not be negative")
        outcome = jobs.requeue_waiting(older_than)
        published, unavailable = outcome["published"], outcome["unavailable"]
        self.stdout.write(f"published {len(published)} job(s)"
                          + (f": {', '.join(map(str, published))}" if published else ""))
        if unavailable:
            # Non-zero exit so a cron job or deploy hook notices the queue is still away.
            raise CommandError("the task queue is unavailable; still waiting: "
                               + ", ".join(map(str, unavailable)))
