"""Reading a hand of the Steirischer Tarockcup (seed 001): every field checked against the
contract and the game, every problem reported with its hand and field; Trischaken and the
two-sided games each have their reader, and the contra chains (for all players in positive
games, individual in negative ones) are followed call by call."""

from __future__ import annotations

from typing import Any

from scoring.errors import ErrorCollector
from scoring.rules.base import Card
from scoring.rules.checks import announcement_flags, game_of, items, known_fields
from scoring.rules.checks import is_int as _is_int
from scoring.rules.checks import player as _player
from scoring.rules.checks import player_map as _player_map
from scoring.rules.tarockcup.contras import check_contra_chains, read_contras
from scoring.rules.tarockcup.hand import Hand, Premium
from scoring.rules.tarockcup.tables import (
    CANNOT_FAIL_SILENTLY,
    GAME_BY_CODE,
    NEGATIV,
    OPTION_LOST_VALAT_GAME,
    OPTION_MONDFANG,
    PREMIUM_NAMES,
    PREMIUMS_BY_FAMILY,
    RUFER,
    TOTAL_THIRDS,
    TRISCHAKEN,
)

_HAND_FIELDS = {
    "game", "declarer", "partner", "forehand", "points", "won", "points_by_player",
    "blatt_by_player", "tricks_by_player", "announcements", "contras", "penalties", "conceded",
}
_ANNOUNCEMENT_FIELDS = {"name", "by", "announced", "achieved"}
_PENALTY_FIELDS = {"kind", "player"}


def parse_hand(i: int, hand: dict[str, Any], card: Card, errors: ErrorCollector) -> Hand | None:
    players = card.players
    before = len(errors)
    known_fields(i, hand, _HAND_FIELDS, card.ruleset.code, errors)
    game = game_of(i, hand, GAME_BY_CODE, errors)
    mond_allowed = card.options[OPTION_MONDFANG] == "zero"
    if game is None:
        _parse_penalties(i, hand, players, errors, mond_allowed)
        return None
    h = Hand(index=i, game=game)
    h.renoncers, h.mond = _parse_penalties(i, hand, players, errors, mond_allowed)
    if game.family == TRISCHAKEN:
        _parse_trischaken(i, hand, h, players, errors)
    else:
        _parse_two_sided(i, hand, h, players, errors,
                         keeps_game=card.options[OPTION_LOST_VALAT_GAME])
    return h if len(errors) == before else None


def _parse_penalties(i: int, hand: dict[str, Any], players: list[str],
                     errors: ErrorCollector, mond_allowed: bool) -> tuple[list[str], list[str]]:
    """The renoncing players, and the players who lost the Mond when option mondfang =
    zero lets the table write a Mondfang (for 0 points: "Mondfang wird nicht honoriert")."""
    found: dict[str, list[str]] = {"renons": [], "mond": []}
    for _k, f, pen in items(i, hand, "penalties", _PENALTY_FIELDS, errors):
        kind = pen.get("kind")
        if kind != "renons" and not (kind == "mond" and mond_allowed):
            errors.add(i, f"{f}.kind", "invalid_penalty",
                       f"the only penalty of this ruleset is 'renons' (Mondfang is not "
                       f"honoured), got {kind!r}")
        p = _player(i, f"{f}.player", pen.get("player"), players, errors)
        if p is not None and kind in found and (kind == "renons" or mond_allowed):
            if p in found[kind]:
                errors.add(i, f"{f}.player", "duplicate_penalty",
                           f"{p} already has a {kind} in this hand")
            else:
                found[kind].append(p)
    return found["renons"], found["mond"]


