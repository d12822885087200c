"""An event's archive kept in parts (a venue hold's kept archive, docs/venue.md): the archive
with every scorecard cut out (its skeleton) and each card apart, as its own compressed
canonical text (`Part`), read only when something reads more of it than its outline.

A venue's push at 1,024 players changes one card of 1,024, which are three fifths of the
archive's 34 MB and most of the objects a read of it makes, and adds a few entries to a trail
of some 27,000 (13 MB). Kept whole, both ends of every push read, wrote and freed all of them;
kept in parts, a push reads the skeleton (the registrations, rounds and tables, about 1 MB),
the one card it changes and the trail's last chunk, and writes the others' bytes as they were.

- `Part`: an unread card; a read-only mapping that reads its text at the first member asked
  for beyond its outline (`OUTLINE`: what the export since an archive and the check of an
  unchanged card read of every card).
- `Trail`: the audit trail in chunks of `TRAIL_CHUNK` entries, each read at the first entry
  asked for; a read-only sequence, `extended` by a push's new entries (its full chunks shared).
- `Kept.of(doc)`: an archive (its cards dicts or parts, its trail a list or a `Trail`) ready
  to keep: its `digest()` and its `packed()` bytes; `unpacked(raw)` gives the archive back,
  its cards as parts and its trail a `Trail`.
- `digest`: the SHA-256 of the canonical text of the archive with each card replaced by the
  SHA-256 of its own canonical text, and the trail by the list of the SHA-256 of each run of
  `TRAIL_CHUNK` entries (the canonical text of the list of them; the last run may be
  shorter): the same whether the cards and the trail are parts or read, so both ends of a
  push compare archives without writing them out whole.

Pure: no database, no framework."""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import orjson

from tournaments.archive.delta import canonical

# A card's members that are at hand without reading it: what every card is read for by the
# export since an archive (its version and time) and by the check of a card unchanged since
# (its status and ruleset; its hands' and money rows' numbers are in `numbers`).
OUTLINE = ("status", "ruleset_code", "version", "updated_at")

# Entries of the trail kept as one chunk, and one hash of the digest: both ends of a push must
# cut the trail the same way (a server of another value computes other digests, and the laptop
# then sends the whole archive). 512 entries are some 250 KB of text, read and written again
# at every push while they are the last chunk.
TRAIL_CHUNK = 512

_MAGIC = b"tarok-archive-parts/2\n"
_MAGIC_CARDS_ONLY = b"tarok-archive-parts/1\n"  # the trail kept in the skeleton (2026-11-29)
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


class Chunk:
    """A run of entries of a trail: read (`entries`), or kept (its compressed canonical text
    and SHA-256), and the other written once when asked for."""

    __slots__ = ("_packed", "_entries", "_sha", "count")

    def __init__(self, *, entries: list[Any] | None = None, packed: bytes | None = None,
                 sha: str | None = None, count: int) -> None:
        self._entries, self._packed, self._sha, self.count = entries, packed, sha, count

    def entries(self) -> list[Any]:
        """The chunk's entries, read (once)."""
        if self._entries is None:
            self._entries = loads(zlib.decompress(self._packed))
        return self._entries

    def text(self) -> bytes:
        """The canonical text of the list of the chunk's entries."""
        return zlib.decompress(self._packed) if self._packed is not None else canonical(self._entries)

    def packed(self) -> bytes:
        if self._packed is None:
            text = canonical(self._entries)
            self._packed, self._sha = zlib.compress(text, 1), hashlib.sha256(text).hexdigest()
        return self._packed

    def sha(self) -> str:
        if self._sha is None:
            self._sha = hashlib.sha256(self.text()).hexdigest()
        return self._sha

    def same(self, other: Chunk) -> bool:
        """The same entries, without reading a kept chunk."""
        if other is self:
            return True
        if self.count != other.count:
            return False
        if self._entries is not None and other._entries is not None:
            return self._entries == other._entries
        return self.sha() == other.sha()


