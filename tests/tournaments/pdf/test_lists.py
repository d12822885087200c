"""The lists: the seating list for the wall (by table, then alphabetically with each player's
table) and the standings after any round or as final results, read back from the PDF."""

from __future__ import annotations

import gc
import re

import pytest

from sample_data import printouts
from tests.tournaments.pdf.pdftext import page_texts, text
from tournaments import services
from tournaments.domain.standings import event_standings
from tournaments.models import Event
from tournaments.printing import base, render, selectors
from tournaments.services import round_jobs

pytestmark = pytest.mark.django_db


def test_seating_list_by_table_and_alphabetically_with_the_table():
    event = printouts.slovenian_event(slug="wall", tables=3)
    tables = [[12, 1, 7, 4], [3, 9, 2, 11], [5, 6, 8, 10]]
    rnd = printouts.seat(event, 1, tables)
    pages = page_texts(render.seating_pdf(selectors.round_for_print(event, 1)))
    by_table, alphabetical = pages[0], "\n".join(pages[1:])
    assert "Razpored, 1. krog" in by_table and "Po mizah" in by_table
    # By table: every table in order with its players' start numbers in seat order.
    for number, seats in enumerate(tables, start=1):
        block = by_table.split(f"Miza {number}")[1]
        found = [int(n) for n in re.findall(r"^(\d+) ", block, re.M)][:4]
        assert found == seats, number
    # Alphabetically: every player once, surnames in order, each with his table.
    # (The table is drawn first, at the row's right end.)
    rows = [(surname, first, number, table) for table, surname, first, number in re.findall(
        r"^Miza (\d+)\s*(\S+) (\S+) \((\d+)\)$", alphabetical, re.M)]
    assert len(rows) == 12
    surnames = [r[0] for r in rows]
    assert surnames == sorted(surnames, key=lambda n: selectors.collation_key(n, "sl"))
    assert surnames.index("Kovač") < surnames.index("Kovačič") < surnames.index("Krajnc")
    table_of = {int(n): t for t, seats in enumerate(tables, start=1) for n in seats}
    assert all(int(table) == table_of[int(number)] for _, _, number, table in rows)
    assert rnd.tables.count() == 3


def test_the_alphabetical_list_fills_two_columns_a_page_and_no_column_runs_over():
    """The renderer cuts the alphabetical list into pages of two columns (CSS columns were a
    third of the list's rendering): every page holds exactly the players of its two columns,
    a letter heading never ends a column, and the PDF has no page the cut did not plan."""
    event = printouts.slovenian_event(slug="wall-big", tables=50)
    rnd = printouts.seat(event, 1)
    listing = selectors.seating_list(selectors.round_for_print(event, 1))
    planned = render.alphabetical_pages(listing.alphabetical)
    assert len(planned) == 3
    for page in planned:
        for column in page:
            limit = render.ALPHA_FIRST_ROWS if page is planned[0] else render.ALPHA_ROWS
            assert len(column) <= limit and column[-1].entry is not None
    pages = page_texts(render.seating_pdf(selectors.round_for_print(event, 1)))
    alphabetical = pages[-len(planned):]
    assert "Po abecedi" in alphabetical[0] and "Po abecedi" not in pages[-len(planned) - 1]
    for text_of_page, page in zip(alphabetical, planned, strict=True):
        printed = re.findall(r"\((\d+)\)$", text_of_page, re.M)
        assert printed == [item.entry.seat.start_number for column in page
                           for item in column if item.entry], "a column ran over its page"
    assert rnd.tables.count() == 50


def test_a_letter_heading_goes_to_the_next_column_with_its_first_name():
    entries = [selectors.SeatingEntry(seat=None, table=1, letter=letter) for letter in "AAAB"]
    pages = render.alphabetical_pages(entries * 2, first_rows=5, rows=5)
    columns = [[item.letter or "-" for item in column] for page in pages for column in page]
    # "B" would be the fifth line of the first column, with its name below the foot.
    assert columns[:2] == [["A", "-", "-", "-"], ["B", "-", "A", "-", "-"]]
    # The last page's three lines are shared out, but not with "B" at the foot of the first.
    assert columns[2:] == [["-", "B", "-"]]
    short = render.alphabetical_pages(entries[:3], first_rows=46, rows=49)
    assert [[item.letter or "-" for item in column] for column in short[0]] == [["A", "-"], ["-", "-"]]


