"""An event's archive kept in parts (a venue hold's kept archive, docs/venue.md): the archive
with every scorecard cut out (its skeleton) and each card apart, as its own compressed
canonical text (`Part`), read only when something reads more of it than its outline.

A venue's push at 1,024 players changes one card of 1,024, which are three fifths of the
archive's 34 MB and most of the objects a read of it makes. Kept whole, both ends of every
push read, wrote and freed all of them; kept in parts, a push reads the skeleton (the
registrations, rounds, tables and the trail) and the one card it changes, and writes the
others' bytes as they were.

- `Part`: an unread card; a read-only mapping that reads its text at the first member asked
  for beyond its outline (`OUTLINE`: what the export since an archive and the check of an
  unchanged card read of every card).
- `Kept.of(doc)`: an archive (its cards dicts or parts) ready to keep: its `digest()` and its
  `packed()` bytes; `unpacked(raw)` gives the archive back, its cards as parts.
- `digest`: the SHA-256 of the canonical text of the archive with each card replaced by the
  SHA-256 of its own canonical text: the same whether the cards are parts or read, so both
  ends of a push compare archives without writing them out whole.

Pure: no database, no framework."""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from collections.abc import Iterator, Mapping
from typing import Any

import orjson

from tournaments.archive.delta import canonical

# A card's members that are at hand without reading it: what every card is read for by the
# export since an archive (its version and time) and by the check of a card unchanged since
# (its status and ruleset; its hands' and money rows' numbers are in `numbers`).
OUTLINE = ("status", "ruleset_code", "version", "updated_at")

_MAGIC = b"tarok-archive-parts/1\n"
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")


def loads(text: bytes) -> Any:
    """A canonical text read (written by archive.delta.canonical)."""
    # orjson reads it twice as fast as the standard library, but reads a whole number beyond
    # 64 bits as a float, where the standard library reads it as it was written (canonical
    # writes those with it too). Such a number has 20 digits or more, after what a number
    # follows in a compact text (a colon, a comma, a bracket or its minus sign): looked for
    # with every digit made a 0, at C speed (a regular expression took 0.7 s on the 34 MB of
    # an archive of 1,024 players, this 60 ms). Not any 20 digits: the cards' digests in the
    # skeleton are hex, and one in 30 of them holds such a run.
    zeroed, run = text.translate(_DIGITS_AS_ZERO), b"0" * 20
    if any(zeroed.find(lead + run) >= 0 for lead in (b":", b",", b"[", b"-")):
        return json.loads(text)
    return orjson.loads(text)


class Part(Mapping):
    """A card of a kept archive, unread: its canonical text compressed, its SHA-256 and its
    outline. Equal to another part of the same text without reading either; read whole
    (`value()`) at the first member asked for beyond `OUTLINE`."""

    __slots__ = ("_packed", "_value", "sha", "outline", "hand_numbers", "money_numbers")

    def __init__(self, packed: bytes, sha: str, outline: dict[str, Any],
                 hand_numbers: list[int], money_numbers: list[int]) -> None:
        self._packed, self._value, self.sha = packed, None, sha
        self.outline, self.hand_numbers, self.money_numbers = outline, hand_numbers, money_numbers

    def text(self) -> bytes:
        """The card's canonical text."""
        return zlib.decompress(self._packed)

    def value(self) -> dict[str, Any]:
        """The card, read (once)."""
        if self._value is None:
            self._value = loads(self.text())
        return self._value

    def __getitem__(self, key: str) -> Any:
        if self._value is None and key in self.outline:
            return self.outline[key]
        return self.value()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.value())

    def __len__(self) -> int:
        return len(self.value())

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if isinstance(other, Part):
            return other.sha == self.sha
        if isinstance(other, Mapping):
            return self.value() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment] - a mapping

    def __repr__(self) -> str:
        return f"<Part {self.sha[:12]} {self.outline}>"