def _parse_trischaken(i: int, hand: dict[str, Any], h: Hand, players: list[str],
                      errors: ErrorCollector) -> None:
    for key in ("declarer", "partner", "points", "won", "announcements", "conceded"):
        if key in hand and not (key == "partner" and hand[key] is None) \
                and not (key == "announcements" and hand[key] == []):
            errors.add(i, key, "field_not_allowed",
                       f"trischaken is played by everyone for himself: no {key}")
    contras = hand.get("contras", [])
    if contras != []:
        errors.add(i, "contras", "contra_not_allowed",
                   "no contra in trischaken (\"Kein Kontra möglich!\")")
    if "forehand" not in hand:
        errors.add(i, "forehand", "missing", "trischaken needs the forehand (Vorhand)")
    else:
        h.forehand = _player(i, "forehand", hand["forehand"], players, errors)
    renonce = bool(h.renoncers)
    if "points_by_player" not in hand:
        if not renonce:
            errors.add(i, "points_by_player", "missing",
                       "trischaken needs points_by_player (each player's points)")
        for key in ("blatt_by_player", "tricks_by_player"):
            if key in hand:
                errors.add(i, key, "field_not_allowed", f"{key} needs points_by_player")
        return
    pbp = _player_map(i, "points_by_player", hand["points_by_player"], players, errors, 70)
    blatt = None
    if "blatt_by_player" in hand:
        blatt = _player_map(i, "blatt_by_player", hand["blatt_by_player"], players, errors, 2)
    tricks = None
    if "tricks_by_player" in hand:
        tricks = _player_map(i, "tricks_by_player", hand["tricks_by_player"], players,
                             errors, 12)
    if pbp is None or ("blatt_by_player" in hand and blatt is None) or \
            ("tricks_by_player" in hand and tricks is None):
        return
    blatt = blatt or {p: 0 for p in players}
    thirds = {p: 3 * pbp[p] + blatt[p] for p in players}
    if "blatt_by_player" in hand:
        if sum(thirds.values()) != TOTAL_THIRDS:
            errors.add(i, "points_by_player", "trischaken_points_do_not_add_up",
                       "points and Blatt must add up to exactly 70 points (210 Blatt), got "
                       f"{sum(thirds.values()) // 3} points and {sum(thirds.values()) % 3} Blatt",
                       total_thirds=sum(thirds.values()))
            return
    else:
        total = sum(pbp.values())
        if not 68 <= total <= 70:
            errors.add(i, "points_by_player", "trischaken_points_do_not_add_up",
                       f"points must add up to 70 (68 or 69 when Blatt were dropped), got "
                       f"{total}", total=total)
            return
        if total < 70:
            top = max(pbp.values())
            at_top = [p for p in players if pbp[p] == top]
            if len(at_top) > 1 or top == 35:
                errors.add(i, "blatt_by_player", "trischaken_blatt_needed",
                           f"the points add up to {total}, so {70 - total} point(s) are in "
                           "dropped Blatt; who lost (or whether he is Bürgermeister) depends "
                           "on them: give blatt_by_player", total=total)
                return
    if tricks is not None:
        if sum(tricks.values()) != 12:
            errors.add(i, "tricks_by_player", "tricks_do_not_add_up",
                       f"tricks must add up to 12, got {sum(tricks.values())}")
        for p in players:
            if (tricks[p] == 0) != (thirds[p] == 0):
                errors.add(i, f"tricks_by_player.{p}", "tricks_contradict_points",
                           f"{p} has {tricks[p]} tricks but {pbp[p]} points; a player has "
                           "no points exactly when he has no trick")
    h.points_by_player = pbp
    h.blatt_by_player = blatt


