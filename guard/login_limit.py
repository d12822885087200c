"""One limit on password guessing for every way of signing in (the login page, the admin's
login page, the API's token endpoint, and `authenticate()` whoever calls it), built so that it
stops guessing without locking the right person out (docs/security.md, "Sign-in limits").

Failures are counted in the database (`guard.counters`), under the client's address as
`guard.client_address` reads it behind the trusted proxies:

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
"device cookies"): a random id of the browser, drawn once and kept when the cookie is issued
again, and keyed digests of the accounts signed in on it. From such a known browser the
account's owner is held only by that browser's own count for the account (the same
`LOGIN_FAILURES_ALLOWED`), never by the address's count, the delay of an attack on his
account, or an attacker's failures from the same venue: the right password from the right
device always gets in. Its failures do not count towards the account's delay either (it is
the owner's own browser, or one where somebody else found the cookie: he then holds only
himself). The cookie cannot be forged (signed with SECRET_KEY, issued after the right
password), and the accounts in it are keyed digests, not names.

Check and count are one step: an attempt takes its place in every count it is held by
(`guard.counters.take`, one atomic update in the database) before the password is checked,
and gives it back when the password was right, so parallel guesses cannot slip past the limit
between a check and a count. `RateLimitedModelBackend` (the one entry of
AUTHENTICATION_BACKENDS) does this, so every caller of `authenticate()` is held; the three
entry points ask `refusal()` first only to answer 429 with the time to wait.
"""

from __future__ import annotations

import datetime as dt
import math
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import ngettext

from guard import counters
from guard.client_address import limit_key

DEVICE_COOKIE = "tarok_signin"
_DEVICE_SALT = "guard.login_limit.known-device"
_DEVICE_MAX_AGE = 180 * 24 * 3600
# A browser remembers the accounts last signed in on it (a club's laptop serves a few people).
_DEVICE_ACCOUNTS = 8


def _now() -> dt.datetime:
    return timezone.now()


def _user_hash(username: str | None) -> str:
    """A keyed digest of the username (case and spaces aside): what the counts and the cookie
    name an account by."""
    name = (username or "").strip().lower()
    return salted_hmac("guard.login_limit.account", name).hexdigest()[:32] if name else ""


@dataclass(frozen=True)
class _Device:
    """What a browser's signed cookie says: its id and the accounts signed in on it."""

    id: str
    accounts: tuple[str, ...]


def _device(request: Any) -> _Device | None:
    raw = (getattr(request, "COOKIES", None) or {}).get(DEVICE_COOKIE, "")
    if not raw:
        return None
    try:
        payload = signing.loads(raw, salt=_DEVICE_SALT, max_age=_DEVICE_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("d"), str):
        return None
    accounts = payload.get("a")
    if not isinstance(accounts, list):
        return None
    return _Device(payload["d"][:32], tuple(a for a in accounts if isinstance(a, str)))


def _known_device(request: Any, username: str | None) -> _Device | None:
    """The browser, when it signed in to this account before (a valid signed cookie)."""
    user = _user_hash(username)
    device = _device(request)
    return device if user and device is not None and user in device.accounts else None


@dataclass(frozen=True)
class _Count:
    key: str
    allowed: int
    timeout: int


def _counts(request: Any, username: str | None) -> list[_Count]:
    """The counts an attempt is held by (see the module's docstring). The address's count
    comes first: an address over its limit makes no further keys."""
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    user = _user_hash(username)
    known = _known_device(request, username)
    if known is not None:
        return [_Count(f"login-fail:device:{user}:{known.id}", settings.LOGIN_FAILURES_ALLOWED,
                       window)]
    address = limit_key(request)
    counts = [_Count(f"login-fail:ip:{address}", settings.LOGIN_ADDRESS_FAILURES_ALLOWED, window)]
    if user:
        counts.append(_Count(f"login-fail:pair:{user}:{address}", settings.LOGIN_FAILURES_ALLOWED,
                             window))
    return counts


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
    """Seconds an account under attack still asks an unknown browser to wait (0: none)."""
    key = _delay_key(username)
    if not key or _known_device(request, username) is not None:
        return 0
    return math.ceil(counters.seconds_left(key, now=_now()))


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
    one of them is full or the account asks this browser to wait."""
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


def _failed(request: Any, username: str | None) -> None:
    """A wrong password from a browser unknown to the account: the account's count from
    everywhere, and past its threshold the delay its unknown browsers wait before the next
    attempt."""
    key = _user_key(username)
    if not key or _known_device(request, username) is not None:
        return
    failures = counters.take(key, settings.LOGIN_FAILURE_WINDOW_SECONDS)
    over = failures - settings.LOGIN_USER_FAILURES_BEFORE_DELAY
    if over >= 0:
        wait = min(2 ** min(over, 30), settings.LOGIN_DELAY_MAX_SECONDS)
        counters.hold(_delay_key(username), wait, now=_now())


def _succeeded(taken: list[str]) -> None:
    """The right password: this attempt leaves the counts it took a place in; the pair's and
    the browser's own failures are forgotten (the person got in). The address's count keeps
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
            _failed(request, username)
        else:
            _succeeded(taken)
        return user


def was_limited(request: Any) -> bool:
    """Whether `authenticate()` refused this request for the limit (a race the entry point's
    own first look did not see)."""
    return bool(getattr(request, "_login_limited", False))


@receiver(user_logged_in, dispatch_uid="guard.login_limit.logged_in")
def _remember_sign_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if request is not None:
        request._signed_in_username = user.get_username()


def remember_device(request: Any, response: Any) -> Any:
    """After a successful sign-in on this request, give the browser (or add to) its signed
    cookie: its id, drawn once and kept, and the accounts signed in on it."""
    username = getattr(request, "_signed_in_username", None)
    if not username:
        return response
    device = _device(request)
    device_id = device.id if device is not None else secrets.token_hex(12)
    accounts = list(device.accounts) if device is not None else []
    user = _user_hash(username)
    accounts = [user, *[a for a in accounts if a != user]][:_DEVICE_ACCOUNTS]
    response.set_cookie(DEVICE_COOKIE, signing.dumps({"d": device_id, "a": accounts},
                                                     salt=_DEVICE_SALT, compress=True),
                        max_age=_DEVICE_MAX_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure())
    return response
