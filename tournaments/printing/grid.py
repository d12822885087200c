"""The ruled body of the score sheets (TRI + 1, the other points sheets and the Schrift): the
rows of games with their lines and shading drawn as one SVG image, and the pre-filled numbers
and labels set over it as a few columns of text.

Why an image and not table rows: WeasyPrint lays out every table cell one by one, and the
24 rows of a sheet are some 200 cells, most of the time spent on a sheet. An SVG is drawn, not
laid out, which makes a 64-table round several times faster (bench/pdf.py). The player
columns' heads stay an HTML table (names wrap there), with the same column widths as the
drawing, set here in millimetres.

Why the numbers are not in the drawing: WeasyPrint sets SVG text letter by letter, each
letter shaped and drawn on its own, which cost a quarter of a sheet's time and four fifths of
its bytes. A column of numbers is one block of text with one number per line, each line as
high as a row (`TextColumn`): one line box per row, set like any other text.

The drawing keeps the look of the HTML grids of templates/pdf/base.css: firm outer lines, light
inner lines, a firmer line under each full rotation of the deal, grey for the resting player's
cell and the minus columns, the numbers in DejaVu Sans.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from tournaments.printing.selectors import TRI1, TableSheet

# A4 (210 mm) less the 12 mm left and right margins of templates/pdf/base.css.
CONTENT_WIDTH_MM = 186.0

INNER = ("#777", 0.25)
GROUP = ("#333", 0.5)
OUTER = ("#111", 0.5)
FOOT = ("#111", 0.6)


# WeasyPrint draws the head table's collapsed borders half a border width to the right of the
# column edges (its border box starts at the content edge). The drawing is shifted by the same
# amount, and widened by it on both sides, so that its lines fall exactly under the head's.
BLEED = OUTER[1] / 2


@dataclass(frozen=True)
class TextColumn:
    """Text set over the drawing: one line per row, each `line_mm` high with its text centred
    in it (or set from the left), the block `left` and `top` millimetres from the drawing's
    top left corner."""
    left: float
    top: float
    width: float
    line_mm: float
    lines: tuple[str, ...]
    size_pt: float
    bold: bool = True
    color: str = "#111"
    align: str = "center"
    # The table's own numbers (its players' start numbers), which its sheet's printed form
    # leaves out and its own entries lay over it (tournaments.printing.sheet_forms).
    own: bool = False

    @property
    def text(self) -> str:
        # A blank cell keeps its line: a line of nothing but its newline would still count,
        # but a no-break space says so in the output too.
        return "\n".join(line or "\u00a0" for line in self.lines)


@dataclass(frozen=True)
class Grid:
    widths: list[float]  # column widths in mm, summing to CONTENT_WIDTH_MM
    height: float        # height of the drawing in mm
    uri: str             # the SVG as a data URI for <img src>
    columns: tuple[TextColumn, ...] = ()  # the pre-filled numbers and labels over it
    bleed: float = BLEED

    @property
    def width(self) -> float:
        return CONTENT_WIDTH_MM + 2 * self.bleed


def _player_widths(fixed: list[float], players: int, per_player: int = 1) -> list[float]:
    share = (CONTENT_WIDTH_MM - sum(fixed)) / max(players * per_player, 1)
    return [round(share, 3)] * (players * per_player)


def score_widths(sheet: TableSheet) -> list[float]:
    fixed = [8.0, 13.0, 13.0, 24.0] if sheet.kind == TRI1 else [8.0, 13.0, 24.0]
    return fixed + _player_widths(fixed, len(sheet.seats))


def schrift_widths(sheet: TableSheet) -> list[float]:
    fixed = [8.0, 11.0, 25.0]
    check = 14.0
    return fixed + _player_widths([*fixed, check], len(sheet.seats), 2) + [check]


class _Svg:
    """Collects the drawing. Lines of one style and areas of one colour are each drawn as a
    single path: fewer elements for WeasyPrint to draw, the same picture."""

    def __init__(self) -> None:
        self.fills: dict[str, list[str]] = {}
        self.strokes: dict[tuple[str, float], list[str]] = {}

    def rect(self, x: float, y: float, w: float, h: float, fill: str) -> None:
        self.fills.setdefault(fill, []).append(f"M{x:.2f} {y:.2f}h{w:.2f}v{h:.2f}h{-w:.2f}z")

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: tuple[str, float]) -> None:
        self.strokes.setdefault(stroke, []).append(f"M{x1:.2f} {y1:.2f}L{x2:.2f} {y2:.2f}")

    def uri(self, width: float, height: float) -> str:
        # Areas first, then lines (thin before firm, so the firm ones end on top).
        parts = [f'<path d="{"".join(d)}" fill="{fill}"/>' for fill, d in self.fills.items()]
        for (color, stroke_width), d in sorted(self.strokes.items(), key=lambda i: i[0][1]):
            parts.append(f'<path d="{"".join(d)}" fill="none" stroke="{color}" '
                         f'stroke-width="{stroke_width}"/>')
        # Everything is drawn in content coordinates and shifted by the bleed.
        full = width + 2 * BLEED
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{full}mm" '
               f'height="{height:.2f}mm" viewBox="{-BLEED} 0 {full} {height:.2f}">'
               + "".join(parts) + "</svg>")
        return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def _column(edges: list[float], widths: list[float], c: int, *, row_mm: float,
            lines: list[str], size_pt: float, top: float = 0.0, bold: bool = True,
            color: str = "#111", own: bool = False) -> TextColumn:
    """Centred text over the grid's column `c`; x is shifted by the bleed like the drawing."""
    return TextColumn(left=edges[c] + BLEED, top=top, width=widths[c], line_mm=row_mm,
                      lines=tuple(lines), size_pt=size_pt, bold=bold, color=color, own=own)


