"""The laptop's side of a venue hold (issue #32): it takes an event from the server (the
server's archive imported, its key kept), pushes the event's state with its version, keeps
what the server answered for the organiser, and stops writing the event once it went back to
the server (handed back, or taken back by the server's staff, which it learns at its next
push). The server is a fake here, answering as tournaments.venue.api does (test_holds.py)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from sample_data import printouts
from tests.tournaments.pages.support import client_for
from tournaments import archive, services
from tournaments.errors import Conflict, ServiceError
from tournaments.models import AuditEntry, Event, VenueHold
from tournaments.venue import client

pytestmark = pytest.mark.django_db

SERVER = "https://tarok.example.org"


class FakeServer:
    """Answers the laptop's calls in turn, and keeps what it was sent."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.calls: list[tuple[str, str, dict, dict]] = []

    def __call__(self, method, url, payload, headers):
        self.calls.append((method, url, payload, headers))
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


@pytest.fixture
def server_archive():
    """An event's archive as the server sends it (the event then exists only there)."""
    event = printouts.slovenian_event(slug="far-away", tables=2, hands_per_round=4)
    services.round_publish(rnd=printouts.seat(event, 1), actor=event.organisers.first())
    doc = archive.export_event(event)
    archive_write_clear(event)
    return doc


def archive_write_clear(event: Event) -> None:
    from tournaments.archive.write import clear_event

    clear_event(event)
    Event.objects.filter(pk=event.pk).delete()


def _taken(server_archive) -> Event:
    fake = FakeServer((200, {"key": "laptop-key", "archive": server_archive}))
    event = client.take(server_url=SERVER, slug="far-away", token="t0k", actor="manage.py venue take",
                        holder="Laptop 1", transport=fake)
    method, url, payload, headers = fake.calls[0]
    assert (method, url, payload) == ("POST", f"{SERVER}/api/v1/events/far-away/venue/take/",
                                      {"holder": "Laptop 1"})
    assert headers == {"Authorization": "Token t0k"}
    return event


def test_the_laptop_takes_the_event_and_pushes_its_state_with_its_version(server_archive):
    event = _taken(server_archive)
    hold = VenueHold.objects.get(event=event)
    assert (hold.side, hold.server_url, hold.key) == (VenueHold.Side.HELD, SERVER, "laptop-key")
    assert event.registrations.count() == 8 and event.rounds.count() == 1
    # A hand typed here moves the version; the push carries the archive at that version.
    card = event.rounds.get().tables.get(number=1).scorecard
    services.hand_save(scorecard=card, number=1, actor=event.organisers.first(),
                       expected_version=card.version,
                       record={"game": "klop", "resting": card.player_ids[0],
                               "points_by_player": dict(zip(card.player_ids, [20, 20, 15, 15], strict=True))})
    version = client.state_version(event)
    fake = FakeServer((200, {"applied": True, "version": version}))
    assert client.push(event, transport=fake) == {"ok": True, "version": version, "applied": True,
                                                  "sent": "archive"}
    method, url, payload, headers = fake.calls[0]
    assert url == f"{SERVER}/api/v1/events/far-away/venue/push/" and headers == {"X-Venue-Key": "laptop-key"}
    assert payload["version"] == version
    assert archive.dumps(payload["archive"]) == archive.dumps(archive.export_event(event))
    hold.refresh_from_db()
    assert hold.version == version and hold.last_push_at is not None and hold.last_error == ""


def test_without_the_line_the_laptop_keeps_writing_and_says_the_push_waits(server_archive):
    event = _taken(server_archive)
    fake = FakeServer(client.Unreachable("Network is unreachable"))
    answer = client.push(event, transport=fake)
    assert answer["ok"] is False and "cannot be reached" in answer["error"]
    assert "cannot be reached" in VenueHold.objects.get(event=event).last_error
    services.registration_add(event=event, actor=event.organisers.first(), first_name="Late",
                              last_name="Comer")
    # The line is back: the next push goes, and the problem is forgotten.
    client.push(event, transport=FakeServer((200, {"applied": True, "version": 99})))
    assert VenueHold.objects.get(event=event).last_error == ""


def test_taken_back_by_the_server_the_laptop_stops_and_says_so(server_archive):
    event = _taken(server_archive)
    refused = (403, {"errors": [{"hand": None, "field": "key", "code": "not_holder",
                                 "message": "This laptop does not hold the event."}]})
    answer = client.push(event, transport=FakeServer(refused))
    assert answer == {"ok": False, "error": "This laptop does not hold the event."}
    assert VenueHold.objects.get(event=event).revoked_at is not None
    assert AuditEntry.objects.filter(event=event, action="venue.taken_back").exists()
    with pytest.raises(Conflict) as stopped:
        services.registration_add(event=event, actor=event.organisers.first(), first_name="Late",
                                  last_name="Comer")
    assert "went back to the federation's server" in str(stopped.value)
    page = client_for(event.organisers.first()).post(f"/manage/e/{event.slug}/players/add/",
                                                     {"first_name": "Late", "last_name": "Comer"})
    assert page.status_code == 409
    # No more calls to the server.
    silent = FakeServer()
    assert client.push(event, transport=silent)["ok"] is False and not silent.calls


def test_the_laptop_hands_the_event_back_and_writes_it_no_more(server_archive):
    event = _taken(server_archive)
    fake = FakeServer((200, {"applied": True, "version": 12}))
    assert client.hand_back(event, transport=fake)["ok"] is True
    assert fake.calls[0][1].endswith("/venue/return/")
    assert VenueHold.objects.get(event=event).revoked_at is not None
    with pytest.raises(Conflict):
        services.registration_add(event=event, actor=event.organisers.first(), first_name="Late",
                                  last_name="Comer")


def test_a_refused_take_imports_nothing(server_archive):
    fake = FakeServer((409, {"errors": [{"message": "This event is already run at a venue."}]}))
    with pytest.raises(ServiceError) as refused:
        client.take(server_url=SERVER, slug="far-away", token="t", actor=None, transport=fake)
    assert "already run at a venue" in str(refused.value)
    assert not Event.objects.filter(slug="far-away").exists()


def test_the_command_says_where_the_event_stands(server_archive, monkeypatch):
    event = _taken(server_archive)
    monkeypatch.setattr(client, "http_json", FakeServer((200, {"applied": True, "version": 5})))
    out = io.StringIO()
    call_command("venue", "push", event.slug, stdout=out)
    assert json.loads(out.getvalue())["ok"] is True
    out = io.StringIO()
    call_command("venue", "status", event.slug, stdout=out)
    status = json.loads(out.getvalue())
    assert status["server"] == SERVER and status["version"] == 5 and status["last_error"] == ""
