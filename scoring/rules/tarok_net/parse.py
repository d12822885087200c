"""Reading a hand of the Tarok.net rules: every field checked against the contract and the
mode (every problem reported with its hand and field), turned into a `Hand` the checks and the
scorer can trust. Klop, void hands (misdeal, no tarok), played games with their partner and
announcements each have their own reader; the contras are read in `contras`."""

from __future__ import annotations

from typing import Any

from scoring.errors import ErrorCollector
from scoring.rules.checks import is_int as _is_int
from scoring.rules.checks import items
from scoring.rules.tarok_net import two
from scoring.rules.tarok_net.contras import read_contras, read_klop_contras
from scoring.rules.tarok_net.hand import ALL_GAME_CODES, SPECS, Ann, Hand, TarokNetCard
from scoring.rules.tarok_net.tables import (
    ANNOUNCEMENT_NAMES,
    FOUR,
    HELD_NAMES,
    KLOP,
    PENALTY_KINDS,
    POINTS,
    RENONS_CLAUSES,
    TRICKS,
    TRICKS_FOUR,
    TRICKS_THREE,
    TWO,
    VOID_KINDS,
)

_HAND_FIELDS = frozenset({
    "game", "declarer", "partner", "resting", "forehand", "points", "won",
    "points_by_player", "tricks_by_player", "announcements", "contras", "penalties",
})
_ANNOUNCEMENT_FIELDS = frozenset({"name", "by", "announced", "achieved", "held"})
_PENALTY_FIELDS = frozenset({"kind", "player", "clause"})


def parse_hand(i: int, hand: dict[str, Any], card: TarokNetCard,
               errors: ErrorCollector) -> Hand | None:
    start = len(errors)
    add = errors.add
    h = Hand()
    for key in hand:
        if key not in _HAND_FIELDS:
            add(i, str(key), "unknown_field",
                f"a hand has no field {key!r} (fields: {', '.join(sorted(_HAND_FIELDS))})")
    if card.mode == TWO:  # §2.2, a game of its own
        two.read(i, hand, card, h, errors)
        forehand = hand.get("forehand")
        if forehand is not None and (not isinstance(forehand, str) or forehand not in card.pset):
            add(i, "forehand", "not_a_player", f"forehand {forehand!r} is not a player")
        return h if len(errors) == start else None

    _penalties(i, hand, card, h, errors)

    game = hand.get("game")
    if game is None:
        kinds = {k for k, _, _ in h.penalties}
        if h.penalties and kinds <= VOID_KINDS:
            h.void = True
            for key in hand:
                if key not in ("penalties", "game", "resting", "forehand") and \
                        key in _HAND_FIELDS:
                    add(i, key, "field_not_allowed",
                        f"{key} is not used on a void hand (misdeal / no tarok)")
            _resting(i, hand, card, h, errors, void=True)
            return h if len(errors) == start else None
        add(i, "game", "missing",
            "game is required (only a void hand with misdeal / no_tarok has none)")
        return None
    if not isinstance(game, str):
        add(i, "game", "not_a_string", f"game must be a game code, got {game!r}")
        return None
    spec = SPECS[card.mode].get(game)
    if spec is None:
        if game in ALL_GAME_CODES:
            add(i, "game", "game_not_in_mode",
                f"game {game} is not played in mode {card.mode}", game=game, mode=card.mode)
        else:
            add(i, "game", "unknown_game", f"unknown game {game!r}", game=game)
        return None
    h.spec = spec
    for j, (kind, _, _) in enumerate(h.penalties):
        if kind == "no_tarok":
            add(i, f"penalties[{j}].kind", "no_tarok_on_played_hand",
                "a hand where a player has no tarok is annulled (§3.9 h): record it "
                "without a game")

    _resting(i, hand, card, h, errors, void=False)
    if spec.decided_by == KLOP:
        _klop(i, hand, card, h, errors)
    else:
        _played(i, hand, card, h, errors)
    forehand = hand.get("forehand")
    if forehand is not None and (not isinstance(forehand, str)
                                 or forehand not in card.pset):
        add(i, "forehand", "not_a_player", f"forehand {forehand!r} is not a player")
    return h if len(errors) == start else None


