"""`python manage.py import_season FILE` (FILE `-` for standard input): import a season
archive (docs/archive-format.md) in one transaction, creating the league when this database
has none of its slug. Prints what was imported as JSON; a refused file prints
{"errors": [...]} (every problem, at its path) and exits with status 2, having written
nothing."""

from __future__ import annotations

import json
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from leagues import archive
from tournaments import archive as event_archive
from tournaments.errors import ServiceError


class Command(BaseCommand):
    help = "Import a league season's archive (refused whole, with every problem listed, if anything is wrong)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path of the archive, or - for standard input")
        parser.add_argument("--actor", metavar="USERNAME",
                            help="the user the audit trail names as importer (default: the command)")

    def handle(self, *args, **options):
        try:
            actor = self._actor(options.get("actor"))
            doc = event_archive.loads(event_archive.read_file(options["file"]))
            season = archive.import_season(doc, actor=actor)
        except ServiceError as exc:
            self.stdout.write(json.dumps({"errors": exc.errors}, ensure_ascii=False, indent=2))
            sys.exit(2)
        self.stdout.write(json.dumps({
            "league": season.league.slug,
            "season": season.slug,
            "divisions": season.divisions.count(),
            "members": season.memberships.count(),
            "matchdays": [md.event.slug for md in season.matchdays.select_related("event").order_by("number")],
        }, ensure_ascii=False))

    @staticmethod
    def _actor(name):
        if not name:
            return "manage.py import_season"
        user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: name}).first()
        if user is None:
            raise ServiceError(_("there is no user %(name)r") % {"name": name}, field="actor",
                               code="not_found")
        return user
