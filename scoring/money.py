"""Money as people read it: every amount is kept in hundredths (haléř: 1 Kč = 100 haléř; a
payout's cents) and written here, the one place that does, as the pages, the printed sheets and
the engine's own lines show it.

Pure Python (no Django), so the scoring engine writes its English lines with it too. A page
that follows the reader's language passes its own `number` (Django's number_format) instead of
the sheet's comma.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

HALER_PER_KC = 100
# The typographic minus, as the pages and the sheets print a negative amount.
MINUS = "−"
KC = "Kč"

Number = Callable[[Decimal], str]


def comma(value: Decimal) -> str:
    """Two decimals after a comma, no grouping, as the seed's sheets write money: 6,50."""
    return f"{value:.2f}".replace(".", ",")


def point(value: Decimal) -> str:
    """Two decimals after a point, no grouping, as the engine's English lines write it: 3.40."""
    return f"{value:.2f}"


def hundredths(amount: Any, *, number: Number = comma, plus: bool = False, minus: str = MINUS,
               unit: str = "") -> str:
    """An amount in hundredths as units: the sign (`minus` below zero, "+" above it when
    `plus`), the absolute value written by `number`, then the unit (" Kč") if any."""
    n = int(amount)
    sign = minus if n < 0 else ("+" if plus and n > 0 else "")
    text = number(Decimal(abs(n)) / HALER_PER_KC)
    return f"{sign}{text} {unit}" if unit else f"{sign}{text}"


def kc(haler: Any, *, number: Number = comma, plus: bool = False, minus: str = MINUS) -> str:
    """Haléř as Kč with the unit: 650 -> "6,50 Kč", -650 -> "−6,50 Kč"."""
    return hundredths(haler, number=number, plus=plus, minus=minus, unit=KC)


def sheet_kc(haler: int | None, *, sign: bool = False) -> str:
    """Haléř as the seed's sheet writes them in a column headed Kč: 650 -> "6,50", a loss
    "−6,50", a win "+6,50" when `sign`; nothing for no amount."""
    if haler is None:
        return ""
    return hundredths(haler, plus=sign)


def english_kc(haler: int) -> str:
    """Haléř as Kč in the engine's English lines: 340 -> "3.40 Kč", -340 -> "-3.40 Kč"."""
    return kc(haler, number=point, minus="-")


def coin_label(haler: int) -> str:
    """A coin as the seed's sheet names it: "5,- Kč", "1,- Kč", "50 hal", "10 hal"."""
    return f"{haler // HALER_PER_KC},- {KC}" if haler >= HALER_PER_KC else f"{haler} hal"
