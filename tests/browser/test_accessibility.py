"""The accessibility walk: axe-core (bundled by axe-playwright-python) checks, in Chromium, the
pages a visitor, a player on his phone (the table link, the personal link), a referee and an
organiser use.

Two bars. The pages of the day (a fixed list, phone width, Slovenian and English) pass every
rule axe runs (WCAG 2 A/AA and best practices): labels, contrast, landmarks, names of buttons
and links, ARIA, the language of the page. Every page kind (issue #33: the projector, the event's
pages, leagues, cups, rankings, players, the referee's desk and history, the organiser's
pages and forms) at phone and desktop width has no serious or critical violation."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command

from tests.browser.helpers import login
from tournaments.models import PlayerLink, Registration, Round, TableLink

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BAR = ("serious", "critical")


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


def _every_page_kind() -> dict[str, list[str]]:
    """One page of each kind, by who sees it (the login the walk uses; None: nobody)."""
    slovenian = Round.objects.filter(event__slug="demo-slovenian", status__in=["published", "playing"]).get()
    czech = Round.objects.filter(event__slug="demo-czech", status__in=["published", "playing"]).get()
    n, c = slovenian.number, czech.number
    table_links = [TableLink.objects.filter(table__round=r, revoked_at__isnull=True).first() for r in (slovenian, czech)]
    personal = PlayerLink.objects.filter(registration__event__slug="demo-slovenian", revoked_at__isnull=True).first()
    league_player = Registration.objects.filter(event__slug__startswith="demo-league").first().player_id
    cup_player = Registration.objects.filter(event__slug="demo-cup-1").first().player_id
    e, m, r = "/e/demo-slovenian/", "/manage/e/demo-slovenian/", "/referee/e/demo-slovenian/"
    season = "/manage/leagues/demo-league/2026-27/"
    return {
        "": ["/", e, e + "standings/", e + "projector/", f"{e}rounds/{n - 1}/", f"{e}rounds/{n}/",
             f"{e}rounds/{n}/tables/1/", e + "statistics/", "/e/demo-czech/", "/e/demo-czech/projector/",
             f"/e/demo-czech/rounds/{c}/tables/1/", "/e/demo-tarockcup/standings/", "/e/demo-tarockcup/projector/",
             "/t/", *(f"/t/{link.token}/" for link in table_links), f"/p/{personal.token}/",
             "/e/demo-entries/", "/e/demo-entries/enter/", "/e/demo-entries/entries/",
             "/leagues/", "/leagues/demo-league/", "/leagues/demo-league/2025-26/", "/cups/", "/cups/demo-cup/",
             "/rankings/slovenian/", "/rankings/slovenian/points/", "/rankings/koenigrufen/", "/rankings/taroky/",
             f"/players/{league_player}/", f"/players/{cup_player}/", "/accounts/login/"],
        "referee": ["/referee/", r, r + "history/", r + "disputes/", f"{r}rounds/{n}/tables/1/",
                    f"{r}rounds/{n}/tables/1/history/"],
        "organiser": ["/manage/", m, m + "edit/", m + "players/", m + "players/links/", m + "officials/",
                      m + "standings/", f"{m}rounds/{n - 1}/", f"{m}rounds/{n}/", f"{m}rounds/{n}/tables/1/",
                      f"/manage/e/demo-czech/rounds/{c}/tables/1/", "/manage/e/demo-entries/players/",
                      "/manage/events/new/", "/manage/players/", "/manage/venue/take/",
                      "/manage/leagues/new/", "/manage/leagues/demo-league/", "/manage/leagues/demo-league/edit/",
                      season, season + "edit/", season + "players/", season + "schedule/", season + "next/",
                      "/manage/cups/new/", "/manage/cups/demo-cup/", "/referee/e/demo-slovenian/history/"],
    }


PASSWORDS = {"organiser": "organiser", "referee": "referee-demo"}


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


# Every page kind at both widths in Slovenian; in English (other words, other line breaks) the
# pages of a phone and of the referee's desk: the organiser's in English are in the walk above.
WALKS = [("sl", 360, ("", "referee", "organiser")), ("sl", 1280, ("", "referee", "organiser")),
         ("en", 360, ("", "referee"))]


@pytest.mark.parametrize(("language", "width", "people"), WALKS, ids=["sl-360", "sl-1280", "en-360"])
def test_every_page_kind_has_no_serious_violation(live_server, new_page, language, width, people):
    call_command("seed_demo", verbosity=0)
    axe = Axe()
    found, walked = [], 0
    for who, paths in _every_page_kind().items():
        if who not in people:
            continue
        page = new_page(width=width, height=800 if width < 760 else 900)
        page.context.set_extra_http_headers({"Accept-Language": language})
        if who:
            login(page, live_server.url, who, PASSWORDS[who])
        for path in paths:
            response = page.goto(live_server.url + path)
            assert response.status < 400, (who, path, response.status)
            result = axe.run(page)
            walked += 1
            found += [f"{path} ({who or 'anyone'}): {v['id']} ({v['impact']}) ×{len(v['nodes'])}: {v['help']} "
                      f"{[node['target'] for node in v['nodes']][:3]}"
                      for v in result.response["violations"] if v["impact"] in BAR]
    assert walked >= 35
    assert not found, "\n".join(found)
