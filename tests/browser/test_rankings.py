"""The ranking list and a player's rating plot in a real browser: reached from the menu, the
list filtered by club through its form, a player's page with the plot, on a phone without
scrolling sideways; screenshots for the documentation."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from rankings.models import Rating
from tests.browser.helpers import save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_ranking_list_and_a_players_rating_plot(live_server, new_page):
    call_command("seed_demo", verbosity=0)
    base = live_server.url
    page = new_page()
    page.goto(base + "/")
    page.get_by_role("link", name="Rankings").click()
    page.wait_for_url("**/rankings/slovenian/")
    rows = page.locator("table.ranking tbody tr[data-player]")
    rated = Rating.objects.filter(family="slovenian").count()
    assert rated > 0 and rows.count() == rated
    assert page.locator("table.ranking tbody tr").first.locator("td.rank").inner_text() == "1."
    save_screenshot(page, "rankings")

    club = Rating.objects.filter(family="slovenian").select_related("player").first().player.club
    page.select_option("select[name=club]", club)
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**club=*")
    members = Rating.objects.filter(family="slovenian", player__club=club).count()
    assert rows.count() == members < rated

    page.get_by_role("link", name="Königrufen").click()
    page.wait_for_url("**/rankings/koenigrufen/")
    best = page.locator("table.ranking tbody tr[data-player]").first
    best.locator("a").click()
    page.wait_for_selector("section.player-ratings svg.rating-chart")
    assert page.locator("section.player-ratings table.rating-history tbody tr").count() >= 1
    save_screenshot(page, "player-rating", scroll_to="section.player-ratings")

    phone = new_page(width=360, height=800)
    for path in ("/rankings/slovenian/", "/rankings/koenigrufen/", page.url.replace(base, "")):
        phone.goto(base + path)
        assert phone.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0, path
    phone.goto(base + "/rankings/slovenian/")
    save_screenshot(phone, "rankings-phone")


def test_the_points_list_how_a_player_plays_and_an_events_statistics(live_server, new_page):
    """Issue #19: the points list, a player's statistics from his hands and an event's
    statistics page, reached by their tabs and links, fitting a phone."""
    call_command("seed_demo", verbosity=0)
    base = live_server.url
    page = new_page()
    page.goto(base + "/rankings/slovenian/")
    page.get_by_role("link", name="Points list").click()
    page.wait_for_url("**/rankings/slovenian/points/")
    rows = page.locator("table#points tbody tr")
    assert rows.count() >= 1 and rows.first.locator("td").first.inner_text() == "1."
    save_screenshot(page, "points-list")

    rows.first.locator("a").first.click()
    page.wait_for_selector("section.player-statistics table.hand-games tbody tr")
    assert page.locator("section.player-statistics svg").count() >= 1
    save_screenshot(page, "player-statistics", scroll_to="section.player-statistics")

    page.goto(base + "/e/demo-slovenian/")
    page.get_by_role("link", name="Statistics").first.click()
    page.wait_for_url("**/e/demo-slovenian/statistics/")
    assert page.locator("table.most-played tbody tr").count() >= 1
    assert page.locator("table.biggest-hands tbody tr").count() >= 1
    save_screenshot(page, "event-statistics")

    phone = new_page(width=360, height=800)
    for path in ("/rankings/slovenian/points/", "/e/demo-slovenian/statistics/"):
        phone.goto(base + path)
        assert phone.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0, path
