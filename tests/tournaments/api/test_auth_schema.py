"""The API's edges: token and session sign-in, the error shape of every refusal (validation,
authentication, CSRF, parsing, method), the OpenAPI schema at /api/schema/ (complete and free
of warnings, every answer, bounded parameter and nullable field documented) and the
interactive docs at /api/docs/."""

from __future__ import annotations

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.api.test_roles import CARD, E, build_world

pytestmark = pytest.mark.django_db

ERROR_KEYS = {"hand", "field", "code", "message"}


@pytest.fixture(autouse=True)
def _fresh_throttle():
    # The sign-in throttle counts in the cache, which outlives a test.
    cache.clear()
    yield
    cache.clear()


def _errors(response) -> list[dict]:
    body = response.json()
    assert set(body) == {"errors"}
    assert all(set(e) >= ERROR_KEYS for e in body["errors"])
    return body["errors"]


def test_a_token_signs_in_and_a_wrong_password_is_refused_in_the_error_shape():
    user = get_user_model().objects.create_user(username="marija", password="Tarok-2026!")
    client = APIClient()
    wrong = client.post("/api/v1/auth/token/", {"username": "marija", "password": "nope"}, format="json")
    assert wrong.status_code == 400
    assert _errors(wrong)[0]["field"] == "non_field_errors"
    issued = client.post("/api/v1/auth/token/", {"username": "marija", "password": "Tarok-2026!"},
                         format="json")
    assert issued.status_code == 200
    token = issued.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = client.get("/api/v1/me/")
    assert me.status_code == 200 and me.json()["username"] == user.username
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    bad = client.get("/api/v1/me/")
    # A wrong token is no credential: 401 with the challenge, on reads as on writes.
    assert bad.status_code == 401 and _errors(bad)[0]["code"] == "authentication_failed"
    assert bad["WWW-Authenticate"] == "Token"


def test_password_guessing_is_slowed_down(settings):
    settings.LOGIN_FAILURES_ALLOWED = 5
    get_user_model().objects.create(username="target")
    client = APIClient()
    answers = [client.post("/api/v1/auth/token/", {"username": "target", "password": f"guess{n}"},
                           format="json").status_code for n in range(6)]
    assert answers[:5] == [400] * 5
    assert answers[5] == 429
    throttled = client.post("/api/v1/auth/token/", {"username": "target", "password": "x"}, format="json")
    assert _errors(throttled)[0]["code"] == "too_many_logins"


def test_a_session_signs_in_and_its_writes_need_the_csrf_token():
    world = build_world()
    organiser = world.users["organiser"]
    organiser.set_password("Tarok-2026!")
    organiser.save()
    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username="organiser", password="Tarok-2026!")
    me = client.get("/api/v1/me/").json()
    assert me["organiser_of"] == ["cup"] and me["can_create_events"] is True
    refused = client.patch(E, {"venue": "Piran"}, format="json")
    assert refused.status_code == 403 and "CSRF" in _errors(refused)[0]["message"]
    world.event.refresh_from_db()
    assert world.event.venue != "Piran"


def test_me_shows_a_players_own_registrations():
    world = build_world()
    me = world.client("player_here").get("/api/v1/me/").json()
    assert me["player"]["last_name"] == "Last1"
    assert me["registrations"] == [{"event": "cup", "start_number": 1, "status": "registered"}]
    assert me["organiser_of"] == [] and me["can_create_events"] is False


def test_every_refusal_has_the_contract_error_shape():
    world = build_world()
    client = world.client("organiser")
    malformed = client.generic("PATCH", E, "{not json", content_type="application/json")
    assert malformed.status_code == 400 and _errors(malformed)[0]["code"] == "parse_error"
    method = client.post(E + "standings/")
    assert method.status_code == 405 and _errors(method)[0]["code"] == "method_not_allowed"
    nested = client.patch(E, {"starts_on": "someday", "table_size": "four"}, format="json")
    assert nested.status_code == 400
    assert {e["field"] for e in _errors(nested)} == {"starts_on", "table_size"}
    service = client.patch(E, {"table_size": 5, "min_table_size": 6}, format="json")
    assert service.status_code == 400 and _errors(service)
    missing = client.get("/api/v1/events/cup/rounds/9/")
    assert missing.status_code == 404 and _errors(missing)[0]["field"] == "round"
    unknown_hand = client.post(CARD + "hands/7/confirm/")
    assert unknown_hand.status_code == 404 and _errors(unknown_hand)[0]["code"] == "no_such_hand"
    anonymous = world.client("anonymous").post(E + "rounds/1/close/")
    assert anonymous.status_code == 401 and _errors(anonymous)[0]["code"] == "not_authenticated"
    assert anonymous["WWW-Authenticate"] == "Token"


