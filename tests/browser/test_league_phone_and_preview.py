"""A league in a browser while its season runs (#33): the organiser opens the next season's
plan after the first of three matchdays and reads it as "if the season ended today"; a
visitor reads the league table on a 360 px phone, its table points and score in sight
without a sideways scroll."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from leagues import league_standings, services
from tests.browser.helpers import PASSWORD, login
from tests.leagues.helpers import make_players, play_matchday
from tournaments.models import Scorecard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _running_season():
    """Two leagues of 8 (2 up, 2 down) and no qualification group; matchday 1 of 3 played,
    with names long enough to be wrapped on a phone."""
    users = get_user_model()
    organiser = users.objects.create_user("liga-org", password=PASSWORD, is_staff=True)
    referee = users.objects.create_user("liga-ref", password=PASSWORD)
    league = services.league_create(actor=organiser, organisers=[organiser], name="Celjska liga",
                                    slug="celjska", division_size=8, movement_count=2, division_count=2,
                                    qualification_group=False, hands_per_matchday=1)
    season = services.season_create(league=league, actor=organiser, name="2025/26", slug="2025-26",
                                     planned_matchdays=3, seed=5)
    first, second = season.divisions.order_by("level")
    players = make_players(16, "Maksimilijana")
    for i, player in enumerate(players):
        player.club = "Tarok klub Slovenske Konjice"
        player.save()
        services.membership_add(division=first if i < 8 else second, player=player, actor=organiser)
    services.schedule_generate(season=season, actor=organiser)

    def points(card: Scorecard) -> list[int]:
        return [5, 15, 20, 30][:len(card.player_ids)]

    play_matchday(season, 1, organiser, referee, points)
    return season


def test_the_next_season_is_previewed_mid_season_as_if_it_ended_today(live_server, new_page):
    season = _running_season()
    base = live_server.url
    page = new_page(1280, 900)
    login(page, base, "liga-org")
    page.goto(f"{base}/manage/leagues/celjska/2025-26/")
    page.get_by_role("link", name="Preview the next season as if this one ended today").click()
    page.wait_for_url(f"{base}/manage/leagues/celjska/2025-26/next/")
    notice = page.locator("p.notice.provisional")
    assert "as if the season ended today, after matchday 1" in notice.inner_text()
    # The plan follows the standings so far: the II. league's best two go up, the I. league's
    # last two go down, and the lowest league (nothing below it) sends nobody down.
    standings = league_standings.season_standings(season)
    first, second = standings.divisions
    plan = page.locator("section.plan")
    up = {r.player.pk for r in second.rows[:2]}
    down = {r.player.pk for r in first.rows[-2:]}
    promoted = plan.locator("tr.origin-promoted td:nth-child(2)").all_inner_texts()
    relegated = plan.locator("tr.origin-relegated td:nth-child(2)").all_inner_texts()
    assert sorted(promoted) == sorted(str(r.player) for r in second.rows if r.player.pk in up)
    assert sorted(relegated) == sorted(str(r.player) for r in first.rows if r.player.pk in down)
    # The season table marks the same players: ↑ only in the II. league, ↓ only in the I.
    assert [r.zone for r in first.rows].count("up") == 0 and [r.zone for r in second.rows].count("down") == 0
    # A preview only: nothing can be formed before the season is finished.
    assert page.locator("button[name=apply]").count() == 0
    page.fill("input[name=name]", "2026/27")
    page.locator("button[name=preview]").click()
    page.wait_for_load_state()
    assert page.locator("p.notice.provisional").is_visible()
    assert page.locator("button[name=apply]").count() == 0
    assert not season.league.seasons.filter(previous=season).exists()


def test_the_league_table_fits_a_360_px_phone_with_table_points_and_score(live_server, new_page):
    _running_season()
    page = new_page(360, 740)
    page.goto(f"{live_server.url}/leagues/celjska/2025-26/")
    table = page.locator("#division-1")
    table.scroll_into_view_if_needed()
    box = page.evaluate("""() => {
        const scroll = document.querySelector('#division-1').closest('.scroll');
        const doc = document.scrollingElement;
        return {boxScroll: scroll.scrollWidth, boxClient: scroll.clientWidth,
                docScroll: doc.scrollWidth, docClient: doc.clientWidth};
    }""")
    assert box["boxScroll"] <= box["boxClient"], box
    assert box["docScroll"] <= box["docClient"], box
    for name in ("Table points", "Score"):
        header = table.locator("thead th", has_text=name).first
        assert header.is_visible()
        right = header.bounding_box()
        assert right["x"] >= 0 and right["x"] + right["width"] <= 360, (name, right)
    score = table.locator("tbody tr").first.locator("td b")
    assert score.is_visible() and score.bounding_box()["x"] + score.bounding_box()["width"] <= 360
