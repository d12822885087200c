"""Reading the contras of a Steirischer Tarockcup hand and following their chains: "Es gibt
nur Kontra (doppelt), Re (vierfach) und Sub (achtfach)", "Bei positiven Spielen gilt das
Kontra für alle Spieler, bei negativen Spielen wird individuell kontriert", and "Stellt sich
am Ende heraus, dass sich Partner kontriert haben, zählt dies nicht." The contras change the
payout only ("Kontrierungen wirken sich nicht auf die Schrift aus")."""

from __future__ import annotations

from typing import Any

from scoring.errors import ErrorCollector
from scoring.rules.checks import is_int as _is_int
from scoring.rules.checks import items
from scoring.rules.checks import player as _player
from scoring.rules.tarockcup.hand import Contra, Hand, on_decl_side
from scoring.rules.tarockcup.tables import (
    CONTRA_FACTORS,
    CONTRA_NAMES,
    NEGATIV,
    PREMIUM_NAMES,
    RUFER,
)

_CONTRA_FIELDS = {"on", "by", "level", "against"}


def read_contras(i: int, hand: dict[str, Any], h: Hand, players: list[str],
                 errors: ErrorCollector) -> list[Contra]:
    if h.conceded and isinstance(hand.get("contras"), list) and hand["contras"]:
        errors.add(i, "contras", "contra_not_allowed",
                   "a conceded ('geschleift') hand is not played, so nobody can contra it "
                   "(\"Entscheidet sich der Spieler zu spielen, kann er kontriert werden\")")
        return []
    premiums = {p.code: p for p in h.premiums}
    out: list[Contra] = []
    for k, f, c in items(i, hand, "contras", _CONTRA_FIELDS, errors):
        on = c.get("on")
        ok = True
        if on == "game":
            pass
        elif isinstance(on, str) and on in PREMIUM_NAMES:
            prem = premiums.get(on)
            if prem is None:
                errors.add(i, f"{f}.on", "contra_on_missing_announcement",
                           f"{PREMIUM_NAMES[on]} is not among this hand's announcements")
                ok = False
            elif not prem.announced:
                errors.add(i, f"{f}.on", "contra_on_silent",
                           f"a silent {PREMIUM_NAMES[on]} cannot be contra'd")
                ok = False
        else:
            errors.add(i, f"{f}.on", "contra_not_allowed",
                       f"a contra names 'game' or an announced premium, got {on!r}")
            ok = False
        by = _player(i, f"{f}.by", c.get("by"), players, errors)
        level = c.get("level")
        if not _is_int(level) or level not in (1, 2, 3, 4):
            errors.add(i, f"{f}.level", "invalid_contra_level",
                       f"level must be 1 (Kontra), 2 (Re) or 3 (Sub), got {level!r}")
            ok = False
        elif level == 4:
            errors.add(i, f"{f}.level", "contra_level_not_allowed",
                       "\"Es gibt nur Kontra (doppelt), Re (vierfach) und Sub (achtfach)\": "
                       "no fourth level")
            ok = False
        against = None
        if "against" in c:
            if h.game.family != NEGATIV or level != 2:
                errors.add(i, f"{f}.against", "field_not_allowed",
                           "against names the defender a Re answers, only in negative games "
                           "where contras are individual")
                ok = False
            else:
                against = _player(i, f"{f}.against", c["against"], players, errors)
                ok = ok and against is not None
        if ok and by is not None:
            out.append(Contra(k, on, by, level, against))
    return out


def check_contra_chains(i: int, h: Hand, errors: ErrorCollector) -> None:
    if h.declarer is None:
        return
    if h.game.family == NEGATIV:
        _check_individual_contras(i, h, errors)
        return
    premiums = {p.code: p for p in h.premiums}
    hidden_partner = h.game.family == RUFER and h.partner is not None
    by_target: dict[str, list[Contra]] = {}
    for c in h.contras:
        by_target.setdefault(c.on, []).append(c)
    for target, calls in by_target.items():
        owner_decl = True if target == "game" else on_decl_side(h, premiums[target].by)
        expected = 1
        void = False
        for c in calls:
            f = f"contras[{c.index}]"
            if c.level != expected:
                code = "too_many_contras" if c.level < expected else "contra_out_of_order"
                errors.add(i, f"{f}.level", code,
                           f"on {target} the calls go Kontra, Re, Sub once each; expected "
                           f"{CONTRA_NAMES.get(expected, 'nothing more')}, got "
                           f"{CONTRA_NAMES[c.level]}")
                break
            expected += 1
            must_be_decl = (c.level == 2) == owner_decl
            if on_decl_side(h, c.by) != must_be_decl:
                if hidden_partner:
                    void = True
                    continue
                errors.add(i, f"{f}.by", "contra_by_wrong_side",
                           f"{CONTRA_NAMES[c.level]} on {target} must come from "
                           f"{'the side that owns it' if c.level == 2 else 'the other side'}")
        if void:
            h.contra_notes.append({"target": target, "reason": "partners"})
            h.contra_factor[target] = 1
        else:
            h.contra_factor[target] = CONTRA_FACTORS[expected - 1] if expected > 1 else 1


def _check_individual_contras(i: int, h: Hand, errors: ErrorCollector) -> None:
    # "bei negativen Spielen wird individuell kontriert": one chain per defender
    level_of: dict[str, int] = {}
    for c in h.contras:
        f = f"contras[{c.index}]"
        if c.level in (1, 3):
            if c.by == h.declarer:
                errors.add(i, f"{f}.by", "contra_by_wrong_side",
                           f"{CONTRA_NAMES[c.level]} comes from a defender")
                continue
            have = level_of.get(c.by, 0)
            if have != c.level - 1:
                code = "too_many_contras" if have >= c.level else "contra_out_of_order"
                errors.add(i, f"{f}.level", code,
                           f"{c.by} cannot say {CONTRA_NAMES[c.level]} now (his chain is at "
                           f"{CONTRA_NAMES.get(have, 'nothing')})")
                continue
            level_of[c.by] = c.level
        else:
            if c.by != h.declarer:
                errors.add(i, f"{f}.by", "contra_by_wrong_side",
                           "Re comes from the declarer")
                continue
            target = c.against
            if target is None:
                open_ = [d for d, lv in level_of.items() if lv == 1]
                if len(open_) != 1:
                    errors.add(i, f"{f}.against", "missing",
                               "contras are individual in negative games: name the defender "
                               "whose Kontra this Re answers")
                    continue
                target = open_[0]
            if level_of.get(target, 0) != 1:
                errors.add(i, f"{f}.against", "contra_out_of_order",
                           f"{target} has no Kontra for this Re to answer")
                continue
            level_of[target] = 2
            c.against = target
    for d, lv in level_of.items():
        h.individual_factor[d] = CONTRA_FACTORS[lv]