def card_numbers(card: Mapping[str, Any]) -> tuple[list[Any], list[Any]]:
    """A card's hand numbers and its money rows' start numbers, without reading a part (of a
    card not checked yet, what is there to take)."""
    if isinstance(card, Part):
        return card.hand_numbers, card.money_numbers

    def numbers(key: str, member: str) -> list[Any]:
        rows = card.get(key)
        return [r.get(member) for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []
    return numbers("hands", "number"), numbers("money_rows", "start_number")


def read_whole(value: Any) -> Any:
    """An archive (or a card) with every part in it read: the same object where it holds
    none. Parts are only ever a table's card, so only the tables are looked at (walking every
    value of an archive of 1,024 players took seconds)."""
    if isinstance(value, Part):
        return value.value()
    if not any(isinstance(t.get("scorecard"), Part) for t in _tables(value)):
        return value
    cards = iter([read_whole(t["scorecard"]) for t in _tables(value)])
    return _skeleton(value, cards)


def _tables(doc: Any) -> Iterator[dict[str, Any]]:
    """The tables of an archive of an event, in order (none for anything else)."""
    body = doc.get("event") if isinstance(doc, dict) else None
    rounds = body.get("rounds") if isinstance(body, dict) else None
    for rnd in rounds if isinstance(rounds, list) else ():
        tables = rnd.get("tables") if isinstance(rnd, dict) else None
        for table in tables if isinstance(tables, list) else ():
            if isinstance(table, dict):
                yield table


def _skeleton(doc: dict[str, Any], cards: Iterator[Any]) -> dict[str, Any]:
    """A copy of `doc` (shallow, down to its tables) with each table's card replaced by the
    next of `cards`."""
    body = doc["event"]
    # The same tables as `_tables` walks, in its order; anything else as it is.
    rounds = [{**r, "tables": [{**t, "scorecard": next(cards)} if isinstance(t, dict) else t
                               for t in r["tables"]]}
              if isinstance(r, dict) and isinstance(r.get("tables"), list) else r
              for r in body["rounds"]]
    return {**doc, "event": {**body, "rounds": rounds}}


def _part_of(card: Mapping[str, Any]) -> Part:
    if isinstance(card, Part):
        return card
    text = canonical(card)
    hands, money = card_numbers(card)
    return Part(zlib.compress(text, 1), hashlib.sha256(text).hexdigest(),
                {k: card[k] for k in OUTLINE if k in card}, hands, money)


class Kept:
    """An archive ready to be kept in parts: its cards made parts (those read, or new,
    written out once)."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.cards: list[Part | None] = []
        shaped = True
        for table in _tables(doc):
            card = table.get("scorecard")
            if card is not None and not isinstance(card, Mapping):
                shaped = False  # not an archive this writes in parts: kept whole
                break
            self.cards.append(None if card is None else _part_of(card))
        body = doc.get("event") if isinstance(doc, dict) else None
        self.shaped = (shaped and isinstance(body, dict) and isinstance(body.get("rounds"), list)
                       and all(isinstance(r, dict) and isinstance(r.get("tables"), list)
                               for r in body["rounds"]))
        self._head: bytes | None = None

    @classmethod
    def of(cls, doc: Any) -> Kept:
        return cls(doc)

    def _head_text(self) -> bytes:
        # The archive with each card as its SHA-256: what the digest is of.
        if self._head is None:
            self._head = canonical(_skeleton(self.doc, iter(
                [None if c is None else c.sha for c in self.cards])))
        return self._head

    def digest(self) -> str:
        """The archive's digest (module docstring)."""
        if not self.shaped:
            return hashlib.sha256(canonical(read_whole(self.doc))).hexdigest()
        return hashlib.sha256(self._head_text()).hexdigest()

    def packed(self) -> bytes:
        """The bytes to keep: the skeleton with each card's outline, then the cards."""
        if not self.shaped:
            return gzip.compress(canonical(read_whole(self.doc)), compresslevel=1)
        offsets, at = [], 0
        for card in self.cards:
            if card is not None:
                offsets.append([at, len(card._packed), card.outline, card.hand_numbers,
                                card.money_numbers])
                at += len(card._packed)
        head = zlib.compress(b"%s\n%s" % (orjson.dumps(offsets), self._head_text()), 1)
        return b"".join([_MAGIC, len(head).to_bytes(8, "big"), head,
                         *(c._packed for c in self.cards if c is not None)])


def unpacked(raw: bytes) -> Any:
    """The archive kept as `Kept.packed` gave it, its cards as parts."""
    if not raw.startswith(_MAGIC):
        return loads(gzip.decompress(raw))  # kept whole (an older hold, or not an event's)
    start = len(_MAGIC) + 8
    end = start + int.from_bytes(raw[len(_MAGIC):start], "big")
    offsets_text, head_text = zlib.decompress(raw[start:end]).split(b"\n", 1)
    offsets, doc = orjson.loads(offsets_text), loads(head_text)
    rows = iter(offsets)
    for table in _tables(doc):
        sha = table.get("scorecard")
        if sha is not None:
            at, length, outline, hands, money = next(rows)
            table["scorecard"] = Part(raw[end + at:end + at + length], sha, outline, hands, money)
    return doc
