"""Scoring a checked hand of the GP Vysočiny rules (seed 004): payments between the players
in haléř for the game (difference to 35 eyes times the rate, rounded up), the hlášky, the
renonc and the other fines, Varšava; then the payments netted between each two players and
the 20 Kč herní strop applied. Decisions: docs/rulesets/gp-vysociny-2004.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.money import english_kc
from scoring.rules.base import Card, Ruleset
from scoring.rules.gp_vysociny.parse import ParsedAnnouncement, ParsedHand, declarer_side
from scoring.rules.gp_vysociny.tables import (
    CONTRA_NAMES,
    GAME_CAP,
    HALF_OF_EYES,
    HELD_HLASKY,
    MINOR_RENONS_FINE,
    MISDEAL_FINE,
    ONE_AGAINST_THREE_GAMES,
    OPTION_CAP,
    OPTION_CAP_ON_RENONC,
    OPTION_EQUAL_EYES_RATE,
    OPTION_EQUAL_EYES_ROUNDED,
    OPTION_PARTNER_PAYMENT,
    OPTION_PREFERANC_RENONC_FLEK,
    OPTION_SILENT_LOST,
    OPTION_VARSAVA_TIE,
    PENALTY_MISDEAL,
    PENALTY_RENONS,
    PENALTY_RENONS_PLAY_CONTINUES,
    PLAYED_HLASKY,
    PREFERANC_GAMES,
    RATE_PER_EYE,
    RENONS_BASE,
    ROUNDING_STEP,
    SEATS,
    VARSAVA,
    VARSAVA_FOREHAND_PAY_NO_TRICK,
    VARSAVA_FOREHAND_PAY_OTHER,
    VARSAVA_PAY_NO_TRICK,
    VARSAVA_PAY_OTHER,
    VARSAVA_RENONS_FINE,
    round_up,
)


@dataclass
class Transfer:
    payer: str
    receiver: str
    amount: int
    # False for a renonc payment when option cap_applies_to_renonc is off: paid in full
    capped: bool = True


def score_hand(hand: ParsedHand, card: Card, state: dict[str, Any]) -> dict[str, Any]:
    # money rules have no radelci: nothing carries to the next hand
    rs, players, options = card.ruleset, card.players, card.options
    lines: list[dict[str, Any]] = []
    transfers: list[Transfer] = []
    ends_by = hand.ends_by
    if ends_by == PENALTY_MISDEAL:
        value = _misdeal(hand, players, transfers, lines)
    elif hand.game == VARSAVA:
        if ends_by == PENALTY_RENONS:
            value = _varsava_renons(hand, players, transfers, lines)
        else:
            value = _varsava(hand, players, options, transfers, lines)
    elif ends_by == PENALTY_RENONS:
        value = _renons(rs, hand, players, options, transfers, lines)
    else:
        value = _game(rs, hand, players, options, transfers, lines)
    # Option cap_applies_to_renonc: every fine of this ruleset is a renonc ("renonc ve výši
    # 1,- Kč" for the misdeal too); the game's own payments keep the cap in any case.
    renonc_capped = options[OPTION_CAP_ON_RENONC]
    ends_by_renonc = ends_by in (PENALTY_RENONS, PENALTY_MISDEAL)
    if ends_by_renonc:
        for t in transfers:
            t.capped = renonc_capped
    for player in hand.penalty_players(PENALTY_RENONS_PLAY_CONTINUES):
        lines.append(_line(player, f"renonc by {player}, play continued: pays "
                                   f"{english_kc(MINOR_RENONS_FINE)} to every other player",
                           -MINOR_RENONS_FINE * (SEATS - 1), "renons_play_continues",
                           player=player, fine=MINOR_RENONS_FINE))
        transfers.extend(Transfer(player, p, MINOR_RENONS_FINE, renonc_capped)
                         for p in players if p != player)
    scores = _settle(players, transfers, options, lines)
    return {"value": value if ends_by_renonc and not renonc_capped else min(value, GAME_CAP),
            "scores": scores, "lines": lines}


def _game(rs: Ruleset, hand: ParsedHand, players: list[str], options: dict[str, Any],
          transfers: list[Transfer], lines: list[dict[str, Any]]) -> int:
    assert hand.points is not None and hand.declarer is not None
    side = declarer_side(hand)
    level = hand.contra_level
    factor = 2 ** level
    rate = RATE_PER_EYE[hand.game] * factor
    game_name = rs.game(hand.game).name  # type: ignore[union-attr]
    flek = CONTRA_NAMES.get(level, "no flek")
    params = {"game": hand.game, "points": hand.points, "level": level, "rate": rate,
              "declarer": hand.declarer, "partner": hand.partner, "called": hand.called}
    if hand.points == HALF_OF_EYES:
        # options equal_eyes_rate and equal_eyes_rounded_up: which eye, and whether it is
        # rounded up like the other game amounts
        raw = rate if options[OPTION_EQUAL_EYES_RATE] == "flek_level" else RATE_PER_EYE[hand.game]
        amount = round_up(raw) if options[OPTION_EQUAL_EYES_ROUNDED] else raw
        # equal eyes: the bidder pays one eye, unless the opponents fleked.
        sign = 1 if level >= 1 else -1
        who = "the opponents pay" if sign > 0 else "the declarer's side pays"
        lines.append(_line(None, f"{game_name} ({flek}): equal eyes 35:35, {who} one eye "
                                 f"{raw} hal"
                                 + (f", rounded up to {english_kc(amount)}" if amount != raw
                                    else ""),
                           amount, "game_equal_eyes", raw=raw, amount=amount,
                           payer_side="opponents" if sign > 0 else "declarer", **params))
    else:
        difference = abs(hand.points - HALF_OF_EYES)
        raw = difference * rate
        amount = round_up(raw)
        sign = 1 if hand.points > HALF_OF_EYES else -1
        result = "won" if sign > 0 else "lost"
        rounded = f", rounded up to {english_kc(amount)}" if amount != raw else ""
        lines.append(_line(None, f"{game_name} ({flek}) {result}: {hand.points} eyes, "
                                 f"difference {difference} x {rate} hal = {raw} hal"
                                 f"{rounded}",
                           amount, f"game_{result}", difference=difference, raw=raw,
                           amount=amount, **params))
    per_payment = sign * amount
    for a in hand.announcements:
        per_payment += _announcement_line(a, side, options, lines)

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


def _announcement_line(a: ParsedAnnouncement, side: tuple[str, ...],
                       options: dict[str, Any], lines: list[dict[str, Any]]) -> int:
    """Add the line of one hláška; return its signed effect on one payment
    (positive: the opponents pay the declarer's side)."""
    ours = a.by in side
    side_name = "declarer's side" if ours else "opponents"
    if a.name in HELD_HLASKY:
        name, value = HELD_HLASKY[a.name]
        lines.append(_line(a.by, f"{name} held by {a.by} ({side_name}): {english_kc(value)}",
                           value, "announcement", name=a.name, by=a.by, announced=True,
                           achieved=True, value=value, side=side_name))
        return value if ours else -value
    name, announced_value, silent_value = PLAYED_HLASKY[a.name]
    value = announced_value if a.announced else silent_value
    how = "announced" if a.announced else "silent"
    if a.achieved:
        lines.append(_line(a.by, f"{name} {how} by {a.by} ({side_name}) achieved: "
                                 f"{english_kc(value)}",
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
                             f"-{english_kc(value)}",
                       -value, "announcement", name=a.name, by=a.by,
                       announced=a.announced, achieved=False, value=value,
                       side=side_name))
    return -value if ours else value


def _renons(rs: Ruleset, hand: ParsedHand, players: list[str], options: dict[str, Any],
            transfers: list[Transfer], lines: list[dict[str, Any]]) -> int:
    assert hand.declarer is not None
    level = hand.contra_level
    multiplied = hand.game not in PREFERANC_GAMES or options[OPTION_PREFERANC_RENONC_FLEK]
    base = RENONS_BASE[hand.game] * (2 ** level if multiplied else 1)
    announced_total = sum(
        HELD_HLASKY[a.name][1] if a.name in HELD_HLASKY else PLAYED_HLASKY[a.name][1]
        for a in hand.announcements if a.announced
    )
    amount = base + announced_total
    game_name = rs.game(hand.game).name  # type: ignore[union-attr]
    for offender in hand.penalty_players(PENALTY_RENONS):
        triple = hand.game in ONE_AGAINST_THREE_GAMES and offender != hand.declarer
        for p in players:
            if p == offender:
                continue
            owed = 3 * amount if triple and p == hand.declarer else amount
            transfers.append(Transfer(offender, p, owed))
        what = (f"renonc by {offender} ends the {game_name} "
                f"({CONTRA_NAMES.get(level, 'no flek')}): {english_kc(base)} + announced hlášky "
                f"{english_kc(announced_total)} = {english_kc(amount)}")
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


def _misdeal(hand: ParsedHand, players: list[str], transfers: list[Transfer],
             lines: list[dict[str, Any]]) -> int:
    for offender in hand.penalty_players(PENALTY_MISDEAL):
        lines.append(_line(offender, f"{offender} had a wrong number of cards, found "
                                     f"before the lead: pays {english_kc(MISDEAL_FINE)} to every "
                                     f"other player; dealt again",
                           -MISDEAL_FINE * (SEATS - 1), "misdeal", player=offender,
                           fine=MISDEAL_FINE))
        transfers.extend(Transfer(offender, p, MISDEAL_FINE)
                         for p in players if p != offender)
    return MISDEAL_FINE


def _varsava_renons(hand: ParsedHand, players: list[str],
                    transfers: list[Transfer], lines: list[dict[str, Any]]) -> int:
    for offender in hand.penalty_players(PENALTY_RENONS):
        lines.append(_line(offender, f"renonc by {offender} ends the Varšava: pays "
                                     f"{english_kc(VARSAVA_RENONS_FINE)} to every other player",
                           -VARSAVA_RENONS_FINE * (SEATS - 1), "renons", player=offender,
                           game=VARSAVA, amount=VARSAVA_RENONS_FINE))
        transfers.extend(Transfer(offender, p, VARSAVA_RENONS_FINE)
                         for p in players if p != offender)
    return 0


def _varsava(hand: ParsedHand, players: list[str], options: dict[str, Any],
             transfers: list[Transfer], lines: list[dict[str, Any]]) -> int:
    eyes = hand.points_by_player
    tricks = hand.tricks_by_player
    assert eyes is not None and tricks is not None and hand.forehand is not None
    most = max(eyes.values())
    losers = [p for p in players if eyes[p] == most]
    # option varsava_tie_with_forehand: in a tie the forehand pays like the other (same_scale)
    tied_alike = len(losers) > 1 and options[OPTION_VARSAVA_TIE] == "same_scale"
    for loser in losers:
        by_forehand = loser == hand.forehand and not tied_alike
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
                                  f"and pays {english_kc(paid)}",
                           -paid, "varsava_most_eyes", player=loser, eyes=most,
                           forehand=by_forehand, paid=paid))
    return 0


