"""The breakdown lines of a scored hand in the reader's language, rendered from each line's
`code` and `params` (the scoring engine's English `what` when a code is not known here)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import pgettext_lazy

from tournaments.engine_text.common import (
    LineContext,
    english_reader,
    fill,
    held_announcements,
    kc,
    signed,
)

logger = logging.getLogger(__name__)

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
    # two-player tarok (§2.2)
    "two_igram_won": pgettext_lazy("engine", "igram won with %(points)s points: difference "
                                             "%(difference)s ×%(factor)s"),
    "two_igram_lost": pgettext_lazy("engine", "igram lost with %(points)s points: difference "
                                              "%(difference)s ×%(factor)s"),
    "two_ordinary_won": pgettext_lazy("engine", "ordinary game won with %(points)s points: "
                                                "difference %(difference)s"),
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


def _contra_suffix(c: LineContext, text: str, level: Any) -> str:
    if level:
        return fill(_M["contra"], text=text, contra=c.contra(level))
    return text


def _share_suffix(c: LineContext, text: str) -> str:
    role = c.p.get("role")
    if role == "partner":
        return fill(_M["partner_share"], text=text)
    if role == "fellow_defender":
        return fill(_M["fellow_share"], text=text)
    return text


def _game_line(c: LineContext, won: bool) -> str:
    p = c.p
    if "rate" in p:  # GP Vysočiny: eyes times the rate per eye, in haléř
        level = int(p.get("level") or 0)
        contra = c.contra(level) if level else fill(_M["no_flek"])
        text = fill(_M["gp_game_won" if won else "gp_game_lost"], game=c.game(p["game"]),
                  contra=contra, points=p["points"], difference=p["difference"],
                  rate=p["rate"], raw=p["raw"])
        if p["amount"] != p["raw"]:
            text = fill(_M["rounded_up"], text=text, amount=kc(p["amount"]))
        return text
    text = fill(_M["game_won" if won else "game_lost"], game=c.game(p["game"]))
    if "game_value" in p and "contra_factor" in p and "amounts" not in p:
        # Zei: points, difference and solo are part of the sentence
        if p.get("points") is not None:
            text = fill(_M["zei_game_points"], text=text, points=p["points"],
                      difference=p["difference"])
        if "solo" in p:
            text = fill(_M["with_solo"], text=text)
        return text
    if "contra_level" in p:  # Tarok.net: the declarer's line tells the difference
        if p.get("role") in ("partner", "fellow_defender"):
            return _share_suffix(c, text)
        if p.get("points") is not None:
            text = fill(_M["difference"], text=text, difference=p["difference"])
        return _contra_suffix(c, text, p["contra_level"])
    return text  # Tarockcup: the game and its outcome


def _tarok_net_announcement(c: LineContext, won: bool, announced: bool) -> str:
    p = c.p
    key = ("announced_" if announced else "silent_") + ("won" if won else "lost")
    text = fill(_M[key], name=c.announcement(p["name"]))
    if p.get("held"):
        text = fill(_M["trula_held"], text=text)
    if p.get("role") in ("partner", "fellow_defender"):
        return _share_suffix(c, text)
    return _contra_suffix(c, text, p["contra_level"])


def _announcement_won(c: LineContext) -> str:
    if "announcement" in c.p:  # Zei
        how = "announced" if c.p["announced"] else "silent"
        return fill(_M[f"ann_{how}_made"], name=c.announcement(c.p["announcement"]))
    return _tarok_net_announcement(c, True, True)


def _announcement_lost(c: LineContext, *, with_game: bool = False) -> str:
    if "announcement" in c.p:
        how = "announced" if c.p["announced"] else "silent"
        outcome = "lost_with_game" if with_game else "failed"
        return fill(_M[f"ann_{how}_{outcome}"], name=c.announcement(c.p["announcement"]))
    return _tarok_net_announcement(c, False, True)


def _contra_line(c: LineContext, key: str) -> str:
    p = c.p
    item = p["name"] if "name" in p else p["game"]
    return fill(_M[key], contra=c.contra(1), item=c.item_name(item))


def _klop_points(c: LineContext) -> str:
    p = c.p
    if p.get("doubled"):
        return fill(_M["klop_points_doubled"], points=p["points"])
    text = fill(_M["klop_points"], points=p["points"])
    return _contra_suffix(c, text, p.get("contra_level") or 0)


def _two(c: LineContext, key: str) -> str:
    p = c.p
    return fill(_M[key], points=p["points"], difference=p["difference"], factor=p["factor"])


def _renons(c: LineContext) -> str:
    p = c.p
    if "clause" in p:  # Tarok.net: the sum the renoncer pays, item by item
        factor = int(p["factor"])
        parts = [fill(_M["renons_game_part"], base=p["base"], renons=p["renons_base"])
                 + (f" ×{factor}" if factor > 1 else "")]
        for a in p["announcements"]:
            af = int(a["factor"])
            parts.append(f"{c.announcement(a['name'])} {a['value']}" + (f" ×{af}" if af > 1 else ""))
        return fill(_M["renons_net"], parts=" + ".join(parts))
    if p.get("game") == "varsava" and "base" not in p:
        return fill(_M["gp_renons_varsava"], player=p["player"], amount=kc(p["amount"]))
    level = int(p.get("level") or 0)
    text = fill(_M["gp_renons"], player=p["player"], game=c.game(p["game"]),
              contra=c.contra(level) if level else fill(_M["no_flek"]), base=kc(p["base"]),
              hlasky=kc(p["announced_hlasky"]), amount=kc(p["amount"]))
    if p["triple_to_declarer"]:
        return fill(_M["gp_renons_triple"], text=text, declarer=p["declarer"])
    return fill(_M["gp_renons_every"], text=text)


def _misdeal(c: LineContext) -> str:
    if "count" in c.p:
        return fill(_M["misdeal_count"], count=c.p["count"])
    return fill(_M["gp_misdeal"], player=c.p["player"], fine=kc(c.p["fine"]))


def _valat(c: LineContext, won: bool) -> str:
    p = c.p
    how = "announced" if p["announced"] else "silent"
    if "multiplier" in p:  # Tarockcup
        outcome = "made" if won else "failed"
        return fill(_M[f"valat_{how}_{outcome}"], game=c.game(p["game"]), value=p["game_value"],
                  multiplier=p["multiplier"])
    if not won:
        raise KeyError("valat_lost")
    return fill(_M[f"{how}_valat_made"])


def _premium(c: LineContext, won: bool) -> str:
    how = "announced" if c.p["announced"] else "silent"
    return fill(_M[f"premium_{how}_{'made' if won else 'lost'}"],
              name=c.announcement(c.p["premium"]))


def _trischaken(c: LineContext) -> str:
    p = c.p
    code = c.item["code"]
    reasons: list[str] = []
    if code == "trischaken_renons":
        reasons.append(fill(_M["reason_renons"]))
    elif code == "trischaken_all_tricks":
        reasons.append(fill(_M["reason_all_tricks"]) + (" (Vorhand)" if p["forehand"] else ""))
    elif code == "trischaken_jungfrau":
        reasons.append("Jungfrau")
        if p["buergermeister"]:
            reasons.append("Bürgermeister")
    else:
        reasons.append(fill(_M["reason_loser"]))
        if p["forehand"]:
            reasons.append("Vorhand")
        if p["buergermeister"]:
            reasons.append("Bürgermeister")
    return fill(_M["trischaken_pays"], payer=c.item["player"], receiver=p["to"],
              amount=p["amount"], reason=", ".join(reasons))


def _gp_announcement(c: LineContext) -> str:
    p = c.p
    side = fill(_M["side_declarer" if p["side"] == "declarer's side" else "side_opponents"])
    values = {"name": c.announcement(p["name"]), "by": p["by"], "side": side,
              "value": kc(p["value"])}
    if p["name"] in held_announcements():
        return fill(_M["hlaska_held"], **values)
    how = "announced" if p["announced"] else "silent"
    return fill(_M[f"hlaska_{how}_{'achieved' if p['achieved'] else 'lost'}"], **values)


def _gp_equal_eyes(c: LineContext) -> str:
    p = c.p
    level = int(p.get("level") or 0)
    key = "equal_eyes_opponents" if p["payer_side"] == "opponents" else "equal_eyes_declarer"
    return fill(_M[key], game=c.game(p["game"]),
              contra=c.contra(level) if level else fill(_M["no_flek"]), rate=p["rate"],
              amount=kc(p["amount"]))


def _cap(c: LineContext) -> str:
    p = c.p
    values = {"payer": p["payer"], "receiver": p["receiver"], "after": kc(p["after"]),
              "before": kc(p["before"])}
    if p.get("scope") == "receiver":
        return fill(_M["cap_receiver"], cap=kc(p["cap"]), **values)
    return fill(_M["cap_payment"], **values)


def _simple(key: str) -> Callable[[LineContext], str]:
    return lambda c: fill(_M[key])


_LINES: dict[str, Callable[[LineContext], str]] = {
    "game_won": lambda c: _game_line(c, True),
    "game_lost": lambda c: _game_line(c, False),
    "announcement_won": _announcement_won,
    "announcement_lost": _announcement_lost,
    "announcement_lost_with_game": lambda c: _announcement_lost(c, with_game=True),
    "silent_won": lambda c: _tarok_net_announcement(c, True, False),
    "silent_lost": lambda c: _tarok_net_announcement(c, False, False),
    "radelc": lambda c: fill(_M["radelc"], subtotal=signed(c.p["subtotal"])),
    "contra_right": lambda c: _contra_line(c, "contra_right"),
    "contra_wrong": lambda c: _contra_line(c, "contra_wrong"),
    "contra_compensation": lambda c: _contra_line(c, "contra_compensation"),
    "klop_points": _klop_points,
    "two_igram_won": lambda c: _two(c, "two_igram_won"),
    "two_igram_lost": lambda c: _two(c, "two_igram_lost"),
    "two_ordinary_won": lambda c: _two(c, "two_ordinary_won"),
    "klop_full": lambda c: fill(_M["klop_full"], points=c.p["points"]),
    "klop_no_trick": _simple("klop_no_trick"),
    "klop_contra_limit": lambda c: fill(_M["klop_contra_limit"], contra=c.contra(c.p["contra"]),
                                      points=c.p["points"], limit=c.p["limit"]),
    "klop_over_35": lambda c: fill(_M["klop_over_35"], points=c.p["points"]),
    "renons": _renons,
    "mond_lost": _simple("mond_lost"),
    "misdeal": _misdeal,
    "no_tarok": _simple("no_tarok"),
    "renons_annulled": _simple("renons_annulled"),
    "partner_result": _simple("partner_result"),
    "radelc_double": lambda c: fill(_M["radelc_double_collective" if c.p.get("collective")
                                     else "radelc_double"]),
    "mondfang": _simple("mondfang"),
    "valat_won": lambda c: _valat(c, True),
    "valat_lost": lambda c: _valat(c, False),
    "contra_void_partners": lambda c: fill(_M["contra_void_partners"],
                                         item=c.item_name(c.p["target"])),
    "contra_void_king_in_talon": _simple("contra_void_king_in_talon"),
    "contra_void_valat": _simple("contra_void_valat"),
    "renons_compensation": lambda c: fill(_M["renons_compensation"], renoncer=c.p["renoncer"],
                                        player=c.item["player"]),
    "game_conceded": lambda c: fill(_M["game_conceded"], game=c.game(c.p["game"])),
    "premium_in_valat": lambda c: fill(_M["premium_in_valat"],
                                     name=c.announcement(c.p["premium"])),
    "premium_won": lambda c: _premium(c, True),
    "premium_lost": lambda c: _premium(c, False),
    "trischaken_renons": _trischaken,
    "trischaken_all_tricks": _trischaken,
    "trischaken_jungfrau": _trischaken,
    "trischaken_loser": _trischaken,
    "game_equal_eyes": _gp_equal_eyes,
    "announcement": _gp_announcement,
    "announcement_not_paid": lambda c: fill(_M["hlaska_not_paid"],
                                          name=c.announcement(c.p["name"]), by=c.p["by"]),
    "renons_play_continues": lambda c: fill(_M["renons_play_continues"], player=c.p["player"],
                                          fine=kc(c.p["fine"])),
    "varsava_most_eyes": lambda c: fill(_M["varsava_most_eyes_forehand" if c.p["forehand"]
                                         else "varsava_most_eyes"],
                                      player=c.p["player"], eyes=c.p["eyes"],
                                      paid=kc(c.p["paid"])),
    "cap_applied": _cap,
    "payment": lambda c: fill(_M["payment"], payer=c.p["payer"], receiver=c.p["receiver"],
                            amount=kc(c.p["amount"])),
    "sheet_result": lambda c: fill(_M["sheet_result"], player=c.p["player"],
                                 money=kc(c.p["money"]), stake=kc(c.p["stake"]),
                                 bought=kc(c.p["bought"]), result=kc(c.p["result"])),
    "sheet_balanced": lambda c: fill(_M["sheet_balanced"], money=kc(c.p["money"]),
                                   stakes=kc(c.p["stakes"]), bought=kc(c.p["bought"])),
}

LINE_CODES = frozenset(_LINES)


def line_text(line: Mapping[str, Any] | Any, ruleset: str | None = None) -> str:
    """One breakdown line of a hand in the active language (the engine's English `what` when
    its code or params are not understood)."""
    if not isinstance(line, Mapping):
        return str(line or "")
    english = str(line.get("what") or "")
    render = _LINES.get(str(line.get("code") or ""))
    if render is None or english_reader():
        return english
    try:
        return render(LineContext(line, ruleset))
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError):
        logger.debug("engine line %r not translated", line.get("code"), exc_info=True)
        return english
