"""The archive a venue hold keeps (`VenueHold.state`, docs/venue.md): on the server the last
one applied, on the laptop the last one the server acknowledged; the next push's delta is made
against it on the laptop and applied to it on the server. Kept as canonical JSON
(archive.delta.canonical) compressed with gzip."""

from __future__ import annotations

import gzip
import json

import orjson

from tournaments.models import VenueHold

_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")


def stored(hold: VenueHold) -> dict | None:
    """The archive kept on the hold, or None (no push went through yet)."""
    raw = bytes(hold.state or b"")
    return unpacked(raw) if raw else None


def unpacked(raw: bytes) -> dict:
    """The archive a hold keeps, from its packed bytes (`packed`)."""
    # orjson reads the kept text (written here, by archive.delta.canonical) twice as fast as
    # the standard library. The collector's passes over the million containers a read makes
    # cost three to four times the read itself (at 256 players: 0.37-0.57 s instead of
    # 0.10-0.14 s): both ends read with it paused until the push is done
    # (tournaments.runtime.collector.run_paused), since the archive outlives the read.
    text = gzip.decompress(raw)
    # orjson reads a whole number beyond 64 bits as a float; the standard library reads it as
    # it was written (archive.delta.canonical writes those with it too). Such a number has 20
    # digits or more: looked for with every digit made a 0, at C speed (a regular expression
    # took 0.7 s on the 34 MB of an archive of 1,024 players, this 60 ms).
    long_number = text.translate(_DIGITS_AS_ZERO).find(b"0" * 20) >= 0
    return json.loads(text) if long_number else orjson.loads(text)


def packed(text: bytes) -> bytes:
    """A canonical archive's text as the hold keeps it (fast compression: it is written at
    every push)."""
    return gzip.compress(text, compresslevel=1)
