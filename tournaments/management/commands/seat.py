"""`python manage.py seat FILE` (or `-`): run the seating engine on a request of the seating
contract and print the result as JSON; on invalid input print {"errors": [...]}, exit 2."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from tournaments.management.commands._json_input import InputError, read_json
from tournaments.seating import SeatingInvalid, seat_round


class Command(BaseCommand):
    help = "Seat a round (seating contract request as JSON file, or - for standard input)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path of the request JSON, or - for standard input")

    def handle(self, *args, **options):
        try:
            result = seat_round(read_json(options["file"]))
        except InputError as exc:
            self._fail([exc.error])
        except SeatingInvalid as exc:
            self._fail(exc.errors)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))

    def _fail(self, errors):
        self.stdout.write(json.dumps({"errors": errors}, ensure_ascii=False, indent=2))
        sys.exit(2)
