"""What a read hand of Lada Zei's rules (seed 003) must not say.

Only the playing side scores announcements here (`announcement_by_defender` is refused when
the hand is read), so two announcements of a hand never need the tricks of different sides.
What is left to check is the valat against the points: "Valat: ... nasprotnikom pa ne bo
pustil nobenega vzetka" — the opponents take no trick and count only the talon cards the
declarer did not take (TAROK ZA ŠTIRI: "porine ostanek talona nasprotnemu paru"; SOLO BREZ
TALONA: "ga po končani igri nasprotniki prištejejo k skupnemu seštevku"), so the declarer's
side has at least 70 less what those cards can count (`valat_contradicts_points`).
"""

from __future__ import annotations

from scoring.errors import ErrorCollector
from scoring.rules.base import Card
from scoring.rules.checks import TALON_CARDS, valat_fits
from scoring.rules.zei.parse import Hand


def check_hand(i: int, h: Hand, card: Card, errors: ErrorCollector) -> None:
    if h.points is None:
        return
    for a in h.announcements:
        if a.code == "valat" and a.achieved:
            outside = TALON_CARDS - h.game.talon_cards
            if not valat_fits(h.points, True, outside):
                errors.add(i, f"announcements[{a.index}].achieved",
                           "valat_contradicts_points",
                           f"a valat takes every trick: the opponents count only the "
                           f"{outside} talon cards left to them, so the declarer's side cannot "
                           f"have only {h.points} points", points=h.points,
                           cards_outside=outside)