def _resting(i: int, hand: dict[str, Any], card: TarokNetCard, h: Hand,
             errors: ErrorCollector, void: bool) -> None:
    resting = hand.get("resting")
    if card.with_resting:
        if resting is None:
            if not void:
                errors.add(i, "resting", "missing",
                           "tri+1 at a table of four: resting names who sits this hand out")
        elif not isinstance(resting, str) or resting not in card.pset:
            errors.add(i, "resting", "resting_not_a_player",
                       f"resting {resting!r} is not a player of this card")
        else:
            h.resting = resting
    elif resting is not None:
        errors.add(i, "resting", "resting_not_allowed",
                   f"nobody rests in mode {card.mode} with {len(card.players)} players")


def _penalties(i: int, hand: dict[str, Any], card: TarokNetCard, h: Hand,
               errors: ErrorCollector) -> None:
    seen: set[tuple[str, str]] = set()
    monds = 0
    for _j, f, pen in items(i, hand, "penalties", _PENALTY_FIELDS, errors):
        ok = True
        kind = pen.get("kind")
        player = pen.get("player")
        clause = pen.get("clause")
        if kind not in PENALTY_KINDS:
            errors.add(i, f"{f}.kind", "invalid_penalty",
                       f"unknown penalty kind {kind!r} (kinds: {', '.join(PENALTY_KINDS)})")
            ok = False
        if not isinstance(player, str) or player not in card.pset:
            errors.add(i, f"{f}.player", "invalid_penalty",
                       f"penalty player {player!r} is not a player of this card")
            ok = False
        if clause is not None and (kind != "renons" or clause not in RENONS_CLAUSES):
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


def _klop(i: int, hand: dict[str, Any], card: TarokNetCard, h: Hand,
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
    h.in_hand = list(card.players)
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
            if p not in card.pset:
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
        for p in card.players:
            if p not in pbp:
                add(i, f"points_by_player.{p}", "missing",
                    f"klop needs the points of {p}")
                ok = False
        if ok:
            total = sum(pbp.values())
            tol = card.options["klop_points_tolerance"]
            if abs(total - 70) > tol:
                add(i, "points_by_player", "klop_points_do_not_add_up",
                    f"klop points add up to {total}, not 70"
                    + (f" (±{tol} allowed for counting)" if tol else ""),
                    total=total, tolerance=tol)
            else:
                h.points_by_player = pbp
    tricks = hand.get("tricks_by_player")
    if tricks is not None:
        _tricks(i, tricks, card, h, errors)
    read_klop_contras(i, hand, card, h, errors)


def _tricks(i: int, tricks: Any, card: TarokNetCard, h: Hand,
            errors: ErrorCollector) -> None:
    add = errors.add
    if not isinstance(tricks, dict):
        add(i, "tricks_by_player", "not_an_object",
            "tricks_by_player must be an object {player: tricks}")
        return
    ok = True
    for p, v in tricks.items():
        if p not in card.pset:
            add(i, f"tricks_by_player.{p}", "not_a_player",
                f"{p!r} is not a player of this card")
            ok = False
        elif not _is_int(v) or v < 0:
            add(i, f"tricks_by_player.{p}", "not_an_integer",
                f"tricks of {p} must be a whole number >= 0, got {v!r}")
            ok = False
    for p in card.players:
        if p not in tricks:
            add(i, f"tricks_by_player.{p}", "missing", f"tricks of {p} are missing")
            ok = False
    if not ok:
        return
    total = sum(tricks.values())
    if card.with_resting:
        # TRI+1 klop, all four playing: the rules do not say how the four share the deal, so
        # either deal is taken (four hands of 12, or three of 16 with the talon's cards in the
        # first six tricks); any other total is no deal at all.
        if total not in (TRICKS_FOUR, TRICKS_THREE):
            add(i, "tricks_by_player", "tricks_do_not_add_up",
                f"tricks add up to {total}, not {TRICKS_FOUR} or {TRICKS_THREE}",
                total=total, expected=[TRICKS_FOUR, TRICKS_THREE])
            return
    else:
        expected = TRICKS_FOUR if card.mode == FOUR else TRICKS_THREE
        if total != expected:
            add(i, "tricks_by_player", "tricks_do_not_add_up",
                f"tricks add up to {total}, not {expected}", total=total, expected=expected)
            return
    pbp = h.points_by_player
    if pbp is not None:
        for p in card.players:
            if (tricks[p] == 0) != (pbp[p] == 0):
                add(i, f"tricks_by_player.{p}", "tricks_do_not_match_points",
                    f"{p} has {tricks[p]} tricks and {pbp[p]} points: every trick is "
                    "worth at least one point")
                return
    h.tricks_by_player = tricks


def _played(i: int, hand: dict[str, Any], card: TarokNetCard, h: Hand,
            errors: ErrorCollector) -> None:
    add = errors.add
    spec = h.spec
    assert spec is not None
    declarer = hand.get("declarer")
    if declarer is None:
        add(i, "declarer", "missing", f"{spec.code} needs a declarer")
    elif not isinstance(declarer, str) or declarer not in card.pset:
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
                f"{spec.code} in mode {card.mode} has no partner"
                + ("" if card.mode == FOUR else " (partners only in four)"))
        elif not isinstance(partner, str) or partner not in card.pset:
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
    h.in_hand = [p for p in card.players if p != h.resting]
    side: set[str] = set()
    if h.declarer is not None:
        side = {h.declarer} if h.partner is None else {h.declarer, h.partner}
    _announcements(i, hand, card, h, side, errors)
    read_contras(i, hand, card, h, side, errors)


