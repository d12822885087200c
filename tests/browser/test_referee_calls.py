"""Calling the referee from the table (issue #33), in the browser: a phone on the table link
calls the referee with a hand and a note; the referee's desk, open before the call, shows it
in its queue within a few seconds without a reload; the referee takes it, records a penalty
from it, and the resolved call links to that penalty; the phone sees who took its call. An
organiser's notice to the hall appears on the projector and, without a reload, on a table
link."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model

from sample_data.factories import allow_event_creation
from tests.browser.helpers import PASSWORD, login
from tournaments import services
from tournaments.models import Event, RefereeCall, Registration
from tournaments.services import table_links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The desk asks for its queue every 4 s, the phone for its call every 8 s.
FEW_SECONDS = 10_000


def _event_with_a_published_round() -> tuple[Event, dict]:
    users = get_user_model()
    organiser = allow_event_creation(users.objects.create_user("org", password=PASSWORD))
    referee = users.objects.create_user("ref", password=PASSWORD, first_name="Rok",
                                        last_name="Sodnik")
    event = services.event_create(
        actor=organiser, name="Call Cup", slug="call-cup", starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
        seating_system="points", planned_rounds=2, hands_per_round=4, is_public=True,
        status=Event.Status.RUNNING)
    event.referees.add(referee)
    for name in ["Janez Novak", "Marija Horvat", "Franc Kovačič", "Ana Krajnc"]:
        first, last = name.split()
        services.registration_add(event=event, actor=organiser, first_name=first, last_name=last,
                                  status=Registration.Status.CHECKED_IN)
    rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=0,
                               tables=[["1", "2", "3", "4"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    return event, table_links.links_ensure(rnd=rnd)


def test_a_phone_calls_the_referee_who_sees_it_live_and_links_the_penalty(live_server, new_page):
    event, links = _event_with_a_published_round()
    base = live_server.url
    link = links[1]

    # The referee's desk is open before anybody calls.
    desk = new_page()
    login(desk, base, "ref")
    desk.goto(f"{base}/referee/e/{event.slug}/")
    assert "No table is calling." in desk.locator("#calls").inner_text()

    # A player's phone on the table link: his seat, then the call with a hand and a note.
    phone = new_page(360, 780)
    phone.goto(f"{base}/t/{link.token}/")
    phone.locator("button.seat-button", has_text="Marija Horvat").click()
    phone.wait_for_load_state()
    phone.locator("details.call-referee summary").click()
    phone.locator("select[name='call-hand_number']").select_option("2")
    phone.locator("input[name='call-note']").fill("Revoke in hand 2?")
    phone_url = phone.url
    phone.locator("#call-form button[type=submit]").click()
    # htmx swaps the answer in: the phone stays on its page and says the referee is called.
    phone.locator("#call-state", has_text="The referee is called").wait_for()
    assert phone.url == phone_url
    call = RefereeCall.objects.get()
    assert (call.hand_number, call.note) == (2, "Revoke in hand 2?")

    # The desk's queue shows the call within a few seconds, without a reload.
    row = desk.locator(f"#call-{call.pk}")
    row.wait_for(timeout=FEW_SECONDS)
    text = row.inner_text()
    assert "Table 1, round 1" in text and "hand 2" in text and "Revoke in hand 2?" in text
    assert "waiting" in text and "nobody has taken it yet" in text
    # Both pages with the call on them pass the accessibility walk's rules.
    _no_axe_violations(desk, phone)

    # The referee takes it and lands on the table's page, which carries the call.
    with desk.expect_navigation():
        row.locator("button", has_text="Take").click()
    assert re.search(rf"/rounds/1/tables/1/\?call={call.pk}&hand=2$", desk.url)
    assert "You answer call" in desk.locator("#from-call").inner_text()

    # The phone learns who is coming, by itself.
    phone.locator("#call-state", has_text="Rok Sodnik has taken your call").wait_for(
        timeout=FEW_SECONDS)

    # A penalty recorded from the call (for the whole table: no hand is entered yet).
    form = desk.locator("#penalty-form")
    form.locator("select[name=kind]").select_option("renons")
    form.locator("select[name=player]").select_option("2")
    form.locator("select[name=hand_number]").select_option("")
    form.locator("textarea[name=description]").fill("revoke, seen by the referee")
    with desk.expect_navigation():
        form.locator("button[type=submit]").click()
    call.refresh_from_db()
    assert call.resolved_at is not None and call.penalty is not None
    assert call.penalty.registration.start_number == 2

    # Back on the desk, the queue is empty and the resolved call links to its penalty.
    desk.goto(f"{base}/referee/e/{event.slug}/")
    assert "No table is calling." in desk.locator("#calls").inner_text()
    outcome = desk.locator(f"#call-{call.pk} a.outcome")
    assert "Marija Horvat" in outcome.inner_text()
    with desk.expect_navigation():
        outcome.click()
    assert desk.url.endswith("/rounds/1/tables/1/#penalties")
    assert "revoke, seen by the referee" in desk.content()

    # The table may call again once its call is resolved.
    phone.locator("details.call-referee").wait_for(timeout=FEW_SECONDS)


def test_a_notice_appears_on_the_projector_and_on_a_table_link(live_server, new_page):
    event, links = _event_with_a_published_round()
    base = live_server.url
    link = links[1]
    phone = new_page(360, 780)
    phone.goto(f"{base}/t/{link.token}/")
    phone.locator("button.seat-button").first.click()
    phone.wait_for_load_state()
    assert phone.locator(".hall-notice").count() == 0

    organiser = new_page()
    login(organiser, base, "org")
    organiser.goto(f"{base}/referee/e/{event.slug}/")
    organiser.locator("#notice-form input[name=text]").fill("Lunch is served at 13:00")
    with organiser.expect_navigation():
        organiser.locator("#notice-form button[type=submit]").click()
    assert "Lunch is served at 13:00" in organiser.locator("#notices + ul").inner_text()

    projector = new_page()
    projector.goto(f"{base}/e/{event.slug}/projector/")
    assert "Lunch is served at 13:00" in projector.locator(".hall-notice").inner_text()

    # The phone, open since before the notice, shows it without a reload.
    phone.locator(".hall-notice", has_text="Lunch is served at 13:00").wait_for(
        timeout=FEW_SECONDS)
    _no_axe_violations(phone)
    # On the projector, the notice itself (the rest of the screen is the projector's own walk).
    found = Axe().run(projector, context=".hall-notices").response["violations"]
    assert not found, found


def _no_axe_violations(*pages) -> None:
    axe = Axe()
    found = [f"{page.url}: {v['id']} ({v['impact']}): {v['help']}"
             for page in pages for v in axe.run(page).response["violations"]]
    assert not found, "\n".join(found)
