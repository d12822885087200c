"""Calling the referee from the table and the notices to the hall (issue #33): a table's phone
calls with a hand and a short note; the desk's queue shows it, an official takes it and
resolves it, linked to the penalty, dispute or correction it led to; a stranger can neither
take nor resolve; a revoked link cannot call; a second call waits for the first; a note too
long is refused on its field. The organiser's notice shows on the projector and the table
links until withdrawn."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from sample_data.factories import allow_event_creation
from tests.tournaments.pages.support import client_for, make_user
from tournaments import services
from tournaments.domain.rights import TableSeat
from tournaments.errors import Conflict, Forbidden, ServiceError
from tournaments.models import Announcement, AuditEntry, RefereeCall, TableLink
from tournaments.pages.table_link import DEVICE_COOKIE
from tournaments.services import referee_calls, table_links

pytestmark = pytest.mark.django_db


@pytest.fixture
def day():
    """An 8-player TRI+1 event with round 1 published, its links issued, and a referee."""
    organiser = allow_event_creation(make_user("boss"))
    referee = make_user("ref")
    event = services.event_create(
        actor=organiser, name="Open", slug="open", starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
        seating_system="points", planned_rounds=2, hands_per_round=4, is_public=True)
    event.referees.add(referee)
    for n in range(1, 9):
        player = services.player_create(first_name=f"Ana{n}", last_name=f"Novak{n}", club="TK")
        services.registration_create(event=event, player=player, actor=organiser)
    rnd = services.round_store(event=event, number=1, seating_system="points", seed=1,
                               tables=[["1", "2", "3", "4"], ["5", "6", "7", "8"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    links = table_links.links_ensure(rnd=rnd)
    return {"event": event, "round": rnd, "organiser": organiser, "referee": referee,
            "links": links}


def _phone(link: TableLink, seat: int) -> Client:
    client = Client()
    client.cookies[DEVICE_COOKIE] = f"phone{seat}"
    assert client.post(f"/t/{link.token}/seat/", {"seat": seat}).status_code == 302
    return client


def _seat(link: TableLink, start_number: int = 1) -> TableSeat:
    return TableSeat(table_id=link.table_id, event_id=link.table.round.event_id,
                     start_number=start_number, name="Ana", device="phone")


def test_a_phone_calls_and_the_desk_sees_takes_and_links_the_penalty(day):
    link = day["links"][1]
    phone = _phone(link, 1)
    page = phone.get(f"/t/{link.token}/").content.decode()
    assert "Call the referee" in page
    response = phone.post(f"/t/{link.token}/call/", {"call-hand_number": "2",
                                                    "call-note": "renons by #3?"})
    assert response.status_code == 302
    call = RefereeCall.objects.get()
    assert (call.table, call.hand_number, call.note, call.called_by) == (
        link.table, 2, "renons by #3?", "#1 Ana1 Novak1")
    entry = AuditEntry.objects.get(action="referee_call.call")
    assert (entry.via, entry.device) == ("table_link", "phone1")
    # The table sees its call waiting, not the form a second time.
    page = phone.get(f"/t/{link.token}/").content.decode()
    assert "The referee is called" in page and 'id="call-form"' not in page
    assert "(waiting less than a minute)" in page and "0 minutes" not in page

    desk = client_for(day["referee"])
    queue = desk.get("/referee/e/open/calls/").content.decode()
    assert f'id="call-{call.pk}"' in queue and "renons by #3?" in queue and "Table 1, round 1" in queue
    taken = desk.post(f"/referee/e/open/calls/{call.pk}/take/")
    assert taken.status_code == 302 and taken["Location"].endswith(f"?call={call.pk}&hand=2")
    call.refresh_from_db()
    assert call.taken_by == day["referee"] and call.taken_at is not None
    # The phone now reads who is coming (htmx asks for the fragment).
    fragment = phone.get(f"/t/{link.token}/call/", HTTP_HX_REQUEST="true").content.decode()
    assert "ref has taken your call" in fragment

    table_page = desk.get(taken["Location"]).content.decode()
    assert f'name="call" value="{call.pk}"' in table_page
    recorded = desk.post(f"/referee/e/open/rounds/1/tables/{link.table.number}/penalty/", {
        "kind": "renons", "player": "3", "hand_number": "", "description": "revoke",
        "call": str(call.pk)})
    assert recorded.status_code == 302
    call.refresh_from_db()
    assert call.resolved_at is not None and call.penalty.kind == "renons"
    assert call.penalty.registration.start_number == 3
    queue = desk.get("/referee/e/open/calls/").content.decode()
    assert "No table is calling." in queue and 'class="outcome"' in queue
    # Resolved, the table may call again.
    assert 'id="call-form"' in phone.get(f"/t/{link.token}/").content.decode()


def test_a_second_call_waits_for_the_first(day):
    link = day["links"][1]
    phone = _phone(link, 1)
    assert phone.post(f"/t/{link.token}/call/", {"call-note": "help"}).status_code == 302
    other = _phone(link, 2)
    again = other.post(f"/t/{link.token}/call/", {"call-note": "help!"},
                       HTTP_HX_REQUEST="true")
    assert again.status_code == 200  # htmx swaps the answer: the form with its error
    assert RefereeCall.objects.count() == 1
    with pytest.raises(Conflict):
        referee_calls.referee_call(table=link.table, actor=_seat(link, 2), note="again")


def test_a_note_too_long_is_refused_on_its_field(day):
    link = day["links"][1]
    phone = _phone(link, 1)
    response = phone.post(f"/t/{link.token}/call/", {"call-note": "x" * 201})
    assert response.status_code == 400
    body = response.content.decode()
    assert 'id="err-call-note"' in body and "at most 200 characters" in body
    assert not RefereeCall.objects.exists()
    with pytest.raises(ServiceError) as refused:
        referee_calls.referee_call(table=link.table, actor=_seat(link), note="y" * 201)
    assert refused.value.errors[0]["field"] == "note"
    with pytest.raises(ServiceError) as refused:
        referee_calls.referee_call(table=link.table, actor=_seat(link), hand_number=9)
    assert refused.value.errors[0]["field"] == "hand_number"


def test_a_revoked_link_cannot_call(day):
    link = day["links"][1]
    phone = _phone(link, 1)
    table_links.link_revoke(table=link.table, actor=day["organiser"])
    assert phone.post(f"/t/{link.token}/call/", {"call-note": "help"}).status_code == 404
    assert not RefereeCall.objects.exists()


def test_a_seat_of_another_table_cannot_call_this_one(day):
    first, second = day["links"][1], day["links"][2]
    with pytest.raises(Forbidden):
        referee_calls.referee_call(table=first.table, actor=_seat(second, 5))


def test_a_stranger_can_neither_see_take_nor_resolve(day):
    link = day["links"][1]
    call = referee_calls.referee_call(table=link.table, actor=_seat(link))
    stranger = make_user("stranger")
    client = client_for(stranger)
    assert client.get("/referee/e/open/calls/").status_code == 403
    assert client.post(f"/referee/e/open/calls/{call.pk}/take/").status_code == 403
    assert client.post(f"/referee/e/open/calls/{call.pk}/", {"outcome": ""}).status_code == 403
    with pytest.raises(Forbidden):
        referee_calls.referee_call_take(call=call, actor=stranger)
    with pytest.raises(Forbidden):
        referee_calls.referee_call_resolve(call=call, actor=stranger)
    call.refresh_from_db()
    assert call.taken_by is None and call.resolved_at is None


def test_resolving_on_the_desk_links_a_dispute_or_a_correction(day):
    link = day["links"][1]
    call = referee_calls.referee_call(table=link.table, actor=_seat(link), note="wrong score")
    dispute = services.dispute_open(event=day["event"], table=link.table, actor=day["referee"],
                                    description="the score of hand 1")
    desk = client_for(day["referee"])
    page = desk.get(f"/referee/e/open/calls/{call.pk}/").content.decode()
    assert f'value="dispute:{dispute.pk}"' in page
    assert desk.post(f"/referee/e/open/calls/{call.pk}/",
                     {"outcome": f"dispute:{dispute.pk}"}).status_code == 302
    call.refresh_from_db()
    assert (call.dispute, call.resolved_by) == (dispute, day["referee"])
    # A resolved call is not resolved twice.
    with pytest.raises(Conflict):
        referee_calls.referee_call_resolve(call=call, actor=day["referee"])
    # Another call, resolved with a change made at the table since.
    second = referee_calls.referee_call(table=link.table, actor=_seat(link))
    change = AuditEntry.objects.filter(event=day["event"]).first()
    referee_calls.referee_call_resolve(call=second, actor=day["referee"], correction=change)
    assert RefereeCall.objects.get(pk=second.pk).correction == change


def test_a_notice_shows_on_the_projector_and_the_table_links_until_withdrawn(day):
    organiser = client_for(day["organiser"])
    posted = organiser.post("/referee/e/open/notices/", {"text": "Lunch at 13:00 in the hall"})
    assert posted.status_code == 302
    notice = Announcement.objects.get()
    assert AuditEntry.objects.filter(action="announcement.post").exists()
    assert "Lunch at 13:00" in Client().get("/e/open/projector/").content.decode()
    for link in day["links"].values():
        assert "Lunch at 13:00" in _phone(link, link.table.seats.first().registration.start_number
                                          ).get(f"/t/{link.token}/").content.decode()
    # A referee sees the notices but posts none.
    referee = client_for(day["referee"])
    assert referee.post("/referee/e/open/notices/", {"text": "no"}).status_code == 403
    too_long = organiser.post("/referee/e/open/notices/", {"text": "z" * 281})
    assert too_long.status_code == 400 and 'id="err-text"' in too_long.content.decode()
    assert organiser.post(f"/referee/e/open/notices/{notice.pk}/withdraw/").status_code == 302
    notice.refresh_from_db()
    assert notice.withdrawn_at is not None
    link = day["links"][1]
    assert "Lunch at 13:00" not in _phone(link, 1).get(f"/t/{link.token}/").content.decode()


def test_the_system_takes_and_resolves_a_call_without_an_account(day):
    # Management commands and background jobs act as `actor=None`, with every right.
    link = day["links"][1]
    call = referee_calls.referee_call(table=link.table, actor=_seat(link))
    referee_calls.referee_call_take(call=call, actor=None)
    referee_calls.referee_call_resolve(call=call, actor=None)
    call.refresh_from_db()
    assert call.taken_by is None and call.resolved_by is None and call.resolved_at is not None
