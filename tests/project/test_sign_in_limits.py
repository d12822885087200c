"""Sign-in limits that stop guessing without locking people out (issue #29, finding 3;
guard.login_limit, docs/security.md "Sign-in limits"): behind a trusted proxy each client is
counted on his own address; guessing an organiser's password from one address does not stop
him from another; a success of one account does not clear the address's count; an account
under attack from many addresses is answered with a growing delay, and the browser its owner
signed in on before still gets in at once; parallel guesses cannot slip past the count."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import authenticate
from django.db import connection
from django.test import Client, RequestFactory
from django.utils import timezone

from guard import login_limit
from sample_data.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "secret-pass-123"  # sample_data.factories.UserFactory's


@pytest.fixture(autouse=True)
def _behind_nginx(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.TRUSTED_PROXY_COUNT = 0
    settings.LOGIN_FAILURES_ALLOWED = 5
    settings.LOGIN_ADDRESS_FAILURES_ALLOWED = 30
    settings.LOGIN_USER_FAILURES_BEFORE_DELAY = 10
    settings.LOGIN_DELAY_MAX_SECONDS = 300


def _from(address: str) -> Client:
    """A browser at `address`, reaching the app through nginx on 127.0.0.1."""
    return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=address)


def _login(client: Client, username: str, password: str) -> int:
    return client.post("/accounts/login/", {"username": username, "password": password}).status_code


def _sign_out(client: Client) -> None:
    """Signs out as a person does, keeping the browser's cookies (the test client's logout()
    forgets them all)."""
    client.cookies.pop(django_settings.SESSION_COOKIE_NAME, None)


def test_five_wrong_passwords_from_one_address_do_not_stop_the_organiser_elsewhere():
    UserFactory(username="organiser")
    attacker = _from("198.51.100.66")
    for _ in range(5):
        assert _login(attacker, "organiser", "guess") == 200
    assert _login(attacker, "organiser", PASSWORD) == 429  # that pair waits
    # The organiser, from the hall's address, behind the same proxy: in at once, on every door.
    assert _login(_from("203.0.113.10"), "organiser", PASSWORD) == 302
    token = _from("203.0.113.10").post("/api/v1/auth/token/",
                                       {"username": "organiser", "password": PASSWORD},
                                       content_type="application/json")
    assert token.status_code == 200
    admin = UserFactory(username="boss", is_staff=True)
    for _ in range(5):
        _login(attacker, admin.username, "guess")
    assert _from("203.0.113.10").post("/admin/login/", {"username": "boss", "password": PASSWORD}
                                      ).status_code == 302


def test_behind_a_proxy_one_clients_failures_are_not_everybodys():
    UserFactory(username="ana")
    UserFactory(username="bor")
    for _ in range(5):
        _login(_from("198.51.100.66"), "ana", "guess")
    # Before issue #29 every client had the proxy's address: five failures by anyone closed
    # every sign-in of the site.
    assert _login(_from("198.51.100.67"), "bor", PASSWORD) == 302
    assert _login(_from("198.51.100.68"), "ana", PASSWORD) == 302


def test_a_forged_forwarded_header_does_not_choose_a_new_address():
    UserFactory(username="ana")
    for n in range(5):
        # The client writes his own X-Forwarded-For; nginx appends the address it saw.
        client = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}, 198.51.100.66")
        _login(client, "ana", "guess")
    forged = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.9.9.9, 198.51.100.66")
    assert _login(forged, "ana", PASSWORD) == 429


def test_a_success_of_the_attackers_own_account_does_not_clear_the_address(settings):
    settings.LOGIN_ADDRESS_FAILURES_ALLOWED = 10
    UserFactory(username="mallory")
    victims = [UserFactory(username=f"victim{n}").username for n in range(8)]
    attacker = _from("198.51.100.66")
    answers = []
    for victim in victims:  # 16 guesses against 8 accounts, a success of his own between
        for _ in range(2):
            answers.append(_login(attacker, victim, "guess"))
        assert _login(attacker, "mallory", PASSWORD) == 302
        _sign_out(attacker)
    assert answers[:10] == [200] * 10
    assert set(answers[10:]) == {429}
    # The refusal holds for the address, also for a right password of an account of it...
    assert _login(attacker, victims[0], PASSWORD) == 429
    # ...but not for another address.
    assert _login(_from("203.0.113.10"), victims[0], PASSWORD) == 302


def test_an_account_under_attack_from_many_addresses_gets_a_growing_delay_not_a_lock(settings, monkeypatch):
    settings.LOGIN_USER_FAILURES_BEFORE_DELAY = 3
    UserFactory(username="organiser")
    laptop = _from("203.0.113.10")
    assert _login(laptop, "organiser", PASSWORD) == 302  # his own laptop, before the attack
    _sign_out(laptop)
    assert login_limit.DEVICE_COOKIE in laptop.cookies

    now = [timezone.now()]
    monkeypatch.setattr(login_limit, "_now", lambda: now[0])
    answers = [_login(_from(f"198.51.100.{n}"), "organiser", "guess") for n in range(1, 5)]
    assert answers == [200, 200, 200, 429]  # three failures from anywhere, then a delay
    waits = []
    for n in range(10, 14):
        response = _from(f"198.51.100.{n}").post("/accounts/login/",
                                                 {"username": "organiser", "password": "guess"})
        if response.status_code == 429:
            waits.append(int(response["Retry-After"]))
            now[0] += dt.timedelta(seconds=int(response["Retry-After"]))  # the attacker waits it out, then guesses
            assert _login(_from(f"198.51.100.{n}"), "organiser", "guess") == 200
    assert waits and waits == sorted(waits) and waits[-1] > waits[0]  # it grows
    # A new browser of the organiser waits too, but only the delay: then he is in.
    new_browser = _from("203.0.113.11")
    response = new_browser.post("/accounts/login/", {"username": "organiser", "password": PASSWORD})
    assert response.status_code == 429
    assert int(response["Retry-After"]) <= django_settings.LOGIN_DELAY_MAX_SECONDS
    now[0] += dt.timedelta(seconds=int(response["Retry-After"]))
    assert _login(new_browser, "organiser", PASSWORD) == 302
    # His laptop, a browser he signed in on before, never waits: the right password gets in.
    now[0] += dt.timedelta(seconds=0.5)
    for n in range(20, 24):
        _login(_from(f"198.51.100.{n}"), "organiser", "guess")
    assert _login(laptop, "organiser", PASSWORD) == 302


def test_a_known_browser_is_held_by_its_own_count():
    UserFactory(username="organiser")
    laptop = _from("203.0.113.10")
    assert _login(laptop, "organiser", PASSWORD) == 302
    _sign_out(laptop)
    # The address is full of another's failures: the known browser is not held by them.
    for n in range(30):
        _login(_from("203.0.113.10"), f"nobody{n}", "guess")
    assert _login(_from("203.0.113.10"), "organiser", PASSWORD) == 429
    assert _login(laptop, "organiser", PASSWORD) == 302
    _sign_out(laptop)
    # Its own five failures hold it, like any pair.
    for _ in range(5):
        assert _login(laptop, "organiser", "typo") == 200
    assert _login(laptop, "organiser", PASSWORD) == 429


def test_a_forged_known_device_cookie_is_not_believed():
    UserFactory(username="organiser")
    for _ in range(5):
        _login(_from("198.51.100.66"), "organiser", "guess")
    forged = _from("198.51.100.66")
    forged.cookies[login_limit.DEVICE_COOKIE] = "organiser"
    assert _login(forged, "organiser", PASSWORD) == 429


@pytest.mark.django_db(transaction=True)
def test_parallel_guesses_cannot_slip_past_the_limit():
    if connection.vendor != "postgresql":
        pytest.skip("parallel connections need PostgreSQL; SQLite serialises writers")
    UserFactory(username="target")
    allowed = django_settings.LOGIN_FAILURES_ALLOWED
    checked = []
    lock = threading.Lock()
    barrier = threading.Barrier(12)

    def guess() -> None:
        request = RequestFactory().post("/", REMOTE_ADDR="127.0.0.1",
                                        HTTP_X_FORWARDED_FOR="198.51.100.66")
        barrier.wait()
        try:
            authenticate(request, username="target", password="guess")
            with lock:
                checked.append(not login_limit.was_limited(request))
        finally:
            connection.close()

    threads = [threading.Thread(target=guess) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(checked) == 12
    assert sum(checked) == allowed  # exactly the limit's passwords were checked


def test_a_known_browser_used_by_someone_else_gets_no_more_guesses_by_signing_in_himself():
    """A club's laptop where the organiser once signed in: whoever uses it next is held by
    that browser's own five failures, also after signing in to his own account there (the
    browser keeps its id), and does not delay the organiser's other browsers."""
    UserFactory(username="organiser")
    UserFactory(username="plain")
    laptop = _from("203.0.113.10")
    assert _login(laptop, "organiser", PASSWORD) == 302
    _sign_out(laptop)
    answers = []
    for _round in range(3):
        answers += [_login(laptop, "organiser", "guess") for _ in range(6)]
        assert _login(laptop, "plain", PASSWORD) == 302  # his own account, same browser
        _sign_out(laptop)
    assert answers[:6] == [200] * 5 + [429]
    assert set(answers[6:]) == {429}, answers
    # The organiser on another, new browser is not kept waiting by them.
    assert _login(_from("198.51.100.20"), "organiser", PASSWORD) == 302


def test_the_token_endpoint_says_how_long_to_wait():
    UserFactory(username="organiser")
    client = _from("198.51.100.66")
    for _ in range(5):
        client.post("/api/v1/auth/token/", {"username": "organiser", "password": "guess"},
                    content_type="application/json")
    refused = client.post("/api/v1/auth/token/", {"username": "organiser", "password": PASSWORD},
                          content_type="application/json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


def test_behind_a_unix_socket_each_client_is_counted_on_his_own_address(settings):
    """gunicorn on a socket: REMOTE_ADDR is empty, and the proxy's header names the client."""
    settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_COUNT = [], 1
    UserFactory(username="organiser")
    for _ in range(5):
        _login(Client(REMOTE_ADDR="", HTTP_X_FORWARDED_FOR="198.51.100.66"), "organiser", "guess")
    assert _login(Client(REMOTE_ADDR="", HTTP_X_FORWARDED_FOR="203.0.113.10"), "organiser",
                  PASSWORD) == 302
