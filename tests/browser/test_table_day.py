"""A tournament day as issue #13 describes it: a lone organiser runs the event from the
organiser pages (never /admin/), and the tables enter their own results on their phones from
the QR code of their printed sheet, with no accounts.

The 12-player TRI+1 event: three phones (three browser contexts, 360 x 800) open the links the
sheets' QR codes encode, choose a seat, enter four hands each (a klop, announced trula and
kralji, a kontra, a berač among them), submit, and a second seat confirms on the same phone;
the organiser verifies and closes the round, and round 2 is seated by the points (seed 000
§4.1 b: the most points at table 1, the next four at table 2...). Every score the phones show
is compared with what the engine gives for the same hands. The Czech money sheet: one phone
types the table's code, enters the four amounts and a top-up, another seat confirms, the
organiser verifies. No phone page may scroll sideways.

With SAVE_SCREENSHOTS=1 the test keeps the pictures of docs/tournament-day.md.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from scoring import evaluate
from tests.browser.helpers import PASSWORD, login, save_screenshot, seat_and_publish
from tournaments.domain import standings
from tournaments.models import AuditEntry, Event, Round, Scorecard
from tournaments.printing.selectors import table_sheets
from tournaments.seating.rotation import rest_rotation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 800}

NAMES = [("Janez", "Novak"), ("Marija", "Horvat"), ("Franc", "Kovačič"), ("Ana", "Krajnc"),
         ("Jože", "Zupančič"), ("Maja", "Potočnik"), ("Marko", "Kovač"), ("Irena", "Mlakar"),
         ("Tomaž", "Vidmar"), ("Nataša", "Kos"), ("Andrej", "Golob"), ("Mojca", "Turk")]


def _csv(names: list[tuple[str, str]]) -> str:
    rows = [f"{first};{last};TK Test;checked_in" for first, last in names]
    return "\n".join(["first_name;last_name;club;status", *rows]) + "\n"


# ---------------------------------------------------------------------------------------
# A phone at the table
# ---------------------------------------------------------------------------------------

class Phone:
    """One player's phone: every page it lands on is checked for sideways scrolling."""

    def __init__(self, page):
        self.page = page
        self.pages_checked = 0
        # When the form was last edited: the live check runs 400 ms after the last keystroke.
        page.add_init_script("""
            window.__lastEdit = 0;
            for (const kind of ['input', 'change']) {
              document.addEventListener(kind, () => { window.__lastEdit = Date.now(); }, true);
            }""")

    def fits(self) -> None:
        scroll, inner = self.page.evaluate(
            "() => [document.documentElement.scrollWidth, window.innerWidth]")
        if scroll > inner:
            wide = self.page.evaluate("""() => [...document.querySelectorAll('body *')]
                .filter(el => el.getBoundingClientRect().right > window.innerWidth)
                .map(el => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`)
                .slice(0, 12)""")
            pytest.fail(f"{self.page.url} scrolls sideways at {inner} px: {scroll} px wide ({wide})")
        self.pages_checked += 1

    def goto(self, url: str) -> None:
        self.page.goto(url)
        self.fits()

    def click(self, locator) -> None:
        """A click that loads a page (a form's button, a link)."""
        with self.page.expect_navigation():
            locator.click()
        self.fits()

    def choose_seat(self, pid: str) -> None:
        assert "Who are you?" in self.page.locator("h2").first.inner_text()
        self.click(self.page.locator(f"button.seat-button[value='{pid}']"))
        assert f"You are #{pid} " in self.page.locator(".tl-head .you").inner_text()

    def enter_hand(self, number: int, hand: dict[str, Any], scores: dict[str, int], *,
                   shot: str = "") -> None:
        """Fill the phone's hand form as a player taps it, read the engine's live check (it
        must preview `scores`) and save the hand."""
        page = self.page
        assert page.locator("section.entry h2").inner_text().startswith(f"Hand {number} of 4")
        form = page.locator("form.hand-form")

        def chip(field: str, value: str) -> None:
            form.locator(f"fieldset[data-field={field}] label.chip:has(input[value='{value}'])").click()

        form.locator(f"label.chip:has(input[name=game][value='{hand['game']}'])").click()
        if "declarer" in hand:
            chip("declarer", hand["declarer"])
        if "points" in hand:
            form.locator("input[name=points]").fill(str(hand["points"]))
        if "won" in hand:
            chip("won", "1" if hand["won"] else "0")
        for pid, points in (hand.get("points_by_player") or {}).items():
            form.locator(f"input[name='pbp-{pid}']").fill(str(points))
        for row, ann in enumerate(hand.get("announcements") or []):
            if row == 0:
                form.locator("details[data-field=announcements] > summary").click()
            form.locator(f"select[name='ann-{row}-name']").select_option(ann["name"])
            form.locator(f"select[name='ann-{row}-by']").select_option(ann["by"])
            if ann["announced"]:
                form.locator(f"input[name='ann-{row}-announced']").check()
            form.locator(f"select[name='ann-{row}-achieved']").select_option("1" if ann["achieved"] else "0")
        for row, contra in enumerate(hand.get("contras") or []):
            if row == 0:
                form.locator("details:has(select[name='con-0-on']) > summary").click()
            form.locator(f"select[name='con-{row}-on']").select_option(contra["on"])
            form.locator(f"select[name='con-{row}-by']").select_option(contra["by"])
            form.locator(f"select[name='con-{row}-level']").select_option(str(contra["level"]))
        if "points" in hand or "points_by_player" in hand:
            page.keyboard.press("Tab")  # the number pad's "next": leaves the field
        # The engine checks the hand as it is tapped in (htmx) and previews its scores. The
        # player reads them before saving; the check has then run for the hand as it stands,
        # and none is still on its way while the hand is saved (SQLite, the tests' database,
        # refuses a read during a write with "table is locked").
        page.wait_for_function("""expected => {
            const form = document.querySelector('form.hand-form');
            if (Date.now() - window.__lastEdit < 700 || form.classList.contains('htmx-request')) return false;
            const shown = [...document.querySelectorAll('#hand-feedback .preview .pv')].map(pv =>
              [pv.querySelector('.sn').textContent.trim(),
               pv.textContent.replace(pv.querySelector('.sn').textContent, '').trim()]);
            return shown.length === Object.keys(expected).length && shown.every(([pid, text]) =>
              Number(text.replace('\u2212', '-').replace('+', '')) === expected[pid]);
        }""", arg=scores, polling=100)
        self.fits()
        if shot:
            save_screenshot(page, shot, full_page=True)
        self.click(form.locator("button[type=submit]"))
        assert page.locator(f"#hand-{number}").count() == 1, page.content()[:3000]

    def hand_scores(self) -> dict[int, dict[str, str]]:
        """{hand number: {start number: what the phone shows}} from the card."""
        return {int(n): cells for n, cells in self.page.evaluate("""() =>
            [...document.querySelectorAll('.hands-list li[id^=hand-]')].map(li => [
              li.id.slice(5),
              Object.fromEntries([...li.querySelectorAll('.hand-scores > span')].map(s => [
                s.querySelector('.sn').textContent.trim(),
                s.textContent.replace(s.querySelector('.sn').textContent, '').trim()]))])""")}

    def radelci(self) -> dict[str, int]:
        """{start number: open radelci} as the totals show them; a radelc cut off by a long
        name does not count as shown."""
        return self.page.evaluate("""() => Object.fromEntries(
            [...document.querySelectorAll('.totals-grid li')].map(li => {
              const box = li.getBoundingClientRect(), r = li.querySelector('.radelci');
              const seen = r && r.getBoundingClientRect().right <= box.right
                && r.getBoundingClientRect().left >= box.left;
              return [li.querySelector('.sn').textContent.trim(), seen ? r.textContent.trim().length : 0];
            }))""")

    def totals(self) -> dict[str, int]:
        shown = self.page.evaluate("""() =>
            Object.fromEntries([...document.querySelectorAll('.totals-grid li')].map(li => [
              li.querySelector('.sn').textContent.trim(),
              li.querySelector('.total').textContent.trim()]))""")
        return {pid: _number(text) for pid, text in shown.items()}


