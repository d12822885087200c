"""Scoring a checked hand of the Steirischer Tarockcup (seed 001): the Schrift (the plus
and minus the table writes, which alone decides the tournament) and the payout in cents (1
point = 10 cents, with Kontra, Re and Sub applied, since the seed lets contras change the
payout only), for the two-sided games (game or Valat, premiums, renonce) and for Trischaken.
Decisions and the seed clauses behind them: docs/rulesets/steirischer-tarockcup-2017.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.rules.base import Card
from scoring.rules.tarockcup.hand import Hand, Premium, on_decl_side, valat_applies
from scoring.rules.tarockcup.tables import (
    BUERGERMEISTER_THIRDS,
    CENTS_PER_POINT,
    COUNT_IN_ANY_VALAT,
    NEGATIV,
    OPTION_FOREHAND_JUNGFRAU,
    OPTION_LOST_VALAT_GAME,
    OPTION_RENONCE_PREMIUMS,
    OPTION_SILENT_LOST,
    PREMIUM_NAMES,
    PREMIUM_VALUES,
    TRISCHAKEN,
    TRISCHAKEN_ALL_TRICKS,
    TRISCHAKEN_BASE,
    TRISCHAKEN_JUNGFRAU,
    TRISCHAKEN_RENONCE,
    VALAT_MULTIPLIER,
)


def score_hand(h: Hand, card: Card, state: dict[str, Any]) -> dict[str, Any]:
    # "Es gibt kein Verdoppelungsradl nach Mondfang, Trischaken oder Nullrunde": no state
    if h.game.family == TRISCHAKEN:
        out = _score_trischaken(h, card.players, card.options)
    else:
        out = _score_game(h, card.players, card.options)
    for p in h.mond:
        # option mondfang = zero: "Mondfang wird nicht honoriert", written for 0 points
        out["lines"].append({"player": p, "what": f"Mondfang of {p}: not honoured",
                             "points": 0, "code": "mondfang", "params": {"honoured": False}})
    return out


@dataclass
class Item:
    """One thing the hand scores: the game (or the valat replacing it) or one premium."""

    code: str  # line code
    target: str  # what a contra on it names: "game", "valat" or the premium code
    label: str
    owner_decl_side: bool
    owner: str
    won: bool
    unit: int
    params: dict[str, Any]



def _pairs(h: Hand, players: list[str]) -> list[tuple[str, str]]:
    """Who pays whom: in two against two each player of one side settles with one of the
    other; one against three, the single player settles with each of the three."""
    assert h.declarer is not None
    defenders = [p for p in players if not on_decl_side(h, p)]
    if h.partner is not None:
        return [(h.declarer, defenders[0]), (h.partner, defenders[1])]
    return [(h.declarer, d) for d in defenders]


def _game_unit(h: Hand, decl_side_wins: bool) -> int:
    if not decl_side_wins and h.game.lost_value is not None:
        return h.game.lost_value
    return h.game.value


def _items(h: Hand, options: dict[str, Any],
           forced_winner_decl: bool | None = None) -> list[Item]:
    """The scored items of a hand. `forced_winner_decl` scores the hand as if that side had
    won the game and every announced premium (and made the silent premiums it claims): the
    renonce rule "als hätten sie das Spiel und die angesagten Prämien gewonnen"; with option
    renonce_pays_premiums = own_side only the premiums that side announced."""
    assert h.declarer is not None
    items: list[Item] = []
    forced = forced_winner_decl is not None
    own_side_only = options[OPTION_RENONCE_PREMIUMS] == "own_side"
    premiums = []
    for p in h.premiums:
        if forced:
            side = on_decl_side(h, p.by)
            if side != forced_winner_decl and (not p.announced or own_side_only):
                continue
            achieved = p.announced is False or side == forced_winner_decl
            premiums.append(Premium(p.index, p.code, p.by, p.announced, achieved))
        else:
            premiums.append(p)
    valat = next((p for p in premiums if p.code == "valat"
                  and (p.announced or p.achieved)), None)
    if h.conceded:
        return [Item("game_conceded", "game", f"{h.game.name} given up", True, h.declarer,
                      False, h.game.value, {"game": h.game.code})]
    if valat is not None:
        owner_decl = on_decl_side(h, valat.by)
        decl_wins = owner_decl == bool(valat.achieved)
        base = _game_unit(h, decl_wins)
        mult = VALAT_MULTIPLIER[valat.announced]
        items.append(Item(
            "valat_won" if valat.achieved else "valat_lost", "valat",
            f"{'announced' if valat.announced else 'silent'} Valat "
            f"{'made' if valat.achieved else 'failed'} ({h.game.name} {base} x {mult})",
            owner_decl, valat.by, bool(valat.achieved), base * mult,
            {"game": h.game.code, "game_value": base, "multiplier": mult,
             "announced": valat.announced}))
    if valat is None or (not valat.achieved and options[OPTION_LOST_VALAT_GAME]):
        # no Valat; or a failed one that (option lost_valat_keeps_game) leaves the game be
        won = forced_winner_decl if forced else h.won
        assert won is not None
        unit = _game_unit(h, won)
        items.append(Item("game_won" if won else "game_lost", "game",
                           f"{h.game.name} {'won' if won else 'lost'}", True, h.declarer,
                           won, unit, {"game": h.game.code, "game_value": unit}))
    items.extend(_premium_item(h, p, valat, options) for p in premiums if p.code != "valat")
    return items


def _premium_item(h: Hand, p: Premium, valat: Premium | None,
                  options: dict[str, Any]) -> Item:
    """The scored item of one premium (not the Valat) beside the hand's Valat, if any."""
    if valat is not None and p.code not in COUNT_IN_ANY_VALAT and \
            (valat.announced or not p.announced):
        # silent Valat: "zählen angesagte Trull und angesagte 4 Könige"; the announced
        # Valat forbids announcing them, so only silent ones reach this point there
        return Item("premium_in_valat", p.code,
                    f"{PREMIUM_NAMES[p.code]} counts nothing in the Valat",
                    on_decl_side(h, p.by), p.by, bool(p.achieved), 0,
                    {"premium": p.code, "announced": p.announced})
    if not p.announced and not p.achieved and not options[OPTION_SILENT_LOST]:
        # option silent_premium_lost_pays = false: a silent premium counts only when made
        return Item("announcement_not_paid", p.code,
                    f"{PREMIUM_NAMES[p.code]} silent by {p.by} lost: not paid",
                    on_decl_side(h, p.by), p.by, False, 0,
                    {"premium": p.code, "name": p.code, "by": p.by, "announced": False})
    announced_v, silent_v = PREMIUM_VALUES[p.code]
    unit = (announced_v if p.announced else silent_v) * h.game.premium_factor
    return Item(
        "premium_won" if p.achieved else "premium_lost", p.code,
        f"{PREMIUM_NAMES[p.code]} {'announced' if p.announced else 'silent'} "
        f"{'made' if p.achieved else 'lost'}",
        on_decl_side(h, p.by), p.by, bool(p.achieved), unit,
        {"premium": p.code, "announced": p.announced,
         "premium_factor": h.game.premium_factor})


