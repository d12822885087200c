"""Steps the browser tests share: logging in, seating and publishing a round from the event
page, entering a hand in the table form the way a player does it (choose the game first, then
the fields it shows), and keeping a screenshot for the documentation."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

PASSWORD = "browser-pass-123"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def login(page, base: str, username: str, password: str = PASSWORD) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form button.primary")
    page.wait_for_load_state()
    assert "/accounts/login/" not in page.url, page.content()[:2000]


def enter_hand(page, hand: dict[str, Any], *, wait_preview: bool = False) -> None:
    """Fill the hand form on the table page and save it."""
    form = page.locator("form.hand-form")
    form.locator("select[name=game]").select_option(hand["game"])
    if "declarer" in hand:
        form.locator("select[name=declarer]").select_option(hand["declarer"])
    if "points" in hand:
        form.locator("input[name=points]").fill(str(hand["points"]))
    for pid, points in (hand.get("points_by_player") or {}).items():
        form.locator(f"input[name='pbp-{pid}']").fill(str(points))
    for row, contra in enumerate(hand.get("contras") or []):
        form.locator(f"select[name='con-{row}-on']").select_option(contra["on"])
        form.locator(f"select[name='con-{row}-by']").select_option(contra["by"])
        form.locator(f"select[name='con-{row}-level']").select_option(str(contra["level"]))
    if wait_preview:
        # The engine checks the hand as it is typed (htmx) and previews its scores.
        page.locator("#hand-feedback .preview").wait_for()
    with page.expect_navigation():
        form.locator("button[type=submit]").click()


def seat_and_publish(page, base: str, slug: str, number: int, *, clock: bool = True) -> None:
    """Seat round `number` from the event page, wait for the background job, publish the
    preview and (when asked) start the round clock."""
    page.goto(f"{base}/manage/e/{slug}/")
    page.click(f"text=Seat round {number}")
    # The job page polls the job (htmx) and moves to the preview when the seating is stored.
    page.wait_for_url(re.compile(rf"/manage/e/{slug}/(jobs/\d+|rounds/{number})/$"))
    if "/jobs/" in page.url:
        page.wait_for_url(re.compile(rf"/rounds/{number}/$"))
    assert "Publish the round" in page.content()
    page.click("text=Publish the round")
    page.wait_for_load_state()
    if clock:
        page.click("text=Start the clock")
        page.wait_for_load_state()
        assert page.locator(".clock .clock-time").count() == 1


def save_screenshot(page, name: str, *, full_page: bool = False, scroll_to: str = "") -> None:
    """docs/screenshots/<name>.png, only when SAVE_SCREENSHOTS=1 (so that a test run in CI
    never rewrites the committed pictures). `scroll_to`: a selector brought to the top of
    the window first."""
    if os.environ.get("SAVE_SCREENSHOTS") != "1":
        return
    if scroll_to:
        page.locator(scroll_to).first.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)
