"""The table sheets: the Czech money sheet of seed 004, the TRI+1 sheet of seed 000 §3 and the
Austrian Schrift of seed 001, read back from the generated PDF (pypdf): headings, players,
start numbers, the dealer and resting rotation, one page per table, the event's language, the
fonts and the QR code's URL."""

from __future__ import annotations

import base64
import gc
import io
import re

import pikepdf
import pytest
import segno
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from PIL import Image

from sample_data import printouts
from tests.tournaments.pdf.pdftext import fonts, page_image, reader, text
from tournaments import services
from tournaments.models import TableLink
from tournaments.printing import base, links, qr, render, selectors
from tournaments.seating.rotation import rest_rotation
from tournaments.services import table_links

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

BASE = "https://print.example.org"


def _standalone_numbers(body: str) -> list[str]:
    """The numbers standing alone on a line: the round and table badges, then the ruled
    grid's pre-filled numbers column by column, each column top to bottom."""
    return re.findall(r"^(\d+)$", body, re.M)


def _has_run(numbers: list[str], run: list[str]) -> bool:
    """Whether `run` stands in `numbers` one after the other (a column read top to bottom)."""
    return any(numbers[i:i + len(run)] == run for i in range(len(numbers) - len(run) + 1))


def _sheet_pdf(event, number, table):
    rnd = selectors.round_for_print(event, number)
    pdf = render.table_sheet_pdf(rnd, table, BASE)
    assert pdf is not None
    return pdf


def test_czech_money_sheet_has_the_trilingual_headings_players_bag_and_self_check(czech):
    event, _ = czech
    pdf = _sheet_pdf(event, 2, 4)
    assert len(reader(pdf).pages) == 1
    body = text(pdf)
    for heading in ["Stůl číslo", "Tischnummer", "Table Number", "Číslo kola", "Runde", "Level",
                    "Hráč číslo", "Nummer dem Spieler", "Player Number", "Dokup",
                    "Geld kaufen", "Money bought", "Peníze", "Geld", "Money", "Součet",
                    "Summe", "Total"]:
        assert heading in body, heading
    # The seed's own table 4 of round 2, names and start numbers pre-filled.
    for number, name in [("8", "Novák"), ("23", "Fric"), ("45", "Sobota"), ("98", "Skalský")]:
        assert re.search(rf"^{number}\b", body, re.M), number
        assert name in body
    # The round's number is the form's, the table's its own, laid over the form.
    assert re.search(r"Level\s+2\b", body)
    assert re.search(r"^4$", body, re.M)
    # The bag: 5 Kč × 2, 1 Kč × 6, 50 hal × 6, 10 hal × 10 = 20 Kč.
    for coin, count in [("5,- Kč", "2×"), ("1,- Kč", "6×"), ("50 hal", "6×"), ("10 hal", "10×")]:
        assert re.search(rf"{re.escape(coin)}\s+{count}", body), coin
    assert "20,00 Kč" in body
    # A Czech event reads the seed's own self-check instructions, with the 10 Kč top-up.
    assert "Samokontrola hry u stolu" in body
    assert "dokoupí 10,00 Kč ze svého" in body
    assert "Osobní finance zůstávají po celou hru na stole!" in body
    assert "Rozhodčí / Schiedsrichter / Referee" in body
    assert "Peníze = 4 × 20,00 Kč + dokup" in body


def test_the_money_sheet_keeps_its_three_languages_in_a_german_event():
    event = printouts.czech_event(slug="gp-de", language="de")
    printouts.czech_round_two(event)
    body = text(_sheet_pdf(event, 2, 4))
    assert "Stůl číslo" in body and "Tischnummer" in body and "Table Number" in body
    # ... while the instructions follow the event's language.
    assert "Selbstkontrolle am Tisch" in body
    assert "Samokontrola" not in body


