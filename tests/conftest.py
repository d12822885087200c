"""Test configuration shared by every suite.

Celery runs eagerly in tests unless a test is marked `worker` (those start a real worker
process over Redis), so tests that queue work see it done when the transaction commits.
Pure engine tests (tests/unit) touch neither Django nor Celery.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _media_root_of_this_run(tmp_path_factory):
    # Rendered sheets and uploads go to a folder of this test process, not the checkout's
    # media/: two pytest-xdist workers may render the same event slug at the same time.
    from django.conf import settings

    settings.MEDIA_ROOT = str(tmp_path_factory.mktemp("media"))


@pytest.fixture(autouse=True)
def _celery_eager_unless_worker(request):
    if "/tests/unit/" in str(request.node.path):
        yield
        return
    from django.core.cache import caches

    from config.celery import app
    from tournaments.page_cache import forget_all

    old = app.conf.task_always_eager
    app.conf.task_always_eager = request.node.get_closest_marker("worker") is None
    # Cached pages are keyed by database ids, which SQLite may hand out again after a test's
    # rollback, and the default cache (login failures) is a database table that transactional
    # tests commit to: every test starts with empty caches. Only tests with the database may
    # touch that table; for them the database is set up first.
    uses_db = (request.node.get_closest_marker("django_db") is not None
               or {"db", "transactional_db"} & set(request.fixturenames))
    if uses_db:
        request.getfixturevalue("_django_db_helper")
    aliases = [alias for alias in caches if uses_db or alias != "default"]
    for alias in aliases:
        caches[alias].clear()
    forget_all()
    try:
        yield
    finally:
        app.conf.task_always_eager = old
        caches["pages"].clear()
        forget_all()
