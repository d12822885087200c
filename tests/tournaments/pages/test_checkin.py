"""The check-in desk (tournaments.pages.checkin, tournaments.services.checkin) and the
seating pool it feeds (issue #14, finding 1): check-in drops nobody without a word. A late
entry joins the field; one check-in does not drop the others unless the event seats the
checked-in only, and then the event page names who sits out and why; everybody is checked in
with one click, ticked players are withdrawn together or not at all, and bulk actions are the
organisers'."""

from __future__ import annotations

import re

from tests.tournaments.pages.support import client_for, make_user, registered_event, seat_round
from tournaments import selectors, services
from tournaments.models import AuditEntry, Event, Registration
from tournaments.services import checkin


def test_a_late_entry_joins_the_field_instead_of_replacing_it(db, django_capture_on_commit_callbacks):
    """The finding: one late entry made every other registration vanish from the round."""
    event, organiser = registered_event(11)
    services.registration_add(event=event, actor=organiser, first_name="Late", last_name="Comer",
                              status=Registration.Status.LATE_ENTRY)
    rnd = seat_round(event, organiser, django_capture_on_commit_callbacks)
    seated = {s.registration.start_number for t in rnd.tables.all() for s in t.seats.all()}
    assert seated == set(range(1, 13))

def test_one_check_in_does_not_drop_the_others_by_default(db):
    event, organiser = registered_event(8)
    reg = event.registrations.get(start_number=3)
    services.registration_set_status(registration=reg, status="checked_in", actor=organiser)
    seated, out = selectors.seating_pool(event)
    assert [r.start_number for r in seated] == list(range(1, 9)) and out == []

def test_with_check_in_required_the_event_page_names_who_sits_out_and_why(db):
    event, organiser = registered_event(8, seating_pool=Event.SeatingPool.CHECKED_IN)
    for n in (1, 2, 3, 4, 5):
        services.registration_set_status(registration=event.registrations.get(start_number=n),
                                         status="checked_in", actor=organiser)
    services.registration_set_status(registration=event.registrations.get(start_number=6),
                                     status="late_entry", actor=organiser)
    services.registration_set_status(registration=event.registrations.get(start_number=7),
                                     status="withdrawn", actor=organiser)
    seated, out = selectors.seating_pool(event)
    assert [r.start_number for r in seated] == [1, 2, 3, 4, 5, 6]
    assert [(r.start_number, why) for r, why in out] == [(7, "withdrawn"), (8, "not_checked_in")]
    page = client_for(organiser).get(f"/manage/e/{event.slug}/").content.decode()
    pool = page[page.index('id="seating-pool"'):]
    pool = pool[:pool.index("</div>")]
    assert "Round 1 seats 6 players." in pool and "2 sit out" in pool
    assert re.search(r"7\. \S+ \S+ – withdrawn", pool) and re.search(r"8\. \S+ \S+ – not checked in", pool)

def test_check_in_everybody_is_one_click_and_leaves_withdrawn_players_out(db):
    event, organiser = registered_event(12, seating_pool=Event.SeatingPool.CHECKED_IN)
    withdrawn = event.registrations.get(start_number=5)
    services.registration_set_status(registration=withdrawn, status="withdrawn", actor=organiser)
    response = client_for(organiser).post(f"/manage/e/{event.slug}/players/bulk/",
                                          {"action": "check_in_all"}, follow=True)
    assert "11 players checked in." in response.content.decode()
    statuses = dict(event.registrations.values_list("start_number", "status"))
    assert statuses.pop(5) == "withdrawn" and set(statuses.values()) == {"checked_in"}
    assert AuditEntry.objects.filter(event=event, action="registration.status").count() == 12

def test_ticked_players_are_withdrawn_together_or_not_at_all(db):
    event, organiser = registered_event(6)
    other, _ = registered_event(4, slug="other")
    ids = list(event.registrations.filter(start_number__in=(2, 3)).values_list("pk", flat=True))
    client = client_for(organiser)
    foreign = other.registrations.first().pk
    response = client.post(f"/manage/e/{event.slug}/players/bulk/",
                           {"action": "withdraw", "registration": [*ids, foreign]}, follow=True)
    assert "not registered in this event" in response.content.decode()
    assert not event.registrations.filter(status="withdrawn").exists()
    response = client.post(f"/manage/e/{event.slug}/players/bulk/",
                           {"action": "withdraw", "registration": ids}, follow=True)
    assert "2 players withdrawn." in response.content.decode()
    assert sorted(event.registrations.filter(status="withdrawn").values_list(
        "start_number", flat=True)) == [2, 3]

def test_bulk_check_in_is_the_organisers(db):
    event, _organiser = registered_event(4)
    referee = make_user("ref-desk")
    event.referees.add(referee)
    assert client_for(referee).post(f"/manage/e/{event.slug}/players/bulk/",
                                    {"action": "check_in_all"}).status_code == 403
    assert client_for(None).post(f"/manage/e/{event.slug}/players/bulk/",
                                 {"action": "check_in_all"}).status_code == 302
    assert not event.registrations.filter(status="checked_in").exists()
    try:
        checkin.registrations_bulk_status(event=event, action="check_in_all", actor=referee)
    except Exception as exc:  # noqa: BLE001 - the rights module's refusal
        assert exc.__class__.__name__ == "Forbidden"
    else:
        raise AssertionError("a referee checked players in")
