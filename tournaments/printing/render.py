"""Rendering of the printouts: Django templates in `templates/pdf/` turned into PDF bytes by
WeasyPrint, in the event's language (`Event.language`) so the headings are the ones the
players read; the Czech money sheet keeps its three languages whatever the event's language.

WeasyPrint fetches nothing from the network: the sheets carry their QR codes as data URIs and
the only files they read are the DejaVu fonts of Debian's fonts-dejavu-core, so a name typed
into a registration can never make the server fetch a URL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import weasyprint
from django.template.loader import render_to_string
from django.utils import timezone, translation
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

from tournaments import collector
from tournaments.models import Event, Round
from tournaments.printing import child_process, grid, selectors
from tournaments.printing.catalogue import DRAWING_LABELS
from tournaments.printing.selectors import MONEY, POINTS, SCHRIFT, TRI1

FONT_DIR = "/usr/share/fonts/truetype/dejavu/"

SHEET_TEMPLATES = {
    MONEY: "pdf/money_sheet.html",
    TRI1: "pdf/score_sheet.html",
    SCHRIFT: "pdf/schrift_sheet.html",
    POINTS: "pdf/score_sheet.html",
}
# The styles of each sheet: its template includes them when it is rendered alone; a round's
# sheets share one parsed copy instead (see `sheets_pdf`).
SHEET_STYLES = {
    MONEY: "pdf/money_sheet.css",
    TRI1: "pdf/score_sheet.css",
    SCHRIFT: "pdf/schrift_sheet.css",
    POINTS: "pdf/score_sheet.css",
}


class _SheetFetcher(URLFetcher):
    """Lets WeasyPrint read data URIs and the DejaVu font files, and nothing else."""

    def fetch(self, url, headers=None):
        if url.startswith("data:") or url.startswith("file://" + FONT_DIR):
            return super().fetch(url, headers)
        raise ValueError(f"the printouts fetch no external resources ({url[:80]})")


def _printed_at(event: Event) -> str:
    return timezone.localtime(timezone.now(), event.tz).strftime("%Y-%m-%d %H:%M")


def _html(template: str, context: dict, language: str) -> str:
    with translation.override(language or "en"):
        return render_to_string(template, context)


def _document(html: str, font_config: FontConfiguration,
              stylesheet: weasyprint.CSS | None = None) -> weasyprint.Document:
    return weasyprint.HTML(string=html, url_fetcher=_SheetFetcher()).render(
        font_config=font_config, stylesheets=[stylesheet] if stylesheet else None)


def _pdf(documents: list[weasyprint.Document], title: str) -> bytes:
    pages = [page for doc in documents for page in doc.pages]
    combined = documents[0].copy(pages)
    combined.metadata.title = title
    return combined.write_pdf()


def _base_context(event: Event) -> dict:
    return {"event": event, "printed_at": _printed_at(event), "language": event.language or "en"}


# ---------------------------------------------------------------------------------------
# Table sheets
# ---------------------------------------------------------------------------------------

# Row heights of the ruled grids: as tall as one A4 page allows under the header, the players'
# heads, the instructions and the signatures (24 games of TRI + 1, 16 or 20 of the Schrift).
SCORE_ROWS_MM = 172.8
SCHRIFT_ROWS_MM = 152.0


def _grid(sheet: selectors.TableSheet) -> grid.Grid | None:
    hands = max(sheet.hands, 1)
    if sheet.kind == SCHRIFT:
        return grid.schrift_grid(sheet, row_mm=min(7.6, SCHRIFT_ROWS_MM / hands), foot_mm=8.5,
                                 sum_label=str(DRAWING_LABELS["sum"]),
                                 balance_label=str(DRAWING_LABELS["balance"]))
    if sheet.kind in (TRI1, POINTS):
        return grid.score_grid(sheet, row_mm=min(7.2, SCORE_ROWS_MM / hands), total_mm=8.5,
                               total_label=str(DRAWING_LABELS["total"]))
    return None


# A round's sheets are laid out this many to a WeasyPrint document: one document per sheet
# paid a document's own setup and its garbage for every table, a seventh of a round
# (docs/performance.md); the progress is told after each document.
SHEETS_PER_DOCUMENT = 16


@dataclass(frozen=True)
class SheetPage:
    """A sheet with its ruled grid (none on the money sheet), as the templates get it."""
    sheet: selectors.TableSheet
    grid: grid.Grid | None


def sheets_html(sheets: list[selectors.TableSheet], *, shared_style: bool = False) -> str:
    """The HTML of sheets of one kind as one document, each sheet beginning a page; with
    `shared_style` without its <style>, which the caller then gives WeasyPrint parsed."""
    first = sheets[0]
    event = first.event
    title = (f"{event.name} – {first.round_number}/{first.table_number}" if len(sheets) == 1
             else f"{event.name} – {first.round_number}")
    with translation.override(event.language or "en"):
        context = {**_base_context(event), "title": title, "shared_style": shared_style,
                   "template": SHEET_TEMPLATES[first.kind],
                   "style_template": SHEET_STYLES[first.kind],
                   "pages": [SheetPage(sheet=sheet, grid=_grid(sheet)) for sheet in sheets]}
        return render_to_string("pdf/table_sheets.html", context)


def sheet_html(sheet: selectors.TableSheet, *, shared_style: bool = False) -> str:
    """One sheet's HTML, as a document of its own."""
    return sheets_html([sheet], shared_style=shared_style)


