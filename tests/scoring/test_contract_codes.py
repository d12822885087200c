"""The one list of error codes (issue #34): `scoring.errors.ERROR_CODES` is the contract's
"Error codes" table, code for code; the OpenAPI schema's 400 of POST /api/v1/score/ names
exactly those codes and the refusals of an unreadable body as an enum built from that list;
and every code an entry point gives for a body it cannot read is one the schema names."""

from __future__ import annotations

import json
import re
from pathlib import Path

from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from scoring.api import SCORE_ERROR_CODES
from scoring.errors import COMMAND_INPUT_CODES, ERROR_CODES, HTTP_INPUT_CODES
from tests.cli import run_command

CONTRACT = Path(__file__).resolve().parents[2] / "docs" / "contracts" / "scorecard.md"


def _contract() -> str:
    return CONTRACT.read_text("utf-8")


def test_the_code_list_is_the_contracts_table():
    section = _contract().split("### Error codes", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `([a-z_]+)` \|", section, re.M)
    assert listed == sorted(listed), "keep the table in alphabetical order"
    assert len(ERROR_CODES) == len(set(ERROR_CODES))
    assert set(listed) == set(ERROR_CODES), (sorted(set(listed) - set(ERROR_CODES)),
                                             sorted(set(ERROR_CODES) - set(listed)))


def test_the_contract_names_every_refusal_of_an_unreadable_body():
    errors = _contract().split("## Errors", 1)[1].split("### Error codes", 1)[0]
    for code in {*HTTP_INPUT_CODES, *COMMAND_INPUT_CODES}:
        assert f"`{code}`" in errors, code


def _score_400() -> dict:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    response = schema["paths"]["/api/v1/score/"]["post"]["responses"]["400"]
    ref = response["content"]["application/json"]["schema"]["$ref"]
    components = schema["components"]["schemas"]
    refusal = components[ref.rsplit("/", 1)[1]]
    item_ref = refusal["properties"]["errors"]["items"]["$ref"]
    return {"item": components[item_ref.rsplit("/", 1)[1]], "components": components}


def test_the_schema_names_the_codes_of_a_refused_scorecard():
    found = _score_400()
    item, components = found["item"], found["components"]
    assert set(item["required"]) == {"hand", "field", "code", "message"}
    code = item["properties"]["code"]
    enum_ref = code["allOf"][0]["$ref"] if "allOf" in code else code["$ref"]
    name = enum_ref.rsplit("/", 1)[1]
    assert name == "ScorecardErrorCodeEnum"
    assert components[name]["enum"] == sorted({*ERROR_CODES, *HTTP_INPUT_CODES})
    assert list(SCORE_ERROR_CODES) == components[name]["enum"]


def test_every_code_the_http_entry_point_gives_for_a_bad_body_is_in_the_schema():
    client = APIClient()
    bodies = {
        "{not json": "parse_error",
        '{"ruleset": NaN}': "parse_error",
        '{"ruleset": 1e400}': "not_a_number",
        '{"ruleset": "\\u0000"}': "invalid_text",
        '{"hands": ' + "[" * 70 + "]" * 70 + "}": "too_deep",
        "[1]": "not_an_object",
    }
    for body, expected in bodies.items():
        response = client.post("/api/v1/score/", body, content_type="application/json")
        assert response.status_code == 400, body
        codes = [e["code"] for e in response.json()["errors"]]
        assert codes[0] == expected, (body, codes)
        assert set(codes) <= set(SCORE_ERROR_CODES), codes


def test_the_command_refuses_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "card.json"
    path.write_bytes(b'{"ruleset": "\xff"}')
    ran = run_command("score", str(path))
    assert ran.returncode == 2
    errors = json.loads(ran.stdout)["errors"]
    assert [e["code"] for e in errors] == ["not_utf8"]
    assert set(e["code"] for e in errors) <= set(COMMAND_INPUT_CODES)