def _announcements(i: int, hand: dict[str, Any], card: TarokNetCard, h: Hand,
                   side: set[str], errors: ErrorCollector) -> None:
    """The hand's announcements (napovedi and silent realisations), each checked whole: one
    that is right goes into `h.announcements`; a name that cannot be one here (unknown, not
    in this game or mode, listed twice) is not read further."""
    spec = h.spec
    assert spec is not None
    seen: set[str] = set()
    for j, f, a in items(i, hand, "announcements", _ANNOUNCEMENT_FIELDS, errors):
        name, by = a.get("name"), a.get("by")
        announced, achieved, held = a.get("announced"), a.get("achieved"), a.get("held")
        if not _announcement_name_ok(i, f, name, card, h, seen, errors):
            continue
        seen.add(name)
        # Every check runs (each names its own problem); the announcement counts if none fails.
        ok = _announcer_ok(i, f, name, by, card, h, side, errors)
        ok = _announced_ok(i, f, name, announced, errors) and ok
        ok = _achieved_ok(i, f, name, announced, achieved, h, errors) and ok
        ok = _held_ok(i, f, name, held, card, errors) and ok
        if not ok:
            continue
        h.announcements.append(Ann(j, name, by, announced, achieved, bool(held), by in side))


def _announcement_name_ok(i: int, f: str, name: Any, card: TarokNetCard, h: Hand, seen: set[str],
                          errors: ErrorCollector) -> bool:
    """Whether the name is an announcement this hand can have: a known one, not in a game
    decided by tricks, kralj ultimo only four-handed with a called king, each once."""
    add = errors.add
    spec = h.spec
    assert spec is not None
    if not isinstance(name, str) or name not in ANNOUNCEMENT_NAMES:
        add(i, f"{f}.name", "unknown_announcement",
            f"unknown announcement {name!r} "
            f"(announcements: {', '.join(ANNOUNCEMENT_NAMES)})")
        return False
    # option announcements_in_high_games: "se upoštevajo le točke, ki veljajo za to igro"
    # read as "refused" (default) or as "kept and scored nothing" (`score` skips them)
    if spec.decided_by == TRICKS and card.options["announcements_in_high_games"] == "refused":
        add(i, f"{f}.name", "announcement_not_allowed",
            f"in {spec.code} only the game's own value counts ('Pri visokih igrah ... "
            "se upoštevajo le točke, ki veljajo za to igro')")
        return False
    if name == "kralj_ultimo" and card.mode != FOUR:
        add(i, f"{f}.name", "announcement_not_allowed",
            "kralj ultimo is a four-handed announcement (§2.4)")
        return False
    if name == "kralj_ultimo" and not spec.called_king:
        add(i, f"{f}.name", "announcement_not_allowed",
            f"kralj ultimo needs a called king; {spec.code} has none")
        return False
    if name in seen:
        add(i, f"{f}.name", "duplicate_announcement",
            f"{name} is listed twice in this hand")
        return False
    return True