def test_tri1_sheet_has_24_games_with_dealer_and_resting_from_the_rotation():
    event = printouts.slovenian_event()
    rnd = printouts.seat(event, 1, [[3, 7, 11, 15], [1, 2, 4, 5], [6, 8, 9, 10], [12, 13, 14, 16]])
    pdf = _sheet_pdf(event, 1, 1)
    assert len(reader(pdf).pages) == 1
    body = text(pdf)
    # Slovenian headings (the event's language).
    # (The sheet's kind is set in capitals by the style sheet.)
    for heading in ["ZAPISNIK TRI + 1", "Krog", "Miza", "Deli", "Počiva", "Radelci", "Skupaj",
                    "Sodnik"]:
        assert heading in body, heading
    for name in ["Franc Kovačič", "Marko Kovač", "Peter Golob", "Matej Zorko"]:
        assert name in body
    # The ruled rows: the game numbers (printed with the form), then the dealer and the
    # resting player (the table's own), each column top to bottom, as the rotation has them.
    numbers = _standalone_numbers(body)
    expected = rest_rotation(["3", "7", "11", "15"], 24)
    assert _has_run(numbers, [str(h["hand"]) for h in expected])
    assert _has_run(numbers, [h["dealer"] for h in expected] + [h["resting"] for h in expected])
    assert rnd.tables.count() == 4


def test_tri1_sheet_of_a_three_player_table_has_nobody_resting():
    event = printouts.slovenian_event(slug="tri1-three", tables=1)
    printouts.seat(event, 1, [[1, 2, 3], [4]])
    sheet = selectors.table_sheets(selectors.round_for_print(event, 1), BASE, table_number=1)[0]
    assert [r.dealer for r in sheet.rows[:4]] == ["1", "2", "3", "1"]
    assert all(r.resting == "" and not any(c.resting for c in r.cells) for r in sheet.rows)
    assert len(reader(render.sheets_pdf([sheet], title="t")).pages) == 1


@pytest.mark.parametrize("hands", [16, 20])
def test_schrift_sheet_has_one_row_per_game_plus_minus_and_a_zero_check(hands):
    event = printouts.austrian_event(slug=f"schrift-{hands}", hands=hands)
    printouts.seat(event, 1)
    pdf = _sheet_pdf(event, 1, 2)
    assert len(reader(pdf).pages) == 1
    body = text(pdf)
    for heading in ["Schrift", "Runde", "Tisch", "Geber", "Spiel", "Kontrolle", "Σ = 0",
                    "Summe Plus und Minus", "Saldo", "Schiedsrichter"]:
        assert heading in body, heading
    for number, name in [("5", "Hermann Müller"), ("6", "Brigitte Pichler"),
                         ("7", "Andrä Steiner"), ("8", "Josef Möser")]:
        assert name in body
        assert re.search(rf"^{number}\s*{name}", body, re.M)
    # One row per game, each with its control sum of zero, and the balance's zero.
    numbers = _standalone_numbers(body)
    assert _has_run(numbers, [str(n) for n in range(1, hands + 1)] + ["0"] * (hands + 1))
    assert "+ − + − + − + −" in body  # a plus and a minus column for each of the four


def test_sheets_use_dejavu_sans_and_print_the_event_round_table_and_ruleset(czech):
    event, _ = czech
    pdf = _sheet_pdf(event, 2, 4)
    assert {"DejaVu-Sans", "DejaVu-Sans-Bold"} <= fonts(pdf)
    body = text(pdf)
    assert "GP Vysočiny – Bystré" in body
    assert "turnajová pravidla GP Vysočiny a GP Povodí Křetínky a Svitavy" in body  # the title in the event's language
    # A sheet is one page: its footer names the table and round, and no page number is
    # printed (the round's sheets are laid out together, which would number them on).
    assert re.search(r"Stůl / Tisch / Table 4 · Kolo / Runde / Level 2", body)
    assert "Strana" not in body and not re.search(r"\b1 / 1\b", body)


def test_headings_follow_the_event_language():
    event = printouts.slovenian_event(slug="tri1-en", tables=1, language="en")
    printouts.seat(event, 1)
    body = text(_sheet_pdf(event, 1, 1))
    assert "TRI + 1 score sheet".upper() in body.upper()
    assert "Dealer" in body and "Resting" in body and "Deli" not in body
    services.event_update(event=event, actor=event.organisers.first(), language="de")
    body = text(_sheet_pdf(event, 1, 1))
    assert "Geber" in body and "Pausiert" in body and "Dealer" not in body


