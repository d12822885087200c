"""A scorecard of an event archive checked whole: every problem of the card, its hands and its
money rows at its path in the order of the file, and, for a card without such problems, every
stored value the scoring engine computes otherwise (or the engine's own refusal)."""

from __future__ import annotations

import copy
import datetime as dt

import pytest

from sample_data.factories import allow_event_creation
from tests.conftest import built_once
from tests.tournaments.archive.test_event import delete_events, user
from tournaments import archive, services
from tournaments.models import Event, Scorecard

pytestmark = pytest.mark.django_db

CARD = "event.rounds[0].tables[0].scorecard"
NOTE = "the archive is corrupt or comes from a different version of the scoring engine"


def _event(slug: str, ruleset: str, mode: str = "", stake: int | None = None,
           options: dict | None = None) -> tuple[Event, object]:
    """A published first round of one table of four, with the event's own ruleset options."""
    actor = allow_event_creation(user(f"org-{slug}"))
    event = services.event_create(
        actor=actor, name=f"Event {slug}", slug=slug, starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code=ruleset, ruleset_mode=mode,
        ruleset_options=options or {}, seating_system="fixed", stake_haler=stake,
        time_zone="Europe/Vienna", language="de")
    for n in range(1, 5):
        player = services.player_create(first_name=f"P{n}", last_name=f"{slug}-{n}", club="TK",
                                        country="AT")
        services.registration_create(event=event, player=player, actor=actor)
    rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=7,
                               tables=[["1", "2", "3", "4"]], actor=actor)
    services.round_publish(rnd=rnd, actor=actor)
    return Event.objects.get(pk=event.pk), actor


def _archives() -> dict:
    """A Tarok.net card of two hands (a trojka with an announced trula, a won berač) and a
    GP Vysočiny money sheet, exported; the events are deleted again, so the archives check
    as new."""
    net, actor = _event("net", "tarok-net-2007", "tri+1", options={"radelci_for_resting_player": False})
    card = Scorecard.objects.get(table__round__event=net)
    for number, record in (
            (1, {"game": "trojka", "declarer": "1", "resting": "4", "points": 41,
                 "announcements": [{"name": "trula", "by": "1", "announced": True, "achieved": True}]}),
            (2, {"game": "berac", "declarer": "2", "resting": "1", "won": True})):
        card.refresh_from_db()
        services.hand_save(scorecard=card, number=number, record=record, actor=actor,
                           expected_version=card.version)
    gp, boss = _event("gp", "gp-vysociny-2004", stake=2000, options={"silent_lost_pays": False})
    card = Scorecard.objects.get(table__round__event=gp)
    services.money_sheet_save(scorecard=card, actor=boss, expected_version=card.version,
                              rows={"1": {"bought": 0, "money": 2650}, "2": {"bought": 1000, "money": 2230},
                                    "3": {"bought": 0, "money": 3120}, "4": {"bought": 0, "money": 1000}})
    out = {"net": archive.export_event(net), "gp": archive.export_event(gp)}
    delete_events()
    return out


@pytest.fixture(scope="module")
def _exported(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, _archives)


@pytest.fixture
def docs(_exported):
    return copy.deepcopy(_exported)


def _card(doc: dict) -> dict:
    return doc["event"]["rounds"][0]["tables"][0]["scorecard"]


def _refusals(doc: dict) -> list[tuple]:
    return [(e["hand"], e["field"], e["code"]) for e in archive.validate_event(doc)]


def test_the_archives_check_as_they_are(docs):
    assert archive.validate_event(docs["net"]) == [] and archive.validate_event(docs["gp"]) == []