def _announcer_ok(i: int, f: str, name: str, by: Any, card: TarokNetCard, h: Hand,
                  side: set[str], errors: ErrorCollector) -> bool:
    """Who announced: a player of the card who does not rest this hand; kralj ultimo is the
    playing pair's."""
    add = errors.add
    if not isinstance(by, str) or by not in card.pset:
        add(i, f"{f}.by", "not_a_player", f"{by!r} is not a player of this card")
        return False
    if by == h.resting:
        add(i, f"{f}.by", "announcement_by_resting_player",
            f"{by} rests this hand and cannot announce or realise anything")
        return False
    if name == "kralj_ultimo" and by not in side:
        add(i, f"{f}.by", "announcement_by_wrong_side",
            "kralj ultimo is the playing pair's announcement ('bo pripadel igralcema, "
            "ki igrata igro skupaj')")
        return False
    return True


def _announced_ok(i: int, f: str, name: str, announced: Any, errors: ErrorCollector) -> bool:
    """`announced` says napoved or silent realisation; an announced valat is a game."""
    if type(announced) is not bool:
        errors.add(i, f"{f}.announced", "missing" if announced is None else "not_a_boolean",
                   "announced is true (napoved) or false (silent realisation)")
        return False
    if announced and name == "valat":
        errors.add(i, f"{f}.announced", "announcement_not_allowed",
                   "an announced valat is a game (valat_tri ...), not an announcement")
        return False
    return True


def _achieved_ok(i: int, f: str, name: str, announced: Any, achieved: Any, h: Hand,
                 errors: ErrorCollector) -> bool:
    """`achieved` is required (but after a renons); a silent announcement that was not
    realised scores nothing, except the lost silent pagat."""
    add = errors.add
    if achieved is None:
        if not h.renons:
            add(i, f"{f}.achieved", "missing", "achieved (true or false) is required")
            return False
    elif type(achieved) is not bool:
        add(i, f"{f}.achieved", "not_a_boolean", "achieved must be true or false")
        return False
    elif announced is False and achieved is False and name != "pagat_ultimo":
        add(i, f"{f}.achieved", "silent_not_realised",
            f"a silent {name} that was not realised scores nothing; only a lost silent "
            "pagat is written in minus ('izgubljeni tihi pagat')")
        return False
    return True


def _held_ok(i: int, f: str, name: str, held: Any, card: TarokNetCard, errors: ErrorCollector) -> bool:
    """`held` (a trula in hand from the start) is the revision's (Posebnosti), and only for
    trula and pagat ultimo."""
    add = errors.add
    if held is None:
        return True
    if type(held) is not bool:
        add(i, f"{f}.held", "not_a_boolean", "held must be true or false")
        return False
    if held and not card.revised:
        add(i, f"{f}.held", "held_not_used",
            "the 2007 rules score a held trula like any other (no 'Posebnosti')")
        return False
    if held and name not in HELD_NAMES:
        add(i, f"{f}.held", "held_not_used",
            "held (trula in hand from the start) only changes trula and pagat "
            "ultimo (Posebnosti)")
        return False
    return True


