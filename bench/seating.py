"""Timing and quality figures of the seating engine, printed as tables.

Run from the repository root: `python bench/seating.py` (add `--quick` for the issue's table
only). It seats a points-system round of 1,007 players and three random rounds of 200 players,
and then league seasons: the rows of issue #16's table, and for every field of 12 to 64
players (tables of four, and of three and four where the count is not a multiple of four)
the most matchdays the engine schedules without any repeat meeting, beside the bound of the
field (`upper`: no more are possible; `known`: a construction or the literature has so many)
and the time it took. Every result is checked by the independent checker.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import seat_round  # noqa: E402
from tournaments.seating.bounds import no_repeat_bound  # noqa: E402
from tournaments.seating.checker import check_seating  # noqa: E402

ISSUE_TABLE = [(16, 5), (28, 9), (32, 10), (40, 13), (52, 17), (24, 7), (36, 11)]


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


def league(count: int, rounds: int) -> dict:
    return {"system": "league", "rounds": rounds, "seed": 2026, "players": [{"id": p} for p in ids(count)]}


def report(label: str, result: dict, seated: float, checked: float) -> None:
    print(f"{label:<46} {seated * 1000:>9.1f} ms {result['repeat_pairs']:>8} {checked * 1000:>10.1f} ms")


def tournaments() -> None:
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


def issue_table() -> None:
    print(f"\n{'players':>7} {'matchdays':>9} {'repeats':>7} {'most':>4} {'bound':>5} {'seconds':>7}")
    for count, rounds in ISSUE_TABLE:
        result, seated, _checked = timed(league(count, rounds))
        most = result["distance"]["params"]["most"]
        print(f"{count:>7} {rounds:>9} {result['repeat_pairs']:>7} {most:>4} "
              f"{result['bound']['params']['upper']:>5} {seated:>7.2f}")


def every_field() -> None:
    """The longest schedule without a repeat the engine gives, from the known length up."""
    print(f"\n{'players':>7} {'upper':>5} {'known':>5} {'source':>10} {'reached':>7} {'seconds':>7}")
    for count in range(12, 65):
        bound = no_repeat_bound(count)["params"]
        rounds = bound["known"] or 1
        reached, seconds = 0, 0.0
        while rounds <= bound["upper"]:
            result, seated, _checked = timed(league(count, rounds))
            if result["repeat_pairs"]:
                break
            reached, seconds = rounds, seated
            rounds += 1
        print(f"{count:>7} {bound['upper']:>5} {bound['known'] or '-':>5} {bound['source'] or 'search':>10} "
              f"{reached:>7} {seconds:>7.2f}")


def main() -> None:
    quick = "--quick" in sys.argv
    if not quick:
        tournaments()
    issue_table()
    if not quick:
        every_field()


if __name__ == "__main__":
    main()
