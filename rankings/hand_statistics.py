"""How players play, counted from the hands the scorecards store: a player's career figures
(games declared by kind and how often won, his average score per hand by role, announcements
made and achieved, contras given and how many were right, radelci collected, renonses) and an
event's table figures (the most played games, the biggest hands, the longest winning streaks).

Pure Python (no Django): it takes cards as plain dicts, in the order they were played —

    {"ruleset": "tarok-net-2007", "key": (round, table),
     "hands": [{"record": {...the contract's hand...}, "scores": {player: int},
                "state": {"radelci": {player: int}, ...}}, ...]}

— and reads the record's fields as docs/contracts/scorecard.md defines them for every ruleset
family. Which cards count (confirmed, of published rounds, of public events) is the caller's
business. The words people read are the caller's too: everything here is codes and numbers.

The readings, where the contract leaves them to us:
- a declarer's game is won when the record says `won`, else when his side took more than 35
  points (every family's threshold: Slovenian "več kot 35", Königrufen 35 only with `won`,
  Czech 35:35 goes against the declarer); a hand ended by a renons without either is
  undecided: it counts as declared, neither won nor lost;
- roles: the declarer, his called partner, the defenders, and "klop" for every game each player
  plays for himself (klop, Trischaken, Varšava: `decided_by == "individual"`); the resting
  player of TRI + 1 plays no role in the other games;
- a contra is right when the side it was said against lost what it was said on (said by the
  side it was said for, a re or sub, when that side won); a contra on klop is neither;
- radelci collected: every rise of the player's own count in the carried state (`radelci`),
  from 0 at the start of a card; a collective count on top of the sheet is nobody's;
- renonses: every penalty of a kind `renons…` against the player.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import scoring.rules

HALF = 35
DECLARER, PARTNER, DEFENDER, KLOP = "declarer", "partner", "defender", "klop"
ROLES = (DECLARER, PARTNER, DEFENDER, KLOP)
# A start number as the cards write it. Not str.isdigit(), which also takes "²" (int() refuses
# it); this module stays pure Python, so it cannot read numbers with tournaments.domain.limits.
_START_NUMBER = re.compile("[0-9]{1,9}")


def _individual_games() -> dict[str, frozenset[str]]:
    """Per ruleset code, its games every player plays for himself."""
    return {r.code: frozenset(g.code for g in r.games if g.decided_by == "individual")
            for r in scoring.rules.all_rulesets()}


def declarer_won(record: Mapping[str, Any]) -> bool | None:
    """Whether the declarer's side won its game; None when the hand does not say (a renons)."""
    won = record.get("won")
    if isinstance(won, bool):
        return won
    points = record.get("points")
    if isinstance(points, int) and not isinstance(points, bool):
        return points > HALF
    return None


def _declarer_side(record: Mapping[str, Any]) -> frozenset[str]:
    return frozenset(p for p in (record.get("declarer"), record.get("partner"))
                     if isinstance(p, str) and p)


def _is_individual(record: Mapping[str, Any], individual: frozenset[str]) -> bool:
    return record.get("game") in individual or not record.get("declarer")


def role_of(player: str, record: Mapping[str, Any], individual: frozenset[str],
            players: Iterable[str] = ()) -> str | None:
    """The player's role in the hand, or None when he did not play it (he rested, or he is
    not on the hand at all)."""
    if _is_individual(record, individual):
        return KLOP if record.get("game") else None
    if record.get("resting") == player:
        return None
    if record.get("declarer") == player:
        return DECLARER
    if record.get("partner") == player:
        return PARTNER
    return DEFENDER if player in players else None


def contra_right(contra: Mapping[str, Any], record: Mapping[str, Any]) -> bool | None:
    """Whether a contra was right: said against a side that then lost what it was said on,
    or said by the side it was said for (re, sub) that then won. None when undecided."""
    on, by = contra.get("on"), contra.get("by")
    side = _declarer_side(record)
    if on == "game":
        owner, achieved = record.get("declarer"), declarer_won(record)
    else:
        announcement = next((a for a in _list(record.get("announcements"))
                             if isinstance(a, Mapping) and a.get("name") == on), None)
        if announcement is None:
            return None
        achieved = announcement.get("achieved")
        owner = announcement.get("by")
        if not isinstance(achieved, bool):
            return None
    if achieved is None or not side or owner is None:
        return None
    with_owner = (by in side) == (owner in side)
    return with_owner == achieved


