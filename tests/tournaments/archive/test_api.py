"""The archive endpoints: GET answers the archive file to the event's organisers and staff
only, POST imports (staff only), refusing a damaged file with every problem and writing
nothing. The routes come from tournaments.archive.urls, included here under /api/v1/ as
config/urls.py includes them."""

from __future__ import annotations

import gzip
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import include, path
from rest_framework.test import APIClient

from leagues import archive as season_archive
from leagues import services as league_services
from tests.tournaments.archive.test_event import delete_events, small_event, user, wipe_database
from tournaments import archive
from tournaments.models import AuditEntry, Event

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.archive.test_api")]

urlpatterns = [
    path("api/v1/", include("tournaments.archive.urls")),
    path("", include("config.urls")),
]


def client(who=None) -> APIClient:
    c = APIClient()
    if who is not None:
        c.force_authenticate(who)
    return c


@pytest.fixture
def world():
    organiser = user("org")
    event = small_event(slug="open-1", ruleset="slovenski-tarok-zei", mode="four", actor=organiser)
    referee = user("ref")
    event.referees.add(referee)
    return {"event": event, "organiser": organiser, "referee": referee,
            "staff": user("admin", is_staff=True), "stranger": user("stranger")}


def test_organisers_and_staff_download_the_archive_file(world):
    expected = archive.dumps(archive.export_event(world["event"])).encode("utf-8")
    for who in ("organiser", "staff"):
        response = client(world[who]).get("/api/v1/archive/events/open-1/")
        assert response.status_code == 200
        assert response.content == expected
        assert response["Content-Disposition"] == 'attachment; filename="open-1.json"'
    for who in ("referee", "stranger"):
        response = client(world[who]).get("/api/v1/archive/events/open-1/")
        assert response.status_code == 403
        assert response.json()["errors"][0]["code"] == "not_organiser"
    assert client().get("/api/v1/archive/events/open-1/").status_code in (401, 403)
    assert client(world["staff"]).get("/api/v1/archive/events/nope/").status_code == 404
    Event.objects.filter(pk=world["event"].pk).update(is_public=False)
    assert client(world["stranger"]).get("/api/v1/archive/events/open-1/").status_code == 404


def test_staff_import_an_archive_as_json_or_as_a_file_and_others_may_not(world):
    text = archive.dumps(archive.export_event(world["event"]))
    wipe_database()
    organiser, admin = user("org2"), user("admin2", is_staff=True)

    refused = client(organiser).post("/api/v1/archive/events/", data=text, content_type="application/json")
    assert refused.status_code == 403 and Event.objects.count() == 0

    created = client(admin).post("/api/v1/archive/events/", data=text, content_type="application/json")
    assert created.status_code == 201, created.content
    assert created.json() == {"event": "open-1", "registrations": 4, "rounds": 1, "hands": 0}
    entry = AuditEntry.objects.get(action="archive.import")
    assert entry.actor == admin and entry.event.slug == "open-1"
    assert archive.dumps(archive.export_event(Event.objects.get(slug="open-1"))) == text

    again = client(admin).post("/api/v1/archive/events/", data=text, content_type="application/json")
    assert again.status_code == 400
    assert again.json()["errors"][0]["code"] == "slug_exists"

    delete_events()
    upload = SimpleUploadedFile("open-1.json", text.encode("utf-8"), content_type="application/json")
    as_file = client(admin).post("/api/v1/archive/events/", data={"archive": upload}, format="multipart")
    assert as_file.status_code == 201, as_file.content


