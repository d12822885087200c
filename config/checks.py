"""System checks of the deployment (`manage.py check --deploy`): the limits of
config.login_limit only hold when every web process shares the default cache."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

PROCESS_LOCAL_CACHES = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
)


@register(Tags.security, deploy=True)
def shared_cache(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if backend in PROCESS_LOCAL_CACHES:
        return [Warning(
            "The default cache is private to each process: the limit on failed logins is "
            "then counted per web process, so N processes allow N times as many guesses.",
            hint="Set CACHE_URL to a shared cache (redis://...), or leave it unset to use "
                 "the database cache table.",
            id="tarok.W001",
        )]
    return []
