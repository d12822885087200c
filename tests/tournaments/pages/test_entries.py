"""Online entry's pages (issue #31), as a visitor, an entrant, the organiser and an outsider
use them: the form refuses at its field in the visitor's language and keeps nothing, a robot
filling the hidden field is refused, the public entry list shows names and clubs (never an
address) and does not exist for a private event, the organiser approves from the players page,
and the entry's own page confirms the address."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.pages.support import client_for, make_event, make_user
from tournaments import services
from tournaments.models import Entry, Event, PlayerLink

pytestmark = pytest.mark.django_db

SECRET = "hidden-address@example.org"


@pytest.fixture
def world(settings):
    settings.EMAIL_CONFIGURED = False  # the embedded default: every entry waits for approval
    boss = make_user("boss")
    event = make_event(boss, slug="open", players=2, status=Event.Status.REGISTRATION)
    services.event_update(event=event, actor=boss, online_entry=True, entry_cap=3,
                          players_may_withdraw=True)
    return {"boss": boss, "event": event}


def _form(**more) -> dict:
    return {"first_name": "Ana", "last_name": "Novak", "club": "TK Kranj", "country": "SI",
            "email": SECRET, "language": "sl", "consent": "on", "website": "", **more}


def test_the_event_page_offers_the_form_and_an_entry_waits_for_the_organiser(world):
    client = Client()
    page = client.get("/e/open/").content.decode()
    assert 'href="/e/open/enter/"' in page
    answer = client.post("/e/open/enter/", _form())
    assert answer.status_code == 302
    entry = Entry.objects.get()
    assert answer["Location"] == f"/e/open/entry/{entry.token}/"
    own = client.get(answer["Location"])
    assert own["X-Robots-Tag"] == "noindex, nofollow"
    assert "Waiting for the organiser" in own.content.decode()
    # The public list counts it as waiting for approval, by no name yet.
    listing = client.get("/e/open/entries/").content.decode()
    assert "1 entry waits for the organiser" in listing and "Novak" not in listing
    # The organiser approves it on his players page.
    players = client_for(world["boss"])
    shown = players.get("/manage/e/open/players/").content.decode()
    assert "Ana Novak" in shown and f"/manage/e/open/entries/{entry.pk}/approve/" in shown
    assert SECRET not in shown
    players.post(f"/manage/e/open/entries/{entry.pk}/approve/")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACCEPTED and entry.registration.start_number == 3
    listing = client.get("/e/open/entries/").content.decode()
    assert "Ana Novak" in listing and "TK Kranj" in listing and "3 of 3 places taken" in listing


def test_refusals_are_said_at_their_field_in_the_visitors_language_and_nothing_is_kept(world):
    client = Client(HTTP_ACCEPT_LANGUAGE="sl")
    answer = client.post("/e/open/enter/", _form(first_name="", consent="", country="Atlantida"))
    assert answer.status_code == 400
    page = answer.content.decode()
    errors = dict(re.findall(r'id="err-(\w+)" role="alert">([^<]+)<', page))
    assert {"first_name", "consent", "country"} <= set(errors)
    assert "javni" in errors["consent"].lower() or "javn" in errors["consent"].lower()
    assert not Entry.objects.exists()


def test_a_robot_filling_the_hidden_field_is_refused(world):
    answer = Client().post("/e/open/enter/", _form(website="http://buy.example"))
    assert answer.status_code == 400 and not Entry.objects.exists()


def test_a_private_events_entry_pages_do_not_exist_for_outsiders(world):
    services.event_update(event=world["event"], actor=world["boss"], is_public=False)
    client = Client()
    for url in ("/e/open/enter/", "/e/open/entries/"):
        assert client.get(url).status_code == 404
    assert client.post("/e/open/enter/", _form()).status_code == 404
    assert not Entry.objects.exists()
    # Its organiser sees them.
    assert client_for(world["boss"]).get("/e/open/entries/").status_code == 200


def test_the_address_is_on_no_public_page_csv_or_the_organisers_pages(world):
    client = Client()
    client.post("/e/open/enter/", _form())
    entry = Entry.objects.get()
    boss = client_for(world["boss"])
    boss.post(f"/manage/e/open/entries/{entry.pk}/approve/")
    for url in ("/e/open/", "/e/open/entries/", "/e/open/standings/", "/e/open/standings.csv",
                f"/e/open/entry/{entry.token}/"):
        assert SECRET not in client.get(url).content.decode(), url
    token = PlayerLink.objects.get(registration__entry=entry).token
    assert SECRET not in client.get(f"/p/{token}/").content.decode()
    for url in ("/manage/e/open/players/", "/manage/e/open/players/links/", "/manage/e/open/"):
        assert SECRET not in boss.get(url).content.decode(), url


def test_the_player_withdraws_on_his_personal_page_and_the_waiting_list_moves_up(world):
    boss = client_for(world["boss"])
    client = Client()
    for first in ("Ana", "Bor"):
        client.post("/e/open/enter/", _form(first_name=first, email=f"{first}@example.org"))
    ana, bor = Entry.objects.order_by("pk")
    for entry in (ana, bor):
        boss.post(f"/manage/e/open/entries/{entry.pk}/approve/")
    ana.refresh_from_db(), bor.refresh_from_db()
    assert (ana.status, bor.status) == (Entry.Status.ACCEPTED, Entry.Status.WAITING)
    bor_page = client.get(f"/e/open/entry/{bor.token}/").content.decode()
    assert "number <strong>1</strong> on the waiting list" in bor_page
    token = PlayerLink.objects.get(registration=ana.registration).token
    page = client.get(f"/p/{token}/").content.decode()
    assert f'action="/p/{token}/withdraw/"' in page and f'action="/p/{token}/absent/"' in page
    client.post(f"/p/{token}/absent/", {"round": "1", "absent": "1"})
    ana.registration.refresh_from_db()
    assert ana.registration.absent_rounds == [1]
    client.post(f"/p/{token}/withdraw/")
    bor.refresh_from_db()
    assert bor.status == Entry.Status.ACCEPTED
    assert "You have withdrawn" in client.get(f"/p/{token}/").content.decode()


def test_an_entry_withdrawn_on_its_own_page_leaves_the_waiting_list(world):
    client = Client()
    client.post("/e/open/enter/", _form())
    entry = Entry.objects.get()
    answer = client.post(f"/e/open/entry/{entry.token}/withdraw/")
    assert answer.status_code == 302
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    # Another event's address, or a wrong token, is no entry.
    assert client.get(f"/e/other/entry/{entry.token}/").status_code == 404
    assert client.post("/e/open/entry/nothing/withdraw/").status_code == 404


def test_the_organisers_withdrawal_row_answer_follows_the_places_and_the_waiting_list(world):
    """A withdrawal on the players page answers (htmx) its row with the places line out of
    band; when the place went to the waiting list's first, who is now a new row, the page
    reloads as a whole (HX-Refresh) instead of showing a stale list."""
    boss = client_for(world["boss"])
    client = Client()
    for first in ("Ana", "Bor"):
        client.post("/e/open/enter/", _form(first_name=first, email=f"{first}@example.org"))
    ana, bor = Entry.objects.order_by("pk")
    for entry in (ana, bor):
        boss.post(f"/manage/e/open/entries/{entry.pk}/approve/")
    page = boss.get("/manage/e/open/players/").content.decode()
    assert re.search(r'id="entry-places">Places: 3 of 3 places taken<', page)
    first = world["event"].registrations.order_by("start_number").first()
    answer = boss.post(f"/manage/e/open/players/{first.pk}/status/", {"status": "withdrawn"},
                       HTTP_HX_REQUEST="true")
    bor.refresh_from_db()
    assert bor.status == Entry.Status.ACCEPTED
    assert answer.status_code == 204 and answer["HX-Refresh"] == "true"
    page = boss.get("/manage/e/open/players/").content.decode()
    assert "Bor Novak" in page and "Waiting list" not in page
    # No one waits now: a withdrawal gives a place back, and the row's answer says so.
    second = world["event"].registrations.order_by("start_number")[1]
    answer = boss.post(f"/manage/e/open/players/{second.pk}/status/", {"status": "withdrawn"},
                       HTTP_HX_REQUEST="true").content.decode()
    places = re.search(r'<p[^>]*id="entry-places"[^>]*>([^<]*)</p>', answer)
    assert places and 'hx-swap-oob="true"' in places.group(0)
    assert places.group(1) == "Places: 2 of 3 places taken"
