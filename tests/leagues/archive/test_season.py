"""Season archives: a league season with its divisions, members, schedule, formation and
matchday events comes back byte for byte in an empty database; the restored schedule seats
the same people; a damaged season file is refused whole."""

from __future__ import annotations

import datetime as dt
import gc
import json

import pytest

from leagues import archive as season_archive
from leagues import services as league_services
from leagues.demo import league_demo
from leagues.models import League, Matchday, Season, SeasonMembership
from tests.tournaments.archive.test_event import wipe_database
from tournaments import archive
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Event, Player

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _seasons():
    league = league_demo()
    return (Season.objects.get(league=league, slug="2025-26"),
            Season.objects.get(league=league, slug="2026-27"))


def _people(schedule_division):
    return [Player.objects.get(pk=int(pid)).full_name for pid in schedule_division["players"]]


def test_seasons_round_trip_byte_for_byte_with_their_matchdays_and_schedule():
    old, new = _seasons()
    first = {s.slug: archive.dumps(season_archive.export_season(s)) for s in (old, new)}
    schedule_people = {level: _people(d) for level, d in new.schedule["divisions"].items()}
    leaving = sorted(Player.objects.get(pk=pk).full_name for pk in new.formation["leaving"])
    counts = (Matchday.objects.count(), SeasonMembership.objects.count())

    wipe_database()
    imported = {}
    for slug in ("2025-26", "2026-27"):  # oldest first, so the new season links to the old one
        imported[slug] = season_archive.import_season(json.loads(first[slug]), actor=None)
    for slug, season in imported.items():
        assert archive.dumps(season_archive.export_season(season)) == first[slug]

    assert (Matchday.objects.count(), SeasonMembership.objects.count()) == counts
    restored = imported["2026-27"]
    assert restored.previous == imported["2025-26"]
    # The schedule and the formation name the same people by their new ids.
    assert {lvl: _people(d) for lvl, d in restored.schedule["divisions"].items()} == schedule_people
    assert sorted(Player.objects.get(pk=pk).full_name for pk in restored.formation["leaving"]) == leaving
    assert AuditEntry.objects.filter(action="archive.import", event__isnull=True).count() == 2


def test_a_restored_season_seats_its_next_matchday_from_the_schedule():
    _old, new = _seasons()
    doc = season_archive.export_season(new)
    wipe_database()
    season = season_archive.import_season(doc, actor=None)
    organiser = season.league.organisers.get()
    matchday = league_services.matchday_create(season=season, actor=organiser, date=dt.date(2026, 10, 6))
    rnd = league_services.matchday_seat(matchday=matchday, actor=organiser)
    seated = {s.registration.player_id for s in rnd.seats.select_related("registration")}
    playing = {m.player_id for m in season.memberships.filter(division__plays_matchdays=True)}
    assert seated == playing and len(seated) == 16


def test_the_matchday_events_are_embedded_as_event_archives():
    old, _new = _seasons()
    doc = season_archive.export_season(old)
    assert doc["kind"] == "season" and doc["league"]["slug"] == "demo-league"
    body = doc["season"]
    assert [md["number"] for md in body["matchdays"]] == [1, 2, 3]
    event = {"format": "tarok-archive", "version": 1, "kind": "event",
             "exported_with": doc["exported_with"], "event": body["matchdays"][0]["event"]}
    # A matchday's event is a valid event archive on its own (refused here only because the
    # event exists).
    assert [e["code"] for e in archive.validate_event(event)] == ["slug_exists"]
    members = [m for d in body["divisions"] for m in d["members"]]
    assert all(isinstance(m["player"], int) for m in members)
    assert len({m["player"] for m in members}) == len(members) == 20


def test_a_season_that_exists_or_a_damaged_season_is_refused_and_nothing_is_written():
    old, _new = _seasons()
    doc = season_archive.export_season(old)
    errors = season_archive.validate_season(doc)
    codes = {(e["field"], e["code"]) for e in errors}
    assert ("season.slug", "season_exists") in codes
    assert ("season.matchdays[0].event.slug", "slug_exists") in codes

    wipe_database()
    body = doc["season"]
    body["divisions"][0]["members"][0]["player"] = 999
    body["matchdays"][1]["event"]["rounds"][0]["tables"][0]["scorecard"]["hands"][0]["value"] += 1
    doc["league"].pop("division_count")
    with pytest.raises(ServiceError) as exc:
        season_archive.import_season(doc, actor=None)
    fields = {e["field"]: e["code"] for e in exc.value.errors}
    assert fields["season.divisions[0].members[0].player"] == "unknown_player"
    assert fields["season.matchdays[1].event.rounds[0].tables[0].scorecard.hands[0].value"] == "score_mismatch"
    assert fields["league.division_count"] == "missing"
    assert (League.objects.count(), Season.objects.count(), Event.objects.count(),
            Player.objects.count()) == (0, 0, 0, 0)


def test_the_leagues_language_travels_and_an_older_archive_without_it_is_english():
    """League.language (issue #33) is in the archive; an archive written before it has no
    `language`, and is read as the English it was."""
    old, _new = _seasons()
    assert old.league.language == "sl"
    doc = season_archive.export_season(old)
    assert doc["league"]["language"] == "sl"
    older = json.loads(archive.dumps(doc))
    del older["league"]["language"]
    wipe_database()
    assert season_archive.import_season(json.loads(archive.dumps(doc)), actor=None).league.language == "sl"
    wipe_database()
    assert season_archive.import_season(older, actor=None).league.language == "en"


def test_a_season_is_exported_and_imported_with_the_collector_paused(monkeypatch):
    """Its matchdays' events are whole event archives: made, checked and written with the
    collector paused, as an event's archive alone is (tournaments.runtime.collector)."""
    old, _new = _seasons()
    seen = []
    for name in ("event_body", "check_event_body", "write_event_body"):
        original = getattr(season_archive, name)
        monkeypatch.setattr(season_archive, name, lambda *a, _f=original, _n=name, **k: (
            seen.append((_n, gc.isenabled())), _f(*a, **k))[1])
    doc = season_archive.export_season(old)
    wipe_database()
    assert season_archive.validate_season(doc) == []
    assert [name for name, _ in seen if name == "check_event_body"]  # the check alone, too
    season_archive.import_season(doc, actor=None)
    assert {name for name, _ in seen} == {"event_body", "check_event_body", "write_event_body"}
    assert not any(enabled for _, enabled in seen) and gc.isenabled()
