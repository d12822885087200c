"""Slovenian tarok after Lada Zei's short rules (seed 003), for three and for four players.

Responsible for the ruleset `slovenski-tarok-zei`: validating every hand of a scorecard and
writing what each player scores: tri, dva, ena and their solo variants, solo brez, pikolo,
berač, odprti berač (game value plus the difference to 35, lost games with everything
announced in minus), the napovedi (trula, kralji, pagat ultimo, trulapagat, kralj, solo,
valat; silent ones at half), kontra/re/sub, klop (+10 for no trick, the 35-point rule), and
the radelci that klop leaves: personal ones, or the Styrian collective ones as an option.

Decisions and the seed clauses behind them: docs/rulesets/slovenski-tarok-zei.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.errors import ErrorCollector
from scoring.rules import register
from scoring.rules.base import Announcement, ContraLevel, Game, Option, Ruleset
from scoring.rules.checks import is_int as _is_int
from scoring.rules.checks import player as _player
from scoring.rules.checks import player_map as _player_map

SEED = "003_e9ec0a09b3c02de4.txt"

TALON, SOLO, PIKOLO, BERAC, KLOP = "talon", "solo", "pikolo", "berac", "klop"
BOTH = ("three", "four")


@dataclass(frozen=True)
class _GameRule:
    code: str
    name: str
    value: int
    family: str
    talon_cards: int


# "IGRE PO VREDNOSTI": tri 10 / solo tro 20 (3 cards), dva 20 / solo dva 30 (2), ena 30 /
# solo ena 40 (1), solo brez talona 50, pikolo 60, berač 70, odprti berač 80.
_GAME_RULES: tuple[_GameRule, ...] = (
    _GameRule("tri", "tri", 10, TALON, 3),
    _GameRule("dva", "dva", 20, TALON, 2),
    _GameRule("ena", "ena", 30, TALON, 1),
    _GameRule("solo_tri", "solo tri", 20, SOLO, 3),
    _GameRule("solo_dva", "solo dva", 30, SOLO, 2),
    _GameRule("solo_ena", "solo ena", 40, SOLO, 1),
    _GameRule("solo_brez", "solo brez talona", 50, SOLO, 0),
    _GameRule("pikolo", "pikolo", 60, PIKOLO, 0),
    _GameRule("berac", "berač", 70, BERAC, 0),
    _GameRule("odprti_berac", "odprti berač", 80, BERAC, 0),
    _GameRule("klop", "klop", 0, KLOP, 0),
)
_GAME_BY_CODE = {g.code: g for g in _GAME_RULES}
_SOLO_WITH_TALON = ("solo_tri", "solo_dva", "solo_ena")

# "VREDNOST NAPOVEDI": (silent, announced); kralj and solo from their paragraphs
ANNOUNCEMENT_VALUES: dict[str, tuple[int | None, int]] = {
    "trula": (10, 20),
    "kralji": (10, 20),
    "pagat_ultimo": (25, 50),
    "trulapagat": (35, 70),  # silent value: option trulapagat_silent_value
    "kralj": (10, 20),
    "solo": (None, 10),
    "valat": (250, 500),
}
ANNOUNCEMENT_NAMES = {
    "trula": "trula", "kralji": "kralji", "pagat_ultimo": "pagat ultimo",
    "trulapagat": "trulapagat", "kralj": "kralj", "solo": "solo", "valat": "valat",
}
_FOUR_ONLY = ("kralj", "solo")
_ANN_BY_FAMILY = {
    TALON: ("trula", "kralji", "pagat_ultimo", "trulapagat", "kralj", "solo", "valat"),
    SOLO: ("trula", "kralji", "pagat_ultimo", "trulapagat", "valat"),
    PIKOLO: (), BERAC: (), KLOP: (),
}
CONTRA_FACTORS = {1: 2, 2: 4, 3: 8}
CONTRA_NAMES = {1: "kontra", 2: "re", 3: "sub"}
MOND_PENALTY = 21  # "mu takoj ... pišejo 21 točk minusa"
KLOP_NO_TRICK_BONUS = 10  # "Kdor je ostal brez vzetka, si piše 10 pik v dobro."
KLOP_LIMIT = 35  # "več kot 35 pik ... si piše kar 35 pik minusa"
HALF = 35

_HAND_FIELDS = {"game", "declarer", "partner", "points", "won", "points_by_player",
                "tricks_by_player", "announcements", "contras", "penalties"}
_ANNOUNCEMENT_FIELDS = {"name", "by", "announced", "achieved"}
_CONTRA_FIELDS = {"on", "by", "level"}
_PENALTY_FIELDS = {"kind", "player"}

OPT_RADELCI = "radelci"
OPT_PARTNER_SCORES = "partner_scores"
OPT_RADELC_PARTNER = "radelc_for_partner"
OPT_LOST_ANNOUNCEMENTS = "lost_game_loses_announcements"
OPT_TRULAPAGAT_SILENT = "trulapagat_silent_value"
OPT_KLOP_OVER_35 = "klop_over_35"
OPT_CONTRA_DOUBLES = "contra_doubles"
OPT_SOLO_IN_THREE = "solo_games_in_three"


@dataclass
class _Ann:
    index: int
    code: str
    by: str
    announced: bool
    achieved: bool | None


@dataclass
class _Hand:
    index: int
    game: _GameRule
    declarer: str | None = None
    partner: str | None = None
    points: int | None = None
    won: bool | None = None
    points_by_player: dict[str, int] = field(default_factory=dict)
    announcements: list[_Ann] = field(default_factory=list)
    contra_level: int = 0
    renoncers: list[str] = field(default_factory=list)
    mond: list[str] = field(default_factory=list)


class SlovenskiTarokZei(Ruleset):
    code = "slovenski-tarok-zei"
    title = "Slovenski tarok, kratka pravila (Lada Zei)"
    source = f"{SEED}: Lada Zei, Kratka pravila za igranje taroka"
    unit = "points"
    modes = {"three": (3, 3), "four": (4, 4)}
    default_mode = None
    games = tuple(
        Game(g.code, g.name, g.value, BOTH,
             decided_by={TALON: "points", SOLO: "points", PIKOLO: "tricks", BERAC: "tricks",
                         KLOP: "individual"}[g.family],
             extra={"family": g.family, "talon_cards": g.talon_cards,
                    "calls_king_in_four": g.family == TALON,
                    "announcements_allowed": list(_ANN_BY_FAMILY[g.family])})
        for g in _GAME_RULES
    )
    announcements = tuple(
        Announcement(code, ANNOUNCEMENT_NAMES[code], ann, silent,
                     ("four",) if code in _FOUR_ONLY else BOTH)
        for code, (silent, ann) in ANNOUNCEMENT_VALUES.items()
    )
    contra_levels = tuple(ContraLevel(lv, CONTRA_NAMES[lv], f) for lv, f in CONTRA_FACTORS.items())
    options = (
        Option(OPT_RADELCI, "personal", ("personal", "collective"),
               "personal: after a klop every player gets a radelc that doubles his next game "
               "and is struck off when he wins; collective (the Styrian way): as many radelci "
               "as players go on top of the sheet, every game counts double while any is "
               "left, and each won game strikes one off, whoever played it.",
               f"{SEED}, KLOPECKI: \"Vsakemu igralcu se po odigranem klopu ... piše radelc\" / "
               "\"Štajerci so si izmisli kolektivne radelce.\""),
        Option(OPT_PARTNER_SCORES, True, (True, False),
               "Four players: the called partner writes the same result as the declarer. "
               "The seed scores 'the player' and calls the partner his co-player "
               "(soigralec) whose tricks count with his.",
               f"{SEED}, TAROK ZA ŠTIRI: \"S tem si je izbral soigralca\""),
        Option(OPT_RADELC_PARTNER, True, (True, False),
               "Personal radelci: a partner's own radelc doubles (and is struck off by) a "
               "game he wins as partner, since it is his next won game too.",
               f"{SEED}: \"Radelc zagotavlja podvojeno število pik za naslednjo dobljeno "
               "igro.\""),
        Option(OPT_LOST_ANNOUNCEMENTS, True, (True, False),
               "A lost game writes everything the player announced in minus, made or not "
               "(the seed's example of 32 points); false scores each announcement on its own.",
               f"{SEED}, IZGUBA: \"Če igralec ne uresniči napovedi, se mu vse kar je "
               "napovedal, šteje v minus.\""),
        Option(OPT_TRULAPAGAT_SILENT, 35, (35, 50),
               "Silent trulapagat: 35 from the text (half of 70) or 50 from the table.",
               f"{SEED}, NAPOVEDI: \"tiha izvedba pol manj, torej 35 pik\" / VREDNOST "
               "NAPOVEDI: \"trulapagat 50 70\""),
        Option(OPT_KLOP_OVER_35, "instead", ("instead", "added"),
               "Klop, a player with more than 35 points: instead: he writes -35 in place of "
               "his points; added: he writes his points and 35 more in minus.",
               f"{SEED}, KLOPECKI: \"si zato za kazen piše kar 35 pik minusa\""),
        Option(OPT_CONTRA_DOUBLES, "game", ("game", "whole_hand"),
               "What kontra, re and sub multiply: game: the game's value with the "
               "difference (and the solo bonus, a valat in place of the game); whole_hand: "
               "the whole result with the announcements.",
               f"{SEED}, NASPROTOVANJE: \"Kontra je prva stopnja nasprotovanje, oz. "
               "podvajanja vrednosti igre.\""),
        Option(OPT_SOLO_IN_THREE, True, (True, False),
               "Whether solo tri, solo dva and solo ena may be played by three; the seed says "
               "the table of games is the same for three and four.",
               f"{SEED}, TAROK ZA TRI: \"(Glej razpredelnico iger oz. licitacijo in "
               "napovedi, ki so enake pri igri za tri in štiri.)\""),
    )
    penalty_kinds = ("renons", "mond")
    docs = "docs/rulesets/slovenski-tarok-zei.md"

    def hand_schema(self) -> dict[str, Any]:
        int70 = {"type": "integer", "minimum": 0, "maximum": 70}
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"Hand of {self.code}",
            "type": "object",
            "required": ["game"],
            "additionalProperties": False,
            "properties": {
                "game": {"enum": [g.code for g in _GAME_RULES]},
                "declarer": {"type": "string", "description": "every game but klop"},
                "partner": {"type": ["string", "null"],
                            "description": "four players, tri/dva/ena: holder of the called "
                                           "king; null when the declarer plays alone"},
                "points": dict(int70, description="tri ... solo brez: the declarer side's "
                                                  "points"),
                "won": {"type": "boolean", "description": "pikolo, berač, odprti berač"},
                "points_by_player": {"type": "object", "additionalProperties": int70,
                                     "description": "klop: sums to 69..72"},
                "tricks_by_player": {"type": "object",
                                     "additionalProperties": {"type": "integer",
                                                              "minimum": 0}},
                "announcements": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["name", "by", "announced"],
                        "additionalProperties": False,
                        "properties": {
                            "name": {"enum": list(ANNOUNCEMENT_VALUES)},
                            "by": {"type": "string"},
                            "announced": {"type": "boolean"},
                            "achieved": {"type": "boolean"},
                        },
                    },
                },
                "contras": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["on", "by", "level"],
                        "additionalProperties": False,
                        "properties": {
                            "on": {"enum": ["game"]},
                            "by": {"type": "string"},
                            "level": {"enum": [1, 2, 3]},
                        },
                    },
                },
                "penalties": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["kind", "player"],
                        "additionalProperties": False,
                        "properties": {"kind": {"enum": list(self.penalty_kinds)},
                                       "player": {"type": "string"}},
                    },
                },
            },
        }

    def score(
        self, mode: str, players: list[str], hands: list[dict[str, Any]],
        options: dict[str, Any], errors: ErrorCollector,
    ) -> list[dict[str, Any]] | None:
        parsed = [_parse_hand(i, hand, mode, players, options, errors)
                  for i, hand in enumerate(hands)]
        if errors:
            return None
        personal = {p: 0 for p in players}
        collective = 0
        results = []
        for h in parsed:
            assert h is not None
            result, personal, collective = _score_hand(h, players, options, personal,
                                                       collective)
            results.append(result)
        return results


# ============================================================================================
# validation
# ============================================================================================


def _parse_hand(i: int, hand: dict[str, Any], mode: str, players: list[str],
                options: dict[str, Any], errors: ErrorCollector) -> _Hand | None:
    before = len(errors)
    for key in hand:
        if key not in _HAND_FIELDS:
            errors.add(i, str(key), "unknown_field",
                       f"field {key!r} is not used by slovenski-tarok-zei")
    code = hand.get("game")
    game = _GAME_BY_CODE.get(code) if isinstance(code, str) else None
    if game is None:
        errors.add(i, "game", "unknown_game",
                   f"unknown game {code!r} (games: {', '.join(_GAME_BY_CODE)})")
        return None
    if mode == "three" and code in _SOLO_WITH_TALON and not options[OPT_SOLO_IN_THREE]:
        errors.add(i, "game", "game_not_in_mode",
                   f"{game.name} is not played by three (option {OPT_SOLO_IN_THREE})")
    h = _Hand(index=i, game=game)
    _parse_penalties(i, hand, h, players, errors)
    if game.family == KLOP:
        _parse_klop(i, hand, h, mode, players, errors)
    else:
        _parse_declared(i, hand, h, mode, players, errors)
    return h if len(errors) == before else None


def _parse_penalties(i: int, hand: dict[str, Any], h: _Hand, players: list[str],
                     errors: ErrorCollector) -> None:
    value = hand.get("penalties", [])
    if not isinstance(value, list):
        errors.add(i, "penalties", "not_a_list", "penalties must be a list")
        return
    for k, pen in enumerate(value):
        f = f"penalties[{k}]"
        if not isinstance(pen, dict):
            errors.add(i, f, "not_an_object", f"{f} must be an object {{kind, player}}")
            continue
        for key in pen:
            if key not in _PENALTY_FIELDS:
                errors.add(i, f"{f}.{key}", "unknown_field", f"{f} has no field {key!r}")
        kind = pen.get("kind")
        player = _player(i, f"{f}.player", pen.get("player"), players, errors)
        if kind not in ("renons", "mond"):
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


def _parse_klop(i: int, hand: dict[str, Any], h: _Hand, mode: str, players: list[str],
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
                deal = 12 if mode == "four" else 16
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


def _parse_declared(i: int, hand: dict[str, Any], h: _Hand, mode: str, players: list[str],
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


def _decl_side(h: _Hand, player: str) -> bool:
    return player == h.declarer or (h.partner is not None and player == h.partner)


def _parse_announcements(i: int, hand: dict[str, Any], h: _Hand, mode: str,
                         players: list[str], errors: ErrorCollector, renons: bool) -> None:
    value = hand.get("announcements", [])
    if not isinstance(value, list):
        errors.add(i, "announcements", "not_a_list", "announcements must be a list")
        return
    allowed = _ANN_BY_FAMILY[h.game.family]
    seen: dict[str, _Ann] = {}
    for k, ann in enumerate(value):
        f = f"announcements[{k}]"
        if not isinstance(ann, dict):
            errors.add(i, f, "not_an_object", f"{f} must be an object")
            continue
        for key in ann:
            if key not in _ANNOUNCEMENT_FIELDS:
                errors.add(i, f"{f}.{key}", "unknown_field", f"{f} has no field {key!r}")
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
        elif name in _FOUR_ONLY and mode != "four":
            errors.add(i, f"{f}.name", "announcement_not_in_mode",
                       f"{ANNOUNCEMENT_NAMES[name]} belongs to tarok for four")
            ok = False
        elif name in seen:
            errors.add(i, f"{f}.name", "duplicate_announcement", f"{name} is listed twice")
            ok = False
        by = _player(i, f"{f}.by", ann.get("by"), players, errors)
        announced = ann.get("announced")
        if not isinstance(announced, bool):
            errors.add(i, f"{f}.announced", "not_a_boolean",
                       "announced must be true (napovedano) or false (tiho)")
            ok = False
        achieved = ann.get("achieved")
        if achieved is not None and not isinstance(achieved, bool):
            errors.add(i, f"{f}.achieved", "not_a_boolean", "achieved must be true or false")
            ok = False
        elif achieved is None and name != "solo" and not renons:
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
        elif not _decl_side(h, by):
            errors.add(i, f"{f}.by", "announcement_by_defender",
                       "seed 003 scores announcements only for the side that plays")
            continue
        elif announced and by != h.declarer and name != "kralj":
            errors.add(i, f"{f}.by", "announcement_by_wrong_player",
                       "the partner may announce only the kralj (\"klicani partner ... tega "
                       "tudi napove\")")
            continue
        if not announced and achieved is False and name != "kralj":
            errors.add(i, f"{f}.achieved", "silent_not_achieved",
                       f"a silent {ANNOUNCEMENT_NAMES[name]} that was not made scores "
                       "nothing in seed 003 (only the lost kralj does): leave it out")
            continue
        seen[name] = _Ann(k, name, by, announced, achieved)
    if "trulapagat" in seen and ("trula" in seen or "pagat_ultimo" in seen):
        errors.add(i, f"announcements[{seen['trulapagat'].index}].name",
                   "announcement_conflict",
                   "trulapagat is trula and pagat ultimo together: list it alone")
    valat = seen.get("valat")
    if valat is not None and valat.achieved and h.won is False:
        errors.add(i, f"announcements[{valat.index}].achieved", "valat_contradicts_points",
                   "a valat takes every trick, so the game is won")
    h.announcements = sorted(seen.values(), key=lambda a: a.index)


def _parse_contras(i: int, hand: dict[str, Any], h: _Hand, players: list[str],
                   errors: ErrorCollector) -> None:
    value = hand.get("contras", [])
    if not isinstance(value, list):
        errors.add(i, "contras", "not_a_list", "contras must be a list")
        return
    expected = 1
    for k, c in enumerate(value):
        f = f"contras[{k}]"
        if not isinstance(c, dict):
            errors.add(i, f, "not_an_object", f"{f} must be an object {{on, by, level}}")
            continue
        for key in c:
            if key not in _CONTRA_FIELDS:
                errors.add(i, f"{f}.{key}", "unknown_field", f"{f} has no field {key!r}")
        on_game = c.get("on") == "game"
        if not on_game:
            errors.add(i, f"{f}.on", "contra_not_allowed",
                       f"seed 003 contras the game only (\"podvajanja vrednosti igre\"), got "
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
                       "seed 003 knows kontra, re and sub only")
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
        elif level != 2 and _decl_side(h, by):
            errors.add(i, f"{f}.by", "contra_by_wrong_side",
                       f"{CONTRA_NAMES[level]} comes from an opponent of the declarer")
    h.contra_level = expected - 1


# ============================================================================================
# scoring
# ============================================================================================
def _ann_value(code: str, announced: bool, options: dict[str, Any]) -> int:
    silent, ann = ANNOUNCEMENT_VALUES[code]
    if announced:
        return ann
    if code == "trulapagat":
        return int(options[OPT_TRULAPAGAT_SILENT])
    assert silent is not None
    return silent


def _score_hand(h: _Hand, players: list[str], options: dict[str, Any],
                personal: dict[str, int], collective: int
                ) -> tuple[dict[str, Any], dict[str, int], int]:
    scores = {p: 0 for p in players}
    lines: list[dict[str, Any]] = []
    personal = dict(personal)
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
            personal = {p: personal[p] + 1 for p in players}
        else:
            collective += len(players)
    else:
        value, result, result_lines = _declared_result(h, options)
        lines.extend(result_lines)
        writers = [h.declarer]
        if h.partner is not None and options[OPT_PARTNER_SCORES]:
            writers.append(h.partner)
        won = bool(h.won)
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
    state: dict[str, Any]
    if options[OPT_RADELCI] == "personal":
        state = {"radelci": dict(personal)}
    else:
        state = {"collective_radelci": collective}
    return ({"value": value, "scores": scores, "state": state, "lines": lines},
            personal, collective)


def _declared_result(h: _Hand, options: dict[str, Any]
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

    if valat is not None and valat.achieved:
        # "Tako napovedana igra šteje 500 pik, nenapovedan valat pa je vreden pol manj."
        amount = _ann_value("valat", valat.announced, options)
        result = amount * factor
        lines.append({"player": decl, "what": f"{'announced' if valat.announced else 'silent'}"
                      f" valat made", "points": result, "code": "valat_won",
                      "params": {"value": amount, "contra_factor": factor,
                                 "announced": valat.announced}})
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


register(SlovenskiTarokZei())
