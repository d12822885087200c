"""The Steirischer Tarockcup 2017/2018 (seed 001): Austrian Königrufen as the Styrian cup plays it.

Responsible for the ruleset `steirischer-tarockcup-2017`: validating every hand of a table's
scorecard and turning it into the Schrift (the plus and minus the table writes, which alone
decides the tournament) and the money payout (1 point = 10 cents, with Kontra, Re and Sub
applied, since the seed lets contras change the payout only). It also holds the cup points of
the series as data: only the places the seed names, for the organiser to complete.

Decisions and the seed clauses behind them: docs/rulesets/steirischer-tarockcup-2017.md.
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

SEED = "001_7e38f3a78edb814f.txt"

# "Es wird plus und minus geschrieben (1 Punkt = 10 Cent)."
CENTS_PER_POINT = 10

# -- cup series data ------------------------------------------------------------------------
# "erster Platz 223 Fixpunkte, zweiter 198, dritter 180 ... 50. Platz 1 Fixpunkt": the seed
# names only these four places; the organiser supplies the rest of the table. Nothing here
# may guess the places in between.
SEED_CUP_POINTS: dict[int, int] = {1: 223, 2: 198, 3: 180, 50: 1}


@dataclass(frozen=True)
class CupCountingRule:
    """How a player's series total is formed: "Für den Gesamtturniersieg werden die sechs
    besten Ergebnisse plus das Final-Ergebnis gewertet." and "Wer an mindestens einem
    Einzelturnier teilgenommen hat, ist für das Finale qualifiziert." """

    best_results: int = 6
    plus_final: bool = True
    tournaments_to_qualify_for_final: int = 1
    # "Es werden 3 Runden gespielt." (per tournament day)
    rounds_per_tournament: int = 3


CUP_COUNTING_RULE = CupCountingRule()


def cup_series_total(
    tournament_cup_points: list[int], final_cup_points: int | None,
    rule: CupCountingRule = CUP_COUNTING_RULE,
) -> int:
    """A player's series total: his best `rule.best_results` tournament results plus the
    final (when he played it)."""
    if not isinstance(tournament_cup_points, list) or not all(
        isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in tournament_cup_points
    ):
        raise ValueError("tournament_cup_points must be a list of whole numbers >= 0")
    if final_cup_points is not None and (
        not isinstance(final_cup_points, int) or isinstance(final_cup_points, bool)
        or final_cup_points < 0
    ):
        raise ValueError("final_cup_points must be a whole number >= 0 or None")
    best = sorted(tournament_cup_points, reverse=True)[: rule.best_results]
    total = sum(best)
    if rule.plus_final and final_cup_points is not None:
        total += final_cup_points
    return total


# -- the tariff ------------------------------------------------------------------------------
RUFER, DREIER, FARBEN, NEGATIV, TRISCHAKEN = "rufer", "dreier", "farben", "negativ", "trischaken"


@dataclass(frozen=True)
class _GameRule:
    code: str
    name: str
    value: int
    family: str  # RUFER (a king is called), DREIER, FARBEN (1 against 3), NEGATIV, TRISCHAKEN
    lost_value: int | None = None  # Sechserdreier: "4/–8"
    premium_factor: int = 1  # "Im Solorufer, Solodreier und Farbensolo gelten alle Prämien doppelt"
    vogerl: str | None = None  # the Vogerl a Vogerl-Rufer names when it is bid
    forehand_only: bool = False


