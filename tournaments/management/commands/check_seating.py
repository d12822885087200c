"""`python manage.py check_seating FILE` (or `-`): take {"request": ..., "result": ...} and say
whether the result obeys the system's rules, listing every violation. Exit 0 when it does,
1 when it does not (2 when the input cannot be read)."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from tournaments.management.commands._json_input import InputError, read_json
from tournaments.seating.checker import check_seating


class Command(BaseCommand):
    help = "Check a seating result against its request: {\"request\": ..., \"result\": ...}."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path of the JSON document, or - for standard input")

    def handle(self, *args, **options):
        try:
            doc = read_json(options["file"])
        except InputError as exc:
            self.stdout.write(json.dumps({"errors": [exc.error]}, indent=2))
            sys.exit(2)
        if not isinstance(doc, dict) or "request" not in doc or "result" not in doc:
            self.stdout.write(json.dumps({"errors": [{
                "player": None, "field": "document", "code": "missing",
                "message": 'give an object {"request": ..., "result": ...}'}]}, indent=2))
            sys.exit(2)
        violations = check_seating(doc["request"], doc["result"])
        self.stdout.write(json.dumps({"valid": not violations, "violations": violations},
                                     ensure_ascii=False, indent=2))
        sys.exit(1 if violations else 0)