def _parse_two_sided(i: int, hand: dict[str, Any], h: Hand, players: list[str],
                     errors: ErrorCollector, keeps_game: bool) -> None:
    game = h.game
    for key in ("points_by_player", "blatt_by_player", "tricks_by_player"):
        if key in hand:
            errors.add(i, key, "field_not_allowed", f"{key} is only used in trischaken")
    if "declarer" not in hand:
        errors.add(i, "declarer", "missing", f"{game.code} needs a declarer")
    else:
        h.declarer = _player(i, "declarer", hand["declarer"], players, errors,
                             "declarer_not_a_player")
    if game.family == RUFER:
        if "partner" not in hand:
            errors.add(i, "partner", "missing",
                       f"{game.code} calls a king: give partner (null when the called king "
                       "lay in the talon)")
        elif hand["partner"] is not None:
            h.partner = _player(i, "partner", hand["partner"], players, errors)
            if h.partner is not None and h.partner == h.declarer:
                errors.add(i, "partner", "partner_is_declarer",
                           "calling oneself is not allowed (\"Selbstrufen ist generell nicht "
                           "erlaubt und Renonce\"): record a renons, or partner null when the "
                           "called king lay in the talon")
    elif hand.get("partner") is not None:
        errors.add(i, "partner", "partner_not_allowed",
                   f"{game.code} is played alone: only Rufer-type games have a partner")
    if "forehand" in hand:
        h.forehand = _player(i, "forehand", hand["forehand"], players, errors)
        if game.forehand_only and h.forehand is not None and h.declarer is not None \
                and h.forehand != h.declarer:
            errors.add(i, "forehand", "sechserdreier_not_forehand",
                       "only the Vorhand can play a Sechserdreier (\"Muss von der Vorhand "
                       "sofort lizitiert werden\")")
    conceded = hand.get("conceded", False)
    if not isinstance(conceded, bool):
        errors.add(i, "conceded", "not_a_boolean", "conceded must be true or false")
        conceded = False
    if conceded:
        if game.family != RUFER or game.code == "solorufer":
            errors.add(i, "conceded", "conceded_not_allowed",
                       "only a Rufer, Pagatrufer, Uhurufer, Kakadurufer or Quapilrufer whose "
                       "called king lay in the talon can be given up ('schleifen')")
        elif "partner" in hand and hand["partner"] is not None:
            errors.add(i, "conceded", "conceded_not_allowed",
                       "a declarer can give up ('schleifen') only when the called king lay in "
                       "the talon (partner null)")
        if h.renoncers:
            errors.add(i, "conceded", "conceded_with_renons",
                       "a conceded hand is not played, so it has no renons")
    h.conceded = conceded
    renonce = bool(h.renoncers)
    h.premiums = _parse_premiums(i, hand, h, players, errors, renonce)
    _parse_result(i, hand, h, errors, renonce, keeps_game)
    h.contras = read_contras(i, hand, h, players, errors)
    check_contra_chains(i, h, errors)