def test_the_schema_is_complete_and_the_docs_are_served(tmp_path):
    out = tmp_path / "schema.yml"
    # --fail-on-warn: a view without a described request or response fails here.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    paths = schema["paths"]
    card = "/api/v1/events/{slug}/rounds/{number}/tables/{table}/scorecard/"
    for path, methods in {
        "/api/v1/events/": {"get", "post"},
        "/api/v1/events/{slug}/": {"get", "patch"},
        "/api/v1/events/{slug}/registrations/import/": {"post"},
        "/api/v1/events/{slug}/rounds/generate/": {"post"},
        "/api/v1/jobs/{id}/": {"get"},
        card + "hands/{hand}/": {"get", "put", "delete"},
        card + "money-sheet/": {"get", "put"},
        "/api/v1/events/{slug}/disputes/{id}/decide/": {"post"},
        "/api/v1/events/{slug}/standings/csv/": {"get"},
        "/api/v1/events/{slug}/audit/": {"get"},
    }.items():
        assert methods <= set(paths[path]), path
    put = paths[card + "hands/{hand}/"]["put"]
    assert {"200", "201", "400", "401", "403", "404", "409"} <= set(put["responses"])
    # A token that is not valid is refused on every operation that reads tokens, reads
    # included; the scoring engine's reads none.
    token_operations = {f"{method} {path}": operation for path, methods in paths.items()
                        for method, operation in methods.items()
                        if {"tokenAuth": []} in operation.get("security", [])}
    assert len(token_operations) > 50 and "post /api/v1/score/" not in token_operations
    assert [name for name, operation in token_operations.items()
            if "401" not in operation["responses"]] == []
    assert "text/csv" in paths["/api/v1/events/{slug}/standings/csv/"]["get"]["responses"]["200"]["content"]
    assert {"tokenAuth", "cookieAuth"} <= set(schema["components"]["securitySchemes"])

    client = APIClient()
    served = client.get("/api/schema/")
    assert served.status_code == 200 and b"/api/v1/events/{slug}/standings/" in served.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


# The schema's answers, parameters and fields (issue 12, finding 8)

@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", HTTP_ACCEPT="application/json")
    return response.json()

def test_lists_document_their_refusals_and_bounded_pagination(schema):
    for path in ("/api/v1/events/{slug}/registrations/", "/api/v1/events/{slug}/penalties/"):
        operation = schema["paths"][path]["get"]
        assert {"400", "404"} <= set(operation["responses"]), path
        params = {p["name"]: p["schema"] for p in operation["parameters"]}
        assert params["limit"]["minimum"] == 1 and params["limit"]["maximum"] == 1000
        assert params["offset"]["minimum"] == 0
    assert "400" in schema["paths"]["/api/v1/events/"]["get"]["responses"]

def test_the_token_endpoint_documents_its_429_and_the_round_parameter_its_minimum(schema):
    assert {"400", "429"} <= set(schema["paths"]["/api/v1/auth/token/"]["post"]["responses"])
    params = schema["paths"]["/api/v1/events/{slug}/standings/"]["get"]["parameters"]
    round_ = next(p for p in params if p["name"] == "round")
    assert round_["schema"]["minimum"] == 1

def test_a_disputes_correction_is_nullable_in_the_schema(schema):
    correction = schema["components"]["schemas"]["Dispute"]["properties"]["correction"]
    assert correction.get("nullable") is True


def test_a_job_of_no_one_event_answers_as_its_schema_says():
    """The ratings' rebuild is a job of no event: its `event` is null, and the schema says
    it may be (the API fuzzer found the answer outside the schema)."""
    from rankings.services import REBUILD_JOB
    from tournaments.models import Job

    staff = get_user_model().objects.create_user(username="staff-jobs", password="x", is_staff=True)
    job = Job.objects.create(key="ratings:test", kind=REBUILD_JOB)
    client = APIClient()
    client.force_authenticate(staff)
    answer = client.get(f"/api/v1/jobs/{job.pk}/")
    assert answer.status_code == 200 and answer.json()["event"] is None
    schema = yaml.safe_load(Client().get("/api/schema/").content)
    assert schema["components"]["schemas"]["Job"]["properties"]["event"].get("nullable") is True