def _number(text: str) -> int:
    """A score as the page writes it: +15, −35 (a typographic minus), 0."""
    return int(text.replace("−", "-").replace("+", ""))


# ---------------------------------------------------------------------------------------
# The organiser's pages
# ---------------------------------------------------------------------------------------

def _organiser(live_server, new_page):
    users = get_user_model()
    nina = users.objects.create_user("nina", password=PASSWORD)
    nina.user_permissions.add(Permission.objects.get(codename="add_event"))
    page = new_page(1280, 900)
    login(page, live_server.url, "nina")
    return page


def _create_event(page, base: str, *, name: str, ruleset: str, mode: str, seating: str,
                  rounds: int, stake_kc: str = "", names: list[tuple[str, str]]) -> Event:
    """The event form, then its players imported from a pasted list, all checked in."""
    page.goto(f"{base}/manage/events/new/")
    page.fill("input[name=name]", name)
    page.fill("input[name=starts_on]", "2026-11-21")
    page.select_option("select[name=ruleset_code]", ruleset)
    page.locator(f"select[name=ruleset_mode] option[value='{mode}']").wait_for(state="attached")
    page.select_option("select[name=ruleset_mode]", mode)
    page.select_option("select[name=seating_system]", seating)
    page.fill("input[name=planned_rounds]", str(rounds))
    page.fill("input[name=hands_per_round]", "4")
    page.fill("input[name=round_duration_minutes]", "55")
    if stake_kc:
        page.fill("input[name=stake_kc]", stake_kc)
    page.click("form.form-grid button.primary")
    page.wait_for_url(re.compile(r"/manage/e/[\w-]+/players/$"))
    event = Event.objects.get(name=name)
    page.fill("textarea[name=text]", _csv(names))
    page.click("button:has-text('Import')")
    page.wait_for_load_state()
    assert f"{len(names)} players imported." in page.content()
    return event


