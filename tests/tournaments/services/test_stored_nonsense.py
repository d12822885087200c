"""Nothing nonsensical is stored silently (issue 12, finding 7): the CSV import keeps doubled
quotes, an archive that disagrees with itself is refused at its path, seating options fit
their seating system (and apply), penalty kinds come from the ruleset, countries are real,
hands per round are bounded, and the hand form cannot skip the optimistic lock."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.api.test_roles import CARD, T1, E, build_world, trojka
from tournaments import archive, services
from tournaments.domain.standings import event_standings
from tournaments.errors import ServiceError
from tournaments.models import Event, Hand, Penalty, Player, Round, Scorecard
from tournaments.services.round_jobs import round_close

pytestmark = pytest.mark.django_db


def _errors(response) -> list[dict]:
    return response.json()["errors"]


# ---------------------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------------------

def test_a_plain_header_line_keeps_the_doubled_quotes_of_csv():
    world = build_world()
    text = 'first_name,last_name,club\nAna,Novak,"TK ""Kranj"""\nBor,Kos,"Ljubljana, center"\n'
    created = services.registrations_import_csv(event=world.event, text=text,
                                                actor=world.users["organiser"])
    assert [r.player.club for r in created] == ['TK "Kranj"', "Ljubljana, center"]
    semicolons = 'first_name;last_name;club\nCene;Zupan;"TK ""Piran"""\n'
    created = services.registrations_import_csv(event=world.event, text=semicolons,
                                                actor=world.users["organiser"])
    assert created[0].player.club == 'TK "Piran"'


# ---------------------------------------------------------------------------------------
# Archives
# ---------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------
# Seating options
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "field"), [
    (["seed", 3], "seating_options"),
    ({"seed": "seven"}, "seating_options.seed"),
    ({"seed": 7, "colour": "red"}, "seating_options.colour"),
    ({"missing_seat_deduction": "half"}, "seating_options.missing_seat_deduction"),
    ({"extra": {"per": 100}}, "seating_options.extra.points"),
])
def test_seating_options_must_fit_the_seating_system(options, field):
    world = build_world()
    response = world.client("organiser").patch(E, {"seating_options": options}, format="json")
    assert response.status_code == 400
    assert field in [e["field"] for e in _errors(response)]


def test_the_points_systems_options_are_stored_and_change_the_table_points():
    world = build_world()
    card = world.card(1)
    services.scorecard_submit(scorecard=card, actor=world.users["player_here"])
    # The card is shorter than the round: the referee confirms it with a reason (finding 8).
    services.scorecard_confirm(scorecard=card, actor=world.users["referee"],
                               reason="a one-hand card for this test")
    plain = {r.start_number: r.points for r in event_standings(world.event).rows}
    assert plain[1] == Decimal("4.000")
    response = world.client("organiser").patch(E, {"seating_options": {
        "seed": 7, "extra": {"per": 1, "points": "1", "cap": "0.5"}}}, format="json")
    assert response.status_code == 200, response.content
    world.event.refresh_from_db()
    extra = {r.start_number: r.points for r in event_standings(world.event).rows}
    # At most half a table point more (the cap, seed 000 §4.1 b "optimalno razmerje").
    assert extra[1] == Decimal("4.500")
    # The organiser sees the formula with its cap.
    from django.test import Client

    browser = Client()
    browser.force_login(world.users["organiser"])
    page = browser.get("/manage/e/" + world.event.slug + "/").content.decode()
    assert "1 per 1 of score above the table's mean, at most ±0.5" in page


@pytest.mark.parametrize("extra", [{"per": 1, "points": "1"}, {"per": 1, "points": "1", "cap": "2"},
                                   {"per": 1, "points": "1", "cap": "0.51"}])
def test_extra_points_without_a_cap_of_half_a_point_are_refused(extra):
    """Issue #21, finding 5: "pri čemer mora paziti na optimalno razmerje do osnovnih točk":
    extra points that could outweigh one table point are refused, naming the cap."""
    world = build_world()
    response = world.client("organiser").patch(E, {"seating_options": {"extra": extra}},
                                               format="json")
    assert response.status_code == 400
    assert "seating_options.extra.cap" in [e["field"] for e in _errors(response)]
    world.event.refresh_from_db()
    assert "extra" not in world.event.seating_options


