"""The Tarok.net rules: `tarok-net-2007` (seed 000, rules v1.06 of 5 May 2007) and
`tarok-net-revised` (seed 002, the later revision), each in the modes `tri+1` (§3, the
competition rules), `two` (§2.2, in `two`), `three` (§2.3) and `four` (§2.4, calling a king).

This module declares the two rulesets; the values are in `tables`, reading a hand in
`parse`, what a hand must not say in `checks`, the scoring in `score`. Every reading of an
open clause is documented in docs/rulesets/tarok-net-2007.md and
docs/rulesets/tarok-net-revised.md and, where the text is genuinely open, is a named option
whose default is the literal reading.
"""

from __future__ import annotations

from typing import Any

from scoring import rules
from scoring.rules.base import (
    PER_PLAYER,
    SHEET_POINTS,
    SHEET_TRI1,
    Announcement,
    ContraLevel,
    Game,
    Mode,
    Ruleset,
)
from scoring.rules.tarok_net import checks, hand, parse, score
from scoring.rules.tarok_net.tables import (
    ALL_MODES,
    ANNOUNCEMENT_NAMES,
    ANNOUNCEMENT_VALUES,
    FOUR,
    FOUR_HANDED_GAMES,
    HELD_ANNOUNCED,
    HELD_SILENT,
    KRALJ_ULTIMO_ALONE,
    KRALJ_ULTIMO_WITH_PARTNER,
    RADELC_GAMES_2007,
    RADELC_GAMES_REVISED,
    RENONS_CLAUSES,
    SEED_2007,
    SEED_REVISED,
    THREE,
    THREE_HANDED_GAMES,
    TRI1,
    TWO,
    TWO_HANDED_GAMES,
    TWO_LOST_FACTOR,
    TWO_ORDINARY_FACTOR,
    TWO_WON_FACTOR,
    options,
    penalties,
)


