"""Django app configuration of the leagues app, and what it adds to the tournaments app:
league organisers create the events of their matchdays, a player's page shows his leagues
and cups, and his season memberships follow him when two records of him are merged."""

from django.apps import AppConfig


def organises_a_league(user) -> bool:
    return user.organised_leagues.exists()


def public_career(player):
    """The player's public leagues and cups, or None when he has none."""
    from leagues.selectors import player_career

    career = player_career(player)
    return career if career["leagues"] or career["cups"] else None


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues and cups"

    def ready(self) -> None:
        from leagues import merge, services, tasks
        from tournaments import hooks, jobs, rights

        rights.register_event_creators(organises_a_league)
        hooks.register_player_section(hooks.PlayerSection(
            template="leagues/_player_career.html", build=public_career))
        # A schedule job left waiting by a broker outage is requeued like the tournaments' jobs.
        jobs.register_task(services.SCHEDULE_JOB, tasks.generate_league_schedule)
        hooks.register_player_records(hooks.PlayerRecords(
            name="leagues", conflicts=merge.conflicts, move=merge.move, describe=merge.describe))