def test_the_archive_travels_compressed_with_gzip_when_the_client_says_so(world, settings):
    """Issue #35: an archive is some 3 KB a hand as JSON and 150 bytes compressed. The file
    is the same once inflated; a client that does not ask gets it plain."""
    text = archive.dumps(archive.export_event(world["event"]))
    plain = client(world["organiser"]).get("/api/v1/archive/events/open-1/")
    assert "Content-Encoding" not in plain and plain.content == text.encode("utf-8")
    refused = client(world["organiser"]).get("/api/v1/archive/events/open-1/",
                                             HTTP_ACCEPT_ENCODING="gzip;q=0, identity")
    assert "Content-Encoding" not in refused
    packed = client(world["organiser"]).get("/api/v1/archive/events/open-1/",
                                            HTTP_ACCEPT_ENCODING="br, gzip, deflate")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == text.encode("utf-8")
    assert len(packed.content) < len(text) / 4

    wipe_database()
    admin = user("admin2", is_staff=True)
    body = gzip.compress(text.encode("utf-8"))
    created = client(admin).post("/api/v1/archive/events/", data=body, content_type="application/json",
                                 HTTP_CONTENT_ENCODING="gzip")
    assert created.status_code == 201, created.content
    assert archive.dumps(archive.export_event(Event.objects.get(slug="open-1"))) == text
    delete_events()
    upload = SimpleUploadedFile("open-1.json.gz", body, content_type="application/gzip")
    as_file = client(admin).post("/api/v1/archive/events/", data={"archive": upload}, format="multipart")
    assert as_file.status_code == 201, as_file.content
    delete_events()

    broken = client(admin).post("/api/v1/archive/events/", data=body[:-20], content_type="application/json")
    assert broken.status_code == 400 and broken.json()["errors"][0]["code"] == "invalid"
    settings.ARCHIVE_MAX_BYTES = len(text) - 1
    bomb = client(admin).post("/api/v1/archive/events/", data=body, content_type="application/json")
    assert bomb.status_code == 413 and bomb.json()["errors"][0]["code"] == "too_large"
    assert Event.objects.count() == 0


def test_a_damaged_or_unreadable_archive_answers_400_with_every_problem(world):
    doc = archive.export_event(world["event"])
    admin = world["staff"]
    delete_events()
    doc["version"] = 7
    response = client(admin).post("/api/v1/archive/events/", data=json.dumps(doc),
                                  content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{
        "hand": None, "field": "version", "code": "unsupported_version",
        "message": "version: archive format version 7 is not supported; this application reads version 1"}]
    doc["version"] = 1
    doc["event"]["rounds"][0]["tables"][0]["seats"][3]["start_number"] = 40
    doc["event"]["registrations"][0]["player"]["country"] = "Slovenia"
    response = client(admin).post("/api/v1/archive/events/", data=json.dumps(doc),
                                  content_type="application/json")
    assert {e["field"] for e in response.json()["errors"]} == {
        "event.rounds[0].tables[0].seats[3].start_number", "event.registrations[0].player.country"}
    broken = client(admin).post("/api/v1/archive/events/", data="{oops", content_type="application/json")
    assert broken.status_code == 400 and broken.json()["errors"][0]["code"] == "invalid_json"
    assert Event.objects.count() == 0


def test_season_archives_for_league_organisers_and_imports_for_staff(world):
    organiser, admin = world["organiser"], world["staff"]
    league = league_services.league_create(
        actor=admin, organisers=[organiser], name="Liga", slug="liga", division_size=8,
        movement_count=2, division_count=1, qualification_group=False, hands_per_matchday=4)
    season = league_services.season_create(league=league, actor=admin, name="2026", slug="2026",
                                           planned_matchdays=2, seed=1)
    expected = archive.dumps(season_archive.export_season(season)).encode("utf-8")
    response = client(organiser).get("/api/v1/archive/seasons/liga/2026/")
    assert response.status_code == 200 and response.content == expected
    assert client(world["stranger"]).get("/api/v1/archive/seasons/liga/2026/").status_code == 403
    assert client(organiser).get("/api/v1/archive/seasons/liga/1999/").status_code == 404

    wipe_database()
    admin = user("admin3", is_staff=True)
    created = client(admin).post("/api/v1/archive/seasons/", data=expected,
                                 content_type="application/json")
    assert created.status_code == 201, created.content
    assert created.json() == {"league": "liga", "season": "2026", "matchdays": []}