_GAME_RULES: tuple[_GameRule, ...] = (
    _GameRule("rufer", "Rufer", 1, RUFER),
    _GameRule("trischaken", "Trischaken", 3, TRISCHAKEN),
    _GameRule("piccolo", "Piccolo", 2, NEGATIV),
    _GameRule("zwiccolo", "Zwiccolo", 2, NEGATIV),
    _GameRule("solorufer", "Solorufer", 2, RUFER, premium_factor=2),
    _GameRule("pagatrufer", "Pagatrufer", 3, RUFER, vogerl="pagat"),
    _GameRule("bettler", "Bettler", 4, NEGATIV),
    _GameRule("sechserdreier", "Sechserdreier", 4, DREIER, lost_value=8, forehand_only=True),
    _GameRule("uhurufer", "Uhurufer", 5, RUFER, vogerl="uhu"),
    _GameRule("farbendreier", "Farbendreier", 5, FARBEN),
    _GameRule("dreier", "Dreier", 5, DREIER),
    _GameRule("piccolo_ouvert", "Piccolo ouvert", 6, NEGATIV),
    _GameRule("zwiccolo_ouvert", "Zwiccolo ouvert", 6, NEGATIV),
    _GameRule("kakadurufer", "Kakadurufer", 7, RUFER, vogerl="kakadu"),
    _GameRule("bettler_ouvert", "Bettler ouvert", 8, NEGATIV),
    _GameRule("quapilrufer", "Quapilrufer", 9, RUFER, vogerl="quapil"),
    _GameRule("farbensolo", "Farbensolo", 10, FARBEN, premium_factor=2),
    _GameRule("solodreier", "Solodreier", 10, DREIER, premium_factor=2),
)
_GAME_BY_CODE = {g.code: g for g in _GAME_RULES}

# premium -> (announced, silent) from the table "Die Prämien angesagt/still".
PREMIUM_VALUES: dict[str, tuple[int, int]] = {
    "koenig_ultimo": (2, 1),
    "trull": (2, 1),
    "vier_koenige": (2, 1),
    "pagat": (2, 1),
    "uhu": (4, 2),
    "kakadu": (6, 3),
    "quapil": (8, 4),
}
PREMIUM_NAMES = {
    "koenig_ultimo": "König ultimo", "trull": "Trull", "vier_koenige": "4 Könige",
    "pagat": "Pagat", "uhu": "Uhu", "kakadu": "Kakadu", "quapil": "Quapil", "valat": "Valat",
}
# "Valat 8-fach/4-fach": a multiple of the game, announced / silent.
VALAT_MULTIPLIER = {True: 8, False: 4}
VOGERLN = ("pagat", "uhu", "kakadu", "quapil")
# "Im angesagten und stillen Valat zählen alle Vogerln und der König ultimo"
_COUNT_IN_ANY_VALAT = set(VOGERLN) | {"koenig_ultimo"}
# a premium that is a collection, not a last-trick feat, cannot be "lost" silently
_CANNOT_FAIL_SILENTLY = {"trull", "vier_koenige", "valat"}

_PREMIUMS_BY_FAMILY: dict[str, tuple[str, ...]] = {
    RUFER: ("koenig_ultimo", "trull", "vier_koenige", "pagat", "uhu", "kakadu", "quapil",
            "valat"),
    # König ultimo needs the called king ("wenn er die jeweilige Karte im Blatt hat")
    DREIER: ("trull", "vier_koenige", "pagat", "uhu", "kakadu", "quapil", "valat"),
    # "Farbspiele ... Nur die Ansagen 4 Könige und Valat sind möglich."
    FARBEN: ("vier_koenige", "valat"),
    NEGATIV: (),
    TRISCHAKEN: (),
}

CONTRA_FACTORS = {1: 2, 2: 4, 3: 8}  # "Kontra (doppelt), Re (vierfach) und Sub (achtfach)"
CONTRA_NAMES = {1: "Kontra", 2: "Re", 3: "Sub"}

# Trischaken tariff ("Trischaken"-section of the seed), in points of the Schrift
TRISCHAKEN_BASE = 3
TRISCHAKEN_JUNGFRAU = 9
TRISCHAKEN_ALL_TRICKS = 12
TRISCHAKEN_RENONCE = 9
# "mindestens 35 Punkte und 2 Blatt": 35 2/3 points, counted in thirds (Blatt)
BUERGERMEISTER_THIRDS = 35 * 3 + 2
TOTAL_THIRDS = 70 * 3

