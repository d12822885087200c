"""Reading a hand of the GP Vysočiny rules (seed 004): every field checked against the
contract and the game (povinnost with its partner and the optional called tarok, preferanc,
sólo, Varšava), every problem reported with its hand and field; the result is a
`ParsedHand` the checks and the scorer can trust."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.errors import ErrorCollector
from scoring.rules.base import Card, Ruleset
from scoring.rules.checks import is_int as _is_int
from scoring.rules.checks import items
from scoring.rules.gp_vysociny.tables import (
    CALLED_TAROKS,
    CONTRA_NAMES,
    HELD_HLASKY,
    PARTNER_GAMES,
    PENALTY_MISDEAL,
    PENALTY_RENONS,
    PENALTY_RENONS_PLAY_CONTINUES,
    PLAYED_HLASKY,
    TOTAL_EYES,
    TRICKS_IN_DEAL,
    VARSAVA,
)

HAND_FIELDS = (
    "game", "declarer", "partner", "called", "forehand", "points", "points_by_player",
    "tricks_by_player", "announcements", "contras", "penalties",
)
# Fields of the contract that this ruleset has no use for: refused by name, not ignored.
UNUSED_CONTRACT_FIELDS = ("resting", "won")
_ANNOUNCEMENT_FIELDS = ("name", "by", "announced", "achieved")
_CONTRA_FIELDS = ("on", "by", "level")
_PENALTY_FIELDS = ("kind", "player")


@dataclass
class ParsedAnnouncement:
    index: int  # in the hand's announcements
    name: str
    by: str
    announced: bool
    achieved: bool | None


@dataclass
class ParsedHand:
    game: str
    declarer: str | None = None
    partner: str | None = None
    called: str | None = None
    forehand: str | None = None
    points: int | None = None
    points_by_player: dict[str, int] | None = None
    tricks_by_player: dict[str, int] | None = None
    announcements: list[ParsedAnnouncement] = field(default_factory=list)
    contra_level: int = 0
    penalties: list[tuple[str, str]] = field(default_factory=list)

    def penalty_players(self, kind: str) -> list[str]:
        return [p for k, p in self.penalties if k == kind]

    @property
    def ends_by(self) -> str | None:
        if self.penalty_players(PENALTY_MISDEAL):
            return PENALTY_MISDEAL
        if self.penalty_players(PENALTY_RENONS):
            return PENALTY_RENONS
        return None


def parse_hand(i: int, hand: dict[str, Any], card: Card, errors: ErrorCollector
               ) -> ParsedHand | None:
    rs, players = card.ruleset, card.players
    before = len(errors)
    for key in hand:
        if key in UNUSED_CONTRACT_FIELDS:
            errors.add(i, key, "field_not_allowed",
                       f"{key} is not used in {rs.code}", name=key)
        elif key not in HAND_FIELDS:
            errors.add(i, key, "unknown_field", f"unknown field {key!r}", name=key)

    game = hand.get("game")
    if game is None:
        errors.add(i, "game", "missing", "game is required")
    elif not isinstance(game, str) or rs.game(game) is None:
        known = ", ".join(g.code for g in rs.games)
        errors.add(i, "game", "unknown_game",
                   f"unknown game {game!r} (games: {known})", game=str(game))
        game = None
    out = ParsedHand(game=game or "")

    out.penalties = _parse_penalties(rs, i, hand, game, players, errors)
    ends_by = out.ends_by
    out.forehand = _player(i, hand, "forehand", players, errors, required=(game == VARSAVA))

    if game == VARSAVA:
        for key in ("declarer", "partner", "called", "points"):
            if key in hand:
                errors.add(i, key, "field_not_allowed",
                           f"{key} is not used in Varšava: every player plays for "
                           f"himself", name=key)
        out.points_by_player, out.tricks_by_player = _parse_varsava_outcome(
            i, hand, players, ends_by, errors)
        for key in ("announcements", "contras"):
            if key in hand and not isinstance(hand[key], list):
                errors.add(i, key, "not_a_list", f"{key} must be a list")
            elif hand.get(key):
                errors.add(i, key, "announcement_not_allowed" if key == "announcements"
                           else "contra_not_allowed",
                           f"no {key} in Varšava: it is paid by its own scale")
    elif game is not None:
        _parse_declarer_side(i, hand, game, players, out, errors)
        for key in ("points_by_player", "tricks_by_player"):
            if key in hand:
                errors.add(i, key, "field_not_allowed",
                           f"{key} is only used in Varšava", name=key)
        out.points = _parse_points(i, hand, ends_by, errors)
        out.announcements = _parse_announcements(rs, i, hand, game, players, ends_by, errors)
        out.contra_level = _parse_contras(i, hand, out, players, errors)
    else:
        # The game is missing or unknown: still check what does not depend on it, so
        # that the table sees every problem of the hand at once.
        if "declarer" in hand:
            _player(i, hand, "declarer", players, errors, required=False)
        _parse_announcements(rs, i, hand, "", players, ends_by, errors)
        _parse_contras(i, hand, out, players, errors)
    return out if len(errors) == before else None


def _player(i: int, hand: dict[str, Any], key: str, players: list[str],
            errors: ErrorCollector, required: bool) -> str | None:
    if key not in hand or hand[key] is None:
        if required:
            errors.add(i, key, "missing", f"{key} is required in this game")
        elif key in hand:
            errors.add(i, key, f"{key}_not_a_player", f"{key} must be a player, got null")
        return None
    value = hand[key]
    if not isinstance(value, str) or value not in players:
        errors.add(i, key, f"{key}_not_a_player",
                   f"{key} {value!r} is not a player of this scorecard", value=str(value))
        return None
    return value


def _parse_penalties(rs: Ruleset, i: int, hand: dict[str, Any], game: str | None,
                     players: list[str], errors: ErrorCollector) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for _k, where, item in items(i, hand, "penalties", _PENALTY_FIELDS, errors):
        kind = item.get("kind")
        player = item.get("player")
        ok = True
        if kind not in rs.penalty_kinds:
            errors.add(i, f"{where}.kind", "invalid_penalty",
                       f"penalty kind must be one of {list(rs.penalty_kinds)}, "
                       f"got {kind!r}", kind=str(kind))
            ok = False
        elif game == VARSAVA and kind == PENALTY_RENONS_PLAY_CONTINUES:
            errors.add(i, f"{where}.kind", "penalty_not_allowed_in_game",
                       "in Varšava every renonc ends the game: record it as 'renons'")
            ok = False
        if not isinstance(player, str) or player not in players:
            errors.add(i, f"{where}.player", "penalty_player_not_a_player",
                       f"penalty player {player!r} is not a player of this scorecard")
            ok = False
        if ok:
            if (kind, player) in out:
                errors.add(i, where, "duplicate_penalty",
                           f"{kind} of {player} is listed twice; a player pays a "
                           f"fine once per hand", kind=kind, player=player)
            else:
                out.append((kind, player))
    kinds = {k for k, _ in out}
    if PENALTY_MISDEAL in kinds and PENALTY_RENONS in kinds:
        errors.add(i, "penalties", "conflicting_penalties",
                   "a misdealt hand is dealt again and never played, so it cannot also "
                   "end by a renonc")
    return out


def _parse_declarer_side(i: int, hand: dict[str, Any], game: str,
                         players: list[str], out: ParsedHand,
                         errors: ErrorCollector) -> None:
    out.declarer = _player(i, hand, "declarer", players, errors, required=True)
    if game in PARTNER_GAMES:
        if "partner" not in hand:
            errors.add(i, "partner", "missing",
                       "partner is required in a povinnost: the holder of the called "
                       "tarok, or null when the declarer bought it and plays alone")
        elif hand["partner"] is not None:
            out.partner = _player(i, hand, "partner", players, errors, required=False)
            if out.partner is not None and out.partner == out.declarer:
                errors.add(i, "partner", "partner_is_declarer",
                           "the partner cannot be the declarer; a declarer who bought "
                           "the called tarok plays alone (partner null)")
        # optional: what is paid depends on the partner (or none), not on the called tarok
        called = hand.get("called")
        if called is not None and called not in CALLED_TAROKS:
            errors.add(i, "called", "invalid_called_tarok",
                       f"called must be one of {list(CALLED_TAROKS)}, got {called!r}",
                       called=str(called))
        else:
            out.called = called
        if game == "povinnost" and out.forehand is not None and out.declarer is not None \
                and out.declarer != out.forehand:
            errors.add(i, "declarer", "declarer_not_forehand",
                       "základní povinnost is the forehand's game: the declarer must be "
                       "the forehand")
    else:
        if hand.get("partner") is not None:
            errors.add(i, "partner", "partner_not_allowed",
                       f"{game} is one against three: no partner")
        if "called" in hand:
            errors.add(i, "called", "field_not_allowed",
                       "only a povinnost calls a tarok", name="called")


def _parse_points(i: int, hand: dict[str, Any], ends_by: str | None,
                  errors: ErrorCollector) -> int | None:
    if "points" not in hand:
        if ends_by is None:
            errors.add(i, "points", "missing",
                       "points (eyes of the declarer's side, 0..70) are required")
        return None
    if ends_by == PENALTY_MISDEAL:
        errors.add(i, "points", "not_allowed_after_misdeal",
                   "a misdealt hand is dealt again and never played: no points")
        return None
    points = hand["points"]
    if not _is_int(points):
        errors.add(i, "points", "not_an_integer",
                   f"points must be a whole number, got {points!r}")
        return None
    if not 0 <= points <= TOTAL_EYES:
        errors.add(i, "points", "points_out_of_range",
                   f"points must be between 0 and {TOTAL_EYES}, got {points}",
                   points=points)
        return None
    return points


def _parse_by_player(i: int, hand: dict[str, Any], key: str, players: list[str],
                     maximum: int, total: int, errors: ErrorCollector
                     ) -> dict[str, int] | None:
    raw = hand[key]
    if not isinstance(raw, dict):
        errors.add(i, key, "not_an_object", f"{key} must be an object {{player: number}}")
        return None
    ok = True
    for name in raw:
        if name not in players:
            errors.add(i, f"{key}.{name}", "not_a_player",
                       f"{name!r} in {key} is not a player of this scorecard")
            ok = False
    for p in players:
        if p not in raw:
            errors.add(i, f"{key}.{p}", "missing", f"{key} needs a number for {p}",
                       player=p)
            ok = False
        elif not _is_int(raw[p]) or not 0 <= raw[p] <= maximum:
            errors.add(i, f"{key}.{p}", "out_of_range",
                       f"{key} of {p} must be a whole number 0..{maximum}, got {raw[p]!r}",
                       player=p)
            ok = False
    if not ok:
        return None
    got = sum(raw[p] for p in players)
    if got != total:
        code = "points_do_not_add_up" if key == "points_by_player" else \
            "tricks_do_not_add_up"
        errors.add(i, key, code, f"{key} must add up to {total}, got {got}",
                   expected=total, got=got)
        return None
    return {p: raw[p] for p in players}


def _parse_varsava_outcome(i: int, hand: dict[str, Any], players: list[str],
                           ends_by: str | None, errors: ErrorCollector
                           ) -> tuple[dict[str, int] | None, dict[str, int] | None]:
    eyes = tricks = None
    for key, maximum, total in (("points_by_player", TOTAL_EYES, TOTAL_EYES),
                                ("tricks_by_player", TRICKS_IN_DEAL, TRICKS_IN_DEAL)):
        if key not in hand:
            if ends_by is None:
                errors.add(i, key, "missing",
                           f"Varšava needs {key}: the most eyes pays, and pays more "
                           f"to a player without a trick")
            continue
        if ends_by == PENALTY_MISDEAL:
            errors.add(i, key, "not_allowed_after_misdeal",
                       "a misdealt hand is dealt again and never played")
            continue
        parsed = _parse_by_player(i, hand, key, players, maximum, total, errors)
        if key == "points_by_player":
            eyes = parsed
        else:
            tricks = parsed
    if ends_by is None and eyes is not None and tricks is not None:
        for p in players:
            if tricks[p] == 0 and eyes[p] > 0:
                errors.add(i, f"points_by_player.{p}", "eyes_without_tricks",
                           f"{p} took no trick but is given {eyes[p]} eyes", player=p)
    return eyes, tricks


def _parse_announcements(rs: Ruleset, i: int, hand: dict[str, Any], game: str,
                         players: list[str], ends_by: str | None,
                         errors: ErrorCollector) -> list[ParsedAnnouncement]:
    out: list[ParsedAnnouncement] = []
    # "held" is a field of the contract this ruleset has no use for: refused by name
    for k, where, item in items(i, hand, "announcements", _ANNOUNCEMENT_FIELDS + ("held",),
                                errors):
        ok = True
        if "held" in item:
            errors.add(i, f"{where}.held", "field_not_allowed",
                       "held is not used in this ruleset: held hlášky are always "
                       "held from the start")
            ok = False
        name = item.get("name")
        if not isinstance(name, str):
            name = repr(name)  # an unknown name, and hashable for the lookups below
        if name not in HELD_HLASKY and name not in PLAYED_HLASKY:
            known = ", ".join(a.code for a in rs.announcements)
            errors.add(i, f"{where}.name", "unknown_announcement",
                       f"unknown hláška {name!r} (hlášky: {known})", name=str(name))
            ok = False
        by = item.get("by")
        if not isinstance(by, str) or by not in players:
            errors.add(i, f"{where}.by", "announcement_by_not_a_player",
                       f"{where}.by {by!r} is not a player of this scorecard")
            ok = False
        announced = item.get("announced")
        achieved = item.get("achieved")
        if announced is not None and not isinstance(announced, bool):
            errors.add(i, f"{where}.announced", "not_a_boolean",
                       "announced must be true or false")
            ok = False
        if achieved is not None and not isinstance(achieved, bool):
            errors.add(i, f"{where}.achieved", "not_a_boolean",
                       "achieved must be true or false")
            ok = False
        if name in HELD_HLASKY:
            if announced is False:
                errors.add(i, f"{where}.announced", "silent_not_allowed",
                           f"{name} cannot be silent: an unannounced hláška is a renonc")
                ok = False
            if achieved is False:
                errors.add(i, f"{where}.achieved", "held_announcement_cannot_fail",
                           f"{name} is held in the hand, it cannot fail; a wrongly "
                           f"announced hláška is a renonc (penalties)")
                ok = False
            announced, achieved = True, True
        elif name in PLAYED_HLASKY:
            if announced is None:
                errors.add(i, f"{where}.announced", "missing",
                           f"say whether {name} was announced (true) or silent (false)")
                ok = False
            if achieved is None and ends_by is None:
                errors.add(i, f"{where}.achieved", "missing",
                           f"say whether {name} was achieved")
                ok = False
        if not ok:
            continue
        for prev in out:
            if prev.name == name and (prev.by == by or name in PLAYED_HLASKY):
                errors.add(i, where, "duplicate_announcement",
                           f"{name} is listed twice", name=name)
                ok = False
                break
        if ok:
            out.append(ParsedAnnouncement(k, name, by, bool(announced), achieved))
    return out


def _parse_contras(i: int, hand: dict[str, Any], out: ParsedHand,
                   players: list[str], errors: ErrorCollector) -> int:
    raw = hand.get("contras")
    count = len(raw) if isinstance(raw, list) else 0
    if count > len(CONTRA_NAMES):
        errors.add(i, "contras", "too_many_contras",
                   "sup (level 3) is the highest: at most three contras", got=count)
    side = declarer_side(out)
    for k, where, item in items(i, hand, "contras", _CONTRA_FIELDS, errors):
        if item.get("on") != "game":
            errors.add(i, f"{where}.on", "contra_not_allowed",
                       f"only the game is fleked in these rules, got on={item.get('on')!r}")
        by = item.get("by")
        by_ok = isinstance(by, str) and by in players
        if not by_ok:
            errors.add(i, f"{where}.by", "contra_by_not_a_player",
                       f"{where}.by {by!r} is not a player of this scorecard")
        level = item.get("level")
        if not _is_int(level) or level not in CONTRA_NAMES:
            errors.add(i, f"{where}.level", "contra_level_not_allowed",
                       f"level must be 1 (flek), 2 (re) or 3 (sup), got {level!r}",
                       level=str(level))
            continue
        if level != k + 1:
            errors.add(i, f"{where}.level", "contra_out_of_order",
                       f"contras go flek, re, sup in turn: {where} must be level {k + 1}",
                       expected=k + 1, got=level)
        if by_ok and out.declarer is not None:
            wants_declarer_side = level % 2 == 0
            if (by in side) != wants_declarer_side:
                who = "the declarer's side" if wants_declarer_side else "an opponent"
                errors.add(i, f"{where}.by", "contra_by_wrong_side",
                           f"{CONTRA_NAMES[level]} is said by {who}", level=level)
    return min(count, len(CONTRA_NAMES))


def declarer_side(hand: ParsedHand) -> tuple[str, ...]:
    if hand.declarer is None:
        return ()
    if hand.partner is None:
        return (hand.declarer,)
    return (hand.declarer, hand.partner)
