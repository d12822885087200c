"""Steps the browser tests share: logging in, and entering a hand in the table form the way a
player does it (choose the game first, then the fields it shows)."""

from __future__ import annotations

from typing import Any

PASSWORD = "browser-pass-123"


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