def test_the_fixed_system_reads_no_options():
    world = build_world()
    response = world.client("organiser").patch(
        E, {"seating_system": "fixed", "seating_options": {"seed": 3}}, format="json")
    assert response.status_code == 400
    assert _errors(response)[0]["field"] == "seating_options.seed"


# ---------------------------------------------------------------------------------------
# Penalties, countries, names, hands per round
# ---------------------------------------------------------------------------------------

def test_a_penalty_kind_the_ruleset_does_not_have_is_refused():
    world = build_world()
    referee = world.client("referee")
    response = referee.post(T1 + "penalties/", {"start_number": 1, "kind": "cheating"}, format="json")
    assert response.status_code == 400
    assert _errors(response)[0]["field"] == "kind"
    assert Penalty.objects.filter(kind="cheating").count() == 0
    assert referee.post(T1 + "penalties/", {"start_number": 1, "kind": "renons"},
                        format="json").status_code == 201


@pytest.mark.parametrize("country", ["12", "XX", "S1", "slo"])
def test_a_country_is_a_real_iso_code(country):
    world = build_world()
    response = world.client("organiser").post("/api/v1/players/", {
        "first_name": "Ana", "last_name": "Novak", "country": country}, format="json")
    assert response.status_code == 400
    assert _errors(response)[0]["field"] == "country"
    with pytest.raises(ServiceError) as refused:
        services.registrations_import_csv(event=world.event, actor=None,
                                          text=f"first_name,last_name,country\nAna,Novak,{country}\n")
    assert refused.value.errors[0]["field"] == "rows[0].country"
    assert not Player.objects.filter(last_name="Novak").exists()


def test_the_player_form_offers_countries_and_refuses_others():
    world = build_world()
    client = Client()
    client.force_login(world.users["organiser"])
    page = client.get("/manage/e/cup/players/")
    assert 'value="SI"' in page.content.decode() and "Slovenia" in page.content.decode()
    refused = client.post("/manage/e/cup/players/add/", {"first_name": "Ana", "last_name": "Novak",
                                                         "country": "12", "status": "registered"})
    assert refused.status_code == 400
    assert not Player.objects.filter(last_name="Novak").exists()
    added = client.post("/manage/e/cup/players/add/", {"first_name": "Ana", "last_name": "Novak",
                                                       "country": "AT", "status": "registered"})
    assert added.status_code == 302
    assert Player.objects.get(last_name="Novak").country == "AT"


@pytest.mark.parametrize("name", ["Ana\u200d", "\u202eanA", "An\u2066a"])
def test_zero_width_and_direction_characters_in_names_are_refused(name):
    world = build_world()
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
def test_hands_per_round_is_bounded(hands):
    world = build_world()
    response = world.client("organiser").patch(E, {"hands_per_round": hands}, format="json")
    assert response.status_code == 400
    assert _errors(response)[0]["field"] == "hands_per_round"
    assert world.client("organiser").patch(E, {"hands_per_round": 36}, format="json").status_code == 200


def test_the_hand_form_without_a_version_does_not_skip_the_lock():
    world = build_world()
    client = Client()
    client.force_login(world.users["referee"])
    card = world.card(1)
    response = client.post("/manage/e/cup/rounds/1/tables/1/", {"number": 2, **trojka("2", 50)})
    assert response.status_code == 400
    assert Hand.objects.filter(scorecard=card).count() == 1
    saved = client.post("/manage/e/cup/rounds/1/tables/1/",
                        {"number": 2, "version": card.version, **trojka("2", 50)})
    assert saved.status_code == 302
    assert Scorecard.objects.get(pk=card.pk).hands.count() == 2


def test_the_api_still_reads_cards():
    world = build_world()
    assert APIClient().get(CARD).status_code == 200
    assert world.card(1).hands.count() == 1
