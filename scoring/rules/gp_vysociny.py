"""Ruleset `gp-vysociny-2004`: Czech taroky as played for money at the tournaments of the
GP Vysočiny and GP Povodí Křetínky a Svitavy (seed 004, Bystré, 31 Oct 2004).

Responsible for: the tariff of the seed as data (games, rates per eye, renonc fines, hlášky,
flek levels, the 20 Kč cap, the stake bag); validating every hand of a four-player scorecard
and turning it into payments between the players in haléř; validating a round's money sheet
(the trilingual "Stůl číslo / Tischnummer / Table number" card) and giving each player's
result. Every reading of the seed is explained, with the Czech original, in
docs/rulesets/gp-vysociny-2004.md; the genuinely open ones are the options of this ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring import rules
from scoring.errors import ErrorCollector
from scoring.rules.base import Announcement, ContraLevel, Game, Option, Ruleset
from scoring.rules.checks import is_int as _is_int

MODE = "four"
SEATS = 4

TOTAL_EYES = 70
HALF_OF_EYES = 35  # "rozdíl do 35 očí"
TRICKS_IN_DEAL = 12  # 54 cards, 6 in the talon, 12 per player
# The bag holds no coin smaller than 10 haléř and the seed rounds 85 hal up to 90 hal.
ROUNDING_STEP = 10
GAME_CAP = 2000  # "Herní strop: 20,- Kč"
TOP_UP_STEP = 1000  # "Dokup: násobky 10,-Kč"

# The bag every player gets at the start of a round, as printed under the money sheet.
STAKE_BAG: tuple[dict[str, int], ...] = (
    {"coin": 500, "count": 2},
    {"coin": 100, "count": 6},
    {"coin": 50, "count": 6},
    {"coin": 10, "count": 10},
)
DEFAULT_STAKE = sum(c["coin"] * c["count"] for c in STAKE_BAG)

CALLED_TAROKS = ("XIX", "XVIII", "XVII", "XVI")

# haléř per eye without flek; each flek level doubles it (the povinnost table: 5/10/20/40).
RATE_PER_EYE = {
    "povinnost": 5,
    "druha_povinnost": 5,
    "preferanc_1": 5,
    "preferanc_2": 10,
    "preferanc_3": 20,
    "solo": 40,
}
# Renonc that ends the game, without flek, before "+ všechny ohlášené hlášky".
RENONS_BASE = {
    "povinnost": 100,
    "druha_povinnost": 100,
    "preferanc_1": 100,
    "preferanc_2": 200,
    "preferanc_3": 300,
    "solo": 400,
}
PARTNER_GAMES = ("povinnost", "druha_povinnost")
ONE_AGAINST_THREE_GAMES = ("preferanc_1", "preferanc_2", "preferanc_3", "solo")
VARSAVA = "varsava"

MINOR_RENONS_FINE = 100  # "platí 1,-Kč ostatním hráčům u stolu. ... se hra dohrává"
MISDEAL_FINE = 100  # wrong card count noticed after the talon, before the lead
VARSAVA_RENONS_FINE = 200  # "platí provinivší se hráč ostatním hráčům 2,- Kč a hra končí"
VARSAVA_PAY_NO_TRICK = 400
VARSAVA_PAY_OTHER = 200
VARSAVA_FOREHAND_PAY_NO_TRICK = 600
VARSAVA_FOREHAND_PAY_OTHER = 400

# Hlášky held in the hand: announced at the start, worth a flat amount in every game.
HELD_HLASKY = {
    "barvicky": ("barvičky", 20),
    "tarocky": ("taročky", 20),
    "barvy": ("barvy", 40),
    "trul": ("trul", 20),
    "taroky": ("taroky", 40),
    "kralovske_honery": ("královské honery", 40),
    "honery": ("honery", 20),
    "trulhonery": ("trulhonéry", 40),
}
# Hlášky decided by the play: (name, announced value, silent value).
PLAYED_HLASKY = {
    "pagat": ("pagát", 200, 100),
    "valat": ("valát", 400, 200),
}

CONTRA_NAMES = {1: "flek", 2: "re", 3: "sup"}

PENALTY_RENONS = "renons"
PENALTY_RENONS_PLAY_CONTINUES = "renons_play_continues"
PENALTY_MISDEAL = "misdeal"

HAND_FIELDS = (
    "game", "declarer", "partner", "called", "forehand", "points", "points_by_player",
    "tricks_by_player", "announcements", "contras", "penalties",
)
# Fields of the contract that this ruleset has no use for: refused by name, not ignored.
UNUSED_CONTRACT_FIELDS = ("resting", "won")

OPTION_PARTNER_PAYMENT = "partner_payment"
OPTION_CAP = "cap_applies_to"
OPTION_SILENT_LOST = "silent_lost_pays"


def round_up(amount: int) -> int:
    """'zaokrouhluje se nahoru': up to the next multiple of the smallest coin."""
    return -(-amount // ROUNDING_STEP) * ROUNDING_STEP


def kc(amount: int) -> str:
    """An amount in haléř written as Kč for the English lines (e.g. 340 -> '3.40 Kč')."""
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    return f"{sign}{amount // 100}.{amount % 100:02d} Kč"


@dataclass
class ParsedAnnouncement:
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


@dataclass
class Transfer:
    payer: str
    receiver: str
    amount: int


class GpVysocinyRuleset(Ruleset):
    code = "gp-vysociny-2004"
    title = ("Taroky: tournament rules of the GP Vysočiny and GP Povodí Křetínky a Svitavy "
             "(Bystré, 31 Oct 2004)")
    source = ("seed 004_9497e23b33a39f39.txt: 'Pravidla hry taroky pro pořádání tarokových "
              "turnajů v rámci GP Vysočiny a GP Povodí Křetínky a Svitavy'")
    unit = "haler"
    modes = {MODE: (SEATS, SEATS)}
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
        Announcement(code, name, value, None, (MODE,), {"kind": "held"})
        for code, (name, value) in HELD_HLASKY.items()
    ) + tuple(
        Announcement(code, name, announced, silent, (MODE,), {"kind": "played"})
        for code, (name, announced, silent) in PLAYED_HLASKY.items()
    )
    contra_levels = (
        ContraLevel(1, "flek", 2),
        ContraLevel(2, "re", 4),
        ContraLevel(3, "sup", 8),
    )
    options = (
        Option(
            OPTION_PARTNER_PAYMENT, "each_pays_one", ("each_pays_one", "each_pays_each"),
            "Two against two (povinnost with a partner): 'each_pays_one' = every player of the "
            "losing side pays the game once, to one player of the winning side; "
            "'each_pays_each' = every loser pays every winner.",
            "seed 004_9497e23b33a39f39.txt, Renonc, po kterém hra končí: 'Při základní i "
            "druhé povinnosti dostane licitující hráč jednonásobek a zbývající dva hráči "
            "také jednonásobek.'",
        ),
        Option(
            OPTION_CAP, "payment", ("payment", "receiver"),
            "The 20 Kč 'herní strop': 'payment' = no player pays another more than 20 Kč in "
            "one game; 'receiver' = no player receives more than 20 Kč in one game in all, "
            "his payers sharing the 20 Kč in proportion to what they owed.",
            "seed 004_9497e23b33a39f39.txt: 'Herní strop - maximální. částka zaplacená "
            "jednomu hráči v jedné hře.'",
        ),
        Option(
            OPTION_SILENT_LOST, True, (True, False),
            "A silent pagát or valát that is lost (achieved false) costs its silent value "
            "(true), or costs nothing because only a realised silent hláška exists (false).",
            "seed 004_9497e23b33a39f39.txt, Hlášky: 'pagát tichý 1,- Kč', 'valát tichý "
            "2,- Kč'; game tables: '+ - hlášky'",
        ),
    )
    penalty_kinds = (PENALTY_RENONS, PENALTY_RENONS_PLAY_CONTINUES, PENALTY_MISDEAL)
    accepts_sheet = True
    docs = "docs/rulesets/gp-vysociny-2004.md"

    stake_bag = STAKE_BAG
    default_stake = DEFAULT_STAKE
    game_cap = GAME_CAP
    top_up_step = TOP_UP_STEP

    # -- description ----------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out["money"] = {
            "stake": DEFAULT_STAKE,
            "stake_bag": [dict(c) for c in STAKE_BAG],
            "top_up_step": TOP_UP_STEP,
            "game_cap": GAME_CAP,
            "rounding_step": ROUNDING_STEP,
        }
        return out

    def hand_schema(self) -> dict[str, Any]:
        schema = super().hand_schema()
        props = schema["properties"]
        for unused in UNUSED_CONTRACT_FIELDS:
            props.pop(unused, None)
        props["called"] = {"enum": list(CALLED_TAROKS)}
        props["tricks_by_player"]["additionalProperties"]["maximum"] = TRICKS_IN_DEAL
        props["contras"]["items"]["properties"]["on"] = {"enum": ["game"]}
        ann_props = props["announcements"]["items"]["properties"]
        ann_props.pop("held", None)
        schema["additionalProperties"] = False
        return schema

    # -- hands ----------------------------------------------------------------------------
    def score(
        self,
        mode: str,
        players: list[str],
        hands: list[dict[str, Any]],
        options: dict[str, Any],
        errors: ErrorCollector,
    ) -> list[dict[str, Any]] | None:
        parsed = [self._parse_hand(i, hand, players, errors) for i, hand in enumerate(hands)]
        if errors:
            return None
        return [self._score_hand(hand, players, options) for hand in parsed]

    # ... validation .........................................................................
    def _parse_hand(
        self, i: int, hand: dict[str, Any], players: list[str], errors: ErrorCollector
    ) -> ParsedHand | None:
        before = len(errors)
        for key in hand:
            if key in UNUSED_CONTRACT_FIELDS:
                errors.add(i, key, "field_not_allowed",
                           f"{key} is not used in {self.code}", name=key)
            elif key not in HAND_FIELDS:
                errors.add(i, key, "unknown_field", f"unknown field {key!r}", name=key)

        game = hand.get("game")
        if game is None:
            errors.add(i, "game", "missing", "game is required")
        elif not isinstance(game, str) or self.game(game) is None:
            known = ", ".join(g.code for g in self.games)
            errors.add(i, "game", "unknown_game",
                       f"unknown game {game!r} (games: {known})", game=str(game))
            game = None
        out = ParsedHand(game=game or "")

        out.penalties = self._parse_penalties(i, hand, game, players, errors)
        ends_by = out.ends_by
        out.forehand = self._player(i, hand, "forehand", players, errors,
                                    required=(game == VARSAVA))

        if game == VARSAVA:
            for key in ("declarer", "partner", "called", "points"):
                if key in hand:
                    errors.add(i, key, "field_not_allowed",
                               f"{key} is not used in Varšava: every player plays for "
                               f"himself", name=key)
            out.points_by_player, out.tricks_by_player = self._parse_varsava_outcome(
                i, hand, players, ends_by, errors)
            for key in ("announcements", "contras"):
                if key in hand and not isinstance(hand[key], list):
                    errors.add(i, key, "not_a_list", f"{key} must be a list")
                elif hand.get(key):
                    errors.add(i, key, "announcement_not_allowed" if key == "announcements"
                               else "contra_not_allowed",
                               f"no {key} in Varšava: it is paid by its own scale")
        elif game is not None:
            self._parse_declarer_side(i, hand, game, players, out, errors)
            for key in ("points_by_player", "tricks_by_player"):
                if key in hand:
                    errors.add(i, key, "field_not_allowed",
                               f"{key} is only used in Varšava", name=key)
            out.points = self._parse_points(i, hand, ends_by, errors)
            out.announcements = self._parse_announcements(i, hand, game, players, ends_by,
                                                          errors)
            out.contra_level = self._parse_contras(i, hand, out, players, errors)
            self._check_game_consistency(i, out, errors)
        else:
            # The game is missing or unknown: still check what does not depend on it, so
            # that the table sees every problem of the hand at once.
            if "declarer" in hand:
                self._player(i, hand, "declarer", players, errors, required=False)
            self._parse_announcements(i, hand, "", players, ends_by, errors)
            self._parse_contras(i, hand, out, players, errors)
        return out if len(errors) == before else None

    def _player(self, i: int, hand: dict[str, Any], key: str, players: list[str],
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

    def _parse_penalties(self, i: int, hand: dict[str, Any], game: str | None,
                         players: list[str], errors: ErrorCollector) -> list[tuple[str, str]]:
        raw = hand.get("penalties", [])
        if not isinstance(raw, list):
            errors.add(i, "penalties", "not_a_list", "penalties must be a list")
            return []
        out: list[tuple[str, str]] = []
        for k, item in enumerate(raw):
            where = f"penalties[{k}]"
            if not isinstance(item, dict):
                errors.add(i, where, "not_an_object", f"{where} must be an object")
                continue
            for key in item:
                if key not in ("kind", "player"):
                    errors.add(i, f"{where}.{key}", "unknown_field",
                               f"unknown field {key!r} in a penalty")
            kind = item.get("kind")
            player = item.get("player")
            ok = True
            if kind not in self.penalty_kinds:
                errors.add(i, f"{where}.kind", "invalid_penalty",
                           f"penalty kind must be one of {list(self.penalty_kinds)}, "
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

    def _parse_declarer_side(self, i: int, hand: dict[str, Any], game: str,
                             players: list[str], out: ParsedHand,
                             errors: ErrorCollector) -> None:
        out.declarer = self._player(i, hand, "declarer", players, errors, required=True)
        if game in PARTNER_GAMES:
            if "partner" not in hand:
                errors.add(i, "partner", "missing",
                           "partner is required in a povinnost: the holder of the called "
                           "tarok, or null when the declarer bought it and plays alone")
            elif hand["partner"] is not None:
                out.partner = self._player(i, hand, "partner", players, errors, required=False)
                if out.partner is not None and out.partner == out.declarer:
                    errors.add(i, "partner", "partner_is_declarer",
                               "the partner cannot be the declarer; a declarer who bought "
                               "the called tarok plays alone (partner null)")
            called = hand.get("called")
            if called is None:
                errors.add(i, "called", "missing",
                           f"called is required in a povinnost: the tarok called before "
                           f"buying, one of {list(CALLED_TAROKS)}")
            elif called not in CALLED_TAROKS:
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

    def _parse_points(self, i: int, hand: dict[str, Any], ends_by: str | None,
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

    def _parse_by_player(self, i: int, hand: dict[str, Any], key: str, players: list[str],
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

    def _parse_varsava_outcome(self, i: int, hand: dict[str, Any], players: list[str],
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
            parsed = self._parse_by_player(i, hand, key, players, maximum, total, errors)
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

    def _parse_announcements(self, i: int, hand: dict[str, Any], game: str,
                             players: list[str], ends_by: str | None,
                             errors: ErrorCollector) -> list[ParsedAnnouncement]:
        raw = hand.get("announcements", [])
        if not isinstance(raw, list):
            errors.add(i, "announcements", "not_a_list", "announcements must be a list")
            return []
        out: list[ParsedAnnouncement] = []
        for k, item in enumerate(raw):
            where = f"announcements[{k}]"
            if not isinstance(item, dict):
                errors.add(i, where, "not_an_object", f"{where} must be an object")
                continue
            ok = True
            for key in item:
                if key == "held":
                    errors.add(i, f"{where}.held", "field_not_allowed",
                               "held is not used in this ruleset: held hlášky are always "
                               "held from the start")
                    ok = False
                elif key not in ("name", "by", "announced", "achieved"):
                    errors.add(i, f"{where}.{key}", "unknown_field",
                               f"unknown field {key!r} in an announcement")
                    ok = False
            name = item.get("name")
            if not isinstance(name, str):
                name = repr(name)  # an unknown name, and hashable for the lookups below
            if name not in HELD_HLASKY and name not in PLAYED_HLASKY:
                known = ", ".join(a.code for a in self.announcements)
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
                out.append(ParsedAnnouncement(name, by, bool(announced), achieved))
        return out

    def _parse_contras(self, i: int, hand: dict[str, Any], out: ParsedHand,
                       players: list[str], errors: ErrorCollector) -> int:
        raw = hand.get("contras", [])
        if not isinstance(raw, list):
            errors.add(i, "contras", "not_a_list", "contras must be a list")
            return 0
        if len(raw) > len(CONTRA_NAMES):
            errors.add(i, "contras", "too_many_contras",
                       "sup (level 3) is the highest: at most three contras",
                       got=len(raw))
        side = self._declarer_side(out)
        for k, item in enumerate(raw):
            where = f"contras[{k}]"
            if not isinstance(item, dict):
                errors.add(i, where, "not_an_object", f"{where} must be an object")
                continue
            for key in item:
                if key not in ("on", "by", "level"):
                    errors.add(i, f"{where}.{key}", "unknown_field",
                               f"unknown field {key!r} in a contra")
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
        return min(len(raw), len(CONTRA_NAMES))

    def _check_game_consistency(self, i: int, out: ParsedHand, errors: ErrorCollector) -> None:
        if out.game == "druha_povinnost" and out.declarer is not None:
            if not any(a.name == "pagat" and a.by == out.declarer and a.announced
                       for a in out.announcements):
                errors.add(i, "announcements", "druha_povinnost_needs_pagat",
                           "druhá povinnost is the declarer's obligation to win the last "
                           "trick with the pagát: list it as an announced pagát by the declarer")
        side = self._declarer_side(out)
        if out.points is not None and out.declarer is not None:
            for a in out.announcements:
                if a.name == "valat" and a.achieved:
                    ours = a.by in side
                    if (ours and out.points <= HALF_OF_EYES) or \
                            (not ours and out.points >= HALF_OF_EYES):
                        errors.add(i, "points", "valat_points_inconsistent",
                                   f"a valát won by {'the declarer' if ours else 'the opponents'}"
                                   f"'s side leaves the other side only its discard; "
                                   f"points {out.points} do not fit", points=out.points)

    @staticmethod
    def _declarer_side(hand: ParsedHand) -> tuple[str, ...]:
        if hand.declarer is None:
            return ()
        if hand.partner is None:
            return (hand.declarer,)
        return (hand.declarer, hand.partner)

    # ... scoring ............................................................................
    def _score_hand(self, hand: ParsedHand, players: list[str],
                    options: dict[str, Any]) -> dict[str, Any]:
        lines: list[dict[str, Any]] = []
        transfers: list[Transfer] = []
        ends_by = hand.ends_by
        if ends_by == PENALTY_MISDEAL:
            value = self._misdeal(hand, players, transfers, lines)
        elif hand.game == VARSAVA:
            if ends_by == PENALTY_RENONS:
                value = self._varsava_renons(hand, players, transfers, lines)
            else:
                value = self._varsava(hand, players, transfers, lines)
        elif ends_by == PENALTY_RENONS:
            value = self._renons(hand, players, transfers, lines)
        else:
            value = self._game(hand, players, options, transfers, lines)
        for player in hand.penalty_players(PENALTY_RENONS_PLAY_CONTINUES):
            lines.append(_line(player, f"renonc by {player}, play continued: pays "
                                       f"{kc(MINOR_RENONS_FINE)} to every other player",
                               -MINOR_RENONS_FINE * (SEATS - 1), "renons_play_continues",
                               player=player, fine=MINOR_RENONS_FINE))
            transfers.extend(Transfer(player, p, MINOR_RENONS_FINE)
                             for p in players if p != player)
        scores = self._settle(players, transfers, options, lines)
        return {"value": min(value, GAME_CAP), "scores": scores, "state": {}, "lines": lines}

    def _game(self, hand: ParsedHand, players: list[str], options: dict[str, Any],
              transfers: list[Transfer], lines: list[dict[str, Any]]) -> int:
        assert hand.points is not None and hand.declarer is not None
        side = self._declarer_side(hand)
        level = hand.contra_level
        factor = 2 ** level
        rate = RATE_PER_EYE[hand.game] * factor
        game_name = self.game(hand.game).name  # type: ignore[union-attr]
        flek = CONTRA_NAMES.get(level, "no flek")
        params = {"game": hand.game, "points": hand.points, "level": level, "rate": rate,
                  "declarer": hand.declarer, "partner": hand.partner, "called": hand.called}
        if hand.points == HALF_OF_EYES:
            raw = rate
            amount = round_up(raw)
            # equal eyes: the bidder pays one eye, unless the opponents fleked.
            sign = 1 if level >= 1 else -1
            who = "the opponents pay" if sign > 0 else "the declarer's side pays"
            lines.append(_line(None, f"{game_name} ({flek}): equal eyes 35:35, {who} one eye "
                                     f"{rate} hal, rounded up to {kc(amount)}",
                               amount, "game_equal_eyes", raw=raw, amount=amount,
                               payer_side="opponents" if sign > 0 else "declarer", **params))
        else:
            difference = abs(hand.points - HALF_OF_EYES)
            raw = difference * rate
            amount = round_up(raw)
            sign = 1 if hand.points > HALF_OF_EYES else -1
            result = "won" if sign > 0 else "lost"
            rounded = f", rounded up to {kc(amount)}" if amount != raw else ""
            lines.append(_line(None, f"{game_name} ({flek}) {result}: {hand.points} eyes, "
                                     f"difference {difference} x {rate} hal = {raw} hal"
                                     f"{rounded}",
                               amount, f"game_{result}", difference=difference, raw=raw,
                               amount=amount, **params))
        per_payment = sign * amount
        for a in hand.announcements:
            per_payment += self._announcement_line(a, side, options, lines)

        opponents = [p for p in _seat_order_from(players, hand.declarer) if p not in side]
        if len(side) == 1:
            pairs = [(opp, hand.declarer) for opp in opponents]
        elif options[OPTION_PARTNER_PAYMENT] == "each_pays_each":
            pairs = [(opp, member) for member in side for opp in opponents]
        else:
            pairs = list(zip(opponents, side, strict=True))
        for opponent, member in pairs:
            if per_payment > 0:
                transfers.append(Transfer(opponent, member, per_payment))
            elif per_payment < 0:
                transfers.append(Transfer(member, opponent, -per_payment))
        return abs(per_payment)

    def _announcement_line(self, a: ParsedAnnouncement, side: tuple[str, ...],
                           options: dict[str, Any], lines: list[dict[str, Any]]) -> int:
        """Add the line of one hláška; return its signed effect on one payment
        (positive: the opponents pay the declarer's side)."""
        ours = a.by in side
        side_name = "declarer's side" if ours else "opponents"
        if a.name in HELD_HLASKY:
            name, value = HELD_HLASKY[a.name]
            lines.append(_line(a.by, f"{name} held by {a.by} ({side_name}): {kc(value)}",
                               value, "announcement", name=a.name, by=a.by, announced=True,
                               achieved=True, value=value, side=side_name))
            return value if ours else -value
        name, announced_value, silent_value = PLAYED_HLASKY[a.name]
        value = announced_value if a.announced else silent_value
        how = "announced" if a.announced else "silent"
        if a.achieved:
            lines.append(_line(a.by, f"{name} {how} by {a.by} ({side_name}) achieved: "
                                     f"{kc(value)}",
                               value, "announcement", name=a.name, by=a.by,
                               announced=a.announced, achieved=True, value=value,
                               side=side_name))
            return value if ours else -value
        if not a.announced and not options[OPTION_SILENT_LOST]:
            lines.append(_line(a.by, f"{name} silent by {a.by} lost: not paid", 0,
                               "announcement_not_paid", name=a.name, by=a.by, announced=False,
                               achieved=False, value=0, side=side_name))
            return 0
        lines.append(_line(a.by, f"{name} {how} by {a.by} ({side_name}) lost: "
                                 f"-{kc(value)}",
                           -value, "announcement", name=a.name, by=a.by,
                           announced=a.announced, achieved=False, value=value,
                           side=side_name))
        return -value if ours else value

    def _renons(self, hand: ParsedHand, players: list[str], transfers: list[Transfer],
                lines: list[dict[str, Any]]) -> int:
        assert hand.declarer is not None
        level = hand.contra_level
        base = RENONS_BASE[hand.game] * 2 ** level
        announced_total = sum(
            HELD_HLASKY[a.name][1] if a.name in HELD_HLASKY else PLAYED_HLASKY[a.name][1]
            for a in hand.announcements if a.announced
        )
        amount = base + announced_total
        game_name = self.game(hand.game).name  # type: ignore[union-attr]
        for offender in hand.penalty_players(PENALTY_RENONS):
            triple = hand.game in ONE_AGAINST_THREE_GAMES and offender != hand.declarer
            for p in players:
                if p == offender:
                    continue
                owed = 3 * amount if triple and p == hand.declarer else amount
                transfers.append(Transfer(offender, p, owed))
            what = (f"renonc by {offender} ends the {game_name} "
                    f"({CONTRA_NAMES.get(level, 'no flek')}): {kc(base)} + announced hlášky "
                    f"{kc(announced_total)} = {kc(amount)}")
            if triple:
                what += f", three times to the declarer {hand.declarer}"
            else:
                what += " to every other player"
            total = sum(3 * amount if triple and p == hand.declarer else amount
                        for p in players if p != offender)
            lines.append(_line(offender, what, -total, "renons", player=offender,
                               game=hand.game, level=level, base=base,
                               announced_hlasky=announced_total, amount=amount,
                               triple_to_declarer=triple, declarer=hand.declarer))
        return amount

    def _misdeal(self, hand: ParsedHand, players: list[str], transfers: list[Transfer],
                 lines: list[dict[str, Any]]) -> int:
        for offender in hand.penalty_players(PENALTY_MISDEAL):
            lines.append(_line(offender, f"{offender} had a wrong number of cards, found "
                                         f"before the lead: pays {kc(MISDEAL_FINE)} to every "
                                         f"other player; dealt again",
                               -MISDEAL_FINE * (SEATS - 1), "misdeal", player=offender,
                               fine=MISDEAL_FINE))
            transfers.extend(Transfer(offender, p, MISDEAL_FINE)
                             for p in players if p != offender)
        return MISDEAL_FINE

    def _varsava_renons(self, hand: ParsedHand, players: list[str],
                        transfers: list[Transfer], lines: list[dict[str, Any]]) -> int:
        for offender in hand.penalty_players(PENALTY_RENONS):
            lines.append(_line(offender, f"renonc by {offender} ends the Varšava: pays "
                                         f"{kc(VARSAVA_RENONS_FINE)} to every other player",
                               -VARSAVA_RENONS_FINE * (SEATS - 1), "renons", player=offender,
                               game=VARSAVA, amount=VARSAVA_RENONS_FINE))
            transfers.extend(Transfer(offender, p, VARSAVA_RENONS_FINE)
                             for p in players if p != offender)
        return 0

    def _varsava(self, hand: ParsedHand, players: list[str], transfers: list[Transfer],
                 lines: list[dict[str, Any]]) -> int:
        eyes = hand.points_by_player
        tricks = hand.tricks_by_player
        assert eyes is not None and tricks is not None and hand.forehand is not None
        most = max(eyes.values())
        losers = [p for p in players if eyes[p] == most]
        for loser in losers:
            by_forehand = loser == hand.forehand
            paid = 0
            for p in players:
                if p in losers:
                    continue
                if by_forehand:
                    owed = VARSAVA_FOREHAND_PAY_NO_TRICK if tricks[p] == 0 \
                        else VARSAVA_FOREHAND_PAY_OTHER
                else:
                    owed = VARSAVA_PAY_NO_TRICK if tricks[p] == 0 else VARSAVA_PAY_OTHER
                transfers.append(Transfer(loser, p, owed))
                paid += owed
            role = "the forehand " if by_forehand else ""
            lines.append(_line(loser, f"Varšava: {role}{loser} took the most eyes ({most}) "
                                      f"and pays {kc(paid)}",
                               -paid, "varsava_most_eyes", player=loser, eyes=most,
                               forehand=by_forehand, paid=paid))
        return 0

    def _settle(self, players: list[str], transfers: list[Transfer], options: dict[str, Any],
                lines: list[dict[str, Any]]) -> dict[str, int]:
        """Net the transfers between each two players, apply the herní strop, and write
        one payment line per pair that exchanges money."""
        net: dict[tuple[str, str], int] = {}
        seat = {p: k for k, p in enumerate(players)}
        for t in transfers:
            a, b = sorted((t.payer, t.receiver), key=seat.__getitem__)
            sign = 1 if t.payer == a else -1
            net[(a, b)] = net.get((a, b), 0) + sign * t.amount
        payments: list[Transfer] = []
        for (a, b), amount in net.items():
            if amount > 0:
                payments.append(Transfer(a, b, amount))
            elif amount < 0:
                payments.append(Transfer(b, a, -amount))
        payments.sort(key=lambda t: (seat[t.payer], seat[t.receiver]))

        if options[OPTION_CAP] == "payment":
            for t in payments:
                if t.amount > GAME_CAP:
                    lines.append(_line(t.payer, f"herní strop: {t.payer} pays {t.receiver} "
                                                f"{kc(GAME_CAP)} instead of {kc(t.amount)}",
                                       GAME_CAP - t.amount, "cap_applied", payer=t.payer,
                                       receiver=t.receiver, before=t.amount, after=GAME_CAP,
                                       cap=GAME_CAP))
                    t.amount = GAME_CAP
        else:
            self._cap_per_receiver(players, payments, lines)

        scores = {p: 0 for p in players}
        for t in payments:
            scores[t.payer] -= t.amount
            scores[t.receiver] += t.amount
            lines.append(_line(t.receiver, f"{t.payer} pays {t.receiver} {kc(t.amount)}",
                               t.amount, "payment", payer=t.payer, receiver=t.receiver,
                               amount=t.amount))
        return scores

    @staticmethod
    def _cap_per_receiver(players: list[str], payments: list[Transfer],
                          lines: list[dict[str, Any]]) -> None:
        for receiver in players:
            incoming = [t for t in payments if t.receiver == receiver]
            total = sum(t.amount for t in incoming)
            if total <= GAME_CAP:
                continue
            # Share the cap in proportion to what each payer owed, in whole 10-haléř coins;
            # the coins left over go to the largest remainders, then in seat order after
            # the receiver, so the result never depends on the order of the input.
            units = GAME_CAP // ROUNDING_STEP
            order = _seat_order_from(players, receiver)
            shares = []
            for t in incoming:
                exact = t.amount // ROUNDING_STEP * units
                total_units = total // ROUNDING_STEP
                shares.append([t, exact // total_units, exact % total_units])
            left = units - sum(s[1] for s in shares)
            shares_by_claim = sorted(shares, key=lambda s: (-s[2], order.index(s[0].payer)))
            for s in shares_by_claim[:left]:
                s[1] += 1
            for t, share_units, _ in shares:
                after = share_units * ROUNDING_STEP
                if after == t.amount:
                    continue
                lines.append(_line(t.payer, f"herní strop: {receiver} receives at most "
                                            f"{kc(GAME_CAP)} in one game; {t.payer} pays "
                                            f"{kc(after)} instead of {kc(t.amount)}",
                                   after - t.amount, "cap_applied", payer=t.payer,
                                   receiver=receiver, before=t.amount, after=after,
                                   scope="receiver",
                                   cap=GAME_CAP))
                t.amount = after

    # -- money sheet ----------------------------------------------------------------------
    def score_sheet(self, sheet: dict[str, Any], options: dict[str, Any],
                    errors: ErrorCollector) -> dict[str, Any] | None:
        for key in sheet:
            if key not in ("table", "round", "stake", "players", "total"):
                errors.add(None, f"sheet.{key}", "unknown_field",
                           f"unknown field {key!r} in the money sheet")
        table = sheet.get("table")
        rnd = sheet.get("round")
        for key, value in (("table", table), ("round", rnd)):
            if value is not None and (not _is_int(value) or value < 1):
                errors.add(None, f"sheet.{key}", f"invalid_{key}",
                           f"{key} must be a whole number from 1, got {value!r}")
        stake = sheet.get("stake", DEFAULT_STAKE)
        if not _is_int(stake) or stake <= 0:
            errors.add(None, "sheet.stake", "invalid_stake",
                       f"stake must be a positive whole number of haléř, got {stake!r}")
            stake = None

        raw_players = sheet.get("players")
        rows: list[dict[str, Any]] = []
        if raw_players is None:
            errors.add(None, "sheet.players", "missing", "the sheet needs its players")
        elif not isinstance(raw_players, list):
            errors.add(None, "sheet.players", "not_a_list", "sheet.players must be a list")
        else:
            if len(raw_players) != SEATS:
                errors.add(None, "sheet.players", "wrong_player_count",
                           f"a table of {self.code} has {SEATS} players, got "
                           f"{len(raw_players)}", expected=SEATS, got=len(raw_players))
            seen: set[str] = set()
            for k, row in enumerate(raw_players):
                row_out = self._sheet_row(k, row, seen, errors)
                if row_out is not None:
                    rows.append(row_out)

        total = sheet.get("total")
        if total is not None and not _is_int(total):
            errors.add(None, "sheet.total", "not_an_integer",
                       f"total must be a whole number of haléř, got {total!r}")
            total = None
        if errors or stake is None:
            return None

        money_total = sum(r["money"] for r in rows)
        bought_total = sum(r["bought"] for r in rows)
        stakes_total = stake * len(rows)
        if total is not None and total != money_total:
            errors.add(None, "sheet.total", "total_mismatch",
                       f"the written total {kc(total)} is not the sum of the money "
                       f"{kc(money_total)}", written=total, sum=money_total)
        if money_total != stakes_total + bought_total:
            errors.add(None, "sheet.players", "sheet_does_not_add_up",
                       f"the money on the table {kc(money_total)} must equal the stakes "
                       f"{kc(stakes_total)} plus the top-ups {kc(bought_total)} = "
                       f"{kc(stakes_total + bought_total)}",
                       money=money_total, stakes=stakes_total, bought=bought_total,
                       expected=stakes_total + bought_total)
        if errors:
            return None

        lines: list[dict[str, Any]] = []
        totals: dict[str, int] = {}
        for r in rows:
            r["result"] = r["money"] - stake - r["bought"]
            totals[r["player"]] = r["result"]
            lines.append(_line(r["player"],
                               f"player {r['player']}: money {kc(r['money'])} - stake "
                               f"{kc(stake)} - bought {kc(r['bought'])} = {kc(r['result'])}",
                               r["result"], "sheet_result", player=r["player"],
                               money=r["money"], stake=stake, bought=r["bought"],
                               result=r["result"]))
        lines.append(_line(None, f"table money {kc(money_total)} = stakes {kc(stakes_total)} "
                                 f"+ bought {kc(bought_total)}",
                           money_total, "sheet_balanced", money=money_total,
                           stakes=stakes_total, bought=bought_total))
        normalised = {
            "table": table,
            "round": rnd,
            "stake": stake,
            "players": rows,
            "total": money_total,
            "stakes_total": stakes_total,
            "bought_total": bought_total,
        }
        return {"sheet": normalised, "totals": totals, "lines": lines}

    @staticmethod
    def _sheet_row(k: int, row: Any, seen: set[str], errors: ErrorCollector
                   ) -> dict[str, Any] | None:
        where = f"sheet.players[{k}]"
        if not isinstance(row, dict):
            errors.add(None, where, "not_an_object", f"{where} must be an object")
            return None
        ok = True
        for key in row:
            if key not in ("player", "name", "bought", "money"):
                errors.add(None, f"{where}.{key}", "unknown_field",
                           f"unknown field {key!r} in a sheet row")
                ok = False
        player = row.get("player")
        if not isinstance(player, str) or not player:
            errors.add(None, f"{where}.player", "invalid_player",
                       f"player must be a non-empty string (start number), got {player!r}")
            ok = False
        elif player in seen:
            errors.add(None, f"{where}.player", "duplicate_player",
                       f"player {player} is on the sheet twice", player=player)
            ok = False
        else:
            seen.add(player)
        name = row.get("name")
        if name is not None and not isinstance(name, str):
            errors.add(None, f"{where}.name", "invalid_name", "name must be a string")
            ok = False
        bought = row.get("bought", 0)
        if not _is_int(bought):
            errors.add(None, f"{where}.bought", "not_an_integer",
                       f"bought must be a whole number of haléř, got {bought!r}")
            ok = False
        elif bought < 0:
            errors.add(None, f"{where}.bought", "negative_top_up",
                       f"bought cannot be negative, got {bought}")
            ok = False
        elif bought % TOP_UP_STEP:
            errors.add(None, f"{where}.bought", "top_up_not_in_steps",
                       f"top-ups are multiples of {kc(TOP_UP_STEP)}, got {kc(bought)}",
                       step=TOP_UP_STEP, got=bought)
            ok = False
        if "money" not in row:
            errors.add(None, f"{where}.money", "missing", "money is required")
            ok = False
        else:
            money = row["money"]
            if not _is_int(money):
                errors.add(None, f"{where}.money", "not_an_integer",
                           f"money must be a whole number of haléř, got {money!r}")
                ok = False
            elif money < 0:
                errors.add(None, f"{where}.money", "negative_money",
                           f"money cannot be negative, got {money}")
                ok = False
        if not ok:
            return None
        out: dict[str, Any] = {"player": player}
        if name is not None:
            out["name"] = name
        out["bought"] = bought
        out["money"] = row["money"]
        return out


def _seat_order_from(players: list[str], first: str) -> list[str]:
    """The players in seat order starting with `first`."""
    k = players.index(first)
    return players[k:] + players[:k]


def _line(player: str | None, what: str, points: int, code: str, /, **params: Any
          ) -> dict[str, Any]:
    return {"player": player, "what": what, "points": points, "code": code,
            "params": params}


rules.register(GpVysocinyRuleset())
