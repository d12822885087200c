"""The three entry points of the scorecard contract agree: Python `scoring.evaluate`,
`manage.py score FILE|-` and `POST /api/v1/score/`; and GET /api/v1/rulesets/ describes the
registry with a JSON Schema of a hand."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

import scoring
from tests.cli import Ran, run_command

CARD = {
    "ruleset": "tarok-net-2007",
    "mode": "tri+1",
    "players": ["A", "B", "C", "D"],
    "hands": [
        {"game": "trojka", "declarer": "A", "resting": "D", "points": 40},
        {"game": "dvojka", "declarer": "B", "resting": "A", "points": 30},
    ],
}
BAD_CARD = {
    "ruleset": "tarok-net-2007",
    "mode": "tri+1",
    "players": ["A", "B", "C", "D"],
    "hands": [
        {"game": "trojka", "declarer": "A", "resting": "D", "points": 71},
        {"game": "no-such-game", "declarer": "B", "resting": "A", "points": 30},
    ],
}


def _cli(*args: str, stdin: str | None = None) -> Ran:
    return run_command("score", *args, stdin=stdin)


def test_python_cli_and_http_give_the_same_result(tmp_path):
    expected = scoring.evaluate(CARD)
    assert expected["totals"] == {"A": 15, "B": -35, "C": 0, "D": 0}

    path = tmp_path / "card.json"
    path.write_text(json.dumps(CARD))
    proc = _cli(str(path))
    assert proc.returncode == 0, proc.stdout
    assert json.loads(proc.stdout) == expected

    proc = _cli("-", stdin=json.dumps(CARD))
    assert json.loads(proc.stdout) == expected

    response = APIClient().post("/api/v1/score/", CARD, format="json")
    assert response.status_code == 200
    assert response.json() == expected


def test_every_problem_is_reported_by_every_entry_point(tmp_path):
    with pytest.raises(scoring.ScorecardInvalid) as exc:
        scoring.evaluate(BAD_CARD)
    errors = exc.value.errors
    assert {(e["hand"], e["field"]) for e in errors} >= {(0, "points"), (1, "game")}

    proc = _cli("-", stdin=json.dumps(BAD_CARD))
    assert proc.returncode == 2
    assert json.loads(proc.stdout) == {"errors": errors}

    response = APIClient().post("/api/v1/score/", BAD_CARD, format="json")
    assert response.status_code == 400
    assert response.json() == {"errors": errors}


def test_cli_reports_bad_json_and_missing_files(tmp_path):
    proc = _cli("-", stdin="{not json")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["errors"][0]["code"] == "invalid_json"
    proc = _cli(str(tmp_path / "missing.json"))
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["errors"][0]["field"] == "file"


def test_http_refuses_a_body_that_is_not_an_object():
    response = APIClient().post("/api/v1/score/", [1, 2], format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "not_an_object"


def test_unknown_ruleset_is_named():
    response = APIClient().post("/api/v1/score/", {"ruleset": "skat", "players": [], "hands": []},
                                format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "unknown_ruleset"


def test_rulesets_are_listed_and_described_with_a_hand_schema():
    client = APIClient()
    listing = client.get("/api/v1/rulesets/").json()["rulesets"]
    codes = {r["code"] for r in listing}
    assert {"tarok-net-2007", "tarok-net-revised"} <= codes
    detail = client.get("/api/v1/rulesets/tarok-net-2007/").json()
    assert {m["code"] for m in detail["modes"]} == {"tri+1", "two", "three", "four"}
    assert {"trojka", "igram", "navadna"} <= set(detail["hand_schema"]["properties"]["game"]["enum"])
    assert any(g["code"] == "trojka" and g["value"] == 10 for g in detail["games"])
    assert client.get("/api/v1/rulesets/skat/").status_code == 404


@pytest.mark.django_db
def test_openapi_schema_and_docs_are_served():
    client = APIClient()
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/v1/score/" in schema.content
    assert client.get("/api/docs/").status_code == 200


def test_two_player_tarok_is_scored_through_the_api():
    # seed 000 §2.2: igram won with 44 points, "razlika" 9 doubled
    response = APIClient().post("/api/v1/score/", {
        "ruleset": "tarok-net-2007", "mode": "two", "players": ["A", "B"],
        "hands": [{"game": "igram", "declarer": "A", "points": 44}]}, format="json")
    assert response.status_code == 200
    assert response.json()["totals"] == {"A": 18, "B": 0}
    refused = APIClient().post("/api/v1/score/", {
        "ruleset": "tarok-net-2007", "mode": "two", "players": ["A", "B"],
        "hands": [{"game": "igram", "declarer": "A", "points": 44,
                   "contras": [{"on": "game", "by": "B", "level": 1}]}]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "field_not_allowed"