def _verify_and_close(page, base: str, event: Event, number: int, tables: list[int]) -> None:
    page.goto(f"{base}/manage/e/{event.slug}/rounds/{number}/")
    def table_card(table: int):
        return page.locator("article.table-card").filter(
            has=page.locator(".table-title", has_text=re.compile(rf"^Table {table}\b")))

    for table in tables:
        with page.expect_navigation():
            table_card(table).locator("button:has-text('Verify')").click()
        assert page.url.endswith(f"/manage/e/{event.slug}/rounds/{number}/")
        assert table_card(table).locator(".table-title .badge").inner_text() == "Verified"
    with page.expect_navigation():
        page.click("text=Verify and close the round")
    assert page.confirms[-1].startswith(f"Close round {number}?"), page.confirms
    assert "Round verified and closed." in page.content()


# ---------------------------------------------------------------------------------------
# The hands of the three tables (seat positions; the resting player follows the deal)
# ---------------------------------------------------------------------------------------

def _hands(table: int, players: list[str]) -> list[dict[str, Any]]:
    """Four hands per table as the contract writes them. Chosen so that no two players tie,
    at a table or across tables at the points that decide round 2's tables."""
    rotation = rest_rotation(players, 4)
    play = [turn["playing"] for turn in rotation]
    a, b, c, d = players
    hands = {
        1: [{"game": "trojka", "declarer": play[0][0], "points": 41},
            {"game": "klop", "points_by_player": {a: 12, b: 30, c: 8, d: 20}},
            {"game": "dvojka", "declarer": play[2][1], "points": 40,
             "contras": [{"on": "game", "by": play[2][2], "level": 1}]},
            {"game": "enka", "declarer": play[3][2], "points": 30}],
        2: [{"game": "trojka", "declarer": play[0][1], "points": 46,
             "announcements": [{"name": "trula", "by": play[0][1], "announced": True, "achieved": True}]},
            {"game": "dvojka", "declarer": play[1][0], "points": 52},
            {"game": "trojka", "declarer": play[2][2], "points": 20},
            {"game": "berac", "declarer": play[3][0], "won": True}],
        3: [{"game": "enka", "declarer": play[0][2], "points": 38},
            {"game": "trojka", "declarer": play[1][1], "points": 44,
             "announcements": [{"name": "kralji", "by": play[1][1], "announced": True, "achieved": True}]},
            {"game": "trojka", "declarer": play[2][0], "points": 36},
            {"game": "dvojka", "declarer": play[3][1], "points": 25}],
    }[table]
    # The form fills in who rests and who leads from the deal; the stored hand names them.
    for hand, turn in zip(hands, rotation, strict=True):
        hand["resting"], hand["forehand"] = turn["resting"], turn["forehand"]
    return hands


