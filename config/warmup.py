"""Readying a web process before its first request.

A fresh gunicorn worker spent about 1.5 s on its first request of a page: importing the views
behind the URL patterns, building the resolver's table of URL names, compiling the page's
templates and loading a language's catalogue; a table's first live check of a hand also
imported the scoring engine's rulesets (some 35 ms).
At the start of a tournament day every table opens its link within the same seconds, and each
of the four workers paid that on the phones' first requests (the load run's p95 of the first
10 s, docs/performance.md). `warm_up` does that work once when the process starts
(config/wsgi.py), so the first phones are served as fast as the later ones.
"""

from __future__ import annotations

import logging
from pathlib import Path

from django.conf import settings
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.urls import get_resolver, reverse
from django.utils import translation

from scoring import rules

logger = logging.getLogger(__name__)


def page_templates() -> list[str]:
    """The names of the project's page templates (templates/**.html)."""
    names = []
    for folder in settings.TEMPLATES[0]["DIRS"]:
        root = Path(folder)
        names += sorted(str(path.relative_to(root)) for path in root.rglob("*.html"))
    return names


def warm_up() -> int:
    """Import every view and every ruleset of the scoring engine, build the URL names of
    every language, compile every page template into the cached loader and load every
    language's catalogue. Returns the number of templates compiled."""
    get_resolver().url_patterns  # noqa: B018 - imports the views behind every pattern
    rules.all_rulesets()  # the registry imports its families on first use
    compiled = 0
    for name in page_templates():
        try:
            get_template(name)
            compiled += 1
        except (TemplateDoesNotExist, TemplateSyntaxError):
            # A broken template fails its page as before; it must not stop the server.
            logger.exception("template %s could not be compiled at start", name)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Standings")
            # The resolver builds its table of names on the first reverse, per language.
            reverse("healthz")
    return compiled