_HAND_FIELDS = {
    "game", "declarer", "partner", "forehand", "points", "won", "points_by_player",
    "blatt_by_player", "tricks_by_player", "announcements", "contras", "penalties", "conceded",
}
_ANNOUNCEMENT_FIELDS = {"name", "by", "announced", "achieved"}
_CONTRA_FIELDS = {"on", "by", "level", "against"}
_PENALTY_FIELDS = {"kind", "player"}

OPTION_FOREHAND_JUNGFRAU = "trischaken_forehand_doubles_jungfrau"


@dataclass
class _Premium:
    index: int
    code: str
    by: str
    announced: bool
    achieved: bool | None


@dataclass
class _Contra:
    index: int
    on: str
    by: str
    level: int
    against: str | None


@dataclass
class _Hand:
    index: int
    game: _GameRule
    declarer: str | None = None
    partner: str | None = None
    forehand: str | None = None
    won: bool | None = None
    conceded: bool = False
    points_by_player: dict[str, int] = field(default_factory=dict)
    blatt_by_player: dict[str, int] = field(default_factory=dict)
    premiums: list[_Premium] = field(default_factory=list)
    contras: list[_Contra] = field(default_factory=list)
    renoncers: list[str] = field(default_factory=list)
    # filled by the contra check: target -> factor, or for individual contras in negative
    # games "game" -> {defender: factor}
    contra_factor: dict[str, int] = field(default_factory=dict)
    individual_factor: dict[str, int] = field(default_factory=dict)
    contra_notes: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _Item:
    """One thing the hand scores: the game (or the valat replacing it) or one premium."""

    code: str  # line code
    target: str  # what a contra on it names: "game", "valat" or the premium code
    label: str
    owner_decl_side: bool
    owner: str
    won: bool
    unit: int
    params: dict[str, Any]


