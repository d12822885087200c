"""`manage.py rebuild_ratings [--family F]`: recompute the ratings from the results (all game
families, or one), printing what changed. Runs as the system; safe to run any time."""

from django.core.management.base import BaseCommand, CommandError

import scoring.rules
from rankings import services


class Command(BaseCommand):
    help = "Recompute every player's rating from the confirmed tables of rated public events."

    def add_arguments(self, parser):
        parser.add_argument("--family", choices=scoring.rules.families(),
                            help="only this game family")

    def handle(self, *args, **options):
        families = [options["family"]] if options["family"] else scoring.rules.families()
        for family in families:
            try:
                counts = services.ratings_rebuild(family)
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(
                f"{family}: {counts['players']} players, {counts['tables']} tables in "
                f"{counts['events']} events; history {counts['created']} new, "
                f"{counts['changed']} changed, {counts['deleted']} removed; ratings "
                f"{counts['ratings_created']} new, {counts['ratings_changed']} changed, "
                f"{counts['ratings_deleted']} removed")
