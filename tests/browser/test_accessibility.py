"""The accessibility walk: axe-core (bundled by axe-playwright-python) checks the pages a
visitor, a player on his phone and an organiser use, in Chromium at phone width, in Slovenian
and English, and finds no violation of its rules (WCAG 2 A/AA and best practices): labels,
contrast, landmarks, names of buttons and links, ARIA, the language of the page."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command

from tests.browser.helpers import login
from tournaments.models import PlayerLink, Round, TableLink

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _paths() -> tuple[list[str], list[str]]:
    rnd = Round.objects.filter(event__slug="demo-slovenian", status__in=["published", "playing"]).get()
    table = TableLink.objects.filter(table__round=rnd, revoked_at__isnull=True).first()
    personal = PlayerLink.objects.filter(registration__event__slug="demo-slovenian",
                                         revoked_at__isnull=True).first()
    public = ["/", "/e/demo-slovenian/", "/e/demo-slovenian/standings/",
              f"/e/demo-slovenian/rounds/{rnd.number}/", f"/e/demo-slovenian/rounds/{rnd.number}/tables/1/",
              f"/t/{table.token}/", f"/p/{personal.token}/", "/e/demo-entries/",
              "/e/demo-entries/enter/", "/e/demo-entries/entries/", "/leagues/", "/rankings/"]
    organiser = ["/manage/", "/manage/e/demo-slovenian/", "/manage/e/demo-entries/players/",
                 "/manage/e/demo-entries/edit/", f"/manage/e/demo-slovenian/rounds/{rnd.number}/",
                 "/manage/e/demo-slovenian/players/links/", "/manage/venue/take/",
                 "/referee/e/demo-slovenian/"]
    return public, organiser


@pytest.mark.parametrize("language", ["sl", "en"])
def test_the_pages_of_the_day_pass_axe_core(live_server, new_page, language):
    call_command("seed_demo", verbosity=0)
    public, organiser = _paths()
    axe = Axe()
    found = []
    page = new_page(width=360, height=800)
    page.context.set_extra_http_headers({"Accept-Language": language})
    for group in (public, organiser):
        if group is organiser:
            login(page, live_server.url, "organiser", "organiser")
        for path in group:
            response = page.goto(live_server.url + path)
            assert response.status < 400, (path, response.status)
            result = axe.run(page)
            found += [f"{path}: {v['id']} ({v['impact']}) ×{len(v['nodes'])}: {v['help']}"
                      for v in result.response["violations"]]
    assert not found, "\n".join(found)
