"""Test configuration shared by every suite.

Celery runs eagerly in tests unless a test is marked `worker` (those start a real worker
process over Redis), so tests that queue work see it done when the transaction commits.
Pure engine tests (tests/unit) touch neither Django nor Celery.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _celery_eager_unless_worker(request):
    if "/tests/unit/" in str(request.node.path):
        yield
        return
    from django.core.cache import cache

    from config.celery import app
    from tournaments.page_cache import forget_all

    old = app.conf.task_always_eager
    app.conf.task_always_eager = request.node.get_closest_marker("worker") is None
    # Cached pages are keyed by database ids, which SQLite may hand out again after a test's
    # rollback: every test starts with an empty cache.
    cache.clear()
    forget_all()
    try:
        yield
    finally:
        app.conf.task_always_eager = old
        cache.clear()
        forget_all()
