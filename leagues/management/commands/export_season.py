"""`python manage.py export_season LEAGUE_SLUG SEASON_SLUG FILE` (FILE `-` for standard
output): write the season's archive, matchday events included (docs/archive-format.md).
Prints {"league", "season", "file", "bytes", "sha256"} as JSON; on a problem prints
{"errors": [...]} and exits with status 2."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from leagues import archive
from tournaments import archive as event_archive
from tournaments.errors import ServiceError


class Command(BaseCommand):
    help = "Write a league season's archive (open JSON format, docs/archive-format.md)."

    def add_arguments(self, parser):
        parser.add_argument("league", help="the league's slug")
        parser.add_argument("season", help="the season's slug")
        parser.add_argument("file", help="path of the archive to write, or - for standard output")

    def handle(self, *args, **options):
        season = archive.season_by_slugs(options["league"], options["season"])
        if season is None:
            self._fail([{"hand": None, "field": "season", "code": "not_found",
                         "message": _("league %(league)r has no season %(season)r") % {
                             "league": options["league"], "season": options["season"]}}])
        with event_archive.read_snapshot():
            text = event_archive.dumps(archive.export_season(season))
        if options["file"] == "-":
            self.stdout.write(text, ending="")
            return
        try:
            written = event_archive.write_file(options["file"], text)
        except ServiceError as exc:
            self._fail(exc.errors)
        self.stdout.write(json.dumps({"league": season.league.slug, "season": season.slug, **written},
                                     ensure_ascii=False))

    def _fail(self, errors):
        self.stdout.write(json.dumps({"errors": errors}, ensure_ascii=False, indent=2))
        sys.exit(2)
