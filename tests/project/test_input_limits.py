"""No server error for any input (issue 12, finding 6): numbers beyond what the database
holds, JSON nested thousands deep, NUL and control characters, and non-numbers where a number
is posted (also other scripts' digits, superscripts and signs: issue #29) each get a clear 4xx
(the API's error shape naming the field, a form error or a message on the pages), and nothing
is stored. Issue #29: bodies over Django's bounds answer in the API's error shape, and a CSV
import over its byte or row limit is refused at its field."""

from __future__ import annotations

import io
import json
from urllib.parse import urlencode

import pytest
from django.core.files.uploadedfile import TemporaryUploadedFile
from django.core.management import call_command
from django.test import Client, override_settings
from rest_framework.test import APIClient

from tests.conftest import built_once
from tests.tournaments.api.test_roles import CARD, T1, E, World, as_built, build_world, trojka
from tournaments import services
from tournaments.errors import ServiceError, TooLarge
from tournaments.models import AuditEntry, Event, Hand, Player, Registration, StandingsAdjustment
from tournaments.services import registrations_import_csv
from tournaments.services.player_entry import read_import_csv

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def world_of_the_module(django_db_setup, django_db_blocker):
    # The API tests' world (tests/tournaments/api/test_roles.py), built once for the module.
    yield from built_once(django_db_blocker, build_world)


@pytest.fixture
def world(world_of_the_module: World) -> World:
    return as_built(world_of_the_module)

HUGE = "9223372036854775808"
DEEP = "[" * 50_000 + "]" * 50_000


def _errors(response) -> list[dict]:
    body = response.json()
    assert set(body) == {"errors"}, body
    return body["errors"]


def _api(world, role="organiser") -> APIClient:
    return world.client(role)


@pytest.mark.parametrize("path", ["/api/v1/events/", E + "registrations/", E + "penalties/",
                                  E + "rounds/"])
@pytest.mark.parametrize("name", ["limit", "offset"])
def test_a_limit_or_offset_no_database_holds_is_refused_naming_it(path, name, world):
    response = _api(world).get(path, {name: HUGE})
    assert response.status_code == 400
    assert _errors(response)[0]["field"] == name
    assert _api(world).get(path, {name: "abc"}).status_code == 400
    assert _api(world).get(path, {"limit": "5", "offset": "0"}).status_code == 200


@pytest.mark.parametrize("value", ["²", "١٢", "１２", "--5", "+5", " 5", "1e3", "5_0"])
@pytest.mark.parametrize("name", ["limit", "offset"])
def test_a_limit_or_offset_in_other_digits_or_with_a_sign_is_refused(value, name, world):
    # ASCII digits only (tournaments.domain.limits.whole_number): "--5" answered 500, " 5" and "5_0"
    # were read as numbers.
    response = _api(world).get("/api/v1/events/", {name: value})
    assert response.status_code == 400
    assert _errors(response)[0]["field"] == name


@pytest.mark.parametrize("path", [
    "/api/v1/events/cup/rounds/99999999999999999999/",
    "/api/v1/events/cup/rounds/1/tables/99999999999999999999/scorecard/",
    "/api/v1/jobs/99999999999999999999/",
])
def test_a_path_number_no_database_holds_is_an_unknown_address(path, world):
    response = APIClient().get(path)
    assert response.status_code == 404
    assert _errors(response)[0]["code"] == "not_found"


def test_a_page_address_with_a_huge_number_is_a_404(world):
    assert Client().get("/e/cup/rounds/99999999999999999999/").status_code == 404


@pytest.mark.parametrize("path", ["/api/v1/score/", CARD + "hands/1/"])
def test_json_nested_fifty_thousand_deep_is_refused(path, world):
    client = _api(world)
    send = client.put if path.endswith("hands/1/") else client.post
    response = send(path, DEEP, content_type="application/json")
    assert response.status_code == 400
    assert _errors(response)[0]["code"] == "too_deep"
    # A body under the limit but deeper than any real one is refused too, at its path.
    deep_record = {"version": world.card(1).version, "record": {"game": "trojka"}}
    node = deep_record["record"]
    for _ in range(80):
        node["x"] = {}
        node = node["x"]
    response = client.put(CARD + "hands/1/", deep_record, format="json")
    assert response.status_code == 400
    assert _errors(response)[0]["field"].startswith("record.x.x")


