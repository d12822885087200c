"""Event archives (docs/archive-format.md): export, import into an empty database and export
again gives the same bytes; a damaged file is refused with every problem listed and nothing
written; players and users are matched or created as documented."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from leagues.models import CupSeries, League
from sample_data.factories import allow_event_creation
from tests.tournaments.api.test_roles import build_world, trojka
from tournaments import archive, services
from tournaments.archive import importing as archive_importing
from tournaments.demo import slovenian_demo
from tournaments.errors import ServiceError
from tournaments.models import (
    AuditEntry,
    Dispute,
    Event,
    Hand,
    Job,
    MoneySheetRow,
    Penalty,
    Player,
    Registration,
    Round,
    Scorecard,
    Seat,
    StandingsAdjustment,
)
from tournaments.services.round_jobs import round_close

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

User = get_user_model()


def user(name: str, **extra):
    return User.objects.create_user(username=name, password=f"{name}-pass-123", **extra)


def small_event(*, slug: str, ruleset: str, mode: str = "", players: int = 4, stake=None,
                actor=None) -> Event:
    """A published first round with one table of the given size, through the services."""
    actor = allow_event_creation(actor or user(f"org-{slug}"))
    event = services.event_create(
        actor=actor, name=f"Event {slug}", slug=slug, starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code=ruleset, ruleset_mode=mode,
        seating_system="fixed", stake_haler=stake, time_zone="Europe/Vienna", language="de")
    for n in range(1, players + 1):
        player = services.player_create(first_name=f"P{n}", last_name=f"{slug}-{n}", club="TK",
                                        country="AT")
        services.registration_create(event=event, player=player, actor=actor)
    rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=7,
                               tables=[[str(n) for n in range(1, players + 1)]], actor=actor)
    services.round_publish(rnd=rnd, actor=actor)
    event.refresh_from_db()  # publishing the round made the event running
    return event


def rich_demo() -> Event:
    """The seeded Slovenian demo plus everything else an event can hold: a player with a
    federation id and a login, hands with a penalty, a deleted hand, a decided dispute with its
    correction, a standings adjustment, an annulled table and an open dispute without a table."""
    event = slovenian_demo()
    organiser = User.objects.get(username="organiser")
    referee = User.objects.get(username="referee")
    janez = Player.objects.get(first_name="Janez", last_name="Novak")
    Player.objects.filter(pk=janez.pk).update(federation_id="SLO-0001",
                                              user=user("janez", is_active=True))
    rnd2 = event.rounds.get(number=2)
    card = Scorecard.objects.get(table__round=rnd2, table__number=1)
    seated = card.player_ids
    for number, points in ((1, 41), (2, 35), (3, 50)):
        card.refresh_from_db()
        hand = services.hand_save(
            scorecard=card, number=number, actor=organiser, expected_version=card.version,
            record={"game": "trojka", "declarer": seated[0], "resting": seated[3], "points": points})
        services.hand_confirm(hand=hand, actor=referee)
    card.refresh_from_db()
    services.hand_delete(scorecard=card, number=3, actor=organiser, expected_version=card.version,
                         reason="entered twice")
    offender = Registration.objects.get(event=event, start_number=int(seated[1]))
    services.penalty_record(table=card.table, registration=offender, kind="renons", actor=referee,
                            hand_number=2, description="revoke in trick 5")
    dispute = services.dispute_open(event=event, table=card.table, hand=card.hands.get(number=1),
                                    description="the points were 40, not 41", actor=None,
                                    raised_by_name="Table 1")
    card.refresh_from_db()
    services.hand_save(scorecard=card, number=1, actor=referee, expected_version=card.version,
                       record={"game": "trojka", "declarer": seated[0], "resting": seated[3],
                               "points": 40}, reason="dispute decided")
    correction = AuditEntry.objects.filter(event=event, action="hand.update").latest("pk")
    services.dispute_decide(dispute=dispute, decision="recounted: 40", actor=referee,
                            correction=correction)
    services.dispute_open(event=event, description="noise from the bar", actor=organiser)
    services.standings_adjust(registration=offender, actor=referee, reason="late arrival",
                              points_delta=Decimal("-0.333"), score_delta=-10)
    last = Scorecard.objects.get(table__round=rnd2, table__number=6)
    services.scorecard_annul(scorecard=last, actor=referee, reason="table left early")
    return Event.objects.get(pk=event.pk)


def delete_events() -> None:
    """Delete every event, league and cup with what hangs on them; rows that protect others
    go first."""
    CupSeries.objects.all().delete()
    League.objects.all().delete()
    AuditEntry.objects.all().delete()
    Job.objects.all().delete()
    for model in (Penalty, MoneySheetRow, Seat, StandingsAdjustment, Event):
        model.objects.all().delete()


def wipe_database() -> None:
    """Empty every table the archive fills, players and users included: an import then
    starts from an empty database."""
    delete_events()
    Player.objects.all().delete()
    User.objects.all().delete()


def test_export_import_export_gives_the_same_bytes_for_a_played_event():
    event = rich_demo()
    first = archive.dumps(archive.export_event(event))
    counts = {m: m.objects.count() for m in (Hand, Penalty, Dispute, StandingsAdjustment)}
    audit_count = AuditEntry.objects.filter(event=event).count()

    wipe_database()
    imported = archive.import_event(json.loads(first), actor=None)
    second = archive.dumps(archive.export_event(imported))

    assert second == first
    assert {m: m.objects.count() for m in counts} == counts
    # Every entry of the trail came back, plus the one that records the import.
    assert AuditEntry.objects.filter(event=imported).count() == audit_count + 1
    assert AuditEntry.objects.filter(event=imported, action="archive.import").count() == 1


def test_the_archive_holds_what_rebuilds_the_event_and_no_database_ids():
    event = rich_demo()
    text = archive.dumps(archive.export_event(event))
    doc = json.loads(text)
    assert text.endswith("}\n") and "Kovačič" in text  # UTF-8 as is, not \\u escapes
    assert (doc["format"], doc["version"], doc["kind"]) == ("tarok-archive", 1, "event")
    assert "exported_at" not in text
    body = doc["event"]
    assert body["ruleset_code"] == "tarok-net-2007" and body["ruleset_mode"] == "tri+1"
    assert body["seating_system"] == "points" and body["time_zone"] == "Europe/Ljubljana"
    assert body["organisers"] == ["organiser"] and body["referees"] == ["referee"]
    assert [r["start_number"] for r in body["registrations"]] == list(range(1, 25))
    janez = next(r["player"] for r in body["registrations"] if r["player"]["last_name"] == "Novak")
    assert janez["federation_id"] == "SLO-0001" and janez["user"] == "janez"
    round1 = body["rounds"][0]
    assert round1["status"] == "closed" and len(round1["tables"]) == 6
    hand = round1["tables"][0]["scorecard"]["hands"][0]
    assert hand["entered_by"] == "organiser" and hand["confirmed_by"] == "referee"
    assert hand["entered_at"].endswith("Z")
    assert body["penalties"][0]["table"] == {"round": 2, "table": 1}
    assert body["penalties"][0]["hand"] == 2
    decided = next(d for d in body["disputes"] if d["status"] == "decided")
    assert body["audit"][decided["correction"]]["action"] == "hand.update"
    assert body["standings_adjustments"][0]["points_delta"] == "-0.333"
    # The deleted hand's audit entry names nothing any more; no entry carries a database id.
    targets = [e["target"] for e in body["audit"]]
    assert {"type": "tournaments.hand", "ref": None} in targets
    assert all(e["target"]["ref"] is None or "id" not in e["target"]["ref"] for e in body["audit"])
    assert "generation_key" not in round1


def test_imported_users_are_inactive_and_cannot_log_in_and_existing_players_are_reused():
    event = rich_demo()
    doc = archive.export_event(event)
    janez_pk = Player.objects.get(federation_id="SLO-0001").pk
    delete_events()
    User.objects.exclude(username="janez").delete()
    players_before = Player.objects.count()

    imported = archive.import_event(doc, actor=None)
    referee = User.objects.get(username="referee")
    assert not referee.is_active and not referee.has_usable_password()
    assert User.objects.get(username="janez").is_active  # an existing user is left as he was
    assert Player.objects.count() == players_before
    assert imported.registrations.get(player__federation_id="SLO-0001").player_id == janez_pk


def test_an_event_whose_slug_exists_is_refused_and_says_so():
    event = small_event(slug="cup-graz", ruleset="steirischer-tarockcup-2017")
    doc = archive.export_event(event)
    with pytest.raises(ServiceError) as exc:
        archive.import_event(doc, actor=None)
    [error] = exc.value.errors
    assert error["field"] == "event.slug" and error["code"] == "slug_exists"
    assert "cup-graz" in error["message"] and "already exists" in error["message"]


def test_a_damaged_archive_is_refused_with_every_problem_and_nothing_is_written():
    event = rich_demo()
    doc = archive.export_event(event)
    wipe_database()
    body = doc["event"]
    del body["registrations"][0]["status"]                                    # missing key
    body["rounds"][0]["tables"][2]["seats"][1]["start_number"] = 99           # dangling reference
    body["rounds"][0]["tables"][0]["scorecard"]["hands"][4]["scores"] = {     # edited score
        k: v + 5 for k, v in body["rounds"][0]["tables"][0]["scorecard"]["hands"][4]["scores"].items()}
    body["language"] = "xx"                                                   # invalid choice
    body["penalties"][0]["hand"] = 17                                         # no such hand

    with pytest.raises(ServiceError) as exc:
        archive.import_event(doc, actor=None)
    by_field = {e["field"]: e for e in exc.value.errors}
    assert by_field["event.registrations[0].status"]["code"] == "missing"
    assert by_field["event.rounds[0].tables[2].seats[1].start_number"]["code"] == "unknown_registration"
    mismatch = by_field["event.rounds[0].tables[0].scorecard.hands[4].scores"]
    assert mismatch["code"] == "score_mismatch" and mismatch["hand"] == 4
    assert "round 1, table 1, hand 5" in mismatch["message"]
    assert "different version of the scoring engine" in mismatch["message"]
    assert by_field["event.language"]["code"] == "invalid_choice"
    assert by_field["event.penalties[0].hand"]["code"] == "unknown_hand"
    assert len(exc.value.errors) == 5  # each problem once, no noise from the others
    # Nothing was written: not the event, not a player, not a user.
    assert (Event.objects.count(), Player.objects.count(), User.objects.count()) == (0, 0, 0)


def test_wrong_format_version_or_kind_is_refused_before_reading_on():
    event = small_event(slug="zei-1", ruleset="slovenski-tarok-zei", mode="four")
    doc = archive.export_event(event)
    for change, field, code in (({"version": 2}, "version", "unsupported_version"),
                                ({"format": "csv"}, "format", "wrong_format"),
                                ({"kind": "season"}, "kind", "wrong_kind")):
        errors = archive.validate_event({**doc, **change})
        assert [(e["field"], e["code"]) for e in errors] == [(field, code)]
    assert archive.validate_event([]) [0]["code"] == "not_an_object"


def test_unknown_keys_and_wrong_types_are_named_at_their_path():
    event = small_event(slug="zei-2", ruleset="slovenski-tarok-zei", mode="four")
    doc = archive.export_event(event)
    doc["event"]["sponsor"] = "Gostilna"
    doc["event"]["rounds"][0]["seed"] = "7"
    doc["event"]["registrations"][1]["registered_at"] = "2026-11-21T09:00:00"  # no offset
    fields = {(e["field"], e["code"]) for e in archive.validate_event(doc)}
    assert ("event.sponsor", "unknown_key") in fields
    assert ("event.rounds[0].seed", "wrong_type") in fields
    assert ("event.registrations[1].registered_at", "invalid_time") in fields


@pytest.mark.parametrize("start_number", ["²", "١", "１", "-1", "1e3", "9" * 30])
def test_a_start_number_that_is_not_ascii_digits_names_no_registration(start_number):
    event = small_event(slug="zei-3", ruleset="slovenski-tarok-zei", mode="four")
    doc = archive.export_event(event)
    doc["event"]["slug"] = "zei-3-copy"
    doc["event"]["rounds"][0]["tables"][0]["scorecard"]["player_ids"][0] = start_number
    fields = {(e["field"], e["code"]) for e in archive.validate_event(doc)}
    assert ("event.rounds[0].tables[0].scorecard.player_ids[0]", "unknown_registration") in fields


def test_money_sheets_and_payouts_round_trip_and_are_checked_against_the_engine():
    organiser = user("boss")
    czech = small_event(slug="gp-bystre", ruleset="gp-vysociny-2004", stake=2000, actor=organiser)
    card = Scorecard.objects.get(table__round__event=czech)
    services.money_sheet_save(scorecard=card, actor=organiser, expected_version=card.version,
                              rows={"1": {"bought": 0, "money": 2650}, "2": {"bought": 1000, "money": 2230},
                                    "3": {"bought": 0, "money": 3120}, "4": {"bought": 0, "money": 1000}})
    austrian = small_event(slug="cup-leoben", ruleset="steirischer-tarockcup-2017", actor=organiser)
    card = Scorecard.objects.get(table__round__event=austrian)
    services.hand_save(scorecard=card, number=1, actor=organiser, expected_version=card.version,
                       record={"game": "rufer", "declarer": "1", "partner": "3", "won": True})
    first = {e.slug: archive.dumps(archive.export_event(e)) for e in (czech, austrian)}
    assert json.loads(first["cup-leoben"])["event"]["rounds"][0]["tables"][0]["scorecard"]["hands"][0]["payout"]

    broken = json.loads(first["gp-bystre"])
    broken["event"]["rounds"][0]["tables"][0]["scorecard"]["money_rows"][0]["result_haler"] += 100
    assert any(e["code"] == "score_mismatch" and "start number 1" in e["message"]
               for e in archive.validate_event(broken))

    wipe_database()
    for text in first.values():
        imported = archive.import_event(json.loads(text), actor=None)
        assert archive.dumps(archive.export_event(imported)) == text
    assert MoneySheetRow.objects.count() == 4


def test_namesakes_without_federation_id_stay_two_players():
    event = small_event(slug="twins", ruleset="slovenski-tarok-zei", mode="four")
    Player.objects.filter(registrations__event=event, registrations__start_number__in=[1, 2]).update(
        first_name="Jože", last_name="Kos")
    doc = archive.export_event(event)
    wipe_database()
    imported = archive.import_event(doc, actor=None)
    assert Player.objects.filter(first_name="Jože", last_name="Kos").count() == 2
    assert imported.registrations.values("player").distinct().count() == 4


def test_the_import_is_refused_when_the_database_holds_different_scores_after_writing(monkeypatch):
    """The second check scores the written database again; a difference rolls everything back."""
    event = small_event(slug="zei-3", ruleset="slovenski-tarok-zei", mode="four")
    doc = archive.export_event(event)
    wipe_database()

    def disagree(imported, cards=None, checked=None):
        return [{"hand": 0, "field": "zei-3: round 1 table 1", "code": "score_mismatch",
                 "message": "differs"}]

    monkeypatch.setattr(archive_importing, "verify_event_scores", disagree)
    with pytest.raises(ServiceError):
        archive.import_event(doc, actor=None)
    assert Event.objects.count() == 0 and Round.objects.count() == 0


def _closed_world_archive() -> tuple[dict, str]:
    """An event whose round 1 is closed (both tables confirmed), exported."""
    world = build_world()
    referee = world.users["referee"]
    for number in (1, 2):
        card = world.card(number)
        if number == 2:
            services.hand_save(scorecard=card, number=1, record=trojka("5", 45, "8"),
                               actor=None, expected_version=card.version)
            card.refresh_from_db()
        player = world.users["player_here" if number == 1 else "player_elsewhere"]
        services.scorecard_submit(scorecard=card, actor=player)
        # One hand where the round plays four: the referee confirms it with a reason.
        services.scorecard_confirm(scorecard=card, actor=referee, reason="a short test card")
    round_close(rnd=world.round1, actor=world.users["organiser"])
    doc = archive.export_event(world.event)
    # The archive comes back under its own slug, so the original steps aside.
    Event.objects.filter(pk=world.event.pk).update(slug="original")
    return doc, "event.rounds[0].tables[0].scorecard"


def _refusal(doc) -> list[dict]:
    with pytest.raises(ServiceError) as refused:
        archive.import_event(json.loads(json.dumps(doc)), actor=None)
    assert not Event.objects.filter(slug="cup").exists()
    return refused.value.errors


def test_an_untouched_archive_still_imports():
    doc, _card = _closed_world_archive()
    event = archive.import_event(doc, actor=None)
    assert event.registrations.get(start_number=1).score != 0


def test_a_registration_total_that_the_cards_do_not_give_is_refused():
    doc, _card = _closed_world_archive()
    doc["event"]["registrations"][0]["score"] += 100
    errors = _refusal(doc)
    assert [e["field"] for e in errors] == ["event.registrations[0].score"]
    assert errors[0]["code"] == "carried_total_mismatch"


def test_tournament_points_that_the_cards_do_not_give_are_refused():
    doc, _card = _closed_world_archive()
    doc["event"]["registrations"][2]["tournament_points"] = "4.000"
    errors = _refusal(doc)
    assert "event.registrations[2].tournament_points" in [e["field"] for e in errors]


def test_an_open_card_in_a_closed_round_is_refused():
    doc, card = _closed_world_archive()
    doc["event"]["rounds"][0]["tables"][0]["scorecard"]["status"] = "open"
    errors = _refusal(doc)
    assert f"{card}.status" in [e["field"] for e in errors]
    assert any(e["code"] == "status_not_in_round" for e in errors)


def test_money_rows_on_a_points_card_are_refused():
    doc, card = _closed_world_archive()
    doc["event"]["rounds"][0]["tables"][0]["scorecard"]["money_rows"] = [
        {"start_number": 1, "bought_haler": 0, "money_haler": 2000, "result_haler": 0}]
    errors = _refusal(doc)
    assert f"{card}.money_rows" in [e["field"] for e in errors]


def test_hands_in_a_draft_round_are_refused():
    world = build_world()
    Round.objects.filter(pk=world.round1.pk).update(status=Round.Status.DRAFT, published_at=None)
    doc = archive.export_event(world.event)
    Event.objects.filter(pk=world.event.pk).update(slug="original")
    errors = _refusal(doc)
    assert any(e["code"] == "entries_in_draft" for e in errors)
