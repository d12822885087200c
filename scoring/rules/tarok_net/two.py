"""Two-player tarok of the Tarok.net rules (§2.2 "Tarok v dveh", also called Napoleon; seed
000 and its revision 002 say the same): reading and scoring a hand of the mode `two`.

"Igralec, ki je prvi dobil karte, ima prednost in lahko izjavi: 'Igram'. To pomeni obvezo,
da bo na koncu igre imel v svojih vzetkih najmanj 36 točk. Če zmaga, se vrednost dobljenih
točk podvoji (dobljene točke so 'razlika' nad 35), v izgubljeni igri pa se vrednost točk
potroji in se beležijo za negativne točke. Če pa prvi igralec pasira, lahko delilec prevzame
igro pod istimi pogoji. Samo ko oba izjavita, da pasirata, odigrata navadno igro, v kateri
zmaga tisti, ki je zbral nad 35 točk, vendar je vrednost teh točk enojna."

So a hand is either `igram` (who said it, as `declarer`, and his `points`) or `navadna` (both
players' `points_by_player`). Only the player the clause names writes: the one who said igram,
won or lost, or the winner of the ordinary game; §2.2 names no announcements, contras, radelci
or penalties, so a hand of two has none of them.
"""

from __future__ import annotations

from typing import Any

from scoring.errors import ErrorCollector
from scoring.rules.checks import is_int, player_map
from scoring.rules.tarok_net.hand import ALL_GAME_CODES, SPECS, Hand, TarokNetCard
from scoring.rules.tarok_net.tables import (
    HALF,
    ORDINARY,
    TWO_LOST_FACTOR,
    TWO_ORDINARY_FACTOR,
    TWO_TOTAL,
    TWO_WON_FACTOR,
    WIN_AT,
)

# Fields a hand of two may have; the others of the contract are refused by name.
_FIELDS = {"igram": ("game", "declarer", "points", "forehand"),
           "navadna": ("game", "points_by_player", "forehand")}
_KNOWN = frozenset({
    "game", "declarer", "partner", "resting", "forehand", "points", "won",
    "points_by_player", "tricks_by_player", "announcements", "contras", "penalties",
})
_WHY_NOT = {
    "announcements": "§2.2 names no announcements in two",
    "contras": "§2.2 names no kontra in two",
    "penalties": "§2.2 names no penalties in two (§3.9 is the competition's, TRI + 1)",
    "resting": "nobody rests in two",
    "partner": "there are no partners in two",
    "won": "igram is decided by points (36 or more wins), not by won",
    "tricks_by_player": "tricks are not counted in two",
}


def read(i: int, hand: dict[str, Any], card: TarokNetCard, h: Hand,
         errors: ErrorCollector) -> None:
    """Fill `h` from a hand of two, adding a problem for every field that is wrong."""
    add = errors.add
    game = hand.get("game")
    spec = SPECS[card.mode].get(game) if isinstance(game, str) else None
    if spec is None:
        if game is None:
            add(i, "game", "missing", "game is required: igram, or navadna when both passed")
        elif isinstance(game, str) and game in ALL_GAME_CODES:
            add(i, "game", "game_not_in_mode", f"game {game} is not played in mode {card.mode}",
                game=game, mode=card.mode)
        else:
            add(i, "game", "unknown_game", f"unknown game {game!r}", game=game)
        return
    h.spec = spec
    allowed = _FIELDS[spec.code]
    for key, value in hand.items():
        if key in allowed or key not in _KNOWN or value is None or value == []:
            continue
        reason = _WHY_NOT.get(key) or (
            "the ordinary game gives both players' points (points_by_player)"
            if spec.code == "navadna" else
            "igram gives the points of the player who said it (points)")
        add(i, key, "field_not_allowed", f"{key} is not used here: {reason}")
    h.in_hand = list(card.players)
    if spec.decided_by == ORDINARY:
        _both_points(i, hand, card, h, errors)
        return
    declarer = hand.get("declarer")
    if declarer is None:
        add(i, "declarer", "missing", "igram needs the player who said it (declarer)")
    elif not isinstance(declarer, str) or declarer not in card.pset:
        add(i, "declarer", "declarer_not_a_player",
            f"declarer {declarer!r} is not a player of this card")
    else:
        h.declarer = declarer
    points = hand.get("points")
    if points is None:
        add(i, "points", "missing", "points (card points of the player who said igram, "
                                    "0..70) are required")
    elif not is_int(points):
        add(i, "points", "not_an_integer", f"points must be a whole number, got {points!r}")
    elif not 0 <= points <= TWO_TOTAL:
        add(i, "points", "points_out_of_range",
            f"points must be between 0 and 70, got {points}", got=points)
    else:
        h.points = points


def _both_points(i: int, hand: dict[str, Any], card: TarokNetCard, h: Hand,
                 errors: ErrorCollector) -> None:
    pbp = hand.get("points_by_player")
    if pbp is None:
        errors.add(i, "points_by_player", "missing",
                   "the ordinary game needs the points of both players (points_by_player)")
        return
    points = player_map(i, "points_by_player", pbp, card.players, errors, maximum=TWO_TOTAL)
    if points is None:
        return
    total = sum(points.values())
    # Counted by threes, pile by pile, like klop: the same tolerance (§2.1).
    tol = card.options["klop_points_tolerance"]
    if abs(total - TWO_TOTAL) > tol:
        errors.add(i, "points_by_player", "points_do_not_add_up",
                   f"the two players' points add up to {total}, not 70"
                   + (f" (±{tol} allowed for counting)" if tol else ""),
                   expected=TWO_TOTAL, got=total, tolerance=tol)
        return
    h.points_by_player = points


def score(h: Hand, card: TarokNetCard) -> dict[str, Any]:
    """The scores and lines of a read hand of two."""
    scores = dict.fromkeys(card.players, 0)
    lines: list[dict[str, Any]] = []
    spec = h.spec
    assert spec is not None
    if spec.decided_by == ORDINARY:
        pbp = h.points_by_player or {}
        for p in card.players:
            if pbp[p] > HALF:
                diff = pbp[p] - HALF
                pts = diff * TWO_ORDINARY_FACTOR
                scores[p] = pts
                lines.append({"player": p, "what": f"ordinary game won with {pbp[p]} points, "
                                                   f"difference {diff}",
                              "points": pts, "code": "two_ordinary_won",
                              "params": {"game": spec.code, "points": pbp[p],
                                         "difference": diff, "factor": TWO_ORDINARY_FACTOR}})
        return {"value": max(scores.values()), "scores": scores, "lines": lines}
    declarer, points = h.declarer, h.points
    assert declarer is not None and points is not None
    if points >= WIN_AT:
        diff, factor, sign = points - HALF, TWO_WON_FACTOR, 1
    else:
        short_of = WIN_AT if card.options["two_lost_difference"] == "under_36" else HALF
        diff, factor, sign = short_of - points, TWO_LOST_FACTOR, -1
    pts = sign * diff * factor
    scores[declarer] = pts
    outcome = "won" if sign > 0 else "lost"
    lines.append({"player": declarer,
                  "what": f"igram {outcome} with {points} points, difference {diff} ×{factor}",
                  "points": pts, "code": "two_igram_won" if sign > 0 else "two_igram_lost",
                  "params": {"game": spec.code, "points": points, "difference": diff,
                             "factor": factor}})
    return {"value": diff * factor, "scores": scores, "lines": lines}
