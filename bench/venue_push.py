"""Benchmark of a venue laptop's push (issue #32, docs/venue.md): how long a change at the
venue takes to reach the server's public pages, at realistic sizes.

For each size it builds the scale benchmark's TRI+1 event (bench/scale.py: ROUNDS rounds of
HANDS hands per table, all played but the last hand of table 1) and times, medians of REPEAT
runs:

- a whole push, as the first push and every push after a change of the event's shape (a round
  drawn, a penalty) are sent: the laptop's side (the archive exported in a snapshot, written
  as JSON and compressed; its size on the wire) and the server's (read, checked as an import
  is, written in place);
- a push of one more hand, as every push after the first is sent: the laptop's side (the
  acknowledged archive read from the hold, the archive made from it by reading again what may
  have changed, the patch against it, its digest, the new archive packed for the hold; its
  size on the wire; beside it the same with the event exported whole, the way before) and the server's (read, patched, checked where it
  changed: the changed card and the trail's new entries, written change by change);
- beside them, the reference of the same run: importing the same archive as a copy
  (`import_event`, what restoring an archive costs).

The server and the laptop share one database here (the push brings the event to the state it
already has, which is as much work as any other state). Run from the repository root:
`python bench/venue_push.py [--reuse TAG] [players ...]` (default 64 256); SQLite in a RAM
folder unless BENCH_DATABASE_URL names a PostgreSQL database. `--reuse TAG` measures again the
events `scale-<players>-<TAG>` an earlier run built in that database (the building takes most
of a run: about 10 minutes for 1,024 players); the tag is printed at the start of each run.
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


def _settled() -> None:
    """On PostgreSQL, the dead rows of the pushes before vacuumed away, as a server's
    autovacuum does between pushes: every whole push here deletes and writes the event's 80,000
    rows again, and on a database without autovacuum (this machine's) the dead rows piled up run
    after run (two million after ten runs), slowing a hand's push threefold."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE tournaments_auditentry, tournaments_hand, "
                           "tournaments_scorecard, tournaments_seat, tournaments_table, "
                           "tournaments_registration, tournaments_tablelink, tournaments_playerlink, "
                           "tournaments_round, tournaments_venuehold")


def _laptop_delta(event, kept: bytes, since: int, *, whole: bool = False) -> bytes:
    """As client._send: the acknowledged archive read from the hold, the archive made from it
    (read again where it may have changed; `whole`: exported whole, the reference), the patch
    against it, the digest, the new archive packed for the hold; the push as sent. All of it
    with the collector paused until the archives are gone (the client packs and sends with it
    on: bytes and a small patch, which it does not walk)."""
    from tournaments.runtime import collector

    return collector.run_paused(_laptop_delta_paused, event, kept, since, whole=whole)


def _laptop_delta_paused(event, kept: bytes, since: int, *, whole: bool) -> bytes:
    from tournaments import archive
    from tournaments.venue import client, state

    previous = state.unpacked(kept)
    with archive.read_snapshot():
        doc = None if whole else archive.export_event_since(event, previous, since)
        assert whole or doc is not None
        doc, version = doc or archive.export_event(event), client.state_version(event)
    made = state.kept(doc)
    patch = archive.delta.diff(previous, doc)
    made.packed()
    return gzip.compress(json.dumps({"version": version, "base": 1, "delta": patch,
                                     "sha256": made.digest()}, ensure_ascii=False).encode())


