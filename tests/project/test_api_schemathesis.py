"""Schemathesis against the OpenAPI schema at /api/schema/, in process, as every role:
anonymous, a player at a table, the event's referee, its organiser (who also runs the league
and the cup), the organiser of another event, and staff.

For every operation of the schema a bounded number of requests is generated (valid ones and
deliberately invalid ones) against a realistic database built through the services: an event
with registrations, a published round with a scorecard and a hand, a dispute, a penalty, a
job, a league season with members, a schedule and a matchday, and a cup. The path parameters
name those real objects, so the requests reach the views instead of stopping at a 404; a
third of the examples name made-up objects or paths no route accepts.

Four checks on every answer: never a server error; every refusal (4xx) in the contract's
error shape {"errors": [{"hand", "field", "code", "message"}]} with a field and a message; its
status code documented by the schema; and its body of the documented shape. The number of
requests is printed.

The fuzzing test is marked `fuzz` so a quick run can leave it out (`-m "not fuzz"`);
`make test` runs it. Each role builds its world in a transactional test, which is flushed
afterwards, so the writes the fuzzer makes never leak into another test."""

from __future__ import annotations

import datetime as dt
import functools
import os
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from leagues import services as league_services
from sample_data.factories import PlayerFactory
from tests.tournaments.api.test_roles import build_world
from tournaments import services
from tournaments.models import Job

ROLES = ["anonymous", "player_here", "referee", "organiser", "other_organiser", "staff"]
# Requests per operation and role: valid ones, invalid ones and ones naming nothing. With ~85
# operations and six roles this keeps the file around a minute on two cores; FUZZ_EXAMPLES=50
# searches deeper.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))
ERROR_KEYS = {"hand", "field", "code", "message"}
CASES: dict[str, int] = {}


@functools.cache
def _schema() -> Any:
    return schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


def _world() -> dict[str, Any]:
    """The objects the path parameters name, built through the services."""
    w = build_world()
    organiser = w.users["organiser"]
    # About the event as a whole, which only an official may raise (tournaments.domain.rights).
    dispute = services.dispute_open(event=w.event, description="the points of hand 1",
                                    actor=w.users["referee"])
    services.penalty_record(table=w.round1.tables.get(number=1),
                            registration=w.event.registrations.get(start_number=2),
                            kind="renons", actor=w.users["referee"], description="late")
    job = Job.objects.create(key="seat_round:fuzz", kind="seat_round", event=w.event,
                             created_by=organiser)

    league = league_services.league_create(
        actor=organiser, organisers=[organiser], name="Liga", slug="liga", division_size=8,
        movement_count=2, division_count=1, hands_per_matchday=4, qualification_group=False)
    season = league_services.season_create(league=league, actor=organiser, name="2025",
                                           slug="2025", planned_matchdays=3, seed=7)
    division = season.divisions.get(level=1)
    members = [PlayerFactory(first_name="Liga", last_name=f"Member{n}") for n in range(8)]
    for player in members:
        league_services.membership_add(division=division, player=player, actor=organiser)
    league_services.schedule_generate(season=season, actor=organiser)
    league_services.matchday_create(season=season, actor=organiser, date=dt.date(2026, 9, 1),
                                    number=1)

    series = league_services.cup_create(actor=organiser, organisers=[organiser],
                                        name="Štajerski pokal", slug="pokal", seed_points=True)
    league_services.cup_event_add(series=series, event=w.event, actor=organiser)

    player = w.event.registrations.get(start_number=1).player
    return {
        "users": w.users,
        "event": {"slug": w.event.slug, "number": 1, "table": 1, "hand": 1, "start_number": 1,
                  "id": dispute.pk},
        "job": {"id": job.pk},
        "league": {"slug": league.slug, "season": season.slug, "number": 1,
                   "player": members[0].pk},
        "cup": {"slug": series.slug, "event": w.event.slug},
        "player": {"id": player.pk},
        "archive_event": {"slug": w.event.slug},
        "archive_season": {"league": league.slug, "season": season.slug},
        "archive_cup": {"slug": series.slug},
        "ruleset": {"code": "tarok-net-2007"},
        "ranking": {"family": "slovenian"},
    }


def _path_parameters(path: str, world: dict[str, Any]) -> dict[str, Any]:
    """The real objects an operation's path parameters name (the same name, `slug` or
    `number`, means an event, a league or a cup depending on the path)."""
    prefixes = [
        ("/api/v1/events/", "event"), ("/api/v1/jobs/", "job"), ("/api/v1/leagues/", "league"),
        ("/api/v1/cups/", "cup"), ("/api/v1/players/", "player"),
        ("/api/v1/archive/events/", "archive_event"), ("/api/v1/archive/seasons/", "archive_season"),
        ("/api/v1/archive/cups/", "archive_cup"),
        ("/api/v1/rulesets/", "ruleset"), ("/api/v1/rankings/", "ranking"),
    ]
    names = {part[1:-1] for part in path.split("/") if part.startswith("{")}
    for prefix, key in prefixes:
        if path.startswith(prefix):
            return {name: world[key][name] for name in names}
    assert not names, f"no real objects for the path parameters of {path}"
    return {}