class TarokNetRuleset(Ruleset):
    """Both Tarok.net versions; `revised` selects the revision's contra and klop rules."""

    family = "slovenian"

    modes = {
        # §3: "trije igrajo, talon počiva"; a table of three plays it without a resting player
        TRI1: Mode(TRI1, 4, 3, other_seat_counts=(3,)),
        # §2.2 "Tarok v dveh": no announcements, kontra, radelci or penalties in its text
        TWO: Mode(TWO, 2, 2, contras=False, penalty_kinds=(), carries_state=False),
        THREE: Mode(THREE, 3, 3),  # §2.3 "Tarok v treh"
        FOUR: Mode(FOUR, 4, 4),  # §2.4 "Tarok v štirih (ali klicanje kralja)"
    }
    default_mode = None
    # §4.2: "Tarok se igra po sistemu tri + 1 (lahko tudi drugače v kolikor organizator tako
    # razpiše)"
    league_mode = TRI1
    contra_levels = (ContraLevel(1, "kontra", 2), ContraLevel(2, "rekontra", 4))
    carries_state = True
    sheet = SHEET_POINTS
    sheet_by_mode = {TRI1: SHEET_TRI1}
    card_type = hand.TarokNetCard
    parse_hand = staticmethod(parse.parse_hand)  # type: ignore[assignment]
    check_hand = staticmethod(checks.check_hand)  # type: ignore[assignment]
    score_hand = staticmethod(score.score_hand)  # type: ignore[assignment]

    def __init__(self, *, revised: bool) -> None:
        self.revised = revised
        seed = SEED_REVISED if revised else SEED_2007
        if revised:
            self.code = "tarok-net-revised"
            self.title = "Tarok.net rules, later revision (undated)"
            self.source = f"{seed}: Tarok.net 'Pravila taroka', undated revision"
            self.docs = "docs/rulesets/tarok-net-revised.md"
        else:
            self.code = "tarok-net-2007"
            self.title = "Tarok.net rules v1.06 (5 May 2007)"
            self.source = f"{seed}: Tarok.net 'Pravila taroka', verzija 1.06 (01), 5. maj 2007"
            self.docs = "docs/rulesets/tarok-net-2007.md"
        self.radelc_games = RADELC_GAMES_REVISED if revised else RADELC_GAMES_2007
        self.games = self._describe_games()
        self.announcements = self._describe_announcements()
        self.options = options(revised)
        self.penalties = penalties(seed)

    def state_fields(self, options: dict[str, Any]) -> dict[str, str]:
        # §3.4 radelci, and §3.9 g "1. -20, 2. -40, 3. -60": the misdeals counted so far
        return {"radelci": PER_PLAYER, "misdeals": PER_PLAYER}

    # -- description -----------------------------------------------------------------------
    def _describe_games(self) -> tuple[Game, ...]:
        out = []
        three = {c: (n, v, d) for c, n, v, d in THREE_HANDED_GAMES}
        four = {c: (n, v, pv, d) for c, n, v, pv, d in FOUR_HANDED_GAMES}
        for code in dict.fromkeys([c for c, *_ in THREE_HANDED_GAMES]
                                  + [c for c, *_ in FOUR_HANDED_GAMES]):
            if code in three and code in four and three[code][1] == four[code][1]:
                n, v, d = three[code]
                out.append(Game(code, n, v, ALL_MODES, d,
                                {"partner_value": four[code][2],
                                 "radelc_in_tri+1": code in self.radelc_games}))
                continue
            if code in three:
                n, v, d = three[code]
                out.append(Game(code, n, v, (TRI1, THREE), d,
                                {"radelc_in_tri+1": code in self.radelc_games}))
            if code in four:
                n, v, pv, d = four[code]
                out.append(Game(code, n, v, (FOUR,), d, {"partner_value": pv}))
        factors = {"igram": {"won_factor": TWO_WON_FACTOR, "lost_factor": TWO_LOST_FACTOR},
                   "navadna": {"factor": TWO_ORDINARY_FACTOR,
                               "per_player": ["points_by_player"]}}
        for code, n, d in TWO_HANDED_GAMES:
            out.append(Game(code, n, None, (TWO,), d, factors[code]))
        return tuple(out)

    def _describe_announcements(self) -> tuple[Announcement, ...]:
        out = []
        for code, (sx, sy, ax, ay) in ANNOUNCEMENT_VALUES.items():
            extra: dict[str, Any] = {"silent_second_value": sy, "announced_second_value": ay}
            if code == "valat":
                extra["note"] = "only silent: an announced valat is one of the valat games"
            if self.revised and code in ("trula", "pagat_ultimo"):
                extra["held_values"] = {"silent": HELD_SILENT, "announced": HELD_ANNOUNCED}
            out.append(Announcement(code, ANNOUNCEMENT_NAMES[code], ax, sx, ALL_MODES, extra))
        out.append(Announcement(
            "kralj_ultimo", "kralj ultimo", KRALJ_ULTIMO_WITH_PARTNER[2],
            KRALJ_ULTIMO_WITH_PARTNER[0], (FOUR,),
            {"silent_second_value": KRALJ_ULTIMO_WITH_PARTNER[1],
             "announced_second_value": KRALJ_ULTIMO_WITH_PARTNER[3],
             "alone": {"silent": KRALJ_ULTIMO_ALONE[0], "announced": KRALJ_ULTIMO_ALONE[2]}}))
        return tuple(out)

    def hand_schema(self) -> dict[str, Any]:
        schema = super().hand_schema()
        props = schema["properties"]
        props["game"] = {"enum": sorted(hand.ALL_GAME_CODES)}
        schema["required"] = []
        schema["additionalProperties"] = False
        ann = props["announcements"]["items"]
        ann["required"] = ["name", "by", "announced"]
        ann["additionalProperties"] = False
        props["contras"]["items"]["properties"]["level"] = {"enum": [1, 2]}
        props["contras"]["items"]["additionalProperties"] = False
        pen = props["penalties"]["items"]
        pen["properties"]["clause"] = {"enum": list(RENONS_CLAUSES)}
        pen["additionalProperties"] = False
        schema["description"] = (
            "game is required except on a void hand (penalties misdeal / no_tarok only); "
            "announcements[].achieved is required unless the hand has a renons")
        return schema


TAROK_NET_2007 = rules.register(TarokNetRuleset(revised=False))
TAROK_NET_REVISED = rules.register(TarokNetRuleset(revised=True))

__all__ = ["TAROK_NET_2007", "TAROK_NET_REVISED", "TarokNetRuleset"]
