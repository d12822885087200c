"""A second person is a second phone (issue #29, finding 5): through the table link a card is
confirmed on another phone than the one that submitted it, whatever seat is chosen; an event
played with one phone per table (`Event.one_phone_per_table`) allows the same phone, and such
cards are marked for the officials, listed first, kept so in the audit trail and shown by the
API. Officials confirm as before."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from sample_data.factories import allow_event_creation
from tests.tournaments.pages.support import make_user
from tournaments import services
from tournaments.models import AuditEntry, Scorecard, TableLink
from tournaments.pages.table_link import DEVICE_COOKIE
from tournaments.seating.rotation import rest_rotation
from tournaments.services import officials, table_links

pytestmark = pytest.mark.django_db

SAME_PHONE_REFUSAL = "the card was submitted on this phone"


@pytest.fixture
def day():
    organiser = allow_event_creation(make_user("boss"))
    referee = make_user("ref")
    event = services.event_create(
        actor=organiser, name="Open", slug="open", starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
        seating_system="fixed", planned_rounds=2, hands_per_round=4)
    officials.event_official_add(event=event, user=referee, role="referee", actor=organiser)
    for n in range(1, 9):
        player = services.player_create(first_name=f"Ana{n}", last_name=f"Novak{n}", club="TK")
        services.registration_create(event=event, player=player, actor=organiser)
    rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=0,
                               tables=[["1", "2", "3", "4"], ["5", "6", "7", "8"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    return {"event": event, "organiser": organiser, "referee": referee,
            "links": table_links.links_ensure(rnd=rnd)}


def _phone(link: TableLink, seat: int, device: str) -> Client:
    client = Client()
    client.cookies[DEVICE_COOKIE] = device
    assert client.post(f"/t/{link.token}/seat/", {"seat": seat}).status_code == 302
    return client


def _played_and_submitted(link: TableLink, phone: Client) -> Scorecard:
    card = Scorecard.objects.get(table=link.table)
    ids = list(card.player_ids)
    for number in range(1, 5):
        card.refresh_from_db()
        resting = rest_rotation(ids, 4)[number - 1]["resting"]
        declarer = next(p for p in ids if p != resting)
        assert phone.post(f"/t/{link.token}/hands/", {
            "number": number, "version": card.version, "game": "trojka", "declarer": declarer,
            "resting": resting, "points": 45}).status_code == 302
    assert phone.post(f"/t/{link.token}/submit/").status_code == 302
    card.refresh_from_db()
    assert card.status == "submitted"
    return card


def _one_phone_per_table(day, value: bool) -> None:
    event = day["event"]
    services.event_update(event=event, actor=day["organiser"], one_phone_per_table=value)


def test_by_default_another_seat_on_the_submitting_phone_cannot_confirm(day):
    link = day["links"][2]
    phone = _phone(link, 6, "phone-a")
    card = _played_and_submitted(link, phone)
    assert card.submitted_by_device == "phone-a"
    # The finding: choose seat 2 (here 7) on the same phone, confirm.
    assert phone.post(f"/t/{link.token}/seat/", {"seat": 7}).status_code == 302
    page = phone.get(f"/t/{link.token}/").content.decode()
    assert "Confirm the card" not in page
    assert "The card was submitted on this phone, so it cannot be confirmed here" in page
    refused = phone.post(f"/t/{link.token}/confirm/", follow=True)
    assert SAME_PHONE_REFUSAL in refused.content.decode()
    card.refresh_from_db()
    assert card.status == "submitted"
    # Another player on his own phone confirms.
    other = _phone(link, 7, "phone-b")
    assert "Confirm the card" in other.get(f"/t/{link.token}/").content.decode()
    assert other.post(f"/t/{link.token}/confirm/").status_code == 302
    card.refresh_from_db()
    assert (card.status, card.confirmed_by_seat, card.confirmed_on_submitting_phone) == (
        "confirmed", 7, False)


def test_the_refusal_says_what_to_do_in_the_players_language(day):
    link = day["links"][2]
    phone = _phone(link, 6, "phone-a")
    _played_and_submitted(link, phone)
    phone.post(f"/t/{link.token}/seat/", {"seat": 7})
    refused = phone.post(f"/t/{link.token}/confirm/", follow=True, HTTP_ACCEPT_LANGUAGE="sl")
    with translation.override("sl"):
        expected = translation.gettext(
            "the card was submitted on this phone: another player of the table confirms it on "
            "his own phone, or call the referee")
    assert expected != ("the card was submitted on this phone: another player of the table "
                        "confirms it on his own phone, or call the referee")
    assert expected in refused.content.decode()


def test_an_event_of_one_phone_per_table_confirms_on_the_same_phone_and_marks_the_card(day):
    _one_phone_per_table(day, True)
    link = day["links"][2]
    phone = _phone(link, 6, "phone-a")
    card = _played_and_submitted(link, phone)
    page = phone.get(f"/t/{link.token}/").content.decode()
    assert "or here after choosing his seat" in page
    # The same seat still cannot: a second person is still asked for.
    phone.post(f"/t/{link.token}/confirm/")
    card.refresh_from_db()
    assert card.status == "submitted"
    phone.post(f"/t/{link.token}/seat/", {"seat": 7})
    assert phone.post(f"/t/{link.token}/confirm/").status_code == 302
    card.refresh_from_db()
    assert (card.status, card.confirmed_by_seat, card.confirmed_on_submitting_phone) == (
        "confirmed", 7, True)
    entry = AuditEntry.objects.get(action="scorecard.confirm", table=link.table)
    assert entry.after["confirmed_on_submitting_phone"] is True and entry.device == "phone-a"

    # The officials see it marked and first, on the round's page and the referee's desk.
    organiser = Client()
    organiser.force_login(day["organiser"])
    round_page = organiser.get("/manage/e/open/rounds/1/").content.decode()
    assert "confirmed on the phone that submitted it" in round_page
    assert round_page.index("Table 2") < round_page.index("Table 1")
    referee = Client()
    referee.force_login(day["referee"])
    desk = referee.get("/referee/e/open/").content.decode()
    assert "confirmed on the phone that submitted it" in desk
    assert desk.index("Table 2") < desk.index("Table 1")
    history = referee.get("/referee/e/open/history/").content.decode()
    assert "confirmed on the phone that submitted it" in history
    # The API says so too.
    api = APIClient()
    api.force_authenticate(day["referee"])
    body = api.get("/api/v1/events/open/rounds/1/tables/2/scorecard/").json()
    assert body["confirmed_on_submitting_phone"] is True
    # Verified, it is no longer first.
    services.scorecard_verify(scorecard=card, actor=day["referee"])
    round_page = organiser.get("/manage/e/open/rounds/1/").content.decode()
    assert round_page.index("Table 1") < round_page.index("Table 2")


def test_an_official_confirms_a_card_submitted_on_a_phone_whatever_the_option(day):
    for table, value in ((1, False), (2, True)):
        _one_phone_per_table(day, value)
        link = day["links"][table]
        card = _played_and_submitted(link, _phone(link, 4 * table - 3, f"phone-{table}"))
        official = Client()
        official.force_login(day["referee"])
        assert official.post(f"/manage/e/open/rounds/1/tables/{table}/confirm/").status_code == 302
        card.refresh_from_db()
        assert (card.status, card.confirmed_on_submitting_phone) == ("confirmed", False)


@pytest.mark.parametrize("value", [False, True])
def test_the_option_is_set_and_read_on_the_settings_page_and_the_api(day, value):
    api = APIClient()
    api.force_authenticate(day["organiser"])
    response = api.patch("/api/v1/events/open/", {"one_phone_per_table": value}, format="json")
    assert response.status_code == 200 and response.json()["one_phone_per_table"] is value
    day["event"].refresh_from_db()
    assert day["event"].one_phone_per_table is value
    organiser = Client()
    organiser.force_login(day["organiser"])
    form = organiser.get("/manage/e/open/edit/").content.decode()
    assert 'name="one_phone_per_table"' in form
    box = re.search(r'<input[^>]*name="one_phone_per_table"[^>]*>', form).group(0)
    assert ("checked" in box) is value
    stranger = APIClient()
    stranger.force_authenticate(make_user("stranger"))
    assert stranger.patch("/api/v1/events/open/", {"one_phone_per_table": not value},
                          format="json").status_code == 403


@pytest.mark.parametrize("value", [False, True])
def test_through_the_api_a_second_person_is_a_second_account_whatever_the_option(day, value):
    """Accounts are persons: the option is about phones of the table link only."""
    _one_phone_per_table(day, value)
    event = day["event"]
    first, second = make_user("seat-5"), make_user("seat-6")
    for user, number in ((first, 5), (second, 6)):
        player = event.registrations.get(start_number=number).player
        player.user = user
        player.save()
    card = Scorecard.objects.get(table=day["links"][2].table)
    api = APIClient()
    api.force_authenticate(first)
    ids = list(card.player_ids)
    for number in range(1, 5):
        card.refresh_from_db()
        resting = rest_rotation(ids, 4)[number - 1]["resting"]
        declarer = next(p for p in ids if p != resting)
        assert api.put(f"/api/v1/events/open/rounds/1/tables/2/scorecard/hands/{number}/", {
            "version": card.version, "record": {"game": "trojka", "declarer": declarer,
                                                "resting": resting, "points": 45}},
            format="json").status_code in (200, 201)
    assert api.post("/api/v1/events/open/rounds/1/tables/2/scorecard/submit/").status_code == 200
    same = api.post("/api/v1/events/open/rounds/1/tables/2/scorecard/confirm/")
    assert same.status_code == 400 and same.json()["errors"][0]["code"] == "same_person"
    api.force_authenticate(second)
    assert api.post("/api/v1/events/open/rounds/1/tables/2/scorecard/confirm/").status_code == 200
    card.refresh_from_db()
    assert (card.status, card.confirmed_on_submitting_phone) == ("confirmed", False)


def _link_user(day, start_number: int, username: str):
    user = make_user(username)
    player = day["event"].registrations.get(start_number=start_number).player
    player.user = user
    player.save()
    return user


def test_a_seat_and_his_own_account_are_one_person(day):
    """Submitted on the table link by seat 5, confirmed with the account of the player of
    seat 5 (and the other way round): refused, the same person."""
    link = day["links"][2]
    own_account = _link_user(day, 5, "seat-five")
    card = _played_and_submitted(link, _phone(link, 5, "phone-a"))
    api = APIClient()
    api.force_authenticate(own_account)
    refused = api.post("/api/v1/events/open/rounds/1/tables/2/scorecard/confirm/")
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "same_person"
    card.refresh_from_db()
    assert card.status == "submitted"
    # The other way: his account submits, his seat on a phone confirms. (A change by the table
    # opens the card again; a referee's would keep it submitted.)
    services.hand_save(scorecard=card, number=1, record=card.hands.get(number=1).record,
                       actor=own_account, expected_version=card.version)
    card.refresh_from_db()
    assert card.status == "open"
    assert api.post("/api/v1/events/open/rounds/1/tables/2/scorecard/submit/").status_code == 200
    phone = _phone(link, 5, "phone-b")
    phone.post(f"/t/{link.token}/confirm/")
    card.refresh_from_db()
    assert card.status == "submitted"


def test_the_phone_is_fixed_when_its_seat_is_chosen_whatever_cookie_it_sends_later(day):
    link = day["links"][2]
    phone = Client()
    phone.cookies[DEVICE_COOKIE] = "!"  # no id the site gave: it is given one
    assert phone.post(f"/t/{link.token}/seat/", {"seat": 6}).status_code == 302
    card = _played_and_submitted(link, phone)
    for cookie in ("!", "another-phone"):
        phone.cookies[DEVICE_COOKIE] = cookie
        phone.post(f"/t/{link.token}/seat/", {"seat": 7})
        phone.post(f"/t/{link.token}/confirm/")
        card.refresh_from_db()
        assert card.status == "submitted", cookie
