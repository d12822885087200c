"""`python manage.py score FILE` (or `-` for standard input): score a scorecard and print the
result as JSON; on invalid input print {"errors": [...]} and exit with status 2."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from scoring import ScorecardInvalid, evaluate
from tournaments.domain.limits import JsonRefused, load_json


class Command(BaseCommand):
    help = "Score a scorecard (JSON file, or - for standard input) and print the result as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path of the scorecard JSON, or - for standard input")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            # A file is read as bytes, so that one that is not UTF-8 is refused by load_json
            # (not_utf8) instead of failing with a traceback.
            text = sys.stdin.read() if path == "-" else open(path, "rb").read()
        except OSError as exc:
            self._fail([{"hand": None, "field": "file", "code": "unreadable",
                         "message": _("cannot read %(path)s: %(reason)s") % {"path": path, "reason": exc.strerror}}])
        except UnicodeDecodeError:
            # standard input decoded by the terminal's encoding
            self._fail([{"hand": None, "field": "scorecard", "code": "not_utf8",
                         "message": _("%(field)s is not UTF-8 text") % {"field": "scorecard"}}])
        try:
            # The limits of every JSON input: nesting depth, NUL, NaN (tournaments.domain.limits).
            card = load_json(text, field="scorecard")
        except JsonRefused as exc:
            self._fail(exc.errors)
        try:
            result = evaluate(card)
        except ScorecardInvalid as exc:
            self._fail(exc.errors)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))

    def _fail(self, errors):
        self.stdout.write(json.dumps({"errors": errors}, ensure_ascii=False, indent=2))
        sys.exit(2)
