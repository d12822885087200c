"""The score sheets and the Schrift printed as one form and each table's own entries over it
(tournaments.printing.sheet_forms): the form holds nothing of a table, tables of the same seats
share it, it is stored once in the file, each page looks as the sheet laid out whole, and a
sheet its form does not hold is printed whole."""

from __future__ import annotations

import dataclasses
import io

import pikepdf
import pytest

from sample_data import printouts
from tests.tournaments.pdf.pdftext import page_image, reader
from tournaments.printing import base, render, selectors, sheet_forms

# Every test compares renderings made one after the other: printed at one minute.
pytestmark = [pytest.mark.django_db, pytest.mark.slow, pytest.mark.usefixtures("printed_at_fixed")]

BASE = "https://print.example.org"


def _sheets(event, tables=None):
    printouts.seat(event, 1, tables)
    return selectors.table_sheets(selectors.round_for_print(event, 1), BASE)


def _form_drawings(pdf: bytes) -> list[tuple[int, int]]:
    """The form XObject each page draws first, by its object number in the file."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        drawn = []
        for page in document.pages:
            name = next(operands[0] for operands, operator in pikepdf.parse_content_stream(page)
                        if operator == pikepdf.Operator("Do"))
            drawing = page.Resources.XObject[name]
            assert drawing.Subtype == "/Form" and drawing.BBox == page.mediabox
            drawn.append(drawing.objgen)
        return drawn


def _whole(sheet) -> bytes:
    return base.write([base.document(render.sheet_html(sheet), render.FontConfiguration())],
                       "whole")


def test_a_form_holds_nothing_of_its_table_and_tables_of_four_print_the_same_form():
    event = printouts.slovenian_event(slug="forms-same", tables=2)
    first, second = _sheets(event)
    form = render.form_html(render.SheetPage(sheet=first, grid=render._grid(first)))
    assert form == render.form_html(render.SheetPage(sheet=second, grid=render._grid(second)))
    for own in [first.seats[0].name, first.code, first.qr, first.seats[0].club]:
        assert own not in form
    assert 'id="slot-head-3"' in form and 'id="slot-signature-3"' in form
    # The start numbers of the deal are the table's own; the game numbers are the form's.
    assert render._grid(first).columns[1].own and not render._grid(first).columns[0].own


def test_tables_of_four_share_one_form_stored_once_and_a_table_of_three_has_its_own():
    event = printouts.slovenian_event(slug="forms-shared", tables=3)
    sheets = _sheets(event, [[1, 2, 3, 4], [5, 6, 7], [8, 9, 10, 11], [12]])
    pdf = render.sheets_pdf(sheets, title="round")
    assert len(reader(pdf).pages) == 4
    drawings = _form_drawings(pdf)
    assert drawings[0] == drawings[2]
    assert len({drawings[0], drawings[1], drawings[3]}) == 3
    # Every page is the sheet as it is laid out whole.
    for page, sheet in enumerate(sheets):
        assert (page_image(pdf, page=page, dpi=100).tobytes()
                == page_image(_whole(sheet), dpi=100).tobytes()), sheet.table_number


def _renamed(sheet, first_name, last_name):
    seats = list(sheet.seats)
    seats[1] = dataclasses.replace(seats[1], first_name=first_name, last_name=last_name)
    seats[2] = dataclasses.replace(seats[2], club="")
    return dataclasses.replace(sheet, seats=seats)


@pytest.mark.parametrize("build", [printouts.slovenian_event, printouts.austrian_event])
def test_a_name_of_two_lines_and_no_club_print_over_the_form_as_on_the_whole_sheet(build):
    """A player's head is as high as two lines of name on the form; a name of two lines fills
    it where the whole sheet sets it. (Compared down to the instructions: laid out whole, the
    TRI + 1 sheet runs a signature of two lines onto a second page, over the form it stays.)"""
    event = build(slug=f"forms-long-{build.__name__}", tables=1)
    (sheet,) = _sheets(event)
    sheet = _renamed(sheet, "Maria-Theresia", "Oberhuber")
    pdf = render.sheets_pdf([sheet], title="long")
    assert len(reader(pdf).pages) == 1
    assert "Maria-Theresia" in reader(pdf).pages[0].extract_text()
    layered, whole = page_image(pdf, dpi=100), page_image(_whole(sheet), dpi=100)
    upper = (0, 0, layered.width, int(layered.height * 0.85))
    assert layered.crop(upper).tobytes() == whole.crop(upper).tobytes()


def test_a_very_long_name_keeps_the_sheet_on_one_page():
    """Laid out whole, a signature of three lines pushed the signatures onto a second page;
    over the form the name runs on under its line."""
    event = printouts.slovenian_event(slug="forms-very-long", tables=1)
    (sheet,) = _sheets(event)
    sheet = _renamed(sheet, "Maria-Theresia", "Oberhuber-Schwarzenberg")
    pdf = render.sheets_pdf([sheet], title="long")
    assert len(reader(pdf).pages) == 1
    assert "Schwarzenberg" in reader(pdf).pages[0].extract_text()


def test_a_sheet_its_form_does_not_hold_is_printed_whole_in_its_place(monkeypatch):
    event = printouts.slovenian_event(slug="forms-mixed", tables=3)
    sheets = _sheets(event, [[1, 2, 3, 4], [5, 6, 7], [8, 9, 10, 11], [12]])
    original = sheet_forms.slots
    monkeypatch.setattr(sheet_forms, "slots",
                        lambda page, sheet: None if len(sheet.seats) == 3 else original(page, sheet))
    pdf = render.sheets_pdf(sheets, title="round")
    pages = reader(pdf).pages
    assert len(pages) == 4
    for number, page in enumerate(pages, start=1):
        assert f"Krog 1 · Miza {number} ·" in page.extract_text()
    with pikepdf.open(io.BytesIO(pdf)) as document:
        drawn = [any(operator == pikepdf.Operator("Do") and str(operands[0]).startswith("/SheetForm")
                     for operands, operator in pikepdf.parse_content_stream(page))
                 for page in document.pages]
    assert drawn == [True, False, True, True]
    for page in (0, 1, 2):
        assert (page_image(pdf, page=page, dpi=100).tobytes()
                == page_image(_whole(sheets[page]), dpi=100).tobytes()), page


def test_a_sheet_its_form_does_not_hold_is_printed_whole(monkeypatch):
    event = printouts.austrian_event(slug="forms-whole", tables=2)
    sheets = _sheets(event)
    monkeypatch.setattr(sheet_forms, "slots", lambda page, sheet: None)
    pdf = render.sheets_pdf(sheets, title="round")
    pages = reader(pdf).pages
    assert len(pages) == 2
    with pikepdf.open(io.BytesIO(pdf)) as document:
        assert not any(x.Subtype == "/Form" for page in document.pages
                       for x in page.Resources.XObject.values())
    for page, sheet in zip(pages, sheets, strict=True):
        assert sheet.seats[0].name in page.extract_text()
        assert f"Tisch {sheet.table_number}" in page.extract_text()


def test_a_long_event_name_and_address_lower_the_grids_rows_to_keep_one_page(monkeypatch):
    """The head of the sheet grows with the event's name and the address under the code; the
    form is laid out again with lower rows until it fits one page, and each table's own
    entries follow its rows."""
    event = printouts.slovenian_event(slug="forms-fit", tables=2)
    event.name = "Mednarodni odprti turnir v taroku za pokal občine Ivančna Gorica 2026"
    event.save()
    printouts.seat(event, 1)
    address = "https://turnirji.tarok-zveza-slovenije.example.org"
    sheets = selectors.table_sheets(selectors.round_for_print(event, 1), address)
    scales = []
    original = render._grid
    monkeypatch.setattr(render, "_grid",
                        lambda sheet, scale=1.0: scales.append(scale) or original(sheet, scale))
    pdf = render.sheets_pdf(sheets, title="round")
    pages = reader(pdf).pages
    assert len(pages) == 2
    # The form was laid out again with lower rows; the tables' own numbers follow them.
    assert min(scales) < 1
    assert scales[-2:] == [min(scales)] * 2
    whole = base.document(render.sheet_html(sheets[0]), render.FontConfiguration())
    assert len(whole.pages) == 2  # laid out whole, the same sheet runs onto a second page
    for page, sheet in zip(pages, sheets, strict=True):
        body = page.extract_text()
        assert sheet.seats[3].name in body and sheet.code in body


def test_the_money_sheets_of_a_round_share_one_form_and_look_as_each_laid_out_whole():
    """The money sheet's own entries are the table's number, the players' rows' numbers and
    names, the signature names and the footer; its form is everything else."""
    event = printouts.czech_event()
    rnd = printouts.czech_round_two(event)
    sheets = selectors.table_sheets(selectors.round_for_print(event, rnd.number), BASE)
    pdf = render.sheets_pdf(sheets, title="round")
    drawings = _form_drawings(pdf)
    assert len(drawings) == len(sheets) and len(set(drawings)) == 1
    for page, sheet in enumerate(sheets):
        assert (page_image(pdf, page=page, dpi=100).tobytes()
                == page_image(_whole(sheet), dpi=100).tobytes()), sheet.table_number


def test_a_money_sheet_row_without_first_name_or_club_prints_as_on_the_whole_sheet():
    event = printouts.czech_event(slug="forms-money-names", tables=1)
    (sheet,) = _sheets(event)
    seats = list(sheet.seats)
    seats[0] = dataclasses.replace(seats[0], first_name="", club="")
    seats[1] = dataclasses.replace(seats[1], club="Tarokový klub Havlíčkův Brod a okolí, z. s.")
    sheet = dataclasses.replace(sheet, seats=seats)
    pdf = render.sheets_pdf([sheet], title="names")
    assert page_image(pdf, dpi=100).tobytes() == page_image(_whole(sheet), dpi=100).tobytes()
