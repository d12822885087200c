"""Rendering of the printouts: Django templates in `templates/pdf/` turned into PDF bytes by
WeasyPrint, in the event's language (`Event.language`) so the headings are the ones the
players read; the Czech money sheet keeps its three languages whatever the event's language.

WeasyPrint fetches nothing from the network: the sheets carry their QR codes as data URIs and
the only files they read are the DejaVu fonts of Debian's fonts-dejavu-core
(tournaments.printing.fetch), so a name typed into a registration can never make the server
fetch a URL or read another file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import weasyprint
from django.template.loader import render_to_string
from django.utils import timezone, translation
from weasyprint.text.fonts import FontConfiguration

from tournaments.models import Event, Round
from tournaments.printing import base, child_process, grid, selectors, sheet_forms
from tournaments.printing.catalogue import DRAWING_LABELS
from tournaments.printing.fetch import PrintFetcher
from tournaments.printing.selectors import MONEY, POINTS, SCHRIFT, TRI1
from tournaments.runtime import collector

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


def _printed_at(event: Event) -> str:
    return timezone.localtime(timezone.now(), event.tz).strftime("%Y-%m-%d %H:%M")


def base_context(event: Event) -> dict:
    """What every printout of the event's templates (templates/pdf/base.html) reads."""
    return {"event": event, "printed_at": _printed_at(event), "language": event.language or "en"}


# ---------------------------------------------------------------------------------------
# Table sheets
# ---------------------------------------------------------------------------------------

# Row heights of the ruled grids: as tall as one A4 page allows under the header, the players'
# heads (each as high as two lines of name), the instructions and the signatures (24 games of
# TRI + 1, 16 or 20 of the Schrift). A form that does not fit lowers them (FORM_ROW_SCALES).
SCORE_ROWS_MM = 169.6
SCHRIFT_ROWS_MM = 152.0


