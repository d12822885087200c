"""The cycle collector kept off large work until its objects are gone
(tournaments.runtime.collector): `run_paused` frees the work's own objects before the collector
is back, and an event's archive (made, read, imported, brought up to date) and a venue push at
either end run with it paused."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from tests.tournaments.venue.test_delta import _hand, _Server
from tests.tournaments.venue.test_holds import _push, _take
from tournaments import archive
from tournaments.archive import check_event, export
from tournaments.domain import limits
from tournaments.models import VenueHold
from tournaments.runtime import collector
from tournaments.venue import client, state


class _Thing:
    """An object the collector tracks, whose end can be watched."""


def test_the_work_runs_paused_and_its_objects_are_gone_before_the_collector_is_back():
    seen = []

    def work(n):
        seen.append(gc.isenabled())
        local = _Thing()
        # Its end is told with the collector's state at that moment.
        weakref.finalize(local, lambda: seen.append(("freed", gc.isenabled())))
        return n + 1

    assert gc.isenabled()
    assert collector.run_paused(work, 1) == 2
    assert seen == [False, ("freed", False)]
    assert gc.isenabled()


def test_the_collector_comes_back_after_an_error_and_a_callers_pause_is_kept():
    def work():
        raise ValueError("no")

    with pytest.raises(ValueError):
        collector.run_paused(work)
    assert gc.isenabled()
    gc.disable()
    try:
        assert collector.run_paused(gc.isenabled) is False
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.fixture
def paused_at(monkeypatch) -> list[tuple[str, bool]]:
    """Where the archive's making and checking ran, and whether the collector was on then."""
    seen: list[tuple[str, bool]] = []
    body, check = export._EventExport.body, check_event.check_event_body

    def watched_body(self):
        seen.append(("export", gc.isenabled()))
        return body(self)

    def watched_check(*args, **kwargs):
        seen.append(("check", gc.isenabled()))
        return check(*args, **kwargs)
    load = limits.load_json

    def watched_load(*args, **kwargs):
        seen.append(("read", gc.isenabled()))
        return load(*args, **kwargs)
    monkeypatch.setattr(limits, "load_json", watched_load)
    monkeypatch.setattr(export._EventExport, "body", watched_body)
    monkeypatch.setattr("tournaments.archive.importing.check_event_body", watched_check)
    return seen


@pytest.mark.django_db
def test_an_archive_is_made_and_imported_with_the_collector_paused(day, paused_at):
    event = day["event"]
    doc = archive.export_event(event)
    text = archive.dumps(doc).replace('"slug": "venue-day"', '"slug": "venue-day-copy"')
    copy = archive.import_event(archive.loads(text), actor=None)
    assert copy.slug == "venue-day-copy" and gc.isenabled()
    assert paused_at == [("export", False), ("read", False), ("check", False)]


@pytest.mark.django_db
def test_a_push_runs_with_the_collector_paused_at_both_ends(day, paused_at, monkeypatch):
    """The server: the kept archive read, the push's checked and written; the laptop: the
    acknowledged archive read, the new one made, but not the push on its way."""
    event = day["event"]
    key = _take(day)
    reads = []
    stored = state.stored
    # The kept archive's read, at either end, watched as it is called.
    monkeypatch.setattr(state, "stored", lambda hold: reads.append(gc.isenabled()) or stored(hold))
    paused_at.clear()
    answer = _push(event.slug, key, 5, day["b"])
    assert answer.json() == {"applied": True, "version": 5}
    assert reads == [False] and paused_at == [("read", False), ("check", False)] and gc.isenabled()

    VenueHold.objects.filter(event=event).delete()
    VenueHold.objects.create(event=event, side=VenueHold.Side.HELD, key="k",
                             server_url="https://server.example")
    server = _Server()
    assert client.push(event, transport=server)["ok"]
    reads.clear()
    paused_at.clear()
    _hand(event.rounds.get().tables.get(number=2).scorecard, 1)
    # Not while the push travels: a slow line would keep the web process's collector off.
    travels = []
    assert client.push(event, transport=lambda *args: travels.append(gc.isenabled())
                       or server(*args))["ok"]
    assert "delta" in server.calls[-1]
    assert reads == [False] and paused_at == [("export", False)] and gc.isenabled()
    assert travels == [True]


def test_pauses_of_two_threads_end_with_the_last_of_them():
    """A laptop's web requests and its pusher may pause at the same time: the collector stays
    off until the last pause ends, then comes back as it was."""
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen = []

    def first():
        with collector.paused():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second():
        first_in.wait(5)
        with collector.paused():
            second_in.set()
            first_out.wait(5)
            seen.append(gc.isenabled())  # the first pause ended, this one goes on

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == [False]
    assert gc.isenabled()