def error_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every refusal answers in the contract's error shape, naming a field with a message."""
    if not 400 <= response.status_code < 500:
        return None
    try:
        body = response.json()
    except ValueError as exc:
        raise AssertionError(f"a {response.status_code} without a JSON body: "
                             f"{response.text[:200]!r}") from exc
    assert isinstance(body, dict) and set(body) == {"errors"}, \
        f"a {response.status_code} whose body is not {{'errors': [...]}}: {body!r}"[:500]
    errors = body["errors"]
    assert isinstance(errors, list) and errors, f"a {response.status_code} with no errors listed"
    for error in errors:
        assert isinstance(error, dict) and set(error) >= ERROR_KEYS, \
            f"an error without {sorted(ERROR_KEYS)}: {error!r}"
        assert isinstance(error["field"], str) and error["field"], f"an error naming no field: {error!r}"
        assert isinstance(error["message"], str) and error["message"].strip(), \
            f"an error with no message: {error!r}"
        assert isinstance(error["code"], str) and error["code"], f"an error with no code: {error!r}"
    return None


# Never a server error; every refusal in the error shape; and the schema documents every
# answer: its status code, and the shape of its body.
CHECKS = [not_a_server_error, error_shape, status_code_conformance, response_schema_conformance]


@pytest.fixture
def _in_process_requests():
    # As Django's own test client does: a request must not close the test's connection.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def _fuzz(operation: Any, path_parameters: dict[str, Any], headers: dict[str, str],
          statuses: dict[str, set[int]]) -> str | None:
    """Run the bounded examples of one operation; the first failure's report, or None."""
    strategy = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE, path_parameters=path_parameters),
        operation.as_strategy(GenerationMode.NEGATIVE, path_parameters=path_parameters),
        # Now and then paths naming nothing, or nothing a route accepts.
        operation.as_strategy(GenerationMode.POSITIVE),
    )

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(strategy)
    def run(case: Any) -> None:
        CASES[operation.label] = CASES.get(operation.label, 0) + 1
        response = case.call(headers=headers)
        statuses.setdefault(operation.label, set()).add(response.status_code)
        case.validate_response(response, checks=CHECKS, headers=headers)

    try:
        run()
    # A failed check is a FailureGroup (a BaseExceptionGroup); anything else is a bug of the
    # fuzzing itself or an assertion of `error_shape`: each is reported, then asserted.
    except (FailureGroup, Exception) as exc:
        return f"{operation.label}: {exc}"
    return None


@pytest.mark.fuzz
@pytest.mark.parametrize("role", ROLES)
def test_no_server_errors_and_every_refusal_names_its_field(role, transactional_db,
                                                            _in_process_requests):
    world = _world()
    user = world["users"][role]
    headers = {"Authorization": f"Token {Token.objects.create(user=user).key}"} if user else {}
    # The fuzzer reads every answer as JSON through WSGI, which does not undo a
    # Content-Encoding: the archive downloads answer gzip to a client that accepts it (tested
    # in tests/tournaments/archive/test_api.py), so this client asks for them as they are.
    headers["Accept-Encoding"] = "identity"
    failures = []
    statuses: dict[str, set[int]] = {}
    for result in _schema().get_all_operations():
        operation = result.ok()
        failure = _fuzz(operation, _path_parameters(operation.path, world), headers, statuses)
        if failure:
            failures.append(failure)
    print(f"\nschemathesis as {role}: {len(statuses)} operations, {sum(CASES.values())} requests, "
          f"{len(failures)} failing operations")
    CASES.clear()
    assert not failures, f"{len(failures)} operations failed as {role}:\n\n" + "\n\n".join(failures)
    # The fuzzing reached the real objects rather than stopping at 404s: the public reads of
    # the world answered, as did the scorecard of its table.
    for label in ("GET /api/v1/events/{slug}/", "GET /api/v1/leagues/{slug}/seasons/{season}/",
                  "GET /api/v1/cups/{slug}/",
                  "GET /api/v1/events/{slug}/rounds/{number}/tables/{table}/scorecard/"):
        assert 200 in statuses[label], f"{label} never answered 200 as {role}: {statuses[label]}"


class _Answer:
    def __init__(self, status_code: int, body: Any):
        self.status_code, self._body = status_code, body
        self.text = body if isinstance(body, str) else repr(body)

    def json(self) -> Any:
        if isinstance(self._body, str):
            raise ValueError("not JSON")
        return self._body


@pytest.mark.parametrize("answer", [
    _Answer(404, "<h1>Not Found</h1>"),
    _Answer(400, {"detail": "bad"}),
    _Answer(400, {"errors": []}),
    _Answer(403, {"errors": [{"hand": None, "field": "", "code": "x", "message": "no"}]}),
    _Answer(409, {"errors": [{"hand": None, "field": "version", "code": "stale", "message": " "}]}),
    _Answer(400, {"errors": [{"field": "record", "message": "no code or hand"}]}),
])
def test_the_error_shape_check_refuses_what_a_client_could_not_read(answer):
    with pytest.raises(AssertionError):
        error_shape(None, answer, None)


def test_the_error_shape_check_accepts_the_contract_and_ignores_successes():
    good = {"errors": [{"hand": 3, "field": "record.points", "code": "invalid", "message": "0..70"}]}
    assert error_shape(None, _Answer(400, good), None) is None
    assert error_shape(None, _Answer(200, "<html>"), None) is None
