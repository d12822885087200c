"""The client's address behind trusted proxies (guard.client_address): X-Forwarded-For is
believed only as far as our own proxies wrote it, so nobody chooses his own address."""

from __future__ import annotations

import pytest
from django.core.checks import run_checks
from django.test import RequestFactory

from guard.client_address import client_address, limit_key


def _request(remote: str, forwarded: str | None = None):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=remote, **extra)


def test_without_trusted_proxies_the_header_is_ignored(settings):
    settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_COUNT = [], 0
    assert client_address(_request("203.0.113.7", "198.51.100.1")) == "203.0.113.7"


@pytest.mark.parametrize(("remote", "forwarded", "client"), [
    # nginx on the same machine appends the address it saw.
    ("127.0.0.1", "203.0.113.7", "203.0.113.7"),
    # The client wrote his own header first: only the hop nginx added is believed.
    ("127.0.0.1", "1.2.3.4, 203.0.113.7", "203.0.113.7"),
    # Two proxies of ours (a load balancer in 10.0.0.0/8, then nginx).
    ("127.0.0.1", "6.6.6.6, 203.0.113.7, 10.1.2.3", "203.0.113.7"),
    # A request straight to the app, not from a proxy of ours: its header is not believed.
    ("203.0.113.99", "1.2.3.4", "203.0.113.99"),
    # Garbage where a proxy of ours would have written an address: the hop that handed it on.
    ("127.0.0.1", "not-an-address", "127.0.0.1"),
    ("127.0.0.1", "", "127.0.0.1"),
    ("127.0.0.1", "[2001:db8::5]:443", "2001:db8::5"),
    ("127.0.0.1", "203.0.113.7:51234", "203.0.113.7"),
])
def test_trusted_proxies_by_address(settings, remote, forwarded, client):
    settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_COUNT = ["127.0.0.1", "10.0.0.0/8"], 0
    assert client_address(_request(remote, forwarded)) == client


@pytest.mark.parametrize(("count", "forwarded", "client"), [
    (1, "203.0.113.7", "203.0.113.7"),
    (1, "1.2.3.4, 203.0.113.7", "203.0.113.7"),
    (2, "1.2.3.4, 203.0.113.7, 10.1.2.3", "203.0.113.7"),
    # Fewer hops than proxies: the left-most there is.
    (2, "203.0.113.7", "203.0.113.7"),
])
def test_trusted_proxies_by_count(settings, count, forwarded, client):
    settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_COUNT = [], count
    assert client_address(_request("127.0.0.1", forwarded)) == client


def test_ipv6_clients_are_counted_by_their_64(settings):
    settings.TRUSTED_PROXIES = []
    assert limit_key(_request("2001:db8:1:2:aaaa::1")) == limit_key(_request("2001:db8:1:2:bbbb::9"))
    assert limit_key(_request("2001:db8:1:3::1")) != limit_key(_request("2001:db8:1:2::1"))
    assert limit_key(_request("::ffff:192.0.2.1")) == "192.0.2.1"


def test_a_misspelt_proxy_is_an_error_of_the_checks(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "nginx.local"]
    assert "tarok.E002" in [m.id for m in run_checks()]
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1"]
    assert "tarok.E002" not in [m.id for m in run_checks()]
