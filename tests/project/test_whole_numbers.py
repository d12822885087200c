"""One reading of whole numbers from outside (issue #29): `tournaments.limits.whole_number`
takes ASCII digits only, within bounds, and answers its default for anything else."""

from __future__ import annotations

import pytest

from tournaments.limits import INT_MAX, SMALL_MAX, whole_number


@pytest.mark.parametrize(("raw", "number"), [
    ("0", 0), ("7", 7), ("0042", 42), (str(INT_MAX), INT_MAX), (12, 12),
])
def test_ascii_digits_are_a_whole_number(raw, number):
    assert whole_number(raw) == number


def test_twenty_digits_are_read_when_the_bounds_allow_them():
    assert whole_number("9" * 20, high=10**20) == 10**20 - 1


@pytest.mark.parametrize("raw", [
    "²", "①", "١٢", "۱۲", "१२", "１２",      # digits that are not ASCII: isdigit() is True for all
    "-1", "+1", " 1", "1 ", "1\n", "\t1",    # a sign, spaces: int() takes them, nobody typed them
    "1_000", "1e3", "1.0", "0x1f", "",       # int() reads "1_000"; the rest are no whole numbers
    None, True, False, 1.0, b"12", ["1"],    # not text nor int
    # Longer than any column: refused before int() reads it (int() refuses 4,300 digits itself).
    pytest.param("9" * 21, id="21 digits"), pytest.param("9" * 5000, id="5000 digits"),
    pytest.param("9" * 1_000_000, id="a million digits"),
])
def test_anything_else_is_no_whole_number(raw):
    assert whole_number(raw) is None
    assert whole_number(raw, default=1) == 1


def test_the_bounds_hold_for_text_and_for_ints():
    assert whole_number("0", low=1) is None
    assert whole_number("5", low=1, high=5) == 5
    assert whole_number("6", low=1, high=5, default=1) == 1
    assert whole_number(str(INT_MAX + 1)) is None
    assert whole_number(SMALL_MAX + 1, high=SMALL_MAX) is None
    assert whole_number(-3) is None
    assert whole_number(-3, low=-5) == -3
