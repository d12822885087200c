"""The names a league composes and stores: its divisions ("I. liga", the qualification group)
and its matchdays' events ("… – 3. kolo lige"). Each is written in the league's language
(`League.language`), not in the language of the page that happened to create it, since a
stored name is read by everybody afterwards; and each is composed here only."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from leagues.models import League, Season


def roman(number: int) -> str:
    out = []
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                           (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


def division_name(level: int, language: str | None = None) -> str:
    """The name of the league at `level` (seed 000 §4.2: "I. II. in III. liga"), in
    `language` (the page's when None)."""
    with translation.override(language or translation.get_language()):
        return _("%(roman)s. league") % {"roman": roman(level)}


def qualification_group_name(language: str | None = None) -> str:
    with translation.override(language or translation.get_language()):
        return _("Qualification group")


def matchday_event_name(league: League, season: Season, number: int) -> str:
    """The name of the event a matchday is played as, in the league's language."""
    with translation.override(league.language):
        return _("%(league)s %(season)s – matchday %(n)s") % {
            "league": league.name, "season": season.name, "n": number}
