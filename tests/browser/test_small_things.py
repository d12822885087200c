"""Small things of the tournament day in a browser (issue #33): the organiser's players heading
follows a withdrawal made in its row (htmx) without a reload; on a 360 px phone the table
link's totals show each player's whole name (wrapped, never cut), and in klop, which all four
play in TRI + 1, the hand form names the talon instead of a resting player."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.helpers import PASSWORD, login
from tests.tournaments.pages.support import make_event
from tournaments import services
from tournaments.models import Player, Round
from tournaments.services import round_jobs, table_links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAMES = [("Maximilian-Alexander", "Oberhuber-Zupančič"), ("Boštjan", "Hribar"),
              ("Jože", "Zupančič"), ("Rok", "Oblak")]


def _published_round(event, organiser) -> Round:
    job = round_jobs.round_generation_queue(event=event, actor=organiser)
    job.refresh_from_db()
    if job.status != job.Status.DONE:
        round_jobs.round_generate(job.pk)
    return services.round_publish(rnd=event.rounds.get(number=1), actor=organiser)


def test_the_players_heading_counts_a_withdrawal_without_a_reload(live_server, new_page):
    organiser = get_user_model().objects.create_user("org-count", password=PASSWORD)
    make_event(organiser, slug="count-day", players=5)
    base = live_server.url
    page = new_page(1280, 900)
    login(page, base, "org-count")
    page.goto(f"{base}/manage/e/count-day/players/")
    heading = page.locator("h1 #players-count")
    assert heading.inner_text() == "5 playing"
    row = page.locator("table.players tbody tr").last
    row.locator("button[value=withdrawn]").click()
    page.locator("table.players tbody tr.status-withdrawn").wait_for()
    assert page.confirms and page.confirms[-1].startswith("Withdraw ")
    expect(heading).to_have_text("4 playing")
    assert page.locator("#players-count").count() == 1
    page.locator("table.players tbody tr.status-withdrawn button[value=registered]").click()
    expect(heading).to_have_text("5 playing")


def test_a_phone_shows_whole_names_in_the_totals_and_the_talon_in_klop(live_server, new_page):
    organiser = get_user_model().objects.create_user("org-chips", password=PASSWORD)
    event = make_event(organiser, slug="chips-day", players=4)
    for reg, (first, last) in zip(event.registrations.order_by("start_number"), LONG_NAMES,
                                  strict=True):
        Player.objects.filter(pk=reg.player_id).update(first_name=first, last_name=last)
    rnd = _published_round(event, organiser)
    table = rnd.tables.get()
    link = table_links.links_ensure(rnd=rnd, actor=organiser)[table.number]

    page = new_page(360, 800)
    page.goto(f"{live_server.url}/t/{link.token}/")
    page.locator("button.seat-button").first.click()
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    names = page.locator(".totals-grid .name")
    assert names.count() == 4
    shown = set()
    for i in range(4):
        name = names.nth(i)
        # Nothing is cut: the box holds its whole text, which is the whole name.
        assert name.evaluate("el => el.closest('li').scrollWidth <= el.closest('li').clientWidth"), i
        assert name.evaluate("""el => { const box = el.getBoundingClientRect(),
            li = el.closest('li').getBoundingClientRect();
            return box.left >= li.left && box.right <= li.right; }"""), i
        text = name.inner_text().replace("\n", " ")
        shown.add(text)
        assert name.get_attribute("title") == text
    assert shown == {f"{first} {last}" for first, last in LONG_NAMES}

    form = page.locator("form.hand-form")
    summary = form.locator("details.more summary").first
    note = form.locator(".rest-note")
    assert summary.inner_text().startswith("Resting:") and "rests this hand" in note.inner_text()
    form.locator(".chip[data-value=klop]").click()
    assert summary.inner_text().startswith("Talon:")
    assert "is the talon this hand" in note.inner_text() and "rests" not in note.inner_text()
    resting = form.locator("select[name=resting]").input_value()
    assert resting
    # The talon is still posted: the klop hand is saved with him (he gives no kontra, §3.8).
    for pid, points in zip(table.scorecard.player_ids, (20, 20, 20, 10), strict=True):
        form.locator(f"input[name='pbp-{pid}']").fill(str(points))
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    hand = table.scorecard.hands.get(number=1)
    assert hand.record["game"] == "klop" and hand.record["resting"] == resting
    form = page.locator("form.hand-form")
    # The chip's change asks the server to check the hand (hx-trigger "change"): the test waits
    # for that answer, or the database is emptied under the live server's request at teardown.
    with page.expect_response(lambda response: "/validate/" in response.url):
        form.locator(".chip[data-value=trojka]").click()
    assert form.locator("details.more summary").first.inner_text().startswith("Resting:")
