"""A league organiser runs a season in a browser, through pages only (no API, no /admin/): a
league of two divisions of 8 created, its season, the 16 players put into the divisions from
the registry, the schedule drawn and drawn again, two matchdays seated, published and played
on phones through the tables' links, the season finished and the next season formed; the
promotions and relegations are checked against seed 000 §4.2 written out by hand. The
registry's 16 players exist beforehand (they come from earlier events)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from leagues.models import League, Season
from scoring import evaluate
from tests.browser.helpers import PASSWORD, login, save_screenshot
from tests.browser.test_table_day import PHONE, Phone
from tournaments import services as ts
from tournaments.models import AuditEntry, Scorecard
from tournaments.printing.selectors import table_sheets
from tournaments.seating.rotation import rest_rotation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Card points of the table's four players in a klop (seed 000 §3: each writes minus what he
# took; all below 35 and none zero, so the special rules stay out), different per table and
# matchday.
KLOP = {(1, 1): (5, 15, 20, 30), (1, 2): (7, 14, 21, 28), (2, 1): (6, 16, 22, 26),
        (2, 2): (8, 12, 19, 31), (3, 1): (4, 17, 23, 26), (3, 2): (9, 13, 18, 30),
        (4, 1): (3, 11, 24, 32), (4, 2): (10, 15, 21, 24)}


def _play_klop(phone: Phone, checker: Phone, sheet, card: Scorecard, points: tuple[int, ...]
               ) -> dict[str, int]:
    """The table's one game on a phone: a klop, submitted by one seat and confirmed by
    another player on his own phone (`checker`). Returns the engine's scores of the card."""
    players = list(card.player_ids)
    turn = rest_rotation(players, 4)[0]
    record = {"game": "klop", "points_by_player": dict(zip(players, points, strict=True))}
    expected = evaluate({"ruleset": "tarok-net-2007", "mode": "tri+1", "players": players,
                         "hands": [{**record, "resting": turn["resting"], "forehand": turn["forehand"]}]})
    phone.goto(sheet.entry_url)
    phone.choose_seat(players[0])
    page = phone.page
    form = page.locator("form.hand-form")
    form.locator("label.chip:has(input[name=game][value='klop'])").click()
    for pid, value in record["points_by_player"].items():
        form.locator(f"input[name='pbp-{pid}']").fill(str(value))
    page.keyboard.press("Tab")
    # The engine previews the scores as the hand is typed; save once its check has run.
    page.wait_for_function("""expected => {
        const shown = [...document.querySelectorAll('#hand-feedback .preview .pv')].map(pv =>
          [pv.querySelector('.sn').textContent.trim(),
           pv.textContent.replace(pv.querySelector('.sn').textContent, '').trim()]);
        const form = document.querySelector('form.hand-form');
        return !form.classList.contains('htmx-request') && shown.length === Object.keys(expected).length
          && shown.every(([pid, text]) => Number(text.replace('\u2212', '-').replace('+', '')) === expected[pid]);
    }""", arg=expected["hands"][0]["scores"], polling=100)
    phone.click(form.locator("button[type=submit]"))
    phone.click(page.locator("button:has-text('Submit the card')"))
    checker.goto(sheet.entry_url)
    checker.choose_seat(players[2])
    checker.click(checker.page.locator("button:has-text('Confirm the card')"))
    card.refresh_from_db()
    assert card.status == Scorecard.Status.CONFIRMED
    return expected["totals"]