def test_a_list_is_laid_out_with_the_cycle_collector_paused_and_given_back(monkeypatch):
    """A long list's boxes live until it is written; the collector's passes over them were a
    quarter of its time. It is paused while a list is laid out and given back, also on an
    error."""
    event = printouts.slovenian_event(slug="wall-gc", tables=2)
    printouts.seat(event, 1)
    seen = []
    original = base.document

    def watching(*args, **kwargs):
        seen.append(gc.isenabled())
        return original(*args, **kwargs)

    monkeypatch.setattr(base, "document", watching)
    render.seating_pdf(selectors.round_for_print(event, 1))
    render.standings_pdf(event)
    assert seen == [False, False] and gc.isenabled()

    def failing(*args, **kwargs):
        raise RuntimeError("out of toner")

    monkeypatch.setattr(base, "document", failing)
    with pytest.raises(RuntimeError):
        render.standings_pdf(event)
    assert gc.isenabled()


def test_names_are_alphabetical_as_the_events_language_orders_them():
    names = ["Zeman", "Čermák", "Cvetko", "Dolenc", "Šimek", "Sobota", "Müller", "Maier"]
    assert sorted(names, key=lambda n: selectors.collation_key(n, "cs")) == [
        "Cvetko", "Čermák", "Dolenc", "Maier", "Müller", "Sobota", "Šimek", "Zeman"]
    assert sorted(["Müller", "Muster", "Mayer"], key=lambda n: selectors.collation_key(n, "de")
                  ) == ["Mayer", "Müller", "Muster"]


def _play_rounds(event, rounds: int):
    organiser = event.organisers.first()
    for number in range(1, rounds + 1):
        if number == 1:
            rnd = printouts.seat(event, 1)
        else:
            job = round_jobs.round_generation_queue(event=event, actor=organiser)
            round_jobs.round_generate(job.pk)
            rnd = event.rounds.get(number=number)
        services.round_publish(rnd=rnd, actor=organiser)
        for table in rnd.tables.all():
            printouts.play_tri1_table(table, seed=number * 10 + table.number)
        round_jobs.round_close(rnd=rnd, actor=organiser)


def _order(pdf: bytes) -> list[int]:
    """Start numbers in the order the printed standings list them."""
    return [int(m) for m in re.findall(r"^\d+\.=? (\d+) ", text(pdf), re.M)]


def test_standings_after_a_round_and_the_final_results():
    event = printouts.slovenian_event(slug="ranked", tables=2)
    _play_rounds(event, 2)
    after_one = render.standings_pdf(event, up_to_round=1)
    assert "Lestvica po 1. krogu" in text(after_one)
    expected = [row.start_number for row in event_standings(event, up_to_round=1).rows]
    assert _order(after_one) == expected
    now = render.standings_pdf(event)
    assert "Lestvica po 2. krogu" in text(now)
    assert _order(now) == [row.start_number for row in event_standings(event).rows]
    services.event_update(event=event, actor=event.organisers.first(),
                          status=Event.Status.FINISHED)
    final = text(render.standings_pdf(event))
    assert "Končni vrstni red" in final
    # Table points and score per round, the total of table points is 10 per table per round.
    rows = event_standings(event).rows
    assert sum(r.points for r in rows) == 2 * 2 * 10
    leader = rows[0]
    assert re.search(rf"^1\. {leader.start_number} {re.escape(leader.player.full_name)}",
                     final, re.M)


def test_money_standings_are_in_crowns():
    event = printouts.czech_event(slug="money-standings")
    rnd = printouts.czech_round_two(event)
    services.round_publish(rnd=rnd, actor=event.organisers.first())
    printouts.play_money_table(rnd.tables.get(number=4), {
        "8": (0, 650), "23": (1000, 230), "45": (0, 4200), "98": (0, 3920)})
    body = text(render.standings_pdf(event))
    assert "Výsledek (Kč)" in body
    # Seed 004: 45 Sobota ends with 42,00 Kč of a 20,00 Kč stake: +22,00; 23 Fric bought
    # 10,00 and ends with 2,30: −27,70.
    assert re.search(r"^1\. 45 Jiří Sobota .*\+22,00$", body, re.M)
    assert re.search(r"23 Petr Fric .*−27,70$", body, re.M)
    assert "Nepotvrzené" not in body
    assert "dosud nepotvrzené stoly" in body  # the other tables of the round are pending


@pytest.mark.parametrize(("rounds", "uses_points"), [(0, True), (4, True), (4, False), (9, True),
                                                     (20, True)])
def test_the_standings_columns_fill_the_page_and_leave_the_name_its_room(rounds, uses_points):
    """The standings list is laid out with fixed column widths (no measuring of every cell):
    they add up to the page's width, the name keeps at least its minimum, and many rounds
    share what is left rather than push the name off the page."""
    columns = render.standings_columns(rounds, uses_points)
    total = columns["rank"] + columns["number"] + columns["name"] + columns["club"] + \
        columns["round"] * rounds + columns["score"] + (columns["points"] if uses_points else 0)
    assert total == pytest.approx(render.STANDINGS_WIDTH_MM)
    assert columns["name"] >= render.STANDINGS_NAME_MIN_MM
    assert columns["round"] <= render.STANDINGS_ROUND_MM
    assert ("points" in columns) == uses_points
