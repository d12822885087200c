"""Django app configuration of the rankings: it hears every audited change of an event (to
rate again), adds the rating and the statistics of his hands to a player's page and the
statistics page to an event's tabs."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def player_ratings(player):
    """The player's ratings with their plots, or None when he is rated nowhere."""
    from rankings.charts import rating_chart
    from rankings.selectors import player_ratings as ratings

    career = ratings(player)
    for entry in career:
        entry["chart"] = rating_chart(entry["steps"])
    return career or None


def player_statistics(player):
    """How the player plays, from the hands of the public events; None when nothing counts."""
    from rankings.statistics import player_statistics as statistics

    return statistics(player)


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = "Rankings"

    def ready(self) -> None:
        from rankings import services, tasks
        from tournaments import hooks
        from tournaments.runtime import jobs

        hooks.register_audit_listener(services.on_audit)
        hooks.register_player_section(hooks.PlayerSection(
            template="rankings/_player_ratings.html", build=player_ratings))
        hooks.register_player_section(hooks.PlayerSection(
            template="rankings/_player_statistics.html", build=player_statistics))
        hooks.register_event_tab(hooks.EventTab(
            url_name="event-statistics", label=_("Statistics"), tab="statistics"))
        # A rebuild left waiting by a broker outage is requeued like the tournaments' jobs.
        jobs.register_task(services.REBUILD_JOB, tasks.rebuild_ratings)
