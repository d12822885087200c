"""Registrations through the API: adding an existing or a new player, late entries, check-in
and withdrawal, and the CSV import, which registers every row or, when one row is bad, none
and lists every problem by row and column."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.tournaments.api.test_roles import E, build_world
from tournaments.models import Player, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_world()


def test_an_organiser_registers_existing_and_new_players(world):
    client = world.client("organiser")
    created = client.post("/api/v1/players/", {"first_name": "Marija", "last_name": "Horvat",
                                               "club": "TK Ljubljana", "country": "si"}, format="json")
    assert created.status_code == 201 and created.json()["country"] == "SI"
    found = client.get("/api/v1/players/?search=horvat ljubljana").json()
    assert [p["id"] for p in found["results"]] == [created.json()["id"]]

    registered = client.post(E + "registrations/", {"player": created.json()["id"]}, format="json")
    assert registered.status_code == 201
    assert registered.json()["start_number"] == 9 and registered.json()["status"] == "registered"
    late = client.post(E + "registrations/", {"new_player": {"first_name": "Late", "last_name": "Comer"},
                                              "start_number": 20, "status": "late_entry"}, format="json")
    assert late.status_code == 201
    assert (late.json()["start_number"], late.json()["status"]) == (20, "late_entry")
    assert late.json()["player"]["last_name"] == "Comer"

    again = client.post(E + "registrations/", {"player": created.json()["id"]}, format="json")
    assert again.status_code == 400 and again.json()["errors"][0]["code"] == "already_registered"
    both = client.post(E + "registrations/", {"player": created.json()["id"],
                                              "new_player": {"first_name": "A", "last_name": "B"}},
                       format="json")
    assert both.status_code == 400 and both.json()["errors"][0]["field"] == "player"
    taken = client.post(E + "registrations/", {"new_player": {"first_name": "No", "last_name": "Room"},
                                               "start_number": 20}, format="json")
    assert taken.status_code == 400 and taken.json()["errors"][0]["code"] == "start_number_taken"
    # The new player of a refused registration is not left behind.
    assert not Player.objects.filter(last_name="Room").exists()


def test_a_player_already_in_the_registry_is_matched_not_entered_twice(world):
    """The API registers through the page's service (issue #30): a new player is first looked
    for in the registry, by federation id, then by name and club whatever the case and
    diacritics."""
    client = world.client("organiser")
    known = client.post("/api/v1/players/", {"first_name": "Jože", "last_name": "Zupančič",
                                             "club": "TK Celje", "federation_id": "SLO-77"},
                        format="json").json()
    before = Player.objects.count()
    by_name = client.post(E + "registrations/", {"new_player": {
        "first_name": "joze", "last_name": "ZUPANCIC", "club": "tk celje"}}, format="json")
    assert by_name.status_code == 201, by_name.json()
    assert by_name.json()["player"]["id"] == known["id"]
    assert Player.objects.count() == before
    other = world.client("organiser")
    Registration.objects.filter(player_id=known["id"]).delete()
    by_id = other.post(E + "registrations/", {"new_player": {
        "first_name": "J.", "last_name": "Zupančič", "federation_id": "SLO-77"}}, format="json")
    assert by_id.status_code == 201 and by_id.json()["player"]["id"] == known["id"]
    # A refusal about the new player is said at its field in the body.
    bad = client.post(E + "registrations/", {"new_player": {
        "first_name": "Ana", "last_name": "Wrong", "federation_id": "SLO-77"}}, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "new_player.federation_id"


def test_check_in_late_entry_and_withdrawal_set_the_status(world):
    client = world.client("organiser")
    checked = client.patch(E + "registrations/2/", {"status": "checked_in"}, format="json")
    assert checked.status_code == 200
    assert checked.json()["status"] == "checked_in" and checked.json()["checked_in_at"]
    assert client.patch(E + "registrations/3/", {"status": "withdrawn"},
                        format="json").json()["status"] == "withdrawn"
    assert client.patch(E + "registrations/4/", {"status": "late_entry"},
                        format="json").json()["status"] == "late_entry"
    wrong = client.patch(E + "registrations/4/", {"status": "asleep"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["field"] == "status"
    assert client.patch(E + "registrations/99/", {"status": "withdrawn"},
                        format="json").status_code == 404
    listed = client.get(E + "registrations/?status=withdrawn").json()["results"]
    assert [r["start_number"] for r in listed] == [3]


CSV_OK = ("first_name,last_name,club,country,federation_id,start_number,status\n"
          "Nina,Jerman,TD Maribor,SI,SLO-1,,checked_in\n"
          "Rok,Oblak,TK Novo mesto,SI,,30,\n")


def test_a_csv_file_is_imported_from_json_or_an_upload(world):
    client = world.client("organiser")
    response = client.post(E + "registrations/import/", {"csv": CSV_OK}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["imported"] == 2
    assert [(r["start_number"], r["status"], r["player"]["last_name"]) for r in body["registrations"]] == [
        (31, "checked_in", "Jerman"), (30, "registered", "Oblak")]

    upload = SimpleUploadedFile("players.csv", "\ufefffirst_name;last_name\nTina;Petek\n".encode(),
                                content_type="text/csv")
    uploaded = client.post(E + "registrations/import/", {"file": upload}, format="multipart")
    assert uploaded.status_code == 201, uploaded.content
    assert uploaded.json()["registrations"][0]["start_number"] == 32


def test_a_csv_file_with_bad_rows_imports_nothing_and_lists_every_bad_row(world):
    client = world.client("organiser")
    before = (Registration.objects.count(), Player.objects.count())
    text = ("first_name,last_name,start_number,status\n"
            "Good,Player,,\n"
            "Bad,Number,1,\n"          # start number 1 is taken
            "Odd,Status,,dancing\n"
            "Good,Player,,\n")         # the same player twice
    response = client.post(E + "registrations/import/", {"csv": text}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["field"], e["code"]) for e in errors] == [
        ("rows[1].start_number", "start_number_taken"),
        ("rows[2].status", "invalid_choice"),
        ("rows[3].last_name", "duplicate"),
    ]
    assert errors[0]["message"] == "line 3: start number 1 is taken"
    assert (Registration.objects.count(), Player.objects.count()) == before

    nothing = client.post(E + "registrations/import/", {}, format="json")
    assert nothing.status_code == 400 and nothing.json()["errors"][0]["field"] == "csv"
    binary = SimpleUploadedFile("x.csv", b"\xff\xfe\x00bad", content_type="text/csv")
    refused = client.post(E + "registrations/import/", {"file": binary}, format="multipart")
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "not_utf8"
