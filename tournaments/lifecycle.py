"""The lifecycle of a round and of a table's scorecard: which states exist, which moves between
them are allowed, which states count in the standings and which a table may still write.

A round goes draft → published → playing → closed (publishing without starting the clock and
closing straight from published are allowed). A draft is the officials' working copy: nobody
else sees it, and no card of it is written. A scorecard goes open → submitted → confirmed →
verified, and from any state but annulled to annulled. A table writes its own card while the
round is on and the card is open or submitted; after that a change is an official's correction,
with a reason. Every other module asks here instead of listing states of its own.
"""

from __future__ import annotations

from django.db.models import Q

from tournaments.models import Round, Scorecard

R = Round.Status
C = Scorecard.Status

ROUND_MOVES: dict[str, frozenset[str]] = {
    R.DRAFT: frozenset({R.PUBLISHED}),
    R.PUBLISHED: frozenset({R.PLAYING, R.CLOSED}),
    R.PLAYING: frozenset({R.CLOSED}),
    R.CLOSED: frozenset(),
}

CARD_MOVES: dict[str, frozenset[str]] = {
    C.OPEN: frozenset({C.SUBMITTED, C.ANNULLED}),
    # A change of a submitted card by its table sends it back to open.
    C.SUBMITTED: frozenset({C.OPEN, C.CONFIRMED, C.ANNULLED}),
    C.CONFIRMED: frozenset({C.VERIFIED, C.ANNULLED}),
    C.VERIFIED: frozenset({C.ANNULLED}),
    C.ANNULLED: frozenset(),
}

# Rounds whose tables are playing: their cards are the tables' to write.
PLAYABLE_ROUNDS = frozenset({R.PUBLISHED, R.PLAYING})
# Cards a table still writes; later states are corrected by officials only.
TABLE_WRITABLE_CARDS = frozenset({C.OPEN, C.SUBMITTED})
# Cards whose result counts in the standings (in rounds that are not drafts).
COUNTED_CARDS = frozenset({C.CONFIRMED, C.VERIFIED})
# Cards still waiting for their table.
PENDING_CARDS = frozenset({C.OPEN, C.SUBMITTED})
# Cards a round may close with.
FINISHED_CARDS = frozenset({C.CONFIRMED, C.VERIFIED, C.ANNULLED})
# Cards whose change by an official is a correction and needs a written reason.
CORRECTED_CARDS = frozenset({C.CONFIRMED, C.VERIFIED})


def round_may_move(current: str, target: str) -> bool:
    return target in ROUND_MOVES.get(current, frozenset())


def card_may_move(current: str, target: str) -> bool:
    return target in CARD_MOVES.get(current, frozenset())


def is_draft(rnd: Round) -> bool:
    return rnd.status == R.DRAFT


def is_playable(rnd: Round) -> bool:
    return rnd.status in PLAYABLE_ROUNDS


def is_pending(card: Scorecard) -> bool:
    return card.status in PENDING_CARDS


def is_finished(card: Scorecard) -> bool:
    return card.status in FINISHED_CARDS


def counts(card: Scorecard, rnd: Round | None = None) -> bool:
    """Whether the card's result is in the standings."""
    rnd = rnd or card.table.round
    return card.status in COUNTED_CARDS and not is_draft(rnd)


def counted_cards_q(prefix: str = "") -> Q:
    """The `counts` rule as a filter on Scorecard (or on a relation to it, with `prefix` such as
    "table__scorecard__")."""
    return (Q(**{f"{prefix}status__in": sorted(COUNTED_CARDS)})
            & ~Q(**{f"{prefix}table__round__status": R.DRAFT}))


def published_rounds_q(prefix: str = "") -> Q:
    """Rounds everybody may see (with `prefix` such as "round__" for a relation)."""
    return ~Q(**{f"{prefix}status": R.DRAFT})
