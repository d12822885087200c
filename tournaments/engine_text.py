"""Engine text in the active language: the breakdown lines of a scored hand, the
scoring engine's validation errors (rendered from their stable `code` and `params`) and the
seating engine's round notes (rendered from their `code` and `params` too).

The scoring engine (`scoring.rules`) is pure Python and writes English only; it gives every
line and error a machine code and its parameters so that the Django side can say the same
thing in the reader's language. The messages live in the main catalogue under the gettext
context "engine". Names of games, announcements and contras (trojka, klop, Trischaken,
povinnost, flek, Kontra...) are the words players use at the table and are never translated.

Whatever cannot be rendered (an unknown code, a missing or odd parameter, a translation whose
placeholders do not fit) falls back to the engine's own English text: a tournament page must
never fail, nor show a half-formatted sentence, because of a line it does not know.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from decimal import Decimal
from functools import cache
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import get_language, npgettext_lazy, pgettext, pgettext_lazy

from scoring import rules

logger = logging.getLogger(__name__)


@cache
def _held_announcements() -> frozenset[str]:
    """Announcements shown from the hand (the Czech hlášky such as trul): their lines read
    differently from those decided by the play. The registry says which they are."""
    return frozenset(a.code for r in rules.all_rulesets() for a in r.announcements
                     if a.kind == "held")


# -- names the players know: looked up in the rulesets, never translated ----------------------

@cache
def _names(ruleset: str | None) -> tuple[dict[str, str], dict[str, str], dict[int, str]]:
    """(game names, announcement names, contra names) by code: those of `ruleset` first, then
    of every other ruleset, so a line whose ruleset is not known still gets a good name."""
    all_rulesets = rules.all_rulesets()
    # Without a ruleset the contra names of the Slovenian rules (kontra, rekontra) are the
    # likeliest; the pages pass the card's ruleset wherever they have it.
    first = (rules.get(ruleset) if ruleset else None) or rules.default()
    ordered = ([first] if first is not None else []) + [r for r in all_rulesets if r is not first]
    games: dict[str, str] = {}
    announcements: dict[str, str] = {}
    contras: dict[int, str] = {}
    for r in ordered:
        for g in r.games:
            games.setdefault(g.code, g.name)
        for a in r.announcements:
            announcements.setdefault(a.code, a.name)
        if r is first or not contras:
            for c in r.contra_levels:
                contras.setdefault(c.level, c.name)
    return games, announcements, contras


class _Ctx:
    """What a renderer needs: the line's params, its player and the names of its ruleset."""

    def __init__(self, item: Mapping[str, Any], ruleset: str | None):
        self.item = item
        params = item.get("params")
        self.p: Mapping[str, Any] = params if isinstance(params, Mapping) else {}
        self.games, self.announcements, self.contras = _names(ruleset)

    def game(self, code: Any) -> str:
        return self.games.get(str(code), str(code))

    def announcement(self, code: Any) -> str:
        return self.announcements.get(str(code), str(code))

    def item_name(self, code: Any) -> str:
        """What a contra names: the game, an announcement, or a game code."""
        code = str(code)
        if code == "game":
            return str(pgettext("engine", "game"))
        return self.announcements.get(code) or self.games.get(code) or code

    def contra(self, level: Any) -> str:
        return self.contras[int(level)]


def _kc(haler: Any) -> str:
    """Haléř as Kč in the active language's number format: 340 → 3,40 Kč."""
    n = int(haler)
    text = number_format(Decimal(abs(n)) / 100, 2, force_grouping=True)
    return f"{'−' if n < 0 else ''}{text} Kč"


def _signed(n: Any) -> str:
    n = int(n)
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def _english() -> bool:
    """English readers get the engine's own words, which are the most specific."""
    language = get_language()
    return language is None or language.split("-")[0] == "en"


def _t(msgid: Any, **values: Any) -> str:
    """The translation of `msgid` (a lazy pgettext) with named values filled in."""
    return str(msgid) % values


# -- breakdown lines ----------------------------------------------------------------------------

