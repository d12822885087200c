"""`manage.py ruleset_messages`: write tournaments/text/ruleset_messages.py again from the ruleset
registry, so that `makemessages` files every ruleset text a person sees in the catalogues."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from tournaments.text.ruleset_text import messages_module

TARGET = Path(__file__).resolve().parents[2] / "text" / "ruleset_messages.py"


class Command(BaseCommand):
    help = "Write tournaments/text/ruleset_messages.py from the ruleset registry."

    def handle(self, *args, **options):
        TARGET.write_text(messages_module(), encoding="utf-8")
        self.stdout.write(f"wrote {TARGET}")
