"""`python manage.py seed_demo`: load the demo events (idempotent: a second run changes
nothing)."""

from django.core.management.base import BaseCommand

from tournaments.demo import DEMOS


class Command(BaseCommand):
    help = "Load the demo events, leagues and cups. Running it again changes nothing."

    def handle(self, *args, **options):
        for slug, build in DEMOS:
            obj = build()
            self.stdout.write(f"{slug}: {obj}")
