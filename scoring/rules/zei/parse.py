"""Reading a hand of Lada Zei's rules (seed 003): every field checked against the contract,
the game and the table form, every problem reported with its hand and field; the result is
a `Hand` the checks and the scorer can trust."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.errors import ErrorCollector
from scoring.rules.base import Card
from scoring.rules.checks import (
    ReadAnnouncement,
    announcement_flags,
    game_of,
    items,
    known_fields,
)
from scoring.rules.checks import is_int as _is_int
from scoring.rules.checks import player as _player
from scoring.rules.checks import player_map as _player_map
from scoring.rules.zei.tables import (
    ANN_BY_FAMILY,
    ANNOUNCEMENT_NAMES,
    ANNOUNCEMENT_VALUES,
    CONTRA_NAMES,
    FOUR_ONLY,
    GAME_BY_CODE,
    HALF,
    KLOP,
    OPT_SOLO_IN_THREE,
    PENALTY_KINDS,
    SOLO,
    SOLO_WITH_TALON,
    TALON,
    TRICKS_OF_MODE,
    GameRule,
)

_HAND_FIELDS = {"game", "declarer", "partner", "points", "won", "points_by_player",
                "tricks_by_player", "announcements", "contras", "penalties"}
_ANNOUNCEMENT_FIELDS = {"name", "by", "announced", "achieved"}
_CONTRA_FIELDS = {"on", "by", "level"}
_PENALTY_FIELDS = {"kind", "player"}


Ann = ReadAnnouncement


@dataclass
class Hand:
    index: int
    game: GameRule
    declarer: str | None = None
    partner: str | None = None
    points: int | None = None
    won: bool | None = None
    points_by_player: dict[str, int] = field(default_factory=dict)
    announcements: list[Ann] = field(default_factory=list)
    contra_level: int = 0
    renoncers: list[str] = field(default_factory=list)
    mond: list[str] = field(default_factory=list)


def parse_hand(i: int, hand: dict[str, Any], card: Card, errors: ErrorCollector) -> Hand | None:
    mode, players, options = card.mode, card.players, card.options
    before = len(errors)
    known_fields(i, hand, _HAND_FIELDS, card.ruleset.code, errors)
    game = game_of(i, hand, GAME_BY_CODE, errors)
    if game is None:
        return None
    if mode == "three" and game.code in SOLO_WITH_TALON and not options[OPT_SOLO_IN_THREE]:
        errors.add(i, "game", "game_not_in_mode",
                   f"{game.name} is not played by three (option {OPT_SOLO_IN_THREE})")
    h = Hand(index=i, game=game)
    _parse_penalties(i, hand, h, players, errors)
    if game.family == KLOP:
        _parse_klop(i, hand, h, mode, players, errors)
    else:
        _parse_declared(i, hand, h, mode, players, errors)
    return h if len(errors) == before else None


def _parse_penalties(i: int, hand: dict[str, Any], h: Hand, players: list[str],
                     errors: ErrorCollector) -> None:
    for _k, f, pen in items(i, hand, "penalties", _PENALTY_FIELDS, errors):
        kind = pen.get("kind")
        player = _player(i, f"{f}.player", pen.get("player"), players, errors)
        if kind not in PENALTY_KINDS:
            errors.add(i, f"{f}.kind", "invalid_penalty",
                       f"penalty kind must be 'renons' or 'mond', got {kind!r}")
            continue
        if player is None:
            continue
        target = h.renoncers if kind == "renons" else h.mond
        if player in target:
            errors.add(i, f"{f}.player", "duplicate_penalty",
                       f"{player} already has a {kind} penalty in this hand")
        elif kind == "mond" and h.mond:
            errors.add(i, f"{f}.player", "duplicate_penalty",
                       "there is only one mond: it can be caught once per hand")
        else:
            target.append(player)


def _parse_klop(i: int, hand: dict[str, Any], h: Hand, mode: str, players: list[str],
                errors: ErrorCollector) -> None:
    for key in ("declarer", "partner", "points", "won"):
        if key in hand and not (key == "partner" and hand[key] is None):
            errors.add(i, key, "field_not_allowed",
                       f"in klop everyone plays for himself: no {key}")
    if hand.get("announcements", []) != []:
        errors.add(i, "announcements", "announcement_not_allowed", "klop has no announcements")
    if hand.get("contras", []) != []:
        errors.add(i, "contras", "contra_not_allowed",
                   "klop cannot be contra'd: the seed's kontra is the opponents' answer to a "
                   "declarer")
    if "points_by_player" not in hand:
        if not h.renoncers:
            errors.add(i, "points_by_player", "missing", "klop needs points_by_player")
        return
    pbp = _player_map(i, "points_by_player", hand["points_by_player"], players, errors)
    tricks = None
    if "tricks_by_player" in hand:
        tv = hand["tricks_by_player"]
        if not isinstance(tv, dict):
            errors.add(i, "tricks_by_player", "not_an_object",
                       "tricks_by_player must be an object {player: number}")
        else:
            ok = True
            for p in tv:
                if p not in players:
                    errors.add(i, f"tricks_by_player.{p}", "not_a_player",
                               f"{p!r} is not a player of this card")
                    ok = False
            for p in players:
                if p not in tv or not _is_int(tv[p]) or tv[p] < 0:
                    errors.add(i, f"tricks_by_player.{p}", "out_of_range",
                               f"tricks of {p} must be a whole number >= 0")
                    ok = False
            if ok:
                tricks = dict(tv)
                deal = TRICKS_OF_MODE[mode]
                if sum(tricks.values()) != deal:
                    errors.add(i, "tricks_by_player", "tricks_do_not_add_up",
                               f"tricks must add up to {deal}, got {sum(tricks.values())}")
    if pbp is None:
        return
    total = sum(pbp.values())
    if not 69 <= total <= 72:
        errors.add(i, "points_by_player", "klop_points_do_not_add_up",
                   f"klop points must add up to 70 (69 to 72 with the rounding of the last "
                   f"cards of each pile), got {total}", total=total)
        return
    if tricks is not None:
        for p in players:
            if (tricks[p] == 0) != (pbp[p] == 0):
                errors.add(i, f"tricks_by_player.{p}", "tricks_contradict_points",
                           f"{p} has {tricks[p]} tricks and {pbp[p]} points; a player has no "
                           "points exactly when he has no trick")
    h.points_by_player = pbp


def _parse_declared(i: int, hand: dict[str, Any], h: Hand, mode: str, players: list[str],
                    errors: ErrorCollector) -> None:
    game = h.game
    for key in ("points_by_player", "tricks_by_player"):
        if key in hand:
            errors.add(i, key, "field_not_allowed", f"{key} is only used in klop")
    if "declarer" not in hand:
        errors.add(i, "declarer", "missing", f"{game.name} needs a declarer")
    else:
        h.declarer = _player(i, "declarer", hand["declarer"], players, errors,
                             "declarer_not_a_player")
    if mode == "four" and game.family == TALON:
        if "partner" not in hand:
            errors.add(i, "partner", "missing",
                       f"{game.name} by four calls a king: give partner (null when the "
                       "declarer plays alone)")
        elif hand["partner"] is not None:
            h.partner = _player(i, "partner", hand["partner"], players, errors)
            if h.partner is not None and h.partner == h.declarer:
                errors.add(i, "partner", "partner_is_declarer",
                           "a declarer who called his own king plays alone: partner null")
    elif hand.get("partner") is not None:
        errors.add(i, "partner", "partner_not_allowed",
                   f"{game.name} has no partner"
                   + (" (by three nobody calls a king)" if mode == "three" else ""))
    renons = bool(h.renoncers)
    if game.family in (TALON, SOLO):
        if "won" in hand:
            errors.add(i, "won", "field_not_allowed",
                       f"{game.name} is decided by points: give points, not won")
        if "points" not in hand:
            if not renons:
                errors.add(i, "points", "missing", f"{game.name} needs the declarer's points")
        elif not _is_int(hand["points"]) or not 0 <= hand["points"] <= 70:
            errors.add(i, "points", "points_out_of_range",
                       f"points must be a whole number between 0 and 70, got "
                       f"{hand['points']!r}")
        else:
            h.points = hand["points"]
            h.won = h.points > HALF  # "Zmago prinaša seštevek ... ki je višji od 35 pik"
    else:
        if "points" in hand:
            errors.add(i, "points", "field_not_allowed",
                       f"{game.name} is decided by tricks: give won, not points")
        if "won" not in hand:
            if not renons:
                errors.add(i, "won", "missing", f"{game.name} needs won (true/false)")
        elif not isinstance(hand["won"], bool):
            errors.add(i, "won", "not_a_boolean", "won must be true or false")
        else:
            h.won = hand["won"]
    _parse_announcements(i, hand, h, mode, players, errors, renons)
    _parse_contras(i, hand, h, players, errors)


def decl_side(h: Hand, player: str) -> bool:
    return player == h.declarer or (h.partner is not None and player == h.partner)


def _parse_announcements(i: int, hand: dict[str, Any], h: Hand, mode: str,
                         players: list[str], errors: ErrorCollector, renons: bool) -> None:
    allowed = ANN_BY_FAMILY[h.game.family]
    seen: dict[str, Ann] = {}
    for k, f, ann in items(i, hand, "announcements", _ANNOUNCEMENT_FIELDS, errors):
        name = ann.get("name")
        ok = True
        if not isinstance(name, str) or name not in ANNOUNCEMENT_VALUES:
            errors.add(i, f"{f}.name", "unknown_announcement",
                       f"unknown announcement {name!r} (known: {', '.join(ANNOUNCEMENT_VALUES)})")
            continue
        if name not in allowed:
            errors.add(i, f"{f}.name", "announcement_not_allowed",
                       f"{ANNOUNCEMENT_NAMES[name]} cannot be announced in {h.game.name}")
            ok = False
        elif name in FOUR_ONLY and mode != "four":
            errors.add(i, f"{f}.name", "announcement_not_in_mode",
                       f"{ANNOUNCEMENT_NAMES[name]} belongs to tarok for four")
            ok = False
        elif name in seen:
            errors.add(i, f"{f}.name", "duplicate_announcement", f"{name} is listed twice")
            ok = False
        by = _player(i, f"{f}.by", ann.get("by"), players, errors)
        announced, achieved, flags_ok = announcement_flags(i, f, ann, errors)
        ok = ok and flags_ok
        if achieved is None and name != "solo" and not renons:
            errors.add(i, f"{f}.achieved", "missing", "achieved is required")
            ok = False
        if not ok or by is None:
            continue
        if name == "solo":
            if not announced:
                errors.add(i, f"{f}.announced", "solo_is_announced",
                           "solo is a bonus for announcing it; there is no silent solo")
                continue
            if by != h.declarer:
                errors.add(i, f"{f}.by", "announcement_by_wrong_player",
                           "solo is announced by the declarer")
                continue
            if h.partner is not None:
                errors.add(i, f"{f}.name", "solo_with_partner",
                           "solo means playing alone against three: partner must be null")
                continue
            if achieved is not None and h.won is not None and achieved != h.won:
                errors.add(i, f"{f}.achieved", "solo_follows_game",
                           "solo is won or lost with the game")
                continue
        elif not decl_side(h, by):
            errors.add(i, f"{f}.by", "announcement_by_defender",
                       "Lada Zei's rules score announcements only for the side that plays")
            continue
        elif announced and by != h.declarer and name != "kralj":
            errors.add(i, f"{f}.by", "announcement_by_wrong_player",
                       "the partner may announce only the kralj (\"klicani partner ... tega "
                       "tudi napove\")")
            continue
        if not announced and achieved is False and name != "kralj":
            errors.add(i, f"{f}.achieved", "silent_not_achieved",
                       f"a silent {ANNOUNCEMENT_NAMES[name]} that was not made scores "
                       "nothing in Lada Zei's rules (only the lost kralj does): leave it out")
            continue
        seen[name] = Ann(k, name, by, announced, achieved)
    if "trulapagat" in seen and ("trula" in seen or "pagat_ultimo" in seen):
        errors.add(i, f"announcements[{seen['trulapagat'].index}].name",
                   "announcement_conflict",
                   "trulapagat is trula and pagat ultimo together: list it alone")
    h.announcements = sorted(seen.values(), key=lambda a: a.index)


def _parse_contras(i: int, hand: dict[str, Any], h: Hand, players: list[str],
                   errors: ErrorCollector) -> None:
    expected = 1
    for _k, f, c in items(i, hand, "contras", _CONTRA_FIELDS, errors):
        on_game = c.get("on") == "game"
        if not on_game:
            errors.add(i, f"{f}.on", "contra_not_allowed",
                       f"Lada Zei's rules contra the game only (\"podvajanja vrednosti igre\"), got "
                       f"{c.get('on')!r}")
        by = _player(i, f"{f}.by", c.get("by"), players, errors)
        if not on_game:
            continue
        level = c.get("level")
        if not _is_int(level) or level not in (1, 2, 3, 4):
            errors.add(i, f"{f}.level", "invalid_contra_level",
                       f"level must be 1 (kontra), 2 (re) or 3 (sub), got {level!r}")
            continue
        if level == 4:
            errors.add(i, f"{f}.level", "contra_level_not_allowed",
                       "Lada Zei's rules know kontra, re and sub only")
            continue
        if level != expected:
            errors.add(i, f"{f}.level",
                       "too_many_contras" if level < expected else "contra_out_of_order",
                       f"the calls go kontra, re, sub once each; expected "
                       f"{CONTRA_NAMES.get(expected, 'nothing more')}, got {CONTRA_NAMES[level]}")
            continue
        expected += 1
        if by is None or h.declarer is None:
            continue
        if level == 2 and by != h.declarer:
            errors.add(i, f"{f}.by", "contra_by_wrong_side",
                       "re is the declarer's answer (\"Licitator lahko odvrne z Re\")")
        elif level != 2 and decl_side(h, by):
            errors.add(i, f"{f}.by", "contra_by_wrong_side",
                       f"{CONTRA_NAMES[level]} comes from an opponent of the declarer")
    h.contra_level = expected - 1
