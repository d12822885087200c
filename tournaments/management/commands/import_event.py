"""`python manage.py import_event FILE` (FILE `-` for standard input): import an event archive
(docs/archive-format.md) in one transaction. Prints what was imported as JSON; a refused file
prints {"errors": [...]} (every problem, at its path) and exits with status 2, having
written nothing."""

from __future__ import annotations

import json
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from tournaments import archive
from tournaments.errors import ServiceError
from tournaments.models import Hand


class Command(BaseCommand):
    help = "Import an event archive (refused whole, with every problem listed, if anything is wrong)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path of the archive, or - for standard input")
        parser.add_argument("--actor", metavar="USERNAME",
                            help="the user the audit trail names as importer (default: the command)")

    def handle(self, *args, **options):
        try:
            actor = self._actor(options.get("actor"))
            doc = archive.loads(archive.read_file(options["file"]))
            event = archive.import_event(doc, actor=actor)
        except ServiceError as exc:
            self.stdout.write(json.dumps({"errors": exc.errors}, ensure_ascii=False, indent=2))
            sys.exit(2)
        self.stdout.write(json.dumps({
            "event": event.slug,
            "registrations": event.registrations.count(),
            "rounds": event.rounds.count(),
            "hands": Hand.objects.filter(scorecard__table__round__event=event).count(),
        }, ensure_ascii=False))

    @staticmethod
    def _actor(name):
        if not name:
            return "manage.py import_event"
        user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: name}).first()
        if user is None:
            raise ServiceError(_("there is no user %(name)r") % {"name": name}, field="actor",
                               code="not_found")
        return user