def _sheet_stylesheet(kind: str, font_config: FontConfiguration) -> weasyprint.CSS:
    css = (render_to_string("pdf/base.css") + render_to_string("pdf/table_sheets.css")
           + render_to_string(SHEET_STYLES[kind]))
    return weasyprint.CSS(string=css, font_config=font_config, url_fetcher=_SheetFetcher())


def _batches(sheets: Iterable[selectors.TableSheet]) -> Iterator[list[selectors.TableSheet]]:
    """The sheets in order, at most SHEETS_PER_DOCUMENT to a batch and one kind per batch."""
    batch: list[selectors.TableSheet] = []
    for sheet in sheets:
        if batch and (len(batch) == SHEETS_PER_DOCUMENT or batch[0].kind != sheet.kind):
            yield batch
            batch = []
        batch.append(sheet)
    if batch:
        yield batch


def sheets_pdf(sheets: Iterable[selectors.TableSheet], *, title: str,
               progress: Callable[[int], None] | None = None) -> bytes:
    """One PDF of the given sheets, each beginning a page; `progress(n)` with the number of
    sheets laid out so far, after each batch of them.

    The stylesheet is parsed once per kind of sheet (parsing it for every table was an
    eighth of a round), and the sheets are laid out in batches of SHEETS_PER_DOCUMENT."""
    font_config = FontConfiguration()
    stylesheets: dict[str, weasyprint.CSS] = {}
    documents = []
    done = 0
    # The laid-out sheets stay alive until the PDF is written, some 3 MB of small objects
    # each, and the collector's passes over them were a fifth of a large round. Laid out in
    # batches, they leave next to no garbage in cycles (docs/performance.md), so the
    # collector is simply paused until the PDF is written.
    with collector.paused():
        for batch in _batches(sheets):
            kind = batch[0].kind
            if kind not in stylesheets:
                stylesheets[kind] = _sheet_stylesheet(kind, font_config)
            documents.append(_document(sheets_html(batch, shared_style=True), font_config,
                                       stylesheets[kind]))
            done += len(batch)
            if progress is not None:
                progress(done)
        if not documents:
            raise ValueError("no tables to print")
        return _pdf(documents, title)


def round_sheets_title(rnd: Round) -> str:
    return f"{rnd.event.name} – {rnd.number}"


def round_sheets_pdf(rnd: Round, base_url: str, *, part: slice | None = None,
                     progress: Callable[[int], None] | None = None,
                     in_child_process: bool = False) -> bytes:
    """The sheets of the round's tables (those at the positions `part`, or all) as one PDF;
    with `in_child_process` laid out by a child process (tournaments.printing.child_process),
    the sheets' data read here first."""
    sheets = selectors.table_sheets(rnd, base_url, part=part)
    title = round_sheets_title(rnd)
    if in_child_process:
        return child_process.run(lambda told: sheets_pdf(sheets, title=title, progress=told),
                                 progress)
    return sheets_pdf(sheets, title=title, progress=progress)


