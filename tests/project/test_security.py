"""Security at the edge: headers on every page, CSRF on forms, a rate limit on logins, and the
API's 401 (with its challenge) to a caller without valid credentials."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token

from sample_data.factories import EventFactory, UserFactory
from tournaments.models import Event, Job

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_pages_carry_security_headers():
    response = Client().get("/")
    assert response.status_code == 200
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "camera=()" in response.headers["Permissions-Policy"]


def test_login_form_needs_a_csrf_token():
    UserFactory(username="ana")
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "ana", "password": "secret-pass-123"})
    assert response.status_code == 403


def test_logins_are_rate_limited_after_repeated_failures(settings):
    settings.LOGIN_FAILURES_ALLOWED = 3
    UserFactory(username="marko")
    client = Client()
    for _ in range(3):
        response = client.post("/accounts/login/", {"username": "marko", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    blocked = client.post("/accounts/login/", {"username": "marko", "password": "secret-pass-123"})
    assert blocked.status_code == 429
    assert "Too many failed logins" in blocked.content.decode()
    assert int(blocked["Retry-After"]) > 0
    # Guessing from one address does not lock the account out from another (issue #29, 3).
    other = Client(REMOTE_ADDR="10.9.9.9")
    assert other.post("/accounts/login/", {"username": "marko", "password": "secret-pass-123"}).status_code == 302


def test_a_successful_login_clears_the_failures(settings):
    settings.LOGIN_FAILURES_ALLOWED = 3
    UserFactory(username="irena")
    client = Client()
    client.post("/accounts/login/", {"username": "irena", "password": "wrong"})
    client.post("/accounts/login/", {"username": "irena", "password": "wrong"})
    ok = client.post("/accounts/login/", {"username": "irena", "password": "secret-pass-123"})
    assert ok.status_code == 302
    client.logout()
    client.post("/accounts/login/", {"username": "irena", "password": "wrong"})
    client.post("/accounts/login/", {"username": "irena", "password": "wrong"})
    assert client.post("/accounts/login/", {"username": "irena", "password": "secret-pass-123"}).status_code == 302


# ---------------------------------------------------------------------------------------
# One limit for every sign-in (issue 12, finding 5)
# ---------------------------------------------------------------------------------------

def _token(client, username, password):
    return client.post("/api/v1/auth/token/", {"username": username, "password": password},
                       content_type="application/json")


def test_the_admin_login_is_rate_limited_too(settings):
    settings.LOGIN_FAILURES_ALLOWED = 3
    UserFactory(username="boss", is_staff=True)
    client = Client()
    for _ in range(3):
        assert client.post("/admin/login/", {"username": "boss", "password": "wrong"}).status_code == 200
    blocked = client.post("/admin/login/", {"username": "boss", "password": "secret-pass-123"})
    assert blocked.status_code == 429
    assert "Too many failed logins" in blocked.content.decode()


def test_every_sign_in_counts_against_one_limit(settings):
    settings.LOGIN_FAILURES_ALLOWED = 3
    UserFactory(username="mojca", is_staff=True)
    client = Client()
    assert client.post("/accounts/login/", {"username": "mojca", "password": "x"}).status_code == 200
    assert client.post("/admin/login/", {"username": "mojca", "password": "x"}).status_code == 200
    assert _token(client, "mojca", "x").status_code == 400
    # Three failures, one on each door: every door is now closed for her, right password or not.
    token = _token(client, "mojca", "secret-pass-123")
    assert token.status_code == 429
    assert token.json()["errors"][0]["code"] == "too_many_logins"
    assert client.post("/accounts/login/", {"username": "mojca", "password": "secret-pass-123"}).status_code == 429
    assert client.post("/admin/login/", {"username": "mojca", "password": "secret-pass-123"}).status_code == 429
    # authenticate() itself refuses while the limit holds, whoever calls it.
    from django.contrib.auth import authenticate
    from django.test import RequestFactory

    request = RequestFactory().post("/", REMOTE_ADDR="127.0.0.1")
    assert authenticate(request, username="mojca", password="secret-pass-123") is None


def test_the_default_cache_is_shared_between_processes_unless_cache_url_says_otherwise():
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "CACHE_URL"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    backend = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
                               "print(settings.CACHES['default']['BACKEND'])"],
        env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert backend == "django.core.cache.backends.db.DatabaseCache"


def test_check_deploy_warns_when_the_cache_is_private_to_a_process(settings):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import SystemCheckError

    from config.checks import shared_cache

    settings.CACHES = {**settings.CACHES,
                       "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert [w.id for w in shared_cache()] == ["tarok.W001"]
    out = StringIO()
    try:
        call_command("check", "--deploy", stdout=out, stderr=out)
    except SystemCheckError as exc:
        out.write(str(exc))
    assert "tarok.W001" in out.getvalue()
    settings.CACHES = {**settings.CACHES,
                       "default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache",
                                   "LOCATION": "django_cache"}}
    assert shared_cache() == []


# ---------------------------------------------------------------------------------------
# No valid credentials: 401 in the API (issue #29)
# ---------------------------------------------------------------------------------------

def _api_errors(response) -> list[dict]:
    body = response.json()
    assert set(body) == {"errors"} and body["errors"], body
    assert {"hand", "field", "code", "message"} <= set(body["errors"][0])
    return body["errors"]


NEW_EVENT = {"name": "Forged", "slug": "forged", "starts_on": "2026-11-21", "ends_on": "2026-11-21",
             "ruleset_code": "tarok-net-2007", "ruleset_mode": "tri+1", "seating_system": "points",
             "planned_rounds": 3, "hands_per_round": 16}


@pytest.mark.parametrize("method, path, body", [
    ("get", "/api/v1/events/", None),
    ("get", "/api/v1/me/", None),
    ("post", "/api/v1/events/", NEW_EVENT),
    ("post", "/api/v1/auth/token/", {"username": "x", "password": "y"}),
])
def test_a_wrong_token_is_answered_401_with_the_challenge(method, path, body):
    client = Client(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")
    response = (client.post(path, body, content_type="application/json") if method == "post"
                else client.get(path))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert _api_errors(response)[0]["code"] == "authentication_failed"
    assert not Event.objects.filter(slug="forged").exists()


def test_a_write_without_credentials_is_answered_401_and_a_signed_in_write_is_not():
    anonymous = Client().post("/api/v1/events/", NEW_EVENT, content_type="application/json")
    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"] == "Token"
    assert _api_errors(anonymous)[0]["code"] == "not_authenticated"
    # Signed in by a valid token, without the right to create events: 403, no challenge.
    user = UserFactory(username="no-rights")
    token = Token.objects.create(user=user)
    refused = Client(HTTP_AUTHORIZATION=f"Token {token.key}").post(
        "/api/v1/events/", NEW_EVENT, content_type="application/json")
    assert refused.status_code == 403 and "WWW-Authenticate" not in refused
    assert not Event.objects.filter(slug="forged").exists()


def test_an_officials_only_read_is_401_without_credentials_and_403_for_a_stranger():
    event = EventFactory(slug="open-event", is_public=True)
    job = Job.objects.create(key="seat_round:security", kind="seat_round", event=event)
    anonymous = Client().get(f"/api/v1/jobs/{job.pk}/")
    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"] == "Token"
    assert _api_errors(anonymous)[0]["code"] == "not_organiser"
    stranger = Client()
    stranger.force_login(UserFactory(username="stranger"))
    refused = stranger.get(f"/api/v1/jobs/{job.pk}/")
    assert refused.status_code == 403 and "WWW-Authenticate" not in refused


def test_a_session_and_a_valid_token_still_sign_in():
    user = UserFactory(username="signed-in")
    session = Client()
    session.force_login(user)
    assert session.get("/api/v1/me/").json()["username"] == "signed-in"
    token = Token.objects.create(user=user)
    by_token = Client(HTTP_AUTHORIZATION=f"Token {token.key}").get("/api/v1/me/")
    assert by_token.status_code == 200 and by_token.json()["username"] == "signed-in"