def _transfers(item: Item, pairs: list[tuple[str, str]], players: list[str],
               pair_factor: dict[str, int] | None = None) -> dict[str, int]:
    out = {p: 0 for p in players}
    sign = 1 if item.owner_decl_side == item.won else -1
    for a, b in pairs:
        amount = sign * item.unit * (pair_factor.get(b, 1) if pair_factor else 1)
        out[a] += amount
        out[b] -= amount
    return out


def _payout_factors(h: Hand, item: Item, valat_on: bool) -> tuple[int, dict[str, int] | None]:
    """Contra factor of one item for the payout (never for the Schrift)."""
    if h.game.code == "solorufer" and h.partner is None:
        return 1, None  # "Kontras zählen in diesem Fall nicht"
    if item.target == "game" and valat_on:
        return 1, None
    if h.game.family == NEGATIV and item.target == "game":
        return 1, dict(h.individual_factor)
    return h.contra_factor.get(item.target, 1), None


def _score_game(h: Hand, players: list[str], options: dict[str, Any]) -> dict[str, Any]:
    assert h.declarer is not None
    pairs = _pairs(h, players)
    scores = {p: 0 for p in players}
    payout = {p: 0 for p in players}
    lines: list[dict[str, Any]] = []
    valat_on = valat_applies(h)
    value = h.game.value if (h.won is not False or h.renoncers) else _game_unit(h, False)

    for note in h.contra_notes:
        lines.append({"player": None, "what": f"contra on {note['target']} said between "
                      "partners: does not count", "points": 0, "code": "contra_void_partners",
                      "params": {"target": note["target"]}})
    if h.game.code == "solorufer" and h.partner is None and h.contras:
        lines.append({"player": None, "what": "called king in the talon: contras do not count",
                      "points": 0, "code": "contra_void_king_in_talon", "params": {}})
    if valat_on and any(c.on == "game" for c in h.contras):
        lines.append({"player": None, "what": "Valat: the contra on the game lapses",
                      "points": 0, "code": "contra_void_valat", "params": {}})

    if h.renoncers:
        for renoncer in h.renoncers:
            for p in players:
                if p == renoncer:
                    continue
                side = on_decl_side(h, p)
                gain = 0
                cents = 0
                for item in _items(h, options, forced_winner_decl=side):
                    gain += _transfers(item, pairs, players)[p]
                    factor, per_pair = _payout_factors(h, item, valat_on)
                    cents += _transfers(item, pairs, players, per_pair)[p] * factor
                cents *= CENTS_PER_POINT
                scores[p] += gain
                scores[renoncer] -= gain
                payout[p] += cents
                payout[renoncer] -= cents
                lines.append({"player": p, "what": f"renons by {renoncer}: {p} is paid as if "
                              f"he had won the game and the announced premiums",
                              "points": gain, "code": "renons_compensation",
                              "params": {"renoncer": renoncer, "payout": cents}})
        return {"value": value, "scores": scores, "payout": payout, "lines": lines}

    for item in _items(h, options):
        amounts = _transfers(item, pairs, players)
        factor, per_pair = _payout_factors(h, item, valat_on)
        cents = {p: v * factor * CENTS_PER_POINT
                 for p, v in _transfers(item, pairs, players, per_pair).items()}
        for p in players:
            scores[p] += amounts[p]
            payout[p] += cents[p]
        params = dict(item.params)
        params.update({"amounts": amounts, "payout": cents, "contra_factor": factor})
        if per_pair:
            params["contra_factor_by_defender"] = per_pair
        lines.append({"player": item.owner, "what": item.label,
                      "points": amounts[item.owner], "code": item.code, "params": params})
    return {"value": value, "scores": scores, "payout": payout, "lines": lines}


