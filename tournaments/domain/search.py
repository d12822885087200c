"""Player search that forgives what phones and hurried organisers type: case, diacritics
(č = c, ß = ss, ł = l) and the order of the words.

`fold` gives the normalised form of a text. Player keeps it in indexed columns
(`search_name` for "first last", `search_club`), written by its save, so every database
(SQLite and PostgreSQL alike) compares plain lower-case letters with a plain LIKE. A query
is folded the same way and matches when each of its words is part of the folded name (or,
where a search covers them, the club); a query of digits alone is a start number, matched
exactly.
"""

from __future__ import annotations

import re
import unicodedata
from functools import reduce
from operator import and_, or_

from django.db.models import Q

# Letters that Unicode does not decompose into a base letter and a mark: NFKD leaves "đ",
# "ł" or "ø" whole, so they get their plain letters here (casefold already made "ß" "ss").
EXTRA_FOLDS = str.maketrans({
    "đ": "d", "ð": "d", "ł": "l", "ŀ": "l", "ø": "o", "ħ": "h", "ı": "i", "ŧ": "t", "ŋ": "n",
    "ĸ": "k", "þ": "th", "æ": "ae", "œ": "oe",
})
# Words are runs of letters and digits; apostrophes, hyphens, dots and commas separate them,
# so "Müller-Weiß" is "muller weiss" and "Zupančič, Luka" is "zupancic luka".
WORD = re.compile(r"[^\W_]+")
# Room for a first and a last name of 100 characters each (a club of 200) even where folding
# lengthens them (ß → ss); a pathological name is cut, never refused. Both columns together
# stay within PostgreSQL's limit for a row of a btree index (2,704 bytes) at 4 bytes a letter.
SEARCH_NAME_LENGTH = 300
SEARCH_CLUB_LENGTH = 300


def fold(text: str) -> str:
    """Lower case, without diacritics, words separated by one space."""
    # NFKD first (so "Ⅻ" is "XII" before casefold), again after casefold (which may add
    # marks: "İ" becomes "i" and a combining dot), then the marks are dropped.
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    text = "".join(c for c in text if not unicodedata.combining(c)).translate(EXTRA_FOLDS)
    return " ".join(WORD.findall(text))


def player_key(first_name: str, last_name: str, club: str) -> tuple[str, str]:
    """The search columns of a player of these names and club: (search_name, search_club).
    Two records with the same key are the same name and club, whatever the case and
    diacritics."""
    return (fold(f"{first_name} {last_name}")[:SEARCH_NAME_LENGTH],
            fold(club)[:SEARCH_CLUB_LENGTH])


def words(query: str) -> list[str]:
    return fold(query).split()


DIGITS = re.compile(r"[0-9]+")


def is_number(query: str) -> bool:
    return DIGITS.fullmatch(query.strip()) is not None


def matches(folded: str, query: str) -> bool:
    """Whether every word of `query` is part of the folded text (the column's contents)."""
    terms = words(query)
    return bool(terms) and all(term in folded for term in terms)


def player_q(query: str, *, prefix: str = "", clubs: bool = False,
             federation_id: bool = False) -> Q:
    """Players (or, with `prefix="player__"`, what points at them) whose folded name holds
    every word of the query; with `clubs`, a word may be in the club instead; with
    `federation_id`, the whole query may also be a federation id. A query without words
    matches nothing."""
    terms = words(query)
    if not terms:
        return Q(pk__in=[])
    fields = [f"{prefix}search_name__contains"] + ([f"{prefix}search_club__contains"] if clubs else [])
    condition = reduce(and_, (reduce(or_, (Q(**{f: term}) for f in fields)) for term in terms))
    if federation_id:
        condition |= Q(**{f"{prefix}federation_id__iexact": query.strip()})
    return condition


def registration_q(query: str) -> Q:
    """Registrations of the player a query names: a start number exactly, else the name."""
    if is_number(query):
        # At most nine digits, as in addresses; a longer number is no start number.
        digits = query.strip().lstrip("0") or "0"
        return Q(start_number=int(digits)) if len(digits) <= 9 else Q(pk__in=[])
    return player_q(query, prefix="player__")
