"""What a read hand of the Tarok.net rules must not say: announcements that cannot be true
together, and a silent valat that does not fit the points counted.

- A valat is a side taking every trick (§2.4 "Valat - za valat gre, ko en ali več igralcev,
  ki igrajo skupaj, naredijo vse vzetke"). The other side then counts only the cards that were
  never in a trick: after the declarer's valat, the talon cards he left to the defenders
  (§2.3 "Ostanek talona pa pripade nasprotnikoma"; "Brez talona ... pripade nasprotnikoma"),
  after the defenders' valat his own discards (§2.3 the exchanged cards "pripadajo njemu ter
  se njihova vrednost (točke) prištejejo"). So `points` is not 70 or 0 but within what those
  cards can count (`valat_points_mismatch` otherwise).
- Trula and kralji are cards in the announcer's tricks ("imeti v svojih vzetkih pagata, monda
  in škisa", "vse štiri kralje"), pagat ultimo and kralj ultimo the last trick with the pagat
  or the called king; a side that took no trick has none of them. Pagat ultimo and a trula
  held from the start (revision, Posebnosti) say who had the pagat in his hand ("Pagat ultimo
  pomeni, da ima v listu pagata").
"""

from __future__ import annotations

from scoring.errors import ErrorCollector
from scoring.rules.checks import (
    CALLED_KING,
    KINGS,
    LAST,
    PAGAT,
    TALON_CARDS,
    TRULA_CARDS,
    Claim,
    check_claims,
    valat_fits,
)
from scoring.rules.tarok_net.hand import Ann, Hand, TarokNetCard
from scoring.rules.tarok_net.tables import ANNOUNCEMENT_NAMES, TALON_TAKEN

# announcement -> (cards it puts in its side's tricks, tricks it wins counted from the end)
_WHEN_MADE = {
    "trula": (TRULA_CARDS, frozenset()),
    "kralji": (KINGS, frozenset()),
    "pagat_ultimo": (frozenset({PAGAT}), frozenset({LAST})),
    "kralj_ultimo": (frozenset({CALLED_KING}), frozenset({LAST})),
}


def check_hand(i: int, h: Hand, card: TarokNetCard, errors: ErrorCollector) -> None:
    if h.void or not h.announcements:
        return
    _valat_and_points(i, h, errors)
    if len(h.announcements) > 1:
        check_claims(i, [_claim(a) for a in h.announcements], errors)


def _valat_and_points(i: int, h: Hand, errors: ErrorCollector) -> None:
    if h.points is None or h.spec is None:
        return
    for a in h.announcements:
        if a.name != "valat" or not a.achieved:
            continue
        taken = TALON_TAKEN[h.spec.code]
        outside = TALON_CARDS - taken if a.declarer_side else taken
        if not valat_fits(h.points, a.declarer_side, outside):
            who = "declarer's side" if a.declarer_side else "defenders"
            other = "the talon cards he left them" if a.declarer_side else "his discards"
            errors.add(i, f"announcements[{a.index}].achieved", "valat_points_mismatch",
                       f"a silent valat of the {who} leaves the other side only {other} "
                       f"({outside} cards): the declarer's side cannot have {h.points} points",
                       points=h.points, cards_outside=outside)


def _claim(a: Ann) -> Claim:
    side = "declarer" if a.declarer_side else "defenders"
    name = ANNOUNCEMENT_NAMES[a.name]
    # the pagat was in this side's hand: it played the pagat ultimo, or held the whole trula
    held = frozenset({PAGAT}) if a.name == "pagat_ultimo" else (
        TRULA_CARDS if a.held and a.name == "trula" else frozenset())
    if not a.achieved:
        return Claim(a.index, name, side, held=held, holder=side)
    if a.name == "valat":
        return Claim(a.index, name, side, every_trick=True, held=held, holder=side)
    cards, tricks = _WHEN_MADE[a.name]
    return Claim(a.index, name, side, cards, tricks, held=held, holder=side)
