"""The filled scorecard for the archive and for disputes: every hand with what each player
wrote, the running totals and the engine's breakdown (Hand.lines), the card's state, the money
sheet of a money ruleset, and the table's penalties and disputes."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from sample_data import printouts
from tests.tournaments.pdf.pdftext import text
from tournaments import services
from tournaments.engine_text import line_text
from tournaments.printing import render, selectors

pytestmark = pytest.mark.django_db

BASE = "https://print.example.org"


def _minus(value: int) -> str:
    return f"{value:+d}".replace("-", "−") if value else "0"


def test_a_koenigrufen_card_hand_by_hand_with_the_breakdown_and_the_payout():
    event = printouts.austrian_event(slug="card-at")
    rnd = printouts.seat(event, 1)
    card = printouts.play_schrift_table(rnd.tables.get(number=2))
    filled = selectors.filled_scorecard(event, 1, 2, BASE)
    body = text(render.scorecard_pdf(filled))
    assert "BESTÄTIGT" in body  # the card's state, in the event's language
    assert "AUSGEFÜLLTES SCHREIBBLATT" in body
    hands = list(card.hands.order_by("number"))
    assert len(hands) == 20
    # The engine's lines are printed in the event's language (tournaments.engine_text).
    with translation.override(event.language):
        for hand in hands:
            for line in hand.lines:
                written = line_text(line, card.ruleset_code)
                assert written != line["what"] and written in body, (hand.number, written)
    assert "Rufer gewonnen" in body
    # The total row carries the card's totals in seat order, and every Schrift sums to zero.
    totals = [card.totals[p] for p in card.player_ids]
    assert sum(totals) == 0
    assert re.search(r"^Summe " + " ".join(re.escape(_minus(t)) for t in totals) + "$", body,
                     re.M)
    assert "Auszahlung (€)" in body
    assert "Spiele eingetragen von card-at-organiser und bestätigt von card-at-referee" in body


def test_a_money_card_shows_the_sheet_in_crowns():
    event = printouts.czech_event(slug="card-cz")
    rnd = printouts.czech_round_two(event)
    printouts.play_money_table(rnd.tables.get(number=4), {
        "8": (0, 650), "23": (1000, 230), "45": (0, 4200), "98": (0, 3920)})
    body = text(render.scorecard_pdf(selectors.filled_scorecard(event, 2, 4, BASE)))
    for line in ["8 Jan Novák 0,00 6,50 −13,50", "23 Petr Fric 10,00 2,30 −27,70",
                 "45 Jiří Sobota 0,00 42,00 +22,00", "98 Václav Skalský 0,00 39,20 +19,20"]:
        assert line in body, line
    assert "Součet / Summe / Total 10,00 90,00 0,00" in body


def test_penalties_and_disputes_of_the_table_are_on_the_card():
    event = printouts.slovenian_event(slug="card-sl", tables=1)
    rnd = printouts.seat(event, 1)
    table = rnd.tables.get()
    card = printouts.play_tri1_table(table)
    referee = event.referees.first()
    offender = event.registrations.get(start_number=2)
    services.penalty_record(table=table, registration=offender, kind="renons", actor=referee,
                            hand_number=3, description="nepravilno založil")
    dispute = services.dispute_open(event=event, table=table, hand=card.hands.get(number=5),
                                    description="Sporno štetje točk", actor=referee)
    services.dispute_decide(dispute=dispute, decision="Štetje je pravilno.", actor=referee)
    filled = selectors.filled_scorecard(event, 1, 1, BASE)
    # A referee's correction (the penalty rescored hand 3) keeps the confirmed card confirmed
    # (tournaments.domain.lifecycle): the card is final, not provisional.
    assert filled.finished
    body = text(render.scorecard_pdf(filled))
    assert "Začasno: še ni potrjeno." not in body
    assert "Kazni" in body and "renons · 2 Marija Horvat · igra 3 · nepravilno založil" in body
    assert "Pritožbe" in body and "Sporno štetje točk" in body
    assert "Odločitev: Štetje je pravilno." in body
    assert "Kazen: renons 2" in body  # the penalty also shows at its hand
