"""Benchmark of the scoring engine: hands per second for a synthetic 10,000-hand season of the
Tarok.net competition rules (tri+1), scored with `scoring.evaluate` on one core.

Run from the repository root as `python bench/scoring.py`; pure Python, no Django. The season
is generated with a fixed seed so that runs compare; it mixes points games with announcements
and contras, high games, klop with kontra, renons and lost monds, as a real card does.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import evaluate, rules  # noqa: E402

PLAYERS = ["A", "B", "C", "D"]
HANDS = 10_000
TARGET = 50_000
POINTS_GAMES = ["trojka", "trojka", "trojka", "dvojka", "dvojka", "enka", "solo_brez"]
HIGH_GAMES = ["berac", "barvni_valat_tri", "valat_tri", "valat_brez"]


def synthetic_hand(rng: random.Random, number: int) -> dict:
    resting = PLAYERS[number % 4]
    playing = [p for p in PLAYERS if p != resting]
    roll = rng.random()
    if roll < 0.12:
        cuts = sorted(rng.randint(0, 34) for _ in range(3))
        points = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 70 - cuts[2]]
        if max(points) >= 35:
            points = [20, 20, 20, 10]
        hand = {"game": "klop", "resting": resting,
                "points_by_player": dict(zip(PLAYERS, points, strict=True))}
        if rng.random() < 0.2:
            hand["contras"] = [{"on": "klop", "by": playing[0], "level": 1}]
        return hand
    declarer = rng.choice(playing)
    defenders = [p for p in playing if p != declarer]
    if roll < 0.2:
        return {"game": rng.choice(HIGH_GAMES), "declarer": declarer, "resting": resting,
                "won": rng.random() < 0.6}
    hand = {"game": rng.choice(POINTS_GAMES), "declarer": declarer, "resting": resting,
            "points": rng.randint(20, 60)}
    announcements = []
    if rng.random() < 0.3:
        announcements.append({"name": "trula", "by": rng.choice(playing),
                              "announced": rng.random() < 0.5, "achieved": True})
    if rng.random() < 0.15:
        announced = rng.random() < 0.5
        achieved = rng.random() < 0.6
        # one pagat: after a defender's trula the declarer's pagat ultimo was lost
        if announcements and announcements[0]["by"] != declarer:
            achieved = False
        announcements.append({"name": "pagat_ultimo", "by": declarer, "announced": announced,
                              "achieved": achieved})
    if announcements:
        hand["announcements"] = announcements
    if rng.random() < 0.15:
        contras = [{"on": "game", "by": rng.choice(defenders), "level": 1}]
        if rng.random() < 0.3:
            contras.append({"on": "game", "by": declarer, "level": 2})
        hand["contras"] = contras
    if rng.random() < 0.01:
        hand["penalties"] = [{"kind": "renons", "player": rng.choice(playing)}]
    elif rng.random() < 0.02:
        hand["penalties"] = [{"kind": "mond", "player": rng.choice(playing)}]
    return hand


def main() -> None:
    rng = random.Random(2007)
    # every ruleset of the registry with the competition form TRI + 1 (the Tarok.net rules)
    codes = [r.code for r in rules.all_rulesets() if "tri+1" in r.modes]
    season = {"ruleset": codes[0], "mode": "tri+1", "players": PLAYERS,
              "hands": [synthetic_hand(rng, i) for i in range(HANDS)]}
    evaluate(season)  # warm-up: imports the rulesets and fills caches
    worst = 0.0
    for ruleset in codes:
        season["ruleset"] = ruleset
        cpu_runs, wall_runs = [], []
        for _ in range(5):
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            evaluate(season)
            cpu_runs.append(time.process_time() - cpu_start)
            wall_runs.append(time.perf_counter() - wall_start)
        # CPU time of this process: the figure for one core, not disturbed by other
        # processes sharing the machine; the wall-clock time is printed beside it.
        cpu = min(cpu_runs)
        wall = min(wall_runs)
        worst = max(worst, cpu)
        print(f"{ruleset}: {HANDS} hands in {cpu:.3f} s CPU = {HANDS / cpu:,.0f} hands/s "
              f"(wall clock {wall:.3f} s = {HANDS / wall:,.0f} hands/s; "
              f"target {TARGET:,} hands/s)")
    print("OK" if HANDS / worst >= TARGET else "BELOW TARGET")


if __name__ == "__main__":
    main()
