"""The archive a venue hold keeps (`VenueHold.state`, docs/venue.md): on the server the last
one applied, on the laptop the last one the server acknowledged; the next push's delta is made
against it on the laptop and applied to it on the server. Kept as canonical JSON
(archive.delta.canonical) compressed with gzip."""

from __future__ import annotations

import gc
import gzip
from collections.abc import Iterator
from contextlib import contextmanager

import orjson

from tournaments.models import VenueHold


def stored(hold: VenueHold) -> dict | None:
    """The archive kept on the hold, or None (no push went through yet)."""
    raw = bytes(hold.state or b"")
    return unpacked(raw) if raw else None


def unpacked(raw: bytes) -> dict:
    """The archive a hold keeps, from its packed bytes (`packed`)."""
    # orjson reads the kept text (written here, by archive.delta.canonical) twice as fast as
    # the standard library.
    with collector_paused():
        return orjson.loads(gzip.decompress(raw))


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector waits while a whole archive is read or made. An archive is a
    tree: the million containers it is made of hold no cycle, and the collector's passes over
    them while they are made cost three to four times the work itself (reading the kept
    archive at 256 players: 0.37-0.57 s instead of 0.10-0.14 s). A caller's pause is kept."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def packed(text: bytes) -> bytes:
    """A canonical archive's text as the hold keeps it (fast compression: it is written at
    every push)."""
    return gzip.compress(text, compresslevel=1)