def _renonses(record: Mapping[str, Any]) -> list[str]:
    return [p.get("player") for p in _list(record.get("penalties"))
            if isinstance(p, Mapping) and str(p.get("kind", "")).startswith("renons")]


def _mapping(value: Any) -> Mapping[str, Any]:
    """A stored field as a mapping: whatever else a row holds (nonsense written past the
    services) counts as nothing rather than failing a page."""
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _score(hand: Mapping[str, Any], player: str) -> int:
    value = _mapping(hand.get("scores")).get(player, 0)
    return value if isinstance(value, int) else 0


# ---------------------------------------------------------------------------------------
# A player's career
# ---------------------------------------------------------------------------------------

@dataclass
class GameTally:
    declared: int = 0
    won: int = 0
    lost: int = 0


@dataclass
class RoleTally:
    hands: int = 0
    total: int = 0

    @property
    def average(self) -> float | None:
        return self.total / self.hands if self.hands else None


@dataclass
class AnnouncementTally:
    announced: int = 0
    achieved: int = 0  # of those announced
    silent_achieved: int = 0


@dataclass
class PlayerStatistics:
    """One player's figures over the cards given (one game family: one unit of score)."""

    cards: int = 0
    hands: int = 0  # hands he played (not resting)
    games: dict[str, GameTally] = field(default_factory=dict)
    roles: dict[str, RoleTally] = field(default_factory=lambda: {r: RoleTally() for r in ROLES})
    announcements: dict[str, AnnouncementTally] = field(default_factory=dict)
    contras_given: int = 0
    contras_right: int = 0
    contras_wrong: int = 0
    radelci: int = 0
    renonses: int = 0
    # the ruleset codes the cards were played under, in the order first met (for the names)
    rulesets: list[str] = field(default_factory=list)

    @property
    def declared(self) -> int:
        return sum(t.declared for t in self.games.values())

    @property
    def won(self) -> int:
        return sum(t.won for t in self.games.values())


def player_statistics(cards: Iterable[Mapping[str, Any]]) -> PlayerStatistics:
    """The figures of the player each card names as `me` (his id on that card)."""
    individual = _individual_games()
    stats = PlayerStatistics()
    for card in cards:
        me = str(card["me"])
        ruleset = card.get("ruleset", "")
        if ruleset not in stats.rulesets:
            stats.rulesets.append(ruleset)
        players = [str(p) for p in card.get("players") or [me]]
        own_games = individual.get(ruleset, frozenset())
        stats.cards += 1
        radelci_before = 0
        for hand in card.get("hands") or []:
            record = _mapping(hand.get("record"))
            role = role_of(me, record, own_games, players)
            if role is not None:
                stats.hands += 1
                stats.roles[role].hands += 1
                stats.roles[role].total += _score(hand, me)
            if role == DECLARER:
                tally = stats.games.setdefault(str(record.get("game")), GameTally())
                tally.declared += 1
                won = declarer_won(record)
                tally.won += won is True
                tally.lost += won is False
            for ann in _list(record.get("announcements")):
                if not isinstance(ann, Mapping) or ann.get("by") != me:
                    continue
                tally = stats.announcements.setdefault(str(ann.get("name")), AnnouncementTally())
                if ann.get("announced", True):
                    tally.announced += 1
                    tally.achieved += ann.get("achieved") is True
                elif ann.get("achieved") is True:
                    tally.silent_achieved += 1
            for contra in _list(record.get("contras")):
                if not isinstance(contra, Mapping) or contra.get("by") != me:
                    continue
                stats.contras_given += 1
                right = contra_right(contra, record)
                stats.contras_right += right is True
                stats.contras_wrong += right is False
            stats.renonses += _renonses(record).count(me)
            radelci = _mapping(hand.get("state")).get("radelci")
            if isinstance(radelci, Mapping):
                now = radelci.get(me, 0)
                now = now if isinstance(now, int) else 0
                stats.radelci += max(0, now - radelci_before)
                radelci_before = now
    return stats


