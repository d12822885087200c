"""Benchmark of a venue laptop's push (issue #32, docs/venue.md): how long a change at the
venue takes to reach the server's public pages, at realistic sizes.

For each size it builds the scale benchmark's TRI+1 event (bench/scale.py: ROUNDS rounds of
HANDS hands per table, all played but the last hand of table 1) and times, medians of REPEAT
runs:

- the laptop's side of a push: the event's archive exported in a snapshot, with its version,
  written as JSON and compressed (what goes on the wire, whose size is printed);
- the server's side: the push read (inflated, parsed), checked as an import is and applied in
  place (`push_apply`), after one more hand and after the rest of the round (a push carries
  the whole state, so both cost the same: the figures say how much);
- beside them, the reference of the same run: importing the same archive as a copy
  (`import_event`, what restoring an archive costs today).

The server and the laptop share one database here (the push brings the event to the state it
already has, which is as much work as any other state). Run from the repository root:
`python bench/venue_push.py [players ...]` (default 64 256); SQLite in a RAM folder unless
BENCH_DATABASE_URL names a PostgreSQL database.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

from bench.scale import REPEAT, _enter, _setup, build  # noqa: E402 - after the path fix

PLAYERS = (64, 256)


def _median(fn):
    return statistics.median(fn() for _ in range(REPEAT))


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(event) -> dict[str, str]:
    from tournaments import archive
    from tournaments.models import Hand, Scorecard
    from tournaments.venue import client
    from tournaments.venue import services as venue

    def laptop_side() -> bytes:
        with archive.read_snapshot():
            doc = archive.export_event(event)
            version = client.state_version(event)
        return gzip.compress(json.dumps({"version": version, "archive": doc}, ensure_ascii=False).encode())

    wire = laptop_side()
    out = {"laptop: export, JSON, gzip": f"{_median(lambda: _timed(laptop_side)) * 1000:,.0f} ms",
           "on the wire": f"{len(wire) / 1024:,.0f} KB ({len(gzip.decompress(wire)) / 1024 / 1024:,.1f} MB "
                          f"uncompressed, {Hand.objects.filter(scorecard__table__round__event=event).count():,} hands)"}
    # The last hand of table 1, then the server takes the event's state.
    card = Scorecard.objects.get(table__round__event=event, status=Scorecard.Status.OPEN, table__number=1)
    from bench.scale import _records

    record = _records(card, event.hands_per_round, 99)[-1]
    _enter(card, card.hands.count() + 1, record, event.organisers.first())
    _hold, key, _doc = venue.hold_take(event=event, actor=event.organisers.first(), holder="bench")
    body = json.loads(gzip.decompress(laptop_side()))
    versions = iter(range(body["version"], body["version"] + 10 * REPEAT))

    def server_side() -> float:
        raw = laptop_side()
        start = time.perf_counter()
        pushed = json.loads(gzip.decompress(raw))
        venue.push_apply(event=event, key=key, version=next(versions), doc=pushed["archive"])
        return time.perf_counter() - start

    out["server: read, check, apply a push"] = f"{_median(server_side) * 1000:,.0f} ms"
    out["one push, laptop and server"] = (
        f"{_median(lambda: _timed(laptop_side)) * 1000 + _median(server_side) * 1000:,.0f} ms")
    copy = f"{event.slug}-copy"
    doc = json.loads(archive.dumps(archive.export_event(event)).replace(
        f'"slug": "{event.slug}"', f'"slug": "{copy}"'))
    out["reference: import_event of the same archive"] = (
        f"{_timed(lambda: archive.import_event(doc, actor=None)) * 1000:,.0f} ms")
    return out


def main() -> int:
    sizes = tuple(int(n) for n in sys.argv[1:]) or PLAYERS
    workdir = Path(tempfile.mkdtemp(dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None,
                                    prefix="tarok-bench-venue-"))
    try:
        _setup(workdir)
        os.environ["VENUE_AUTO_PUSH"] = "0"
        from django.conf import settings
        from django.db import connection

        settings.VENUE_AUTO_PUSH = False
        tag = str(int(time.time()))
        print(f"database: {connection.vendor}; medians of {REPEAT} runs", flush=True)
        results = {}
        for players in sizes:
            start = time.perf_counter()
            event = build(players, tag)
            print(f"built {players} players in {time.perf_counter() - start:.0f} s", flush=True)
            results[players] = measure(event)
            for name, figure in results[players].items():
                print(f"  {name}: {figure}", flush=True)
        names = list(next(iter(results.values())))
        print("\n| | " + " | ".join(f"{p:,} players" for p in sizes) + " |")
        print("| --- |" + " --- |" * len(sizes))
        for name in names:
            print(f"| {name} | " + " | ".join(results[p][name] for p in sizes) + " |")
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
