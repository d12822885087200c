"""Scoring of the Tarok.net rules: `tarok-net-2007` (seed 000, rules v1.06 of 5 May 2007) and
`tarok-net-revised` (seed 002, the later revision), each in the modes `tri+1` (§3, the
competition rules), `three` (§2.3) and `four` (§2.4, calling a king).

Responsible for: the value tables of both versions, the validation of every hand of a
scorecard (every problem is reported with its hand and field), and the scoring of a validated
card hand by hand: game and difference, announcements and silent realisations, kontra and
rekontra with the reciprocal shares of each version, klop, radelci, renons and the other
penalties of §3.9. Every reading of an open clause is documented in
docs/rulesets/tarok-net-2007.md and docs/rulesets/tarok-net-revised.md and, where the text is
genuinely open, is a named option whose default is the literal reading.

Amounts are computed in sixths of a point so that the halves and thirds of the contra tables
stay exact; each written amount is rounded once (option `rounding`) before radelci double it.
"""

from __future__ import annotations

from typing import Any

from scoring import rules
from scoring.errors import ErrorCollector
from scoring.rules.base import Announcement, ContraLevel, Game, Option, Ruleset
from scoring.rules.checks import is_int as _is_int

SEED_2007 = "000_fa81ee5593b5d5a5.txt"
SEED_REVISED = "002_a6ef6ef54e4fc343.txt"

TRI1 = "tri+1"
THREE = "three"
FOUR = "four"
ALL_MODES = (TRI1, THREE, FOUR)

POINTS = "points"
TRICKS = "tricks"
KLOP = "klop"

# Card points needed to win: "Igra je dobljena, če igralec zbere 36 točk ali več" (§3.7).
WIN_AT = 36
HALF = 35
# "ne sme zbrati več kot 1/4 vseh možnih točk (torej največ 17 ali manj)" (2007 §3.8)
KLOP_CONTRA_LIMIT_2007 = 17
# "ne sme zbrati več kot 15 točk" (revision §3.8), penalties 35 (kontra) and 70 (rekontra)
KLOP_CONTRA_LIMIT_REVISED = 15
KLOP_PENALTY_REVISED = {1: 35, 2: 70}
# "igralec je poln, če zbere 35 točk ali več" (§3.8)
KLOP_FULL_AT = 35
KLOP_FULL_SCORE = 70
# "Točkovanje renonsov: -vrednost igre + -35 + -napovedane posebne napovedi" (§3.9)
RENONS_BASE = 35
MOND_PENALTY = 21
MISDEAL_STEP = 20

# -- game tables ------------------------------------------------------------------------

# (code, name, value, decided_by); §2.3 and §3.5 give the same table in both versions.
_THREE_HANDED_GAMES = (
    ("trojka", "trojka", 10, POINTS),
    ("dvojka", "dvojka", 30, POINTS),
    ("enka", "enka", 50, POINTS),
    ("berac", "berač (brez talona)", 70, TRICKS),
    ("solo_brez", "solo brez talona", 80, POINTS),
    ("barvni_valat_tri", "tri – napovedani barvni valat", 125, TRICKS),
    ("barvni_valat_dva", "dva – napovedani barvni valat", 150, TRICKS),
    ("barvni_valat_ena", "ena – napovedani barvni valat", 175, TRICKS),
    ("barvni_valat_brez", "brez – napovedani barvni valat", 250, TRICKS),
    ("valat_tri", "tri – napovedani valat", 250, TRICKS),
    ("valat_dva", "dva – napovedani valat", 300, TRICKS),
    ("valat_ena", "ena – napovedani valat", 350, TRICKS),
    ("valat_brez", "brez talona – napovedani valat", 500, TRICKS),
    ("klop", "klop", None, KLOP),
)

# (code, name, value, partner value or None for solo games, decided_by); §2.4 of both.
_FOUR_HANDED_GAMES = (
    ("trojka", "trojka", 10, 5, POINTS),
    ("dvojka", "dvojka", 20, 10, POINTS),
    ("enka", "enka", 30, 15, POINTS),
    ("solo_tri", "solo tri", 40, None, POINTS),
    ("solo_dva", "solo dva", 50, None, POINTS),
    ("solo_ena", "solo ena", 60, None, POINTS),
    ("berac", "berač (brez talona)", 70, None, TRICKS),
    ("solo_brez", "solo brez talona", 80, None, POINTS),
    ("barvni_valat_tri", "tri – napovedani barvni valat", 100, 50, TRICKS),
    ("barvni_valat_dva", "dva – napovedani barvni valat", 110, 55, TRICKS),
    ("barvni_valat_ena", "ena – napovedani barvni valat", 120, 60, TRICKS),
    ("barvni_valat_solo_tri", "solo tri – napovedani barvni valat", 125, None, TRICKS),
    ("barvni_valat_solo_dva", "solo dva – napovedani barvni valat", 150, None, TRICKS),
    ("barvni_valat_solo_ena", "solo ena – napovedani barvni valat", 175, None, TRICKS),
    ("barvni_valat_brez", "solo brez – napovedani barvni valat", 250, None, TRICKS),
    ("valat_tri", "tri – napovedani valat", 200, 100, TRICKS),
    ("valat_dva", "dva – napovedani valat", 220, 110, TRICKS),
    ("valat_ena", "ena – napovedani valat", 240, 120, TRICKS),
    ("valat_solo_tri", "solo tri – napovedani valat", 250, None, TRICKS),
    ("valat_solo_dva", "solo dva – napovedani valat", 300, None, TRICKS),
    ("valat_solo_ena", "solo ena – napovedani valat", 350, None, TRICKS),
    ("valat_brez", "solo brez – napovedani valat", 500, None, TRICKS),
    ("klop", "klop", None, None, KLOP),
)

# Games with a called king in four (a partner may hold it): "Preden igralec pogleda talon,
# mora klicati kralja" (§2.4, trojka/dvojka/enka; the "x / y" rows of the table).
_CALLED_KING_GAMES = frozenset({"trojka", "dvojka", "enka"})

# §3.4: "Radelc pridobijo vsi igralci pri visokih igrah (berač, solo brez, barvni valat in
# valat) in klopu" (2007); the revision drops solo brez.
_RADELC_GAMES_2007 = frozenset(
    {"berac", "solo_brez"}
    | {c for c, _, _, d in _THREE_HANDED_GAMES if c.startswith(("barvni_valat", "valat"))}
)
_RADELC_GAMES_REVISED = _RADELC_GAMES_2007 - {"solo_brez"}


class GameSpec:
    """One game of one mode, as the scorer needs it."""

    __slots__ = ("code", "name", "value", "partner_value", "decided_by", "partner_game",
                 "called_king")

    def __init__(self, code: str, name: str, value: int | None, partner_value: int | None,
                 decided_by: str, mode: str) -> None:
        self.code = code
        self.name = name
        self.value = value
        self.partner_value = partner_value
        self.decided_by = decided_by
        self.partner_game = partner_value is not None
        self.called_king = mode == FOUR and code in _CALLED_KING_GAMES


def _game_specs() -> dict[str, dict[str, GameSpec]]:
    specs: dict[str, dict[str, GameSpec]] = {}
    for mode in (TRI1, THREE):
        specs[mode] = {c: GameSpec(c, n, v, None, d, mode) for c, n, v, d in _THREE_HANDED_GAMES}
    specs[FOUR] = {c: GameSpec(c, n, v, pv, d, FOUR) for c, n, v, pv, d in _FOUR_HANDED_GAMES}
    return specs


