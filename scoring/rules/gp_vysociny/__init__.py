"""Czech taroky as played for money at the tournaments of the GP Vysočiny and GP Povodí
Křetínky a Svitavy (seed 004, Bystré, 31 Oct 2004): the ruleset `gp-vysociny-2004`.

This module declares the ruleset; the tariff (rates per eye, renonc fines, hlášky, flek
levels, the 20 Kč cap, the stake bag) is in `tables`, reading a hand in `parse`, what a hand
must not say in `checks`, the payments between the players in `score`, the round's money
sheet in `sheet`. Every reading of the seed is explained, with the Czech original, in
docs/rulesets/gp-vysociny-2004.md; the genuinely open ones are the options of this ruleset.
"""

from __future__ import annotations

from typing import Any

from scoring import rules
from scoring.errors import ErrorCollector
from scoring.rules.base import SHEET_MONEY, Announcement, ContraLevel, Game, Mode, Ruleset
from scoring.rules.gp_vysociny import checks, parse, score, sheet
from scoring.rules.gp_vysociny.tables import (
    CALLED_TAROKS,
    HELD_HLASKY,
    MODE,
    MONEY,
    OPTIONS,
    PENALTIES,
    PLAYED_HLASKY,
    RATE_PER_EYE,
    SEATS,
    SEED,
    TRICKS_IN_DEAL,
    VARSAVA_FOREHAND_PAY_NO_TRICK,
    VARSAVA_FOREHAND_PAY_OTHER,
    VARSAVA_PAY_NO_TRICK,
    VARSAVA_PAY_OTHER,
    VARSAVA_RENONS_FINE,
)


class GpVysocinyRuleset(Ruleset):
    code = "gp-vysociny-2004"
    family = "taroky"
    title = ("Taroky: tournament rules of the GP Vysočiny and GP Povodí Křetínky a Svitavy "
             "(Bystré, 31 Oct 2004)")
    source = (f"seed {SEED}: 'Pravidla hry taroky pro pořádání tarokových "
              "turnajů v rámci GP Vysočiny a GP Povodí Křetínky a Svitavy'")
    docs = "docs/rulesets/gp-vysociny-2004.md"
    unit = "haler"
    money = MONEY
    modes = {MODE: Mode(MODE, SEATS, SEATS)}
    default_mode = MODE
    games = (
        Game("povinnost", "základní povinnost", RATE_PER_EYE["povinnost"], (MODE,), "points",
             {"rate_per_eye": {"0": 5, "1": 10, "2": 20, "3": 40},
              "renons": {"0": 100, "1": 200, "2": 400, "3": 800},
              "sides": "declarer and the holder of the called tarok against two; "
                       "alone when the declarer bought the called tarok",
              "called": list(CALLED_TAROKS)}),
        Game("druha_povinnost", "druhá povinnost", RATE_PER_EYE["druha_povinnost"], (MODE,),
             "points",
             {"rate_per_eye": {"0": 5, "1": 10, "2": 20, "3": 40},
              "renons": {"0": 100, "1": 200, "2": 400, "3": 800},
              "sides": "as základní povinnost; the declarer must win the last trick "
                       "with the pagát (scored as his announced pagát)",
              "called": list(CALLED_TAROKS)}),
        Game("preferanc_1", "preferanc, první zdvih", RATE_PER_EYE["preferanc_1"], (MODE,),
             "points",
             {"rate_per_eye": {"0": 5, "1": 10, "2": 20, "3": 40},
              "renons": {"0": 100, "1": 200, "2": 400, "3": 800},
              "sides": "one against three"}),
        Game("preferanc_2", "preferanc, druhý zdvih", RATE_PER_EYE["preferanc_2"], (MODE,),
             "points",
             {"rate_per_eye": {"0": 10, "1": 20, "2": 40, "3": 80},
              "renons": {"0": 200, "1": 400, "2": 800, "3": 1600},
              "sides": "one against three"}),
        Game("preferanc_3", "preferanc, třetí zdvih", RATE_PER_EYE["preferanc_3"], (MODE,),
             "points",
             {"rate_per_eye": {"0": 20, "1": 40, "2": 80, "3": 160},
              "renons": {"0": 300, "1": 600, "2": 1200, "3": 2400},
              "sides": "one against three"}),
        Game("solo", "sólo", RATE_PER_EYE["solo"], (MODE,), "points",
             {"rate_per_eye": {"0": 40, "1": 80, "2": 160, "3": 320},
              "renons": {"0": 400, "1": 800, "2": 1600, "3": 3200},
              "sides": "one against three, the talon goes to the opponents"}),
        Game("varsava", "Varšava", None, (MODE,), "individual",
             {"payments": {"no_trick": VARSAVA_PAY_NO_TRICK, "other": VARSAVA_PAY_OTHER,
                           "forehand_no_trick": VARSAVA_FOREHAND_PAY_NO_TRICK,
                           "forehand_other": VARSAVA_FOREHAND_PAY_OTHER},
              "renons": VARSAVA_RENONS_FINE,
              "sides": "every player for himself; the most eyes pays"}),
    )
    announcements = tuple(
        Announcement(code, name, value, None, (MODE,), kind="held")
        for code, (name, value) in HELD_HLASKY.items()
    ) + tuple(
        Announcement(code, name, announced, silent, (MODE,))
        for code, (name, announced, silent) in PLAYED_HLASKY.items()
    )
    contra_levels = (
        ContraLevel(1, "flek", 2),
        ContraLevel(2, "re", 4),
        ContraLevel(3, "sup", 8),
    )
    options = OPTIONS
    penalties = PENALTIES
    # money rules have no radelci: nothing carries from hand to hand
    carries_state = False
    # "Samokontrola hry u stolu: ... provést zápis včetně startovních čísel do příslušné karty"
    accepts_sheet = True
    sheet = SHEET_MONEY
    score_label = MONEY.currency
    parse_hand = staticmethod(parse.parse_hand)  # type: ignore[assignment]
    check_hand = staticmethod(checks.check_hand)  # type: ignore[assignment]
    score_hand = staticmethod(score.score_hand)  # type: ignore[assignment]

    def hand_schema(self) -> dict[str, Any]:
        schema = super().hand_schema()
        props = schema["properties"]
        for unused in parse.UNUSED_CONTRACT_FIELDS:
            props.pop(unused, None)
        props["called"] = {"enum": list(CALLED_TAROKS)}
        props["tricks_by_player"]["additionalProperties"]["maximum"] = TRICKS_IN_DEAL
        props["contras"]["items"]["properties"]["on"] = {"enum": ["game"]}
        ann_props = props["announcements"]["items"]["properties"]
        ann_props.pop("held", None)
        schema["additionalProperties"] = False
        return schema

    def score_sheet(self, sheet_: dict[str, Any], options: dict[str, Any],
                    errors: ErrorCollector) -> dict[str, Any] | None:
        return sheet.score_sheet(self, sheet_, options, errors)


rules.register(GpVysocinyRuleset())

__all__ = ["GpVysocinyRuleset"]
