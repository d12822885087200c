"""Reading the contras of a Tarok.net hand: kontra and rekontra on the game or on an announced
item (§3.6 "Kontra mora biti točno določena na kaj se nanaša. Tihe realizacije ne gredo pod
kontro. Veljata max. dve kontri"), and the kontra on klop of the competition rules (§3.8)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scoring.errors import ErrorCollector
from scoring.rules.checks import is_int as _is_int
from scoring.rules.checks import items
from scoring.rules.tarok_net.hand import Hand, TarokNetCard
from scoring.rules.tarok_net.tables import ANNOUNCEMENT_NAMES, CONTRA_NAMES, TRI1

_CONTRA_FIELDS = frozenset({"on", "by", "level"})


def read_klop_contras(i: int, hand: dict[str, Any], card: TarokNetCard, h: Hand,
                      errors: ErrorCollector) -> None:
    add = errors.add
    for f, on, by, level in _contras(i, hand, errors):
        if on != "klop":
            add(i, f"{f}.on", "contra_not_allowed",
                "in klop a contra can only be given on klop (kontra klopu)")
            continue
        if card.mode != TRI1:
            add(i, f"{f}.on", "contra_not_allowed",
                f"kontra on klop is a rule of the competition (§3.8, tri+1), not of mode "
                f"{card.mode}")
            continue
        if by not in card.pset:
            add(i, f"{f}.by", "not_a_player", f"{by!r} is not a player of this card")
            continue
        if by == h.resting:
            add(i, f"{f}.by", "contra_by_wrong_side",
                "the resting player cannot give a kontra on klop (§3.8: 'razen talona')")
            continue
        n = len(h.klop_contras)
        if n >= 2:
            add(i, f, "too_many_contras", "at most two contras: kontra and rekontra")
            continue
        if level != n + 1:
            add(i, f"{f}.level", "contra_out_of_order",
                "kontra comes first, then rekontra" if level == 2 and n == 0
                else "a contra at this level was already given")
            continue
        if level == 2 and by == h.klop_contras[0]:
            add(i, f"{f}.by", "contra_by_wrong_side",
                "the rekontra answers the kontra: another player must give it")
            continue
        h.klop_contras.append(by)


def _contras(i: int, hand: dict[str, Any],
             errors: ErrorCollector) -> Iterator[tuple[str, str, str, int]]:
    """(field, on, by, level) of every contra of the hand whose fields are well formed."""
    for _j, f, c in items(i, hand, "contras", _CONTRA_FIELDS, errors):
        parsed = _parse_contra(i, f, c, errors)
        if parsed is not None:
            yield (f, *parsed)


def _parse_contra(i: int, f: str, c: dict[str, Any],
                  errors: ErrorCollector) -> tuple[str, str, int] | None:
    ok = True
    on, by, level = c.get("on"), c.get("by"), c.get("level")
    if not isinstance(on, str):
        errors.add(i, f"{f}.on", "missing" if on is None else "not_a_string",
                   "on names the game, an announcement or klop")
        ok = False
    if not isinstance(by, str):
        errors.add(i, f"{f}.by", "missing" if by is None else "not_a_string",
                   "by names the player who said the contra")
        ok = False
    if not _is_int(level):
        errors.add(i, f"{f}.level", "missing" if level is None else "not_an_integer",
                   "level is 1 (kontra) or 2 (rekontra)")
        ok = False
    elif level in (3, 4):
        errors.add(i, f"{f}.level", "contra_level_not_allowed",
                   "sub- and mort-kontra are not part of these rules ('ta pravila ne "
                   "obravnavajo'): at most kontra and rekontra")
        ok = False
    elif level not in (1, 2):
        errors.add(i, f"{f}.level", "invalid_contra_level",
                   f"level is 1 (kontra) or 2 (rekontra), got {level}")
        ok = False
    return (on, by, level) if ok else None


def read_contras(i: int, hand: dict[str, Any], card: TarokNetCard, h: Hand,
                 side: set[str], errors: ErrorCollector) -> None:
    add = errors.add
    by_name = {a.name: a for a in h.announcements}
    for f, on, by, level in _contras(i, hand, errors):
        ann = None
        if on == "game":
            owner_side_is_declarer = True
            current = h.game_level
        elif on == "klop":
            add(i, f"{f}.on", "contra_not_allowed", "kontra on klop only in klop")
            continue
        elif on in ANNOUNCEMENT_NAMES:
            ann = by_name.get(on)
            if ann is None:
                add(i, f"{f}.on", "contra_on_missing_announcement",
                    f"there is no {on} in this hand's announcements to contra")
                continue
            if not ann.announced:
                add(i, f"{f}.on", "contra_on_silent",
                    f"the {on} is silent: 'Tihe realizacije ne gredo pod kontro'")
                continue
            owner_side_is_declarer = ann.declarer_side
            current = ann.level
        else:
            add(i, f"{f}.on", "invalid_contra",
                f"a contra is on 'game' or on an announcement of this hand, not {on!r}")
            continue
        if by not in card.pset:
            add(i, f"{f}.by", "not_a_player", f"{by!r} is not a player of this card")
            continue
        if by == h.resting:
            add(i, f"{f}.by", "contra_by_wrong_side",
                f"{by} rests this hand and cannot give a contra")
            continue
        if h.declarer is None:
            continue
        if current >= 2:
            add(i, f, "too_many_contras",
                f"at most two contras on {on}: kontra and rekontra ('Veljata max. dve "
                "kontri')")
            continue
        if level != current + 1:
            add(i, f"{f}.level", "contra_out_of_order",
                f"{CONTRA_NAMES[level]} on {on} "
                + ("needs a kontra first" if level == 2 else "was already given"))
            continue
        by_declarer_side = by in side
        owner_says = by_declarer_side == owner_side_is_declarer
        if (level == 1 and owner_says) or (level == 2 and not owner_says):
            add(i, f"{f}.by", "contra_by_wrong_side",
                f"a {CONTRA_NAMES[level]} on {on} is said by "
                + ("the other side" if level == 1 else "the side that plays it"))
            continue
        if ann is None:
            h.game_level = level
            if level == 1:
                h.game_contra_by = by
        else:
            ann.level = level
            if level == 1:
                ann.contra_by = by
