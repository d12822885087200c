"""The archive a venue hold keeps (`VenueHold.state`, docs/venue.md): on the server the last
one applied, on the laptop the last one the server acknowledged; the next push's delta is made
against it on the laptop and applied to it on the server. Kept in parts (archive.parts): the
archive without its cards, then each card apart, so that a push reads and writes the cards it
changes and keeps the others' bytes; a hold kept before (one gzip of the canonical text) is
still read."""

from __future__ import annotations

from tournaments import archive
from tournaments.models import VenueHold


def stored(hold: VenueHold) -> dict | None:
    """The archive kept on the hold (its cards unread parts), or None (no push went through
    yet)."""
    raw = bytes(hold.state or b"")
    return unpacked(raw) if raw else None


def unpacked(raw: bytes) -> dict:
    """The archive a hold keeps, from its packed bytes (`packed`)."""
    # Both ends read it with the collector paused until the push is done
    # (tournaments.runtime.collector.run_paused): what a read makes outlives it.
    return archive.parts.unpacked(raw)


def kept(doc: dict) -> archive.parts.Kept:
    """An archive as a hold keeps it: its digest (what a delta's `sha256` is) and its bytes
    (`packed()`)."""
    return archive.parts.Kept.of(doc)
