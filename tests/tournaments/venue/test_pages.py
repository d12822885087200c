"""A venue hold on the organiser's and the public pages (issue #32): the server's overview of
a lent event says it is run at the venue and since when it last heard, the public page says
so too, and only the server's staff get *Take the event back*; the laptop's overview offers
*Send to the server now* and *Hand the event back*, and says what the server answered."""

from __future__ import annotations

import pytest
from django.test import Client

from sample_data import printouts
from tests.tournaments.pages.support import client_for
from tournaments.models import VenueHold
from tournaments.venue import client
from tournaments.venue import services as venue

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return printouts.slovenian_event(slug="pages-venue", tables=2, hands_per_round=4)


def test_the_servers_pages_say_the_event_is_run_at_the_venue(event, django_user_model):
    organiser = event.organisers.first()
    venue.hold_take(event=event, actor=organiser, holder="Laptop Kranj")
    page = client_for(organiser).get(f"/manage/e/{event.slug}/").content.decode()
    assert "Run at the venue" in page and "Laptop Kranj" in page and "No update from the venue yet." in page
    assert "/venue/take-back/" not in page
    assert "Run at the venue; no update yet." in Client().get(f"/e/{event.slug}/").content.decode()
    # The organiser may not take it back; the staff may.
    assert client_for(organiser).post(f"/manage/e/{event.slug}/venue/take-back/").status_code == 403
    staff = django_user_model.objects.create(username="pages-staff", is_staff=True)
    desk = client_for(staff)
    assert "/venue/take-back/" in desk.get(f"/manage/e/{event.slug}/").content.decode()
    assert desk.post(f"/manage/e/{event.slug}/venue/take-back/").status_code == 302
    assert not VenueHold.objects.filter(event=event).exists()


def test_the_laptops_overview_sends_and_hands_back(event, monkeypatch):
    organiser = event.organisers.first()
    venue.held_record(event=event, server_url="https://tarok.example.org", key="k", actor=organiser)
    desk = client_for(organiser)
    page = desk.get(f"/manage/e/{event.slug}/").content.decode()
    assert "https://tarok.example.org" in page and "Nothing sent to the server yet." in page
    monkeypatch.setattr(client, "http_json", lambda *a: (_ for _ in ()).throw(client.Unreachable("no line")))
    answer = desk.post(f"/manage/e/{event.slug}/venue/push/", follow=True).content.decode()
    assert "The server cannot be reached: no line" in answer
    monkeypatch.setattr(client, "http_json", lambda *a: (200, {"applied": True, "version": 4}))
    answer = desk.post(f"/manage/e/{event.slug}/venue/hand-back/", follow=True).content.decode()
    assert "The event is back on the server" in answer and "writes it no more" in answer
    assert desk.post(f"/manage/e/{event.slug}/players/add/", {"first_name": "A", "last_name": "B"}).status_code == 409


def test_the_laptops_organiser_takes_an_event_from_its_page(event, monkeypatch, django_user_model):
    from tests.tournaments.venue.test_client import archive_write_clear
    from tournaments import archive

    doc = archive.export_event(event)
    archive_write_clear(event)
    calls = []

    def server(method, url, payload, headers):
        calls.append((url, payload, headers))
        return 200, {"key": "k-from-page", "archive": doc}

    monkeypatch.setattr(client, "http_json", server)
    boss = django_user_model.objects.create(username="laptop-boss", is_staff=True)
    desk = client_for(boss)
    assert "/manage/venue/take/" in desk.get("/manage/").content.decode()
    refused = desk.post("/manage/venue/take/", {"server": "", "slug": "pages-venue", "token": "t"})
    assert refused.status_code == 400 and not calls
    answer = desk.post("/manage/venue/take/", {"server": "https://tarok.example.org", "slug": "pages-venue",
                                               "token": "t0k", "holder": "Laptop Kranj"})
    assert answer.status_code == 302 and answer["Location"] == "/manage/e/pages-venue/"
    assert calls[0][0] == "https://tarok.example.org/api/v1/events/pages-venue/venue/take/"
    assert calls[0][2] == {"Authorization": "Token t0k"}
    assert VenueHold.objects.get(event__slug="pages-venue").key == "k-from-page"
    # A second take of the same event: refused at its address, in words.
    monkeypatch.setattr(client, "http_json", lambda *a: (200, {"key": "k2", "archive": doc}))
    again = desk.post("/manage/venue/take/", {"server": "https://tarok.example.org", "slug": "pages-venue",
                                              "token": "t0k"})
    assert again.status_code == 400 and "already exists" in again.content.decode()
