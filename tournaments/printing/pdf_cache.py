"""The public PDFs (seating list, standings, a filled scorecard) kept once rendered, so that
fifty phones opening the seating list at the start of a round cost one rendering, not fifty.

A PDF is stored in the default cache (the database cache table unless CACHE_URL says
otherwise, so every web machine shares it) under a key made of what its content depends on:
the event's results version, the round's seating version, the card's version, the reader's
language. A change of any of them makes a new key; nothing has to be deleted, and the old
entries expire.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import caches
from django.utils import translation

# A day: long enough for a tournament day, short enough for superseded versions to go.
PDF_CACHE_SECONDS = 24 * 3600


def cached_pdf(kind: str, parts: tuple, render: Callable[[], bytes]) -> bytes:
    """The PDF of `kind` for these version `parts`: from the cache, or rendered and kept."""
    key = ":".join(("pdf", kind, *(str(p) for p in parts), translation.get_language() or ""))
    cache = caches["default"]
    pdf = cache.get(key)
    if pdf is None:
        pdf = render()
        cache.set(key, pdf, timeout=PDF_CACHE_SECONDS)
    return pdf
