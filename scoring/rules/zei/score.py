"""Scoring a checked hand of Lada Zei's rules (seed 003): the declarer's result (game value
and difference, solo, the announcements, kontra/re/sub, a valat in place of the game), what
the partner writes, klop (+10 for no trick, the 35-point rule), the mondfang, and the radelci
that klop leaves (personal, or the Styrian collective ones), carried in the state."""

from __future__ import annotations

from typing import Any

from scoring.rules.base import Card
from scoring.rules.zei.parse import Hand
from scoring.rules.zei.tables import (
    ANNOUNCEMENT_NAMES,
    ANNOUNCEMENT_VALUES,
    CONTRA_FACTORS,
    HALF,
    KLOP,
    KLOP_LIMIT,
    KLOP_NO_TRICK_BONUS,
    MOND_PENALTY,
    OPT_CONTRA_DOUBLES,
    OPT_KLOP_OVER_35,
    OPT_LOST_ANNOUNCEMENTS,
    OPT_LOST_VALAT,
    OPT_PARTNER_SCORES,
    OPT_RADELC_PARTNER,
    OPT_RADELCI,
    OPT_SILENT_VALAT,
    OPT_TRULAPAGAT_SILENT,
    SOLO,
    TALON,
)


def _ann_value(code: str, announced: bool, options: dict[str, Any]) -> int:
    silent, ann = ANNOUNCEMENT_VALUES[code]
    if announced:
        return ann
    if code == "trulapagat":
        return int(options[OPT_TRULAPAGAT_SILENT])
    assert silent is not None
    return silent


def score_hand(h: Hand, card: Card, state: dict[str, Any]) -> dict[str, Any]:
    players, options = card.players, card.options
    personal: dict[str, int] = state.get("radelci", {})
    collective: int = state.get("collective_radelci", 0)
    scores = {p: 0 for p in players}
    lines: list[dict[str, Any]] = []
    value = 0

    if h.renoncers:
        lines.append({"player": None, "what": "renons: the game is annulled", "points": 0,
                      "code": "renons_annulled",
                      "params": {"players": list(h.renoncers)}})
    elif h.game.family == KLOP:
        for p in players:
            pts = h.points_by_player[p]
            if pts == 0:
                amount, code, what = KLOP_NO_TRICK_BONUS, "klop_no_trick", "klop: no trick"
            elif pts > KLOP_LIMIT:
                amount = -KLOP_LIMIT if options[OPT_KLOP_OVER_35] == "instead" \
                    else -(pts + KLOP_LIMIT)
                code, what = "klop_over_35", f"klop: {pts} points, more than 35"
            else:
                amount, code, what = -pts, "klop_points", f"klop: {pts} points"
            scores[p] += amount
            lines.append({"player": p, "what": what, "points": amount, "code": code,
                          "params": {"points": pts}})
        # "Vsakemu igralcu se po odigranem klopu ... piše radelc"
        if options[OPT_RADELCI] == "personal":
            for p in players:
                personal[p] += 1
        else:
            collective += len(players)
    else:
        value, result, result_lines = _declared_result(h, options)
        lines.extend(result_lines)
        writers = [h.declarer]
        if h.partner is not None and options[OPT_PARTNER_SCORES]:
            writers.append(h.partner)
        # a failed announced valat written in place of the game (option lost_valat =
        # instead) loses the game, whatever the points: the radelc is not struck off
        failed_valat = any(a.code == "valat" and a.announced and not a.achieved
                           for a in h.announcements)
        won = bool(h.won) and not (failed_valat and _valat_replaces_game(True, False, options))
        doubled_collective = options[OPT_RADELCI] == "collective" and collective > 0
        for w in writers:
            assert w is not None
            amount = result
            if w != h.declarer:
                lines.append({"player": w, "what": "partner writes the declarer's result",
                              "points": result, "code": "partner_result", "params": {}})
            if options[OPT_RADELCI] == "personal":
                uses = personal[w] > 0 and (w == h.declarer or options[OPT_RADELC_PARTNER])
                if uses:
                    amount *= 2
                    lines.append({"player": w, "what": "radelc doubles the game",
                                  "points": result, "code": "radelc_double",
                                  "params": {"struck_off": won}})
                    if won:
                        personal[w] -= 1
            elif doubled_collective:
                amount *= 2
                lines.append({"player": w, "what": "collective radelc doubles the game",
                              "points": result, "code": "radelc_double",
                              "params": {"collective": True}})
            scores[w] += amount
        if doubled_collective and won:
            collective -= 1
    for p in h.mond:
        # written at once, "še preden se igra konča", so a later renons does not undo it
        scores[p] -= MOND_PENALTY
        lines.append({"player": p, "what": "mond caught (mondfang)", "points": -MOND_PENALTY,
                      "code": "mondfang", "params": {}})
    if options[OPT_RADELCI] == "collective":
        state["collective_radelci"] = collective
    return {"value": value, "scores": scores, "lines": lines}


