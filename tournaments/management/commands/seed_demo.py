"""`python manage.py seed_demo`: load the demo events (idempotent: a second run changes
nothing). Each app registers its demos in its AppConfig.ready() (`tournaments.hooks.register_demos`),
so this command imports no app above tournaments."""

from django.core.management.base import BaseCommand

from tournaments import hooks


class Command(BaseCommand):
    help = "Load the demo events, leagues and cups. Running it again changes nothing."

    def handle(self, *args, **options):
        for slug, build in hooks.demos():
            obj = build()
            self.stdout.write(f"{slug}: {obj}")
