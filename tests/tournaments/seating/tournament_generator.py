"""A random-tournament generator for the seating tests.

Hypothesis strategies that build plausible seating requests for every system: a field of
players, earlier rounds played (so that repeat avoidance and the points order have something
to work with), standings with ties, late entries and absentees, knock-out rounds with
placings or totals. `play_knockout` drives a knock-out from the first draw to the final.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from tournaments.seating import seat_round


def player_ids(count: int) -> list[str]:
    return [f"p{i:03d}" for i in range(1, count + 1)]


def deal_tables(ids: list[str], rng: random.Random, table_size: int = 4) -> list[list[str]]:
    """An earlier round as some other event might have seated it: shuffled, tables of 3-4."""
    order = list(ids)
    rng.shuffle(order)
    tables = [order[i:i + table_size] for i in range(0, len(order), table_size)]
    if len(tables) > 1 and len(tables[-1]) < 3:
        # give the short last table players from the full ones, one each
        for donor in tables[:-1]:
            if len(tables[-1]) >= 3:
                break
            tables[-1].append(donor.pop())
    return [t for t in tables if t]


@st.composite
def random_requests(draw, max_players: int = 60) -> dict:
    count = draw(st.integers(min_value=3, max_value=max_players).filter(lambda n: n not in (5,)))
    seed = draw(st.integers(min_value=0, max_value=2**31))
    rounds_played = draw(st.integers(min_value=0, max_value=3))
    rng = random.Random(seed)
    ids = player_ids(count)
    history = [deal_tables(ids, rng) for _ in range(rounds_played)]
    return {"system": "random", "round": rounds_played + 1, "seed": seed,
            "players": [{"id": p} for p in ids], "history": history}


@st.composite
def points_requests(draw, max_players: int = 80) -> dict:
    count = draw(st.integers(min_value=3, max_value=max_players).filter(lambda n: n not in (5,)))
    seed = draw(st.integers(min_value=0, max_value=2**31))
    round_number = draw(st.integers(min_value=1, max_value=6))
    min_table_size = draw(st.sampled_from([1, 3, 3, 3]))
    ids = player_ids(count)
    players = []
    for player_id in ids:
        kind = draw(st.sampled_from(["played", "played", "played", "played", "new", "missed"]))
        entry = {"id": player_id}
        if round_number > 1:
            if kind == "new":
                entry["new"] = True
            else:
                # Coarse values so that ties of points and of score really happen.
                entry["points"] = draw(st.integers(min_value=0, max_value=8)) / 2
                entry["score"] = draw(st.integers(min_value=-3, max_value=3)) * 50
                entry["played_last_round"] = kind == "played"
        players.append(entry)
    return {"system": "points", "round": round_number, "seed": seed, "min_table_size": min_table_size,
            "players": players}


@st.composite
def league_requests(draw) -> dict:
    count = draw(st.sampled_from([8, 12, 13, 16, 18, 20, 24, 28, 32, 37, 44]))
    rounds = draw(st.integers(min_value=1, max_value=6))
    seed = draw(st.integers(min_value=0, max_value=2**31))
    return {"system": "league", "rounds": rounds, "seed": seed,
            "players": [{"id": p} for p in player_ids(count)]}


@st.composite
def fixed_requests(draw) -> dict:
    count = draw(st.integers(min_value=3, max_value=40).filter(lambda n: n != 5))
    seed = draw(st.integers(min_value=0, max_value=2**31))
    rng = random.Random(seed)
    ids = player_ids(count)
    return {"system": "fixed", "round": 1, "players": [{"id": p} for p in ids],
            "tables": deal_tables(ids, rng)}


def previous_round_from(tables: list[list[str]], rng: random.Random, use_totals: bool) -> list[dict]:
    """Placings for a played knock-out round: a random finish, or totals with ties."""
    previous = []
    for table in tables:
        if use_totals:
            totals = {p: rng.choice([-40, 0, 0, 25, 60]) for p in table}
            previous.append({"players": list(table), "totals": totals})
        else:
            placing = list(table)
            rng.shuffle(placing)
            previous.append({"players": list(table), "placing": placing})
    return previous


def play_knockout(count: int, seed: int, use_totals: bool = False):
    """Yield (request, result) for every round from the first draw to the final."""
    rng = random.Random(seed ^ 0x5EED)
    ids = player_ids(count)
    request = {"system": "knockout", "round": 1, "seed": seed, "players": [{"id": p} for p in ids]}
    history: list[list[list[str]]] = []
    while True:
        result = seat_round(request)
        yield request, result
        if len(result["tables"]) == 1 and not result["byes"]:
            return
        history = history + [result["tables"]]
        request = {"system": "knockout", "round": request["round"] + 1, "seed": seed + request["round"],
                   "players": [{"id": p} for p in ids], "history": history,
                   "previous_round": previous_round_from(result["tables"], rng, use_totals)}
