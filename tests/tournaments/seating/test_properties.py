"""Property tests: every round the engine seats, for every system, passes the independent
checker, and the same request always gives the same result."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.seating.tournament_generator import (
    fixed_requests,
    league_requests,
    play_knockout,
    points_requests,
    random_requests,
)
from tournaments.seating import seat_round
from tournaments.seating.checker import check_seating

pytestmark = pytest.mark.slow

any_request = st.one_of(random_requests(), points_requests(), league_requests(), fixed_requests())


@settings(max_examples=60, deadline=None)
@given(random_requests())
def test_random_rounds_pass_the_checker(request):
    result = seat_round(request)
    assert check_seating(request, result) == []


@settings(max_examples=80, deadline=None)
@given(points_requests())
def test_points_rounds_pass_the_checker(request):
    result = seat_round(request)
    assert check_seating(request, result) == []


@settings(max_examples=25, deadline=None)
@given(league_requests())
def test_league_schedules_pass_the_checker(request):
    result = seat_round(request)
    assert len(result["rounds"]) == request["rounds"]
    assert check_seating(request, result) == []


@settings(max_examples=40, deadline=None)
@given(fixed_requests())
def test_fixed_lists_pass_the_checker(request):
    result = seat_round(request)
    assert result["tables"] == request["tables"]
    assert check_seating(request, result) == []


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=4, max_value=140), st.integers(min_value=0, max_value=10**6), st.booleans())
def test_every_knockout_round_passes_the_checker(count, seed, use_totals):
    rounds = list(play_knockout(count, seed, use_totals))
    for request, result in rounds:
        assert check_seating(request, result) == [], (request["round"], result)
    final_request, final = rounds[-1]
    assert len(final["tables"]) == 1 and len(final["tables"][0]) == 4
    # Everyone but the four finalists went out along the way.
    assert len(final["eliminated"]) == count - 4


@settings(max_examples=40, deadline=None)
@given(any_request)
def test_same_request_same_result(request):
    first = seat_round(copy.deepcopy(request))
    second = seat_round(copy.deepcopy(request))
    assert first == second


@settings(max_examples=30, deadline=None)
@given(random_requests(max_players=40))
def test_players_listed_in_another_order_get_the_same_seating(request):
    shuffled = copy.deepcopy(request)
    shuffled["players"].reverse()
    assert seat_round(shuffled) == seat_round(request)


@settings(max_examples=30, deadline=None)
@given(random_requests(max_players=40))
def test_the_seed_changes_the_draw(request):
    other = dict(request, seed=request["seed"] + 1)
    tables = seat_round(request)["tables"]
    if len(tables) > 2:
        assert seat_round(other)["tables"] != tables


DETERMINISM_SCRIPT = """
import hashlib, json, sys
sys.path.insert(0, {root!r})
from tournaments.seating import seat_round
from tests.tournaments.seating.tournament_generator import play_knockout, player_ids
out = [seat_round({{"system": "league", "rounds": r, "seed": 7,
                    "players": [{{"id": p}} for p in player_ids(n)]}}) for n, r in ((28, 9), (30, 5))]
history = []
for number in (1, 2, 3):
    result = seat_round({{"system": "random", "round": number, "seed": number, "history": history,
                          "players": [{{"id": p}} for p in player_ids(50)]}})
    history.append(result["tables"])
    out.append(result)
out.extend(result for _, result in play_knockout(37, 5, True))
print(hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest())
"""


def test_results_do_not_depend_on_python_hash_randomisation():
    root = str(Path(__file__).resolve().parents[3])
    digests = set()
    for hash_seed in ("1", "2"):
        completed = subprocess.run(
            [sys.executable, "-c", DETERMINISM_SCRIPT.format(root=root)], capture_output=True, text=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed}, check=True, cwd=root)
        digests.add(completed.stdout.strip())
    assert len(digests) == 1
