"""What the engine texts share: the names players know (games, announcements, contras, looked
up in the ruleset registry and never translated), amounts in the reader's number format, and
whether the reader gets the engines' own English."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import get_language, pgettext

from scoring import money, rules


@cache
def held_announcements() -> frozenset[str]:
    """Announcements shown from the hand (the Czech hlášky such as trul): their lines read
    differently from those decided by the play. The registry says which they are."""
    return frozenset(a.code for r in rules.all_rulesets() for a in r.announcements
                     if a.kind == "held")


# -- names the players know: looked up in the rulesets, never translated ----------------------

@cache
def names_of(ruleset: str | None) -> tuple[dict[str, str], dict[str, str], dict[int, str]]:
    """(game names, announcement names, contra names) by code: those of `ruleset` first, then
    of every other ruleset, so a line whose ruleset is not known still gets a good name."""
    all_rulesets = rules.all_rulesets()
    # Without a ruleset the contra names of the Slovenian rules (kontra, rekontra) are the
    # likeliest; the pages pass the card's ruleset wherever they have it.
    first = (rules.get(ruleset) if ruleset else None) or rules.default()
    ordered = ([first] if first is not None else []) + [r for r in all_rulesets if r is not first]
    games: dict[str, str] = {}
    announcements: dict[str, str] = {}
    contras: dict[int, str] = {}
    for r in ordered:
        for g in r.games:
            games.setdefault(g.code, g.name)
        for a in r.announcements:
            announcements.setdefault(a.code, a.name)
        if r is first or not contras:
            for c in r.contra_levels:
                contras.setdefault(c.level, c.name)
    return games, announcements, contras


class LineContext:
    """What a renderer needs: the line's params, its player and the names of its ruleset."""

    def __init__(self, item: Mapping[str, Any], ruleset: str | None):
        self.item = item
        params = item.get("params")
        self.p: Mapping[str, Any] = params if isinstance(params, Mapping) else {}
        self.games, self.announcements, self.contras = names_of(ruleset)

    def game(self, code: Any) -> str:
        return self.games.get(str(code), str(code))

    def announcement(self, code: Any) -> str:
        return self.announcements.get(str(code), str(code))

    def item_name(self, code: Any) -> str:
        """What a contra names: the game, an announcement, or a game code."""
        code = str(code)
        if code == "game":
            return str(pgettext("engine", "game"))
        return self.announcements.get(code) or self.games.get(code) or code

    def contra(self, level: Any) -> str:
        return self.contras[int(level)]


def local_number(value: Decimal) -> str:
    """Two decimals in the active language's number format, grouped: 1.234,50."""
    return number_format(value, 2, force_grouping=True)


def kc(haler: Any, *, plus: bool = False, minus: str = money.MINUS) -> str:
    """Haléř as Kč in the active language's number format: 340 → 3,40 Kč (scoring.money)."""
    return money.kc(haler, number=local_number, plus=plus, minus=minus)


_THIRDS = {Fraction(1, 3): "⅓", Fraction(2, 3): "⅔", Fraction(1, 2): "½"}


def table_points_text(value: Any) -> str:
    """Table points of the points system as the standings write them: in thirds (10⅓ rather
    than 10.333) and in the active language's decimals otherwise."""
    if value is None:
        return ""
    if isinstance(value, Fraction):
        frac = value
    else:
        # A decimal is read as the third it rounds (7.333 is 7⅓), never a number that only
        # lies near one (3.001, a lone player's points with the deduction "0.333", stays).
        exact = Fraction(Decimal(value))
        frac = exact.limit_denominator(3)
        if abs(frac - exact) >= Fraction(1, 2000):
            frac = exact
    whole = int(frac)
    rest = frac - whole
    if rest == 0:
        return str(whole)
    sign = "−" if frac < 0 else ""
    whole, rest = abs(whole), abs(rest)
    symbol = _THIRDS.get(rest)
    if symbol is None:
        rounded = (Decimal(frac.numerator) / Decimal(frac.denominator)).quantize(Decimal("0.001"))
        return number_format(rounded.normalize())
    return f"{sign}{whole or ''}{symbol}"


def signed(n: Any) -> str:
    n = int(n)
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def english_reader() -> bool:
    """English readers get the engine's own words, which are the most specific."""
    language = get_language()
    return language is None or language.split("-")[0] == "en"


def fill(msgid: Any, **values: Any) -> str:
    """The translation of `msgid` (a lazy pgettext, or a lazy npgettext that picks its form
    by one of the values) with named values filled in."""
    return str(msgid % values)
