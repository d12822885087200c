"""A cup organiser builds a cup series of three tournaments and a final in a browser, through
pages only: the series created, its points table typed in, best 2 results plus the final, the
tournaments added from those he organises (another organiser's is not offered); the ranking
on the page is checked against totals computed here by hand. The four tournaments were
played beforehand (as the tournament-day tests play them)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from leagues.models import CupSeries
from sample_data.factories import UserFactory, allow_event_creation
from tests.browser.helpers import PASSWORD, login, save_screenshot
from tests.leagues.helpers import make_players, single_table_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_cup_series_is_built_through_pages_and_ranks_by_hand_computed_totals(live_server, new_page):
    base = live_server.url
    organiser = get_user_model().objects.create_user("cup", password=PASSWORD)
    organiser.user_permissions.add(Permission.objects.get(codename="add_event"))
    referee = UserFactory(username="cup-referee")
    stranger = allow_event_creation(UserFactory(username="cup-stranger"))
    a, b, c, d = make_players(4, "Cup")
    # The places of each tournament, first place first.
    single_table_event("cup-t1", [a, b, c, d], organiser, referee)
    single_table_event("cup-t2", [b, c, a, d], organiser, referee)
    single_table_event("cup-t3", [c, a, d, b], organiser, referee)
    single_table_event("cup-final", [d, a, b, c], organiser, referee)
    single_table_event("not-mine", [a, b, c, d], stranger, referee)

    page = new_page(1280, 900)
    login(page, base, "cup")
    page.goto(f"{base}/manage/")
    page.click("text=Create a cup series")
    page.fill("input[name=name]", "Pokal")
    page.fill("input[name=best_results_counted]", "2")
    page.uncheck("input[name=seed_points]")
    page.click("form.form-grid button.primary")
    page.wait_for_url(re.compile(r"/manage/cups/pokal/$"))
    series = CupSeries.objects.get(slug="pokal")

    page.fill("textarea[name=table]", "1 10\n2 7\n3 5\n4 3")
    with page.expect_navigation():
        page.click("button:has-text('Save the points table')")
    assert "Points table saved." in page.content()
    offered = page.locator("select[name=event] option").evaluate_all("os => os.map(o => o.value)")
    assert sorted(offered) == ["cup-final", "cup-t1", "cup-t2", "cup-t3"]
    for slug in ("cup-t1", "cup-t2", "cup-t3", "cup-final"):
        page.select_option("select[name=event]", slug)
        if slug == "cup-final":
            page.check("input[name=is_final]")
        with page.expect_navigation():
            page.click("button:has-text('Add the tournament')")
    assert [(i.event.slug, i.is_final) for i in series.series_events.order_by("order")] == [
        ("cup-t1", False), ("cup-t2", False), ("cup-t3", False), ("cup-final", True)]
    save_screenshot(page, "cup-organiser", full_page=True)

    # By hand: points 10, 7, 5, 3 for places 1-4; the best 2 of the three tournaments plus
    # the final. A: 10+7 (+5 dropped) + 7 = 24; B: 10+7 (+3) + 5 = 22; C: 10+7 (+5) + 3 = 20;
    # D: 5+3 (+3) + 10 = 18.
    rows = page.locator("#cup-ranking table.ranking tbody tr").evaluate_all(
        "rs => rs.map(r => [r.cells[1].textContent.trim(), Number(r.cells[2].textContent)])")
    assert rows == [[str(a), 24], [str(b), 22], [str(c), 20], [str(d), 18]]
    page.goto(f"{base}/cups/pokal/")
    assert "24" in page.content()