def test_every_problem_of_a_card_its_hands_and_money_rows_in_the_order_of_the_file(docs):
    doc = docs["net"]
    card = _card(doc)
    card["submitted_by"] = card["confirmed_by"] = "org-net"
    card["version"] = 0
    card["status"] = "annulled"
    card["player_ids"] = ["1", "9", 3]
    first, second = card["hands"]
    first["confirmed_by"] = "org-net"
    second["number"] = 1
    card["hands"] += ["x", {**first, "number": 0, "confirmed_by": None}, {**first, "number": "n"}]
    row = {"bought_haler": 0, "money_haler": 0, "result_haler": 0}
    card["money_rows"] = ["x", {**row, "start_number": 9}, {**row, "start_number": 1},
                          {**row, "start_number": 1}, {**row, "bought_haler": "z", "start_number": 2},
                          {**row, "start_number": True}]
    errors = archive.validate_event(doc)
    assert [(e["field"], e["code"]) for e in errors] == [
        (f"{CARD}.confirmed_by", "same_person"),
        (f"{CARD}.version", "invalid_number"),
        (f"{CARD}.annulled_reason", "required"),
        (f"{CARD}.player_ids", "invalid_players"),
        (f"{CARD}.hands[0].confirmed_by", "same_person"),
        (f"{CARD}.hands[1].number", "duplicate"),
        (f"{CARD}.hands[2]", "not_an_object"),
        (f"{CARD}.hands[3].number", "invalid_number"),
        (f"{CARD}.hands[4].number", "wrong_type"),
        (f"{CARD}.hands[4].confirmed_by", "same_person"),
        (f"{CARD}.money_rows[0]", "not_an_object"),
        (f"{CARD}.money_rows[1].start_number", "unknown_registration"),
        (f"{CARD}.money_rows[3].start_number", "duplicate"),
        (f"{CARD}.money_rows[4].bought_haler", "wrong_type"),
        (f"{CARD}.money_rows[5].start_number", "unknown_registration"),
        # The trail names hand 2, which the card no longer has.
        ("event.audit[10].target.ref.hand", "unknown_hand"),
    ]
    messages = [e["message"] for e in errors]
    assert messages[0] == (f"{CARD}.confirmed_by: a scorecard is confirmed by a second person, "
                           "not the one who submitted it")
    assert messages[4] == (f"{CARD}.hands[0].confirmed_by: a hand is confirmed by a second person, "
                           "not the one who entered it")
    assert messages[5] == f"{CARD}.hands[1].number: hand 1 is given twice"
    assert messages[12] == f"{CARD}.money_rows[3].start_number: start number 1 has two rows on this money sheet"
    assert messages[14] == f"{CARD}.money_rows[5].start_number: no registration has the start number True"


def test_a_card_with_wrong_fields_or_players_is_not_scored(docs):
    card = _card(docs["net"])
    card["player_ids"], card["status"] = "1,2,3,4", "x"
    assert _refusals(docs["net"]) == [(None, f"{CARD}.status", "invalid_choice")]
    card["status"], card["player_ids"] = "open", ["1", "9", "3", "4"]
    assert _refusals(docs["net"]) == [(None, f"{CARD}.player_ids[1]", "unknown_registration")]
    _card(docs["gp"]).update(ruleset_options={"bogus": 1}, player_ids=["1", "2", "3", "5"])
    assert _refusals(docs["gp"]) == [(None, f"{CARD}.player_ids[3]", "unknown_registration")]


def test_a_card_that_is_no_object_leaves_the_hands_the_trail_names_unknown(docs):
    docs["net"]["event"]["rounds"][0]["tables"][0]["scorecard"] = "x"
    assert _refusals(docs["net"]) == [
        (None, CARD, "not_an_object"),
        (None, "event.audit[9].target.ref.hand", "unknown_hand"),
        (None, "event.audit[10].target.ref.hand", "unknown_hand"),
    ]


