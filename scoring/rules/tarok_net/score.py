"""Scoring a checked hand of the Tarok.net rules: game and difference, announcements and
silent realisations, kontra and rekontra with the shares of each version, klop, radelci,
renons and the other penalties of §3.9. Every reading of an open clause is documented in
docs/rulesets/tarok-net-2007.md and docs/rulesets/tarok-net-revised.md.

Amounts are computed in sixths of a point so that the halves and thirds of the contra tables
stay exact; each written amount is rounded once (option `rounding`) before radelci double it.
"""

from __future__ import annotations

from typing import Any

from scoring.rules.tarok_net import two
from scoring.rules.tarok_net.hand import Ann, Hand, TarokNetCard
from scoring.rules.tarok_net.tables import (
    ANNOUNCEMENT_NAMES,
    ANNOUNCEMENT_VALUES,
    CONTRA_NAMES,
    FOUR,
    HALF,
    HELD_ANNOUNCED,
    HELD_SILENT,
    KLOP,
    KLOP_CONTRA_LIMIT_2007,
    KLOP_CONTRA_LIMIT_REVISED,
    KLOP_FULL_AT,
    KLOP_FULL_SCORE,
    KLOP_PENALTY_REVISED,
    KRALJ_ULTIMO_ALONE,
    KRALJ_ULTIMO_WITH_PARTNER,
    MISDEAL_STEP,
    MOND_PENALTY,
    POINTS,
    RENONS_BASE,
    REVISED_ASSOCIATE_LOSS,
    TRI1,
    TWO,
    WIN_AT,
)


