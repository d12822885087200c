"""The address part (slug) made from a name when the organiser gives none: for events,
leagues, seasons and cups, in forms and services alike.

Django's slugify drops a slash, so a season "2026/27" became "202627"; a slash or backslash
separates words here ("2026-27")."""

from __future__ import annotations

import re

from django.utils.text import slugify


def address_part(name: str, max_length: int = 100) -> str:
    """The address part of `name` (lower case letters, digits and dashes), at most
    `max_length` characters, not ending in a dash; "" when nothing of the name is left."""
    return slugify(re.sub(r"[/\\]+", " ", str(name or "")))[:max_length].strip("-")