def _engine(ruleset: str, mode: str, players: list[str], hands: list[dict]) -> dict:
    return evaluate({"ruleset": ruleset, "mode": mode, "players": players, "hands": hands})


def _play_table(phone: Phone, checker: Phone, sheet, card: Scorecard, *, screenshots: bool
                ) -> dict[str, int]:
    """One table's round on its phone: seat, four hands, submit; a second player confirms on
    his own phone (`checker`). Returns the engine's totals of the card."""
    players = list(card.player_ids)
    hands = _hands(sheet.table_number, players)
    expected = _engine("tarok-net-2007", "tri+1", players, hands)

    phone.goto(sheet.entry_url)
    if screenshots:
        save_screenshot(phone.page, "phone-seat-choice")
    me, other = players[0], players[2]
    phone.choose_seat(me)
    for number, hand in enumerate(hands, start=1):
        record = {k: v for k, v in hand.items() if k not in ("resting", "forehand")}
        phone.enter_hand(number, record, expected["hands"][number - 1]["scores"],
                         shot="phone-hand-form" if screenshots and number == 3 else "")

    # What the phone shows is what the engine gives for these hands.
    card.refresh_from_db()
    assert [h.record for h in card.hands.order_by("number")] == hands
    shown = phone.hand_scores()
    assert sorted(shown) == [1, 2, 3, 4]
    for number, scored in enumerate(expected["hands"], start=1):
        for pid in players:
            text = shown[number][pid]
            if text == "–":  # the resting player, who writes nothing
                assert pid == hands[number - 1]["resting"] and scored["scores"][pid] == 0
            else:
                assert _number(text) == scored["scores"][pid], (sheet.table_number, number, pid)
    assert phone.totals() == expected["totals"]
    assert phone.radelci() == expected["hands"][-1]["state"]["radelci"]
    if screenshots:
        save_screenshot(phone.page, "phone-card", scroll_to="section.phone-sheet")

    # One seat submits; neither it nor another seat chosen on its phone confirms the card: a
    # second player does, on his own phone.
    phone.click(phone.page.locator("button:has-text('Submit the card')"))
    assert "Submitted" in phone.page.locator("h1 .badge").inner_text()
    assert phone.page.locator("button:has-text('Confirm the card')").count() == 0
    assert phone.page.locator("a.button:has-text('Confirm as')").count() == 0
    assert "confirms it on his own phone" in phone.page.content()
    checker.goto(sheet.entry_url)
    checker.choose_seat(other)
    assert "Check the card above" in checker.page.content()
    if screenshots:
        save_screenshot(checker.page, "phone-confirm", scroll_to="section.phone-sheet")
    checker.click(checker.page.locator("button:has-text('Confirm the card')"))
    assert "Confirmed" in checker.page.locator("h1 .badge").inner_text()

    card.refresh_from_db()
    assert card.status == Scorecard.Status.CONFIRMED
    assert (card.submitted_by_seat, card.confirmed_by_seat) == (int(me), int(other))
    return expected["totals"]