_M = {
    # Tarok.net rules (seeds 000, 002): the game, its announcements, contras and radelci
    "game_won": pgettext_lazy("engine", "%(game)s won"),
    "game_lost": pgettext_lazy("engine", "%(game)s lost"),
    "difference": pgettext_lazy("engine", "%(text)s, difference %(difference)s"),
    "contra": pgettext_lazy("engine", "%(text)s, %(contra)s"),
    "partner_share": pgettext_lazy("engine", "%(text)s (partner's share)"),
    "fellow_share": pgettext_lazy("engine", "%(text)s (fellow defender's share)"),
    "announced_won": pgettext_lazy("engine", "announced %(name)s won"),
    "announced_lost": pgettext_lazy("engine", "announced %(name)s lost"),
    "silent_won": pgettext_lazy("engine", "silent %(name)s won"),
    "silent_lost": pgettext_lazy("engine", "silent %(name)s lost"),
    "trula_held": pgettext_lazy("engine", "%(text)s (trula held)"),
    "radelc": pgettext_lazy("engine", "radelc doubles %(subtotal)s"),
    "contra_right": pgettext_lazy("engine", "%(contra)s on %(item)s right"),
    "contra_wrong": pgettext_lazy("engine", "%(contra)s on %(item)s wrong"),
    "contra_compensation": pgettext_lazy("engine", "compensation: %(contra)s on %(item)s was wrong"),
    "klop_points": pgettext_lazy("engine", "klop: %(points)s points"),
    "klop_points_doubled": pgettext_lazy("engine", "klop: %(points)s points (35 or more: double)"),
    "klop_full": pgettext_lazy("engine", "klop: full with %(points)s points"),
    "klop_no_trick": pgettext_lazy("engine", "klop: no trick"),
    "klop_contra_limit": pgettext_lazy("engine", "klop: %(contra)s given with %(points)s points "
                               "(more than %(limit)s)"),
    "renons_net": pgettext_lazy("engine", "renons: −(%(parts)s)"),
    "renons_game_part": pgettext_lazy("engine", "game %(base)s + %(renons)s"),
    "mond_lost": pgettext_lazy("engine", "lost mond"),
    "misdeal_count": pgettext_lazy("engine", "misdeal no. %(count)s"),
    "no_tarok": pgettext_lazy("engine", "no tarok: the hand is annulled and dealt again"),
    # Lada Zei's rules (seed 003)
    "zei_game_points": pgettext_lazy("engine", "%(text)s with %(points)s points (difference %(difference)s)"),
    "with_solo": pgettext_lazy("engine", "%(text)s with solo"),
    "renons_annulled": pgettext_lazy("engine", "renons: the game is annulled"),
    "klop_over_35": pgettext_lazy("engine", "klop: %(points)s points, more than 35"),
    "partner_result": pgettext_lazy("engine", "partner writes the declarer's result"),
    "radelc_double": pgettext_lazy("engine", "radelc doubles the game"),
    "radelc_double_collective": pgettext_lazy("engine", "collective radelc doubles the game"),
    "mondfang": pgettext_lazy("engine", "mond caught (mondfang)"),
    "announced_valat_made": pgettext_lazy("engine", "announced valat made"),
    "silent_valat_made": pgettext_lazy("engine", "silent valat made"),
    "ann_announced_made": pgettext_lazy("engine", "%(name)s announced: made"),
    "ann_silent_made": pgettext_lazy("engine", "%(name)s silent: made"),
    "ann_announced_failed": pgettext_lazy("engine", "%(name)s announced: failed"),
    "ann_silent_failed": pgettext_lazy("engine", "%(name)s silent: failed"),
    "ann_announced_lost_with_game": pgettext_lazy("engine", "%(name)s announced: lost with the game"),
    "ann_silent_lost_with_game": pgettext_lazy("engine", "%(name)s silent: lost with the game"),
    # Steirischer Tarockcup (seed 001)
    "contra_void_partners": pgettext_lazy("engine", "contra on %(item)s said between partners: does not count"),
    "contra_void_king_in_talon": pgettext_lazy("engine", "called king in the talon: contras do not count"),
    "contra_void_valat": pgettext_lazy("engine", "Valat: the contra on the game lapses"),
    "renons_compensation": pgettext_lazy("engine", "renons by %(renoncer)s: %(player)s is paid as if he had won "
                                  "the game and the announced premiums"),
    "game_conceded": pgettext_lazy("engine", "%(game)s given up"),
    "valat_announced_made": pgettext_lazy("engine", "announced Valat made (%(game)s %(value)s × %(multiplier)s)"),
    "valat_silent_made": pgettext_lazy("engine", "silent Valat made (%(game)s %(value)s × %(multiplier)s)"),
    "valat_announced_failed": pgettext_lazy("engine", "announced Valat failed (%(game)s %(value)s × "
                                     "%(multiplier)s)"),
    "valat_silent_failed": pgettext_lazy("engine", "silent Valat failed (%(game)s %(value)s × %(multiplier)s)"),
    "premium_in_valat": pgettext_lazy("engine", "%(name)s counts nothing in the Valat"),
    "premium_announced_made": pgettext_lazy("engine", "%(name)s announced made"),
    "premium_silent_made": pgettext_lazy("engine", "%(name)s silent made"),
    "premium_announced_lost": pgettext_lazy("engine", "%(name)s announced lost"),
    "premium_silent_lost": pgettext_lazy("engine", "%(name)s silent lost"),
    "trischaken_pays": pgettext_lazy("engine", "%(payer)s pays %(receiver)s %(amount)s: %(reason)s"),
    "reason_renons": pgettext_lazy("engine", "renons"),
    "reason_all_tricks": pgettext_lazy("engine", "all tricks"),
    "reason_loser": pgettext_lazy("engine", "loser"),
    # GP Vysočiny (seed 004; amounts in Kč)
    "no_flek": pgettext_lazy("engine", "no flek"),
    "gp_game_won": pgettext_lazy("engine", "%(game)s (%(contra)s) won: %(points)s eyes, difference "
                          "%(difference)s × %(rate)s hal = %(raw)s hal"),
    "gp_game_lost": pgettext_lazy("engine", "%(game)s (%(contra)s) lost: %(points)s eyes, difference "
                           "%(difference)s × %(rate)s hal = %(raw)s hal"),
    "rounded_up": pgettext_lazy("engine", "%(text)s, rounded up to %(amount)s"),
    "equal_eyes_opponents": pgettext_lazy("engine", "%(game)s (%(contra)s): equal eyes 35:35, the opponents pay "
                                   "one eye %(rate)s hal, rounded up to %(amount)s"),
    "equal_eyes_declarer": pgettext_lazy("engine", "%(game)s (%(contra)s): equal eyes 35:35, the declarer's side "
                                  "pays one eye %(rate)s hal, rounded up to %(amount)s"),
    "side_declarer": pgettext_lazy("engine", "declarer's side"),
    "side_opponents": pgettext_lazy("engine", "opponents"),
    "hlaska_held": pgettext_lazy("engine", "%(name)s held by %(by)s (%(side)s): %(value)s"),
    "hlaska_announced_achieved": pgettext_lazy("engine", "%(name)s announced by %(by)s (%(side)s) achieved: "
                                        "%(value)s"),
    "hlaska_silent_achieved": pgettext_lazy("engine", "%(name)s silent by %(by)s (%(side)s) achieved: "
                                     "%(value)s"),
    "hlaska_announced_lost": pgettext_lazy("engine", "%(name)s announced by %(by)s (%(side)s) lost: −%(value)s"),
    "hlaska_silent_lost": pgettext_lazy("engine", "%(name)s silent by %(by)s (%(side)s) lost: −%(value)s"),
    "hlaska_not_paid": pgettext_lazy("engine", "%(name)s silent by %(by)s lost: not paid"),
    "gp_renons": pgettext_lazy("engine", "renonc by %(player)s ends the %(game)s (%(contra)s): %(base)s + "
                        "announced hlášky %(hlasky)s = %(amount)s"),
    "gp_renons_triple": pgettext_lazy("engine", "%(text)s, three times to the declarer %(declarer)s"),
    "gp_renons_every": pgettext_lazy("engine", "%(text)s to every other player"),
    "gp_renons_varsava": pgettext_lazy("engine", "renonc by %(player)s ends the Varšava: pays %(amount)s to "
                                "every other player"),
    "renons_play_continues": pgettext_lazy("engine", "renonc by %(player)s, play continued: pays %(fine)s to "
                                    "every other player"),
    "gp_misdeal": pgettext_lazy("engine", "%(player)s had a wrong number of cards, found before the lead: pays "
                         "%(fine)s to every other player; dealt again"),
    "varsava_most_eyes": pgettext_lazy("engine", "Varšava: %(player)s took the most eyes (%(eyes)s) and pays "
                                "%(paid)s"),
    "varsava_most_eyes_forehand": pgettext_lazy("engine", "Varšava: the forehand %(player)s took the most eyes "
                                         "(%(eyes)s) and pays %(paid)s"),
    "cap_payment": pgettext_lazy("engine", "herní strop: %(payer)s pays %(receiver)s %(after)s instead of "
                          "%(before)s"),
    "cap_receiver": pgettext_lazy("engine", "herní strop: %(receiver)s receives at most %(cap)s in one game; "
                           "%(payer)s pays %(after)s instead of %(before)s"),
    "payment": pgettext_lazy("engine", "%(payer)s pays %(receiver)s %(amount)s"),
    "sheet_result": pgettext_lazy("engine", "player %(player)s: money %(money)s − stake %(stake)s − bought "
                           "%(bought)s = %(result)s"),
    "sheet_balanced": pgettext_lazy("engine", "table money %(money)s = stakes %(stakes)s + bought %(bought)s"),
}


