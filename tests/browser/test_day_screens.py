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
