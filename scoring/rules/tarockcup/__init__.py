"""The Steirischer Tarockcup 2017/2018 (seed 001): Austrian Königrufen as the Styrian cup plays
it, the ruleset `steirischer-tarockcup-2017`.

This module declares the ruleset; the values (and the cup points of the series, only the
places the seed names) are in `tables`, reading a hand in `parse`, what a hand must not say
in `checks`, the Schrift and the payout in `score`. Decisions and the seed clauses behind
them: docs/rulesets/steirischer-tarockcup-2017.md.
"""

from __future__ import annotations

from typing import Any

from scoring.rules import register
from scoring.rules.base import (
    SHEET_SCHRIFT,
    STRING,
    Announcement,
    ContraLevel,
    Game,
    Mode,
    Ruleset,
    announcement_properties,
    object_list_schema,
)
from scoring.rules.tarockcup import checks, parse, score
from scoring.rules.tarockcup.tables import (
    CENTS_PER_POINT,
    CONTRA_FACTORS,
    CONTRA_NAMES,
    CUP_POINTS,
    DREIER,
    FARBEN,
    FOUR,
    GAME_RULES,
    OPTIONS,
    PENALTIES,
    PREMIUM_NAMES,
    PREMIUM_VALUES,
    PREMIUMS_BY_FAMILY,
    RUFER,
    SEED,
    TRISCHAKEN,
    VALAT_MULTIPLIER,
)


class TarockcupRuleset(Ruleset):
    code = "steirischer-tarockcup-2017"
    family = "koenigrufen"
    title = "Steirischer Tarockcup 2017/2018 (Königrufen)"
    source = (f"{SEED}: Die Regeln des Steirischen Tarockcups 2017 / 2018 (20.04.2017). "
              "Scores are the Schrift in points; each hand's `payout` is in euro cents "
              "(1 point = 10 cents) with Kontra, Re and Sub applied.")
    docs = "docs/rulesets/steirischer-tarockcup-2017.md"
    unit = "points"
    # Königrufen at a tournament table is four-handed; the seed knows no resting player.
    modes = {FOUR: Mode(FOUR, 4, 4)}
    default_mode = FOUR
    games = tuple(
        Game(
            g.code, g.name, g.value, (FOUR,),
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
                "premiums_allowed": list(PREMIUMS_BY_FAMILY[g.family]),
                "points_optional": g.family in (RUFER, DREIER, FARBEN),
            },
        )
        for g in GAME_RULES
    )
    announcements = tuple(
        Announcement(code, PREMIUM_NAMES[code], ann, silent, (FOUR,))
        for code, (ann, silent) in PREMIUM_VALUES.items()
    ) + (
        Announcement("valat", "Valat", None, None, (FOUR,),
                     extra={"game_multiplier_announced": VALAT_MULTIPLIER[True],
                            "game_multiplier_silent": VALAT_MULTIPLIER[False]}),
    )
    contra_levels = tuple(ContraLevel(lv, CONTRA_NAMES[lv], f) for lv, f in CONTRA_FACTORS.items())
    options = OPTIONS
    penalties = PENALTIES
    # "Es gibt kein Verdoppelungsradl nach Mondfang, Trischaken oder Nullrunde"
    carries_state = False
    # "Es wird plus und minus geschrieben"; "Für das Turnierergebnis ist nur die Schrift
    # ausschlaggebend."
    sheet = SHEET_SCHRIFT
    score_label = "Schrift"
    cup_points = CUP_POINTS
    parse_hand = staticmethod(parse.parse_hand)  # type: ignore[assignment]
    check_hand = staticmethod(checks.check_hand)  # type: ignore[assignment]
    score_hand = staticmethod(score.score_hand)  # type: ignore[assignment]

    # -- description ------------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out["payout_unit"] = "cent"
        out["cents_per_point"] = CENTS_PER_POINT
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
                "game": {"enum": [g.code for g in GAME_RULES]},
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
                "announcements": object_list_schema(
                    ["name", "by", "announced"],
                    announcement_properties([a.code for a in self.announcements])),
                "contras": object_list_schema(
                    ["on", "by", "level"],
                    {"on": {"enum": ["game"] + [a.code for a in self.announcements]},
                     "by": STRING, "level": {"enum": [1, 2, 3]},
                     "against": {"type": "string",
                                 "description": "negative games: the defender whose "
                                                "Kontra a Re answers"}}),
                "penalties": object_list_schema(
                    ["kind", "player"],
                    {"kind": {"enum": [*self.penalty_kinds, "mond"],
                              "description": "mond only with option mondfang = zero"},
                     "player": STRING}),
            },
        }


register(TarockcupRuleset())

__all__ = ["TarockcupRuleset"]