def _settle(players: list[str], transfers: list[Transfer], options: dict[str, Any],
            lines: list[dict[str, Any]]) -> dict[str, int]:
    """Net the transfers between each two players, apply the herní strop, and write
    one payment line per pair that exchanges money."""
    payments = _net(players, [t for t in transfers if t.capped])

    if options[OPTION_CAP] == "payment":
        for t in payments:
            if t.amount > GAME_CAP:
                lines.append(_line(t.payer, f"herní strop: {t.payer} pays {t.receiver} "
                                            f"{english_kc(GAME_CAP)} instead of {english_kc(t.amount)}",
                                   GAME_CAP - t.amount, "cap_applied", payer=t.payer,
                                   receiver=t.receiver, before=t.amount, after=GAME_CAP,
                                   cap=GAME_CAP))
                t.amount = GAME_CAP
    else:
        _cap_per_receiver(players, payments, lines)
    uncapped = [t for t in transfers if not t.capped]
    if uncapped:
        # renonc payments outside the cap (option cap_applies_to_renonc false)
        payments = _net(players, payments + uncapped)

    scores = {p: 0 for p in players}
    for t in payments:
        scores[t.payer] -= t.amount
        scores[t.receiver] += t.amount
        lines.append(_line(t.receiver, f"{t.payer} pays {t.receiver} {english_kc(t.amount)}",
                           t.amount, "payment", payer=t.payer, receiver=t.receiver,
                           amount=t.amount))
    return scores


def _net(players: list[str], transfers: list[Transfer]) -> list[Transfer]:
    """The transfers netted between each two players, in seat order of payer and receiver."""
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
    return payments


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
                                        f"{english_kc(GAME_CAP)} in one game; {t.payer} pays "
                                        f"{english_kc(after)} instead of {english_kc(t.amount)}",
                               after - t.amount, "cap_applied", payer=t.payer,
                               receiver=receiver, before=t.amount, after=after,
                               scope="receiver",
                               cap=GAME_CAP))
            t.amount = after


def _seat_order_from(players: list[str], first: str) -> list[str]:
    """The players in seat order starting with `first`."""
    k = players.index(first)
    return players[k:] + players[:k]


def _line(player: str | None, what: str, points: int, code: str, /, **params: Any
          ) -> dict[str, Any]:
    return {"player": player, "what": what, "points": points, "code": code,
            "params": params}
