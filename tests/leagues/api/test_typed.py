"""The leagues and cups API in the house style of the tournaments API: the OpenAPI schema
describes every request body and every answer of its operations with typed fields (no
free-form object where a shape is known), and a bad value in a body or a query string is
refused with 400 in the API's one error shape, naming the field, translated, and nothing is
saved."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from leagues import services
from leagues.models import Matchday, Season, SeasonMembership
from sample_data.factories import UserFactory
from tests.leagues.helpers import make_players, single_table_event
from tournaments.models import Player

# Every operation of leagues.api_urls, by its operation id (unchanged since the API began).
OPERATIONS = {
    "leagues_list", "leagues_create", "league_retrieve", "league_update", "league_seasons_list",
    "league_season_create", "league_season_retrieve", "league_season_update", "league_season_standings",
    "league_season_schedule", "league_season_schedule_generate", "league_season_schedule_swap",
    "league_season_member_add", "league_season_member_remove", "league_season_applicants_select",
    "league_season_matchday_create", "league_season_matchday_update", "league_season_matchday_seat",
    "league_season_matchday_publish", "league_season_matchday_close", "league_season_finish",
    "league_season_final_order", "league_season_next_plan", "league_season_advance", "cups_list",
    "cups_create", "cup_retrieve", "cup_update", "cup_ranking", "cup_points_set", "cup_event_add",
    "cup_event_remove", "player_leagues_and_cups",
}
# The steps that read no body: their request is documented as none.
NO_BODY = {"league_season_matchday_seat", "league_season_matchday_publish", "league_season_matchday_close",
           "league_season_finish"}
# Values whose keys are free by nature, each a field of the schema: a league's ruleset options
# (the registry checks them), how a season was formed, a seating note's parameters.
FREE_FORM = {"ruleset_options", "formation", "params"}
ERROR_KEYS = {"hand", "field", "code", "message"}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def _league_operations(schema: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, Any]]]:
    out = {}
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if operation.get("operationId") in OPERATIONS:
                out[operation["operationId"]] = (path, method, operation)
    return out


def _component(schema: dict[str, Any], ref: str) -> dict[str, Any]:
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]]


def _free_objects(schema: dict[str, Any], node: Any, name: str, seen: set[str]) -> list[str]:
    """The places under `node` that are an object without properties, except FREE_FORM."""
    if isinstance(node, list):
        return [hit for item in node for hit in _free_objects(schema, item, name, seen)]
    if not isinstance(node, dict):
        return []
    if "$ref" in node:
        ref = node["$ref"]
        if ref in seen:
            return []
        seen.add(ref)
        return _free_objects(schema, _component(schema, ref), ref, seen)
    hits = []
    if node.get("type") == "object" and "properties" not in node and name not in FREE_FORM:
        extra = node.get("additionalProperties")
        # A map is typed when its values are (`{"1": 223}`: integers); `{}` means anything.
        if not isinstance(extra, dict) or not extra:
            hits.append(name)
    for key, value in node.items():
        if key == "properties":
            for field, sub in value.items():
                hits.extend(_free_objects(schema, sub, field, seen))
        elif key in ("items", "additionalProperties", "allOf", "oneOf", "anyOf"):
            hits.extend(_free_objects(schema, value, name, seen))
    return hits


def test_every_league_and_cup_operation_has_typed_bodies_and_answers(schema):
    operations = _league_operations(schema)
    assert set(operations) == OPERATIONS
    for op_id, (path, method, operation) in operations.items():
        where = f"{method.upper()} {path} ({op_id})"
        body = operation.get("requestBody")
        if method in ("post", "put", "patch") and op_id not in NO_BODY:
            assert body is not None, f"{where} documents no request body"
            for media in ("application/json", "application/x-www-form-urlencoded"):
                ref = body["content"][media]["schema"]["$ref"]
                assert _component(schema, ref)["properties"], f"{where}: {ref} has no fields"
        else:
            assert body is None, f"{where} documents a body it does not read"
        successes = {code: r for code, r in operation["responses"].items() if code.startswith("2")}
        assert successes, f"{where} documents no success"
        for code, response in successes.items():
            if code == "204":
                assert "content" not in response, f"{where}: a 204 has no body"
                continue
            answer = response["content"]["application/json"]["schema"]
            target = _component(schema, answer["$ref"]) if "$ref" in answer else answer
            assert target.get("properties"), f"{where}: its {code} answer has no fields"
        for code in ("400", "403", "404"):
            if code in operation["responses"]:
                ref = operation["responses"][code]["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/ApiError"), f"{where}: its {code} is not the API's error shape"
        free = _free_objects(schema, operation, op_id, set())
        assert not free, f"{where}: untyped objects at {free}"


def test_query_strings_are_typed(schema):
    operations = _league_operations(schema)
    plan = {p["name"]: p["schema"] for p in operations["league_season_next_plan"][2]["parameters"]
            if p["in"] == "query"}
    assert plan["leaving"]["type"] == plan["applicants"]["type"] == "array"
    assert plan["leaving"]["items"]["type"] == "integer"
    criterion = plan["criterion"]
    choices = _component(schema, criterion["$ref"]) if "$ref" in criterion else criterion
    assert set(choices["enum"]) >= {"previous_season", "qualification", "pre_competition"}
    assert plan["criterion_event"]["type"] == "string"
    after = next(p for p in operations["league_season_standings"][2]["parameters"] if p["name"] == "after")
    assert after["schema"]["type"] == "integer"


def test_the_free_form_check_finds_an_untyped_object():
    fake = {"components": {"schemas": {"X": {"type": "object", "properties": {
        "shape": {"type": "object", "additionalProperties": {}}, "map": {"type": "object",
                                                                         "additionalProperties": {"type": "integer"}}}}}}}
    assert _free_objects(fake, {"$ref": "#/components/schemas/X"}, "op", set()) == ["shape"]


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------


@pytest.fixture
def season(db):
    owner = UserFactory(username="typed-owner", is_staff=True)
    league = services.league_create(actor=owner, organisers=[owner], name="Typed", slug="typed", division_size=8,
                                    movement_count=2, division_count=1, hands_per_matchday=1)
    season = services.season_create(league=league, actor=owner, name="2026", slug="2026", planned_matchdays=2,
                                    seed=4)
    players = make_players(4, "typed")
    division = season.divisions.get(level=1)
    for p in players:
        services.membership_add(division=division, player=p, actor=owner)
    client = Client()
    client.force_login(owner)
    season.client, season.owner, season.players = client, owner, players
    return season


BASE = "/api/v1/leagues/typed/seasons/2026/"


def _refused(response, field: str, code: str) -> dict[str, Any]:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    errors = response.json()["errors"]
    assert all(set(e) == ERROR_KEYS for e in errors), errors
    named = [e for e in errors if e["field"] == field]
    assert named, f"no error names {field}: {errors}"
    assert named[0]["code"] == code and named[0]["message"].strip(), named[0]
    return named[0]


def _post(client, url: str, body: Any, **headers: str):
    return client.post(url, body, content_type="application/json", **headers)


def test_a_non_integer_id_is_refused_at_its_field(season):
    before = SeasonMembership.objects.count()
    _refused(_post(season.client, BASE + "members/", {"division": 1, "player": "abc"}), "player", "invalid")
    _refused(_post(season.client, BASE + "members/", {"division": "one", "player": season.players[0].pk}),
             "division", "invalid")
    _refused(season.client.get(BASE + "standings/?after=x"), "after", "invalid")
    _refused(_post(season.client, BASE + "final-order/", {"division": 1, "players": [1, "x"]}), "players[1]",
             "invalid")
    assert SeasonMembership.objects.count() == before


def test_a_malformed_date_is_refused_at_its_field(season):
    _refused(_post(season.client, BASE + "matchdays/", {"date": "2026-13-45"}), "date", "invalid")
    _refused(season.client.patch(BASE, {"starts_on": "1. 9. 2026"}, content_type="application/json"),
             "starts_on", "invalid")
    _refused(_post(season.client, "/api/v1/leagues/typed/seasons/", {"name": "2027", "ends_on": "soon"}),
             "ends_on", "invalid")
    assert not Matchday.objects.exists() and Season.objects.count() == 1
    assert Season.objects.get().starts_on is None


def test_an_unknown_player_is_refused_at_its_place_in_the_list(season):
    missing = Player.objects.order_by("-pk").first().pk + 1
    error = _refused(_post(season.client, BASE + "schedule/swap/",
                           {"division": 1, "matchday": 1, "players": [season.players[0].pk, missing]}),
                     "players[1]", "unknown_player")
    assert str(missing) in error["message"]
    _refused(_post(season.client, BASE + "members/", {"division": 1, "player": missing}), "player", "unknown_player")
    # A query string lists them with commas.
    _refused(season.client.get(BASE + f"next-plan/?applicants={season.players[0].pk},{missing}"),
             "applicants[1]", "unknown_player")


def test_a_missing_required_field_is_refused_by_name(season):
    _refused(_post(season.client, BASE + "matchdays/", {}), "date", "required")
    _refused(_post(season.client, BASE + "schedule/swap/", {"division": 1, "players": [1, 2]}), "matchday",
             "required")
    _refused(_post(season.client, BASE + "members/", {"player": season.players[0].pk}), "division", "required")
    _refused(_post(season.client, "/api/v1/cups/", {"slug": "c"}), "name", "required")
    # ... and an unknown division of the season, a nested field, a value out of the list.
    _refused(_post(season.client, BASE + "members/", {"division": 7, "player": season.players[0].pk}),
             "division", "unknown_division")
    _refused(_post(season.client, "/api/v1/leagues/typed/seasons/", {"name": "2027", "divisions": [{"size": "x"}]}),
             "divisions[0].size", "invalid")
    _refused(_post(season.client, BASE + "applicants/", {"criterion": "luck"}), "criterion", "invalid_choice")
    refused = _post(season.client, BASE + "members/", [1, 2])
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "non_field_errors"


def test_the_refusals_are_translated(season):
    english = _refused(_post(season.client, BASE + "matchdays/", {}), "date", "required")["message"]
    slovenian = _refused(_post(season.client, BASE + "matchdays/", {}, HTTP_ACCEPT_LANGUAGE="sl"),
                         "date", "required")["message"]
    assert english == "This field is required." and slovenian != english and slovenian.strip()


def test_the_refusal_shape_is_the_tournaments_apis(season):
    """The same bad date refused by the tournaments API and by the leagues API: one shape."""
    event = _post(season.client, "/api/v1/events/", {"name": "E", "slug": "e", "starts_on": "2026-13-45"})
    matchday = _post(season.client, BASE + "matchdays/", {"date": "2026-13-45"})
    theirs, ours = _refused(event, "starts_on", "invalid"), _refused(matchday, "date", "invalid")
    assert set(theirs) == set(ours) and theirs["message"] == ours["message"] and theirs["hand"] is ours["hand"]


def test_an_event_the_caller_may_not_see_reads_as_unknown(season):
    organiser = UserFactory(username="typed-cup")
    services.cup_create(actor=season.owner, organisers=[organiser], name="Cup", slug="typed-cup")
    a, b, c = make_players(3, "cupper")
    event = single_table_event("typed-private", [a, b, c], season.owner, UserFactory(username="typed-ref"))
    event.is_public = False
    event.save(update_fields=["is_public"])
    client = Client()
    client.force_login(organiser)
    private = _refused(_post(client, "/api/v1/cups/typed-cup/events/", {"event": "typed-private"}), "event",
                       "unknown_event")
    missing = _refused(_post(client, "/api/v1/cups/typed-cup/events/", {"event": "typed-nothing"}), "event",
                       "unknown_event")
    assert private["message"].replace("typed-private", "") == missing["message"].replace("typed-nothing", "")