class Trail(Sequence):
    """An event's audit trail kept in chunks of TRAIL_CHUNK entries (the last may be shorter):
    a read-only sequence of the entries that reads a chunk at the first entry asked for in it.
    A push adds entries at its end (`extended`); what compares two trails (`tail_after`, `==`)
    compares their chunks by identity or digest, unread."""

    __slots__ = ("chunks", "_length")

    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks, self._length = chunks, sum(c.count for c in chunks)

    @classmethod
    def of(cls, entries: Sequence[Any]) -> Trail:
        """A trail of the entries (a list; a Trail is itself)."""
        if isinstance(entries, Trail):
            return entries
        entries = list(entries)
        return cls([Chunk(entries=entries[i:i + TRAIL_CHUNK], count=len(entries[i:i + TRAIL_CHUNK]))
                    for i in range(0, len(entries), TRAIL_CHUNK)])

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._length)
            if step != 1:
                return list(self)[index]
            out: list[Any] = []
            for number in range(start // TRAIL_CHUNK, -(-stop // TRAIL_CHUNK)):
                base = number * TRAIL_CHUNK
                out += self.chunks[number].entries()[max(start - base, 0):stop - base]
            return out
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("trail index out of range")
        return self.chunks[index // TRAIL_CHUNK].entries()[index % TRAIL_CHUNK]

    def __iter__(self) -> Iterator[Any]:
        for chunk in self.chunks:
            yield from chunk.entries()

    def extended(self, entries: Sequence[Any]) -> Trail:
        """This trail and then `entries`: its full chunks shared, its last one (if short)
        read and made again with them."""
        if not entries:
            return self
        chunks, rest = self.chunks, list(entries)
        if chunks and chunks[-1].count < TRAIL_CHUNK:
            chunks, rest = chunks[:-1], chunks[-1].entries() + rest
        return Trail([*chunks, *Trail.of(rest).chunks])

    def tail_after(self, old: Any) -> list[Any] | None:
        """The entries this trail adds after `old`, or None when it does not begin with
        `old`'s entries."""
        old = Trail.of(old) if isinstance(old, list) else old
        if not isinstance(old, Trail) or len(old) > self._length:
            return None
        full = old._length // TRAIL_CHUNK
        if not all(mine.same(theirs) for mine, theirs in zip(self.chunks[:full], old.chunks[:full],
                                                             strict=True)):
            return None
        start = full * TRAIL_CHUNK
        if self[start:old._length] != old[start:]:
            return None
        return self[old._length:]

    def text(self) -> bytes:
        """The canonical text of the list of the trail's entries."""
        return b"[%s]" % b",".join(c.text()[1:-1] for c in self.chunks)

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if isinstance(other, (Trail, list)):
            return len(other) == self._length and self.tail_after(other) == []
        return NotImplemented

    __hash__ = None  # type: ignore[assignment] - a sequence that compares by its entries

    def __repr__(self) -> str:
        return f"<Trail of {self._length} entries in {len(self.chunks)} chunks>"


def tail_after(old: Any, new: Any) -> list[Any] | None:
    """The entries the trail `new` adds after the trail `old` (lists or Trails), or None when
    it does not begin with them (the same objects or equal ones)."""
    if isinstance(new, Trail):
        return new.tail_after(old)
    if not isinstance(new, list) or not isinstance(old, (list, Trail)) or len(new) < len(old):
        return None
    if isinstance(old, Trail):
        old = list(old)
    return new[len(old):] if new[:len(old)] == old else None


def extended(trail: Any, entries: list[Any]) -> Any:
    """The trail `trail` (a list or a Trail) and then `entries`, of its kind."""
    return trail.extended(entries) if isinstance(trail, Trail) else [*trail, *entries]


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
    """An archive (or a card) with every part in it read, its trail a list: the same object
    where it holds none. Parts are only ever a table's card and the event's trail, so only
    those are looked at (walking every value of an archive of 1,024 players took seconds)."""
    if isinstance(value, Part):
        return value.value()
    trail = _trail(value)
    if not isinstance(trail, Trail) and not any(
            isinstance(t.get("scorecard"), Part) for t in _tables(value)):
        return value
    cards = iter([read_whole(t["scorecard"]) for t in _tables(value)])
    return _skeleton(value, cards, list(trail) if isinstance(trail, Trail) else trail)


def _trail(doc: Any) -> Any:
    """The trail of an archive of an event (None for anything else)."""
    body = doc.get("event") if isinstance(doc, dict) else None
    return body.get("audit") if isinstance(body, dict) else None


def _tables(doc: Any) -> Iterator[dict[str, Any]]:
    """The tables of an archive of an event, in order (none for anything else)."""
    body = doc.get("event") if isinstance(doc, dict) else None
    rounds = body.get("rounds") if isinstance(body, dict) else None
    for rnd in rounds if isinstance(rounds, list) else ():
        tables = rnd.get("tables") if isinstance(rnd, dict) else None
        for table in tables if isinstance(tables, list) else ():
            if isinstance(table, dict):
                yield table


def _skeleton(doc: dict[str, Any], cards: Iterator[Any], trail: Any) -> dict[str, Any]:
    """A copy of `doc` (shallow, down to its tables) with each table's card replaced by the
    next of `cards`, and its trail by `trail`."""
    body = doc["event"]
    # The same tables as `_tables` walks, in its order; anything else as it is (a tampered
    # delta's rounds that are no list: the check refuses them, and nothing here may fail first).
    out = dict(body)
    if isinstance(body.get("rounds"), list):
        out["rounds"] = [
            {**r, "tables": [{**t, "scorecard": next(cards)} if isinstance(t, dict) else t
                             for t in r["tables"]]}
            if isinstance(r, dict) and isinstance(r.get("tables"), list) else r
            for r in body["rounds"]]
    if "audit" in body:
        out["audit"] = trail
    return {**doc, "event": out}


def _part_of(card: Mapping[str, Any]) -> Part:
    if isinstance(card, Part):
        return card
    text = canonical(card)
    hands, money = card_numbers(card)
    return Part(zlib.compress(text, 1), hashlib.sha256(text).hexdigest(),
                {k: card[k] for k in OUTLINE if k in card}, hands, money)


class Kept:
    """An archive ready to be kept in parts: its cards made parts and its trail a Trail (those
    read, or new, written out once)."""

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
                               for r in body["rounds"])
                       and isinstance(body.get("audit"), (list, Trail)))
        self.trail = Trail.of(body["audit"]) if self.shaped else None
        self._head: bytes | None = None

    @classmethod
    def of(cls, doc: Any) -> Kept:
        return cls(doc)

    def _head_text(self) -> bytes:
        # The archive with each card as its SHA-256 and the trail as its chunks': what the
        # digest is of.
        if self._head is None:
            self._head = canonical(_skeleton(
                self.doc, iter([None if c is None else c.sha for c in self.cards]),
                [c.sha() for c in self.trail.chunks]))
        return self._head

    def digest(self) -> str:
        """The archive's digest (module docstring)."""
        if not self.shaped:
            return hashlib.sha256(canonical(read_whole(self.doc))).hexdigest()
        return hashlib.sha256(self._head_text()).hexdigest()

    def packed(self) -> bytes:
        """The bytes to keep: the skeleton with where each card is and its outline, and where
        each chunk of the trail is; then the cards and the chunks."""
        if not self.shaped:
            return gzip.compress(canonical(read_whole(self.doc)), compresslevel=1)
        cards, at = [], 0
        for card in self.cards:
            if card is not None:
                cards.append([at, len(card._packed), card.outline, card.hand_numbers,
                              card.money_numbers])
                at += len(card._packed)
        chunks = []
        for chunk in self.trail.chunks:
            chunks.append([at, len(chunk.packed()), chunk.count])
            at += len(chunk.packed())
        offsets = orjson.dumps({"cards": cards, "trail": chunks})
        head = zlib.compress(b"%s\n%s" % (offsets, self._head_text()), 1)
        return b"".join([_MAGIC, len(head).to_bytes(8, "big"), head,
                         *(c._packed for c in self.cards if c is not None),
                         *(c.packed() for c in self.trail.chunks)])


