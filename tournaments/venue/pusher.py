"""Pushing by itself (docs/venue.md): on a venue's laptop, every change of an event it holds
sends the event's state to the server soon after it commits, and a push that did not go
through is tried again until it does, or the event went back to the server.

With a task queue (CELERY_BROKER_URL) a change queues the `venue_push` task, at most one per
event in VENUE_PUSH_DELAY seconds (the task retries every VENUE_PUSH_RETRY seconds while the
line is down). In the embedded default (`make run`: no broker) a thread of the web process does
it: it wakes at a change, waits VENUE_PUSH_DELAY seconds for the changes that come together (a
card's hands, a round's close), pushes each changed event once, and tries a failed one again
every VENUE_PUSH_RETRY seconds. A push carries the whole state (whole, or as what changed
since the state the server acknowledged), so pushes that are skipped or repeated lose
nothing. VENUE_AUTO_PUSH=0 turns it off (`manage.py venue push` still works).
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connections, transaction

from tournaments.models import Event, VenueHold
from tournaments.runtime import jobs

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_wake = threading.Event()
_dirty: set[int] = set()
_thread: threading.Thread | None = None


def after_change(event: Event) -> None:
    """The held event changed (hooks.held_event_changed, in the change's transaction): push it
    once the change commits."""
    if settings.VENUE_AUTO_PUSH:
        event_id = event.pk
        transaction.on_commit(lambda: nudge(event_id))


def nudge(event_id: int) -> None:
    if jobs.runs_eagerly():
        _start()
        with _lock:
            _dirty.add(event_id)
        _wake.set()
        return
    # One task per event in the delay: the changes that come together are one push.
    if cache.add(f"venue-push:{event_id}", 1, timeout=settings.VENUE_PUSH_DELAY):
        from tournaments.tasks import venue_push

        venue_push.apply_async((event_id,), countdown=settings.VENUE_PUSH_DELAY)


def push_once(event_id: int) -> bool:
    """Push the event if this laptop still holds it; True when there is nothing left to do
    (sent, or the event went back to the server, or is gone)."""
    from tournaments.venue import client

    event = Event.objects.filter(pk=event_id).first()
    hold = VenueHold.objects.filter(event_id=event_id, side=VenueHold.Side.HELD).first()
    if event is None or hold is None or hold.revoked_at is not None:
        return True
    answer = client.push(event)
    if not answer["ok"]:
        logger.info("venue push of %s did not go through: %s", event.slug, answer.get("error"))
        return VenueHold.objects.filter(pk=hold.pk, revoked_at__isnull=False).exists()
    return True


def _start() -> None:
    global _thread
    with _lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_loop, name="venue-pusher", daemon=True)
            _thread.start()


def _loop() -> None:
    """The embedded default's pusher: runs as long as the web process."""
    failed: set[int] = set()
    while True:
        _wake.wait(timeout=settings.VENUE_PUSH_RETRY if failed else None)
        time.sleep(settings.VENUE_PUSH_DELAY)  # the changes that come together, pushed once
        _wake.clear()
        failed = drain(failed)


def drain(failed: set[int]) -> set[int]:
    """One pass of the pusher: push each event changed since the last pass and each that
    failed before; answers those that failed now."""
    with _lock:
        todo = _dirty | failed
        _dirty.clear()
    failed = set()
    in_thread = threading.current_thread() is _thread
    if in_thread:  # the thread's own connection, as a request's is, between passes
        close_old_connections()
    for event_id in sorted(todo):
        try:
            if not push_once(event_id):
                failed.add(event_id)
        except Exception:  # a push must never end the pusher: try it again later
            logger.exception("venue push of event %s failed", event_id)
            failed.add(event_id)
    if in_thread:
        connections.close_all()
    return failed