def test_every_stored_value_of_the_hands_and_the_card_is_scored_again(docs):
    card = _card(docs["net"])
    first, second = card["hands"]
    first["value"] += 1
    first["scores"]["1"] += 1
    first["running_totals"]["1"] += 1
    first["lines"] = first["lines"][:1]
    second["state"]["radelci"]["1"] = 5
    second["payout"] = {"1": 1}
    card["totals"]["1"] += 1
    card["state"]["misdeals"]["1"] = 1
    errors = archive.validate_event(docs["net"])
    where = "round 1, table 1"
    assert [(e["hand"], e["field"], e["code"], e["message"]) for e in errors] == [
        (0, f"{CARD}.hands[0].value", "score_mismatch",
         f"{CARD}.hands[0].value: {where}, hand 1: the stored value differ from what the scoring "
         f"engine computes: stored 17, engine 16; {NOTE}"),
        (0, f"{CARD}.hands[0].scores", "score_mismatch",
         f"{CARD}.hands[0].scores: {where}, hand 1: the stored scores differ from what the scoring "
         f"engine computes: stored {{'1': 37, '2': 0, '3': 0, '4': 0}}, engine {{'1': 36, '2': 0, "
         f"'3': 0, '4': 0}}; {NOTE}"),
        (0, f"{CARD}.hands[0].running_totals", "score_mismatch",
         f"{CARD}.hands[0].running_totals: {where}, hand 1: the stored running_totals differ from "
         f"what the scoring engine computes: stored {{'1': 37, '2': 0, '3': 0, '4': 0}}, engine "
         f"{{'1': 36, '2': 0, '3': 0, '4': 0}}; {NOTE}"),
        (0, f"{CARD}.hands[0].lines", "score_mismatch",
         f"{CARD}.hands[0].lines: {where}, hand 1: the stored lines differ from what the scoring "
         f"engine computes; {NOTE}"),
        (1, f"{CARD}.hands[1].state", "score_mismatch",
         f"{CARD}.hands[1].state: {where}, hand 2: the stored state differ from what the scoring "
         f"engine computes; {NOTE}"),
        (1, f"{CARD}.hands[1].payout", "score_mismatch",
         f"{CARD}.hands[1].payout: {where}, hand 2: the stored payout differ from what the scoring "
         f"engine computes: stored {{'1': 1}}, engine None; {NOTE}"),
        (None, f"{CARD}.totals", "score_mismatch",
         f"{CARD}.totals: {where}: the stored totals {{'1': 37, '2': 70, '3': 0, '4': 0}} differ "
         f"from the engine's {{'1': 36, '2': 70, '3': 0, '4': 0}}; {NOTE}"),
        (None, f"{CARD}.state", "score_mismatch",
         f"{CARD}.state: {where}: the stored state differs from the engine's after the last hand; {NOTE}"),
    ]


def test_the_engines_refusal_is_named_at_the_hand_or_at_the_card(docs):
    original = copy.deepcopy(docs["net"])
    _card(docs["net"])["hands"][1]["record"]["won"] = "yes"
    assert [(e["hand"], e["field"], e["code"], e["message"]) for e in archive.validate_event(docs["net"])] == [
        (1, f"{CARD}.hands[1].record", "engine_refuses",
         f"{CARD}.hands[1].record: round 1, table 1: the scoring engine refuses this scorecard (“won” "
         f"must be true or false, got 'yes'); {NOTE}")]
    _card(original)["ruleset_options"] = {"bogus": 1}
    [error] = archive.validate_event(original)
    assert (error["hand"], error["field"], error["code"]) == (None, f"{CARD}.record", "engine_refuses")
    assert "ruleset tarok-net-2007 has no option 'bogus'" in error["message"]


def test_a_money_sheet_is_scored_again_row_by_row(docs):
    original = copy.deepcopy(docs["gp"])
    card = _card(docs["gp"])
    card["money_rows"][0]["result_haler"] += 100
    card["money_rows"][2]["result_haler"] -= 100
    card["totals"]["1"] = 0
    errors = archive.validate_event(docs["gp"])
    assert [(e["hand"], e["field"], e["code"], e["message"]) for e in errors] == [
        (None, f"{CARD}.money_rows", "score_mismatch",
         f"{CARD}.money_rows: round 1, table 1, start number 1: the stored result 750 h differs from "
         f"the engine's 650 h; {NOTE}"),
        (None, f"{CARD}.money_rows", "score_mismatch",
         f"{CARD}.money_rows: round 1, table 1, start number 3: the stored result 1020 h differs from "
         f"the engine's 1120 h; {NOTE}"),
        (None, f"{CARD}.totals", "score_mismatch",
         f"{CARD}.totals: round 1, table 1: the stored totals {{'1': 0, '2': -770, '3': 1120, '4': "
         f"-1000}} differ from the engine's {{'1': 650, '2': -770, '3': 1120, '4': -1000}}; {NOTE}"),
    ]
    card = _card(original)
    card["money_rows"][0]["money_haler"] = 2655
    card["money_rows"][1]["bought_haler"] = 500
    assert [e["message"] for e in archive.validate_event(original)] == [
        f"{CARD}.money_rows: round 1, table 1: the scoring engine refuses this money sheet "
        f"(sheet.players[0].money must be a whole number of 0.10 Kč coins (the smallest coin of "
        f"the bag), got 26.55 Kč); {NOTE}",
        f"{CARD}.money_rows: round 1, table 1: the scoring engine refuses this money sheet (top-ups "
        f"are multiples of 10.00 Kč, got 5.00 Kč); {NOTE}",
    ]
