"""One limit on password guessing for every way of signing in (the login page, the admin's
login page, the API's token endpoint, and `authenticate()` whoever calls it), built so that it
stops guessing without locking the right person out (docs/security.md, "Sign-in limits").

Failures are counted in the default cache (shared between processes: a database table, or
Redis with CACHE_URL; `config.checks` warns when it is not), under the client's address as
`config.client_address` reads it behind the trusted proxies:

- per username and address: `LOGIN_FAILURES_ALLOWED` (5) wrong passwords for one account
  from one address, then that pair waits out `LOGIN_FAILURE_WINDOW_SECONDS`. Guessing from
  one address does not refuse the same account from another address;
- per address: `LOGIN_ADDRESS_FAILURES_ALLOWED` (30) across all accounts, so one address
  cannot spray guesses over many accounts. Sized for a venue where everybody shares the
  Wi-Fi's one address; a success of one account never clears it;
- per username from everywhere: past `LOGIN_USER_FAILURES_BEFORE_DELAY` (10) failures, an
  account under attack from many addresses is answered with a growing delay (doubling from one
  second up to `LOGIN_DELAY_MAX_SECONDS`) between attempts: never a lock.

A browser that has signed in to an account before holds a signed cookie saying so (OWASP's
"device cookies"). From such a known device the account's owner is held only by his own
device's count (the same `LOGIN_FAILURES_ALLOWED`), never by the address's count, the delay of
an attack on his account, or an attacker's failures from the same venue: the right password
from the right device always gets in. An attacker cannot forge the cookie (it is signed with
SECRET_KEY and issued only after the right password).

Check and count are one step: an attempt takes its place in every count it is held by
(`config.counters.take`, atomic in Redis and in the database cache) before the password is
checked, and gives it back when the password was right, so parallel guesses cannot slip past
the limit between a check and a count. `RateLimitedModelBackend` (the one entry of
AUTHENTICATION_BACKENDS) does this, so every caller of `authenticate()` is held; the three
entry points ask `refusal()` first only to answer 429 with the time to wait.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.utils.translation import ngettext

from config import counters
from config.client_address import limit_key

DEVICE_COOKIE = "tarok_signin"
_DEVICE_SALT = "config.login_limit.known-device"
_DEVICE_MAX_AGE = 180 * 24 * 3600
# A browser remembers the accounts last signed in on it (a club's laptop serves a few people).
_DEVICE_ACCOUNTS = 8


def _now() -> float:
    return time.time()


def _user_hash(username: str | None) -> str:
    name = (username or "").strip().lower()
    return hashlib.sha256(name.encode()).hexdigest()[:32] if name else ""


def _known_device(request: Any, username: str | None) -> bool:
    """Whether this browser signed in to this account before (a valid signed cookie)."""
    user = _user_hash(username)
    raw = (getattr(request, "COOKIES", None) or {}).get(DEVICE_COOKIE, "")
    if not user or not raw:
        return False
    try:
        accounts = signing.loads(raw, salt=_DEVICE_SALT, max_age=_DEVICE_MAX_AGE)
    except signing.BadSignature:
        return False
    return isinstance(accounts, list) and user in accounts


@dataclass(frozen=True)
class _Count:
    key: str
    allowed: int
    timeout: int


def _counts(request: Any, username: str | None) -> list[_Count]:
    """The counts an attempt is held by (see the module's docstring)."""
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    address = limit_key(request)
    user = _user_hash(username)
    if _known_device(request, username):
        return [_Count(f"login-fail:device:{user}:{_device_id(request)}",
                       settings.LOGIN_FAILURES_ALLOWED, window)]
    counts = [_Count(f"login-fail:ip:{address}", settings.LOGIN_ADDRESS_FAILURES_ALLOWED, window)]
    if user:
        counts.append(_Count(f"login-fail:pair:{user}:{address}", settings.LOGIN_FAILURES_ALLOWED,
                             window))
    return counts


def _device_id(request: Any) -> str:
    raw = (getattr(request, "COOKIES", None) or {}).get(DEVICE_COOKIE, "")
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def _user_key(username: str | None) -> str:
    user = _user_hash(username)
    return f"login-fail:user:{user}" if user else ""


def _delay_key(username: str | None) -> str:
    user = _user_hash(username)
    return f"login-wait:user:{user}" if user else ""


@dataclass(frozen=True)
class Refusal:
    """Why a sign-in is refused now, and for how long at most."""

    seconds: int

    @property
    def message(self) -> str:
        if self.seconds < 120:
            return ngettext("Too many failed logins. Try again in %(n)d second.",
                            "Too many failed logins. Try again in %(n)d seconds.",
                            self.seconds) % {"n": self.seconds}
        minutes = math.ceil(self.seconds / 60)
        return ngettext("Too many failed logins. Try again in %(n)d minute.",
                        "Too many failed logins. Try again in %(n)d minutes.",
                        minutes) % {"n": minutes}


def _wait_left(request: Any, username: str | None) -> int:
    """Seconds an account under attack still asks an unknown device to wait (0: none)."""
    key = _delay_key(username)
    if not key or _known_device(request, username):
        return 0
    until = cache.get(key)
    return max(0, math.ceil(until - _now())) if until else 0


def refusal(request: Any, username: str | None) -> Refusal | None:
    """Whether a sign-in attempt would be refused now (without counting it)."""
    counts = _counts(request, username)
    found = counters.values([c.key for c in counts])
    if any(found[c.key] >= c.allowed for c in counts):
        return Refusal(settings.LOGIN_FAILURE_WINDOW_SECONDS)
    wait = _wait_left(request, username)
    return Refusal(wait) if wait else None


def is_blocked(request: Any, username: str | None) -> bool:
    return refusal(request, username) is not None


def refusal_message(request: Any = None, username: str | None = None) -> str:
    found = refusal(request, username) if request is not None else None
    return (found or Refusal(settings.LOGIN_FAILURE_WINDOW_SECONDS)).message


def _attempt(request: Any, username: str | None) -> list[str] | None:
    """Take this attempt's place in every count that holds it; None (and nothing taken) when
    one of them is full or the account asks this device to wait."""
    if _wait_left(request, username):
        return None
    taken = []
    for count in _counts(request, username):
        taken.append(count.key)
        if counters.take(count.key, count.timeout) > count.allowed:
            for key in taken:
                counters.give_back(key)
            return None
    return taken


def _failed(username: str | None) -> None:
    """A wrong password: the account's count from everywhere, and past its threshold the
    delay its unknown devices wait before the next attempt."""
    key = _user_key(username)
    if not key:
        return
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    failures = counters.take(key, window)
    over = failures - settings.LOGIN_USER_FAILURES_BEFORE_DELAY
    if over >= 0:
        wait = min(2 ** min(over, 30), settings.LOGIN_DELAY_MAX_SECONDS)
        cache.set(_delay_key(username), _now() + wait, timeout=wait + 1)


def _succeeded(request: Any, username: str | None, taken: list[str]) -> None:
    """The right password: this attempt leaves the counts it took a place in; the pair's and
    the device's own failures are forgotten (the person got in). The address's count keeps
    the other accounts' failures, and the account's count from everywhere keeps counting an
    attack that goes on."""
    for key in taken:
        if key.startswith(("login-fail:pair:", "login-fail:device:")):
            counters.forget(key)
        else:
            counters.give_back(key)


class RateLimitedModelBackend(ModelBackend):
    """Django's own backend, except that every attempt is held by the counts above, checked
    and counted in one step before the password is even looked at."""

    def authenticate(self, request: Any, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        if request is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        taken = _attempt(request, username)
        if taken is None:
            request._login_limited = True
            raise PermissionDenied(refusal_message(request, username))
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            _failed(username)
        else:
            _succeeded(request, username, taken)
        return user


def was_limited(request: Any) -> bool:
    """Whether `authenticate()` refused this request for the limit (a race the entry point's
    own first look did not see)."""
    return bool(getattr(request, "_login_limited", False))


@receiver(user_logged_in, dispatch_uid="config.login_limit.logged_in")
def _remember_sign_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if request is not None:
        request._signed_in_username = user.get_username()


def remember_device(request: Any, response: Any) -> Any:
    """After a successful sign-in on this request, give the browser (or add to) its signed
    cookie naming the accounts signed in on it."""
    username = getattr(request, "_signed_in_username", None)
    if not username:
        return response
    accounts: list[str] = []
    raw = request.COOKIES.get(DEVICE_COOKIE, "")
    if raw:
        try:
            loaded = signing.loads(raw, salt=_DEVICE_SALT, max_age=_DEVICE_MAX_AGE)
            accounts = [a for a in loaded if isinstance(a, str)] if isinstance(loaded, list) else []
        except signing.BadSignature:
            accounts = []
    user = _user_hash(username)
    accounts = [user, *[a for a in accounts if a != user]][:_DEVICE_ACCOUNTS]
    response.set_cookie(DEVICE_COOKIE, signing.dumps(accounts, salt=_DEVICE_SALT),
                        max_age=_DEVICE_MAX_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure())
    return response