class SteirischerTarockcup(Ruleset):
    code = "steirischer-tarockcup-2017"
    title = "Steirischer Tarockcup 2017/2018 (Königrufen)"
    source = (f"{SEED}: Die Regeln des Steirischen Tarockcups 2017 / 2018 (20.04.2017). "
              "Scores are the Schrift in points; each hand's `payout` is in euro cents "
              "(1 point = 10 cents) with Kontra, Re and Sub applied.")
    unit = "points"
    modes = {"four": (4, 4)}
    default_mode = "four"
    games = tuple(
        Game(
            g.code, g.name, g.value, ("four",),
            # "tricks" is the base's word for a game given as won true/false; positive games
            # may add points, which are checked against won
            decided_by="individual" if g.family == TRISCHAKEN else "tricks",
            extra={
                "family": g.family,
                "lost_value": g.lost_value if g.lost_value is not None else g.value,
                "premium_factor": g.premium_factor,
                "named_vogerl": g.vogerl,
                "calls_king": g.family == RUFER,
                "forehand_only": g.forehand_only,
                "premiums_allowed": list(_PREMIUMS_BY_FAMILY[g.family]),
                "points_optional": g.family in (RUFER, DREIER, FARBEN),
            },
        )
        for g in _GAME_RULES
    )
    announcements = tuple(
        Announcement(code, PREMIUM_NAMES[code], ann, silent, ("four",))
        for code, (ann, silent) in PREMIUM_VALUES.items()
    ) + (
        Announcement("valat", "Valat", None, None, ("four",),
                     extra={"game_multiplier_announced": 8, "game_multiplier_silent": 4}),
    )
    contra_levels = tuple(ContraLevel(lv, CONTRA_NAMES[lv], f) for lv, f in CONTRA_FACTORS.items())
    options = (
        Option(
            OPTION_FOREHAND_JUNGFRAU, False, (False, True),
            "Trischaken: whether the Vorhand as loser also pays a Jungfrau double. Default: "
            "no, the Jungfrau clause names its amounts (9, 18 from the Bürgermeister) without "
            "the Vorhand doubling.",
            f"{SEED}, Trischaken: \"Hat ein Spieler keinen Stich (Jungfrau), erhält er vom "
            "Verlierer 9 Punkte\" / \"Hat der Vorhandspieler die meisten Punkte, zahlt er "
            "doppelt, also je 6 Punkte\"",
        ),
    )
    penalty_kinds = ("renons",)
    docs = "docs/rulesets/steirischer-tarockcup-2017.md"

    # -- description ------------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out["payout_unit"] = "cent"
        out["cents_per_point"] = CENTS_PER_POINT
        out["cup_points"] = {
            "seed_places": {str(k): v for k, v in SEED_CUP_POINTS.items()},
            "complete": False,
            "note": "only the places the seed names; the organiser completes the table",
            "counting": {
                "best_results": CUP_COUNTING_RULE.best_results,
                "plus_final": CUP_COUNTING_RULE.plus_final,
                "tournaments_to_qualify_for_final":
                    CUP_COUNTING_RULE.tournaments_to_qualify_for_final,
                "rounds_per_tournament": CUP_COUNTING_RULE.rounds_per_tournament,
            },
        }
        return out

    def hand_schema(self) -> dict[str, Any]:
        player_map = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"Hand of {self.code}",
            "type": "object",
            "required": ["game"],
            "additionalProperties": False,
            "properties": {
                "game": {"enum": [g.code for g in _GAME_RULES]},
                "declarer": {"type": "string",
                             "description": "every game but trischaken"},
                "partner": {"type": ["string", "null"],
                            "description": "Rufer-type games only (a king is called): the "
                                           "holder of the called king, null when it lay in "
                                           "the talon"},
                "forehand": {"type": "string",
                             "description": "required in trischaken; in sechserdreier it "
                                            "must be the declarer"},
                "won": {"type": "boolean",
                        "description": "whether the declarer's side won the game (35 points "
                                       "and 2 Blatt in positive games)"},
                "points": {"type": "integer", "minimum": 0, "maximum": 70,
                           "description": "optional in positive games, checked against won"},
                "conceded": {"type": "boolean",
                             "description": "'schleifen': the called king lay in the talon "
                                          "and the declarer gave up without playing"},
                "points_by_player": dict(player_map, additionalProperties={
                    "type": "integer", "minimum": 0, "maximum": 70}),
                "blatt_by_player": dict(player_map, additionalProperties={
                    "type": "integer", "minimum": 0, "maximum": 2}),
                "tricks_by_player": dict(player_map, additionalProperties={
                    "type": "integer", "minimum": 0, "maximum": 12}),
                "announcements": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["name", "by", "announced"],
                        "additionalProperties": False,
                        "properties": {
                            "name": {"enum": [a.code for a in self.announcements]},
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
                            "on": {"enum": ["game"] + [a.code for a in self.announcements]},
                            "by": {"type": "string"},
                            "level": {"enum": [1, 2, 3]},
                            "against": {"type": "string",
                                        "description": "negative games: the defender whose "
                                                       "Kontra a Re answers"},
                        },
                    },
                },
                "penalties": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["kind", "player"],
                        "additionalProperties": False,
                        "properties": {
                            "kind": {"enum": list(self.penalty_kinds)},
                            "player": {"type": "string"},
                        },
                    },
                },
            },
        }

    # -- scoring ----------------------------------------------------------------------------
    def score(
        self, mode: str, players: list[str], hands: list[dict[str, Any]],
        options: dict[str, Any], errors: ErrorCollector,
    ) -> list[dict[str, Any]] | None:
        parsed = [_parse_hand(i, hand, players, errors) for i, hand in enumerate(hands)]
        if errors:
            return None
        results = []
        for hand in parsed:
            assert hand is not None
            if hand.game.family == TRISCHAKEN:
                results.append(_score_trischaken(hand, players, options))
            else:
                results.append(_score_game(hand, players))
        return results


# ============================================================================================
# validation
# ============================================================================================


