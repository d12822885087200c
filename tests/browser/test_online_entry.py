"""Players come in on their own (issue #31), in headless Chromium, with a real mail server in
the test process: an organiser opens entries for nine places with his approval; eleven players
enter from phone-sized browsers in four languages (one typing the federation id of his record
in the registry, one entering a second time from another phone, and a robot filling the hidden
field), each confirming his address by the link mailed to him; the duplicate is recognised and
the robot refused; the organiser approves the eleven: nine have a place and two wait. One
withdraws on his personal page, and the first of the list moves up and is told in his
language. Round 1 is seated and published: every player's personal page shows his table, and
the e-mail he asked for names his table and seat in his language (sl, cs, de, en)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model

from sample_data.factories import allow_event_creation
from tests.browser.helpers import PASSWORD, login, save_screenshot, seat_and_publish
from tournaments import services
from tournaments.models import Entry, Event, Player, Registration, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["sl", "cs", "de", "en"]
PLAYERS = [("Ana", "Novak"), ("Bor", "Kranjc"), ("Marta", "Kos"), ("Dušan", "Zupan"),
           ("Eva", "Horvat"), ("Filip", "Dvořák"), ("Greta", "Huber"), ("Hana", "Svobodová"),
           ("Igor", "Mlakar"), ("Jana", "Veselá"), ("Karl", "Moser")]
# "You sit at table T, seat S." in each language's round message.
SEATED = {"sl": "sedite za mizo {t}, na mestu {s}.", "cs": "sedíte u stolu {t}, na místě {s}.",
          "de": "Sie sitzen an Tisch {t}, Platz {s}.", "en": "you sit at table {t}, seat {s}."}


def _address(first: str) -> str:
    return f"{first.lower()}@example.org".replace("š", "s")


def _body(mail) -> str:
    return mail.get_body(preferencelist=("plain",)).get_content()


def _links(mail, kind: str) -> list[str]:
    return re.findall(rf"http://[^/\s]+/{kind}/\S+/", _body(mail))


def _enter(page, base: str, first: str, last: str, language: str, **more) -> int:
    page.goto(f"{base}/e/spring/")
    page.locator("a[href='/e/spring/enter/']").first.click()
    page.fill("#id_first_name", first)
    page.fill("#id_last_name", last)
    page.fill("#id_club", more.get("club", "TK Koper"))
    page.fill("#id_country", "SI")
    page.fill("#id_federation_id", more.get("federation_id", ""))
    page.fill("#id_email", _address(first))
    page.select_option("#id_language", language)
    page.check("#id_round_messages")
    page.check("#id_consent")
    if more.get("robot"):
        # A robot fills every field it finds, the one no person sees too.
        page.evaluate("document.getElementById('id_website').value = 'http://cheap.example'")
    with page.expect_navigation() as answer:
        page.locator("form.entry-form button[type=submit]").click()
    return answer.value.status


def _confirm(page, smtp, first: str) -> None:
    mail = smtp.to(_address(first))[0]
    page.goto(_links(mail, "e/spring/entry")[0])
    with page.expect_navigation():
        page.locator("form[action$='/confirm/'] button").click()


def test_eleven_players_enter_on_their_phones_nine_get_a_place_and_the_list_moves_up(
        live_server, new_page, smtp):
    base = live_server.url
    boss = get_user_model().objects.create_user("spring-boss", password=PASSWORD)
    allow_event_creation(boss)
    event = services.event_create(
        actor=boss, name="Spring open", slug="spring", starts_on=dt.date(2027, 4, 10),
        ends_on=dt.date(2027, 4, 10), ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
        seating_system="points", planned_rounds=1, hands_per_round=4, status=Event.Status.REGISTRATION)
    marta = services.player_create(first_name="Marta", last_name="Kos", club="TK Koper",
                                   federation_id="SLO-42", actor=boss)

    # The organiser opens entries: nine places, each entry approved by him.
    desk = new_page()
    login(desk, base, "spring-boss")
    desk.goto(f"{base}/manage/e/spring/edit/")
    desk.check("#id_online_entry")
    desk.fill("#id_entry_cap", "9")
    desk.check("#id_players_may_withdraw")
    assert desk.is_checked("#id_entry_approval")
    with desk.expect_navigation():
        desk.locator("form.form-grid button.primary").click()
    event.refresh_from_db()
    assert (event.online_entry, event.entry_cap, event.entry_approval) == (True, 9, True)

    phones = {}
    for n, (first, last) in enumerate(PLAYERS):
        phone = phones[first] = new_page(width=360, height=780)
        language = LANGUAGES[n % 4]
        phone.context.set_extra_http_headers({"Accept-Language": language})
        extra = {"federation_id": "SLO-42"} if first == "Marta" else {}
        assert _enter(phone, base, first, last, language, **extra) == 200
        if n == 0:
            save_screenshot(phone, "entry-sent", full_page=True)
        _confirm(phone, smtp, first)
        assert phone.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    save_screenshot(phones["Ana"], "entry-confirmed", full_page=True)

    # Eva enters again from another phone: recognised, refused at the name, nothing kept.
    again = new_page(width=360, height=780)
    assert _enter(again, base, "Eva", "Horvat", "en") == 400
    assert "has already entered this event" in again.inner_text("#err-last_name")
    # The robot is refused.
    robot = new_page(width=360, height=780)
    assert _enter(robot, base, "Cheap", "Pills", "en", robot=True) == 400
    assert Entry.objects.filter(event=event).count() == 11
    assert not Entry.objects.filter(last_name="Pills").exists()

    # The organiser approves them in the order they came: nine places, two wait.
    desk.goto(f"{base}/manage/e/spring/players/")
    save_screenshot(desk, "entry-organiser", full_page=True, scroll_to="#entries")
    for _ in PLAYERS:
        with desk.expect_navigation():
            desk.locator(".entry-decision form[action$='/approve/'] button").first.click()
    statuses = dict(Entry.objects.filter(event=event).values_list("first_name", "status"))
    assert [statuses[f] for f, _ in PLAYERS] == [Entry.Status.ACCEPTED] * 9 + [Entry.Status.WAITING] * 2
    # Marta is the registry's Marta, not a second one.
    assert Registration.objects.get(event=event, player__last_name="Kos").player == marta
    assert Player.objects.filter(last_name="Kos").count() == 1
    listing = phones["Karl"]
    listing.goto(f"{base}/e/spring/entries/")
    assert "Jana Veselá" in listing.inner_text("#waiting") and "@" not in listing.content()
    save_screenshot(listing, "entry-list", full_page=True)

    # Bor withdraws on his personal page (from the mail that gave him his place).
    placed = [m for m in smtp.to(_address("Bor")) if _links(m, "p")][0]
    bor = phones["Bor"]
    bor.goto(_links(placed, "p")[0])
    with bor.expect_navigation():
        bor.locator("form[action$='/withdraw/'] button").click()
    assert bor.confirms, "withdrawing asks first"
    # Jana, first of the list, moves up and is told in Czech (her language: index 9 → cs).
    moved = smtp.to(_address("Jana"))[-1]
    number = Registration.objects.get(event=event, player__last_name="Veselá").start_number
    assert "uvolnilo se místo" in moved["Subject"] and f"startovní číslo {number}" in _body(moved)
    assert Entry.objects.get(first_name="Karl").status == Entry.Status.WAITING

    # Round 1 is seated and published.
    seat_and_publish(desk, base, "spring", 1, clock=False)
    seats = {s.registration.player.first_name: s for s in
             Seat.objects.filter(round__event=event).select_related("registration__player", "table")}
    assert set(seats) == {f for f, _ in PLAYERS} - {"Bor", "Karl"}
    for n, (first, _last) in enumerate(PLAYERS):
        if first not in seats:
            continue
        seat, language = seats[first], LANGUAGES[n % 4]
        mails = smtp.to(_address(first))
        place_mail = [m for m in mails if _links(m, "p")][-1]
        phone = phones[first]
        phone.goto(_links(place_mail, "p")[0])
        button = phone.locator("form[action$='/table/'] button")
        assert str(seat.table.number) in button.inner_text()
        round_mail = mails[-1]
        expected = SEATED[language].format(t=seat.table.number, s=seat.position + 1)
        assert expected in _body(round_mail), (first, language, _body(round_mail))
    save_screenshot(phones["Ana"], "entry-personal-page", full_page=True)
