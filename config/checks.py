"""System checks of the deployment: every web process should share the default cache (the
public PDFs rendered in requests are coordinated there; `manage.py check --deploy`), and the
trusted proxies the rate limits read the client's address behind must be addresses (every
`manage.py check`)."""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

PROCESS_LOCAL_CACHES = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
)


@register(Tags.security, deploy=True)
def shared_cache(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if backend in PROCESS_LOCAL_CACHES:
        return [Warning(
            "The default cache is private to each process: the public PDFs rendered in "
            "requests are then rendered once per web process, each waiting on its own markers.",
            hint="Set CACHE_URL to a shared cache (redis://...), or leave it unset to use "
                 "the database cache table.",
            id="tarok.W001",
        )]
    return []


@register(Tags.security)
def trusted_proxies(app_configs: Any = None, **kwargs: Any) -> list[Error | Warning]:
    """TRUSTED_PROXIES must name addresses or networks (guard.client_address): a typo would
    otherwise fail every request that reads the client's address."""
    problems: list[Error | Warning] = []
    for entry in getattr(settings, "TRUSTED_PROXIES", ()) or ():
        try:
            ipaddress.ip_network(str(entry).strip(), strict=False)
        except ValueError:
            problems.append(Error(
                f"TRUSTED_PROXIES holds {entry!r}, which is not an address or a network.",
                hint="Name the reverse proxies in front of the app, e.g. 127.0.0.1 or 10.0.0.0/8.",
                id="tarok.E002"))
    if getattr(settings, "TRUSTED_PROXIES", None) and getattr(settings, "TRUSTED_PROXY_COUNT", 0):
        problems.append(Warning(
            "Both TRUSTED_PROXIES and TRUSTED_PROXY_COUNT are set; the list is used.",
            hint="Set one of them (docs/deploy.md).", id="tarok.W003"))
    return problems