def _contra_suffix(c: _Ctx, text: str, level: Any) -> str:
    if level:
        return _t(_M["contra"], text=text, contra=c.contra(level))
    return text


def _share_suffix(c: _Ctx, text: str) -> str:
    role = c.p.get("role")
    if role == "partner":
        return _t(_M["partner_share"], text=text)
    if role == "fellow_defender":
        return _t(_M["fellow_share"], text=text)
    return text


def _game_line(c: _Ctx, won: bool) -> str:
    p = c.p
    if "rate" in p:  # GP Vysočiny: eyes times the rate per eye, in haléř
        level = int(p.get("level") or 0)
        contra = c.contra(level) if level else _t(_M["no_flek"])
        text = _t(_M["gp_game_won" if won else "gp_game_lost"], game=c.game(p["game"]),
                  contra=contra, points=p["points"], difference=p["difference"],
                  rate=p["rate"], raw=p["raw"])
        if p["amount"] != p["raw"]:
            text = _t(_M["rounded_up"], text=text, amount=_kc(p["amount"]))
        return text
    text = _t(_M["game_won" if won else "game_lost"], game=c.game(p["game"]))
    if "game_value" in p and "contra_factor" in p and "amounts" not in p:
        # Zei: points, difference and solo are part of the sentence
        if p.get("points") is not None:
            text = _t(_M["zei_game_points"], text=text, points=p["points"],
                      difference=p["difference"])
        if "solo" in p:
            text = _t(_M["with_solo"], text=text)
        return text
    if "contra_level" in p:  # Tarok.net: the declarer's line tells the difference
        if p.get("role") in ("partner", "fellow_defender"):
            return _share_suffix(c, text)
        if p.get("points") is not None:
            text = _t(_M["difference"], text=text, difference=p["difference"])
        return _contra_suffix(c, text, p["contra_level"])
    return text  # Tarockcup: the game and its outcome


def _tarok_net_announcement(c: _Ctx, won: bool, announced: bool) -> str:
    p = c.p
    key = ("announced_" if announced else "silent_") + ("won" if won else "lost")
    text = _t(_M[key], name=c.announcement(p["name"]))
    if p.get("held"):
        text = _t(_M["trula_held"], text=text)
    if p.get("role") in ("partner", "fellow_defender"):
        return _share_suffix(c, text)
    return _contra_suffix(c, text, p["contra_level"])


def _announcement_won(c: _Ctx) -> str:
    if "announcement" in c.p:  # Zei
        how = "announced" if c.p["announced"] else "silent"
        return _t(_M[f"ann_{how}_made"], name=c.announcement(c.p["announcement"]))
    return _tarok_net_announcement(c, True, True)


def _announcement_lost(c: _Ctx, *, with_game: bool = False) -> str:
    if "announcement" in c.p:
        how = "announced" if c.p["announced"] else "silent"
        outcome = "lost_with_game" if with_game else "failed"
        return _t(_M[f"ann_{how}_{outcome}"], name=c.announcement(c.p["announcement"]))
    return _tarok_net_announcement(c, False, True)


