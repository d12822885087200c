"""`python manage.py export_cup CUP_SLUG FILE` (FILE `-` for standard output): write a cup
series' archive, its tournaments named by slug (docs/archive-format.md). Prints {"cup",
"file", "bytes", "sha256"} as JSON; on a problem prints {"errors": [...]} and exits with
status 2."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from leagues import archive_cups as archive
from tournaments import archive as event_archive
from tournaments.errors import ServiceError


class Command(BaseCommand):
    help = "Write a cup series' archive (open JSON format, docs/archive-format.md)."

    def add_arguments(self, parser):
        parser.add_argument("cup", help="the cup series' slug")
        parser.add_argument("file", help="path of the archive to write, or - for standard output")

    def handle(self, *args, **options):
        series = archive.cup_by_slug(options["cup"])
        if series is None:
            self._fail([{"hand": None, "field": "cup", "code": "not_found",
                         "message": _("there is no cup series %(cup)r") % {"cup": options["cup"]}}])
        with event_archive.read_snapshot():
            text = event_archive.dumps(archive.export_cup(series))
        if options["file"] == "-":
            self.stdout.write(text, ending="")
            return
        try:
            written = event_archive.write_file(options["file"], text)
        except ServiceError as exc:
            self._fail(exc.errors)
        self.stdout.write(json.dumps({"cup": series.slug, **written},
                                     ensure_ascii=False))

    def _fail(self, errors):
        self.stdout.write(json.dumps({"errors": errors}, ensure_ascii=False, indent=2))
        sys.exit(2)
