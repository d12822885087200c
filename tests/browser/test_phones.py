"""Every public page of the demo fits a phone: at 360 × 800 no page scrolls sideways (a wide
table scrolls inside its own box). The pages are found as a visitor finds them, by following
the links from the event list; a table's phone page (the table link) is visited too."""

from __future__ import annotations

from urllib.parse import urljoin, urlparse

import pytest
from django.core.management import call_command

from tournaments.models import Round, TableLink

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOT_PUBLIC = ("/manage", "/referee", "/admin", "/api", "/accounts", "/i18n", "/static",
              "/healthz", "/welcome")
# Enough to reach every kind of page of the demo (events, rounds, tables, players, leagues,
# seasons, cups); the players' pages beyond are alike.
LIMIT = 140


def _overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_every_public_page_of_the_demo_fits_360_pixels(live_server, new_page):
    call_command("seed_demo", verbosity=0)
    page = new_page(width=360, height=800)
    base = live_server.url
    host = urlparse(base).netloc
    seen: set[str] = set()
    queue = ["/"]
    too_wide: list[str] = []
    kinds: set[str] = set()
    while queue and len(seen) < LIMIT:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        response = page.goto(base + path)
        if response is None or response.status != 200 or "html" not in response.headers.get("content-type", ""):
            continue
        kinds.add(path.strip("/").split("/")[0] or "home")
        if _overflow(page) > 0:
            too_wide.append(f"{path} (+{_overflow(page)} px)")
        # Links to files (download) are not pages.
        for href in page.eval_on_selector_all("a[href]:not([download])", "els => els.map(e => e.getAttribute('href'))"):
            url = urlparse(urljoin(base + path, href))
            target = url.path + (f"?{url.query}" if url.query else "")
            if (url.netloc == host and not url.path.startswith(NOT_PUBLIC)
                    and not url.path.endswith((".pdf", ".csv")) and target not in seen
                    and target not in queue):
                queue.append(target)
    # The players' own page of a table: the seat choice, then the card with the hand form.
    rnd = Round.objects.filter(status__in=["published", "playing"]).order_by("pk").first()
    link = TableLink.objects.filter(table__round=rnd, revoked_at__isnull=True).first()
    page.goto(f"{base}/t/{link.token}/")
    too_wide += ["/t/ (seat)"] if _overflow(page) > 0 else []
    page.locator("button.seat-button").first.click()
    page.wait_for_load_state()
    too_wide += ["/t/ (card)"] if _overflow(page) > 0 else []
    page.goto(f"{base}/t/")
    too_wide += ["/t/ (code)"] if _overflow(page) > 0 else []

    assert {"home", "e", "players", "leagues", "cups"} <= kinds, kinds
    assert len(seen) >= 60, len(seen)
    assert not too_wide, too_wide


def test_the_standings_of_a_points_event_fit_a_phone_without_scrolling_their_box(live_server, new_page):
    """The standings are what every phone in the hall polls: at 360 px the whole row, score
    included, is on the screen (the wide table box would scroll, but it need not)."""
    call_command("seed_demo", verbosity=0)
    page = new_page(width=360, height=800)
    page.goto(f"{live_server.url}/e/demo-slovenian/standings/")
    box = page.locator(".scroll").first
    assert box.evaluate("el => el.scrollWidth - el.clientWidth") <= 0
    assert page.locator("table.standings tbody tr").first.locator("td").last.is_visible()