def _contra_line(c: _Ctx, key: str) -> str:
    p = c.p
    item = p["name"] if "name" in p else p["game"]
    return _t(_M[key], contra=c.contra(1), item=c.item_name(item))


def _klop_points(c: _Ctx) -> str:
    p = c.p
    if p.get("doubled"):
        return _t(_M["klop_points_doubled"], points=p["points"])
    text = _t(_M["klop_points"], points=p["points"])
    return _contra_suffix(c, text, p.get("contra_level") or 0)


def _renons(c: _Ctx) -> str:
    p = c.p
    if "clause" in p:  # Tarok.net: the sum the renoncer pays, item by item
        factor = int(p["factor"])
        parts = [_t(_M["renons_game_part"], base=p["base"], renons=p["renons_base"])
                 + (f" ×{factor}" if factor > 1 else "")]
        for a in p["announcements"]:
            af = int(a["factor"])
            parts.append(f"{c.announcement(a['name'])} {a['value']}" + (f" ×{af}" if af > 1 else ""))
        return _t(_M["renons_net"], parts=" + ".join(parts))
    if p.get("game") == "varsava" and "base" not in p:
        return _t(_M["gp_renons_varsava"], player=p["player"], amount=_kc(p["amount"]))
    level = int(p.get("level") or 0)
    text = _t(_M["gp_renons"], player=p["player"], game=c.game(p["game"]),
              contra=c.contra(level) if level else _t(_M["no_flek"]), base=_kc(p["base"]),
              hlasky=_kc(p["announced_hlasky"]), amount=_kc(p["amount"]))
    if p["triple_to_declarer"]:
        return _t(_M["gp_renons_triple"], text=text, declarer=p["declarer"])
    return _t(_M["gp_renons_every"], text=text)


def _misdeal(c: _Ctx) -> str:
    if "count" in c.p:
        return _t(_M["misdeal_count"], count=c.p["count"])
    return _t(_M["gp_misdeal"], player=c.p["player"], fine=_kc(c.p["fine"]))


def _valat(c: _Ctx, won: bool) -> str:
    p = c.p
    how = "announced" if p["announced"] else "silent"
    if "multiplier" in p:  # Tarockcup
        outcome = "made" if won else "failed"
        return _t(_M[f"valat_{how}_{outcome}"], game=c.game(p["game"]), value=p["game_value"],
                  multiplier=p["multiplier"])
    if not won:
        raise KeyError("valat_lost")
    return _t(_M[f"{how}_valat_made"])


def _premium(c: _Ctx, won: bool) -> str:
    how = "announced" if c.p["announced"] else "silent"
    return _t(_M[f"premium_{how}_{'made' if won else 'lost'}"],
              name=c.announcement(c.p["premium"]))


def _trischaken(c: _Ctx) -> str:
    p = c.p
    code = c.item["code"]
    reasons: list[str] = []
    if code == "trischaken_renons":
        reasons.append(_t(_M["reason_renons"]))
    elif code == "trischaken_all_tricks":
        reasons.append(_t(_M["reason_all_tricks"]) + (" (Vorhand)" if p["forehand"] else ""))
    elif code == "trischaken_jungfrau":
        reasons.append("Jungfrau")
        if p["buergermeister"]:
            reasons.append("Bürgermeister")
    else:
        reasons.append(_t(_M["reason_loser"]))
        if p["forehand"]:
            reasons.append("Vorhand")
        if p["buergermeister"]:
            reasons.append("Bürgermeister")
    return _t(_M["trischaken_pays"], payer=c.item["player"], receiver=p["to"],
              amount=p["amount"], reason=", ".join(reasons))


def _gp_announcement(c: _Ctx) -> str:
    p = c.p
    side = _t(_M["side_declarer" if p["side"] == "declarer's side" else "side_opponents"])
    values = {"name": c.announcement(p["name"]), "by": p["by"], "side": side,
              "value": _kc(p["value"])}
    if p["name"] in _held_announcements():
        return _t(_M["hlaska_held"], **values)
    how = "announced" if p["announced"] else "silent"
    return _t(_M[f"hlaska_{how}_{'achieved' if p['achieved'] else 'lost'}"], **values)


def _gp_equal_eyes(c: _Ctx) -> str:
    p = c.p
    level = int(p.get("level") or 0)
    key = "equal_eyes_opponents" if p["payer_side"] == "opponents" else "equal_eyes_declarer"
    return _t(_M[key], game=c.game(p["game"]),
              contra=c.contra(level) if level else _t(_M["no_flek"]), rate=p["rate"],
              amount=_kc(p["amount"]))


def _cap(c: _Ctx) -> str:
    p = c.p
    values = {"payer": p["payer"], "receiver": p["receiver"], "after": _kc(p["after"]),
              "before": _kc(p["before"])}
    if p.get("scope") == "receiver":
        return _t(_M["cap_receiver"], cap=_kc(p["cap"]), **values)
    return _t(_M["cap_payment"], **values)


def _simple(key: str) -> Callable[[_Ctx], str]:
    return lambda c: _t(_M[key])


