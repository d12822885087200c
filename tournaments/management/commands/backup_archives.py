"""`python manage.py backup_archives DIR`: write every event, league season and cup series as an
archive into DIR/<UTC date-time>/ with a manifest of SHA-256 sums (docs/backups.md). Prints
the manifest as JSON; on a problem prints {"errors": [...]} and exits with status 2."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from tournaments import archive
from tournaments.errors import ServiceError


class Command(BaseCommand):
    help = "Write a dated folder of archives (one per event, season and cup series) with a manifest."

    def add_arguments(self, parser):
        parser.add_argument("directory", help="the folder that receives the dated backup folder")

    def handle(self, *args, **options):
        try:
            manifest = archive.write_backup(options["directory"])
        except ServiceError as exc:
            self.stdout.write(json.dumps({"errors": exc.errors}, ensure_ascii=False, indent=2))
            sys.exit(2)
        self.stdout.write(json.dumps(manifest, ensure_ascii=False, indent=2))
