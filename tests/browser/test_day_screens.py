"""The pages of the day as the documentation shows them, checked in Chromium: the organiser's
round page (table states, codes and the close button that asks first), the projector, the
league page (it opens on the running season) and the cup page (results that do not count are
struck through). With SAVE_SCREENSHOTS=1 the pictures in docs/screenshots/ are taken anew."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.browser.helpers import save_screenshot
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_round_projector_league_and_cup_pages(live_server, new_page):
    call_command("seed_demo", verbosity=0)
    base = live_server.url
    page = new_page(width=1280, height=900)
    # The demo's organiser, as the README gives him.
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", "organiser")
    page.click("form button.primary")
    page.wait_for_load_state()

    rnd = Round.objects.filter(event__slug="demo-slovenian", status__in=["published", "playing"]
                               ).order_by("number").first()
    page.goto(f"{base}/manage/e/demo-slovenian/rounds/{rnd.number}/")
    tables = page.locator("article.table-card")
    assert tables.count() == rnd.tables.count()
    assert page.locator("form[data-confirm*='Close round']").count() == 1
    save_screenshot(page, "round-page", full_page=True)

    page.goto(f"{base}/e/demo-slovenian/projector/")
    assert page.locator("table").first.is_visible()
    save_screenshot(page, "projector")

    page.goto(f"{base}/leagues/demo-league/")
    heading = page.locator("main h1, main h2").all_inner_texts()
    assert any("2026/27" in h or "2025/26" in h for h in heading), heading
    assert page.locator("table").count() >= 1
    save_screenshot(page, "league", full_page=True)

    page.goto(f"{base}/cups/demo-cup/")
    struck = page.locator("s.dropped")
    assert struck.count() >= 1
    # A dropped result is drawn struck through and dimmed, not only marked in the markup.
    style = struck.first.evaluate("el => [getComputedStyle(el).textDecorationLine, getComputedStyle(el).opacity]")
    assert "line-through" in style[0] and float(style[1]) < 1, style
    save_screenshot(page, "cup", full_page=True)


def test_the_projector_pages_through_the_field_without_scrolling(live_server, new_page):
    """Issue #33: 24 players at 1280×900 do not fit one screen; the projector shows as many as
    fit, says which page it shows in words, turns the page by itself, and an htmx refresh
    keeps the page on screen."""
    call_command("seed_demo", verbosity=0)
    page = new_page(width=1280, height=900)
    page.goto(f"{live_server.url}/e/demo-slovenian/projector/")
    rows = page.locator("table.standings tbody tr:visible")
    said = page.locator(".page-of")
    # Any refresh that htmx swaps in: what the page said right after it.
    page.evaluate("""document.body.addEventListener("htmx:afterSwap", () => {
        window.saidAfterRefresh = document.querySelector(".page-of").textContent; })""")
    height = page.evaluate("[document.documentElement.scrollHeight, window.innerHeight]")
    assert height[0] <= height[1], height
    assert 3 <= rows.count() < 24
    first_page = rows.all_inner_texts()
    shown = rows.count()
    assert said.inner_text() == f"Page 1 of 2, places 1–{shown} of 24"
    assert first_page[0].startswith("1.")
    # About ten seconds on, the rest of the field, still without a scrollbar.
    page.wait_for_function("() => document.querySelector('.page-of').textContent.startsWith('Page 2')",
                           timeout=12000)
    assert said.inner_text() == f"Page 2 of 2, places {shown + 1}–24 of 24"
    assert rows.count() == 24 - shown and not set(rows.all_inner_texts()) & set(first_page)
    height = page.evaluate("[document.documentElement.scrollHeight, window.innerHeight]")
    assert height[0] <= height[1], height
    # The refresh every 15 s replaces the screen's content: the second page stays on.
    page.wait_for_function("() => window.saidAfterRefresh !== undefined", timeout=12000)
    assert page.evaluate("window.saidAfterRefresh") == f"Page 2 of 2, places {shown + 1}–24 of 24"