def _valat_replaces_game(announced: bool, achieved: bool, options: dict[str, Any]) -> bool:
    """Whether a valat is written in place of the game: one made, announced, always; a
    silent one made unless option silent_valat = added; an announced one that failed only
    with option lost_valat = instead."""
    if achieved:
        return announced or options[OPT_SILENT_VALAT] == "instead"
    return announced and options[OPT_LOST_VALAT] == "instead"


def _declared_result(h: Hand, options: dict[str, Any]
                     ) -> tuple[int, int, list[dict[str, Any]]]:
    """The declarer's result before radelci: (contract value, result, lines)."""
    game = h.game
    assert h.declarer is not None and h.won is not None
    won = h.won
    sign = 1 if won else -1
    factor = CONTRA_FACTORS.get(h.contra_level, 1)
    # the game is always multiplied; the announcements only when contra_doubles=whole_hand
    contra_whole = options[OPT_CONTRA_DOUBLES] == "whole_hand"
    lines: list[dict[str, Any]] = []
    anns = {a.code: a for a in h.announcements}
    valat = anns.get("valat")
    decl = h.declarer

    if valat is not None and _valat_replaces_game(valat.announced, bool(valat.achieved),
                                                   options):
        # "Tako napovedana igra šteje 500 pik, nenapovedan valat pa je vreden pol manj."
        amount = _ann_value("valat", valat.announced, options)
        result = amount * factor * (1 if valat.achieved else -1)
        if valat.achieved:
            how = "announced" if valat.announced else "silent"
            lines.append({"player": decl, "what": f"{how} valat made", "points": result,
                          "code": "valat_won",
                          "params": {"value": amount, "contra_factor": factor,
                                     "announced": valat.announced}})
        else:
            # option lost_valat = instead: the failed announcement in place of the game
            lines.append({"player": decl, "what": "announced valat failed, in place of the "
                          "game", "points": result, "code": "announcement_lost",
                          "params": {"announcement": "valat", "announced": True,
                                     "value": amount, "contra_factor": factor,
                                     "in_place_of_game": True}})
        return amount, result, lines

    if game.family in (TALON, SOLO):
        assert h.points is not None
        diff = abs(h.points - HALF)
        value = game.value + diff
        what = (f"{game.name} {'won' if won else 'lost'} with {h.points} points "
                f"(difference {diff})")
        params: dict[str, Any] = {"game": game.code, "game_value": game.value,
                                  "points": h.points, "difference": diff}
    else:
        value = game.value
        what = f"{game.name} {'won' if won else 'lost'}"
        params = {"game": game.code, "game_value": game.value}
    game_part = sign * value
    solo = anns.get("solo")
    if solo is not None:
        game_part += sign * ANNOUNCEMENT_VALUES["solo"][1]
        params["solo"] = ANNOUNCEMENT_VALUES["solo"][1]
    game_points = game_part * factor
    params["contra_factor"] = factor
    lines.append({"player": decl, "what": what + (" with solo" if solo else ""),
                  "points": game_points, "code": "game_won" if won else "game_lost",
                  "params": params})
    total = game_points
    for a in h.announcements:
        if a.code == "solo":
            continue
        amount = _ann_value(a.code, a.announced, options)
        if a.announced and not won and options[OPT_LOST_ANNOUNCEMENTS]:
            pts, code, how = -amount, "announcement_lost_with_game", "lost with the game"
        elif a.achieved:
            pts, code, how = amount, "announcement_won", "made"
        else:
            pts, code, how = -amount, "announcement_lost", "failed"
        pts *= 1 if not contra_whole else factor
        total += pts
        lines.append({"player": a.by, "what": f"{ANNOUNCEMENT_NAMES[a.code]} "
                      f"{'announced' if a.announced else 'silent'}: {how}",
                      "points": pts, "code": code,
                      "params": {"announcement": a.code, "announced": a.announced,
                                 "value": amount}})
    return value, total, lines
