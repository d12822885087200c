"""The laptop's HTTP call itself (tournaments.venue.client.http_json), against a real server
process thread (pytest-django's live server): a compressed push over the wire is applied, a
refusal comes back in the API's error shape, and a server nobody answers at is `Unreachable`."""

from __future__ import annotations

import socket

import pytest

from sample_data import printouts
from tournaments import archive, services
from tournaments.venue import client
from tournaments.venue import services as venue

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_push_goes_over_the_wire_compressed_and_a_refusal_comes_back(live_server):
    event = printouts.slovenian_event(slug="wire", tables=2, hands_per_round=4)
    services.round_publish(rnd=printouts.seat(event, 1), actor=event.organisers.first())
    _hold, key, doc = venue.hold_take(event=event, actor=event.organisers.first(), holder="Laptop")
    url = f"{live_server.url}/api/v1/events/wire/venue/push/"
    assert client.http_json("POST", url, {"version": 3, "archive": doc}, {"X-Venue-Key": key}) == (
        200, {"applied": True, "version": 3})
    assert archive.dumps(archive.export_event(event)) == archive.dumps(doc)
    status, answer = client.http_json("POST", url, {"version": 4, "archive": doc}, {"X-Venue-Key": "wrong"})
    assert status == 403 and answer["errors"][0]["code"] == "not_holder"


def test_a_server_nobody_answers_at_is_unreachable():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(client.Unreachable):
        client.http_json("POST", f"http://127.0.0.1:{port}/api/v1/events/x/venue/push/", {}, {})
