"""Pushing by itself (issue #32): on a venue's laptop a change of the event it holds reaches
the server a moment after it commits, with nobody pressing anything; while the line is down
the push is tried again until it goes; and an event that went back to the server is pushed no
more. With a fake server: the pusher's passes one by one (any database), and its thread in
the web process (PostgreSQL: SQLite's test database is not shared between threads)."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from sample_data import printouts
from tournaments import services
from tournaments.models import VenueHold
from tournaments.venue import client, pusher
from tournaments.venue import services as venue

pytestmark = pytest.mark.django_db


class Server:
    def __init__(self, *answers):
        self.answers, self.calls = list(answers), []

    def __call__(self, method, url, payload, headers):
        self.calls.append(payload["version"])
        answer = self.answers.pop(0) if self.answers else (200, {"applied": True, "version": payload["version"]})
        if isinstance(answer, Exception):
            raise answer
        return answer


@pytest.fixture
def laptop(settings, monkeypatch):
    settings.VENUE_AUTO_PUSH, settings.VENUE_PUSH_DELAY, settings.VENUE_PUSH_RETRY = True, 0, 1
    event = printouts.slovenian_event(slug="pushed", tables=1, hands_per_round=4)
    server = Server(client.Unreachable("no line"))
    monkeypatch.setattr(client, "http_json", server)
    venue.held_record(event=event, server_url="https://tarok.example.org", key="k",
                      actor=event.organisers.first())
    pusher.drain(set())  # the take's own push, done
    server.calls.clear()
    return event, event.organisers.first(), server


def test_each_change_is_pushed_after_its_commit_and_again_while_the_line_is_down(
        laptop, monkeypatch, django_capture_on_commit_callbacks):
    event, organiser, server = laptop
    monkeypatch.setattr(pusher, "_start", lambda: None)  # the passes below stand for the thread
    server.answers = [client.Unreachable("no line")]
    with django_capture_on_commit_callbacks(execute=True):
        services.registration_add(event=event, actor=organiser, first_name="Late", last_name="Comer")
    version = client.state_version(event)
    failed = pusher.drain(set())
    assert failed == {event.pk} and server.calls == [version]
    assert "cannot be reached" in VenueHold.objects.get(event=event).last_error
    assert pusher.drain(failed) == set()  # the retry goes
    assert VenueHold.objects.get(event=event).version == version
    assert pusher.drain(set()) == set() and len(server.calls) == 2  # nothing changed: nothing sent


def test_an_event_that_went_back_is_pushed_no_more(laptop, monkeypatch, django_capture_on_commit_callbacks):
    event, organiser, server = laptop
    monkeypatch.setattr(pusher, "_start", lambda: None)
    server.answers = [(403, {"errors": [{"message": "taken back"}]})]
    with django_capture_on_commit_callbacks(execute=True):
        services.registration_add(event=event, actor=organiser, first_name="Late", last_name="Comer")
    assert pusher.drain(set()) == set()
    assert VenueHold.objects.get(event=event).revoked_at is not None
    assert pusher.drain({event.pk}) == set() and len(server.calls) == 1


@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="the pusher's thread needs a database shared between threads (PostgreSQL)")
@pytest.mark.django_db(transaction=True)
def test_the_web_process_pushes_by_itself(laptop):
    event, organiser, server = laptop
    services.registration_add(event=event, actor=organiser, first_name="Late", last_name="Comer")
    version = client.state_version(event)
    deadline = time.monotonic() + 15
    while VenueHold.objects.get(event=event).version != version:
        assert time.monotonic() < deadline, "the pusher did not push in time"
        time.sleep(0.1)
    assert server.calls[-1] == version