_LINES: dict[str, Callable[[_Ctx], str]] = {
    "game_won": lambda c: _game_line(c, True),
    "game_lost": lambda c: _game_line(c, False),
    "announcement_won": _announcement_won,
    "announcement_lost": _announcement_lost,
    "announcement_lost_with_game": lambda c: _announcement_lost(c, with_game=True),
    "silent_won": lambda c: _tarok_net_announcement(c, True, False),
    "silent_lost": lambda c: _tarok_net_announcement(c, False, False),
    "radelc": lambda c: _t(_M["radelc"], subtotal=_signed(c.p["subtotal"])),
    "contra_right": lambda c: _contra_line(c, "contra_right"),
    "contra_wrong": lambda c: _contra_line(c, "contra_wrong"),
    "contra_compensation": lambda c: _contra_line(c, "contra_compensation"),
    "klop_points": _klop_points,
    "klop_full": lambda c: _t(_M["klop_full"], points=c.p["points"]),
    "klop_no_trick": _simple("klop_no_trick"),
    "klop_contra_limit": lambda c: _t(_M["klop_contra_limit"], contra=c.contra(c.p["contra"]),
                                      points=c.p["points"], limit=c.p["limit"]),
    "klop_over_35": lambda c: _t(_M["klop_over_35"], points=c.p["points"]),
    "renons": _renons,
    "mond_lost": _simple("mond_lost"),
    "misdeal": _misdeal,
    "no_tarok": _simple("no_tarok"),
    "renons_annulled": _simple("renons_annulled"),
    "partner_result": _simple("partner_result"),
    "radelc_double": lambda c: _t(_M["radelc_double_collective" if c.p.get("collective")
                                     else "radelc_double"]),
    "mondfang": _simple("mondfang"),
    "valat_won": lambda c: _valat(c, True),
    "valat_lost": lambda c: _valat(c, False),
    "contra_void_partners": lambda c: _t(_M["contra_void_partners"],
                                         item=c.item_name(c.p["target"])),
    "contra_void_king_in_talon": _simple("contra_void_king_in_talon"),
    "contra_void_valat": _simple("contra_void_valat"),
    "renons_compensation": lambda c: _t(_M["renons_compensation"], renoncer=c.p["renoncer"],
                                        player=c.item["player"]),
    "game_conceded": lambda c: _t(_M["game_conceded"], game=c.game(c.p["game"])),
    "premium_in_valat": lambda c: _t(_M["premium_in_valat"],
                                     name=c.announcement(c.p["premium"])),
    "premium_won": lambda c: _premium(c, True),
    "premium_lost": lambda c: _premium(c, False),
    "trischaken_renons": _trischaken,
    "trischaken_all_tricks": _trischaken,
    "trischaken_jungfrau": _trischaken,
    "trischaken_loser": _trischaken,
    "game_equal_eyes": _gp_equal_eyes,
    "announcement": _gp_announcement,
    "announcement_not_paid": lambda c: _t(_M["hlaska_not_paid"],
                                          name=c.announcement(c.p["name"]), by=c.p["by"]),
    "renons_play_continues": lambda c: _t(_M["renons_play_continues"], player=c.p["player"],
                                          fine=_kc(c.p["fine"])),
    "varsava_most_eyes": lambda c: _t(_M["varsava_most_eyes_forehand" if c.p["forehand"]
                                         else "varsava_most_eyes"],
                                      player=c.p["player"], eyes=c.p["eyes"],
                                      paid=_kc(c.p["paid"])),
    "cap_applied": _cap,
    "payment": lambda c: _t(_M["payment"], payer=c.p["payer"], receiver=c.p["receiver"],
                            amount=_kc(c.p["amount"])),
    "sheet_result": lambda c: _t(_M["sheet_result"], player=c.p["player"],
                                 money=_kc(c.p["money"]), stake=_kc(c.p["stake"]),
                                 bought=_kc(c.p["bought"]), result=_kc(c.p["result"])),
    "sheet_balanced": lambda c: _t(_M["sheet_balanced"], money=_kc(c.p["money"]),
                                   stakes=_kc(c.p["stakes"]), bought=_kc(c.p["bought"])),
}

LINE_CODES = frozenset(_LINES)


def line_text(line: Mapping[str, Any] | Any, ruleset: str | None = None) -> str:
    """One breakdown line of a hand in the active language (the engine's English `what` when
    its code or params are not understood)."""
    if not isinstance(line, Mapping):
        return str(line or "")
    english = str(line.get("what") or "")
    render = _LINES.get(str(line.get("code") or ""))
    if render is None or _english():
        return english
    try:
        return render(_Ctx(line, ruleset))
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError):
        logger.debug("engine line %r not translated", line.get("code"), exc_info=True)
        return english


# -- validation errors --------------------------------------------------------------------------