def test_a_league_season_is_run_through_pages_only(live_server, new_page):
    base = live_server.url
    users = get_user_model()
    organiser = users.objects.create_user("liga", password=PASSWORD)
    organiser.user_permissions.add(Permission.objects.get(codename="add_event"))
    # Entered by the league's organiser: the registry shows him the records he entered.
    registry = [ts.player_create(first_name=name, last_name="Ligaš", club="TK Celje", actor=organiser)
                for name in ("Ana", "Boris", "Cvetka", "Darko", "Eva", "Franc", "Gaja", "Hugo",
                             "Iva", "Janez", "Katja", "Luka", "Maja", "Nejc", "Olga", "Peter")]
    page = new_page(1280, 900)
    login(page, base, "liga")

    # The league, from the organiser's dashboard.
    page.goto(f"{base}/manage/")
    page.click("text=Create a league")
    page.fill("input[name=name]", "Celjska liga")
    page.select_option("select[name=ruleset_code]", "tarok-net-2007")
    page.locator("select[name=ruleset_mode] option[value='tri+1']").wait_for(state="attached")
    page.select_option("select[name=ruleset_mode]", "tri+1")
    page.fill("input[name=hands_per_matchday]", "1")
    page.fill("input[name=division_count]", "2")
    page.fill("input[name=division_size]", "8")
    page.fill("input[name=movement_count]", "2")
    page.uncheck("input[name=qualification_group]")
    save_screenshot(page, "league-form", full_page=True)
    page.click("form.form-grid button.primary")
    page.wait_for_url(re.compile(r"/manage/leagues/celjska-liga/seasons/new/$"))
    league = League.objects.get(slug="celjska-liga")
    assert (league.division_count, league.division_size, league.movement_count, league.hands_per_matchday,
            league.qualification_group) == (2, 8, 2, 1, False)

    # The season: two matchdays, the league's two divisions of 8.
    page.fill("input[name=name]", "2025-26")
    page.fill("input[name=starts_on]", "2025-10-01")
    page.fill("input[name=planned_matchdays]", "2")
    page.uncheck("input[name=qualification_group]")
    page.click("form.form-grid button.primary")
    page.wait_for_url(re.compile(r"/manage/leagues/celjska-liga/2025-26/players/$"))
    season = Season.objects.get(league=league, slug="2025-26")
    first, second = season.divisions.order_by("level")

    # The players, found in the registry whatever the diacritics ("ligas" finds "Ligaš").
    page.fill("input[name=q]", "ligas")
    page.click("form.search button")
    page.wait_for_load_state()
    for n in range(16):
        row = page.locator("form.add-member").first
        row.locator("select[name=division]").select_option(str(first.pk if n < 8 else second.pk))
        with page.expect_navigation():
            row.locator("button").click()
    assert first.memberships.count() == 8 and second.memberships.count() == 8
    # A seed position changed before the schedule: Ana (1.) and Cvetka (3.) exchange places.
    ana = first.memberships.get(player=registry[0])
    move = page.locator(f"form[action$='/players/{ana.pk}/move/']")
    move.locator("input[name=seed_position]").fill("3")
    with page.expect_navigation():
        move.locator("button").click()
    assert first.memberships.get(player=registry[0]).seed_position == 3
    assert first.memberships.get(player=registry[2]).seed_position == 1
    save_screenshot(page, "league-players", scroll_to="#division-1")

    # The schedule: drawn, previewed with its repeat count and bound, drawn again.
    page.click("text=Next: the schedule")
    page.fill("input[name=seed]", "11")
    page.click("button:has-text('Draw the schedule')")
    page.wait_for_load_state()
    assert "Schedule drawn." in page.content()
    assert page.locator("section.schedule .repeat-count").count() == 2
    save_screenshot(page, "league-schedule", full_page=True)
    page.fill("input[name=seed]", "12")
    page.click("button:has-text('Draw again')")
    page.wait_for_load_state()
    season.refresh_from_db()
    assert (season.schedule["version"], season.schedule["seed"]) == (2, 12)

    scores: dict[int, int] = {}
    phones = [Phone(new_page(PHONE["width"], PHONE["height"])) for _ in range(4)]
    checkers = [Phone(new_page(PHONE["width"], PHONE["height"])) for _ in range(4)]
    for number in (1, 2):
        page.goto(f"{base}/manage/leagues/celjska-liga/2025-26/")
        page.fill("input[name=date]", f"2025-10-0{number}")
        page.fill("input[name=venue]", "Celje")
        page.click(f"button:has-text('Create matchday {number}')")
        page.wait_for_load_state()
        page.click(f"button:has-text('Seat matchday {number}')")
        page.wait_for_url(re.compile(r"/manage/e/[\w-]+/rounds/1/$"))
        # The matchday's tables are a tournament round's, each division's under its name.
        assert page.locator("article.table-card").count() == 4
        matchday = season.matchdays.get(number=number)
        page.goto(f"{base}/manage/leagues/celjska-liga/2025-26/")
        page.click(f"button:has-text('Publish matchday {number}')")
        page.wait_for_load_state()
        if number == 1:
            save_screenshot(page, "league-season", full_page=True)
        rnd = matchday.event.rounds.get()
        sheets = table_sheets(rnd, base)
        assert len(sheets) == 4
        starts = {str(r.start_number): r.player_id for r in matchday.event.registrations.all()}
        for phone, checker, sheet in zip(phones, checkers, sheets, strict=True):
            card = rnd.tables.get(number=sheet.table_number).scorecard
            totals = _play_klop(phone, checker, sheet, card, KLOP[(sheet.table_number, number)])
            for start, score in totals.items():
                scores[starts[start]] = scores.get(starts[start], 0) + score
        page.goto(f"{base}/manage/leagues/celjska-liga/2025-26/")
        page.click(f"button:has-text('Close matchday {number}')")
        page.wait_for_load_state()
        assert f"Matchday {number} is closed" in page.content()

    # No hand came through an account: the tables entered them through their links.
    hands = AuditEntry.objects.filter(event__matchday__season=season, action__startswith="hand.")
    assert hands.count() == 8 and not hands.filter(actor__isnull=False).exists()

    page.click("button:has-text('Finish the season')")
    page.wait_for_url(re.compile(r"/manage/leagues/celjska-liga/2025-26/next/$"))
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    ranks = {}
    for division in (first, second):
        members = sorted(division.memberships.all(), key=lambda m: m.final_rank)
        # The final order follows the scores the phones' cards gave (the tie-breaks order equals).
        ordered = [scores[m.player_id] for m in members]
        assert ordered == sorted(ordered, reverse=True), ordered
        ranks |= {(division.level, m.final_rank): m.player_id for m in members}

    assert page.locator("tr.origin-promoted").count() == 2
    assert page.locator("tr.origin-relegated").count() == 2
    save_screenshot(page, "league-next-season", full_page=True)
    page.fill("input[name=name]", "2026-27")
    page.click("button[name=preview]")
    page.wait_for_load_state()
    page.click("button[name=apply]")
    page.wait_for_url(re.compile(r"/manage/leagues/celjska-liga/2026-27/$"))
    new = Season.objects.get(league=league, slug="2026-27")
    placed = {m.player_id: (m.division.level, m.seed_position, m.origin)
              for m in new.memberships.select_related("division")}
    # Seed 000 §4.2 with divisions of 8 and 2 moving: the last 2 of the I. league go down to
    # positions 1–2 of the II.; the best 2 of the II. go up to positions 7–8 of the I.; the
    # lowest league has no division below it (no qualification group), so its last 2 stay
    # (#33: nowhere to go down to); the others keep their rank.
    expected = {ranks[(1, r)]: (1, r, "stayed") for r in range(1, 7)}
    expected |= {ranks[(1, r)]: (2, r - 6, "relegated") for r in (7, 8)}
    expected |= {ranks[(2, r)]: (1, r + 6, "promoted") for r in (1, 2)}
    expected |= {ranks[(2, r)]: (2, r, "stayed") for r in range(3, 9)}
    assert placed == expected
    assert AuditEntry.objects.filter(action__in=["league.promote", "league.relegate"]).count() == 4
    # The old season stays readable, with its final order.
    page.goto(f"{base}/leagues/celjska-liga/2025-26/")
    assert "Final order" in page.content()