def _parse_hand(i: int, hand: dict[str, Any], players: list[str],
                errors: ErrorCollector) -> _Hand | None:
    before = len(errors)
    for key in hand:
        if key not in _HAND_FIELDS:
            errors.add(i, str(key), "unknown_field",
                       f"field {key!r} is not used by steirischer-tarockcup-2017")
    code = hand.get("game")
    game = _GAME_BY_CODE.get(code) if isinstance(code, str) else None
    if game is None:
        errors.add(i, "game", "unknown_game",
                   f"unknown game {code!r} (games: {', '.join(_GAME_BY_CODE)})")
        _parse_penalties(i, hand, players, errors)
        return None
    h = _Hand(index=i, game=game)
    h.renoncers = _parse_penalties(i, hand, players, errors)
    if game.family == TRISCHAKEN:
        _parse_trischaken(i, hand, h, players, errors)
    else:
        _parse_two_sided(i, hand, h, players, errors)
    return h if len(errors) == before else None


def _parse_penalties(i: int, hand: dict[str, Any], players: list[str],
                     errors: ErrorCollector) -> list[str]:
    value = hand.get("penalties", [])
    if not isinstance(value, list):
        errors.add(i, "penalties", "not_a_list", "penalties must be a list")
        return []
    renoncers: list[str] = []
    for k, pen in enumerate(value):
        f = f"penalties[{k}]"
        if not isinstance(pen, dict):
            errors.add(i, f, "not_an_object", f"{f} must be an object {{kind, player}}")
            continue
        for key in pen:
            if key not in _PENALTY_FIELDS:
                errors.add(i, f"{f}.{key}", "unknown_field", f"{f} has no field {key!r}")
        kind = pen.get("kind")
        if kind != "renons":
            errors.add(i, f"{f}.kind", "invalid_penalty",
                       f"the only penalty of this ruleset is 'renons' (Mondfang is not "
                       f"honoured), got {kind!r}")
        p = _player(i, f"{f}.player", pen.get("player"), players, errors)
        if p is not None and kind == "renons":
            if p in renoncers:
                errors.add(i, f"{f}.player", "duplicate_penalty",
                           f"{p} already has a renons in this hand")
            else:
                renoncers.append(p)
    return renoncers