def test_the_archive_import_refuses_deep_json_and_nul(world):
    staff = _api(world, "staff")
    response = staff.post("/api/v1/archive/events/", DEEP, content_type="application/json")
    assert response.status_code == 400 and _errors(response)[0]["code"] == "too_deep"
    doc = json.loads(staff.get("/api/v1/archive/events/cup/").content)
    doc["event"]["slug"] = "cup-copy"
    doc["event"]["registrations"][0]["player"]["club"] = "TK\x00Kranj"
    response = staff.post("/api/v1/archive/events/", json.dumps(doc), content_type="application/json")
    assert response.status_code == 400
    assert _errors(response)[0]["field"] == "event.registrations[0].player.club"
    assert not Event.objects.filter(slug="cup-copy").exists()


def test_import_event_refuses_deep_json_with_exit_status_2(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(DEEP, encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("import_event", str(path), stdout=out)
    assert exit_.value.code == 2
    assert json.loads(out.getvalue())["errors"][0]["code"] == "too_deep"


@pytest.mark.parametrize(("field", "value"), [("score_delta", 2147483647),
                                              ("score_delta", -99999999999),
                                              ("points_delta", "999999")])
def test_a_standings_adjustment_beyond_the_bounds_is_refused(field, value, world):
    response = _api(world, "referee").post(E + "standings/adjustments/", {
        "start_number": 1, "reason": "test", field: value}, format="json")
    assert response.status_code == 400
    assert _errors(response)[0]["field"] == field
    assert not StandingsAdjustment.objects.exists()


def test_the_adjustment_page_refuses_a_huge_score_with_a_form_error(world):
    client = Client()
    client.force_login(world.users["referee"])
    registration = world.event.registrations.get(start_number=1)
    response = client.post("/referee/e/cup/adjust/", {
        "registration": registration.pk, "points_delta": "0", "score_delta": HUGE,
        "reason": "x"})
    assert response.status_code in (200, 400)
    assert not StandingsAdjustment.objects.exists()


@pytest.mark.parametrize("options", [{"seed": "\x00"}, {"seed\x00": 1}, ["seed", 7],
                                     {"colour": "red"}, {"seed": 10**20}])
def test_seating_options_with_nul_or_of_the_wrong_shape_are_refused(options, world):
    response = _api(world).patch(E, {"seating_options": options}, format="json")
    assert response.status_code == 400, response.content
    assert _errors(response)[0]["field"].startswith("seating_options")
    world.event.refresh_from_db()
    assert world.event.seating_options == {}


def test_a_csv_with_nul_is_refused_on_the_api_and_on_the_page(world):
    text = "first_name,last_name\nAna,Nov\x00ak\n"
    upload = io.BytesIO(text.encode())
    upload.name = "players.csv"
    response = _api(world).post(E + "registrations/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert "NUL" in _errors(response)[0]["message"]
    header = io.BytesIO(b"first_\x00name,last_name\nAna,Novak\n")
    header.name = "players.csv"
    client = Client()
    client.force_login(world.users["organiser"])
    page = client.post("/manage/e/cup/players/import/", {"file": header})
    assert page.status_code == 400
    assert "NUL" in page.content.decode()
    assert not Player.objects.filter(last_name__startswith="Nov").exists()


@pytest.mark.parametrize("name", ["Ana\u202eavon", "An\u200ba", "Ana\x07", "Ana\nNovak",
                                  "Ana\x00"])
def test_names_with_control_or_invisible_characters_are_refused(name, world):
    response = _api(world).post("/api/v1/players/", {"first_name": name, "last_name": "Novak"},
                                format="json")
    assert response.status_code == 400, response.content
    assert _errors(response)[0]["field"] == "first_name"
    assert not Player.objects.filter(last_name="Novak").exists()


def test_ordinary_unicode_names_are_welcome(world):
    for first, last in [("Žiga", "Čeč"), ("Jürgen", "Weiß"), ("Øyvind", "Ærø"), ("Zoë", "O'Brien")]:
        response = _api(world).post("/api/v1/players/", {"first_name": first, "last_name": last,
                                                         "country": "SI"}, format="json")
        assert response.status_code == 201, response.content


def test_control_characters_in_free_texts_are_refused_but_line_breaks_are_fine(world):
    referee = _api(world, "referee")
    ok = referee.post(E + "disputes/", {"description": "line one\nline two"}, format="json")
    assert ok.status_code == 201
    bad = referee.post(E + "disputes/", {"description": "bell\x07"}, format="json")
    assert bad.status_code == 400 and _errors(bad)[0]["field"] == "description"


def _table_client(world) -> Client:
    client = Client()
    client.force_login(world.users["referee"])
    return client


@pytest.mark.parametrize("path", ["/manage/e/cup/rounds/1/tables/1/",
                                  "/manage/e/cup/rounds/1/tables/1/validate/"])
@pytest.mark.parametrize("number", ["abc", HUGE, "-3"])
def test_a_hand_number_that_is_not_a_number_is_a_form_error(path, number, world):
    response = _table_client(world).post(path, {
        "number": number, "version": world.card(1).version, **trojka()})
    assert response.status_code in (200, 400)
    assert Hand.objects.filter(scorecard=world.card(1)).count() == 1


@pytest.mark.parametrize("version", ["abc", HUGE])
def test_a_hand_delete_with_a_version_that_is_not_a_number_is_refused(version, world):
    response = _table_client(world).post("/manage/e/cup/rounds/1/tables/1/hands/1/delete/",
                                         {"version": version})
    assert response.status_code == 302
    assert Hand.objects.filter(scorecard=world.card(1)).count() == 1


@override_settings(DEBUG=True)
def test_with_debug_on_an_unknown_api_address_answers_in_the_error_shape():
    response = Client().get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert _errors(response)[0]["field"] == "path"


def test_t1_is_still_reachable(world):
    assert _api(world).get(T1).status_code == 200


def test_form_encoded_api_bodies_refuse_nul_and_control_characters(world):
    response = _api(world, "staff").post("/api/v1/leagues/", {"name": "Liga\x00", "slug": "liga"})
    assert response.status_code == 400
    assert _errors(response)[0]["field"] == "name"
    response = _api(world, "staff").post("/api/v1/leagues/", {"name": "Liga\x1b[31m", "slug": "liga"})
    assert response.status_code == 400


def test_the_event_form_shows_a_control_character_in_the_name_as_a_form_error(world):
    client = Client()
    client.force_login(world.users["organiser"])
    response = client.post("/manage/e/cup/edit/", {
        "name": "Cup\x1b", "slug": "cup", "starts_on": "2026-11-21", "ends_on": "2026-11-21",
        "time_zone": "Europe/Ljubljana", "language": "en", "ruleset_code": "tarok-net-2007",
        "ruleset_mode": "tri+1", "seating_system": "points", "planned_rounds": 3,
        "hands_per_round": 4, "table_size": 4, "min_table_size": 3, "status": "registration",
        "is_public": "on"})
    assert response.status_code == 400
    assert "control characters" in response.content.decode()
    world.event.refresh_from_db()
    assert world.event.name == "Event cup"


# ---------------------------------------------------------------------------------------
# Oversized bodies (issue #29): the API answers in its error shape, the pages as Django does
# ---------------------------------------------------------------------------------------

THIRTY_MB = 30 * 1024 * 1024


@pytest.mark.parametrize("role, path", [("anonymous", "/api/v1/score/"),
                                        ("organiser", E + "registrations/import/"),
                                        ("staff", "/api/v1/events/")])
def test_a_30_mb_json_body_is_refused_413_in_the_error_shape(role, path, world):
    players = Player.objects.count()
    body = json.dumps({"csv": "first_name,last_name\n" + "Ana,Novak\n" * (THIRTY_MB // 10)})
    response = world.client(role).post(path, body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    error, = _errors(response)
    assert error["code"] == "too_large" and error["field"] == "body"
    assert "2.5" in error["message"]
    assert Player.objects.count() == players


def test_the_413_is_in_the_language_of_the_request(world):
    body = json.dumps({"x": "a" * THIRTY_MB})
    response = world.client("anonymous").post("/api/v1/score/", body, content_type="application/json",
                                              HTTP_ACCEPT_LANGUAGE="sl")
    assert response.status_code == 413
    assert _errors(response)[0]["message"].startswith("telo zahteve je večje od")


@pytest.mark.parametrize("multipart", [True, False])
def test_a_body_with_too_many_fields_is_refused_400_in_the_error_shape(multipart, world):
    fields = {f"f{n}": "1" for n in range(1001)}
    client = world.client("staff")
    response = (client.post("/api/v1/leagues/", fields, format="multipart") if multipart
                else client.generic("POST", "/api/v1/leagues/", urlencode(fields),
                                    content_type="application/x-www-form-urlencoded"))
    assert response.status_code == 400
    error, = _errors(response)
    assert error["code"] == "too_large" and "1000" in error["message"]


def test_a_page_keeps_djangos_answer_to_an_oversized_body(world):
    client = Client()
    client.force_login(world.users["organiser"])
    response = client.post("/manage/e/cup/edit/", {"name": "x" * (3 * 1024 * 1024)})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


# ---------------------------------------------------------------------------------------
# CSV imports (issue #29): a byte limit refused by the file's size before it is read (413),
# a row limit refused as soon as the reader passes it (400); nothing stored
# ---------------------------------------------------------------------------------------

IMPORT = E + "registrations/import/"
PAGE_IMPORT = "/manage/e/cup/players/import/"


def _rows(count: int, tag: str = "Csv") -> str:
    return "first_name,last_name\n" + "".join(f"Ana,{tag}{n}\n" for n in range(count))


def _over_a_mebibyte() -> str:
    # A little over 1 MiB (the default CSV_IMPORT_MAX_BYTES) in far fewer rows than the limit.
    return "first_name,last_name,club\n" + "".join(
        f"Ana,Big{n},{'K' * 400}\n" for n in range(2600))


def _upload(text: str, name: str = "players.csv") -> io.BytesIO:
    upload = io.BytesIO(text.encode())
    upload.name = name
    return upload


def _organiser_page(world, language: str = "en") -> Client:
    client = Client()
    client.force_login(world.users["organiser"])
    client.cookies["django_language"] = language
    return client


@pytest.fixture
def nothing_stored(world):
    """Asserts after the test that the import stored no player, registration or audit row."""
    before = (Player.objects.count(), Registration.objects.count(), AuditEntry.objects.count())
    yield
    assert (Player.objects.count(), Registration.objects.count(),
            AuditEntry.objects.count()) == before


@pytest.fixture
def unread_uploads(monkeypatch):
    """Uploads over FILE_UPLOAD_MAX_MEMORY_SIZE arrive as temporary files; reading one fails
    the test, so a refusal by size is shown to come before any read."""
    def refuse(self, *args):
        raise AssertionError("an oversized upload was read")
    monkeypatch.setattr(TemporaryUploadedFile, "read", refuse, raising=False)
    monkeypatch.setattr(TemporaryUploadedFile, "chunks", refuse)


def test_the_csv_limits_are_settings_with_their_defaults():
    from django.conf import settings

    assert settings.CSV_IMPORT_MAX_BYTES == 1_048_576
    assert settings.CSV_IMPORT_MAX_ROWS == 5_000


@pytest.mark.parametrize("how", ["file", "csv"])
def test_the_api_refuses_a_csv_over_the_byte_limit_with_413(how, world, nothing_stored):
    text = _over_a_mebibyte()
    assert len(text.encode()) > 1_048_576
    body = {"file": _upload(text)} if how == "file" else {"csv": text}
    response = _api(world).post(IMPORT, body, format="multipart" if how == "file" else "json")
    assert response.status_code == 413
    error, = _errors(response)
    assert (error["field"], error["code"]) == (how, "too_large")
    assert "1.0\xa0MB" in error["message"]


def test_the_api_refuses_a_60_mb_upload_by_its_size_without_reading_it(world, nothing_stored,
                                                                       unread_uploads):
    upload = io.BytesIO(b"first_name,last_name\n" + b"Ana,Novak\n" * 6_000_000)
    upload.name = "huge.csv"
    response = _api(world).post(IMPORT, {"file": upload}, format="multipart")
    assert response.status_code == 413
    assert _errors(response)[0]["code"] == "too_large"


@pytest.mark.parametrize("how", ["file", "csv"])
def test_the_api_refuses_more_rows_than_the_limit_with_400(how, world, nothing_stored):
    text = _rows(5_001)
    body = {"file": _upload(text)} if how == "file" else {"csv": text}
    response = _api(world).post(IMPORT, body, format="multipart" if how == "file" else "json")
    assert response.status_code == 400
    error, = _errors(response)
    assert (error["field"], error["code"]) == (how, "too_many_rows")
    assert "5000" in error["message"]


def test_the_api_says_the_limits_in_the_language_of_the_request(world, nothing_stored):
    response = _api(world).post(IMPORT, {"csv": _rows(5_001)}, format="json",
                                HTTP_ACCEPT_LANGUAGE="de")
    assert _errors(response)[0]["message"].startswith("die Datei hat mehr als 5000 Zeilen")
    response = _api(world).post(IMPORT, {"csv": _over_a_mebibyte()}, format="json",
                                HTTP_ACCEPT_LANGUAGE="cs")
    assert _errors(response)[0]["message"].startswith("soubor je větší než")


def test_the_page_refuses_a_file_over_the_byte_limit_with_413_at_the_field(world, nothing_stored,
                                                                          unread_uploads):
    big = "first_name,last_name,club\n" + "".join(f"Ana,Big{n},{'K' * 400}\n"
                                                  for n in range(7_000))  # ~3 MB: a temporary file
    response = _organiser_page(world, "sl").post(PAGE_IMPORT, {"file": _upload(big)})
    assert response.status_code == 413
    form = response.context["import_form"]
    assert form.has_error("file", "too_large")
    assert "datoteka je večja od" in form.errors["file"][0]


def test_the_page_refuses_pasted_rows_over_the_byte_limit_with_413(world, nothing_stored):
    response = _organiser_page(world).post(PAGE_IMPORT, {"text": _over_a_mebibyte()})
    assert response.status_code == 413
    assert response.context["import_form"].has_error("text", "too_large")


@pytest.mark.parametrize("how", ["file", "text"])
def test_the_page_refuses_more_rows_than_the_limit_at_the_field(how, world, nothing_stored):
    text = _rows(5_001)
    data = {"file": _upload(text)} if how == "file" else {"text": text}
    response = _organiser_page(world, "cs").post(PAGE_IMPORT, data)
    assert response.status_code == 400
    errors = response.context["import_form"].errors[how]
    assert errors == ["soubor má více než 5000 řádků: importujte je v několika souborech po "
                      "nejvýše 5000 řádcích"]
    assert response.context["import_errors"] == []


def test_the_row_limit_stops_the_reader_at_the_first_row_past_it(settings):
    settings.CSV_IMPORT_MAX_ROWS = 3
    # Blank lines are no rows; the fifth row would be an error of its own if it were read.
    text = "first_name,last_name\nA,B\n\nC,D\nE,F\n"
    rows, errors = read_import_csv(text)
    assert len(rows) == 3 and errors == []
    rows, errors = read_import_csv(text + "G,H\nI,J,K,L,M\n", field="text")
    assert rows == [] and [(e["field"], e["code"]) for e in errors] == [("text", "too_many_rows")]


def test_the_services_hold_the_byte_limit_for_every_caller(world, settings, nothing_stored):
    settings.CSV_IMPORT_MAX_BYTES = 100
    with pytest.raises(TooLarge) as refused:
        registrations_import_csv(event=world.event, text=_rows(20), actor=world.users["organiser"],
                                 field="csv")
    assert refused.value.status == 413 and refused.value.errors[0]["field"] == "csv"


@pytest.mark.parametrize("name", ["Ana\u200d", "\u202eanA", "An\u2066a"])
def test_zero_width_and_direction_characters_in_names_are_refused(name, world: World):
    with pytest.raises(ServiceError) as refused:
        services.player_create(first_name=name, last_name="Novak", actor=None)
    assert refused.value.errors[0]["field"] == "first_name"
    client = Client()
    client.force_login(world.users["organiser"])
    page = client.post("/manage/e/cup/players/add/", {"first_name": name, "last_name": "Novak",
                                                      "status": "registered"})
    assert page.status_code == 400
    assert not Player.objects.filter(last_name="Novak").exists()


@pytest.mark.parametrize("hands", [32767, 101])
def test_hands_per_round_is_bounded(hands, world: World):
    response = world.client("organiser").patch(E, {"hands_per_round": hands}, format="json")
    assert response.status_code == 400
    assert _errors(response)[0]["field"] == "hands_per_round"
    assert world.client("organiser").patch(E, {"hands_per_round": 36}, format="json").status_code == 200