_E = {
    "announcement_by_defender": pgettext_lazy("engine", "Only the playing side scores announcements in these "
                                       "rules."),
    "announcement_by_not_a_player": pgettext_lazy("engine", "%(field)s must be a player of this card."),
    "announcement_by_resting_player": pgettext_lazy("engine", "The resting player cannot make an announcement."),
    "announcement_by_wrong_player": pgettext_lazy("engine", "This player cannot make this announcement."),
    "announcement_by_wrong_side": pgettext_lazy("engine", "This announcement belongs to the other side."),
    "announcement_conflict": pgettext_lazy("engine", "These announcements cannot be listed together."),
    "announcement_not_allowed": pgettext_lazy("engine", "This announcement is not possible in this game."),
    "announcement_not_in_mode": pgettext_lazy("engine", "This announcement is not played at this table form."),
    "amount_not_in_coins": pgettext_lazy("engine", "The amount must be a whole number of coins of %(step)s."),
    "claim_by_renoncer": pgettext_lazy("engine", "The player who made the renons cannot claim this premium."),
    "claim_not_achieved": pgettext_lazy("engine", "After a renons, list a silent premium only when its loss is "
                                 "claimed (achieved)."),
    "conceded_and_won": pgettext_lazy("engine", "A conceded hand is lost."),
    "conceded_not_allowed": pgettext_lazy("engine", "This game cannot be given up here."),
    "conceded_with_renons": pgettext_lazy("engine", "A conceded hand is not played, so it has no renons."),
    "conflicting_penalties": pgettext_lazy("engine", "These penalties cannot both happen in one hand."),
    "contra_by_not_a_player": pgettext_lazy("engine", "%(field)s must be a player of this card."),
    "contra_by_wrong_side": pgettext_lazy("engine", "This contra comes from the wrong side."),
    "contra_level_not_allowed": pgettext_lazy("engine", "This contra level is not part of these rules."),
    "contra_not_allowed": pgettext_lazy("engine", "No contra is possible here."),
    "contra_on_missing_announcement": pgettext_lazy("engine", "The contra names an announcement that is not in "
                                             "this hand."),
    "contra_on_silent": pgettext_lazy("engine", "A silent announcement cannot be contra'd."),
    "contra_out_of_order": pgettext_lazy("engine", "The contras are not in the right order."),
    "declarer_not_a_player": pgettext_lazy("engine", "The declarer must be a player of this card."),
    "declarer_not_forehand": pgettext_lazy("engine", "In this game the declarer must be the forehand."),
    "druha_povinnost_needs_pagat": pgettext_lazy("engine", "A druhá povinnost needs the pagát: list it as the "
                                          "declarer's announced pagát."),
    "duplicate_announcement": pgettext_lazy("engine", "This announcement is listed twice."),
    "duplicate_penalty": pgettext_lazy("engine", "This penalty is listed twice."),
    "duplicate_player": pgettext_lazy("engine", "A player is listed twice."),
    "eyes_without_tricks": pgettext_lazy("engine", "A player without a trick cannot have eyes."),
    "field_not_allowed": pgettext_lazy("engine", "%(field)s is not used here."),
    "forehand_not_a_player": pgettext_lazy("engine", "The forehand must be a player of this card."),
    "game_not_in_mode": pgettext_lazy("engine", "This game is not played at this table form."),
    "hands_and_sheet": pgettext_lazy("engine", "Give either hands or a money sheet, not both."),
    "impossible_together": pgettext_lazy("engine", "%(first)s and %(second)s cannot both be true in one hand."),
    "held_announcement_cannot_fail": pgettext_lazy("engine", "A held announcement cannot fail."),
    "held_not_used": pgettext_lazy("engine", "%(field)s is not used in these rules."),
    "initial_state_not_supported": pgettext_lazy("engine", "This ruleset does not carry state between hands."),
    "invalid_called_tarok": pgettext_lazy("engine", "The called tarok is not valid."),
    "invalid_contra": pgettext_lazy("engine", "This contra is not valid."),
    "invalid_contra_level": pgettext_lazy("engine", "The contra level is not valid."),
    "invalid_count": pgettext_lazy("engine", "%(field)s must be a whole number, 0 or more."),
    "invalid_name": pgettext_lazy("engine", "The name must be text."),
    "invalid_option": pgettext_lazy("engine", "This value of the option is not allowed."),
    "invalid_penalty": pgettext_lazy("engine", "This penalty is not valid."),
    "invalid_player": pgettext_lazy("engine", "The player must be a start number."),
    "invalid_players": pgettext_lazy("engine", "The players must be a list of player ids."),
    "invalid_round": pgettext_lazy("engine", "The round must be a whole number from 1."),
    "invalid_stake": pgettext_lazy("engine", "The stake must be a positive whole amount."),
    "invalid_table": pgettext_lazy("engine", "The table must be a whole number from 1."),
    "klop_points_do_not_add_up": pgettext_lazy("engine", "The klop points must add up to 70, got %(total)s."),
    "missing": pgettext_lazy("engine", "%(field)s is required."),
    "more_errors": pgettext_lazy("engine", "Further errors not listed: %(count)s."),
    "named_vogerl_missing": pgettext_lazy("engine", "List the Vogerl named in the bid as the declarer's "
                                   "announcement."),
    "negative_money": pgettext_lazy("engine", "The money cannot be negative."),
    "negative_top_up": pgettext_lazy("engine", "The amount bought cannot be negative."),
    "no_tarok_on_played_hand": pgettext_lazy("engine", "A hand without a tarok is dealt again: it cannot also "
                                      "be played."),
    "not_a_boolean": pgettext_lazy("engine", "%(field)s must be yes or no."),
    "not_a_list": pgettext_lazy("engine", "%(field)s must be a list."),
    "not_a_player": pgettext_lazy("engine", "%(field)s must be a player of this card."),
    "not_a_string": pgettext_lazy("engine", "%(field)s must be text."),
    "not_allowed_after_misdeal": pgettext_lazy("engine", "A misdealt hand is dealt again and never played."),
    "not_an_integer": pgettext_lazy("engine", "%(field)s must be a whole number."),
    "not_an_object": pgettext_lazy("engine", "%(field)s does not have the expected form."),
    "out_of_range": pgettext_lazy("engine", "%(field)s is out of range."),
    "partner_is_declarer": pgettext_lazy("engine", "The partner cannot be the declarer: a declarer who called "
                                  "himself plays alone."),
    "partner_not_a_player": pgettext_lazy("engine", "The partner must be a player of this card."),
    "partner_not_allowed": pgettext_lazy("engine", "This game has no partner."),
    "penalty_not_allowed_in_game": pgettext_lazy("engine", "This penalty is not possible in this game."),
    "penalty_player_not_a_player": pgettext_lazy("engine", "The penalised player must be a player of this "
                                          "card."),
    "points_do_not_add_up": pgettext_lazy("engine", "The points must add up to %(expected)s, got %(got)s."),
    "points_out_of_range": pgettext_lazy("engine", "The points must be a whole number from 0 to 70."),
    "resting_not_a_player": pgettext_lazy("engine", "The resting player must be a player of this card."),
    "resting_not_allowed": pgettext_lazy("engine", "Nobody rests at this table."),
    "resting_player_declares": pgettext_lazy("engine", "The resting player does not play this hand."),
    "sechserdreier_not_forehand": pgettext_lazy("engine", "Only the Vorhand can play a Sechserdreier."),
    "sheet_does_not_add_up": pgettext_lazy("engine", "The money on the table must equal the stakes plus the "
                                    "amounts bought."),
    "sheet_not_supported": pgettext_lazy("engine", "This ruleset scores hands, not a money sheet."),
    "silent_not_achieved": pgettext_lazy("engine", "A silent announcement that was not made scores nothing "
                                  "here: leave it out."),
    "silent_not_allowed": pgettext_lazy("engine", "This hláška cannot be silent."),
    "silent_not_realised": pgettext_lazy("engine", "A silent announcement is written only when it was made."),
    "silent_premium_cannot_fail": pgettext_lazy("engine", "A silent premium is written only when it was made: "
                                         "leave it out."),
    "solo_follows_game": pgettext_lazy("engine", "The solo is won or lost with the game."),
    "solo_is_announced": pgettext_lazy("engine", "The solo is always announced."),
    "solo_with_partner": pgettext_lazy("engine", "Solo means playing alone: there is no partner."),
    "too_many_contras": pgettext_lazy("engine", "Too many contras."),
    "top_up_not_in_steps": pgettext_lazy("engine", "The amount bought must be a multiple of %(step)s."),
    "total_mismatch": pgettext_lazy("engine", "The written total is not the sum of the money."),
    "tricks_contradict_points": pgettext_lazy("engine", "A player has no points exactly when he has no trick."),
    "tricks_do_not_add_up": pgettext_lazy("engine", "The tricks do not add up to the tricks of the deal."),
    "tricks_do_not_match_points": pgettext_lazy("engine", "A player has no points exactly when he has no "
                                         "trick."),
    "trischaken_blatt_needed": pgettext_lazy("engine", "Points are missing: say who dropped the Blatt "
                                      "(blatt_by_player)."),
    "trischaken_points_do_not_add_up": pgettext_lazy("engine", "The points and Blatt must add up to exactly 70 "
                                              "points."),
    "unknown_announcement": pgettext_lazy("engine", "Unknown announcement."),
    "unknown_field": pgettext_lazy("engine", "Unknown field %(field)s."),
    "unknown_game": pgettext_lazy("engine", "Unknown game."),
    "unknown_mode": pgettext_lazy("engine", "Unknown table form."),
    "unknown_option": pgettext_lazy("engine", "Unknown option."),
    "unknown_ruleset": pgettext_lazy("engine", "Unknown ruleset."),
    "valat_contradicts_points": pgettext_lazy("engine", "A valat takes every trick, so the game is won."),
    "valat_contradicts_won": pgettext_lazy("engine", "A side that takes every trick wins the game."),
    "valat_points_inconsistent": pgettext_lazy("engine", "The points do not fit the valat."),
    "valat_points_mismatch": pgettext_lazy("engine", "The points do not fit the valat."),
    "won_contradicts_points": pgettext_lazy("engine", "The points do not agree with whether the game was won."),
    "wrong_player_count": pgettext_lazy("engine", "%(expected)s players are needed, got %(got)s."),
}

