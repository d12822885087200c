"""Slovenian tarok after Lada Zei's short rules (seed 003), for three and for four players:
the ruleset `slovenski-tarok-zei`.

This module declares the ruleset; the values are in `tables`, reading a hand in `parse`, what
a hand must not say in `checks`, the scoring (tri, dva, ena and their solo variants, solo
brez, pikolo, berač, odprti berač, the napovedi, kontra/re/sub, klop, the radelci) in
`score`. Decisions and the seed clauses behind them: docs/rulesets/slovenski-tarok-zei.md.
"""

from __future__ import annotations

from typing import Any

from scoring.rules import register
from scoring.rules.base import (
    COUNT,
    PER_PLAYER,
    STRING,
    Announcement,
    ContraLevel,
    Game,
    Mode,
    Ruleset,
    announcement_properties,
    object_list_schema,
)
from scoring.rules.zei import checks, parse, score
from scoring.rules.zei.tables import (
    ANN_BY_FAMILY,
    ANNOUNCEMENT_NAMES,
    ANNOUNCEMENT_VALUES,
    BOTH,
    CONTRA_FACTORS,
    CONTRA_NAMES,
    DECIDED_BY,
    FOUR,
    FOUR_ONLY,
    GAME_RULES,
    OPT_RADELCI,
    OPTIONS,
    PENALTIES,
    SEED,
    TALON,
    THREE,
)


class ZeiRuleset(Ruleset):
    code = "slovenski-tarok-zei"
    family = "slovenian"
    title = "Slovenski tarok, kratka pravila (Lada Zei)"
    source = f"{SEED}: Lada Zei, Kratka pravila za igranje taroka"
    docs = "docs/rulesets/slovenski-tarok-zei.md"
    unit = "points"
    modes = {
        # TAROK ZA TRI: "Igralec, ki je izlicitiral igro, igra sam, druga dva sta njegova
        # nasprotnika"; TAROK ZA ŠTIRI: the declarer calls a king
        THREE: Mode(THREE, 3, 3),
        FOUR: Mode(FOUR, 4, 4),
    }
    default_mode = None
    games = tuple(
        Game(g.code, g.name, g.value, BOTH, decided_by=DECIDED_BY[g.family],
             extra={"family": g.family, "talon_cards": g.talon_cards,
                    "calls_king_in_four": g.family == TALON,
                    "announcements_allowed": list(ANN_BY_FAMILY[g.family])})
        for g in GAME_RULES
    )
    announcements = tuple(
        Announcement(code, ANNOUNCEMENT_NAMES[code], ann, silent,
                     (FOUR,) if code in FOUR_ONLY else BOTH)
        for code, (silent, ann) in ANNOUNCEMENT_VALUES.items()
    )
    contra_levels = tuple(ContraLevel(lv, CONTRA_NAMES[lv], f) for lv, f in CONTRA_FACTORS.items())
    options = OPTIONS
    penalties = PENALTIES
    # KLOPECKI: "Vsakemu igralcu se po odigranem klopu ... piše »radelc«"
    carries_state = True
    parse_hand = staticmethod(parse.parse_hand)  # type: ignore[assignment]
    check_hand = staticmethod(checks.check_hand)  # type: ignore[assignment]
    score_hand = staticmethod(score.score_hand)  # type: ignore[assignment]

    def state_fields(self, options: dict[str, Any]) -> dict[str, str]:
        # personal radelci by each name, or the Styrian collective ones on top of the sheet
        if options[OPT_RADELCI] == "collective":
            return {"collective_radelci": COUNT}
        return {"radelci": PER_PLAYER}

    def hand_schema(self) -> dict[str, Any]:
        int70 = {"type": "integer", "minimum": 0, "maximum": 70}
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"Hand of {self.code}",
            "type": "object",
            "required": ["game"],
            "additionalProperties": False,
            "properties": {
                "game": {"enum": [g.code for g in GAME_RULES]},
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
                "announcements": object_list_schema(
                    ["name", "by", "announced"],
                    announcement_properties(list(ANNOUNCEMENT_VALUES))),
                "contras": object_list_schema(
                    ["on", "by", "level"],
                    {"on": {"enum": ["game"]}, "by": STRING, "level": {"enum": [1, 2, 3]}}),
                "penalties": object_list_schema(
                    ["kind", "player"],
                    {"kind": {"enum": list(self.penalty_kinds)}, "player": STRING}),
            },
        }


register(ZeiRuleset())

__all__ = ["ZeiRuleset"]
