"""`manage.py export_event`, `import_event`, `export_season`, `import_season`: they write and
read the same files as the API, print JSON, and on bad input print {"errors": [...]} and exit
with status 2 having written nothing."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from leagues import archive as season_archive
from leagues.demo import league_demo
from leagues.models import Season
from tests.tournaments.archive.test_event import small_event, wipe_database
from tournaments import archive
from tournaments.models import AuditEntry, Event

pytestmark = pytest.mark.django_db


def run(*args) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command(*args, stdout=out)
    except SystemExit as exc:
        return exc.code, out.getvalue()
    return 0, out.getvalue()


def test_export_then_import_through_the_commands(tmp_path):
    event = small_event(slug="graz-open", ruleset="steirischer-tarockcup-2017")
    expected = archive.dumps(archive.export_event(event))
    target = tmp_path / "graz.json"

    code, out = run("export_event", "graz-open", str(target))
    assert code == 0
    assert target.read_text(encoding="utf-8") == expected
    summary = json.loads(out)
    assert summary["event"] == "graz-open" and summary["bytes"] == len(expected.encode("utf-8"))
    code, out = run("export_event", "graz-open", "-")
    assert (code, out) == (0, expected)

    wipe_database()
    code, out = run("import_event", str(target))
    assert code == 0, out
    assert json.loads(out) == {"event": "graz-open", "registrations": 4, "rounds": 1, "hands": 0}
    assert AuditEntry.objects.get(action="archive.import").actor_label == "manage.py import_event"
    assert archive.dumps(archive.export_event(Event.objects.get(slug="graz-open"))) == expected


def test_bad_input_exits_with_status_2_and_json_errors(tmp_path):
    event = small_event(slug="zei-open", ruleset="slovenski-tarok-zei", mode="four")
    code, out = run("export_event", "no-such-event", str(tmp_path / "x.json"))
    assert code == 2 and json.loads(out)["errors"][0]["code"] == "not_found"
    assert not (tmp_path / "x.json").exists()

    code, out = run("import_event", str(tmp_path / "missing.json"))
    assert code == 2 and json.loads(out)["errors"][0]["code"] == "unreadable"
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    code, out = run("import_event", str(tmp_path / "bad.json"))
    assert code == 2 and json.loads(out)["errors"][0]["code"] == "invalid_json"

    doc = archive.export_event(event)
    doc["event"]["rounds"][0]["tables"][0]["seats"][0]["start_number"] = 12
    del doc["event"]["referees"]
    (tmp_path / "damaged.json").write_text(json.dumps(doc), encoding="utf-8")
    code, out = run("import_event", str(tmp_path / "damaged.json"))
    assert code == 2
    fields = {(e["field"], e["code"]) for e in json.loads(out)["errors"]}
    assert fields == {("event.referees", "missing"), ("event.slug", "slug_exists"),
                      ("event.rounds[0].tables[0].seats[0].start_number", "unknown_registration")}
    code, out = run("import_event", str(tmp_path / "damaged.json"), "--actor", "nobody")
    assert code == 2 and json.loads(out)["errors"][0]["field"] == "actor"
    assert Event.objects.count() == 1


def test_season_commands_round_trip_and_refuse_bad_input(tmp_path):
    league = league_demo()
    season = Season.objects.get(league=league, slug="2025-26")
    expected = archive.dumps(season_archive.export_season(season))
    target = tmp_path / "season.json"
    code, out = run("export_season", "demo-league", "2025-26", str(target))
    assert code == 0 and target.read_text(encoding="utf-8") == expected
    assert json.loads(out)["season"] == "2025-26"
    code, out = run("export_season", "demo-league", "1999", "-")
    assert code == 2 and json.loads(out)["errors"][0]["code"] == "not_found"

    code, out = run("import_season", str(target))
    assert code == 2
    assert ("season.slug", "season_exists") in {(e["field"], e["code"]) for e in json.loads(out)["errors"]}

    wipe_database()
    code, out = run("import_season", str(target))
    assert code == 0, out
    result = json.loads(out)
    assert result["league"] == "demo-league" and len(result["matchdays"]) == 3
    restored = Season.objects.get(league__slug="demo-league", slug="2025-26")
    assert archive.dumps(season_archive.export_season(restored)) == expected
