"""The public PDFs (seating list, standings, a filled scorecard) kept once rendered, so that
fifty phones opening the seating list at the start of a round cost one rendering, not fifty.

A PDF is stored in the default cache (the database cache table unless CACHE_URL says
otherwise, so every web machine shares it) under a key made of what its content depends on
(`tournaments.printing.public_pdfs` says which versions those are) and the language it is
written in. A change of any of them makes a new key; nothing has to be deleted, and the old
entries expire.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import caches
from django.utils import translation

# A day: long enough for a tournament day, short enough for superseded versions to go.
PDF_CACHE_SECONDS = 24 * 3600


def pdf_key(kind: str, parts: tuple, language: str) -> str:
    return ":".join(("pdf", kind, *(str(p) for p in parts), language))


def get(kind: str, parts: tuple, language: str) -> bytes | None:
    return caches["default"].get(pdf_key(kind, parts, language))


def keep(kind: str, parts: tuple, language: str, pdf: bytes) -> None:
    caches["default"].set(pdf_key(kind, parts, language), pdf, timeout=PDF_CACHE_SECONDS)


def cached_pdf(kind: str, parts: tuple, render: Callable[[], bytes],
               language: str | None = None) -> bytes:
    """The PDF of `kind` for these version `parts`: from the cache, or rendered and kept.
    `language` defaults to the reader's."""
    language = language or translation.get_language() or ""
    pdf = get(kind, parts, language)
    if pdf is None:
        pdf = render()
        keep(kind, parts, language, pdf)
    return pdf
