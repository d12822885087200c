"""The pages' Kč (the `money` and `amount` filters and the engine texts' `kc`) are written by
scoring.money with the reader's number format, byte for byte as before it existed."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.formats import number_format

from tournaments.engine_text.common import kc
from tournaments.templatetags.tarok import amount, money

AMOUNTS = [0, 1, 5, 99, 100, 650, -650, 2000, -2000, 123456, -123456, 100000000, -99999999]


def _old_money(value):
    a = Decimal(int(value)) / 100
    text = number_format(abs(a), 2, force_grouping=True)
    return f"{'−' if a < 0 else ('+' if a > 0 else '')}{text} Kč"


def _old_amount(value):
    return f"{number_format(Decimal(int(value)) / 100, 2, force_grouping=True)} Kč"


def _old_kc(haler):
    n = int(haler)
    return f"{'−' if n < 0 else ''}{number_format(Decimal(abs(n)) / 100, 2, force_grouping=True)} Kč"


@pytest.mark.parametrize("lang", ["en", "sl", "cs", "de"])
def test_the_page_writers_are_unchanged(lang):
    with translation.override(lang):
        for value in AMOUNTS:
            assert money(value) == _old_money(value), (lang, value)
            assert amount(value) == _old_amount(value), (lang, value)
            assert kc(value) == _old_kc(value), (lang, value)
            assert money(str(value)) == _old_money(value)
        assert money(None) == money("") == amount(None) == ""


def test_the_reader_s_number_format_is_used():
    with translation.override("de"):
        assert money(-123456) == "−1.234,56 Kč"
        assert amount(2000) == "20,00 Kč"
    with translation.override("en"):
        assert money(123456) == "+1,234.56 Kč"
