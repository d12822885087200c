"""An event run at a venue (issue #32): the federation's server lends it to a laptop and then
refuses every other write to it, at the pages, the API, the table links and the services
alike; the laptop's pushes bring it to the laptop's state, checked as an import is: the same
push twice and an overtaken push change nothing, a tampered or interrupted push leaves the
server as it was, and a key that does not hold the event is refused; the laptop hands the
event back, or the server's staff take it back.

One database plays the server here: the "laptop's states" are archives of the same event
taken at two moments (state A, then B after a table played). The laptop's own side, with its
HTTP calls, is tested in test_client.py."""

from __future__ import annotations

import gzip
import json

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.tournaments.pages.support import client_for
from tournaments import archive, services
from tournaments.errors import Conflict, Forbidden, ServiceError
from tournaments.models import AuditEntry, Event, TableLink, VenueHold
from tournaments.venue import services as venue
from tournaments.venue import state

pytestmark = pytest.mark.django_db


def _dumped(event: Event) -> str:
    return archive.dumps(archive.export_event(Event.objects.get(pk=event.pk)))


def _take(day) -> str:
    token = Token.objects.create(user=day["organiser"])
    answer = Client().post(f"/api/v1/events/{day['event'].slug}/venue/take/", {"holder": "Laptop 1"},
                           content_type="application/json", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["archive"]["event"]["slug"] == "venue-day"
    return body["key"]


def _push(slug: str, key: str, version, doc, *, compress: bool = True, action: str = "push"):
    raw = json.dumps({"version": version, "archive": doc}).encode()
    headers = {"HTTP_X_VENUE_KEY": key}
    if compress:
        raw, headers["HTTP_CONTENT_ENCODING"] = gzip.compress(raw), "gzip"
    return Client().post(f"/api/v1/events/{slug}/venue/{action}/", raw,
                         content_type="application/json", **headers)


def test_a_lent_event_is_written_by_nobody_but_its_laptop(day):
    event, organiser = day["event"], day["organiser"]
    key = _take(day)
    hold = VenueHold.objects.get(event=event)
    assert hold.side == VenueHold.Side.LENT and hold.holder == "Laptop 1" and hold.key != key
    # The pages: read, yes; write, no, in words.
    boss = client_for(organiser)
    assert boss.get(f"/manage/e/{event.slug}/players/").status_code == 200
    refused = boss.post(f"/manage/e/{event.slug}/players/add/", {"first_name": "Late", "last_name": "Comer"})
    assert refused.status_code == 409 and "run at the venue" in refused.content.decode()
    # The API, in its error shape.
    token = Token.objects.get(user=organiser)
    api = Client().post(f"/api/v1/events/{event.slug}/registrations/", {"first_name": "Late", "last_name": "Comer"},
                        content_type="application/json", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.status_code == 409 and api.json()["errors"][0]["code"] == "run_at_venue"
    # A table's link: a phone's hand.
    link = TableLink.objects.filter(table__round__event=event, table__number=2).first()
    phone = Client().post(f"/t/{link.token}/seat/", {"seat": "5"})
    assert phone.status_code == 409
    # And a service called past the edges: refused in its own transaction.
    with pytest.raises(Conflict):
        services.registration_add(event=event, actor=organiser, first_name="Late", last_name="Comer")
    assert event.registrations.count() == 8
    # A second take is refused while the first holds.
    with pytest.raises(Conflict):
        venue.hold_take(event=event, actor=organiser)


def test_a_push_brings_the_server_to_the_laptops_state_once_and_in_order(day):
    event = day["event"]
    key = _take(day)
    answer = _push(event.slug, key, 5, day["a"])
    assert answer.status_code == 200 and answer.json() == {"applied": True, "version": 5}
    assert _dumped(event) == archive.dumps(day["a"])
    answer = _push(event.slug, key, 7, day["b"], compress=False)
    assert answer.json() == {"applied": True, "version": 7}
    assert _dumped(event) == archive.dumps(day["b"])
    # The same push again, and an older one arriving late: nothing changes.
    before = Event.objects.get(pk=event.pk).results_version
    assert _push(event.slug, key, 7, day["b"]).json() == {"applied": False, "version": 7}
    assert _push(event.slug, key, 6, day["a"]).json() == {"applied": False, "version": 7}
    assert _dumped(event) == archive.dumps(day["b"])
    assert Event.objects.get(pk=event.pk).results_version == before
    # The public pages show the pushed state.
    standings = Client().get(f"/e/{event.slug}/standings/").content.decode()
    assert "Novak" in standings


def test_a_tampered_push_is_refused_by_the_archives_checks_and_changes_nothing(day):
    event = day["event"]
    key = _take(day)
    before = _dumped(event)
    doc = json.loads(json.dumps(day["b"]))
    card = doc["event"]["rounds"][0]["tables"][0]["scorecard"]
    card["hands"][0]["scores"] = {k: v + 10 for k, v in card["hands"][0]["scores"].items()}
    answer = _push(event.slug, key, 9, doc)
    assert answer.status_code == 400 and answer.json()["errors"]
    assert _dumped(event) == before
    assert VenueHold.objects.get(event=event).version == 0
    # Another event's archive is no push of this one.
    other = json.loads(json.dumps(day["b"]))
    other["event"]["slug"] = "somewhere-else"
    assert _push(event.slug, key, 9, other).status_code == 400


def test_a_push_interrupted_half_way_leaves_the_previous_state_and_the_next_completes(day, monkeypatch):
    event = day["event"]
    key = _take(day)
    _push(event.slug, key, 3, day["a"])
    from tournaments.archive import write, write_changes

    def broken(*args, **kwargs):
        raise RuntimeError("the line dropped half way")

    # The trail is written after the cards and hands, whether the push is written whole or
    # change by change.
    monkeypatch.setattr(write, "write_audit", broken)
    monkeypatch.setattr(write_changes, "write_audit", broken)
    with pytest.raises(RuntimeError):
        venue.push_apply(event=event, key=key, version=4, doc=day["b"])
    assert _dumped(event) == archive.dumps(day["a"])
    assert VenueHold.objects.get(event=event).version == 3
    assert state.stored(VenueHold.objects.get(event=event)) == day["a"]
    monkeypatch.undo()
    assert venue.push_apply(event=event, key=key, version=4, doc=day["b"]) == {"applied": True, "version": 4}
    assert _dumped(event) == archive.dumps(day["b"])


def test_a_key_that_does_not_hold_the_event_is_refused(day):
    event = day["event"]
    assert _push(event.slug, "no-key", 1, day["a"]).status_code == 403  # never lent
    key = _take(day)
    answer = _push(event.slug, key[:-1] + "x", 1, day["a"])
    assert answer.status_code == 403 and answer.json()["errors"][0]["code"] == "not_holder"
    assert VenueHold.objects.get(event=event).version == 0


def test_the_laptop_hands_the_event_back_and_the_server_writes_again(day):
    event, organiser = day["event"], day["organiser"]
    key = _take(day)
    answer = _push(event.slug, key, 8, day["b"], action="return")
    assert answer.status_code == 200
    assert not VenueHold.objects.filter(event=event).exists()
    assert _dumped(event).count('"venue.return"') == 1
    # A correction on the server works again.
    services.registration_add(event=event, actor=organiser, first_name="Late", last_name="Comer")
    # And the old key pushes nothing more.
    assert _push(event.slug, key, 9, day["b"]).status_code == 403


def test_the_servers_staff_take_an_event_back_from_a_lost_laptop(day, django_user_model):
    event, organiser = day["event"], day["organiser"]
    key = _take(day)
    _push(event.slug, key, 2, day["a"])
    with pytest.raises(Forbidden):
        venue.hold_force_back(event=event, actor=organiser)
    staff = django_user_model.objects.create(username="venue-staff", is_staff=True)
    assert client_for(staff).post(f"/api/v1/events/{event.slug}/venue/take-back/").status_code == 200
    assert AuditEntry.objects.filter(event=event, action="venue.force_back", actor=staff).exists()
    assert _push(event.slug, key, 3, day["b"]).status_code == 403
    # The server holds the last state pushed (and its staff's entry).
    assert event.rounds.get().tables.get(number=1).scorecard.hands.count() == 0
    services.registration_add(event=event, actor=organiser, first_name="Late", last_name="Comer")
    with pytest.raises(ServiceError):
        venue.hold_force_back(event=event, actor=staff)


def test_a_compressed_bomb_is_refused_before_it_is_inflated(day, settings):
    event = day["event"]
    key = _take(day)
    settings.VENUE_PUSH_MAX_BYTES = 100_000
    bomb = gzip.compress(b"[" + b" " * 10_000_000 + b"]")
    answer = Client().post(f"/api/v1/events/{event.slug}/venue/push/", bomb, content_type="application/json",
                           HTTP_X_VENUE_KEY=key, HTTP_CONTENT_ENCODING="gzip")
    assert answer.status_code == 413


def test_a_push_never_changes_who_organises_or_referees_the_event_here(day, django_user_model):
    event, organiser = day["event"], day["organiser"]
    key = _take(day)
    staff = django_user_model.objects.create(username="root-of-the-server", is_staff=True)
    referees = sorted(event.referees.values_list("username", flat=True))
    doc = json.loads(json.dumps(day["b"]))
    doc["event"]["organisers"] = [staff.username, "made-at-the-venue"]
    doc["event"]["referees"] = ["made-at-the-venue"]
    assert _push(event.slug, key, 4, doc).status_code == 200
    event = Event.objects.get(pk=event.pk)
    assert list(event.organisers.all()) == [organiser]
    assert sorted(event.referees.values_list("username", flat=True)) == referees
    assert not django_user_model.objects.filter(username="made-at-the-venue").exists()


def test_a_push_speaks_for_no_account_of_the_server_but_the_events_officials(day, django_user_model):
    """A key holder can write what an organiser at the venue could, never more: names in the
    pushed archive that are not the event's officials are no accounts here (and none is
    created), so a trail, a card or a player cannot be made to speak for the server's staff."""
    event = day["event"]
    key = _take(day)
    staff = django_user_model.objects.create(username="root-admin", is_staff=True)
    doc = json.loads(json.dumps(day["b"]))
    card = doc["event"]["rounds"][0]["tables"][0]["scorecard"]
    card["verified_by"] = "root-admin"
    for entry in doc["event"]["audit"]:
        entry["actor"] = "brand-new-account"
    assert _push(event.slug, key, 4, doc).status_code == 200
    assert not django_user_model.objects.filter(username="brand-new-account").exists()
    table = Event.objects.get(pk=event.pk).rounds.get().tables.get(number=1)
    assert table.scorecard.verified_by is None
    assert not AuditEntry.objects.filter(event=event, actor=staff).exists()
    assert AuditEntry.objects.filter(event=event, actor__isnull=True).count() == len(doc["event"]["audit"])


def test_the_body_of_a_push_is_read_only_for_the_key_that_holds_the_event(day, monkeypatch):
    event = day["event"]
    key = _take(day)
    from tournaments.venue import api

    def never(request):
        raise AssertionError("the body was read before the key was checked")

    monkeypatch.setattr(api, "_body", never)
    bomb = gzip.compress(b"[" + b"0," * 2_000_000 + b"0]")
    for slug in (event.slug, "no-such-event"):
        answer = Client().post(f"/api/v1/events/{slug}/venue/push/", bomb, content_type="application/json",
                               HTTP_X_VENUE_KEY="not-the-key", HTTP_CONTENT_ENCODING="gzip")
        assert answer.status_code in (403, 404)
    monkeypatch.undo()
    # A version beyond what the server stores is refused at its field, not a server error.
    answer = _push(event.slug, key, 2**40, day["a"])
    assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == "version"


def test_a_push_keeps_the_players_links_addresses_and_entries_of_the_server(day):
    """What the archive does not carry (the personal links handed out, the addresses given
    for messages, the online entries the registrations came from) stays on the server across
    pushes, by start number."""
    from tournaments.models import Entry, PlayerLink, Registration

    event = day["event"]
    reg = Registration.objects.get(event=event, start_number=3)
    token = PlayerLink.objects.get(registration=reg, revoked_at__isnull=True).token
    Registration.objects.filter(pk=reg.pk).update(email="p3@example.org", round_messages=True,
                                                  message_language="sl")
    entry = Entry.objects.create(event=event, first_name="P", last_name="Three", token="e3",
                                 status=Entry.Status.ACCEPTED, registration=reg)
    key = _take(day)
    assert _push(event.slug, key, 4, day["b"]).status_code == 200
    reg = Registration.objects.get(event=event, start_number=3)
    assert PlayerLink.objects.get(registration=reg, revoked_at__isnull=True).token == token
    assert (reg.email, reg.round_messages, reg.message_language) == ("p3@example.org", True, "sl")
    assert Entry.objects.get(pk=entry.pk).registration == reg
    assert Client().get(f"/p/{token}/").status_code == 200