def _parse_trischaken(i: int, hand: dict[str, Any], h: _Hand, players: list[str],
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


def _parse_two_sided(i: int, hand: dict[str, Any], h: _Hand, players: list[str],
                     errors: ErrorCollector) -> None:
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
    _parse_result(i, hand, h, errors, renonce)
    h.contras = _parse_contras(i, hand, h, players, errors)
    _check_contra_chains(i, h, errors)


def _parse_premiums(i: int, hand: dict[str, Any], h: _Hand, players: list[str],
                    errors: ErrorCollector, renonce: bool) -> list[_Premium]:
    value = hand.get("announcements", [])
    if not isinstance(value, list):
        errors.add(i, "announcements", "not_a_list", "announcements must be a list")
        return []
    allowed = _PREMIUMS_BY_FAMILY[h.game.family]
    out: list[_Premium] = []
    seen: set[str] = set()
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
        announced = ann.get("announced")
        if not isinstance(announced, bool):
            errors.add(i, f"{f}.announced", "not_a_boolean",
                       "announced must be true (angesagt) or false (still)")
            ok = False
        achieved = ann.get("achieved")
        if achieved is not None and not isinstance(achieved, bool):
            errors.add(i, f"{f}.achieved", "not_a_boolean", "achieved must be true or false")
            ok = False
        elif achieved is None and not h.conceded and not (renonce and announced is True):
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
        if not announced and achieved is False and name in _CANNOT_FAIL_SILENTLY:
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
        out.append(_Premium(k, name, by, announced, achieved))
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


def _parse_result(i: int, hand: dict[str, Any], h: _Hand, errors: ErrorCollector,
                  renonce: bool) -> None:
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
    announced_valat = any(p.code == "valat" and p.announced for p in h.premiums)
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
    for p in h.premiums:
        if p.code == "valat" and p.achieved and won is not None \
                and won != _on_decl_side(h, p.by):
            errors.add(i, f"announcements[{p.index}].achieved", "valat_contradicts_won",
                       "a side that takes every trick wins the game: check won and the "
                       "Valat's by")


def _parse_contras(i: int, hand: dict[str, Any], h: _Hand, players: list[str],
                   errors: ErrorCollector) -> list[_Contra]:
    value = hand.get("contras", [])
    if not isinstance(value, list):
        errors.add(i, "contras", "not_a_list", "contras must be a list")
        return []
    if value and h.conceded:
        errors.add(i, "contras", "contra_not_allowed",
                   "a conceded ('geschleift') hand is not played, so nobody can contra it "
                   "(\"Entscheidet sich der Spieler zu spielen, kann er kontriert werden\")")
        return []
    premiums = {p.code: p for p in h.premiums}
    out: list[_Contra] = []
    for k, c in enumerate(value):
        f = f"contras[{k}]"
        if not isinstance(c, dict):
            errors.add(i, f, "not_an_object", f"{f} must be an object {{on, by, level}}")
            continue
        for key in c:
            if key not in _CONTRA_FIELDS:
                errors.add(i, f"{f}.{key}", "unknown_field", f"{f} has no field {key!r}")
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
            out.append(_Contra(k, on, by, level, against))
    return out


def _on_decl_side(h: _Hand, player: str) -> bool:
    return player == h.declarer or (h.partner is not None and player == h.partner)


def _valat_applies(h: _Hand) -> bool:
    for p in h.premiums:
        if p.code == "valat" and (p.announced or p.achieved):
            return True
    return False


def _check_contra_chains(i: int, h: _Hand, errors: ErrorCollector) -> None:
    if h.declarer is None:
        return
    if h.game.family == NEGATIV:
        _check_individual_contras(i, h, errors)
        return
    premiums = {p.code: p for p in h.premiums}
    hidden_partner = h.game.family == RUFER and h.partner is not None
    by_target: dict[str, list[_Contra]] = {}
    for c in h.contras:
        by_target.setdefault(c.on, []).append(c)
    for target, calls in by_target.items():
        owner_decl = True if target == "game" else _on_decl_side(h, premiums[target].by)
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
            if _on_decl_side(h, c.by) != must_be_decl:
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


def _check_individual_contras(i: int, h: _Hand, errors: ErrorCollector) -> None:
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


# ============================================================================================
# scoring of two-sided games
# ============================================================================================
def _pairs(h: _Hand, players: list[str]) -> list[tuple[str, str]]:
    """Who pays whom: in two against two each player of one side settles with one of the
    other; one against three, the single player settles with each of the three."""
    assert h.declarer is not None
    defenders = [p for p in players if not _on_decl_side(h, p)]
    if h.partner is not None:
        return [(h.declarer, defenders[0]), (h.partner, defenders[1])]
    return [(h.declarer, d) for d in defenders]


def _game_unit(h: _Hand, decl_side_wins: bool) -> int:
    if not decl_side_wins and h.game.lost_value is not None:
        return h.game.lost_value
    return h.game.value


def _items(h: _Hand, forced_winner_decl: bool | None = None) -> list[_Item]:
    """The scored items of a hand. `forced_winner_decl` scores the hand as if that side had
    won the game and every announced premium (and made the silent premiums it claims): the
    renonce rule "als hätten sie das Spiel und die angesagten Prämien gewonnen"."""
    assert h.declarer is not None
    items: list[_Item] = []
    forced = forced_winner_decl is not None
    premiums = []
    for p in h.premiums:
        if forced:
            side = _on_decl_side(h, p.by)
            if not p.announced and side != forced_winner_decl:
                continue
            achieved = p.announced is False or side == forced_winner_decl
            premiums.append(_Premium(p.index, p.code, p.by, p.announced, achieved))
        else:
            premiums.append(p)
    valat = next((p for p in premiums if p.code == "valat"
                  and (p.announced or p.achieved)), None)
    if h.conceded:
        return [_Item("game_conceded", "game", f"{h.game.name} given up", True, h.declarer,
                      False, h.game.value, {"game": h.game.code})]
    if valat is not None:
        owner_decl = _on_decl_side(h, valat.by)
        decl_wins = owner_decl == bool(valat.achieved)
        base = _game_unit(h, decl_wins)
        mult = VALAT_MULTIPLIER[valat.announced]
        items.append(_Item(
            "valat_won" if valat.achieved else "valat_lost", "valat",
            f"{'announced' if valat.announced else 'silent'} Valat "
            f"{'made' if valat.achieved else 'failed'} ({h.game.name} {base} x {mult})",
            owner_decl, valat.by, bool(valat.achieved), base * mult,
            {"game": h.game.code, "game_value": base, "multiplier": mult,
             "announced": valat.announced}))
    else:
        won = forced_winner_decl if forced else h.won
        assert won is not None
        unit = _game_unit(h, won)
        items.append(_Item("game_won" if won else "game_lost", "game",
                           f"{h.game.name} {'won' if won else 'lost'}", True, h.declarer,
                           won, unit, {"game": h.game.code, "game_value": unit}))
    for p in premiums:
        if p.code == "valat":
            continue
        if valat is not None and p.code not in _COUNT_IN_ANY_VALAT:
            # silent Valat: "zählen angesagte Trull und angesagte 4 Könige"; the announced
            # Valat forbids announcing them, so only silent ones reach this point there
            if valat.announced or not p.announced:
                items.append(_Item("premium_in_valat", p.code,
                                   f"{PREMIUM_NAMES[p.code]} counts nothing in the Valat",
                                   _on_decl_side(h, p.by), p.by, bool(p.achieved), 0,
                                   {"premium": p.code, "announced": p.announced}))
                continue
        announced_v, silent_v = PREMIUM_VALUES[p.code]
        unit = (announced_v if p.announced else silent_v) * h.game.premium_factor
        items.append(_Item(
            "premium_won" if p.achieved else "premium_lost", p.code,
            f"{PREMIUM_NAMES[p.code]} {'announced' if p.announced else 'silent'} "
            f"{'made' if p.achieved else 'lost'}",
            _on_decl_side(h, p.by), p.by, bool(p.achieved), unit,
            {"premium": p.code, "announced": p.announced,
             "premium_factor": h.game.premium_factor}))
    return items


def _transfers(item: _Item, pairs: list[tuple[str, str]], players: list[str],
               pair_factor: dict[str, int] | None = None) -> dict[str, int]:
    out = {p: 0 for p in players}
    sign = 1 if item.owner_decl_side == item.won else -1
    for a, b in pairs:
        amount = sign * item.unit * (pair_factor.get(b, 1) if pair_factor else 1)
        out[a] += amount
        out[b] -= amount
    return out


def _payout_factors(h: _Hand, item: _Item, valat_on: bool) -> tuple[int, dict[str, int] | None]:
    """Contra factor of one item for the payout (never for the Schrift)."""
    if h.game.code == "solorufer" and h.partner is None:
        return 1, None  # "Kontras zählen in diesem Fall nicht"
    if item.target == "game" and valat_on:
        return 1, None
    if h.game.family == NEGATIV and item.target == "game":
        return 1, dict(h.individual_factor)
    return h.contra_factor.get(item.target, 1), None


def _score_game(h: _Hand, players: list[str]) -> dict[str, Any]:
    assert h.declarer is not None
    pairs = _pairs(h, players)
    scores = {p: 0 for p in players}
    payout = {p: 0 for p in players}
    lines: list[dict[str, Any]] = []
    valat_on = _valat_applies(h)
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
                side = _on_decl_side(h, p)
                gain = 0
                cents = 0
                for item in _items(h, forced_winner_decl=side):
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
        return {"value": value, "scores": scores, "payout": payout, "state": {},
                "lines": lines}

    for item in _items(h):
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
    return {"value": value, "scores": scores, "payout": payout, "state": {}, "lines": lines}


# ============================================================================================
# Trischaken
# ============================================================================================
def _score_trischaken(h: _Hand, players: list[str], options: dict[str, Any]) -> dict[str, Any]:
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
    return {"value": TRISCHAKEN_BASE, "scores": scores, "payout": payout, "state": {},
            "lines": lines}


register(SteirischerTarockcup())
