"""Cup series archives: a cup with its points table, tournaments (named by slug) and trail
comes back byte for byte in an empty database once its events are back, and ranks the same;
a cup whose events are missing, or a damaged cup file, is refused whole; the commands and the
API write and read the same bytes."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.test import Client

from leagues import archive_cups, cup_totals
from leagues import services as league_services
from leagues.models import CupPoints, CupSeries, CupSeriesEvent
from sample_data.factories import UserFactory
from tests.leagues.helpers import users
from tests.leagues.services.test_cup import TABLE, _cup
from tests.tournaments.archive.test_event import wipe_database
from tournaments import archive
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _played_cup():
    organiser, referee = users()
    series, _players = _cup(organiser, referee, best_results_counted=6, organisers=[organiser])
    league_services.cup_points_set(series=series, table=TABLE, actor=organiser, reason="seed + own 4th")
    league_services.cup_update(series=series, actor=organiser, season_label="2026")
    return series


def _ranking(series):
    ranking = cup_totals.cup_ranking(series)
    return [(row.rank, row.player.full_name, row.total) for row in ranking.rows]


def test_a_cup_round_trips_byte_for_byte_after_its_events_and_ranks_the_same():
    series = _played_cup()
    first = archive.dumps(archive_cups.export_cup(series))
    events = [archive.dumps(archive.export_event(item.event))
              for item in series.series_events.select_related("event").order_by("order")]
    ranking = _ranking(series)
    trail = AuditEntry.objects.filter(object_id=str(series.pk), event__isnull=True,
                                      content_type__model="cupseries").count()

    wipe_database()
    for text in events:
        archive.import_event(json.loads(text), actor=None)
    restored = archive_cups.import_cup(json.loads(first), actor=None)

    assert archive.dumps(archive_cups.export_cup(restored)) == first
    assert _ranking(restored) == ranking and len(ranking) == 6
    assert (CupPoints.objects.count(), CupSeriesEvent.objects.count()) == (4, 8)
    # The cup's own trail came back, plus the entry that records the import.
    assert AuditEntry.objects.filter(object_id=str(restored.pk), event__isnull=True,
                                     content_type__model="cupseries").count() == trail + 1


def test_the_cup_names_its_events_by_slug_and_keeps_the_trail_that_is_its_own():
    series = _played_cup()
    body = archive_cups.export_cup(series)["cup"]
    assert [(e["event"], e["order"], e["is_final"]) for e in body["events"]] == [
        (f"cup-{n}", n, n == 8) for n in range(1, 9)]
    assert body["points_table"] == [{"place": k, "points": v} for k, v in TABLE.items()]
    assert body["season_label"] == "2026" and body["best_results_counted"] == 6
    # Adding a tournament is in that event's trail (and its archive), not the cup's.
    assert [e["action"] for e in body["audit"]] == ["cup.create", "cup.points.set", "cup.update"]
    assert all(e["target"] == {"type": "leagues.cupseries", "ref": {"slug": "cup"}} for e in body["audit"])


def test_a_cup_whose_events_are_missing_or_a_damaged_cup_is_refused_and_nothing_is_written():
    series = _played_cup()
    doc = archive_cups.export_cup(series)
    assert [(e["field"], e["code"]) for e in archive_cups.validate_cup(doc)] == [("cup.slug", "cup_exists")]

    kept = archive.dumps(archive.export_event(series.series_events.get(order=1).event))
    wipe_database()
    archive.import_event(json.loads(kept), actor=None)
    body = doc["cup"]
    body["points_table"][2]["points"] = 999
    body["events"][1]["is_final"] = True
    body["audit"][0]["target"]["ref"] = {"slug": "another-cup"}
    body.pop("best_results_counted")
    with pytest.raises(ServiceError) as exc:
        archive_cups.import_cup(doc, actor=None)
    fields = {e["field"]: e["code"] for e in exc.value.errors}
    assert "cup.events[0].event" not in fields  # cup-1 was imported
    assert fields["cup.events[1].event"] == "unknown_event"
    assert fields["cup.events[7].event"] == "unknown_event"
    assert fields["cup.points_table[2].points"] == "not_decreasing"
    assert fields["cup.events"] == "two_finals"
    assert fields["cup.audit[0].target.ref.slug"] == "unknown_cup"
    assert fields["cup.best_results_counted"] == "missing"
    assert CupSeries.objects.count() == 0

    doc["kind"] = "season"
    assert [e["code"] for e in archive_cups.validate_cup(doc)] == ["wrong_kind"]


def test_the_commands_and_the_api_write_the_same_bytes_and_import_them(tmp_path):
    series = _played_cup()
    organiser = series.organisers.get()
    out = io.StringIO()
    call_command("export_cup", "cup", str(tmp_path / "cup.json"), stdout=out)
    written = json.loads(out.getvalue())
    text = (tmp_path / "cup.json").read_text(encoding="utf-8")
    assert written["cup"] == "cup" and text == archive.dumps(archive_cups.export_cup(series))

    staff = UserFactory(username="archivist", is_staff=True)
    client = Client()
    client.force_login(staff)
    answer = client.get("/api/v1/archive/cups/cup/")
    assert answer.status_code == 200 and answer.content.decode("utf-8") == text
    stranger = UserFactory(username="stranger")
    client.force_login(stranger)
    assert client.get("/api/v1/archive/cups/cup/").status_code == 403
    assert client.get("/api/v1/archive/cups/no-such-cup/").status_code == 404
    assert client.post("/api/v1/archive/cups/", data=text,
                       content_type="application/json").status_code == 403
    client.force_login(organiser)
    assert client.get("/api/v1/archive/cups/cup/").status_code == 200

    # Refused as it exists; imported once the series is gone.
    out = io.StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("import_cup", str(tmp_path / "cup.json"), stdout=out)
    assert exc.value.code == 2 and json.loads(out.getvalue())["errors"][0]["code"] == "cup_exists"
    CupSeries.objects.all().delete()
    client.force_login(staff)
    answer = client.post("/api/v1/archive/cups/", data=text, content_type="application/json")
    assert answer.status_code == 201
    assert answer.json() == {"cup": "cup", "events": [f"cup-{n}" for n in range(1, 9)]}
    assert archive.dumps(archive_cups.export_cup(CupSeries.objects.get())) == text
