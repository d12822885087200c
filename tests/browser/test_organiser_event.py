"""An organiser runs an 8-player TRI+1 event for two rounds from the browser alone: creates
the event, registers the players (one typed in, the rest imported), seats each round through
the background job, publishes it, enters the hands of every table (with a klop and a contra),
has a second person confirm the cards, closes the rounds and reads the final standings."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tests.browser.helpers import PASSWORD, enter_hand, login, seat_and_publish
from tournaments.models import Event, Registration, Round, Scorecard
from tournaments.seating.rotation import rest_rotation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CSV = """first_name;last_name;club;status
Janez;Novak;TK Ljubljana;checked_in
Marija;Horvat;TK Ljubljana;checked_in
Franc;Kovačič;TD Maribor;checked_in
Ana;Krajnc;TD Maribor;checked_in
Jože;Zupančič;TK Celje;checked_in
Maja;Potočnik;TK Celje;checked_in
Marko;Kovač;TK Kranj;checked_in
"""


def _hands(players: list[str]) -> list[dict]:
    """Four hands as a table writes them: a trojka, a klop, a dvojka with a kontra, an
    enka; the resting player (pre-filled by the form) follows the deal."""
    rotation = rest_rotation(players, 4)
    playing = [[p for p in players if p != turn["resting"]] for turn in rotation]
    return [
        {"game": "trojka", "declarer": playing[0][0], "points": 41},
        {"game": "klop", "points_by_player": dict(zip(players, [12, 30, 8, 20], strict=True))},
        {"game": "dvojka", "declarer": playing[2][1], "points": 40,
         "contras": [{"on": "game", "by": playing[2][2], "level": 1}]},
        {"game": "enka", "declarer": playing[3][2], "points": 30},
    ]


def _play_round(page, other, base: str, event: Event, number: int) -> None:
    rnd = event.rounds.get(number=number)
    for table in rnd.tables.order_by("number"):
        card = table.scorecard
        url = f"{base}/manage/e/{event.slug}/rounds/{number}/tables/{table.number}/"
        page.goto(url)
        for i, hand in enumerate(_hands(list(card.player_ids)), start=1):
            assert page.locator("section.entry h2").inner_text().startswith(f"Hand {i} of 4")
            enter_hand(page, hand, wait_preview=(i == 3))
            assert page.locator(f"#hand-{i}").count() == 1
        page.click("text=Submit the scorecard")
        page.wait_for_load_state()
        assert "Submitted" in page.locator("h1").inner_text()
        # The second person (the referee) confirms the submitted card.
        other.goto(url)
        other.click("text=Confirm the scorecard")
        other.wait_for_load_state()
        assert "Confirmed" in other.locator("h1").inner_text()
    page.goto(f"{base}/manage/e/{event.slug}/rounds/{number}/")
    page.click("text=Verify and close the round")
    page.wait_for_load_state()
    assert "Round verified and closed." in page.content()


def test_an_organiser_runs_a_two_round_tri1_event_end_to_end(live_server, new_page):
    users = get_user_model()
    organiser = users.objects.create_user("nina", password=PASSWORD)
    organiser.user_permissions.add(Permission.objects.get(codename="add_event"))
    referee = users.objects.create_user("rok", password=PASSWORD)
    base = live_server.url
    page = new_page()
    login(page, base, "nina")

    # Create the event: the ruleset's modes and options come from the registry (htmx).
    page.goto(f"{base}/manage/events/new/")
    page.fill("input[name=name]", "Browser Open")
    page.fill("input[name=starts_on]", "2026-11-21")
    page.select_option("select[name=ruleset_code]", "tarok-net-2007")
    page.locator("select[name=ruleset_mode] option[value='tri+1']").wait_for(state="attached")
    page.select_option("select[name=ruleset_mode]", "tri+1")
    page.select_option("select[name=seating_system]", "points")
    page.fill("input[name=planned_rounds]", "2")
    page.fill("input[name=hands_per_round]", "4")
    page.fill("input[name=round_duration_minutes]", "55")
    page.click("form.form-grid button.primary")
    page.wait_for_url(re.compile(r"/manage/e/browser-open/players/$"))
    event = Event.objects.get(slug="browser-open")
    assert (event.ruleset_code, event.ruleset_mode, event.hands_per_round) == ("tarok-net-2007", "tri+1", 4)
    event.referees.add(referee)

    # Players: one typed in, seven imported from a pasted CSV; then check the first one in.
    page.fill("input[name=first_name]", "Irena")
    page.fill("input[name=last_name]", "Mlakar")
    page.fill("input[name=club]", "TK Kranj")
    page.click("form[action$='/players/add/'] button")
    page.wait_for_load_state()
    page.fill("textarea[name=text]", CSV)
    page.click("button:has-text('Import')")
    page.wait_for_load_state()
    assert "7 players imported." in page.content()
    first = event.registrations.get(start_number=1)
    row = page.locator(f"#reg-{first.pk}")
    row.locator("button:has-text('Check in')").click()
    page.locator(f"#reg-{first.pk} .badge.reg-checked_in").wait_for()
    assert event.registrations.filter(status=Registration.Status.CHECKED_IN).count() == 8

    other = new_page()
    login(other, base, "rok")

    for number in (1, 2):
        seat_and_publish(page, base, event.slug, number)
        _play_round(page, other, base, event, number)

    assert list(event.rounds.values_list("status", flat=True)) == [Round.Status.CLOSED] * 2
    assert set(Scorecard.objects.filter(table__round__event=event).values_list("status", flat=True)) == {
        Scorecard.Status.VERIFIED}

    # Closing the last planned round finished the event (issue #14: the status follows the
    # rounds); the standings are the final results, from confirmed cards only.
    page.goto(f"{base}/manage/e/{event.slug}/standings/")
    assert page.locator("h1").inner_text() == "Final results"
    assert page.locator("text=Finish the event").count() == 0
    page.goto(f"{base}/e/{event.slug}/standings/")
    assert page.locator("h1").inner_text() == "Final results"
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 8
    ranks = [rows.nth(i).locator("td").first.inner_text() for i in range(8)]
    assert ranks[0] == "1."
    # Two rounds at two tables of four: 4+3+2+1 table points per table and round.
    points = [rows.nth(i).locator("td.strong").first.inner_text() for i in range(8)]
    assert sum(int(p) for p in points) == 2 * 2 * 10
    assert "Pending tables" not in page.content()
