"""Timing and quality figures of the seating engine, printed as a small table.

Run from the repository root: `python bench/seating.py`. It seats a points-system round of
1,000 players, three random rounds of 200 players (each avoiding the earlier ones), and
league seasons of 28 players (9 matchdays) and 32 players (9 and 10 matchdays), and prints the
time each took and how many repeat pairs it left, together with the checker's verdict.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import seat_round  # noqa: E402
from tournaments.seating.checker import check_seating  # noqa: E402


def ids(count: int) -> list[str]:
    return [f"p{i:04d}" for i in range(1, count + 1)]


def timed(request: dict) -> tuple[dict, float, float]:
    start = time.perf_counter()
    result = seat_round(request)
    seated = time.perf_counter() - start
    start = time.perf_counter()
    violations = check_seating(request, result)
    checked = time.perf_counter() - start
    if violations:
        raise SystemExit(f"checker refused the result: {violations[:3]}")
    return result, seated, checked


def report(label: str, result: dict, seated: float, checked: float) -> None:
    print(f"{label:<46} {seated * 1000:>9.1f} ms {result['repeat_pairs']:>8} {checked * 1000:>10.1f} ms")


def main() -> None:
    print(f"{'case':<46} {'seat_round':>12} {'repeats':>8} {'checker':>13}")
    rng = random.Random(1000)
    players = [{"id": p, "points": rng.randint(0, 16) / 2, "score": rng.randint(-300, 300),
                "played_last_round": rng.random() > 0.05} for p in ids(1000)]
    players += [{"id": f"late{i}", "new": True} for i in range(7)]
    report("points, 1,007 players (round 4)", *timed(
        {"system": "points", "round": 4, "seed": 4, "players": players}))

    history: list = []
    for round_number in (1, 2, 3):
        request = {"system": "random", "round": round_number, "seed": 200 + round_number,
                   "players": [{"id": p} for p in ids(200)], "history": history}
        result, seated, checked = timed(request)
        report(f"random, 200 players, round {round_number}", result, seated, checked)
        history = history + [result["tables"]]

    for count, rounds in ((28, 9), (32, 9), (32, 10), (28, 10)):
        request = {"system": "league", "rounds": rounds, "seed": 2026,
                   "players": [{"id": p} for p in ids(count)]}
        report(f"league, {count} players, {rounds} matchdays", *timed(request))


if __name__ == "__main__":
    main()