_SPECS = _game_specs()
_ALL_GAME_CODES = frozenset(c for m in _SPECS.values() for c in m)

# -- announcements ------------------------------------------------------------------------

ANNOUNCEMENT_NAMES = {
    "kralji": "kralji",
    "trula": "trula",
    "pagat_ultimo": "pagat ultimo",
    "kralj_ultimo": "kralj ultimo",
    "valat": "valat",
}
# (silent x, silent y, announced x, announced y): x is written by the player who plays the
# item (declarer, or the defender who announced/realised it), y by his partner or fellow
# defender(s): the "x / y" columns of §2.4 and the Brani1-N / Brani2 columns of §3.6 b).
_ANNOUNCEMENT_VALUES = {
    "kralji": (10, 10, 20, 10),
    "trula": (10, 10, 20, 10),
    "pagat_ultimo": (25, 10, 50, 25),
    "valat": (50, 50, None, None),
}
# §2.4: "kralj ultimo (vleče soigralec) 10 / 10 (napovedani 20 / 10)",
#       "kralj ultimo (vleče sam) 25 / 10 (napovedani 50 / 25)"
_KRALJ_ULTIMO_WITH_PARTNER = (10, 10, 20, 10)
_KRALJ_ULTIMO_ALONE = (25, 10, 50, 25)
# Revision "Posebnosti": held trula: "realizirana trula piše le +5 točk, napovedana pa -/+10
# točk in realiziran pagat ultimo -/+5 točk, napovedani -/+10 točk".
_HELD_SILENT = 5
_HELD_ANNOUNCED = 10

PENALTY_KINDS = ("renons", "mond", "misdeal", "no_tarok")
_VOID_KINDS = frozenset({"misdeal", "no_tarok"})
_RENONS_CLAUSES = ("a", "b", "c", "d", "e", "f")

_HAND_FIELDS = frozenset({
    "game", "declarer", "partner", "resting", "forehand", "points", "won",
    "points_by_player", "tricks_by_player", "announcements", "contras", "penalties",
})
_ANNOUNCEMENT_FIELDS = frozenset({"name", "by", "announced", "achieved", "held"})
_CONTRA_FIELDS = frozenset({"on", "by", "level"})
_PENALTY_FIELDS = frozenset({"kind", "player", "clause"})

CONTRA_NAMES = {1: "kontra", 2: "rekontra"}

# Revision: what a partner / fellow defender writes under a failed item, as a multiple of
# his uncontra'd share y (= T/2): "-T / 2", "-T * 2/ 3", "-T" (§2.4 b, §3.6 b.2).
_REVISED_ASSOCIATE_LOSS_NUM = {0: (1, 1), 1: (4, 3), 2: (2, 1)}


# -- rounding ------------------------------------------------------------------------------

def _round_sixths_away(v6: int) -> int:
    q = (abs(v6) + 3) // 6
    return q if v6 >= 0 else -q


def _round_sixths_toward(v6: int) -> int:
    q = (abs(v6) + 2) // 6
    return q if v6 >= 0 else -q


def _round_sixths_even(v6: int) -> int:
    a = abs(v6)
    q, r = divmod(a, 6)
    if r > 3 or (r == 3 and q % 2 == 1):
        q += 1
    return q if v6 >= 0 else -q


_ROUNDERS = {
    "half_away_from_zero": _round_sixths_away,
    "half_toward_zero": _round_sixths_toward,
    "half_to_even": _round_sixths_even,
}


