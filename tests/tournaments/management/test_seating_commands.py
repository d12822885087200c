"""`manage.py seat` and `manage.py check_seating` as the seating contract fixes them."""

from __future__ import annotations

import json

from tests.cli import Ran, run_command
from tournaments.seating import seat_round

REQUEST = {
    "system": "random", "round": 1, "table_size": 4, "min_table_size": 3, "seed": 20261121,
    "players": [{"id": str(i)} for i in range(1, 14)], "history": [],
}


def _manage(*args: str, stdin: str) -> Ran:
    return run_command(*args, "-", stdin=stdin)


def test_seat_prints_the_engine_result():
    proc = _manage("seat", stdin=json.dumps(REQUEST))
    assert proc.returncode == 0, proc.stdout
    result = json.loads(proc.stdout)
    assert result == seat_round(REQUEST)
    assert sorted(len(t) for t in result["tables"]) == [3, 3, 3, 4]


def test_seat_refuses_a_bad_request_with_exit_2():
    proc = _manage("seat", stdin=json.dumps({**REQUEST, "system": "swiss"}))
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["errors"][0]["field"] == "system"
    proc = _manage("seat", stdin="{oops")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["errors"][0]["code"] == "invalid_json"


def test_check_seating_accepts_the_engine_result_and_refuses_a_broken_one():
    result = seat_round(REQUEST)
    ok = _manage("check_seating", stdin=json.dumps({"request": REQUEST, "result": result}))
    assert ok.returncode == 0, ok.stdout
    assert json.loads(ok.stdout)["valid"] is True

    broken = json.loads(json.dumps(result))
    broken["tables"][0][0] = broken["tables"][1][0]  # one player seated twice, one missing
    bad = _manage("check_seating", stdin=json.dumps({"request": REQUEST, "result": broken}))
    assert bad.returncode == 1
    assert json.loads(bad.stdout)["violations"]
