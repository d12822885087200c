"""Counts that expire, taken and given back atomically: what every rate limit of the site
counts in (failed sign-ins, `config.login_limit`; wrong table codes,
`tournaments.views_table_link`).

A limit that first reads a count and later adds to it lets parallel requests slip past it
between the two steps (an attacker's test counted 25 wrong codes against a limit of 20). So a
limit *takes* a place first (`take` answers the new count, atomically) and refuses when the
count is over the limit, giving the place back when the attempt turned out right.

The counts live in the default cache, shared by every web process. Redis's `INCR` is atomic,
and so is the local-memory cache's within its process. Django's database cache (the default
when CACHE_URL is unset) increments by reading and writing the row, so `take` holds the row's
lock while it does: `SELECT ... FOR UPDATE` on PostgreSQL; SQLite's IMMEDIATE transactions
(config.settings) let one writer at a time in anyway.
"""

from __future__ import annotations

from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.db import connections, router, transaction


def _locked_add(backend: DatabaseCache, key: str, delta: int, timeout: int) -> int:
    """`incr`/`decr` of the database cache, holding the row's lock while it reads and writes."""
    db = router.db_for_write(backend.cache_model_class)
    connection = connections[db]
    table = connection.ops.quote_name(backend._table)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    with transaction.atomic(using=db):
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT cache_key FROM {table} WHERE cache_key = %s{lock}",
                           [backend.make_and_validate_key(key)])
        try:
            return backend.incr(key, delta)
        except ValueError:  # expired meanwhile
            if delta > 0:
                backend.set(key, delta, timeout)
                return delta
            return 0


def _add(key: str, delta: int, timeout: int) -> int:
    backend = caches["default"]
    if isinstance(backend, DatabaseCache):
        return _locked_add(backend, key, delta, timeout)
    try:
        return backend.incr(key, delta)
    except ValueError:  # expired since it was looked at
        if delta > 0:
            backend.add(key, delta, timeout)
            return delta
        return 0


def take(key: str, timeout: int) -> int:
    """Add one to `key` (a new count lives `timeout` seconds from its first) and answer the
    count it now holds."""
    if caches["default"].add(key, 1, timeout):
        return 1
    return _add(key, 1, timeout)


def give_back(key: str) -> None:
    """Take back one place of `key` (an attempt that turned out right, or was refused)."""
    _add(key, -1, 0)


def value(key: str) -> int:
    return caches["default"].get(key) or 0


def values(keys: list[str]) -> dict[str, int]:
    found = caches["default"].get_many(keys)
    return {key: found.get(key) or 0 for key in keys}


def forget(*keys: str) -> None:
    caches["default"].delete_many(list(keys))
