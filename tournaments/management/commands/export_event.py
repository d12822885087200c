"""`python manage.py export_event SLUG FILE` (FILE `-` for standard output): write the event's
archive (docs/archive-format.md). Prints {"event", "file", "bytes", "sha256"} as JSON; on a
problem prints {"errors": [...]} and exits with status 2."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from tournaments import archive, selectors
from tournaments.errors import ServiceError


class Command(BaseCommand):
    help = "Write an event's archive (open JSON format, docs/archive-format.md)."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the event's slug")
        parser.add_argument("file", help="path of the archive to write, or - for standard output")

    def handle(self, *args, **options):
        event = selectors.event_by_slug(options["slug"])
        if event is None:
            self._fail([{"hand": None, "field": "slug", "code": "not_found",
                         "message": _("there is no event with the slug %(slug)r") % {"slug": options["slug"]}}])
        with archive.read_snapshot():
            text = archive.dumps(archive.export_event(event))
        if options["file"] == "-":
            self.stdout.write(text, ending="")
            return
        try:
            written = archive.write_file(options["file"], text)
        except ServiceError as exc:
            self._fail(exc.errors)
        self.stdout.write(json.dumps({"event": event.slug, **written}, ensure_ascii=False))

    def _fail(self, errors):
        self.stdout.write(json.dumps({"errors": errors}, ensure_ascii=False, indent=2))
        sys.exit(2)