# ---------------------------------------------------------------------------------------
# An event's tables
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BigHand:
    """A hand where one player wrote the most: who, how much, the game, where it was played."""

    player: str
    score: int
    game: str
    ruleset: str
    card: Hashable
    number: int


@dataclass(frozen=True)
class Streak:
    """A player's longest run of declared games won one after the other."""

    player: str
    length: int


@dataclass
class EventStatistics:
    hands: int = 0
    cards: int = 0
    games: Counter = field(default_factory=Counter)  # game code -> hands played
    games_won: Counter = field(default_factory=Counter)  # game code -> declarer's side won
    games_decided: Counter = field(default_factory=Counter)  # ... won or lost (has a declarer)
    biggest: list[BigHand] = field(default_factory=list)
    streaks: list[Streak] = field(default_factory=list)
    rulesets: list[str] = field(default_factory=list)

    def most_played(self) -> list[tuple[str, int, int, int]]:
        """(game code, hands, won by the declarer's side, hands with a declarer's result),
        most played first (ties by code)."""
        return [(code, n, self.games_won[code], self.games_decided[code])
                for code, n in sorted(self.games.items(), key=lambda item: (-item[1], item[0]))]


def event_statistics(cards: Iterable[Mapping[str, Any]], *, top: int = 5) -> EventStatistics:
    """The table figures of an event's cards, given in the order they were played (round by
    round, table by table), each card's players named by their ids at the event (the start
    numbers): a player's streak runs on from one round to the next.

    The biggest hands are the `top` largest scores one player wrote for one hand (the largest
    first; ties by where they were played). A winning streak is a run of games a player
    declared and won in a row; a game he declared and lost ends it, hands he did not declare
    (or whose result the hand does not say) neither lengthen nor end it. The `top` longest
    are given, the longest first, ties by player id."""
    stats = EventStatistics()
    big: list[BigHand] = []
    run: dict[str, int] = {}
    best: dict[str, int] = {}
    for card in cards:
        stats.cards += 1
        ruleset = card.get("ruleset", "")
        if ruleset not in stats.rulesets:
            stats.rulesets.append(ruleset)
        for number, hand in enumerate(card.get("hands") or [], start=1):
            record = _mapping(hand.get("record"))
            game = record.get("game")
            if not game or not isinstance(game, str):
                continue
            stats.hands += 1
            stats.games[game] += 1
            declarer = record.get("declarer")
            won = declarer_won(record) if declarer else None
            stats.games_won[game] += won is True
            stats.games_decided[game] += won is not None
            scores = _mapping(hand.get("scores"))
            if scores:
                player, score = max(((str(p), s) for p, s in scores.items()
                                     if isinstance(s, int)), key=lambda item: item[1],
                                    default=("", 0))
                if score > 0:
                    big.append(BigHand(player=player, score=score, game=game, ruleset=ruleset,
                                       card=card.get("key"), number=hand.get("number", number)))
            if declarer and won is not None:
                declarer = str(declarer)
                run[declarer] = run.get(declarer, 0) + 1 if won else 0
                best[declarer] = max(best.get(declarer, 0), run[declarer])
    big.sort(key=lambda b: (-b.score, _order(b.card), b.number))
    stats.biggest = big[:top]
    streaks = sorted((Streak(p, n) for p, n in best.items() if n > 0),
                     key=lambda s: (-s.length, _order(s.player)))
    stats.streaks = streaks[:top]
    return stats


def _order(value: Any) -> tuple:
    """Sort key that puts numeric ids in number order ("2" before "10")."""
    if isinstance(value, tuple):
        return tuple(_order(v) for v in value)
    text = str(value)
    return (0, int(text), "") if _START_NUMBER.fullmatch(text) else (1, 0, text)
