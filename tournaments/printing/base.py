"""The one way a printout becomes PDF bytes: a template of `templates/pdf/` rendered in a
given language, laid out by WeasyPrint with the guarded fetcher (data URIs and the DejaVu font
files only, tournaments.printing.fetch), and written with its title.

Every printout comes here: the event's (tournaments.printing.render) and the leagues' and
cups' (leagues.pdf). The language is an argument rather than whatever is active, so that a
printout rendered by a worker or a command reads like the one rendered in a request.

This module imports WeasyPrint; the pages import it only inside the views that render, so a
web process loads WeasyPrint with its first printout, not at start.
"""

from __future__ import annotations

import weasyprint
from django.template.loader import render_to_string
from django.utils import translation
from weasyprint.text.fonts import FontConfiguration

from tournaments.printing import child_process
from tournaments.printing.fetch import PrintFetcher
from tournaments.runtime import collector


def html(template: str, context: dict, language: str) -> str:
    """The template rendered in `language` (English when none is given)."""
    with translation.override(language or "en"):
        return render_to_string(template, context)


def document(markup: str, font_config: FontConfiguration | None = None,
             stylesheet: weasyprint.CSS | None = None) -> weasyprint.Document:
    """The markup laid out, reading nothing but what PrintFetcher allows."""
    return weasyprint.HTML(string=markup, url_fetcher=PrintFetcher()).render(
        font_config=font_config or FontConfiguration(),
        stylesheets=[stylesheet] if stylesheet else None)


def write(documents: list[weasyprint.Document], title: str,
          pages: list[weasyprint.Page] | None = None) -> bytes:
    """The documents' pages, or the given `pages` of them, as one PDF titled `title`."""
    if pages is None:
        pages = [page for doc in documents for page in doc.pages]
    combined = documents[0].copy(pages)
    combined.metadata.title = title
    return combined.write_pdf()


def html_to_pdf(template: str, context: dict, *, language: str, title: str,
                in_child_process: bool = False) -> bytes:
    """One printout from one template: rendered in `language`, laid out and written; with
    `in_child_process` laid out and written by a child process (tournaments.printing.
    child_process), the template rendered here first, where the database is."""
    markup = html(template, context, language)
    if in_child_process:
        return child_process.run(lambda told: _laid_out(markup, title))
    return _laid_out(markup, title)


def _laid_out(markup: str, title: str) -> bytes:
    # A long list's boxes live until it is written, and the collector walked them again and
    # again while it was laid out: a quarter of the time (the peak memory a few MB more,
    # docs/performance.md). They are garbage in cycles afterwards, which the collector's next
    # pass walks once more (a sixth of a list at 1,024 players): a child process that ends
    # without freeing them spares that.
    with collector.paused():
        return write([document(markup)], title)
