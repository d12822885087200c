"""Counts that expire, taken and given back atomically, and marks that last a while: what every
rate limit of the site keeps (failed sign-ins, `guard.login_limit`; wrong table codes,
`tournaments.services.table_links`).

A limit that first reads a count and later adds to it lets parallel requests slip past it
between the two steps (an attacker's test counted 25 wrong codes against a limit of 20). So a
limit *takes* a place first (`take` answers the new count, atomically) and refuses when the
count is over the limit, giving the place back when the attempt turned out right.

The counts are rows of the database (`guard.models.RateCount`), shared by every web process
and machine: an `UPDATE ... SET count = count + 1` holds the row's lock on PostgreSQL, and
SQLite's IMMEDIATE transactions (config.settings) let one writer in at a time. Not a cache:
a cache culls or evicts keys when it fills, and a guesser who can make keys (a new phone id or
username per guess) could wipe the counts that hold him. Expired rows are deleted as new
counts come, so the table holds about one window's worth of them.
"""

from __future__ import annotations

import datetime as dt
import random

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from guard.models import RateCount

# One new count in this many also deletes the expired rows.
_SWEEP_ONE_IN = 50


def _sweep(now: dt.datetime) -> None:
    if random.randrange(_SWEEP_ONE_IN) == 0:  # noqa: S311 - spreads the cost, no secret
        RateCount.objects.filter(expires_at__lte=now).delete()


def take(key: str, timeout: int) -> int:
    """Add one to `key` (a new count lives `timeout` seconds from its first) and answer the
    count it now holds."""
    now = timezone.now()
    with transaction.atomic():
        if RateCount.objects.filter(key=key, expires_at__gt=now).update(count=F("count") + 1):
            return RateCount.objects.filter(key=key).values_list("count", flat=True).get()
        # None, or an expired one: a new count.
        RateCount.objects.filter(key=key, expires_at__lte=now).delete()
        try:
            with transaction.atomic():
                RateCount.objects.create(key=key, count=1,
                                         expires_at=now + dt.timedelta(seconds=timeout))
        except IntegrityError:  # another request made it meanwhile: count in it
            RateCount.objects.filter(key=key).update(count=F("count") + 1)
            return RateCount.objects.filter(key=key).values_list("count", flat=True).get()
    _sweep(now)
    return 1


def give_back(key: str) -> None:
    """Take back one place of `key` (an attempt that turned out right, or was refused)."""
    RateCount.objects.filter(key=key, count__gt=0).update(count=F("count") - 1)


def value(key: str) -> int:
    return values([key])[key]


def values(keys: list[str]) -> dict[str, int]:
    found = dict(RateCount.objects.filter(key__in=keys, expires_at__gt=timezone.now())
                 .values_list("key", "count"))
    return {key: found.get(key, 0) for key in keys}


def forget(*keys: str) -> None:
    RateCount.objects.filter(key__in=keys).delete()


def hold(key: str, seconds: float, now: dt.datetime | None = None) -> None:
    """A mark that lasts `seconds` from now (replacing an earlier one)."""
    until = (now or timezone.now()) + dt.timedelta(seconds=seconds)
    RateCount.objects.update_or_create(key=key, defaults={"count": 1, "expires_at": until})


def seconds_left(key: str, now: dt.datetime | None = None) -> float:
    """How long the mark `key` still lasts (0 when there is none)."""
    now = now or timezone.now()
    until = RateCount.objects.filter(key=key, expires_at__gt=now).values_list(
        "expires_at", flat=True).first()
    return (until - now).total_seconds() if until else 0.0