def unpacked(raw: bytes) -> Any:
    """The archive kept as `Kept.packed` gave it, its cards as parts and its trail a Trail."""
    if not raw.startswith((_MAGIC, _MAGIC_CARDS_ONLY)):
        return loads(gzip.decompress(raw))  # kept whole (an older hold, or not an event's)
    start = len(_MAGIC) + 8
    end = start + int.from_bytes(raw[len(_MAGIC):start], "big")
    offsets_text, head_text = zlib.decompress(raw[start:end]).split(b"\n", 1)
    offsets, doc = orjson.loads(offsets_text), loads(head_text)
    if raw.startswith(_MAGIC_CARDS_ONLY):
        offsets = {"cards": offsets, "trail": None}  # its trail is in the skeleton, whole
    rows = iter(offsets["cards"])
    for table in _tables(doc):
        sha = table.get("scorecard")
        if sha is not None:
            at, length, outline, hands, money = next(rows)
            table["scorecard"] = Part(raw[end + at:end + at + length], sha, outline, hands, money)
    if offsets["trail"] is not None:
        trail = Trail([
            Chunk(packed=raw[end + at:end + at + length], sha=sha, count=count)
            for (at, length, count), sha in zip(offsets["trail"], doc["event"]["audit"],
                                                strict=True)])
        counts = [c.count for c in trail.chunks]
        if any(n != TRAIL_CHUNK for n in counts[:-1]) or (counts and not 0 < counts[-1] <= TRAIL_CHUNK):
            # Cut by another TRAIL_CHUNK (another version kept it): its entries as a list, and
            # the next push's digest, of other chunks, makes the laptop send the whole archive.
            trail = list(trail)
        doc["event"]["audit"] = trail
    return doc