def _expected_round_two(cards: list[Scorecard], totals: dict[str, int]
                        ) -> tuple[dict[str, int], list[list[str]]]:
    """Seed 000 §4.1 b by hand: 4/3/2/1 table points by the table's totals, then everybody by
    points and score (the tie-break of docs/seating.md), cut into fours from table 1.
    Returns the points and the tables."""
    points = {}
    for card in cards:
        placing = sorted(card.player_ids, key=lambda p: -totals[p])
        assert len({totals[p] for p in placing}) == 4, "the test's hands must not tie at a table"
        points.update({p: 4 - i for i, p in enumerate(placing)})
    order = sorted(totals, key=lambda p: (-points[p], -totals[p]))
    keys = [(points[p], totals[p]) for p in order]
    assert len(set(keys)) == len(keys), "the test's hands must not tie across tables"
    return points, [order[i:i + 4] for i in range(0, len(order), 4)]


def test_a_lone_organiser_and_three_phones_run_a_tri1_round(live_server, new_page):
    base = live_server.url
    page = _organiser(live_server, new_page)
    event = _create_event(page, base, name="Table Day Open", ruleset="tarok-net-2007",
                          mode="tri+1", seating="points", rounds=2, names=NAMES)
    assert (event.ruleset_mode, event.seating_system, event.hands_per_round) == ("tri+1", "points", 4)

    # A referee's account, made on the spot: no /admin/.
    page.goto(f"{base}/manage/e/{event.slug}/officials/")
    page.fill("input[name=new-username]", "rok")
    page.fill("input[name=new-first_name]", "Rok")
    page.fill("input[name=new-last_name]", "Zupan")
    page.click("form[action$='/officials/new/'] button")
    page.wait_for_load_state()
    link = page.locator("input.copy-link").input_value()
    assert link.startswith(base) and "/accounts/" in link
    event.refresh_from_db()
    assert list(event.referees.values_list("username", flat=True)) == ["rok"]
    save_screenshot(page, "officials")

    seat_and_publish(page, base, event.slug, 1)
    rnd = event.rounds.get(number=1)
    sheets = table_sheets(rnd, base)
    assert [s.table_number for s in sheets] == [1, 2, 3]
    page.goto(f"{base}/manage/e/{event.slug}/rounds/1/")
    shown_codes = page.locator("article.table-card .table-link-line code").all_inner_texts()
    assert shown_codes == [s.code for s in sheets]
    for s in sheets:
        assert re.fullmatch(rf"{re.escape(base)}/t/[\w-]{{32}}/", s.entry_url), s.entry_url

    phones = [Phone(new_page(PHONE["width"], PHONE["height"])) for _ in sheets]
    checkers = [Phone(new_page(PHONE["width"], PHONE["height"])) for _ in sheets]
    totals: dict[str, int] = {}
    cards = []
    for phone, checker, sheet in zip(phones, checkers, sheets, strict=True):
        card = rnd.tables.get(number=sheet.table_number).scorecard
        totals |= _play_table(phone, checker, sheet, card, screenshots=sheet.table_number == 1)
        cards.append(card)
    assert all(phone.pages_checked + checker.pages_checked >= 12
               for phone, checker in zip(phones, checkers, strict=True))

    # The audit trail names the seat and the phone of every hand; no account was used.
    entries = AuditEntry.objects.filter(event=event, action__startswith="hand.")
    assert entries.count() == 12
    assert set(entries.values_list("via", flat=True)) == {AuditEntry.Via.TABLE_LINK}
    assert not entries.filter(actor__isnull=False).exists()
    assert entries.values("device").distinct().count() == 3

    page.goto(f"{base}/manage/e/{event.slug}/rounds/1/")
    assert page.locator("article.table-card button:has-text('Verify')").count() == 3
    save_screenshot(page, "round-table-codes", full_page=True)
    _verify_and_close(page, base, event, 1, [1, 2, 3])
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    # Round 1's standings: the table points of the engine's totals, and the totals.
    points, tables = _expected_round_two(cards, totals)
    rows = standings.event_standings(event, up_to_round=1).rows
    assert {str(r.registration.start_number): (r.points, r.score) for r in rows} == {
        pid: (points[pid], totals[pid]) for pid in totals}

    # Round 2, seated by the points: the top four at table 1, the next four at table 2...
    page.goto(f"{base}/manage/e/{event.slug}/")
    page.click("text=Seat round 2")
    page.wait_for_url(re.compile(rf"/manage/e/{event.slug}/rounds/2/$"))
    seated = [card.locator("ol.seats .sn").all_inner_texts()
              for card in page.locator("article.table-card").all()]
    assert seated == tables
    assert not page.url.endswith("/admin/")