def _label(left: float, top: float, width: float, height: float, text: str,
           size_pt: float) -> TextColumn:
    """A label of one line set from the left, as the footers' labels are."""
    return TextColumn(left=left + BLEED, top=top, width=width, line_mm=height, lines=(text,),
                      size_pt=size_pt, align="left")


def _edges(widths: list[float]) -> list[float]:
    edges = [0.0]
    for w in widths:
        edges.append(edges[-1] + w)
    return edges


def _frame(svg: _Svg, edges: list[float], height: float) -> None:
    """Outer left, right and bottom lines, centred on the edges like the head table's
    border; the top line is the head table's."""
    half = OUTER[1] / 2
    svg.line(0, 0, 0, height, OUTER)
    svg.line(edges[-1], 0, edges[-1], height, OUTER)
    svg.line(-half, height - half, edges[-1] + half, height - half, OUTER)


def score_grid(sheet: TableSheet, *, row_mm: float, total_mm: float, total_label: str) -> Grid:
    """Rows of games (hand number, dealer and resting pre-filled in TRI + 1, the resting
    player's cell shaded) and the total row."""
    widths = score_widths(sheet)
    edges = _edges(widths)
    pre = 3 if sheet.kind == TRI1 else 2  # hand number and the pre-filled columns
    first_player = pre + 1
    body = row_mm * len(sheet.rows)
    height = body + total_mm
    svg = _Svg()
    svg.rect(0, 0, widths[0], body, "#f6f6f6")
    for i, row in enumerate(sheet.rows):
        top = i * row_mm
        for p, cell in enumerate(row.cells):
            if cell.resting:
                svg.rect(edges[first_player + p], top, widths[first_player + p], row_mm,
                         "#e4e4e4")
    svg.rect(0, body, edges[first_player], total_mm, "#efefef")
    for c, x in enumerate(edges[1:-1], start=1):
        # The total's label spans the columns before the players.
        svg.line(x, 0, x, body if c < first_player else height, INNER)
    for i, row in enumerate(sheet.rows[:-1], start=1):
        svg.line(0, i * row_mm, edges[-1], i * row_mm, GROUP if row.group_end else INNER)
    svg.line(0, body, edges[-1], body, FOOT)
    _frame(svg, edges, height)
    rows = sheet.rows
    columns = [_column(edges, widths, 0, row_mm=row_mm, lines=[str(r.hand) for r in rows],
                       size_pt=8),
               _column(edges, widths, 1, row_mm=row_mm, lines=[r.dealer for r in rows],
                       size_pt=9, color="#333", own=True)]
    if sheet.kind == TRI1:
        columns.append(_column(edges, widths, 2, row_mm=row_mm,
                               lines=[r.resting for r in rows], size_pt=9, color="#333", own=True))
    columns.append(_label(1.5, body, edges[first_player] - 1.5, total_mm, total_label, 9))
    return Grid(widths=widths, height=height, uri=svg.uri(edges[-1], height),
                columns=tuple(columns))


def schrift_grid(sheet: TableSheet, *, row_mm: float, foot_mm: float, sum_label: str,
                 balance_label: str) -> Grid:
    """Rows of games with a plus and a minus column per player and the control sum of zero,
    then the sums of plus and minus and each player's balance."""
    widths = schrift_widths(sheet)
    edges = _edges(widths)
    players = len(sheet.seats)
    first = 3
    check = first + 2 * players
    body = row_mm * len(sheet.rows)
    balance_top = body + foot_mm
    height = body + 2 * foot_mm
    svg = _Svg()
    svg.rect(0, 0, widths[0], body, "#f6f6f6")
    for p in range(players):
        minus = first + 2 * p + 1
        svg.rect(edges[minus], 0, widths[minus], body + foot_mm, "#f3f3f3")
    for top in (body, balance_top):
        svg.rect(0, top, edges[first], foot_mm, "#efefef")
    for c, x in enumerate(edges[1:-1], start=1):
        if c < first:
            # The footer's labels span the number, dealer and game columns.
            svg.line(x, 0, x, body, INNER)
        elif c == first:
            svg.line(x, 0, x, height, INNER)
        elif (c - first) % 2 == 0:
            # After a player's minus column: the firmer line between players.
            svg.line(x, 0, x, height, GROUP)
        else:
            # Plus and minus of a player share one balance cell.
            svg.line(x, 0, x, balance_top, INNER)
    for i, row in enumerate(sheet.rows[:-1], start=1):
        svg.line(0, i * row_mm, edges[-1], i * row_mm, GROUP if row.group_end else INNER)
    svg.line(0, body, edges[-1], body, FOOT)
    svg.line(0, balance_top, edges[-1], balance_top, OUTER)
    _frame(svg, edges, height)
    rows = sheet.rows
    columns = (
        _column(edges, widths, 0, row_mm=row_mm, lines=[str(r.hand) for r in rows], size_pt=8),
        # Each row's control sum, and the balances', is zero: printed as the reminder.
        _column(edges, widths, check, row_mm=row_mm, lines=["0"] * len(rows), size_pt=7,
                bold=False, color="#999"),
        _column(edges, widths, check, row_mm=foot_mm, lines=["0"], size_pt=7, bold=False,
                color="#999", top=balance_top),
        _label(1.5, body, edges[first] - 1.5, foot_mm, sum_label, 8),
        _label(1.5, balance_top, edges[first] - 1.5, foot_mm, balance_label, 8),
    )
    return Grid(widths=widths, height=height, uri=svg.uri(edges[-1], height), columns=columns)
