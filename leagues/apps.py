"""Django app configuration of the leagues app, and what it adds to the tournaments app:
league organisers create and organise the events of their matchdays, the organiser's
dashboard lists his leagues and cups, a player's page shows his leagues
and cups, and his season memberships follow him when two records of him are merged."""

from django.apps import AppConfig


def organises_a_league(user) -> bool:
    return user.organised_leagues.exists()


def public_career(player):
    """The player's public leagues and cups, or None when he has none."""
    from leagues.careers import player_career

    career = player_career(player)
    return career if career["leagues"] or career["cups"] else None


def dashboard_section(user):
    """The leagues and cups a user organises, on his organiser dashboard."""
    from leagues import roles
    from leagues.selectors import cups_organised_by, leagues_organised_by

    leagues, cups = list(leagues_organised_by(user)), list(cups_organised_by(user))
    if not leagues and not cups and not roles.can_create(user):
        return None
    return {"leagues": leagues, "cups": cups, "can_create": roles.can_create(user)}


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues and cups"

    def ready(self) -> None:
        from leagues import archive, archive_cups, demo, merge, roles, services, tasks
        from tournaments import hooks
        from tournaments.domain import rights
        from tournaments.runtime import jobs

        rights.register_event_creators(organises_a_league)
        hooks.register_demos(demo.DEMOS)
        rights.register_event_organisers(roles.organises_matchday)
        rights.register_organised_events(roles.matchday_events_q)
        rights.register_player_visibility(roles.players_seen_in_leagues_q)
        rights.register_player_places(roles.league_places)
        hooks.register_dashboard_section(hooks.DashboardSection(
            template="leagues/manage/_dashboard.html", build=dashboard_section))
        hooks.register_player_section(hooks.PlayerSection(
            template="leagues/_player_career.html", build=public_career))
        # A schedule job left waiting by a broker outage is requeued like the tournaments' jobs.
        jobs.register_task(services.SCHEDULE_JOB, tasks.generate_league_schedule)
        hooks.register_player_records(hooks.PlayerRecords(
            name="leagues", conflicts=merge.conflicts, move=merge.move, describe=merge.describe))
        hooks.register_backup_provider(hooks.BackupProvider(
            name="leagues", documents=archive.backup_documents,
            events_covered=archive.events_in_backup_documents))
        hooks.register_backup_provider(hooks.BackupProvider(
            name="leagues.cups", documents=archive_cups.backup_documents, events_covered=set,
            after_events=True))
