"""Django app configuration of the rankings: it hears every audited change of an event (to
rate again) and adds the rating to a player's page."""

from django.apps import AppConfig


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = "Rankings"

    def ready(self) -> None:
        from rankings import services, tasks
        from tournaments import hooks, jobs

        hooks.register_audit_listener(services.on_audit)
        # A rebuild left waiting by a broker outage is requeued like the tournaments' jobs.
        jobs.register_task(services.REBUILD_JOB, tasks.rebuild_ratings)
