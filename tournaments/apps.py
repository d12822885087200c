"""Django app configuration of the tournaments app: registers the `num` path converter
(tournaments.pages.converters) and the Celery task of each of its job kinds (tournaments.runtime.jobs), and,
after every `migrate`, creates the database cache table that
the default settings use (config/settings.py, CACHES)."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.urls import register_converter


def _create_cache_table(sender, using="default", **kwargs):
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from tournaments import demo, hooks, printing, tasks
        from tournaments.pages.converters import NumberConverter
        from tournaments.printing import public_pdfs
        from tournaments.runtime import jobs
        from tournaments.services import messages, round_jobs
        from tournaments.venue import pusher

        register_converter(NumberConverter, "num")
        jobs.register_task(round_jobs.SEAT_JOB, tasks.generate_round)
        jobs.register_task(printing.SHEETS_JOB, tasks.render_round_sheets)
        jobs.register_task(printing.SHEETS_PART_TASK, tasks.render_round_sheets_part)
        jobs.register_task(printing.PUBLIC_PDF_JOB, tasks.render_public_pdf)
        jobs.register_task(messages.MESSAGES_JOB, tasks.send_messages)
        hooks.register_results_listener(public_pdfs.refresh_after_commit)
        hooks.register_held_event_listener(pusher.after_change)
        hooks.register_demos(demo.DEMOS)
        post_migrate.connect(_create_cache_table, sender=self,
                             dispatch_uid="tournaments.create_cache_table")
