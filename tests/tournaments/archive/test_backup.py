"""`manage.py backup_archives DIR`: a folder named by the UTC date-time with one archive per
event, per season and per cup series and a manifest whose SHA-256 sums match the files; importing the files
in the manifest's order into an empty database restores them byte for byte."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import re

import pytest
from django.core.management import call_command

from leagues import archive as season_archive
from leagues import archive_cups
from leagues import services as league_services
from leagues.demo import league_demo
from leagues.models import CupSeries, Matchday, Season
from tests.tournaments.archive.test_event import small_event, wipe_database
from tournaments import archive
from tournaments.errors import ServiceError
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_backup_writes_a_dated_folder_whose_manifest_matches_and_restores(tmp_path):
    league_demo()
    # Slovenian tarok, as the demo league's matchdays: a cup series ranks one game (#33).
    graz = small_event(slug="graz-open", ruleset="tarok-net-2007", mode="four")
    # A cup of a single tournament and of a league's matchday: it names events of both kinds.
    cup = league_services.cup_create(actor=None, name="Cup", slug="mixed-cup", seed_points=True)
    league_services.cup_event_add(series=cup, event=graz, actor=None)
    league_services.cup_event_add(series=cup, event=Matchday.objects.order_by("pk").first().event,
                                  actor=None, is_final=True)
    before = dt.datetime.now(dt.UTC)
    out = io.StringIO()
    call_command("backup_archives", str(tmp_path), stdout=out)
    printed = json.loads(out.getvalue())

    [folder] = [p for p in tmp_path.iterdir()]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{6}Z", folder.name)
    assert printed["directory"] == str(folder)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    created = dt.datetime.fromisoformat(manifest["created_at"].replace("Z", "+00:00"))
    assert folder.name == created.strftime("%Y-%m-%dT%H%M%SZ") and created >= before.replace(microsecond=0)
    assert (manifest["format"], manifest["version"]) == ("tarok-backup", 1)

    paths = [f["path"] for f in manifest["files"]]
    # Both seasons (the older first, so the newer links to it), then the events that are not
    # a season's matchday: each event is in the backup exactly once; the cups last, since they
    # name events of both.
    assert paths == ["seasons/demo-league/2025-26.json", "seasons/demo-league/2026-27.json",
                     "events/graz-open.json", "cups/mixed-cup.json"]
    sums = (folder / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    for entry, line in zip(manifest["files"], sums, strict=True):
        data = (folder / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert entry["bytes"] == len(data)
        assert line == f"{entry['sha256']}  {entry['path']}"

    wipe_database()
    for entry in manifest["files"]:
        text = (folder / entry["path"]).read_text(encoding="utf-8")
        if entry["kind"] == "season":
            obj = season_archive.import_season(json.loads(text), actor=None)
            again = season_archive.export_season(obj)
        elif entry["kind"] == "cup":
            obj = archive_cups.import_cup(json.loads(text), actor=None)
            again = archive_cups.export_cup(obj)
        else:
            obj = archive.import_event(json.loads(text), actor=None)
            again = archive.export_event(obj)
        assert archive.dumps(again) == text
    assert Season.objects.get(slug="2026-27").previous.slug == "2025-26"
    assert Event.objects.count() == 4
    assert [se.event.slug for se in CupSeries.objects.get().series_events.select_related("event")] == [
        "graz-open", Matchday.objects.order_by("season__starts_on", "number").first().event.slug]


def test_an_unwritable_target_exits_with_status_2(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("backup_archives", str(blocker), stdout=out)
    assert exc.value.code == 2
    assert json.loads(out.getvalue())["errors"][0]["code"] == "unwritable"


def test_a_second_backup_in_the_same_second_is_refused_and_the_first_is_kept(tmp_path):
    small_event(slug="zei-open", ruleset="slovenski-tarok-zei", mode="four")
    moment = dt.datetime(2026, 11, 21, 23, 5, 9, tzinfo=dt.UTC)
    first = archive.write_backup(tmp_path, now=moment)
    assert first["directory"].endswith("2026-11-21T230509Z")
    with pytest.raises(ServiceError) as exc:
        archive.write_backup(tmp_path, now=moment)
    assert exc.value.errors[0]["code"] == "backup_exists"
    assert [p.name for p in tmp_path.iterdir()] == ["2026-11-21T230509Z"]
