"""Security at the edge: headers on every page, CSRF on forms, and a rate limit on logins."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from tests.factories import UserFactory

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
    # Another address is blocked too for that username: the limit is per user as well.
    other = Client(REMOTE_ADDR="10.9.9.9")
    assert other.post("/accounts/login/", {"username": "marko", "password": "secret-pass-123"}).status_code == 429


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