def _fmt(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def score_hand(h: Hand, card: TarokNetCard, state: dict[str, Any]) -> dict[str, Any]:
    if card.mode == TWO:  # §2.2: no radelci, misdeals or penalties to carry
        return two.score(h, card)
    radelci, misdeals = state["radelci"], state["misdeals"]
    scores = dict.fromkeys(card.players, 0)
    lines: list[dict[str, Any]] = []
    value = 0
    spec = h.spec
    if h.void:
        pass
    elif h.renons:
        value = spec.value or 0
        _renons(card, h, radelci, scores, lines)
    elif spec.decided_by == KLOP:
        _klop(card, h, scores, lines)
    else:
        value = _played(card, h, radelci, scores, lines)
    _penalties(card, h, misdeals, scores, lines)
    _radelci_after(card, h, radelci)
    return {"value": value, "scores": scores, "lines": lines}


def _radelci_after(card: TarokNetCard, h: Hand, radelci: dict[str, int]) -> None:
    spec = h.spec
    if h.void or spec is None:
        return
    if h.renons and not card.options["radelci_after_renons"]:
        return
    if spec.decided_by == KLOP:
        for p in card.players:
            radelci[p] += 1
        return
    high = card.mode == TRI1 or card.options["high_game_radelci"] == "every_mode"
    if high and spec.code in card.radelc_games:
        for p in h.in_hand:
            radelci[p] += 1
        if h.resting is not None and card.options["radelci_for_resting_player"]:
            radelci[h.resting] += 1


def _played(card: TarokNetCard, h: Hand, radelci: dict[str, int], scores: dict[str, int],
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
    _item(card, "game", spec.code, what_game, value * 6, y6, won, h.game_level, declarer,
          [partner] if partner is not None else [], h.game_contra_by,
          [p for p in defenders + outsiders if p != h.game_contra_by], scores, lines,
          game_params, f", difference {diff}" if spec.decided_by == POINTS else "",
          split=_solo_split(card, h))

    # option announcements_in_high_games "not_scored": a high game keeps its announcements
    # but "se upoštevajo le točke, ki veljajo za to igro"
    if spec.decided_by == POINTS:
        for ann in h.announcements:
            _announcement(card, h, ann, own_side, defenders, outsiders, scores, lines)

    for p, holder in _radelc_holders(card, h, radelci, defenders, outsiders).items():
        _double(card, p, holder, radelci[holder], scores, lines)
    if won:
        _erase(card, declarer, radelci)
        if partner is not None and _partner_radelc_erased(card):
            _erase(card, partner, radelci)
    return value


def _radelc_holders(card: TarokNetCard, h: Hand, radelci: dict[str, int],
                    defenders: list[str], outsiders: list[str]) -> dict[str, str]:
    """Whose radelci double each player's points in this game (§3.4 "Radelc podvoji celoten
    seštevek točk igre"): the declarer's his own; the partner's by option `partner_radelc`
    ("tudi soigralcu"); the others' by `radelc_doubles_defenders` (the declarer's) and
    `defenders_own_radelc` (their own). Where two players' radelci could act, the one with
    more acts (a player's points are doubled by one holder's radelci, never twice over)."""
    opts = card.options
    declarer, partner = h.declarer, h.partner
    out: dict[str, str] = {}

    def pick(p: str, candidates: list[str]) -> None:
        held = [c for c in candidates if radelci[c] > 0]
        if held:
            out[p] = max(held, key=lambda c: radelci[c])

    pick(declarer, [declarer])
    if partner is not None:
        mode = opts["partner_radelc"]
        pick(partner, ([declarer] if mode in ("declarer", "either") else [])
             + ([partner] if mode in ("own", "either") else []))
    for p in defenders + outsiders:
        pick(p, ([declarer] if card.double_defenders else [])
             + ([p] if opts["defenders_own_radelc"] and p in defenders else []))
    return out


def _radelc_factor(card: TarokNetCard, count: int) -> int:
    """×2 for a holder of radelci, or ×2 for each one he holds (option `several_radelci`)."""
    if count <= 0:
        return 1
    return 1 << count if card.options["several_radelci"] == "each" else 2


def _double(card: TarokNetCard, p: str, holder: str, count: int, scores: dict[str, int],
            lines: list[dict[str, Any]]) -> None:
    """Double p's points once per acting radelc, one `radelc` line per doubling."""
    factor = _radelc_factor(card, count)
    while factor > 1 and scores[p]:
        sub = scores[p]
        scores[p] = sub * 2
        lines.append({"player": p, "what": f"radelc doubles {_fmt(sub)}",
                      "points": sub, "code": "radelc",
                      "params": {"subtotal": sub, "radelc_of": holder}})
        factor //= 2


def _erase(card: TarokNetCard, p: str, radelci: dict[str, int]) -> None:
    """A won game erases one radelc of the player, or all of them (option `radelci_erased`,
    §3.4 "se briše igralcu, ki igra, v primeru dobljene igre")."""
    if radelci[p] > 0:
        radelci[p] = 0 if card.options["radelci_erased"] == "all" else radelci[p] - 1


def _partner_radelc_erased(card: TarokNetCard) -> bool:
    """Option `partner_radelc_erased`: the partner's own radelc goes with a won game when it
    doubled his points (`partner_radelc` own / either), always, or never."""
    rule = card.options["partner_radelc_erased"]
    if rule == "if_counted":
        return card.options["partner_radelc"] in ("own", "either")
    return rule == "always"


def _announcement(card: TarokNetCard, h: Hand, ann: Ann, own_side: list[str],
                  defenders: list[str], outsiders: list[str], scores: dict[str, int],
                  lines: list[dict[str, Any]]) -> None:
    name = ann.name
    table = _kralj_ultimo_table(card, h, ann) if name == "kralj_ultimo" \
        else ANNOUNCEMENT_VALUES[name]
    if ann.announced:
        x, y = table[2], table[3]
    else:
        x, y = table[0], table[1]
    if ann.held:
        x = HELD_ANNOUNCED if ann.announced else HELD_SILENT
        y = x
    x6 = x * 6
    y6 = (x * 3 if card.held_half else x * 6) if ann.held else y * 6
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
    _item(card, kind, name, label, x6, y6, bool(ann.achieved), ann.level, owner,
          associates, ann.contra_by, uninvolved, scores, lines, params,
          self_declarer=h.declarer, split=ann.declarer_side and _solo_split(card, h))


def _solo_split(card: TarokNetCard, h: Hand) -> bool:
    """Revision, four, a declarer without a partner: whether the two defenders who did not
    say a wrong kontra share the Brani2 share (option `solo_other_defenders_share`)."""
    return (card.revised and card.mode == FOUR and h.partner is None
            and card.options.get("solo_other_defenders_share") == "split")


def _kralj_ultimo_table(card: TarokNetCard, h: Hand, ann: Ann) -> tuple[int, int, int, int]:
    """§2.4 "kralj ultimo (vleče soigralec)" or "(vleče sam)": by option `kralj_ultimo_row`,
    the first whenever the declarer has a partner, or only when the partner (`by`) takes
    the last trick."""
    if h.partner is None:
        return KRALJ_ULTIMO_ALONE
    if card.options["kralj_ultimo_row"] == "taker" and ann.by != h.partner:
        return KRALJ_ULTIMO_ALONE
    return KRALJ_ULTIMO_WITH_PARTNER


def _item(card: TarokNetCard, kind: str, item: str, label: str, x6: int, y6: int,
          success: bool, level: int, owner: str, associates: list[str], contra_by: str | None,
          uninvolved: list[str], scores: dict[str, int], lines: list[dict[str, Any]],
          params: dict[str, Any], detail: str = "",
          self_declarer: str | None = None, split: bool = False) -> None:
    """Write one item (the game or one announcement) with its contras.

    2007 (§3.6, §2.3, §2.4 tables): owner ±T*f, partner ±y unchanged by contras, the
    contra-giver ∓T*(f-1), everyone else 0. Revision: owner ±T*f, partner/fellow
    defender y*f when won and -y, -y*4/3, -y*2 when lost, the contra-giver nothing when
    wrong and +T*(f-1)/2 when right, the uninvolved players +T*(f-1)/2 when he was wrong.
    """
    rnd = card.rnd
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
    revised = card.revised
    share_of = "partner's share" if kind == "game" or owner == self_declarer else \
        "fellow defender's share"
    for p in associates:
        if not revised:
            a6 = s * y6
        elif success:
            a6 = y6 * f
        else:
            num, den = REVISED_ASSOCIATE_LOSS[level]
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
        # option solo_other_defenders_share "split": the two defenders of a four-handed
        # solo who did not say the kontra share the Brani2 share
        pts = _split_share(rnd, share6 // 6, len(uninvolved)) if split else rnd(half6)
        for p in uninvolved:
            lines.append({"player": p,
                          "what": f"compensation: {CONTRA_NAMES[1]} on {item} was wrong",
                          "points": pts, "code": "contra_compensation",
                          "params": dict(role_params, role="uninvolved")})
            scores[p] += pts


def _split_share(rnd: Any, share: int, n: int) -> int:
    """share / 2 (the Brani2 share T·(f−1)/2) divided among n players, rounded once: a
    quarter is rounded to the nearer whole point, a half by the option `rounding`."""
    if n <= 1:
        return rnd(share * 3)
    num, den = share, 2 * n
    if (num * 6) % den == 0:
        return rnd(num * 6 // den)
    return (2 * num + den) // (2 * den)


def _klop(card: TarokNetCard, h: Hand, scores: dict[str, int],
          lines: list[dict[str, Any]]) -> None:
    pbp = h.points_by_player
    if card.mode != TRI1:
        # §2.3/§2.4: "Vse točke ... so negativne ... Igralcu, ki se mu je posrečilo
        # realizirati 35 ali več točk, pa se izkupiček šteje dvojno."
        for p in card.players:
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
    full = [p for p in card.players if pbp[p] >= KLOP_FULL_AT]
    no_trick = [p for p in card.players if p != h.resting
                and (tricks[p] == 0 if tricks is not None else pbp[p] == 0)]
    if full or no_trick:
        mult = f if card.options["klop_contra_on_full_and_no_trick"] else 1
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
    for p in card.players:
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
        if card.revised:
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


def _renons(card: TarokNetCard, h: Hand, radelci: dict[str, int], scores: dict[str, int],
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
        # option renons_contra: the contra multiplies "-vrednost igre + -35" or the value
        if card.options["renons_contra"] == "value_only":
            total = base * f + RENONS_BASE
            parts = [f"game {base}" + (f" x{f}" if f > 1 else "") + f" + {RENONS_BASE}"]
        else:
            total = (base + RENONS_BASE) * f
            parts = [f"game {base} + {RENONS_BASE}" + (f" x{f}" if f > 1 else "")]
        # the same items as data, so that the line can be written in other languages
        counted: list[dict[str, Any]] = []
        for ann in h.announcements:
            # a high game counts "le točke, ki veljajo za to igro"
            if not ann.announced or spec.decided_by != POINTS \
                    or not _renons_counts(card, h, ann, player):
                continue
            if ann.held:
                av = HELD_ANNOUNCED
            elif ann.name == "kralj_ultimo":
                av = _kralj_ultimo_table(card, h, ann)[2]
            else:
                av = ANNOUNCEMENT_VALUES[ann.name][2]
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
        scores[player] += pts
        if h.declarer is not None and radelci[h.declarer] > 0:
            _double(card, player, h.declarer, radelci[h.declarer], scores, lines)


def _renons_counts(card: TarokNetCard, h: Hand, ann: Ann, offender: str) -> bool:
    """Whether an announced item is one of the offender's "-napovedane posebne napovedi":
    every one of the hand (option `renons_announcements` = `all`), or only those of his own
    side (`offenders_side`; the resting player has no side)."""
    if card.options["renons_announcements"] == "all":
        return True
    if offender == h.resting:
        return False
    return ann.declarer_side == (offender in (h.declarer, h.partner))


def _penalties(card: TarokNetCard, h: Hand, misdeals: dict[str, int], scores: dict[str, int],
               lines: list[dict[str, Any]]) -> None:
    per_table = card.options["misdeal_count"] == "table"
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
