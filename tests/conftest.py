"""Test configuration shared by every suite.

Celery runs eagerly in tests unless a test is marked `worker` (those start a real worker
process over Redis), so tests that queue work see it done when the transaction commits.
Pure engine tests (`PURE`: the scoring rules, the seating engine, the rating engine) touch
neither Django nor Celery.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest
from django.db import transaction

# The real SMTP server fixture (`smtp`) of the mail tests.
pytest_plugins = ["tests.mailbox"]

T = TypeVar("T")

# Folders of tests of pure engines: no database, no Celery, no caches.
PURE = ("/tests/scoring/rules/", "/tests/tournaments/seating/", "/tests/rankings/engine/")


@pytest.fixture(autouse=True, scope="session")
def _media_root_of_this_run(tmp_path_factory):
    # Rendered sheets and uploads go to a folder of this test process, not the checkout's
    # media/: two pytest-xdist workers may render the same event slug at the same time.
    from django.conf import settings

    if settings.configured:  # not under `-p no:django` (the pure engines alone)
        settings.MEDIA_ROOT = str(tmp_path_factory.mktemp("media"))


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing():
    # Django's default hasher spends about half a second of CPU on every password set or
    # checked, by design; the suite sets and checks hundreds. No test is about the hasher
    # (Django's "Speeding up the tests"): the tests hash with MD5.
    from django.conf import settings
    from django.test import override_settings

    if not settings.configured:  # `-p no:django`: the pure engines alone
        yield
        return
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    fast.enable()
    yield
    fast.disable()


@pytest.fixture(autouse=True)
def _language_of_a_test_stays_in_it(request):
    # A request through the test client leaves the language its LocaleMiddleware chose active
    # in the thread (Django does not undo it), so a later test that builds refusals outside a
    # request (a management command, a service called directly) would read German or Slovenian.
    yield
    if not any(folder in str(request.node.path) for folder in PURE):
        from django.utils import translation

        translation.deactivate()


@pytest.fixture(autouse=True)
def _no_task_left_running():
    # Celery marks "inside a task" in one flag for the whole process: an eager task sets it
    # and puts back what it found. Threads that run eager tasks at once (the race tests'
    # commits, each refreshing the public PDFs) put it back out of order and can leave it set,
    # and a later test's .get() of an eager result is then refused ("Never call result.get()
    # within a task"). Each test starts outside any task.
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)
    yield


@pytest.fixture(autouse=True)
def _celery_eager_unless_worker(request):
    if any(folder in str(request.node.path) for folder in PURE):
        yield
        return
    from django.core.cache import caches

    from config.celery import app
    from tournaments.runtime.page_cache import forget_all

    old = app.conf.task_always_eager
    app.conf.task_always_eager = request.node.get_closest_marker("worker") is None
    # A venue laptop's pushes by themselves (tournaments.venue.pusher) only where a test asks
    # for them (settings.VENUE_AUTO_PUSH = True): no test's hold reaches out to a server.
    from django.conf import settings as django_settings

    old_push, django_settings.VENUE_AUTO_PUSH = django_settings.VENUE_AUTO_PUSH, False
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
        django_settings.VENUE_AUTO_PUSH = old_push
        caches["pages"].clear()
        forget_all()


def built_once(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """The body of a module-scoped fixture that builds a world once for all the tests of a
    module: `yield from built_once(django_db_blocker, build_world)`.

    The world is written inside a transaction that stays open for the module and is rolled
    back after its last test; every test (marked `django_db`) runs in a savepoint inside it
    that pytest-django rolls back, so each test starts from the world as built, as if it had
    built it itself. Python objects of the world may go stale: a test that changes the
    database reads what it needs again (`refresh_from_db`)."""
    from config.celery import app

    # The world is built before any test's own fixtures run, so before the eager queue of
    # `_celery_eager_unless_worker`: with a real broker configured (CI), the jobs it queues
    # would go to Redis and never run. It runs them in process, as a test does.
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            world = build()
        except BaseException:
            atomic.__exit__(*sys.exc_info())
            raise
        finally:
            app.conf.task_always_eager = eager
    try:
        yield world
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