# Params given in haléř: shown as Kč.
_MONEY_PARAMS = frozenset({"step"})

ERROR_CODES = frozenset(_E)


def error_text(error: Mapping[str, Any] | Any, ruleset: str | None = None) -> str:
    """One validation error of the engine in the active language (its English `message` when
    the code or a needed param is not known)."""
    if not isinstance(error, Mapping):
        return str(error or "")
    english = str(error.get("message") or "")
    msgid = _E.get(str(error.get("code") or ""))
    if msgid is None or _english():
        return english
    params = error.get("params")
    values: dict[str, Any] = dict(params) if isinstance(params, Mapping) else {}
    try:
        for key in _MONEY_PARAMS & values.keys():
            values[key] = _kc(values[key])
        values["field"] = str(error.get("field") or "")
        return str(msgid) % values
    except (KeyError, IndexError, TypeError, ValueError, ArithmeticError):
        logger.debug("engine error %r not translated", error.get("code"), exc_info=True)
        return english


# -- round notes of the seating engine ------------------------------------------------------------
# The seating engine (tournaments.seating) gives every note a `code`, its `params` and its
# English `text` (tournaments/seating/notes.py). A note is rendered from code and params; a
# note whose code is not known here, or a round stored before notes had codes (a plain
# English string), is shown as the engine wrote it.

