"""One limit on password guessing for every way of signing in: the login page, the admin's
login page and the API's token endpoint all count failures in the same place and refuse
further attempts in the same way.

Failures are counted per client address and per username in the default cache, which the
settings make shared between processes (a database table, or Redis with CACHE_URL;
`config.checks` warns when it is not). They are counted where Django reports them: the
`user_login_failed` signal, sent by `authenticate()` whoever calls it. While a key is over
`LOGIN_FAILURES_ALLOWED`, the three entry points answer 429 before checking the password,
and `RateLimitedModelBackend` (the one entry of AUTHENTICATION_BACKENDS) makes
`authenticate()` itself refuse, so no other caller of it gets around the limit. A successful sign-in clears the
username's and the address's counts.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.utils.translation import gettext as _


def _keys(request: Any, username: str | None) -> list[str]:
    meta = getattr(request, "META", None) or {}
    keys = [f"login-fail:ip:{meta.get('REMOTE_ADDR', 'unknown')}"]
    name = (username or "").strip().lower()
    if name:
        keys.append("login-fail:user:" + hashlib.sha256(name.encode()).hexdigest()[:32])
    return keys


def is_blocked(request: Any, username: str | None) -> bool:
    counts = cache.get_many(_keys(request, username))
    return any(count >= settings.LOGIN_FAILURES_ALLOWED for count in counts.values())


def record_failure(request: Any, username: str | None) -> None:
    for key in _keys(request, username):
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, timeout=settings.LOGIN_FAILURE_WINDOW_SECONDS)


def clear(request: Any, username: str | None) -> None:
    cache.delete_many(_keys(request, username))


def refusal_message() -> str:
    minutes = max(1, settings.LOGIN_FAILURE_WINDOW_SECONDS // 60)
    return _("Too many failed logins. Try again in %(minutes)d minutes.") % {"minutes": minutes}


@receiver(user_login_failed, dispatch_uid="config.login_limit.failed")
def _count_failure(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
                   ) -> None:
    if request is not None:
        record_failure(request, credentials.get("username"))


@receiver(user_logged_in, dispatch_uid="config.login_limit.logged_in")
def _clear_on_success(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if request is not None:
        clear(request, user.get_username())


class RateLimitedModelBackend(ModelBackend):
    """Django's own backend, except that it refuses every sign-in while the address or the
    username is over the limit, before the password is even checked."""

    def authenticate(self, request: Any, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        if request is not None and is_blocked(request, username):
            raise PermissionDenied(refusal_message())
        return super().authenticate(request, username=username, password=password, **kwargs)
