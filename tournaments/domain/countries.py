"""Countries as people type them: "Slovenija", "Slovenia", "slovenija" and "SI" are all SI.

A country is stored as its ISO 3166 alpha-2 code (django-countries). What an organiser types
in the add-player form or writes in a CSV file is read as a code when it is one, else as the
country's name in English, Slovenian, Czech or German (the site's languages) or in the page's
language, including the older names django-countries keeps ("Czech Republic", "Česká
republika"), ignoring case and diacritics ("Osterreich"). Anything else is refused, never
guessed: a two-letter prefix such as "SL" is Sierra Leone's code, so a name is never cut.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.utils import translation
from django_countries import countries

from tournaments.domain.search import fold


def _names_of(entry: object) -> list[object]:
    if isinstance(entry, dict):
        return list(entry.get("names") or [entry.get("name")])
    return [entry]


@lru_cache(maxsize=16)
def _codes_by_name(language: str) -> dict[str, str]:
    """{folded name: code} of every country's names in one language."""
    out: dict[str, str] = {}
    with translation.override(language):
        for code, entry in countries.countries.items():
            for name in [*_names_of(entry), *countries.shadowed_names.get(code, [])]:
                if name:
                    out.setdefault(fold(str(name)), code)
    return out


def languages() -> list[str]:
    """The languages whose names are understood: the site's, and the page's first."""
    site = [code for code, _name in settings.LANGUAGES]
    current = translation.get_language() or settings.LANGUAGE_CODE
    return list(dict.fromkeys([current, *site]))


def country_code(text: str) -> str | None:
    """The ISO 3166 alpha-2 code `text` names ("" for no country), or None when it names no
    country."""
    text = text.strip()
    if not text:
        return ""
    if len(text) == 2 and text.upper() in countries:
        return text.upper()
    key = fold(text)
    for language in languages():
        code = _codes_by_name(language).get(key)
        if code:
            return code
    return None


def choices() -> list[tuple[str, str]]:
    """(code, name) of every country, named and sorted in the page's language."""
    return [(country.code, str(country.name)) for country in countries]