def test_a_phone_enters_the_czech_money_sheet(live_server, new_page):
    base = live_server.url
    page = _organiser(live_server, new_page)
    event = _create_event(page, base, name="GP Day", ruleset="gp-vysociny-2004", mode="four",
                          seating="random", rounds=1, stake_kc="20", names=NAMES[:4])
    assert event.stake_haler == 2000
    seat_and_publish(page, base, event.slug, 1)
    rnd = event.rounds.get(number=1)
    [lost] = table_sheets(rnd, base)
    card = rnd.tables.get(number=1).scorecard
    players = list(card.player_ids)

    # The sheet went missing: the round page gives the table a new link and a new sheet.
    page.goto(f"{base}/manage/e/{event.slug}/rounds/1/")
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.click("article.table-card button:has-text('new link')")
    [sheet] = table_sheets(rnd, base)
    assert sheet.code != lost.code and sheet.entry_url != lost.entry_url
    assert page.locator("article.table-card .table-link-line code").inner_text() == sheet.code
    phone = Phone(new_page(PHONE["width"], PHONE["height"]))
    assert phone.page.goto(lost.entry_url).status == 404

    # This phone types the code printed on the new sheet, and lands where its QR code leads.
    phone.goto(f"{base}/t/")
    phone.page.fill("input[name=code]", sheet.code.lower())
    phone.click(phone.page.locator("button:has-text('Open my table')"))
    assert phone.page.url == sheet.entry_url
    phone.choose_seat(players[1])

    # 4 × 20 Kč at the table, and 10 Kč the second player bought: 90 Kč at the end.
    rows = {players[0]: (0, "45.50"), players[1]: (10, "15"), players[2]: (0, "20"),
            players[3]: (0, "9.50")}
    for pid, (bought, money) in rows.items():
        phone.page.fill(f"input[name='bought-{pid}']", str(bought))
        phone.page.fill(f"input[name='money-{pid}']", money)
    phone.click(phone.page.locator("button:has-text('Save the money sheet')"))
    assert "Money sheet saved." in phone.page.content()
    expected = evaluate({"ruleset": "gp-vysociny-2004", "sheet": {"stake": 2000, "players": [
        {"player": pid, "bought": bought * 100, "money": round(float(money) * 100)}
        for pid, (bought, money) in rows.items()]}})
    shown = {
        r.locator(".sn").inner_text(): r.locator("td.strong").inner_text()
        for r in phone.page.locator("table.money tbody tr").all()}
    assert {pid: _haler(text) for pid, text in shown.items()} == expected["totals"]
    assert expected["totals"][players[1]] == -1500

    phone.click(phone.page.locator("button:has-text('Submit the card')"))
    assert phone.page.locator("button:has-text('Confirm the card')").count() == 0
    # The second player confirms on his own phone, opened with the same code.
    checker = Phone(new_page(PHONE["width"], PHONE["height"]))
    checker.goto(sheet.entry_url)
    checker.choose_seat(players[3])
    checker.click(checker.page.locator("button:has-text('Confirm the card')"))
    assert "Confirmed" in checker.page.locator("h1 .badge").inner_text()

    _verify_and_close(page, base, event, 1, [1])
    card.refresh_from_db()
    assert card.status == Scorecard.Status.VERIFIED
    assert (card.submitted_by_seat, card.confirmed_by_seat) == (int(players[1]), int(players[3]))
    assert {str(r.registration.start_number): r.result_haler for r in card.money_rows.all()} == \
        expected["totals"]
    # Read-only once verified: the phone offers no form any more.
    phone.goto(sheet.entry_url)
    assert phone.page.locator("form.money-form").count() == 0


def _haler(text: str) -> int:
    """A money result as the page writes it (+25.50 Kč, −15.00 Kč) in haléř."""
    number = text.replace("Kč", "").replace("−", "-").replace("+", "").replace(",", "").strip()
    return round(float(number) * 100)