def test_every_sheet_carries_a_qr_code_of_its_tables_entry_page(czech, settings):
    settings.ALLOWED_HOSTS = ["venue.example.org"]
    event, _ = czech
    request = RequestFactory().get("/", HTTP_HOST="venue.example.org", secure=True)
    address = links.base_url_of(request)
    rnd = selectors.round_for_print(event, 2)
    sheets = selectors.table_sheets(rnd, address)
    # The QR code is the table's link (no account needed), the short code is printed for typing.
    tokens = {link.table.number: link for link in TableLink.objects.filter(table__round=rnd)}
    assert [s.entry_url for s in sheets] == [
        f"https://venue.example.org/t/{tokens[t].token}/" for t in range(1, 5)]
    assert [s.code for s in sheets] == [table_links.display_code(tokens[t].code) for t in range(1, 5)]
    assert all(s.code_url == "https://venue.example.org/t/" for s in sheets)
    assert sheets[3].qr == qr.qr_data_uri(sheets[3].entry_url)
    assert sheets[3].code in render.sheet_html(sheets[3])
    assert sheets[3].qr.startswith("data:image/png;base64,")
    assert sheets[3].qr in render.sheet_html(sheets[3])


def test_the_qr_code_is_printed_module_for_module_and_without_smoothing(czech):
    """The code is a bitmap of one pixel per module, each pixel the module segno encodes for
    the table's link, and the PDF asks viewers and printers not to smooth it, so each module
    prints as a sharp square however far it is enlarged."""
    event, _ = czech
    sheet = selectors.table_sheets(selectors.round_for_print(event, 2), BASE, table_number=3)[0]
    expected = segno.make(sheet.entry_url, error="m", micro=False)
    bitmap = Image.open(io.BytesIO(base64.b64decode(sheet.qr.split(",", 1)[1]))).convert("1")
    assert bitmap.size == expected.symbol_size(scale=1, border=0)
    printed = [[bitmap.getpixel((x, y)) == 0 for x in range(bitmap.width)]
               for y in range(bitmap.height)]
    assert printed == [[bool(module) for module in row] for row in expected.matrix]
    pdf = pikepdf.open(io.BytesIO(render.sheets_pdf([sheet], title="t")))
    images = [x for x in pdf.pages[0].Resources.XObject.values() if x.Subtype == "/Image"]
    assert [(int(i.Width), bool(i.Interpolate)) for i in images] == [(bitmap.width, False)]


def test_a_whole_round_is_one_page_per_table_in_table_order(czech):
    event, _ = czech
    pdf = render.round_sheets_pdf(selectors.round_for_print(event, 2), BASE)
    pages = reader(pdf).pages
    assert len(pages) == 4
    assert re.search(r"^4$", pages[3].extract_text(), re.M)
    assert "Stůl / Tisch / Table 4 ·" in pages[3].extract_text()
    assert "Skalský" in pages[3].extract_text() and "Skalský" not in pages[0].extract_text()


@pytest.mark.parametrize("build", [printouts.slovenian_event, printouts.austrian_event,
                                   printouts.czech_event])
def test_a_rounds_sheets_share_one_parsed_stylesheet_and_look_as_each_alone(build, monkeypatch,
                                                                          printed_at_fixed):
    """The round's sheets are laid out together with the stylesheet parsed once (it was an
    eighth of the rendering); each page is pixel for pixel the sheet rendered alone with its
    own <style>."""
    event = build(slug=f"shared-style-{build.__name__}", tables=3)
    printouts.seat(event, 1)
    sheets = selectors.table_sheets(selectors.round_for_print(event, 1), BASE)
    parsed = []
    original = render._sheet_stylesheet
    monkeypatch.setattr(render, "_sheet_stylesheet",
                        lambda kind, fonts: parsed.append(kind) or original(kind, fonts))
    together = render.sheets_pdf(sheets, title="round")
    assert parsed == [sheets[0].kind]
    assert "<style>" not in render.sheet_html(sheets[2], shared_style=True)
    alone_html = render.sheet_html(sheets[2])
    assert "<style>" in alone_html
    alone = base.write([base.document(alone_html, render.FontConfiguration())], "alone")
    assert (page_image(together, page=2, dpi=100).tobytes()
            == page_image(alone, dpi=100).tobytes())


