"""Django app configuration of the rankings: it hears every audited change of an event (to
rate again) and adds the rating to a player's page."""

from django.apps import AppConfig


def player_ratings(player):
    """The player's ratings with their plots, or None when he is rated nowhere."""
    from rankings.charts import rating_chart
    from rankings.selectors import player_ratings as ratings

    career = ratings(player)
    for entry in career:
        entry["chart"] = rating_chart(entry["steps"])
    return career or None


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = "Rankings"

    def ready(self) -> None:
        from rankings import services, tasks
        from tournaments import hooks, jobs

        hooks.register_audit_listener(services.on_audit)
        hooks.register_player_section(hooks.PlayerSection(
            template="rankings/_player_ratings.html", build=player_ratings))
        # A rebuild left waiting by a broker outage is requeued like the tournaments' jobs.
        jobs.register_task(services.REBUILD_JOB, tasks.rebuild_ratings)
