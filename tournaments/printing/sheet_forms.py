"""The printed form of the table sheets, and each table's own entries laid over it.

All the sheets of a round print the same form: the head with the event, the round and the
QR code's caption, the column heads, the ruled grid with its game numbers and the resting
player's shading (the money sheet's headings, bag and instructions), the instructions and
the signature lines. What a table prints of its own is little: its number, QR code and code,
its players' heads (on the money sheet their rows' numbers and names) and signature names,
the start numbers of the deal and the running footer. WeasyPrint laid out the whole sheet
again for every table, and the form was half of the work or more (docs/performance.md).

So a sheet is printed in two layers:
- its form, the sheet's template with `form` set: the table's own entries are left out and
  their places kept, each named by a `slot-*` id. Sheets whose forms are the same HTML share
  one form, laid out and written once;
- its own entries (templates/pdf/table_sheet_fills.html), each set at its slot's place, read
  from the form's layout (WeasyPrint's anchors), with the same styles as in the whole sheet;
- the form is then drawn under each of its sheets' pages as one PDF form XObject (pikepdf),
  stored once in the file.

The form keeps every place at the height its entry is printed with: a player's head is as
high as two lines of name (templates/pdf/base.css), and a one-line entry holds a hidden 0.
A sheet whose form does not come out as one page with every slot is printed whole."""

from __future__ import annotations

import io
from contextlib import ExitStack
from dataclasses import dataclass

import pikepdf
import weasyprint

from tournaments.printing import grid, selectors

# CSS pixels (WeasyPrint's unit) per millimetre.
PX_PER_MM = 96 / 25.4
# The slot whose top left corner is the page's content box, from which the others are placed.
ORIGIN = "slot-origin"


@dataclass(frozen=True)
class Rect:
    """A slot's border box in CSS pixels from the top left corner of the page's content box."""
    left: float
    top: float
    width: float
    height: float

    @property
    def style(self) -> str:
        return (f"left: {self.left:.3f}px; top: {self.top:.3f}px; "
                f"width: {self.width:.3f}px; height: {self.height:.3f}px")


@dataclass(frozen=True)
class Slots:
    """Where a form leaves the table's own entries: on the score sheets and the Schrift the
    players' heads and the grid (for the deal's start numbers), on the money sheet each
    player's row's number and name."""
    table: Rect
    qr: Rect
    code: Rect | None
    signatures: tuple[Rect, ...]
    heads: tuple[Rect, ...] = ()
    grid: Rect | None = None
    numbers: tuple[Rect, ...] = ()
    names: tuple[Rect, ...] = ()


def slots(page: weasyprint.Page, sheet: selectors.TableSheet) -> Slots | None:
    """The slots of a form laid out as `page`, for a sheet of `sheet`'s players; None if one
    is missing (the form would not hold the sheet's entries)."""
    anchors = page.anchors
    if ORIGIN not in anchors:
        return None
    x0, y0 = anchors[ORIGIN][:2]

    def rect(name: str) -> Rect | None:
        box = anchors.get(name)
        if box is None:
            return None
        x1, y1, x2, y2 = box
        return Rect(x1 - x0, y1 - y0, x2 - x1, y2 - y1)

    def each(name: str) -> tuple[Rect | None, ...]:
        return tuple(rect(f"slot-{name}-{n}") for n in range(len(sheet.seats)))

    found: dict = {"table": rect("slot-table"), "qr": rect("slot-qr"),
                   "code": rect("slot-code"), "signatures": each("signature")}
    if sheet.kind == selectors.MONEY:
        found.update(numbers=each("number"), names=each("name"))
    else:
        found.update(heads=each("head"), grid=rect("slot-grid"))
    singles = [found[name] for name in ("table", "qr", "grid") if name in found]
    rows = [rect for name in ("signatures", "heads", "numbers", "names") if name in found
            for rect in found[name]]
    if None in singles or None in rows or (found["code"] is None) == bool(sheet.code):
        return None
    return Slots(**found)


@dataclass(frozen=True)
class Fill:
    """One sheet's own entries as templates/pdf/table_sheet_fills.html sets them."""
    sheet: selectors.TableSheet
    slots: Slots
    grid: grid.Grid | None

    @property
    def heads(self) -> list[tuple[selectors.SeatLine, Rect]]:
        if not self.slots.heads:
            return []
        return list(zip(self.sheet.seats, self.slots.heads, strict=True))

    @property
    def signatures(self) -> list[tuple[selectors.SeatLine, Rect]]:
        return list(zip(self.sheet.seats, self.slots.signatures, strict=True))

    @property
    def own_columns(self) -> list[grid.TextColumn]:
        return [column for column in self.grid.columns if column.own] if self.grid else []

    @property
    def rows(self) -> list[tuple[selectors.SeatLine, Rect, Rect]]:
        if not self.slots.numbers:
            return []
        return list(zip(self.sheet.seats, self.slots.numbers, self.slots.names, strict=True))


def laid_over(fills_pdf: bytes, form_pdfs: list[bytes], form_of_page: list[int | None]) -> bytes:
    """The pages of `fills_pdf`, each with the form `form_of_page[n]` (an index into
    `form_pdfs`, one page of the same size each) drawn under it; a page with None keeps what
    it has."""
    out = io.BytesIO()
    with ExitStack() as stack:
        pdf = stack.enter_context(pikepdf.open(io.BytesIO(fills_pdf)))
        opened = [stack.enter_context(pikepdf.open(io.BytesIO(form))) for form in form_pdfs]
        # One form XObject per form, referenced by every page that prints it. WeasyPrint
        # gives all pages one resource dictionary, so each form is named once in it.
        drawings = [pdf.copy_foreign(form.pages[0].as_form_xobject()) for form in opened]
        for page, form in zip(pdf.pages, form_of_page, strict=True):
            if form is None:
                continue
            name = pikepdf.Name(f"/SheetForm{form}")
            page.add_resource(drawings[form], pikepdf.Name.XObject, name)
            page.contents_add(pdf.make_stream(b"q " + name.unparse() + b" Do Q\n"), prepend=True)
        pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return out.getvalue()