def test_a_rounds_sheets_are_laid_out_in_batches_each_sheet_on_its_own_page(monkeypatch):
    """The sheets' own entries are laid out a batch to a WeasyPrint document (a document per
    sheet was a seventh of a round's time), over one form laid out once, the progress told
    after each batch; every sheet still begins its own page, in table order, with its own
    footer."""
    monkeypatch.setattr(render, "SHEETS_PER_DOCUMENT", 2)
    event = printouts.slovenian_event(slug="batches", tables=5)
    printouts.seat(event, 1)
    sheets = selectors.table_sheets(selectors.round_for_print(event, 1), BASE)
    laid_out = []
    original = base.document
    monkeypatch.setattr(base, "document",
                        lambda html, *a: laid_out.append((html.count('class="table-sheet"'),
                                                          html.count('class="sheet-fill"')))
                        or original(html, *a))
    told = []
    pages = reader(render.sheets_pdf(sheets, title="round", progress=told.append)).pages
    assert laid_out == [(1, 0), (0, 2), (0, 2), (0, 1)]
    assert told == [2, 4, 5]
    assert len(pages) == 5
    for number, page in enumerate(pages, start=1):
        body = page.extract_text()
        assert re.search(rf"Krog 1 · Miza {number} · Natisnjeno", body), number
        assert sheets[number - 1].seats[0].name in body


def test_the_cycle_collector_is_paused_while_the_sheets_are_laid_out_and_written(monkeypatch):
    """The laid-out sheets live until the round's PDF is written, and the collector's passes
    over them were a fifth of a large round's time: it is paused meanwhile and given back
    afterwards, also when the rendering fails."""
    event = printouts.slovenian_event(slug="paused", tables=3)
    printouts.seat(event, 1)
    sheets = selectors.table_sheets(selectors.round_for_print(event, 1), BASE)
    enabled_while = []
    original = base.write

    def watching(*args, **kwargs):
        enabled_while.append(gc.isenabled())
        return original(*args, **kwargs)

    monkeypatch.setattr(base, "write", watching)
    assert gc.isenabled()
    assert len(reader(render.sheets_pdf(sheets, title="round")).pages) == 3
    assert enabled_while == [False]
    assert gc.isenabled()

    def failing(*args, **kwargs):
        raise RuntimeError("out of paper")

    monkeypatch.setattr(base, "write", failing)
    with pytest.raises(RuntimeError):
        render.sheets_pdf(sheets, title="round")
    assert gc.isenabled()


def test_reading_a_rounds_sheets_takes_the_same_queries_for_4_or_16_tables():
    small = printouts.slovenian_event(slug="q-small", tables=4)
    big = printouts.slovenian_event(slug="q-big", tables=16)
    printouts.seat(small, 1)
    printouts.seat(big, 1)

    def count(event):
        with CaptureQueriesContext(connection) as ctx:
            sheets = selectors.table_sheets(selectors.round_for_print(event, 1), BASE)
        return len(sheets), len(ctx.captured_queries)

    small_tables, small_queries = count(small)
    big_tables, big_queries = count(big)
    assert (small_tables, big_tables) == (4, 16)
    assert small_queries == big_queries <= 4


def test_page_one_renders_to_an_a4_png_with_ink_on_it():
    event = printouts.slovenian_event(slug="png", tables=1)
    printouts.seat(event, 1)
    image = page_image(_sheet_pdf(event, 1, 1), dpi=50)
    width, height = image.size
    assert abs(height / width - 297 / 210) < 0.01  # A4 portrait
    dark = sum(1 for value in image.tobytes() if value < 100)
    assert dark > 0.01 * width * height  # the grid and the headings are there
    # Nothing is printed in the outer 5 mm, where printers cannot reach.
    margin = round(5 / 25.4 * 50)
    border = [image.getpixel((x, y)) for x in range(width) for y in (0, margin - 1)]
    border += [image.getpixel((x, y)) for y in range(height) for x in (0, margin - 1)]
    assert min(border) > 200