def _parse_premiums(i: int, hand: dict[str, Any], h: Hand, players: list[str],
                    errors: ErrorCollector, renonce: bool) -> list[Premium]:
    allowed = PREMIUMS_BY_FAMILY[h.game.family]
    out: list[Premium] = []
    seen: set[str] = set()
    for k, f, ann in items(i, hand, "announcements", _ANNOUNCEMENT_FIELDS, errors):
        name = ann.get("name")
        ok = True
        if not isinstance(name, str) or name not in PREMIUM_NAMES:
            errors.add(i, f"{f}.name", "unknown_announcement",
                       f"unknown premium {name!r} (premiums: {', '.join(PREMIUM_NAMES)})")
            ok = False
        elif name not in allowed:
            errors.add(i, f"{f}.name", "announcement_not_allowed",
                       f"{PREMIUM_NAMES[name]} cannot be played in {h.game.name}",
                       announcement=name, game=h.game.code)
            ok = False
        elif name in seen:
            errors.add(i, f"{f}.name", "duplicate_announcement",
                       f"{PREMIUM_NAMES[name]} is listed twice")
            ok = False
        by = _player(i, f"{f}.by", ann.get("by"), players, errors)
        announced, achieved, flags_ok = announcement_flags(i, f, ann, errors)
        ok = ok and flags_ok
        if achieved is None and not h.conceded and not (renonce and announced is True):
            errors.add(i, f"{f}.achieved", "missing",
                       "achieved is required (it may be left out for announced premiums of a "
                       "hand ended by renons)")
            ok = False
        if not ok or by is None:
            continue
        seen.add(name)
        if name == "koenig_ultimo" and h.declarer is not None and by != h.declarer \
                and by != hand.get("partner"):
            # "nur dann ansagen, wenn er die jeweilige Karte im Blatt hat": the called king is
            # held by the partner (or by the declarer when it lay in the talon)
            errors.add(i, f"{f}.by", "announcement_by_wrong_side",
                       "König ultimo is played with the called king, held by the declarer's "
                       "side")
            continue
        if not announced and achieved is False and name in CANNOT_FAIL_SILENTLY:
            errors.add(i, f"{f}.achieved", "silent_premium_cannot_fail",
                       f"a silent {PREMIUM_NAMES[name]} is only written when it was made; "
                       "leave it out")
            continue
        if renonce and not announced and by in h.renoncers:
            errors.add(i, f"{f}.by", "claim_by_renoncer",
                       "in a hand ended by renons a silent premium is a claim of a player who "
                       "lost it through the renons, not of the renoncing player")
            continue
        if renonce and not announced and achieved is not True:
            errors.add(i, f"{f}.achieved", "claim_not_achieved",
                       "in a hand ended by renons list a silent premium only when its loss is "
                       "claimed (achieved true)")
            continue
        out.append(Premium(k, name, by, announced, achieved))
    codes = {p.code: p for p in out}
    valat = codes.get("valat")
    if valat is not None and valat.announced:
        for p in out:
            if p.code in ("trull", "vier_koenige") and p.announced:
                errors.add(i, f"announcements[{p.index}].name", "announcement_not_allowed",
                           f"\"Im angesagten Valat kann man Trull oder 4 Könige nicht "
                           f"ansagen\": {PREMIUM_NAMES[p.code]} cannot be announced with Valat")
    if h.game.vogerl is not None and not h.conceded:
        named = codes.get(h.game.vogerl)
        if named is None or not named.announced or named.by != h.declarer:
            errors.add(i, "announcements", "named_vogerl_missing",
                       f"a {h.game.name} names its Vogerl when it is bid: list "
                       f"{{name: {h.game.vogerl}, by: the declarer, announced: true}}",
                       vogerl=h.game.vogerl)
    if h.conceded:
        for p in out:
            if p.code != h.game.vogerl:
                errors.add(i, f"announcements[{p.index}]", "announcement_not_allowed",
                           "a conceded ('geschleift') hand is not played: no premiums")
    return out


def _parse_result(i: int, hand: dict[str, Any], h: Hand, errors: ErrorCollector,
                  renonce: bool, keeps_game: bool) -> None:
    game = h.game
    won = hand.get("won")
    if won is not None and not isinstance(won, bool):
        errors.add(i, "won", "not_a_boolean", "won must be true or false")
        return
    points = hand.get("points")
    if "points" in hand:
        if game.family == NEGATIV:
            errors.add(i, "points", "field_not_allowed",
                       f"{game.name} is decided by tricks: give won, not points")
            return
        if not _is_int(points) or not 0 <= points <= 70:
            errors.add(i, "points", "points_out_of_range",
                       f"points must be a whole number between 0 and 70, got {points!r}")
            return
    if h.conceded:
        if won is True:
            errors.add(i, "won", "conceded_and_won", "a conceded hand is lost")
        h.won = False
        return
    # an announced Valat decides the hand, unless it failed and option lost_valat_keeps_game
    # scores the game beside it: then won is needed
    announced_valat = any(p.code == "valat" and p.announced
                          and (p.achieved is not False or not keeps_game)
                          for p in h.premiums)
    if points is not None:
        if won is None and points == 35:
            errors.add(i, "won", "missing",
                       "with 35 points the Blatt decide (35 and 2 Blatt win): give won")
            return
        derived = points > 35
        if won is not None and points != 35 and won != derived:
            errors.add(i, "won", "won_contradicts_points",
                       f"{points} points {'win' if derived else 'lose'} a positive game "
                       "(35 points and 2 Blatt are needed)")
            return
        if won is None:
            won = derived
    if won is None and not renonce and not announced_valat:
        errors.add(i, "won", "missing", f"{game.name} needs won (true/false)")
        return
    h.won = won
    h.points = points


