"""`python manage.py venue ...` on a venue's laptop (docs/venue.md):

- `venue take SERVER SLUG --token TOKEN [--holder NAME] [--actor USERNAME]`: take the event
  from the federation's server (an organiser's API token there); the server then shows it
  read-only and this laptop writes it.
- `venue push SLUG`: send the event's state to the server (repeat it as often as you like:
  a state the server has changes nothing there). `venue push SLUG --every 10` keeps pushing
  every 10 seconds while something changed, and says when the line is down or back.
- `venue return SLUG`: send the last state and give the event back to the server.
- `venue status SLUG`: where the event goes, the version the server acknowledged, the last
  problem.

Each prints what happened as JSON; a refusal exits with status 2."""

from __future__ import annotations

import json
import sys
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.errors import ServiceError
from tournaments.models import VenueHold
from tournaments.venue import client


class Command(BaseCommand):
    help = "Run an event at a venue: take it from the federation's server, push it, hand it back."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        take = sub.add_parser("take", help="take an event from the federation's server")
        take.add_argument("server", help="the server's address, e.g. https://tarok.example.org")
        take.add_argument("slug")
        take.add_argument("--token", required=True, help="an organiser's API token on the server")
        take.add_argument("--holder", default="", help="a name for this laptop, shown on the server")
        take.add_argument("--actor", metavar="USERNAME", help="the user this laptop's trail names")
        push = sub.add_parser("push", help="send the event's state to the server")
        push.add_argument("slug")
        push.add_argument("--every", type=int, default=0, metavar="SECONDS",
                          help="keep pushing every SECONDS while something changed")
        back = sub.add_parser("return", help="send the last state and give the event back")
        back.add_argument("slug")
        status = sub.add_parser("status", help="the hold of an event taken from a server")
        status.add_argument("slug")

    def handle(self, *args, **options):
        try:
            answer = getattr(self, f"_{options['action']}")(options)
        except ServiceError as exc:
            self._print({"errors": exc.errors})
            sys.exit(2)
        self._print(answer)
        if isinstance(answer, dict) and answer.get("ok") is False:
            sys.exit(2)

    def _print(self, value):
        self.stdout.write(json.dumps(value, ensure_ascii=False, indent=2, default=str))

    def _event(self, slug):
        event = selectors.event_by_slug(slug)
        if event is None:
            raise CommandError(_("No such event."))
        return event

    def _take(self, options):
        actor = "manage.py venue take"
        if options.get("actor"):
            actor = get_user_model().objects.filter(username=options["actor"]).first()
            if actor is None:
                raise CommandError(_("no user %(name)s") % {"name": options["actor"]})
        event = client.take(server_url=options["server"], slug=options["slug"],
                            token=options["token"], actor=actor, holder=options["holder"])
        return {"ok": True, "event": event.slug, "registrations": event.registrations.count()}

    def _push(self, options):
        event = self._event(options["slug"])
        if not options["every"]:
            return client.push(event)
        sent = None
        while True:  # until interrupted, or the event went back to the server
            version = client.state_version(event)
            if version != sent:
                answer = client.push(event)
                self._print(answer)
                if answer["ok"]:
                    sent = version
                elif VenueHold.objects.filter(event=event, revoked_at__isnull=False).exists():
                    return answer
            time.sleep(options["every"])

    def _return(self, options):
        return client.hand_back(self._event(options["slug"]))

    def _status(self, options):
        hold = VenueHold.objects.filter(event=self._event(options["slug"])).first()
        if hold is None:
            return {"held": False}
        return {"side": hold.side, "server": hold.server_url, "version": hold.version,
                "last_push_at": hold.last_push_at, "last_error": hold.last_error,
                "went_back_at": hold.revoked_at}
