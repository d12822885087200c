"""Benchmark of an event's archive (issue #35): export, import and the venue push's delta on
the scale benchmark's TRI+1 event, each with the time of its phases.

For each size it builds the event of `bench/scale.py` (ROUNDS rounds of HANDS hands per table,
all played but the last hand of table 1), or reuses one built before in a PostgreSQL database
(`--reuse TAG`: the event `scale-<players>-<TAG>`; the build takes most of a run), and
times, medians of REPEAT runs:

- `export_event` in its snapshot, and the archive written as text (`dumps`), its size in bytes
  a hand, plain and as the API sends it compressed (gzip);
- `import_event` of a copy of it (another slug; its players are matched to the registry's),
  in phases: reading the text (`loads`, with the limits of every JSON input), checking the
  document (its fields and references, and every card scored again by the engine), writing
  it, and scoring every card again from the database; the copy is rolled back after each run;
- the venue push of one more hand: the laptop's side (export, diff against the last
  acknowledged archive, digest) and the patch's size compressed.

Run from the repository root: `python bench/archive.py [--reuse TAG] [players ...]` (default
256). SQLite in a RAM folder unless BENCH_DATABASE_URL names a PostgreSQL database.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

from bench.scale import REPEAT, _setup, build  # noqa: E402 - after the path fix


class _Rollback(Exception):
    pass


class Phases:
    """Time spent in named functions of the archive's modules during one call: each is
    wrapped in place while the call runs (the modules name them as their attributes)."""

    def __init__(self, spots: dict[str, tuple[object, str]]) -> None:
        self.spots = spots
        self.seconds: dict[str, float] = defaultdict(float)

    @contextlib.contextmanager
    def active(self):
        originals = {}
        for name, (module, attr) in self.spots.items():
            original = getattr(module, attr)
            originals[name] = (module, attr, original)

            def timed(*args, _original=original, _name=name, **kwargs):
                start = time.perf_counter()
                try:
                    return _original(*args, **kwargs)
                finally:
                    self.seconds[_name] += time.perf_counter() - start
            setattr(module, attr, timed)
        try:
            yield self
        finally:
            for module, attr, original in originals.values():
                setattr(module, attr, original)


def _import_phases() -> Phases:
    from tournaments.archive import check_event, importing, write
    return Phases({
        "check the document (with the engine)": (importing, "_check_event_doc"),
        "  of it: cards scored by the engine": (check_event, "score_mismatches"),
        "  of it: players matched": (importing, "resolve_players"),
        "write": (importing, "write_event_body"),
        "  of it: carried totals checked": (write.event_checks, "refuse_wrong_carried_totals"),
        "score again from the database": (importing, "refuse_if_rescored_differently"),
    })


def _timed(fn) -> tuple[object, float]:
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def measure(event) -> dict[str, str]:
    from django.db import connection, transaction

    from tournaments import archive
    from tournaments.models import Hand

    hands = Hand.objects.filter(scorecard__table__round__event=event).count()
    out = {"the event": f"{hands:,} hands"}

    def exported():
        with archive.read_snapshot():
            return archive.export_event(event)

    runs = [_timed(exported) for _ in range(REPEAT)]
    doc = runs[-1][0]
    out["export_event"] = f"{statistics.median(r[1] for r in runs) * 1000:,.0f} ms"
    texts = [_timed(lambda: archive.dumps(doc)) for _ in range(REPEAT)]
    text = texts[-1][0].encode("utf-8")
    out["dumps (the file's text)"] = f"{statistics.median(r[1] for r in texts) * 1000:,.0f} ms"
    packed, seconds = _timed(lambda: gzip.compress(text, compresslevel=6))
    out["gzip (as the API sends it)"] = f"{seconds * 1000:,.0f} ms"
    out["archive"] = (f"{len(text) / 1024 / 1024:,.1f} MB, {len(text) / hands:,.0f} B a hand; "
                      f"gzip {len(packed) / 1024:,.0f} KB, {len(packed) / hands:,.0f} B a hand")

    copy = f"{event.slug}-copy"
    copied = texts[-1][0].replace(f'"slug": "{event.slug}"', f'"slug": "{copy}"').encode("utf-8")
    totals: dict[str, list[float]] = defaultdict(list)
    queries = 0
    for _ in range(REPEAT):
        phases = _import_phases()
        count = 0

        def counted(execute, sql, params, many, context):
            nonlocal count
            count += 1
            return execute(sql, params, many, context)

        start = time.perf_counter()
        loaded = archive.loads(copied)
        totals["loads (JSON with the input limits)"].append(time.perf_counter() - start)
        with phases.active(), connection.execute_wrapper(counted):
            start = time.perf_counter()
            try:
                with transaction.atomic():
                    archive.import_event(loaded, actor=None)
                    raise _Rollback
            except _Rollback:
                pass
            totals["import_event"].append(time.perf_counter() - start)
        for name, seconds in phases.seconds.items():
            totals[name].append(seconds)
        queries = count
    order = ["loads (JSON with the input limits)", "import_event", *_import_phases().spots]
    for name in order:
        if totals.get(name):
            out[f"import: {name}"] = f"{statistics.median(totals[name]) * 1000:,.0f} ms"
    out["import: queries"] = f"{queries:,}"
    out.update(_delta(event, doc))
    return out


def _delta(event, previous: dict) -> dict[str, str]:
    """The laptop's side of a push of one hand (as tournaments.venue.client._send): the
    export, the patch against the archive the server acknowledged, the digest."""
    from django.db import transaction

    from tournaments.models import Scorecard

    card = Scorecard.objects.get(table__round__event=event, status=Scorecard.Status.OPEN,
                                 table__number=1)
    last = event.hands_per_round
    times, sizes = [], []
    with contextlib.suppress(_Rollback), transaction.atomic():
        _pushes(event, card, last, previous, times, sizes)
        # The event stays as built, so that a later run (--reuse) finds it the same.
        raise _Rollback
    return {"push of a hand, laptop (export, diff, digest)": f"{statistics.median(times) * 1000:,.0f} ms",
            "push of a hand on the wire (gzip)": f"{statistics.median(sizes) / 1024:,.1f} KB"}


def _pushes(event, card, last: int, previous: dict, times: list, sizes: list) -> None:
    from bench.scale import _enter, _records
    from tournaments import archive
    from tournaments.venue import state

    for run in range(REPEAT):
        record = _records(card, last, 99 + run)[last - 1]
        _enter(card, last, record, event.organisers.first(),
               reason="" if run == 0 else "bench: a correction")
        start = time.perf_counter()
        with archive.read_snapshot():
            doc = archive.export_event(event)
        patch = archive.delta.diff(previous, doc)
        state.kept(doc).digest()  # as the push's digest is taken (archive.parts)
        times.append(time.perf_counter() - start)
        sizes.append(len(gzip.compress(json.dumps(patch, ensure_ascii=False).encode())))
        previous = doc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("players", nargs="*", type=int, default=[256])
    parser.add_argument("--reuse", metavar="TAG",
                        help="use the event scale-<players>-<TAG> of BENCH_DATABASE_URL, "
                             "building it when missing")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None,
                                    prefix="tarok-bench-archive-"))
    try:
        _setup(workdir)
        from django.db import connection

        from tournaments.models import Event

        tag = args.reuse or str(int(time.time()))
        print(f"database: {connection.vendor}; medians of {REPEAT} runs", flush=True)
        results = {}
        for players in args.players:
            event = Event.objects.filter(slug=f"scale-{players}-{tag}").first()
            if event is None:
                start = time.perf_counter()
                event = build(players, tag)
                print(f"built {players} players in {time.perf_counter() - start:.0f} s", flush=True)
            results[players] = measure(event)
            for name, value in results[players].items():
                print(f"  {name}: {value}", flush=True)
        names = list(next(iter(results.values())))
        print("\n| | " + " | ".join(f"{p:,} players" for p in results) + " |")
        print("| --- |" + " --- |" * len(results))
        for name in names:
            print(f"| {name} | " + " | ".join(results[p].get(name, "") for p in results) + " |")
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