_NOTES: dict[str, Any] = {
    "fixed_list": pgettext_lazy("engine", "the organiser's own table list"),
    "short_table": pgettext_lazy("engine", "table %(table)s has %(count)s players: %(total)s is not a "
                                           "multiple of %(size)s"),
    "knockout_tie": pgettext_lazy("engine", "table %(table)s: %(first)s and %(second)s have the same total "
                                            "(%(total)s); the seeded draw puts %(first)s ahead"),
    "knockout_main_draw": pgettext_lazy("engine", "main draw of %(count)s players, tables in draw order "
                                                  "(seed 000 §4.1 a)"),
    "knockout_final_draw": pgettext_lazy("engine", "four players: this is the final"),
    "knockout_pre_competition": pgettext_lazy("engine", "pre-competition: %(count)s registered, the main draw "
                                                        "needs %(target)s, so %(drop)s must drop out; %(playing)s "
                                                        "drawn players play it, two go through from each table "
                                                        "(seed 000 §4.1 a)"),
    "knockout_odd_drop": pgettext_lazy("engine", "table %(table)s has 3 players: one drops out there, because "
                                                 "%(drop)s is odd"),
    "knockout_byes": pgettext_lazy("engine", "%(count)s players go straight into the main draw (byes)"),
    "knockout_out_earlier": pgettext_lazy("engine", "%(count)s available players went out in an earlier round"),
    "knockout_after_pre_competition": pgettext_lazy("engine", "main draw of %(count)s players after the "
                                                              "pre-competition, tables in draw order"),
    "knockout_halves": pgettext_lazy("engine", "next round from halves A and B of the winners' list "
                                               "(seed 000 §4.1 a)"),
    "knockout_final": pgettext_lazy("engine", "four players left: the final (\"Ko ostanejo le štirje igralci, "
                                              "je finalna igra\")"),
    "league_summary": pgettext_lazy("engine", "%(rounds)s matchdays: %(met)s of %(pairs)s pairs meet, "
                                              "%(repeats)s repeat meetings"),
    "league_construction": pgettext_lazy("engine", "%(used)s matchdays come from %(source)s; the tabu search "
                                                   "kept or improved them"),
    "league_clubs": pgettext_lazy("engine", "%(together)s times two players of one club sit at one table"),
    "league_absent": pgettext_lazy("engine", "%(count)s players are absent"),
    "schedule_distance": pgettext_lazy("engine", "%(matchdays)s matchdays: the first %(clean)s without a repeat "
                                                 "meeting; %(repeats)s repeat meetings (at least %(floor)s are "
                                                 "unavoidable), no pair more than %(most)s times"),
    "points_first_round": pgettext_lazy("engine", "round 1: the players are drawn into tables (seed 000 §4.1 b)"),
    "points_order": pgettext_lazy("engine", "tables by points: those who played the last round first "
                                            "(table 1 = most points)%(rest)s"),
    "random_draw": pgettext_lazy("engine", "the tables are drawn at random (seed 001: \"Es entscheidet ein "
                                           "Zufallsgenerator\")"),
    "random_swapped": pgettext_lazy("engine", "players were swapped after the draw to avoid meeting earlier "
                                              "opponents"),
    "random_repeats": pgettext_lazy("engine", "%(repeats)s pairs of players meet again: no single swap of two "
                                              "players avoids it"),
}
# The bound of a field reads differently when the best known length reaches it, falls short
# of it, or is not known.
_BOUND = {
    "reached": pgettext_lazy("engine", "%(players)s players: at most %(upper)s matchdays without any pair "
                                       "meeting twice, and so many are possible"),
    "short": pgettext_lazy("engine", "%(players)s players: at most %(upper)s matchdays without any pair "
                                     "meeting twice; %(known)s are known to be possible"),
    "unknown": pgettext_lazy("engine", "%(players)s players: at most %(upper)s matchdays without any pair "
                                       "meeting twice"),
}
# Where a league's constructed matchdays come from (tournaments/seating/designs.py).
_SOURCES = {
    "rbibd": pgettext_lazy("engine", "a resolvable design in which every pair meets exactly once"),
    "rgdd": pgettext_lazy("engine", "a resolvable group divisible design"),
    "published": pgettext_lazy("engine", "the published 10-matchday schedule for 32 players"),
}
_MATCHDAY = pgettext_lazy("engine", "matchday %(number)s: %(note)s")
_LATE = npgettext_lazy("engine", ", then %(late)s late entry", ", then %(late)s late entries", "late")
_MISSED = npgettext_lazy("engine", ", then %(missed)s who missed the last round",
                         ", then %(missed)s who missed the last round", "missed")

NOTE_CODES = frozenset(_NOTES) | {"no_repeat_bound"}


def _note_values(code: str, params: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The message of a note and the values to fill in."""
    values = dict(params)
    if code == "no_repeat_bound":
        known, upper = values.get("known"), values["upper"]
        variant = "unknown" if known is None else ("reached" if known == upper else "short")
        return _BOUND[variant], values
    if code == "points_order":
        rest = ""
        if values.get("late"):
            rest += _LATE % {"late": values["late"]}
        if values.get("missed"):
            rest += _MISSED % {"missed": values["missed"]}
        values["rest"] = rest
    if code == "league_construction":
        values["source"] = str(_SOURCES[values["source"]])
    return _NOTES[code], values


def note_text(note: Any) -> str:
    """A round note of the seating engine in the active language (its English text when the
    code is not known here, and a stored plain string as it is)."""
    if not isinstance(note, Mapping):
        return str(note or "")
    english = str(note.get("text") or "")
    code = str(note.get("code") or "")
    params = note.get("params")
    if _english() or code not in NOTE_CODES or not isinstance(params, Mapping):
        return english
    try:
        msgid, values = _note_values(code, dict(params))
        text = _t(msgid, **values)
        if "matchday" in params:
            text = _t(_MATCHDAY, number=params["matchday"], note=text)
        return text
    except (KeyError, IndexError, TypeError, ValueError):
        logger.debug("seating note %r not translated", code, exc_info=True)
        return english
