"""A referee records a renons from the browser and the standings change; a player finds his
table by name and by start number on the seating page, live as he types."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from sample_data.factories import allow_event_creation
from tests.browser.helpers import PASSWORD, login
from tournaments import services
from tournaments.models import AuditEntry, Event, Registration
from tournaments.services import round_jobs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _event_with_a_played_round(*, confirmed: bool = True) -> tuple[Event, object, object]:
    users = get_user_model()
    organiser = allow_event_creation(users.objects.create_user("org", password=PASSWORD))
    referee = users.objects.create_user("ref", password=PASSWORD)
    event = services.event_create(
        actor=organiser, name="Referee Cup", slug="referee-cup", starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
        seating_system="points", planned_rounds=2, hands_per_round=4, status=Event.Status.RUNNING)
    event.referees.add(referee)
    names = ["Janez Novak", "Marija Horvat", "Franc Kovačič", "Ana Krajnc", "Jože Zupančič",
             "Maja Potočnik", "Marko Kovač", "Irena Mlakar"]
    for name in names:
        first, last = name.split()
        services.registration_add(event=event, actor=organiser, first_name=first, last_name=last,
                                  status=Registration.Status.CHECKED_IN)
    # The live server's transactions are real, so the queued job runs when they commit.
    job = round_jobs.round_generation_queue(event=event, actor=organiser)
    job.refresh_from_db()
    if job.status != job.Status.DONE:
        job = round_jobs.round_generate(job.pk)
    rnd = event.rounds.get(number=1)
    services.round_publish(rnd=rnd, actor=organiser)
    for table in rnd.tables.all():
        card = table.scorecard
        p = card.player_ids
        hands = [{"game": "trojka", "declarer": p[1], "points": 45, "resting": p[0]},
                 {"game": "dvojka", "declarer": p[2], "points": 40, "resting": p[1]}]
        for number, record in enumerate(hands, start=1):
            card.refresh_from_db()
            services.hand_save(scorecard=card, number=number, record=record, actor=organiser,
                               expected_version=card.version)
        services.scorecard_submit(scorecard=card, actor=organiser)
        if not confirmed:
            continue
        # Two hands where the round plays four: the referee confirms them with a reason.
        services.scorecard_confirm(scorecard=card, actor=referee,
                                   reason="two-hand test cards (fewer hands than the round plays)")
    return event, organiser, referee


def _standings_row(page, start_number: str) -> str:
    row = page.locator("table.standings tbody tr", has=page.locator(f"td.num:text-is('{start_number}')"))
    return row.inner_text()


def _record_renons(page, base: str, event: Event, declarer: str, description: str) -> None:
    """The referee, logged in, records a renons of `declarer` in hand 1 of table 1."""
    login(page, base, "ref")
    page.goto(f"{base}/referee/e/{event.slug}/rounds/1/tables/1/")
    form = page.locator("#penalty-form")
    form.locator("select[name=kind]").select_option("renons")
    form.locator("select[name=player]").select_option(declarer)
    form.locator("select[name=hand_number]").select_option("1")
    form.locator("textarea[name=description]").fill(description)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()


def test_a_referee_records_a_renons_and_the_standings_change(live_server, new_page):
    event, _organiser, _referee = _event_with_a_played_round()
    card = event.rounds.get(number=1).tables.get(number=1).scorecard
    declarer = card.hands.get(number=1).record["declarer"]
    base = live_server.url

    public = new_page()
    public.goto(f"{base}/e/{event.slug}/standings/")
    before = _standings_row(public, declarer)

    page = new_page()
    _record_renons(page, base, event, declarer, "revoke in the 7th trick")
    assert "Penalty recorded and scored in hand 1" in page.content()
    # The scorecard shows the renons on the hand, and the history has the entry.
    assert f"renons {declarer}" in page.locator("#hand-1").inner_text()
    assert "penalty recorded" in page.content()  # the audit trail in words

    # The public standings refresh themselves (htmx polling) and show the new result.
    public.wait_for_function(
        "([sn, before]) => { const rows = [...document.querySelectorAll('table.standings tbody tr')];"
        " const row = rows.find(r => r.querySelectorAll('td')[1].innerText.trim() === sn);"
        " return row && row.innerText !== before; }", arg=[declarer, before], timeout=20000)
    assert _standings_row(public, declarer) != before


def test_a_referee_records_a_renons_on_a_submitted_card_and_confirms_it_alone(live_server, new_page):
    """Issue #33: the renons keeps the short card submitted, and the referee's own page offers
    its confirmation with a reason; nobody else is needed."""
    event, _organiser, referee = _event_with_a_played_round(confirmed=False)
    card = event.rounds.get(number=1).tables.get(number=1).scorecard
    declarer = card.hands.get(number=1).record["declarer"]
    base = live_server.url
    page = new_page(390, 844)  # the referee walks the room with his phone
    _record_renons(page, base, event, declarer, "")
    assert "The card stays submitted: confirm it below" in page.content()
    card.refresh_from_db()
    assert card.status == "submitted"
    confirm = page.locator("section.verification form", has=page.locator("textarea[name=reason]"))
    confirm.locator("textarea[name=reason]").fill("two hands played before the table was called off")
    confirm.locator("button[type=submit]").click()
    page.wait_for_load_state()
    assert page.url.startswith(f"{base}/referee/e/{event.slug}/rounds/1/tables/1/")
    assert "Scorecard confirmed" in page.content()
    card.refresh_from_db()
    assert (card.status, card.confirmed_by) == ("confirmed", referee)
    entry = AuditEntry.objects.get(action="scorecard.confirm", table=card.table)
    assert entry.reason == "two hands played before the table was called off"


def test_a_player_finds_his_table_by_name_and_by_start_number(live_server, new_page):
    event, _organiser, _referee = _event_with_a_played_round()
    reg = event.registrations.get(player__last_name="Potočnik")
    table = event.rounds.get(number=1).seats.get(registration=reg).table
    page = new_page(390, 844)  # a phone
    page.goto(f"{live_server.url}/e/{event.slug}/")
    page.fill("#find-q", "potočnik")
    page.click("form.find button")
    page.wait_for_load_state()
    found = page.locator(".table-card.found")
    assert found.count() == 1
    assert found.get_attribute("id") == f"table-{table.number}"
    assert "Maja Potočnik" in found.locator("li.me").inner_text()
    # Live search as he types: htmx swaps the seating without reloading the page.
    page.fill("#find-q", str(reg.start_number))
    page.locator(f".table-card.found#table-{table.number} li.me").wait_for()
    assert page.locator(".tables-grid .table-card").first.get_attribute("id") == f"table-{table.number}"
    page.fill("#find-q", "nobody-here")
    page.locator("text=Nobody matches").wait_for()