def measure(event) -> dict[str, str]:
    from bench.scale import _records
    from tournaments import archive
    from tournaments.models import Hand, Scorecard
    from tournaments.venue import client
    from tournaments.venue import services as venue

    organiser = event.organisers.first()
    hands = Hand.objects.filter(scorecard__table__round__event=event).count()

    def exported() -> tuple[dict, int]:
        with archive.read_snapshot():
            return archive.export_event(event), client.state_version(event)

    def wire(payload: dict) -> bytes:
        return gzip.compress(json.dumps(payload, ensure_ascii=False).encode())

    def laptop_whole() -> bytes:
        doc, version = exported()
        return wire({"version": version, "archive": doc})

    out = {"the event": f"{hands:,} hands"}
    whole = laptop_whole()
    out["laptop: a whole push (export, JSON, gzip)"] = f"{_median(lambda: _timed(laptop_whole)) * 1000:,.0f} ms"
    out["a whole push on the wire"] = (f"{len(whole) / 1024:,.0f} KB "
                                       f"({len(gzip.decompress(whole)) / 1024 / 1024:,.1f} MB uncompressed)")
    _hold, key, _doc = venue.hold_take(event=event, actor=organiser, holder="bench")
    versions = iter(range(10, 10 + 100 * REPEAT))

    def server_whole() -> float:
        raw = laptop_whole()
        # A whole push over a state the server does not know: written as an import is (the
        # first push, or a round drawn, a penalty, a player renamed).
        venue.VenueHold.objects.filter(event=event).update(state=b"")
        _settled()
        start = time.perf_counter()
        pushed = json.loads(gzip.decompress(raw))
        venue.push_apply(event=event, key=key, version=next(versions), doc=pushed["archive"])
        return time.perf_counter() - start

    out["server: read, check, write a whole push"] = f"{_median(server_whole) * 1000:,.0f} ms"
    # The last hand of table 1's open card, then corrections of it, each pushed as a delta.
    open_round = Scorecard.objects.get(table__round__event=event, status=Scorecard.Status.OPEN,
                                       table__number=1).table.round.number
    last = event.hands_per_round
    laptop_times, whole_times, server_times, sizes = [], [], [], []

    def push_a_hand(run: int) -> None:
        # Both ends at the same state: the event pushed whole, the trail then the archive's
        # (one database plays both ends here, and a push written change by change would add
        # the laptop's new entries to it a second time).
        holds = venue.VenueHold.objects.filter(event=event)
        holds.update(state=b"")
        acknowledged, _version = exported()
        venue.push_apply(event=event, key=key, version=next(versions), doc=acknowledged)
        hold = venue.VenueHold.objects.get(event=event)
        kept, since = bytes(hold.state), client.state_version(event)
        card = Scorecard.objects.get(table__round__event=event, table__round__number=open_round,
                                     table__number=1)  # written again, under another id
        # The hand is typed at the laptop, so the hold is the laptop's while it is typed (the
        # server refuses writes to a lent event).
        holds.update(side=venue.HELD)
        _enter(card, last, _records(card, last, 99 + run)[last - 1], organiser,
               reason="" if run == 0 else "bench: a correction")
        holds.update(side=venue.LENT)
        _settled()
        whole_times.append(_timed(lambda: _laptop_delta(event, kept, since, whole=True)))
        start = time.perf_counter()
        raw = _laptop_delta(event, kept, since)
        laptop_times.append(time.perf_counter() - start)
        sizes.append(len(raw))
        start = time.perf_counter()
        pushed = json.loads(gzip.decompress(raw))
        answer = venue.push_apply(event=event, key=key, version=next(versions), base=hold.version,
                                  delta=pushed["delta"], sha256=pushed["sha256"])
        server_times.append(time.perf_counter() - start)
        assert answer["applied"], answer

    for run in range(REPEAT):
        push_a_hand(run)
    out.update({
        "laptop: a hand's delta (read since the acknowledged archive, diff, digest, gzip)":
            f"{statistics.median(laptop_times) * 1000:,.0f} ms",
        "reference: the same, the event exported whole": f"{statistics.median(whole_times) * 1000:,.0f} ms",
        "a hand's delta on the wire": f"{statistics.median(sizes) / 1024:,.1f} KB",
        "server: read, patch, check, write a hand's delta": f"{statistics.median(server_times) * 1000:,.0f} ms",
        "a hand's push, laptop and server":
            f"{(statistics.median(laptop_times) + statistics.median(server_times)) * 1000:,.0f} ms",
    })
    out["reference: import_event of the same archive"] = f"{_imported(event) * 1000:,.0f} ms"
    return out


def _imported(event) -> float:
    """Seconds to import the event's archive as a copy (what restoring an archive costs)."""
    from tournaments import archive

    copy = f"{event.slug}-copy-{int(time.time())}"  # a run of --reuse imports another
    doc = json.loads(archive.dumps(archive.export_event(event)).replace(
        f'"slug": "{event.slug}"', f'"slug": "{copy}"'))
    return _timed(lambda: archive.import_event(doc, actor=None))


def _reused(players: int, tag: str):
    """The event `scale-<players>-<tag>` an earlier run built in this database, lent to no
    laptop."""
    from tournaments.models import Event, VenueHold

    event = Event.objects.get(slug=f"scale-{players}-{tag}")
    VenueHold.objects.filter(event=event).delete()
    return event


def main() -> int:
    args = sys.argv[1:]
    reuse = None
    if args[:1] == ["--reuse"]:
        reuse, args = args[1], args[2:]
    sizes = tuple(int(n) for n in args) or PLAYERS
    workdir = Path(tempfile.mkdtemp(dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None,
                                    prefix="tarok-bench-venue-"))
    try:
        _setup(workdir)
        os.environ["VENUE_AUTO_PUSH"] = "0"
        from django.conf import settings
        from django.db import connection

        settings.VENUE_AUTO_PUSH = False
        tag = reuse or str(int(time.time()))
        print(f"database: {connection.vendor}; medians of {REPEAT} runs; events of {tag}", flush=True)
        results = {}
        for players in sizes:
            start = time.perf_counter()
            event = _reused(players, tag) if reuse else build(players, tag)
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
