"""What a read hand of the Steirischer Tarockcup (seed 001) must not say.

- A Valat is one side taking every trick ("Sobald ein Valat angesagt oder still erzielt
  wird"): that side wins the game (`valat_contradicts_won`), and when `points` are given the
  other side counts only cards that never were in a trick, at most the six of the talon
  ("Der Talon wird in der Mitte (nach 4 x 6 Karten) gegeben"): `valat_points_inconsistent`.
- The premiums say where cards went ("Die Prämien"): Trull and 4 Könige are the three Trull
  cards and the four kings in the side's tricks; Pagat (I), Uhu (II), Kakadu (III) and Quapil
  (IIII) win the last, second-last, third-last and fourth-last trick with that tarok ("muss
  er im drittletzten Stich ... mit Uhu stechen"); König ultimo wins the last trick with the
  called king. Two premiums of different sides that need the same card or the same trick,
  or anything of a side without a trick beside the other side's Valat, cannot be true
  together (`impossible_together`).
- A hand ended by a renons was not played out: its silent premiums are claims of what the
  renons cost ("Entsteht einem Spieler durch Renonce ... ein offensichtlicher
  Punkteverlust"), not realised feats, so they are not held against each other.
"""

from __future__ import annotations

from scoring.errors import ErrorCollector
from scoring.rules.base import Card
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
from scoring.rules.tarockcup.hand import Hand, Premium, on_decl_side
from scoring.rules.tarockcup.tables import PREMIUM_NAMES

# premium -> (cards in the side's tricks, tricks it wins counted from the end)
_CLAIMS: dict[str, tuple[frozenset[str], frozenset[int]]] = {
    "pagat": (frozenset({PAGAT}), frozenset({LAST})),
    "uhu": (frozenset({"II"}), frozenset({2})),
    "kakadu": (frozenset({"III"}), frozenset({3})),
    "quapil": (frozenset({"IIII"}), frozenset({4})),
    "koenig_ultimo": (frozenset({CALLED_KING}), frozenset({LAST})),
    "trull": (TRULA_CARDS, frozenset()),
    "vier_koenige": (KINGS, frozenset()),
}


def check_hand(i: int, h: Hand, card: Card, errors: ErrorCollector) -> None:
    if h.declarer is None or h.conceded:
        return
    made = [p for p in h.premiums if p.achieved]
    for p in made:
        if p.code != "valat":
            continue
        decl = on_decl_side(h, p.by)
        if h.won is not None and h.won != decl:
            errors.add(i, f"announcements[{p.index}].achieved", "valat_contradicts_won",
                       "a side that takes every trick wins the game: check won and the "
                       "Valat's by")
        elif h.points is not None and not valat_fits(h.points, decl, TALON_CARDS):
            errors.add(i, "points", "valat_points_inconsistent",
                       f"after a Valat the other side holds at most the talon's "
                       f"{TALON_CARDS} cards: the declarer's side cannot have {h.points} "
                       "points", points=h.points)
    if not h.renoncers:
        check_claims(i, [_claim(h, p) for p in made], errors)


def _claim(h: Hand, p: Premium) -> Claim:
    side = "declarer" if on_decl_side(h, p.by) else "defenders"
    if p.code == "valat":
        return Claim(p.index, PREMIUM_NAMES[p.code], side, every_trick=True)
    cards, tricks = _CLAIMS[p.code]
    return Claim(p.index, PREMIUM_NAMES[p.code], side, cards, tricks)
