"""scoring.money, the one writer of Kč (issue #17): signs, zero, the haléř remainder, the sheet's
comma, the engine's English point, coin labels, and a page's own number format passed in."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring import money


@pytest.mark.parametrize(("haler", "sheet", "signed", "english", "with_unit"), [
    (0, "0,00", "0,00", "0.00 Kč", "0,00 Kč"),
    (5, "0,05", "+0,05", "0.05 Kč", "0,05 Kč"),
    (50, "0,50", "+0,50", "0.50 Kč", "0,50 Kč"),
    (650, "6,50", "+6,50", "6.50 Kč", "6,50 Kč"),
    (2000, "20,00", "+20,00", "20.00 Kč", "20,00 Kč"),
    (-1, "−0,01", "−0,01", "-0.01 Kč", "−0,01 Kč"),
    (-650, "−6,50", "−6,50", "-6.50 Kč", "−6,50 Kč"),
    (-123456, "−1234,56", "−1234,56", "-1234.56 Kč", "−1234,56 Kč"),
])
def test_every_writer_of_an_amount(haler, sheet, signed, english, with_unit):
    assert money.sheet_kc(haler) == sheet
    assert money.sheet_kc(haler, sign=True) == signed
    assert money.english_kc(haler) == english
    assert money.kc(haler) == with_unit
    assert money.hundredths(haler) == sheet


def test_no_amount_is_written_as_nothing_on_the_sheet():
    assert money.sheet_kc(None) == ""
    assert money.sheet_kc(None, sign=True) == ""


def test_the_sign_and_the_unit_are_the_callers_choice():
    assert money.kc(650, plus=True) == "+6,50 Kč"
    assert money.kc(0, plus=True) == "0,00 Kč"
    assert money.kc(-650, minus="-") == "-6,50 Kč"
    assert money.hundredths("-650", unit="€") == "−6,50 €"


def test_a_page_passes_its_own_number_format():
    seen = []

    def grouped(value: Decimal) -> str:
        seen.append(value)
        return f"{value:,.2f}".replace(",", " ").replace(".", ",")

    assert money.kc(-123456789, number=grouped) == "−1 234 567,89 Kč"
    # The formatter is given the absolute amount in units, exactly.
    assert seen == [Decimal("1234567.89")]


@pytest.mark.parametrize(("haler", "label"), [(500, "5,- Kč"), (100, "1,- Kč"), (50, "50 hal"),
                                              (10, "10 hal")])
def test_coins_are_named_as_on_the_seed_sheet(haler, label):
    assert money.coin_label(haler) == label


def test_the_old_writers_and_the_new_agree_byte_for_byte():
    # The formatters scoring.money replaced, as they were, over a range of amounts.
    def old_sheet(h, sign=False):
        text = f"{abs(h) // 100},{abs(h) % 100:02d}"
        if h < 0:
            return "−" + text
        return ("+" + text) if sign and h > 0 else text

    def old_english(a):
        s = "-" if a < 0 else ""
        a = abs(a)
        return f"{s}{a // 100}.{a % 100:02d} Kč"

    for h in [*range(-1050, 1051, 7), 10**9 + 1, -(10**9) - 99]:
        assert money.sheet_kc(h) == old_sheet(h)
        assert money.sheet_kc(h, sign=True) == old_sheet(h, sign=True)
        assert money.english_kc(h) == old_english(h)
