"""TRI + 1 at one table: who deals, who rests and who leads, hand by hand.

Seed 000 §3: "Na tekmovanjih se igra tarok v TRI + 1 - trije igrajo, talon počiva (razen v
primeru klopa, ko igrajo vsi štirje igralci). Igra se 24 iger." The "talon" who rests is the
dealer: §3.1 has the dealer put 6 cards in the talon and give "vsakemu igralcu v dveh krogih
po 8 kart" - 6 + 3 × 16 = 54, the whole pack, so only three players receive cards and the
dealer sits the hand out (in klop he plays too; the scorecard still names him as resting).

Seat order: the player who drew the highest card deals first and keeps his place, the others
sit "v smeri poteka igre po vrsti po moči potegnjene karte", so seat 1 is the first dealer
and the seats follow the direction of play. The deal passes to the next seat in that
direction each hand, so with four players everyone deals, and rests, 6 of the 24 hands.
Forehand (first to bid and lead, "prvi igralec") is the first player dealt to: the seat after
the dealer. With three at a table nobody rests and the dealer plays his own cards.
"""

from __future__ import annotations

from typing import Any

from .errors import ErrorCollector

HANDS_PER_MATCH = 24


def rest_rotation(players: list[str], hands: int = HANDS_PER_MATCH) -> list[dict[str, Any]]:
    """For each hand (numbered from 1): {"hand", "dealer", "resting", "forehand", "playing"}.

    `players` are the table's players in seat order (seat 1 deals the first hand).
    """
    errors = ErrorCollector()
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        errors.add("players", "bad_players", "players must be a list of player ids in seat order")
    elif len(set(players)) != len(players):
        errors.add("players", "duplicate_player", "a player is listed twice at the table")
    elif len(players) not in (3, 4):
        errors.add("players", "bad_table_size", f"TRI + 1 is played by 4 (or 3) at a table, got {len(players)}",
                   count=len(players))
    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
        errors.add("hands", "bad_hands", f"hands must be a whole number >= 1, got {hands!r}")
    errors.raise_if_any()
    seats = len(players)
    schedule = []
    for hand in range(hands):
        dealer = players[hand % seats]
        resting = dealer if seats == 4 else None
        playing = [p for p in players if p != resting]
        forehand = players[(hand + 1) % seats]
        schedule.append({"hand": hand + 1, "dealer": dealer, "resting": resting,
                         "forehand": forehand, "playing": playing})
    return schedule


def rests_per_player(players: list[str], hands: int = HANDS_PER_MATCH) -> dict[str, int]:
    """How many hands each player sits out (6 each for four players and 24 hands)."""
    counts = {p: 0 for p in players}
    for hand in rest_rotation(players, hands):
        if hand["resting"] is not None:
            counts[hand["resting"]] += 1
    return counts