def _fmt(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


# -- normalised hand ---------------------------------------------------------------------------

class _Ann:
    __slots__ = ("name", "by", "announced", "achieved", "held", "declarer_side", "level",
                 "contra_by")

    def __init__(self, name: str, by: str, announced: bool, achieved: bool | None,
                 held: bool, declarer_side: bool) -> None:
        self.name = name
        self.by = by
        self.announced = announced
        self.achieved = achieved
        self.held = held
        self.declarer_side = declarer_side
        self.level = 0
        self.contra_by: str | None = None


class _Hand:
    __slots__ = ("spec", "declarer", "partner", "resting", "in_hand", "points", "won",
                 "points_by_player", "tricks_by_player", "announcements", "game_level",
                 "game_contra_by", "klop_contras", "penalties", "renons", "void")

    def __init__(self) -> None:
        self.spec: GameSpec | None = None
        self.declarer: str | None = None
        self.partner: str | None = None
        self.resting: str | None = None
        self.in_hand: list[str] = []
        self.points: int | None = None
        self.won: bool | None = None
        self.points_by_player: dict[str, int] | None = None
        self.tricks_by_player: dict[str, int] | None = None
        self.announcements: list[_Ann] = []
        self.game_level = 0
        self.game_contra_by: str | None = None
        self.klop_contras: list[str] = []  # who said kontra, then rekontra
        self.penalties: list[tuple[str, str, str | None]] = []
        self.renons = False
        self.void = False


class TarokNetRuleset(Ruleset):
    """Both Tarok.net versions; `revised` selects the revision's contra and klop rules."""

    modes = {TRI1: (4, 3), THREE: (3, 3), FOUR: (4, 4)}
    allowed_seat_counts = {TRI1: (4, 3)}
    default_mode = None
    contra_levels = (ContraLevel(1, "kontra", 2), ContraLevel(2, "rekontra", 4))
    penalty_kinds = PENALTY_KINDS
    accepts_initial_state = True

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
        self.radelc_games = _RADELC_GAMES_REVISED if revised else _RADELC_GAMES_2007
        self.games = self._describe_games()
        self.announcements = self._describe_announcements()
        self.options = self._options()

    # -- description -----------------------------------------------------------------------
    def _describe_games(self) -> tuple[Game, ...]:
        out = []
        three = {c: (n, v, d) for c, n, v, d in _THREE_HANDED_GAMES}
        four = {c: (n, v, pv, d) for c, n, v, pv, d in _FOUR_HANDED_GAMES}
        for code in dict.fromkeys([c for c, *_ in _THREE_HANDED_GAMES]
                                  + [c for c, *_ in _FOUR_HANDED_GAMES]):
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
        return tuple(out)

    def _describe_announcements(self) -> tuple[Announcement, ...]:
        out = []
        for code, (sx, sy, ax, ay) in _ANNOUNCEMENT_VALUES.items():
            extra: dict[str, Any] = {"silent_second_value": sy, "announced_second_value": ay}
            if code == "valat":
                extra["note"] = "only silent: an announced valat is one of the valat games"
            if self.revised and code in ("trula", "pagat_ultimo"):
                extra["held_values"] = {"silent": _HELD_SILENT, "announced": _HELD_ANNOUNCED}
            out.append(Announcement(code, ANNOUNCEMENT_NAMES[code], ax, sx, ALL_MODES, extra))
        out.append(Announcement(
            "kralj_ultimo", "kralj ultimo", _KRALJ_ULTIMO_WITH_PARTNER[2],
            _KRALJ_ULTIMO_WITH_PARTNER[0], (FOUR,),
            {"silent_second_value": _KRALJ_ULTIMO_WITH_PARTNER[1],
             "announced_second_value": _KRALJ_ULTIMO_WITH_PARTNER[3],
             "alone": {"silent": _KRALJ_ULTIMO_ALONE[0], "announced": _KRALJ_ULTIMO_ALONE[2]}}))
        return tuple(out)

    def _options(self) -> tuple[Option, ...]:
        seed = SEED_REVISED if self.revised else SEED_2007
        opts = [
            Option("rounding", "half_away_from_zero", tuple(_ROUNDERS),
                   "How a written amount with a fraction (a partner's half of 15, a contra "
                   "share of T/2 or T*2/3) is rounded to a whole point.",
                   f'{seed} §3.3: "zaokrožuje se na 1"'),
            Option("radelc_doubles_defenders", False, (False, True),
                   "Whether the declarer's radelc also doubles what the other players write "
                   "in his game (contra shares, the defenders' announcements).",
                   f'{seed} §3.4: "Radelc podvoji celoten seštevek točk igre"; §2.3: "Če ima '
                   'igralec refe, se mu točke pri igri podvojijo"'),
            Option("partner_radelc", "declarer", ("declarer", "own"),
                   "four: whose radelc doubles the partner's points: the declarer's "
                   "('tudi soigralcu') or the partner's own.",
                   f'{seed} §2.4: "Če ima igralec refe, se mu točke pri igri podvojijo '
                   '(tudi soigralcu)"'),
            Option("radelci_for_resting_player", True, (True, False),
                   "tri+1: whether the resting player also gains a radelc from a high game.",
                   f'{seed} §3.4: "Radelc pridobijo vsi igralci pri visokih igrah"'),
            Option("radelci_after_renons", True, (True, False),
                   "Whether a klop or high game ended by a renons still gives radelci.",
                   f'{seed} §3.4: "Radelc pridobijo vsi igralci pri visokih igrah ... in '
                   'klopu"'),
            Option("klop_points_tolerance", 1, (0, 1),
                   "How far the klop points of the players may be from 70: counting every "
                   "pile by threes can gain or lose one point.",
                   f'{seed} §2.1: "Sešteva se vedno vrednost treh kart in odšteje 2"'),
            Option("klop_contra_on_full_and_no_trick", False, (False, True),
                   "tri+1 klop: whether a kontra on klop also doubles the -70 of a full "
                   "player and the +70 of a player without a trick.",
                   f'{seed} §3.8: "piše le ta +70 točk, ostali 0 točk"'),
            Option("misdeal_count", "player", ("player", "table"),
                   "Whether the 1st, 2nd, 3rd misdeal (-20, -40, -60) is counted per player "
                   "or for the whole table.",
                   f'{seed} §3.9 g: "nepravilna razdelitev kart, (v vsakem primeru: 1. -20, '
                   '2. -40, 3. -60 itd.)"'),
        ]
        if self.revised:
            opts.append(Option(
                "held_trula_second_share", "same", ("same", "half"),
                "Posebnosti (held trula): whether the partner or fellow defender writes the "
                "same reduced value (+5 / -+10) as the player, or half of it.",
                f'{seed} §3.5 Posebnosti: "V kolikor ima igralec (oz. branilca) v listu (ob '
                'začetku igre) trulo, se realizirana trula piše le +5 točk"'))
        return tuple(opts)

    def hand_schema(self) -> dict[str, Any]:
        schema = super().hand_schema()
        props = schema["properties"]
        props["game"] = {"enum": sorted(_ALL_GAME_CODES)}
        schema["required"] = []
        schema["additionalProperties"] = False
        ann = props["announcements"]["items"]
        ann["required"] = ["name", "by", "announced"]
        ann["additionalProperties"] = False
        props["contras"]["items"]["properties"]["level"] = {"enum": [1, 2]}
        props["contras"]["items"]["additionalProperties"] = False
        pen = props["penalties"]["items"]
        pen["properties"]["clause"] = {"enum": list(_RENONS_CLAUSES)}
        pen["additionalProperties"] = False
        schema["description"] = (
            "game is required except on a void hand (penalties misdeal / no_tarok only); "
            "announcements[].achieved is required unless the hand has a renons")
        return schema

    # -- scoring entry point --------------------------------------------------------------------
    def score(
        self,
        mode: str,
        players: list[str],
        hands: list[dict[str, Any]],
        options: dict[str, Any],
        errors: ErrorCollector,
        initial_state: Any = None,
    ) -> list[dict[str, Any]] | None:
        radelci, misdeals = self._initial_state(players, initial_state, errors)
        pset = frozenset(players)
        with_resting = mode == TRI1 and len(players) == 4
        ctx = _Context(self, mode, players, pset, with_resting, options)
        results: list[dict[str, Any]] = []
        for i, raw in enumerate(hands):
            hand = self._validate(i, raw, ctx, errors)
            if hand is not None and not errors:
                results.append(ctx.score_hand(hand, radelci, misdeals))
        if errors:
            return None
        return results

    def _initial_state(self, players: list[str], given: Any,
                       errors: ErrorCollector) -> tuple[dict[str, int], dict[str, int]]:
        radelci = {p: 0 for p in players}
        misdeals = {p: 0 for p in players}
        if given is None:
            return radelci, misdeals
        if not isinstance(given, dict):
            errors.add(None, "initial_state", "not_an_object",
                       "initial_state must be an object like {\"radelci\": {player: count}}")
            return radelci, misdeals
        for key, value in given.items():
            if key == "radelci":
                target = radelci
            elif key == "misdeals":
                target = misdeals
            else:
                errors.add(None, f"initial_state.{key}", "unknown_field",
                           f"initial_state has no field {key!r} (fields: radelci, misdeals)")
                continue
            if not isinstance(value, dict):
                errors.add(None, f"initial_state.{key}", "not_an_object",
                           f"initial_state.{key} must be an object {{player: count}}")
                continue
            for p, n in value.items():
                if p not in target:
                    errors.add(None, f"initial_state.{key}.{p}", "not_a_player",
                               f"{p!r} is not a player of this card", player=p)
                elif not _is_int(n) or n < 0:
                    errors.add(None, f"initial_state.{key}.{p}", "invalid_count",
                               f"initial_state.{key}.{p} must be a whole number >= 0, got {n!r}",
                               player=p)
                else:
                    target[p] = n
        return radelci, misdeals

    # -- validation ---------------------------------------------------------------------------
    def _validate(self, i: int, hand: dict[str, Any], ctx: _Context,
                  errors: ErrorCollector) -> _Hand | None:
        start = len(errors)
        add = errors.add
        h = _Hand()
        for key in hand:
            if key not in _HAND_FIELDS:
                add(i, str(key), "unknown_field",
                    f"a hand has no field {key!r} (fields: {', '.join(sorted(_HAND_FIELDS))})")

        self._validate_penalties(i, hand.get("penalties"), ctx, h, errors)

        game = hand.get("game")
        if game is None:
            kinds = {k for k, _, _ in h.penalties}
            if h.penalties and kinds <= _VOID_KINDS:
                h.void = True
                for key in hand:
                    if key not in ("penalties", "game", "resting", "forehand") and \
                            key in _HAND_FIELDS:
                        add(i, key, "field_not_allowed",
                            f"{key} is not used on a void hand (misdeal / no tarok)")
                self._validate_resting(i, hand, ctx, h, errors, void=True)
                return h if len(errors) == start else None
            add(i, "game", "missing",
                "game is required (only a void hand with misdeal / no_tarok has none)")
            return None
        if not isinstance(game, str):
            add(i, "game", "not_a_string", f"game must be a game code, got {game!r}")
            return None
        spec = ctx.specs.get(game)
        if spec is None:
            if game in _ALL_GAME_CODES:
                add(i, "game", "game_not_in_mode",
                    f"game {game} is not played in mode {ctx.mode}", game=game, mode=ctx.mode)
            else:
                add(i, "game", "unknown_game", f"unknown game {game!r}", game=game)
            return None
        h.spec = spec
        for j, (kind, _, _) in enumerate(h.penalties):
            if kind == "no_tarok":
                add(i, f"penalties[{j}].kind", "no_tarok_on_played_hand",
                    "a hand where a player has no tarok is annulled (§3.9 h): record it "
                    "without a game")

        self._validate_resting(i, hand, ctx, h, errors, void=False)
        if spec.decided_by == KLOP:
            self._validate_klop(i, hand, ctx, h, errors)
        else:
            self._validate_played(i, hand, ctx, h, errors)
        forehand = hand.get("forehand")
        if forehand is not None and (not isinstance(forehand, str)
                                     or forehand not in ctx.pset):
            add(i, "forehand", "not_a_player", f"forehand {forehand!r} is not a player")
        return h if len(errors) == start else None

    def _validate_resting(self, i: int, hand: dict[str, Any], ctx: _Context, h: _Hand,
                          errors: ErrorCollector, void: bool) -> None:
        resting = hand.get("resting")
        if ctx.with_resting:
            if resting is None:
                if not void:
                    errors.add(i, "resting", "missing",
                               "tri+1 at a table of four: resting names who sits this hand out")
            elif not isinstance(resting, str) or resting not in ctx.pset:
                errors.add(i, "resting", "resting_not_a_player",
                           f"resting {resting!r} is not a player of this card")
            else:
                h.resting = resting
        elif resting is not None:
            errors.add(i, "resting", "resting_not_allowed",
                       f"nobody rests in mode {ctx.mode} with {len(ctx.players)} players")

    def _validate_penalties(self, i: int, penalties: Any, ctx: _Context, h: _Hand,
                            errors: ErrorCollector) -> None:
        if penalties is None:
            return
        if not isinstance(penalties, list):
            errors.add(i, "penalties", "not_a_list", "penalties must be a list")
            return
        seen: set[tuple[str, str]] = set()
        monds = 0
        for j, pen in enumerate(penalties):
            f = f"penalties[{j}]"
            if not isinstance(pen, dict):
                errors.add(i, f, "not_an_object", f"{f} must be an object")
                continue
            ok = True
            for key in pen:
                if key not in _PENALTY_FIELDS:
                    errors.add(i, f"{f}.{key}", "unknown_field",
                               f"a penalty has no field {key!r} (kind, player, clause)")
                    ok = False
            kind = pen.get("kind")
            player = pen.get("player")
            clause = pen.get("clause")
            if kind not in PENALTY_KINDS:
                errors.add(i, f"{f}.kind", "invalid_penalty",
                           f"unknown penalty kind {kind!r} (kinds: {', '.join(PENALTY_KINDS)})")
                ok = False
            if not isinstance(player, str) or player not in ctx.pset:
                errors.add(i, f"{f}.player", "invalid_penalty",
                           f"penalty player {player!r} is not a player of this card")
                ok = False
            if clause is not None and (kind != "renons" or clause not in _RENONS_CLAUSES):
                errors.add(i, f"{f}.clause", "invalid_penalty",
                           "clause is the letter a-f of §3.9 and only goes with a renons")
                ok = False
            if not ok:
                continue
            if kind != "misdeal" and (kind, player) in seen:
                errors.add(i, f, "duplicate_penalty",
                           f"{kind} of {player} is listed twice in this hand")
                continue
            seen.add((kind, player))
            if kind == "mond":
                monds += 1
                if monds > 1:
                    errors.add(i, f, "invalid_penalty", "there is only one mond to lose")
                    continue
            h.penalties.append((kind, player, clause))
            if kind == "renons":
                h.renons = True

    def _validate_klop(self, i: int, hand: dict[str, Any], ctx: _Context, h: _Hand,
                       errors: ErrorCollector) -> None:
        add = errors.add
        for key in ("declarer", "partner", "points", "won"):
            if hand.get(key) is not None:
                add(i, key, "field_not_allowed",
                    f"{key} is not used in klop (every player plays for himself)")
        ann = hand.get("announcements")
        if ann:
            add(i, "announcements", "announcement_not_allowed",
                "there are no announcements in klop")
        # In TRI+1 "igrajo vsi štirje igralci" in klop (§3): every player of the card plays.
        h.in_hand = list(ctx.players)
        pbp = hand.get("points_by_player")
        if pbp is None:
            if not h.renons:
                add(i, "points_by_player", "missing",
                    "klop needs the points of every player (points_by_player)")
        elif not isinstance(pbp, dict):
            add(i, "points_by_player", "not_an_object",
                "points_by_player must be an object {player: points}")
        else:
            ok = True
            for p, v in pbp.items():
                if p not in ctx.pset:
                    add(i, f"points_by_player.{p}", "not_a_player",
                        f"{p!r} is not a player of this card")
                    ok = False
                elif not _is_int(v):
                    add(i, f"points_by_player.{p}", "not_an_integer",
                        f"points of {p} must be a whole number, got {v!r}")
                    ok = False
                elif not 0 <= v <= 70:
                    add(i, f"points_by_player.{p}", "points_out_of_range",
                        f"points of {p} must be between 0 and 70, got {v}")
                    ok = False
            for p in ctx.players:
                if p not in pbp:
                    add(i, f"points_by_player.{p}", "missing",
                        f"klop needs the points of {p}")
                    ok = False
            if ok:
                total = sum(pbp.values())
                tol = ctx.options["klop_points_tolerance"]
                if abs(total - 70) > tol:
                    add(i, "points_by_player", "klop_points_do_not_add_up",
                        f"klop points add up to {total}, not 70"
                        + (f" (±{tol} allowed for counting)" if tol else ""),
                        total=total, tolerance=tol)
                else:
                    h.points_by_player = pbp
        tricks = hand.get("tricks_by_player")
        if tricks is not None:
            self._validate_tricks(i, tricks, ctx, h, errors)
        self._validate_klop_contras(i, hand.get("contras"), ctx, h, errors)

    def _validate_tricks(self, i: int, tricks: Any, ctx: _Context, h: _Hand,
                         errors: ErrorCollector) -> None:
        add = errors.add
        if not isinstance(tricks, dict):
            add(i, "tricks_by_player", "not_an_object",
                "tricks_by_player must be an object {player: tricks}")
            return
        ok = True
        for p, v in tricks.items():
            if p not in ctx.pset:
                add(i, f"tricks_by_player.{p}", "not_a_player",
                    f"{p!r} is not a player of this card")
                ok = False
            elif not _is_int(v) or v < 0:
                add(i, f"tricks_by_player.{p}", "not_an_integer",
                    f"tricks of {p} must be a whole number >= 0, got {v!r}")
                ok = False
        for p in ctx.players:
            if p not in tricks:
                add(i, f"tricks_by_player.{p}", "missing", f"tricks of {p} are missing")
                ok = False
        if not ok:
            return
        expected = 12 if ctx.mode == FOUR else (None if ctx.with_resting else 16)
        total = sum(tricks.values())
        if expected is not None and total != expected:
            add(i, "tricks_by_player", "tricks_do_not_add_up",
                f"tricks add up to {total}, not {expected}", total=total, expected=expected)
            return
        pbp = h.points_by_player
        if pbp is not None:
            for p in ctx.players:
                if (tricks[p] == 0) != (pbp[p] == 0):
                    add(i, f"tricks_by_player.{p}", "tricks_do_not_match_points",
                        f"{p} has {tricks[p]} tricks and {pbp[p]} points: every trick is "
                        "worth at least one point")
                    return
        h.tricks_by_player = tricks

    def _validate_klop_contras(self, i: int, contras: Any, ctx: _Context, h: _Hand,
                               errors: ErrorCollector) -> None:
        if contras is None:
            return
        add = errors.add
        if not isinstance(contras, list):
            add(i, "contras", "not_a_list", "contras must be a list")
            return
        for j, c in enumerate(contras):
            f = f"contras[{j}]"
            parsed = self._parse_contra(i, j, c, errors)
            if parsed is None:
                continue
            on, by, level = parsed
            if on != "klop":
                add(i, f"{f}.on", "contra_not_allowed",
                    "in klop a contra can only be given on klop (kontra klopu)")
                continue
            if ctx.mode != TRI1:
                add(i, f"{f}.on", "contra_not_allowed",
                    f"kontra on klop is a rule of the competition (§3.8, tri+1), not of mode "
                    f"{ctx.mode}")
                continue
            if by not in ctx.pset:
                add(i, f"{f}.by", "not_a_player", f"{by!r} is not a player of this card")
                continue
            if by == h.resting:
                add(i, f"{f}.by", "contra_by_wrong_side",
                    "the resting player cannot give a kontra on klop (§3.8: 'razen talona')")
                continue
            n = len(h.klop_contras)
            if n >= 2:
                add(i, f, "too_many_contras", "at most two contras: kontra and rekontra")
                continue
            if level != n + 1:
                add(i, f"{f}.level", "contra_out_of_order",
                    "kontra comes first, then rekontra" if level == 2 and n == 0
                    else "a contra at this level was already given")
                continue
            if level == 2 and by == h.klop_contras[0]:
                add(i, f"{f}.by", "contra_by_wrong_side",
                    "the rekontra answers the kontra: another player must give it")
                continue
            h.klop_contras.append(by)

    def _parse_contra(self, i: int, j: int, c: Any,
                      errors: ErrorCollector) -> tuple[str, str, int] | None:
        f = f"contras[{j}]"
        if not isinstance(c, dict):
            errors.add(i, f, "not_an_object", f"{f} must be an object")
            return None
        ok = True
        for key in c:
            if key not in _CONTRA_FIELDS:
                errors.add(i, f"{f}.{key}", "unknown_field",
                           f"a contra has no field {key!r} (on, by, level)")
                ok = False
        on, by, level = c.get("on"), c.get("by"), c.get("level")
        if not isinstance(on, str):
            errors.add(i, f"{f}.on", "missing" if on is None else "not_a_string",
                       "on names the game, an announcement or klop")
            ok = False
        if not isinstance(by, str):
            errors.add(i, f"{f}.by", "missing" if by is None else "not_a_string",
                       "by names the player who said the contra")
            ok = False
        if not _is_int(level):
            errors.add(i, f"{f}.level", "missing" if level is None else "not_an_integer",
                       "level is 1 (kontra) or 2 (rekontra)")
            ok = False
        elif level in (3, 4):
            errors.add(i, f"{f}.level", "contra_level_not_allowed",
                       "sub- and mort-kontra are not part of these rules ('ta pravila ne "
                       "obravnavajo'): at most kontra and rekontra")
            ok = False
        elif level not in (1, 2):
            errors.add(i, f"{f}.level", "invalid_contra_level",
                       f"level is 1 (kontra) or 2 (rekontra), got {level}")
            ok = False
        return (on, by, level) if ok else None

    def _validate_played(self, i: int, hand: dict[str, Any], ctx: _Context, h: _Hand,
                         errors: ErrorCollector) -> None:
        add = errors.add
        spec = h.spec
        assert spec is not None
        declarer = hand.get("declarer")
        if declarer is None:
            add(i, "declarer", "missing", f"{spec.code} needs a declarer")
        elif not isinstance(declarer, str) or declarer not in ctx.pset:
            add(i, "declarer", "declarer_not_a_player",
                f"declarer {declarer!r} is not a player of this card")
        elif declarer == h.resting:
            add(i, "declarer", "resting_player_declares",
                f"{declarer} rests this hand and cannot declare")
        else:
            h.declarer = declarer
        partner = hand.get("partner")
        if partner is not None:
            if not spec.partner_game:
                add(i, "partner", "partner_not_allowed",
                    f"{spec.code} in mode {ctx.mode} has no partner"
                    + ("" if ctx.mode == FOUR else " (partners only in four)"))
            elif not isinstance(partner, str) or partner not in ctx.pset:
                add(i, "partner", "partner_not_a_player",
                    f"partner {partner!r} is not a player of this card")
            elif partner == declarer:
                add(i, "partner", "partner_is_declarer",
                    "the partner must be another player than the declarer (a declarer who "
                    "plays alone has partner null)")
            else:
                h.partner = partner
        for key in ("points_by_player", "tricks_by_player"):
            if hand.get(key) is not None:
                add(i, key, "field_not_allowed", f"{key} is only used in klop")
        points = hand.get("points")
        won = hand.get("won")
        if spec.decided_by == POINTS:
            if won is not None:
                add(i, "won", "field_not_allowed",
                    f"{spec.code} is decided by points (36 or more wins), not by won")
            if points is None:
                if not h.renons:
                    add(i, "points", "missing",
                        "points (card points of the declarer's side, 0..70) are required")
            elif not _is_int(points):
                add(i, "points", "not_an_integer",
                    f"points must be a whole number, got {points!r}")
            elif not 0 <= points <= 70:
                add(i, "points", "points_out_of_range",
                    f"points must be between 0 and 70, got {points}", got=points)
            else:
                h.points = points
        else:
            if points is not None:
                add(i, "points", "field_not_allowed",
                    f"{spec.code} is decided by tricks: give won, not points")
            if won is None:
                if not h.renons:
                    add(i, "won", "missing", f"{spec.code} needs won (true or false)")
            elif type(won) is not bool:
                add(i, "won", "not_a_boolean", f"won must be true or false, got {won!r}")
            else:
                h.won = won
        h.in_hand = [p for p in ctx.players if p != h.resting]
        side: set[str] = set()
        if h.declarer is not None:
            side = {h.declarer} if h.partner is None else {h.declarer, h.partner}
        self._validate_announcements(i, hand.get("announcements"), ctx, h, side, errors)
        self._validate_contras(i, hand.get("contras"), ctx, h, side, errors)

    def _validate_announcements(self, i: int, anns: Any, ctx: _Context, h: _Hand,
                                side: set[str], errors: ErrorCollector) -> None:
        if anns is None:
            return
        add = errors.add
        if not isinstance(anns, list):
            add(i, "announcements", "not_a_list", "announcements must be a list")
            return
        spec = h.spec
        assert spec is not None
        seen: set[str] = set()
        for j, a in enumerate(anns):
            f = f"announcements[{j}]"
            if not isinstance(a, dict):
                add(i, f, "not_an_object", f"{f} must be an object")
                continue
            ok = True
            for key in a:
                if key not in _ANNOUNCEMENT_FIELDS:
                    add(i, f"{f}.{key}", "unknown_field",
                        f"an announcement has no field {key!r}")
                    ok = False
            name, by = a.get("name"), a.get("by")
            announced, achieved, held = a.get("announced"), a.get("achieved"), a.get("held")
            if not isinstance(name, str) or name not in ANNOUNCEMENT_NAMES:
                add(i, f"{f}.name", "unknown_announcement",
                    f"unknown announcement {name!r} "
                    f"(announcements: {', '.join(ANNOUNCEMENT_NAMES)})")
                continue
            if spec.decided_by == TRICKS:
                add(i, f"{f}.name", "announcement_not_allowed",
                    f"in {spec.code} only the game's own value counts ('Pri visokih igrah ... "
                    "se upoštevajo le točke, ki veljajo za to igro')")
                continue
            if name == "kralj_ultimo" and ctx.mode != FOUR:
                add(i, f"{f}.name", "announcement_not_allowed",
                    "kralj ultimo is a four-handed announcement (§2.4)")
                continue
            if name == "kralj_ultimo" and not spec.called_king:
                add(i, f"{f}.name", "announcement_not_allowed",
                    f"kralj ultimo needs a called king; {spec.code} has none")
                continue
            if name in seen:
                add(i, f"{f}.name", "duplicate_announcement",
                    f"{name} is listed twice in this hand")
                continue
            seen.add(name)
            if not isinstance(by, str) or by not in ctx.pset:
                add(i, f"{f}.by", "not_a_player", f"{by!r} is not a player of this card")
                ok = False
            elif by == h.resting:
                add(i, f"{f}.by", "announcement_by_resting_player",
                    f"{by} rests this hand and cannot announce or realise anything")
                ok = False
            elif name == "kralj_ultimo" and by not in side:
                add(i, f"{f}.by", "announcement_by_wrong_side",
                    "kralj ultimo is the playing pair's announcement ('bo pripadel igralcema, "
                    "ki igrata igro skupaj')")
                ok = False
            if type(announced) is not bool:
                add(i, f"{f}.announced", "missing" if announced is None else "not_a_boolean",
                    "announced is true (napoved) or false (silent realisation)")
                ok = False
            elif announced and name == "valat":
                add(i, f"{f}.announced", "announcement_not_allowed",
                    "an announced valat is a game (valat_tri ...), not an announcement")
                ok = False
            if achieved is None:
                if not h.renons:
                    add(i, f"{f}.achieved", "missing", "achieved (true or false) is required")
                    ok = False
            elif type(achieved) is not bool:
                add(i, f"{f}.achieved", "not_a_boolean", "achieved must be true or false")
                ok = False
            elif announced is False and achieved is False and name != "pagat_ultimo":
                add(i, f"{f}.achieved", "silent_not_realised",
                    f"a silent {name} that was not realised scores nothing; only a lost silent "
                    "pagat is written in minus ('izgubljeni tihi pagat')")
                ok = False
            if held is not None:
                if type(held) is not bool:
                    add(i, f"{f}.held", "not_a_boolean", "held must be true or false")
                    ok = False
                elif held and not self.revised:
                    add(i, f"{f}.held", "held_not_used",
                        "the 2007 rules score a held trula like any other (no 'Posebnosti')")
                    ok = False
                elif held and name not in ("trula", "pagat_ultimo"):
                    add(i, f"{f}.held", "held_not_used",
                        "held (trula in hand from the start) only changes trula and pagat "
                        "ultimo (Posebnosti)")
                    ok = False
            if not ok:
                continue
            declarer_side = by in side
            if name == "valat" and achieved and h.points is not None:
                need = 70 if declarer_side else 0
                if h.points != need:
                    add(i, f"{f}.achieved", "valat_points_mismatch",
                        f"a silent valat of the {'declarer' if declarer_side else 'defenders'}"
                        f" means the declarer's side has {need} points, not {h.points}")
                    continue
            h.announcements.append(_Ann(name, by, announced, achieved, bool(held),
                                        declarer_side))

    def _validate_contras(self, i: int, contras: Any, ctx: _Context, h: _Hand,
                          side: set[str], errors: ErrorCollector) -> None:
        if contras is None:
            return
        add = errors.add
        if not isinstance(contras, list):
            add(i, "contras", "not_a_list", "contras must be a list")
            return
        by_name = {a.name: a for a in h.announcements}
        for j, c in enumerate(contras):
            f = f"contras[{j}]"
            parsed = self._parse_contra(i, j, c, errors)
            if parsed is None:
                continue
            on, by, level = parsed
            ann = None
            if on == "game":
                owner_side_is_declarer = True
                current = h.game_level
            elif on == "klop":
                add(i, f"{f}.on", "contra_not_allowed", "kontra on klop only in klop")
                continue
            elif on in ANNOUNCEMENT_NAMES:
                ann = by_name.get(on)
                if ann is None:
                    add(i, f"{f}.on", "contra_on_missing_announcement",
                        f"there is no {on} in this hand's announcements to contra")
                    continue
                if not ann.announced:
                    add(i, f"{f}.on", "contra_on_silent",
                        f"the {on} is silent: 'Tihe realizacije ne gredo pod kontro'")
                    continue
                owner_side_is_declarer = ann.declarer_side
                current = ann.level
            else:
                add(i, f"{f}.on", "invalid_contra",
                    f"a contra is on 'game' or on an announcement of this hand, not {on!r}")
                continue
            if by not in ctx.pset:
                add(i, f"{f}.by", "not_a_player", f"{by!r} is not a player of this card")
                continue
            if by == h.resting:
                add(i, f"{f}.by", "contra_by_wrong_side",
                    f"{by} rests this hand and cannot give a contra")
                continue
            if h.declarer is None:
                continue
            if current >= 2:
                add(i, f, "too_many_contras",
                    f"at most two contras on {on}: kontra and rekontra ('Veljata max. dve "
                    "kontri')")
                continue
            if level != current + 1:
                add(i, f"{f}.level", "contra_out_of_order",
                    f"{CONTRA_NAMES[level]} on {on} "
                    + ("needs a kontra first" if level == 2 else "was already given"))
                continue
            by_declarer_side = by in side
            owner_says = by_declarer_side == owner_side_is_declarer
            if (level == 1 and owner_says) or (level == 2 and not owner_says):
                add(i, f"{f}.by", "contra_by_wrong_side",
                    f"a {CONTRA_NAMES[level]} on {on} is said by "
                    + ("the other side" if level == 1 else "the side that plays it"))
                continue
            if ann is None:
                h.game_level = level
                if level == 1:
                    h.game_contra_by = by
            else:
                ann.level = level
                if level == 1:
                    ann.contra_by = by


class _Context:
    """The constants of one card (mode, players, options) and the scoring of its hands,
    one validated hand at a time, with the carried radelci and misdeal counts."""

    __slots__ = ("rs", "mode", "players", "pset", "with_resting", "options", "specs",
                 "rnd", "revised", "partner_own", "double_defenders", "held_half")

    def __init__(self, rs: TarokNetRuleset, mode: str, players: list[str],
                 pset: frozenset[str], with_resting: bool, options: dict[str, Any]) -> None:
        self.rs = rs
        self.mode = mode
        self.players = players
        self.pset = pset
        self.with_resting = with_resting
        self.options = options
        self.specs = _SPECS[mode]
        self.rnd = _ROUNDERS[options["rounding"]]
        self.revised = rs.revised
        self.partner_own = options["partner_radelc"] == "own"
        self.double_defenders = options["radelc_doubles_defenders"]
        self.held_half = options.get("held_trula_second_share") == "half"

    # -- one hand ----------------------------------------------------------------------------
    def score_hand(self, h: _Hand, radelci: dict[str, int],
                   misdeals: dict[str, int]) -> dict[str, Any]:
        scores = dict.fromkeys(self.players, 0)
        lines: list[dict[str, Any]] = []
        value = 0
        spec = h.spec
        if h.void:
            pass
        elif h.renons:
            value = spec.value or 0
            self._renons(h, radelci, scores, lines)
        elif spec.decided_by == KLOP:
            self._klop(h, scores, lines)
        else:
            value = self._played(h, radelci, scores, lines)
        self._penalties(h, misdeals, scores, lines)
        self._radelci_after(h, radelci)
        return {
            "value": value,
            "scores": scores,
            "state": {"radelci": dict(radelci), "misdeals": dict(misdeals)},
            "lines": lines,
        }

    def _radelci_after(self, h: _Hand, radelci: dict[str, int]) -> None:
        spec = h.spec
        if h.void or spec is None:
            return
        if h.renons and not self.options["radelci_after_renons"]:
            return
        if spec.decided_by == KLOP:
            for p in self.players:
                radelci[p] += 1
            return
        if self.mode == TRI1 and spec.code in self.rs.radelc_games:
            for p in h.in_hand:
                radelci[p] += 1
            if h.resting is not None and self.options["radelci_for_resting_player"]:
                radelci[h.resting] += 1

    # -- played game ----------------------------------------------------------------------------
    def _played(self, h: _Hand, radelci: dict[str, int], scores: dict[str, int],
                lines: list[dict[str, Any]]) -> int:
        spec = h.spec
        declarer = h.declarer
        partner = h.partner
        if spec.decided_by == POINTS:
            won = h.points >= WIN_AT
            diff = abs(h.points - HALF)
            value = spec.value + diff
        else:
            won = h.won
            diff = 0
            value = spec.value
        own_side = [declarer] if partner is None else [declarer, partner]
        defenders = [p for p in h.in_hand if p not in own_side]
        outsiders = [h.resting] if h.resting is not None else []
        game_params = {"game": spec.code, "base": spec.value, "difference": diff,
                       "points": h.points}
        what_game = spec.name
        y6 = value * 3 if partner is not None else 0
        self._item(
            "game", spec.code, what_game, value * 6, y6, won, h.game_level, declarer,
            [partner] if partner is not None else [], h.game_contra_by,
            [p for p in defenders + outsiders if p != h.game_contra_by], scores, lines,
            game_params, f", difference {diff}" if spec.decided_by == POINTS else "")

        for ann in h.announcements:
            self._announcement(h, ann, own_side, defenders, outsiders, scores, lines)

        declarer_has = radelci[declarer] > 0
        doubled: list[str] = []
        if declarer_has:
            doubled.append(declarer)
        if partner is not None:
            if (radelci[partner] > 0) if self.partner_own else declarer_has:
                doubled.append(partner)
        if declarer_has and self.double_defenders:
            doubled.extend(defenders)
            doubled.extend(outsiders)
        for p in doubled:
            sub = scores[p]
            if sub:
                scores[p] = sub * 2
                lines.append({"player": p, "what": f"radelc doubles {_fmt(sub)}",
                              "points": sub, "code": "radelc",
                              "params": {"subtotal": sub,
                                         "radelc_of": p if p == partner and self.partner_own
                                         else declarer}})
        if won:
            if radelci[declarer] > 0:
                radelci[declarer] -= 1
            if partner is not None and self.partner_own and radelci[partner] > 0:
                radelci[partner] -= 1
        return value

    def _announcement(self, h: _Hand, ann: _Ann, own_side: list[str], defenders: list[str],
                      outsiders: list[str], scores: dict[str, int],
                      lines: list[dict[str, Any]]) -> None:
        name = ann.name
        if name == "kralj_ultimo":
            table = _KRALJ_ULTIMO_ALONE if h.partner is None else _KRALJ_ULTIMO_WITH_PARTNER
        else:
            table = _ANNOUNCEMENT_VALUES[name]
        if ann.announced:
            x, y = table[2], table[3]
        else:
            x, y = table[0], table[1]
        if ann.held:
            x = _HELD_ANNOUNCED if ann.announced else _HELD_SILENT
            y = x
        x6 = x * 6
        y6 = (x * 3 if self.held_half else x * 6) if ann.held else y * 6
        if ann.declarer_side:
            owner = h.declarer
            associates = [h.partner] if h.partner is not None else []
            others = defenders + outsiders
        else:
            owner = ann.by
            associates = [p for p in defenders if p != owner]
            others = own_side + outsiders
        uninvolved = [p for p in others if p != ann.contra_by]
        kind = "announcement" if ann.announced else "silent"
        label = ("announced " if ann.announced else "silent ") + ANNOUNCEMENT_NAMES[name]
        if ann.held:
            label += " (trula held)"
        params = {"name": name, "announced": ann.announced, "held": ann.held, "by": ann.by}
        self._item(kind, name, label, x6, y6, bool(ann.achieved), ann.level, owner,
                   associates, ann.contra_by, uninvolved, scores, lines, params,
                   self_declarer=h.declarer)

    def _item(self, kind: str, item: str, label: str, x6: int, y6: int, success: bool,
              level: int, owner: str, associates: list[str], contra_by: str | None,
              uninvolved: list[str], scores: dict[str, int], lines: list[dict[str, Any]],
              params: dict[str, Any], detail: str = "",
              self_declarer: str | None = None) -> None:
        """Write one item (the game or one announcement) with its contras.

        2007 (§3.6, §2.3, §2.4 tables): owner ±T*f, partner ±y unchanged by contras, the
        contra-giver ∓T*(f-1), everyone else 0. Revision: owner ±T*f, partner/fellow
        defender y*f when won and -y, -y*4/3, -y*2 when lost, the contra-giver nothing when
        wrong and +T*(f-1)/2 when right, the uninvolved players +T*(f-1)/2 when he was wrong.
        """
        rnd = self.rnd
        f = 1 << level
        s = 1 if success else -1
        outcome = "won" if success else "lost"
        code = f"{kind}_{outcome}"
        role_params = dict(params, contra_level=level)
        owner_pts = rnd(s * x6 * f)
        what = f"{label} {outcome}{detail}"
        if level:
            what += f", {CONTRA_NAMES[level]}"
        lines.append({"player": owner, "what": what, "points": owner_pts, "code": code,
                      "params": dict(role_params, role="owner")})
        scores[owner] += owner_pts
        revised = self.revised
        share_of = "partner's share" if kind == "game" or owner == self_declarer else \
            "fellow defender's share"
        for p in associates:
            if not revised:
                a6 = s * y6
            elif success:
                a6 = y6 * f
            else:
                num, den = _REVISED_ASSOCIATE_LOSS_NUM[level]
                a6 = -(y6 * num // den)
            pts = rnd(a6)
            lines.append({"player": p, "what": f"{label} {outcome} ({share_of})",
                          "points": pts, "code": code,
                          "params": dict(role_params, role="partner"
                                         if share_of == "partner's share"
                                         else "fellow_defender")})
            scores[p] += pts
        if not level:
            return
        share6 = x6 * (f - 1)
        if not revised:
            pts = rnd(-s * share6)
            lines.append({"player": contra_by,
                          "what": f"{CONTRA_NAMES[1]} on {item} "
                                  + ("right" if not success else "wrong"),
                          "points": pts,
                          "code": "contra_right" if not success else "contra_wrong",
                          "params": dict(role_params, role="contra")})
            scores[contra_by] += pts
            return
        half6 = share6 // 2
        if not success:
            pts = rnd(half6)
            lines.append({"player": contra_by, "what": f"{CONTRA_NAMES[1]} on {item} right",
                          "points": pts, "code": "contra_right",
                          "params": dict(role_params, role="contra")})
            scores[contra_by] += pts
        else:
            pts = rnd(half6)
            for p in uninvolved:
                lines.append({"player": p,
                              "what": f"compensation: {CONTRA_NAMES[1]} on {item} was wrong",
                              "points": pts, "code": "contra_compensation",
                              "params": dict(role_params, role="uninvolved")})
                scores[p] += pts

    # -- klop --------------------------------------------------------------------------------
    def _klop(self, h: _Hand, scores: dict[str, int], lines: list[dict[str, Any]]) -> None:
        pbp = h.points_by_player
        if self.mode != TRI1:
            # §2.3/§2.4: "Vse točke ... so negativne ... Igralcu, ki se mu je posrečilo
            # realizirati 35 ali več točk, pa se izkupiček šteje dvojno."
            for p in self.players:
                pts = pbp[p]
                v = -pts * (2 if pts >= KLOP_FULL_AT else 1)
                scores[p] = v
                lines.append({"player": p, "what": f"klop: {pts} points"
                              + (" (35 or more: double)" if pts >= KLOP_FULL_AT else ""),
                              "points": v, "code": "klop_points",
                              "params": {"points": pts, "doubled": pts >= KLOP_FULL_AT}})
            return
        level = len(h.klop_contras)
        f = 1 << level
        tricks = h.tricks_by_player
        full = [p for p in self.players if pbp[p] >= KLOP_FULL_AT]
        no_trick = [p for p in self.players if p != h.resting
                    and (tricks[p] == 0 if tricks is not None else pbp[p] == 0)]
        if full or no_trick:
            mult = f if self.options["klop_contra_on_full_and_no_trick"] else 1
            for p in full:
                v = -KLOP_FULL_SCORE * mult
                scores[p] = v
                lines.append({"player": p, "what": f"klop: full with {pbp[p]} points",
                              "points": v, "code": "klop_full",
                              "params": {"points": pbp[p], "contra_level": level}})
            for p in no_trick:
                v = KLOP_FULL_SCORE * mult
                scores[p] = v
                lines.append({"player": p, "what": "klop: no trick", "points": v,
                              "code": "klop_no_trick", "params": {"contra_level": level}})
            return
        for p in self.players:
            pts = pbp[p]
            v = -pts * f
            scores[p] = v
            lines.append({"player": p, "what": f"klop: {pts} points"
                          + (f", {CONTRA_NAMES[level]}" if level else ""),
                          "points": v, "code": "klop_points",
                          "params": {"points": pts, "contra_level": level}})
        for idx, giver in enumerate(h.klop_contras):
            given = idx + 1
            pts = pbp[giver]
            if self.revised:
                if pts <= KLOP_CONTRA_LIMIT_REVISED:
                    continue
                extra = -KLOP_PENALTY_REVISED[given]
                limit = KLOP_CONTRA_LIMIT_REVISED
            else:
                if pts <= KLOP_CONTRA_LIMIT_2007:
                    continue
                # kontra alone: "se mu točke dodatno podvojijo"; with a rekontra the kontra
                # giver writes "početverjene točke kot ostali + dodatno polovico v minus".
                if given == 1 and level == 2:
                    extra = -pts * f // 2
                else:
                    extra = -pts * f
                limit = KLOP_CONTRA_LIMIT_2007
            scores[giver] += extra
            lines.append({"player": giver,
                          "what": f"klop: {CONTRA_NAMES[given]} given with {pts} points "
                                  f"(more than {limit})",
                          "points": extra, "code": "klop_contra_limit",
                          "params": {"points": pts, "limit": limit, "contra": given}})

    # -- penalties ----------------------------------------------------------------------------
    def _renons(self, h: _Hand, radelci: dict[str, int], scores: dict[str, int],
                lines: list[dict[str, Any]]) -> None:
        spec = h.spec
        base = spec.value or 0
        for kind, player, clause in h.penalties:
            if kind != "renons":
                continue
            contras_count = clause != "a"
            if spec.decided_by == KLOP:
                f = (1 << len(h.klop_contras)) if contras_count else 1
            else:
                f = (1 << h.game_level) if contras_count else 1
            total = (base + RENONS_BASE) * f
            parts = [f"game {base} + {RENONS_BASE}" + (f" x{f}" if f > 1 else "")]
            # the same items as data, so that the line can be written in other languages
            counted: list[dict[str, Any]] = []
            for ann in h.announcements:
                if not ann.announced:
                    continue
                if ann.held:
                    av = _HELD_ANNOUNCED
                elif ann.name == "kralj_ultimo":
                    av = (_KRALJ_ULTIMO_ALONE if h.partner is None
                          else _KRALJ_ULTIMO_WITH_PARTNER)[2]
                else:
                    av = _ANNOUNCEMENT_VALUES[ann.name][2]
                af = (1 << ann.level) if contras_count else 1
                total += av * af
                parts.append(f"{ANNOUNCEMENT_NAMES[ann.name]} {av}"
                             + (f" x{af}" if af > 1 else ""))
                counted.append({"name": ann.name, "value": av, "factor": af})
            pts = -total
            lines.append({"player": player, "what": "renons: -(" + " + ".join(parts) + ")",
                          "points": pts, "code": "renons",
                          "params": {"game": spec.code, "base": base, "clause": clause,
                                     "contras_count": contras_count,
                                     "renons_base": RENONS_BASE, "factor": f,
                                     "announcements": counted}})
            if h.declarer is not None and radelci[h.declarer] > 0:
                lines.append({"player": player, "what": f"radelc doubles {_fmt(pts)}",
                              "points": pts, "code": "radelc",
                              "params": {"subtotal": pts, "radelc_of": h.declarer}})
                pts *= 2
            scores[player] += pts

    def _penalties(self, h: _Hand, misdeals: dict[str, int], scores: dict[str, int],
                   lines: list[dict[str, Any]]) -> None:
        per_table = self.options["misdeal_count"] == "table"
        for kind, player, _ in h.penalties:
            if kind == "mond":
                scores[player] -= MOND_PENALTY
                lines.append({"player": player, "what": "lost mond", "points": -MOND_PENALTY,
                              "code": "mond_lost", "params": {}})
            elif kind == "misdeal":
                if per_table:
                    for p in misdeals:
                        misdeals[p] += 1
                else:
                    misdeals[player] += 1
                n = misdeals[player]
                pts = -MISDEAL_STEP * n
                scores[player] += pts
                lines.append({"player": player, "what": f"misdeal no. {n}", "points": pts,
                              "code": "misdeal", "params": {"count": n}})
            elif kind == "no_tarok":
                lines.append({"player": player,
                              "what": "no tarok: the hand is annulled and dealt again",
                              "points": 0, "code": "no_tarok", "params": {}})


TAROK_NET_2007 = rules.register(TarokNetRuleset(revised=False))
TAROK_NET_REVISED = rules.register(TarokNetRuleset(revised=True))

__all__ = ["TAROK_NET_2007", "TAROK_NET_REVISED", "TarokNetRuleset"]
