"""What a read hand of the GP Vysočiny rules (seed 004) must not say.

- Druhá povinnost is the obligation to win the last trick with the pagát ("hráč hrající
  druhou povinnost musí uhrát pagátem poslední zdvih"): the hand lists it as the declarer's
  announced pagát (`druha_povinnost_needs_pagat`).
- A valát is one side taking every trick; the other side then holds only its discards, in
  sólo the talon ("od hodnoty 35 očí se odečte hodnota karet shozu protistrany (při hraném
  sólu se odečte hodnota talonu)"), never more than the six talon cards ("Do talónů se dává
  prvních 6 karet"): the declarer's side's `points` must fit (`valat_points_inconsistent`).
- The pagát hláška is won in the last trick with the pagát, by the player who holds it; a
  trul shown from the hand is the pagát, the mond and the škýz in one player's hand; a side
  without a trick (the other side's valát) wins no last trick. Announcements that cannot be
  true together are refused, naming the pair (`impossible_together`).
"""

from __future__ import annotations

from scoring.errors import ErrorCollector
from scoring.rules.base import Card
from scoring.rules.checks import (
    LAST,
    PAGAT,
    TALON_CARDS,
    TRULA_CARDS,
    Claim,
    check_claims,
    valat_fits,
)
from scoring.rules.gp_vysociny.parse import ParsedAnnouncement, ParsedHand, declarer_side
from scoring.rules.gp_vysociny.tables import HELD_HLASKY, PLAYED_HLASKY, VARSAVA


def check_hand(i: int, hand: ParsedHand, card: Card, errors: ErrorCollector) -> None:
    if hand.game == VARSAVA or hand.declarer is None:
        return
    side = declarer_side(hand)
    if hand.game == "druha_povinnost":
        if not any(a.name == "pagat" and a.by == hand.declarer and a.announced
                   for a in hand.announcements):
            errors.add(i, "announcements", "druha_povinnost_needs_pagat",
                       "druhá povinnost is the declarer's obligation to win the last "
                       "trick with the pagát: list it as an announced pagát by the declarer")
    if hand.points is not None:
        for a in hand.announcements:
            if a.name == "valat" and a.achieved and \
                    not valat_fits(hand.points, a.by in side, TALON_CARDS):
                ours = a.by in side
                errors.add(i, "points", "valat_points_inconsistent",
                           f"a valát won by {'the declarer' if ours else 'the opponents'}'s "
                           f"side leaves the other side only its discard (at most "
                           f"{TALON_CARDS} cards); points {hand.points} do not fit",
                           points=hand.points)
    check_claims(i, [c for a in hand.announcements
                     if (c := _claim(a, side)) is not None], errors)


def _claim(a: ParsedAnnouncement, side: tuple[str, ...]) -> Claim | None:
    who = "declarer" if a.by in side else "opponents"
    if a.name == "trul":
        return Claim(a.index, HELD_HLASKY[a.name][0], who, held=TRULA_CARDS, holder=a.by)
    if a.name == "pagat":
        name = PLAYED_HLASKY[a.name][0]
        if a.achieved:
            return Claim(a.index, name, who, frozenset({PAGAT}), frozenset({LAST}),
                         held=frozenset({PAGAT}), holder=a.by)
        return Claim(a.index, name, who, held=frozenset({PAGAT}), holder=a.by)
    if a.name == "valat" and a.achieved:
        return Claim(a.index, PLAYED_HLASKY[a.name][0], who, every_trick=True)
    return None