def _score_trischaken(h: Hand, players: list[str], options: dict[str, Any]) -> dict[str, Any]:
    scores = {p: 0 for p in players}
    lines: list[dict[str, Any]] = []

    def pay(payer: str, receiver: str, amount: int, code: str, reason: str) -> None:
        scores[payer] -= amount
        scores[receiver] += amount
        # "forehand"/"buergermeister" say which reasons of the English text apply, so that
        # the line can be written in other languages
        lines.append({"player": payer, "what": f"{payer} pays {receiver} {amount}: {reason}",
                      "points": -amount, "code": code,
                      "params": {"to": receiver, "amount": amount,
                                 "forehand": payer == h.forehand,
                                 "buergermeister": "Bürgermeister" in reason}})

    if h.renoncers:
        # "Bei Renonce zahlt der Renoncespieler den 3 regulären Spielern je 9 Punkte"
        for r in h.renoncers:
            for p in players:
                if p != r:
                    pay(r, p, TRISCHAKEN_RENONCE, "trischaken_renons", "renons")
    else:
        thirds = {p: 3 * h.points_by_player[p] + h.blatt_by_player.get(p, 0) for p in players}
        top = max(thirds.values())
        losers = [p for p in players if thirds[p] == top]
        winners = [p for p in players if thirds[p] != top]
        jungfrauen = [p for p in players if thirds[p] == 0]
        forehand = h.forehand
        buergermeister = len(losers) == 1 and top >= BUERGERMEISTER_THIRDS
        fh_jungfrau = 2 if options.get(OPTION_FOREHAND_JUNGFRAU) else 1
        if len(jungfrauen) == 3:
            loser = losers[0]
            amount = TRISCHAKEN_ALL_TRICKS * (2 if loser == forehand else 1)
            for p in jungfrauen:
                pay(loser, p, amount, "trischaken_all_tricks",
                    "all tricks" + (" (Vorhand)" if loser == forehand else ""))
        elif jungfrauen:
            if len(jungfrauen) == 2 and len(losers) == 2:
                # "erhält jede Jungfrau von einem der Verlierer 9 Punkte"
                for loser, j in zip(losers, jungfrauen, strict=True):
                    m = fh_jungfrau if loser == forehand else 1
                    pay(loser, j, TRISCHAKEN_JUNGFRAU * m, "trischaken_jungfrau", "Jungfrau")
            else:
                for loser in losers:
                    m = fh_jungfrau if loser == forehand else 1
                    amount = TRISCHAKEN_JUNGFRAU * m
                    reason = "Jungfrau"
                    if buergermeister and len(jungfrauen) == 1:
                        amount *= 2  # "Der Bürgermeister zahlt der Jungfrau 18 Punkte"
                        reason = "Jungfrau, Bürgermeister"
                    for j in jungfrauen:
                        pay(loser, j, amount, "trischaken_jungfrau", reason)
        else:
            for loser in losers:
                m = 1
                reasons = ["loser"]
                if loser == forehand:
                    m *= 2
                    reasons.append("Vorhand")
                if buergermeister:
                    m *= 2
                    reasons.append("Bürgermeister")
                for w in winners:
                    pay(loser, w, TRISCHAKEN_BASE * m, "trischaken_loser", ", ".join(reasons))
    payout = {p: s * CENTS_PER_POINT for p, s in scores.items()}
    return {"value": TRISCHAKEN_BASE, "scores": scores, "payout": payout, "lines": lines}
