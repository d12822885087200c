"""A player's personal link on a phone (issue #31): in headless Chromium at 360 px, in
Slovenian, the page names his table and seat and its button opens his table's page with his
seat already chosen, the card and the hand form ready (a real browser sends the form's Origin,
which the test client does not: a Referrer-Policy of no-referrer made it "null" and the CSRF
check refused the click). The page fits the phone, and a reissued link opens nothing."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tournaments.models import PlayerLink, Round, Seat
from tournaments.services import player_links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_opens_his_table_from_his_personal_link_on_a_phone(live_server, new_page):
    call_command("seed_demo", verbosity=0)
    rnd = Round.objects.filter(event__slug="demo-slovenian", status__in=["published", "playing"]).get()
    seat = Seat.objects.filter(round=rnd).select_related("registration__player", "table").first()
    link = PlayerLink.objects.get(registration=seat.registration, revoked_at__isnull=True)
    page = new_page(width=360, height=800)
    page.context.set_extra_http_headers({"Accept-Language": "sl"})
    page.goto(f"{live_server.url}/p/{link.token}/")
    text = page.inner_text("main")
    assert f"Sedite za mizo {seat.table.number}, na mestu {seat.position + 1}." in text
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0

    page.get_by_role("button", name=f"Odpri mizo {seat.table.number} za vnos iger").click()
    page.wait_for_load_state()
    assert "/t/" in page.url
    table = page.inner_text("main")
    assert "Kdo ste?" not in table
    assert f"#{seat.registration.start_number} {seat.registration.player}" in table
    assert page.locator("form.hand-form, #hand-form, form[action$='/hands/']").count() >= 1

    organiser = seat.registration.event.organisers.first()
    player_links.link_reissue(registration=seat.registration, actor=organiser)
    response = page.goto(f"{live_server.url}/p/{link.token}/")
    assert response.status == 404
