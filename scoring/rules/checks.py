"""Validation shared by the ruleset families. Readers of a hand's fields (whole numbers,
players, per-player maps, the known fields and the game of a hand, the objects of a list
field, an announcement's flags), each adding a contract error (hand, field, code, message)
when wrong; and the two checks of a hand's consistency every family makes: that its
announcements can be true together (`check_claims`) and that a valat fits the points
counted (`valat_fits`)."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from scoring.errors import ErrorCollector

# All the card points of a deck, in every family's counting.
TOTAL_POINTS = 70
# Cards set aside as the talon: "delilec da najprej 6 kart skupaj v talon" (000 §2.3), "Do
# talónů se dává prvních 6 karet" (004), "nach 4 x 6 Karten" (001), "šest kart" (003).
TALON_CARDS = 6


def is_int(value: Any) -> bool:
    """A whole number, and not a boolean (JSON true is no score)."""
    return isinstance(value, int) and not isinstance(value, bool)


def player(i: int, fname: str, value: Any, players: list[str], errors: ErrorCollector,
           code: str = "not_a_player") -> str | None:
    """The player id in `value`, or None after an error naming the field."""
    if not isinstance(value, str) or value not in players:
        errors.add(i, fname, code, f"{fname} must be one of the players {players}, got {value!r}",
                   value=value if isinstance(value, (str, int, float, bool)) else None)
        return None
    return value


def player_map(i: int, fname: str, value: Any, players: list[str], errors: ErrorCollector,
               maximum: int = 70) -> dict[str, int] | None:
    """{player: whole number 0..maximum} with every player of the card, or None after errors."""
    if not isinstance(value, dict):
        errors.add(i, fname, "not_an_object", f"{fname} must be an object {{player: number}}")
        return None
    ok = True
    for p in value:
        if p not in players:
            errors.add(i, f"{fname}.{p}", "not_a_player", f"{p!r} is not a player of this card")
            ok = False
    for p in players:
        if p not in value:
            errors.add(i, f"{fname}.{p}", "missing", f"{fname} needs a value for player {p}")
            ok = False
            continue
        v = value[p]
        if not is_int(v) or not 0 <= v <= maximum:
            errors.add(i, f"{fname}.{p}", "out_of_range",
                       f"{fname} of {p} must be a whole number 0..{maximum}, got {v!r}")
            ok = False
    return dict(value) if ok else None


T = TypeVar("T")


def known_fields(i: int, hand: dict[str, Any], fields: Collection[str], code: str,
                 errors: ErrorCollector) -> None:
    """An error for every field of hand `i` that ruleset `code` does not use."""
    for key in hand:
        if key not in fields:
            errors.add(i, str(key), "unknown_field", f"field {key!r} is not used by {code}")


def game_of(i: int, hand: dict[str, Any], games: Mapping[str, T],
            errors: ErrorCollector) -> T | None:
    """The game of hand `i` from `games` (code -> the family's game rule), or None after an
    error naming the field."""
    code = hand.get("game")
    game = games.get(code) if isinstance(code, str) else None
    if game is None:
        errors.add(i, "game", "unknown_game",
                   f"unknown game {code!r} (games: {', '.join(games)})")
    return game


def items(i: int, hand: dict[str, Any], key: str, fields: Collection[str],
          errors: ErrorCollector) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """Each object of the list field `key` of hand `i` (announcements, contras, penalties)
    with its index and its field name (`key[k]`). Absent or null is an empty list; an error
    for a value that is not a list (no items then), for an item that is not an object (left
    out) and for every field an item does not know (the item is still given, so that its
    other problems are reported too)."""
    value = hand.get(key)
    if value is None:
        return
    if not isinstance(value, list):
        errors.add(i, key, "not_a_list", f"{key} must be a list")
        return
    for k, item in enumerate(value):
        where = f"{key}[{k}]"
        if not isinstance(item, dict):
            errors.add(i, where, "not_an_object", f"{where} must be an object")
            continue
        for name in item:
            if name not in fields:
                errors.add(i, f"{where}.{name}", "unknown_field",
                           f"{where} has no field {name!r} (fields: {', '.join(sorted(fields))})")
        yield k, where, item


@dataclass(slots=True)
class ReadAnnouncement:
    """One announcement of a hand as read: its index in the hand's list, its code, who made
    it (or, silent, realised or lost it), whether it was announced and whether achieved (None
    where a renons ended the hand)."""

    index: int
    code: str
    by: str
    announced: bool
    achieved: bool | None


def announcement_flags(i: int, where: str, item: dict[str, Any],
                       errors: ErrorCollector) -> tuple[Any, Any, bool]:
    """`announced` (true or false) and `achieved` (true or false, or not given) of an
    announcement, and whether both are well formed, after an error for each that is not."""
    announced, achieved = item.get("announced"), item.get("achieved")
    ok = True
    if not isinstance(announced, bool):
        errors.add(i, f"{where}.announced", "not_a_boolean",
                   "announced must be true (announced) or false (silent)")
        ok = False
    if achieved is not None and not isinstance(achieved, bool):
        errors.add(i, f"{where}.achieved", "not_a_boolean", "achieved must be true or false")
        ok = False
    return announced, achieved, ok


# -- what can be true together -------------------------------------------------------------

# Card names used by the claims below.
PAGAT, MOND, SKIS = "pagat", "mond", "skis"
TRULA_CARDS = frozenset({PAGAT, MOND, SKIS})
CALLED_KING = "king:called"
# The four kings; in games without a called king "king:called" is simply one of them.
KINGS = frozenset({CALLED_KING, "king:2", "king:3", "king:4"})
LAST = 1  # tricks counted from the end of the deal: 1 is the last trick


@dataclass(frozen=True, slots=True)
class Claim:
    """What one announcement of a hand says about the deal.

    `side` names the side whose tricks the claim needs (the declarer's side or the
    defenders: two announcements of one side never contradict each other by their tricks);
    `cards` end in that side's tricks, `tricks` are won by it (counted from the end, 1 = the
    last trick), `every_trick` is a valat. `held` are cards the `holder` (a player or a side,
    as the family keeps them) had in his hand from the start."""

    index: int
    name: str
    side: str
    cards: frozenset[str] = frozenset()
    tricks: frozenset[int] = frozenset()
    every_trick: bool = False
    held: frozenset[str] = frozenset()
    holder: str = ""

    @property
    def takes_tricks(self) -> bool:
        return bool(self.cards or self.tricks or self.every_trick)


def conflict(a: Claim, b: Claim) -> str | None:
    """Why `a` and `b` cannot both be true, or None when they can."""
    if a.held and b.held and a.holder != b.holder:
        common = a.held & b.held
        if common:
            return f"the {min(common)} cannot be in two hands from the start"
    if a.side == b.side:
        return None
    if (a.every_trick and b.takes_tricks) or (b.every_trick and a.takes_tricks):
        return "a side that took every trick leaves the other side none"
    common = a.cards & b.cards
    if common:
        return f"the {min(common)} cannot end in both sides' tricks"
    if a.tricks & b.tricks:
        last = min(a.tricks & b.tricks)
        which = "last" if last == LAST else f"{last}. last"
        return f"both sides cannot take the {which} trick"
    return None


def check_claims(i: int, claims: list[Claim], errors: ErrorCollector) -> None:
    """An error on the later of every pair of announcements that cannot be true together,
    naming both (params `first`, `second`: the names the players know)."""
    for k, b in enumerate(claims):
        for a in claims[:k]:
            reason = conflict(a, b)
            if reason is not None:
                errors.add(i, f"announcements[{b.index}]", "impossible_together",
                           f"{a.name} (announcements[{a.index}]) and {b.name} cannot both be "
                           f"true: {reason}", first=a.name, second=b.name)
                break


# -- a valat and the points ----------------------------------------------------------------

def most_card_points(cards: int) -> int:
    """The most card points `cards` cards can count: all of them 5-point cards, counted in
    threes less 2, a last pair less 1 and a last single card as it is (seed 003 ŠTETJE:
    "Dvema močnima se odvzame ena pika ... eni sami pa ni treba ničesar odvzemati"; seed 000
    §2.1 takes 1 from a single card too, so this is the larger of the two countings)."""
    threes, rest = divmod(cards, 3)
    return threes * 13 + (0, 5, 9)[rest]


# Counting each pile in threes can put a side one point off its exact share (seed 000 §2.1,
# the same tolerance as a klop's sum).
COUNTING_SLACK = 1


def valat_fits(points: int, declarer_side: bool, cards_outside: int) -> bool:
    """Whether the declarer's side's `points` can go with a valat: the side without a trick
    counts only the `cards_outside` cards that never were in a trick (the talon cards the
    declarer left to the defenders, or his own discards), and the valat side counts the
    rest."""
    most = most_card_points(cards_outside) + COUNTING_SLACK
    if declarer_side:
        return points >= TOTAL_POINTS - most
    return points <= most
