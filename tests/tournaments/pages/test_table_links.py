"""The table link (/t/<token>/): a table's players enter, submit and confirm their own card from
their phones with no account, and the link holds to the same rights as every other edge: it
writes only its own table, only while the round is on and the card open or submitted; a
revoked or wrong token is 404; guessing is slowed to a stop; two phones entering the same
hand at once never lose or double it; every write names the seat and the phone; a seat posted
as something other than ASCII digits is no seat, and such a version is refused in words
(the same card-write form as the officials' table page), never a server error."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.test import Client

from sample_data.factories import allow_event_creation
from tests.tournaments.pages.support import make_user
from tournaments import services
from tournaments.domain.rights import TableSeat
from tournaments.errors import Forbidden
from tournaments.models import AuditEntry, Scorecard, TableLink
from tournaments.pages.table_link import DEVICE_COOKIE
from tournaments.seating.rotation import rest_rotation
from tournaments.services import round_jobs, table_links

pytestmark = pytest.mark.django_db


@pytest.fixture
def day():
    """An 8-player TRI+1 event with round 1 published: two tables, each with its link."""
    organiser = allow_event_creation(make_user("boss"))
    event = services.event_create(
        actor=organiser, name="Open", slug="open", starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
        seating_system="points", planned_rounds=2, hands_per_round=4)
    for n in range(1, 9):
        player = services.player_create(first_name=f"Ana{n}", last_name=f"Novak{n}", club="TK")
        services.registration_create(event=event, player=player, actor=organiser)
    rnd = services.round_store(event=event, number=1, seating_system="points", seed=1,
                               tables=[["1", "2", "3", "4"], ["5", "6", "7", "8"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    links = table_links.links_ensure(rnd=rnd)
    return {"event": event, "round": rnd, "organiser": organiser, "links": links}


def _phone(link: TableLink, seat: int) -> Client:
    client = Client()
    client.cookies[DEVICE_COOKIE] = f"phone{seat}"
    assert client.post(f"/t/{link.token}/seat/", {"seat": seat}).status_code == 302
    return client


def _hand(card: Scorecard, number: int, points: int = 45) -> dict:
    ids = list(card.player_ids)
    resting = rest_rotation(ids, max(number, 4))[number - 1]["resting"]
    declarer = next(p for p in ids if p != resting)
    card.refresh_from_db()
    return {"number": number, "version": card.version, "game": "trojka", "declarer": declarer,
            "resting": resting, "points": points}


def _card(link: TableLink) -> Scorecard:
    return Scorecard.objects.get(table=link.table)


def test_a_table_enters_submits_and_a_second_seat_confirms(day):
    link = day["links"][1]
    card = _card(link)
    first = _phone(link, 1)
    page = first.get(f"/t/{link.token}/")
    assert page.status_code == 200 and "Save hand 1" in page.content.decode()
    # The round's four hands (a shorter card is the referee's to confirm, with a reason).
    for number in (1, 2, 3, 4):
        response = first.post(f"/t/{link.token}/hands/", _hand(card, number))
        assert response.status_code == 302, response.content.decode()[:3000]
    card.refresh_from_db()
    assert card.hands.count() == 4 and card.totals["1"] != 0
    hand = card.hands.get(number=1)
    assert (hand.entered_by, hand.entered_by_seat) == (None, 1)
    entry = AuditEntry.objects.filter(action="hand.create", table=link.table).first()
    assert (entry.actor_label, entry.via, entry.device) == ("#1 Ana1 Novak1", "table_link", "phone1")

    assert first.post(f"/t/{link.token}/submit/").status_code == 302
    card.refresh_from_db()
    assert (card.status, card.submitted_by_seat) == ("submitted", 1)
    # The seat that submitted cannot confirm alone ...
    first.post(f"/t/{link.token}/confirm/")
    card.refresh_from_db()
    assert card.status == "submitted"
    # ... nor can another seat chosen on the same phone (tests/tournaments/pages/test_second_phone.py)
    # ... but another seat on his own phone can.
    second = _phone(link, 3)
    assert second.post(f"/t/{link.token}/confirm/").status_code == 302
    card.refresh_from_db()
    assert (card.status, card.confirmed_by_seat) == ("confirmed", 3)
    # The card is the officials' now: the link shows it and writes nothing.
    after = first.post(f"/t/{link.token}/hands/", _hand(card, 5))
    assert after.status_code == 302
    card.refresh_from_db()
    assert card.hands.count() == 4 and card.status == "confirmed"


def test_a_token_writes_only_its_own_table(day):
    link1, link2 = day["links"][1], day["links"][2]
    phone = Client()
    # A start number of table 2 is not a seat of table 1.
    phone.post(f"/t/{link1.token}/seat/", {"seat": 5})
    assert phone.get(f"/t/{link1.token}/").content.decode().count("seat-button") == 4
    # Even a forged seat of table 1 cannot reach table 2's card: the services refuse it.
    seat = TableSeat(table_id=link1.table_id, event_id=day["event"].pk, start_number=1, name="x")
    with pytest.raises(Forbidden):
        services.hand_save(scorecard=_card(link2), number=1, record={
            "game": "trojka", "declarer": "5", "resting": "8", "points": 40}, actor=seat,
            expected_version=None)
    assert _card(link2).hands.count() == 0


def test_a_token_of_a_closed_round_writes_nothing(day):
    link = day["links"][1]
    phone = _phone(link, 2)
    card = _card(link)
    hand = _hand(card, 1)
    for other in Scorecard.objects.filter(table__round=day["round"]):
        services.scorecard_annul(scorecard=other, actor=day["organiser"], reason="not played")
    round_jobs.round_close(rnd=day["round"], actor=day["organiser"])
    page = phone.get(f"/t/{link.token}/").content.decode()
    assert 'id="hand-form"' not in page  # read-only
    phone.post(f"/t/{link.token}/hands/", hand)
    phone.post(f"/t/{link.token}/submit/")
    card.refresh_from_db()
    assert card.hands.count() == 0 and card.status == "annulled"


def test_a_revoked_token_is_gone_and_the_new_one_works(day):
    link = day["links"][1]
    phone = _phone(link, 1)
    new = table_links.link_revoke(table=link.table, actor=day["organiser"])
    assert phone.get(f"/t/{link.token}/").status_code == 404
    assert phone.post(f"/t/{link.token}/hands/", _hand(_card(link), 1)).status_code == 404
    assert Client().post("/t/", {"code": link.code}).status_code == 404
    assert new.token != link.token and new.code != link.code
    found = Client().post("/t/", {"code": table_links.display_code(new.code).lower()})
    assert found.status_code == 302 and found["Location"] == f"/t/{new.token}/"
    assert AuditEntry.objects.filter(action="table_link.reissue").exists()


def test_a_draft_round_has_no_table_link_for_players(day):
    rnd = services.round_store(event=day["event"], number=2, seating_system="points", seed=2,
                               tables=[["1", "5", "2", "6"], ["3", "7", "4", "8"]],
                               actor=day["organiser"])
    link = TableLink.objects.get(table__round=rnd, table__number=1, revoked_at__isnull=True)
    assert Client().get(f"/t/{link.token}/").status_code == 404


def test_guessing_tokens_and_codes_is_slowed_to_a_stop(day, settings):
    cache.clear()
    guesser = Client()
    guesser.cookies[DEVICE_COOKIE] = "guesser"
    for n in range(settings.TABLE_CODE_DEVICE_MISSES):
        assert guesser.get(f"/t/guess-{n}/").status_code == 404
    assert guesser.get("/t/guess-last/").status_code == 429
    assert guesser.post("/t/", {"code": "ABCD-EFGH"}).status_code == 429
    # A right token still opens its table: at a venue every phone may share one address.
    assert guesser.get(f"/t/{day['links'][1].token}/").status_code == 200


def test_two_phones_entering_the_same_hand_keep_one_and_tell_the_other(day):
    link = day["links"][2]
    card = _card(link)
    first, second = _phone(link, 5), _phone(link, 6)
    # Both phones read the card at version 1 and enter "hand 1".
    mine, theirs = _hand(card, 1, points=45), _hand(card, 1, points=36)
    assert first.post(f"/t/{link.token}/hands/", mine).status_code == 302
    response = second.post(f"/t/{link.token}/hands/", theirs)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Another phone of this table saved hand 1 meanwhile" in page
    # The second phone's entry is kept in the form, now as hand 2 at the current version.
    assert 'name="number" value="2"' in page and 'value="36"' in page
    card.refresh_from_db()
    assert card.hands.count() == 1 and card.hands.get().record["points"] == 45


# --- Whole numbers posted by a phone (issue #29) -------------------------------------------

BAD_NUMBERS = ["²", "١٢", "１２", "-1", "1e3", "9" * 30]


@pytest.mark.parametrize("raw", BAD_NUMBERS)
def test_a_seat_that_is_no_number_is_asked_for_again(raw, day):
    link = day["links"][1]
    phone = Client()
    response = phone.post(f"/t/{link.token}/seat/", {"seat": raw})
    assert response.status_code == 302 and response["Location"].endswith("?seat=change")
    assert "seat-button" in phone.get(f"/t/{link.token}/").content.decode()
    assert phone.post(f"/t/{link.token}/seat/", {"seat": "3"})["Location"] == f"/t/{link.token}/"
    assert 'id="hand-form"' in phone.get(f"/t/{link.token}/").content.decode()


@pytest.mark.parametrize("raw", BAD_NUMBERS)
def test_a_hand_delete_with_a_version_that_is_no_number_is_refused_in_words(raw, day):
    link = day["links"][1]
    card = _card(link)
    phone = _phone(link, 1)
    for number in (1, 2):
        assert phone.post(f"/t/{link.token}/hands/", _hand(card, number)).status_code == 302
    # Refused as on the officials' page: not silently taken for "no version".
    refused = phone.post(f"/t/{link.token}/hands/2/delete/", {"version": raw}, follow=True)
    assert "The version of the scorecard must be a whole number." in refused.content.decode()
    assert list(card.hands.values_list("number", flat=True)) == [1, 2]
    phone.post(f"/t/{link.token}/hands/2/delete/")  # no version: nothing to check against
    assert list(card.hands.values_list("number", flat=True)) == [1]
    # An ASCII version is checked: an old one is refused, the current one deletes.
    card.refresh_from_db()
    phone.post(f"/t/{link.token}/hands/1/delete/", {"version": str(card.version - 1)})
    assert card.hands.count() == 1
    phone.post(f"/t/{link.token}/hands/1/delete/", {"version": str(card.version)})
    assert card.hands.count() == 0


@pytest.fixture
def money_day():
    """A four-player money-sheet event (GP Vysočiny) with round 1 published and its link."""
    organiser = allow_event_creation(make_user("kasa"))
    event = services.event_create(
        actor=organiser, name="GP", slug="gp", starts_on=dt.date(2026, 10, 31),
        ends_on=dt.date(2026, 10, 31), ruleset_code="gp-vysociny-2004", ruleset_mode="four",
        seating_system="fixed", stake_haler=2000)
    for n in range(1, 5):
        player = services.player_create(first_name=f"P{n}", last_name="Czech")
        services.registration_create(event=event, player=player, actor=organiser)
    rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=0,
                               tables=[["1", "2", "3", "4"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    return table_links.links_ensure(rnd=rnd)[1]


def _money(version: str, first: str = "45", last: str = "10") -> dict[str, str]:
    return {"version": version, "bought-1": "0", "money-1": first, "bought-2": "10",
            "money-2": "15", "bought-3": "0", "money-3": "20", "bought-4": "0", "money-4": last}


@pytest.mark.parametrize("raw", BAD_NUMBERS)
def test_a_money_sheet_with_a_version_that_is_no_number_is_refused_in_words(raw, money_day):
    link = money_day
    card = _card(link)
    phone = _phone(link, 1)
    refused = phone.post(f"/t/{link.token}/money/", _money(raw))
    assert refused.status_code == 400
    assert "The version of the scorecard must be a whole number." in refused.content.decode()
    assert card.money_rows.count() == 0
    assert phone.post(f"/t/{link.token}/money/", _money("")).status_code == 302
    card.refresh_from_db()
    assert card.money_rows.count() == 4 and card.totals["1"] == 2500
    # An ASCII version is checked: an old one is refused, the current one saves.
    phone.post(f"/t/{link.token}/money/", _money(str(card.version - 1), first="50", last="5"))
    card.refresh_from_db()
    assert card.totals["1"] == 2500
    phone.post(f"/t/{link.token}/money/", _money(str(card.version), first="50", last="5"))
    card.refresh_from_db()
    assert card.totals["1"] == 3000