def table_sheet_pdf(rnd: Round, table_number: int, base_url: str) -> bytes | None:
    sheets = selectors.table_sheets(rnd, base_url, table_number=table_number)
    if not sheets:
        return None
    return sheets_pdf(sheets, title=f"{rnd.event.name} – {rnd.number} – {table_number}")


# ---------------------------------------------------------------------------------------
# Lists and the filled scorecard
# ---------------------------------------------------------------------------------------

def _single(template: str, context: dict, event: Event, title: str) -> bytes:
    html = _html(template, {**_base_context(event), **context}, event.language)
    # A long list's boxes live until it is written, and the collector walked them again and
    # again while it was laid out: a quarter of the time (the peak memory a few MB more,
    # docs/performance.md).
    with collector.paused():
        return _pdf([_document(html, FontConfiguration())], title)


# The seating list's alphabetical part: rows and letter headings of one height, so that its
# pages of two columns are cut here (CSS columns cost WeasyPrint a third of the list). A4 less
# the page margins is 273 mm: 50 rows of 5.4 mm, 48 under the part's heading; one row of each
# is kept spare for the rounding of the lines.
ALPHA_ROW_MM = 5.4
ALPHA_ROWS = 49
ALPHA_FIRST_ROWS = 46


@dataclass(frozen=True)
class AlphaItem:
    """One line of a column of the alphabetical list: a player, or the letter heading."""
    entry: selectors.SeatingEntry | None = None
    letter: str = ""


def alphabetical_pages(entries: list[selectors.SeatingEntry], *, first_rows: int = ALPHA_FIRST_ROWS,
                       rows: int = ALPHA_ROWS) -> list[list[list[AlphaItem]]]:
    """The alphabetical list cut into pages of two columns of at most `rows` lines
    (`first_rows` on the first page), a letter heading before the first name of each letter
    and never at the foot of a column; the last page's two columns balanced."""
    columns: list[list[AlphaItem]] = []
    column: list[AlphaItem] = []
    letter = None
    for entry in entries:
        items = [AlphaItem(letter=entry.letter), AlphaItem(entry=entry)] if entry.letter != letter \
            else [AlphaItem(entry=entry)]
        letter = entry.letter
        capacity = first_rows if len(columns) < 2 else rows
        if len(column) + len(items) > capacity:
            columns.append(column)
            column = []
        column.extend(items)
    if column:
        columns.append(column)
    pages = [columns[i:i + 2] for i in range(0, len(columns), 2)]
    if pages:
        pages[-1] = _balanced(pages[-1])
    return pages


def _balanced(page: list[list[AlphaItem]]) -> list[list[AlphaItem]]:
    """The last page's lines shared evenly between its two columns (as CSS would balance
    them), a letter heading still never at the foot of the first."""
    items = [item for column in page for item in column]
    cut = (len(items) + 1) // 2
    if cut < len(items) and items[cut - 1].entry is None:
        cut += 1
    return [items[:cut], items[cut:]] if items[cut:] else [items]


def seating_pdf(rnd: Round) -> bytes:
    listing = selectors.seating_list(rnd)
    context = {"listing": listing,
               "table_rows": [listing.tables[i:i + 3] for i in range(0, len(listing.tables), 3)],
               "alphabetical_pages": alphabetical_pages(listing.alphabetical),
               "alpha_row_mm": f"{ALPHA_ROW_MM:g}"}  # not localised: CSS wants a point
    return _single("pdf/seating_list.html", context, rnd.event, f"{rnd.event.name} – {rnd.number}")


def standings_pdf(event: Event, *, up_to_round: int | None = None) -> bytes:
    sheet = selectors.standings_sheet(event, up_to_round=up_to_round)
    return _single("pdf/standings.html", {"sheet": sheet}, event, event.name)


def scorecard_pdf(card: selectors.FilledScorecard) -> bytes:
    return _single("pdf/scorecard.html", {"card": card}, card.event,
                   f"{card.event.name} – {card.round_number} – {card.table_number}")
