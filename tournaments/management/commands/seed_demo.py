"""`python manage.py seed_demo`: load the demo events (idempotent: a second run changes
nothing)."""

import importlib
import importlib.util

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Load the demo events, leagues and cups. Running it again changes nothing."

    # Each app that has demo data lists it as DEMOS = [(slug, builder), ...] in its demo module.
    demo_modules = ("tournaments.demo", "leagues.demo")

    def handle(self, *args, **options):
        demos = []
        for name in self.demo_modules:
            if importlib.util.find_spec(name) is not None:
                demos.extend(importlib.import_module(name).DEMOS)
        for slug, build in demos:
            obj = build()
            self.stdout.write(f"{slug}: {obj}")