def _grid(sheet: selectors.TableSheet, scale: float = 1.0) -> grid.Grid | None:
    """The sheet's ruled grid, its rows `scale` times their height."""
    hands = max(sheet.hands, 1)
    if sheet.kind == SCHRIFT:
        return grid.schrift_grid(sheet, row_mm=min(7.6, SCHRIFT_ROWS_MM / hands) * scale,
                                 foot_mm=8.5,
                                 sum_label=str(DRAWING_LABELS["sum"]),
                                 balance_label=str(DRAWING_LABELS["balance"]))
    if sheet.kind in (TRI1, POINTS):
        return grid.score_grid(sheet, row_mm=min(7.2, SCORE_ROWS_MM / hands) * scale,
                               total_mm=8.5,
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


def _round_title(sheet: selectors.TableSheet) -> str:
    return f"{sheet.event.name} – {sheet.round_number}"


def _context(sheets: list[selectors.TableSheet], title: str, shared_style: bool) -> dict:
    first = sheets[0]
    return {**base_context(first.event), "title": title, "shared_style": shared_style,
            "template": SHEET_TEMPLATES[first.kind], "style_template": SHEET_STYLES[first.kind]}


def sheets_html(sheets: list[selectors.TableSheet], *, shared_style: bool = False) -> str:
    """The HTML of sheets of one kind as one document, each sheet whole and beginning a page;
    with `shared_style` without its <style>, which the caller then gives WeasyPrint parsed."""
    first = sheets[0]
    event = first.event
    title = (f"{event.name} – {first.round_number}/{first.table_number}" if len(sheets) == 1
             else _round_title(first))
    with translation.override(event.language or "en"):
        pages = [SheetPage(sheet=sheet, grid=_grid(sheet)) for sheet in sheets]
        return render_to_string("pdf/table_sheets.html",
                                {**_context(sheets, title, shared_style), "pages": pages})


def sheet_html(sheet: selectors.TableSheet, *, shared_style: bool = False) -> str:
    """One sheet's HTML, whole, as a document of its own."""
    return sheets_html([sheet], shared_style=shared_style)


def form_html(page: SheetPage) -> str:
    """The printed form of a sheet (tournaments.printing.sheet_forms), without its <style>: the
    same text for every sheet that prints the same form."""
    sheet = page.sheet
    with translation.override(sheet.event.language or "en"):
        return render_to_string("pdf/table_sheets.html",
                                {**_context([sheet], _round_title(sheet), True), "form": True,
                                 "pages": [page]})


def fills_html(fills: list[sheet_forms.Fill]) -> str:
    """The own entries of sheets of one kind, one page each, without their <style>."""
    sheet = fills[0].sheet
    with translation.override(sheet.event.language or "en"):
        return render_to_string("pdf/table_sheet_fills.html",
                                {**_context([sheet], _round_title(sheet), True), "pages": fills})


def _sheet_stylesheet(kind: str, font_config: FontConfiguration) -> weasyprint.CSS:
    css = (render_to_string("pdf/base.css") + render_to_string("pdf/table_sheets.css")
           + render_to_string(SHEET_STYLES[kind]))
    return weasyprint.CSS(string=css, font_config=font_config, url_fetcher=PrintFetcher())


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


@dataclass(frozen=True)
class _Form:
    number: int  # its place in the list of forms written
    slots: sheet_forms.Slots
    scale: float  # of the grid's rows, to fit the page


# A form that does not fit one page (a long event name or address lengthens its head) is
# laid out again with its grid's rows this much lower, down to the last.
FORM_ROW_SCALES = (1.0, 0.97, 0.94, 0.91, 0.88, 0.85)


class _Printing:
    """The pages of a round's sheets as they are laid out, and the forms they print on."""

    def __init__(self) -> None:
        self.font_config = FontConfiguration()
        self.stylesheets: dict[str, weasyprint.CSS] = {}
        self.forms: dict[str, _Form | None] = {}
        self.form_pdfs: list[bytes] = []
        self.pages: list[weasyprint.Page] = []
        self.documents: list[weasyprint.Document] = []
        self.form_of_page: list[int | None] = []

    def stylesheet(self, kind: str) -> weasyprint.CSS:
        if kind not in self.stylesheets:
            self.stylesheets[kind] = _sheet_stylesheet(kind, self.font_config)
        return self.stylesheets[kind]

    def _document(self, html: str, kind: str) -> weasyprint.Document:
        document = base.document(html, self.font_config, self.stylesheet(kind))
        self.documents.append(document)
        return document

    def form(self, page: SheetPage) -> _Form | None:
        """The form `page`'s sheet prints on, laid out and written the first time it is
        asked for; None if it does not hold the sheet on one page (the sheet is then printed
        whole). Called in the event's language."""
        html = form_html(page)
        if html not in self.forms:
            self.forms[html] = self._fitted_form(page, html)
        return self.forms[html]

    def _fitted_form(self, page: SheetPage, html: str) -> _Form | None:
        sheet = page.sheet
        # Only a grid's rows can be lowered: a sheet without one (the money sheet) gets one try.
        for scale in FORM_ROW_SCALES if page.grid is not None else (1.0,):
            if scale != 1.0:
                page = SheetPage(sheet=sheet, grid=_grid(sheet, scale))
                html = form_html(page)
            document = base.document(html, self.font_config, self.stylesheet(sheet.kind))
            if len(document.pages) == 1:
                found = sheet_forms.slots(document.pages[0], sheet)
                if found is None:
                    return None
                self.form_pdfs.append(document.write_pdf())
                return _Form(number=len(self.form_pdfs) - 1, slots=found, scale=scale)
        return None

    def _append(self, pages: list[weasyprint.Page], form: int | None) -> None:
        self.pages.extend(pages)
        self.form_of_page.extend([form] * len(pages))

    def add(self, batch: list[selectors.TableSheet]) -> None:
        """Lay out a batch of sheets of one kind, in order: each sheet's own entries over its
        form, or the sheet whole if its form does not hold it."""
        kind = batch[0].kind
        # The grids' labels are said in the event's language.
        with translation.override(batch[0].event.language or "en"):
            pages = [SheetPage(sheet=sheet, grid=_grid(sheet)) for sheet in batch]
            formed = [(page, self.form(page)) for page in pages]
            fills = [sheet_forms.Fill(sheet=page.sheet, slots=form.slots,
                                grid=page.grid if form.scale == 1 else _grid(page.sheet, form.scale))
                     for page, form in formed if form is not None]
        filled = self._document(fills_html(fills), kind).pages if fills else []
        if len(filled) != len(fills):
            # Not one page each: the batch's sheets are printed whole rather than misplaced.
            formed = [(page, None) for page, _ in formed]
        filled = iter(filled)
        for page, form in formed:
            if form is None:
                # Laid out alone: a sheet printed whole may run to a second page.
                whole = self._document(sheets_html([page.sheet], shared_style=True), kind)
                self._append(whole.pages, None)
            else:
                self._append([next(filled)], form.number)

    def pdf(self, title: str) -> bytes:
        pdf = base.write(self.documents, title, self.pages)
        if not self.form_pdfs:
            return pdf
        return sheet_forms.laid_over(pdf, self.form_pdfs, self.form_of_page)


def sheets_pdf(sheets: Iterable[selectors.TableSheet], *, title: str,
               progress: Callable[[int], None] | None = None) -> bytes:
    """One PDF of the given sheets, each beginning a page; `progress(n)` with the number of
    sheets laid out so far, after each batch of them.

    Every sheet prints its table's own entries over its printed form, laid out once
    (tournaments.printing.sheet_forms); the stylesheet is parsed once per kind of sheet (parsing it
    for every table was an eighth of a round), and the sheets are laid out in batches of
    SHEETS_PER_DOCUMENT."""
    printing = _Printing()
    done = 0
    # The laid-out sheets stay alive until the PDF is written, some 3 MB of small objects
    # each, and the collector's passes over them were a fifth of a large round. Laid out in
    # batches, they leave next to no garbage in cycles (docs/performance.md), so the
    # collector is simply paused until the PDF is written.
    with collector.paused():
        for batch in _batches(sheets):
            printing.add(batch)
            done += len(batch)
            if progress is not None:
                progress(done)
        if not done:
            raise ValueError("no tables to print")
        return printing.pdf(title)


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

def _single(template: str, context: dict, event: Event, title: str, *,
            in_child_process: bool = False) -> bytes:
    return base.html_to_pdf(template, {**base_context(event), **context},
                            language=event.language, title=title,
                            in_child_process=in_child_process)


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


def seating_pdf(rnd: Round, *, in_child_process: bool = False) -> bytes:
    """The seating list of the round; with `in_child_process` laid out by a child process
    (tournaments.printing.child_process), its data read here first."""
    listing = selectors.seating_list(rnd)
    context = {"listing": listing,
               "table_rows": [listing.tables[i:i + 3] for i in range(0, len(listing.tables), 3)],
               "alphabetical_pages": alphabetical_pages(listing.alphabetical),
               "alpha_row_mm": f"{ALPHA_ROW_MM:g}"}  # not localised: CSS wants a point
    return _single("pdf/seating_list.html", context, rnd.event, f"{rnd.event.name} – {rnd.number}",
                   in_child_process=in_child_process)


# The standings list's columns in mm (A4 less the 12 mm margins is 186 mm). Fixed widths let
# WeasyPrint lay the table out without measuring every cell's text first (`table-layout:
# fixed`): a third of the list's layout at 1,024 players (docs/performance.md).
STANDINGS_WIDTH_MM = 186.0
STANDINGS_FIXED_MM = {"rank": 10.0, "number": 9.0, "club": 30.0, "points": 12.0, "score": 16.0}
STANDINGS_ROUND_MM = 15.0
STANDINGS_NAME_MIN_MM = 45.0


def standings_columns(rounds: int, uses_points: bool) -> dict[str, float]:
    """The widths of the standings list's columns: the player's name takes what is left, the
    rounds' columns narrow (down to equal shares) when there are many of them."""
    fixed = dict(STANDINGS_FIXED_MM)
    if not uses_points:
        fixed.pop("points")
    spare = STANDINGS_WIDTH_MM - sum(fixed.values()) - STANDINGS_NAME_MIN_MM
    per_round = min(STANDINGS_ROUND_MM, spare / rounds) if rounds else 0.0
    name = STANDINGS_WIDTH_MM - sum(fixed.values()) - per_round * rounds
    return {**fixed, "name": name, "round": per_round}


def standings_pdf(event: Event, *, up_to_round: int | None = None,
                  in_child_process: bool = False) -> bytes:
    """The standings list (after `up_to_round`, or as they stand); `in_child_process` as for
    `seating_pdf`."""
    sheet = selectors.standings_sheet(event, up_to_round=up_to_round)
    columns = standings_columns(len(sheet.rounds), sheet.uses_points)
    return _single("pdf/standings.html", {"sheet": sheet, "columns": columns}, event, event.name,
                   in_child_process=in_child_process)


def scorecard_pdf(card: selectors.FilledScorecard) -> bytes:
    return _single("pdf/scorecard.html", {"card": card}, card.event,
                   f"{card.event.name} – {card.round_number} – {card.table_number}")
