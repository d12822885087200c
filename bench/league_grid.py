"""League seasons of the whole property-test grid against the recorded baseline, as figures.

Run from the repository root: `python bench/league_grid.py` seats every field of 12 to 64
players over 1 to 20 matchdays at seed 2026 (the grid that
tests/tournaments/seating/test_league_baseline.py samples from) and prints every case in which the engine
is worse than the engine before issue #16 (tests/tournaments/seating/league_baseline.json), compared
as the test compares them: (largest meeting count, repeat meetings), then the slowest cases
and the total time (CPU time, which a busy machine does not inflate, and wall time). Options:

- `--part K/N` seats only the cases whose position in the grid is K modulo N (1 ≤ K ≤ N),
  so that N processes can share the grid; each prints its own figures.
- `--players A-B`, `--matchdays A-B` narrow the grid; `--check` also runs the independent
  checker on every result (slower).
- `--fours` asks for tables of four only (`min_table_size` 4) and seats the fields that can
  sit so (multiples of four); the baseline knows only the default sizes, so each case is
  printed with its own figures (issue #34: 28×9, 32×10, 40×13 and 52×17 must repeat no pair).

No Django is needed; nothing is written.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournaments.seating import seat_round  # noqa: E402
from tournaments.seating.checker import check_seating, pair_counts  # noqa: E402

BASELINE = json.loads((ROOT / "tests/tournaments/seating/league_baseline.json").read_text("utf-8"))
SEED = 2026


def league(count: int, rounds: int) -> dict:
    """The request of the property test for one case of the grid."""
    extra = {"min_table_size": 4} if "--fours" in sys.argv else {}
    return {"system": "league", "rounds": rounds, "seed": SEED,
            "players": [{"id": f"p{i:02d}"} for i in range(count)], **extra}


def span(text: str) -> range:
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def option(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main() -> None:
    players, matchdays = span(option("--players", "12-64")), span(option("--matchdays", "1-20"))
    part, _, parts = option("--part", "1/1").partition("/")
    check, fours = "--check" in sys.argv, "--fours" in sys.argv
    grid = [(c, r) for c in players for r in matchdays if not fours or c % 4 == 0]
    mine = [case for position, case in enumerate(grid) if position % int(parts) == int(part) - 1]

    print(f"{'players':>7} {'matchdays':>9} {'most':>4} {'repeats':>7} {'was most':>8} "
          f"{'was repeats':>11} {'seconds':>7}")
    worse, timings = [], []
    started = time.perf_counter()
    for count, rounds in mine:
        request = league(count, rounds)
        start, cpu = time.perf_counter(), time.process_time()
        result = seat_round(request)
        seconds = time.perf_counter() - start
        timings.append((time.process_time() - cpu, seconds, count, rounds))
        if check and check_seating(request, result):
            raise SystemExit(f"checker refused {count} x {rounds}")
        most = max(pair_counts(result["rounds"]).values(), default=0)
        if fours:
            print(f"{count:>7} {rounds:>9} {most:>4} {result['repeat_pairs']:>7} {'-':>8} {'-':>11} "
                  f"{seconds:>7.2f}", flush=True)
            continue
        before_repeats, before_most = BASELINE[f"{count}x{rounds}"]
        if (most, result["repeat_pairs"]) > (max(before_most, 1), before_repeats):
            worse.append((count, rounds))
            print(f"{count:>7} {rounds:>9} {most:>4} {result['repeat_pairs']:>7} {before_most:>8} "
                  f"{before_repeats:>11} {seconds:>7.2f}", flush=True)
    total = time.perf_counter() - started

    print(f"\npart {part}/{parts}: {len(mine)} cases, {len(worse)} worse than the baseline: "
          f"{' '.join(f'{c}x{r}' for c, r in worse) or '-'}")
    print("slowest (CPU): " + ", ".join(f"{c}x{r} {cpu:.2f} s" for cpu, _, c, r in sorted(timings, reverse=True)[:5]))
    print(f"seat_round total: CPU {sum(t[0] for t in timings):.1f} s, wall {sum(t[1] for t in timings):.1f} s; "
          f"this part's wall time {total:.1f} s")


if __name__ == "__main__":
    main()
