"""The personal link (/p/<token>/, issue #31): every registration gets one; it shows the
player his table and seat as soon as a round is published, with that table's link, and his
rounds and place; it shows nothing of a draft and nothing of another player; the organiser
prints the links with their QR codes and reissues one, after which the old one is dead; a
table link of a finished round leads the phone that played it on to its current table."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.pages.support import client_for, make_event, make_user
from tournaments import archive, services
from tournaments.models import AuditEntry, PlayerLink, TableLink
from tournaments.services import player_links, round_jobs, table_links

pytestmark = pytest.mark.django_db


@pytest.fixture
def day():
    organiser = make_user("boss")
    referee = make_user("ref")
    event = make_event(organiser, slug="open", players=8, referee=referee)
    return {"event": event, "organiser": organiser, "referee": referee}


def _link(event, start_number: int) -> PlayerLink:
    return PlayerLink.objects.get(registration__event=event, registration__start_number=start_number,
                                  revoked_at__isnull=True)


def _round(event, organiser, number: int, tables: list[list[str]], *, publish: bool = True):
    rnd = services.round_store(event=event, number=number, seating_system="points", seed=number,
                               tables=tables, actor=organiser)
    if publish:
        services.round_publish(rnd=rnd, actor=organiser)
        table_links.links_ensure(rnd=rnd)
    return rnd


def _close(rnd, organiser):
    for table in rnd.tables.all():
        services.scorecard_annul(scorecard=table.scorecard, actor=organiser, reason="test")
    round_jobs.round_close(rnd=rnd, actor=organiser)


def test_every_registration_has_one_live_unguessable_link(day):
    event = day["event"]
    links = list(PlayerLink.objects.filter(registration__event=event))
    assert len(links) == 8 == len({link.token for link in links})
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{32}", link.token) for link in links)
    # An import's registrations get theirs as well (one insert for the file).
    created = services.registrations_create_many(
        event=event, actor=day["organiser"],
        entries=[(services.player_create(first_name="Late", last_name=f"Comer{n}", club="TK"),
                  20 + n, "registered") for n in range(3)])
    assert PlayerLink.objects.filter(registration__in=created, revoked_at__isnull=True).count() == 3


def test_the_page_shows_the_table_and_seat_once_the_round_is_published_never_a_draft(day):
    event, organiser = day["event"], day["organiser"]
    page = Client().get(f"/p/{_link(event, 6).token}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ana6" in text and "No round is drawn yet" in text
    assert page["Referrer-Policy"] == "same-origin" and "noindex" in page["X-Robots-Tag"]
    assert "no-cache" in page["Cache-Control"] or "no-store" in page["Cache-Control"]

    rnd = _round(event, organiser, 1, [["1", "2", "3", "4"], ["5", "8", "6", "7"]], publish=False)
    assert "No round is drawn yet" in Client().get(f"/p/{_link(event, 6).token}/").content.decode()

    services.round_publish(rnd=rnd, actor=organiser)
    table_links.links_ensure(rnd=rnd)
    token = _link(event, 6).token
    phone = Client()
    text = phone.get(f"/p/{token}/").content.decode()
    live = TableLink.objects.get(table__round=rnd, table__number=2, revoked_at__isnull=True)
    assert "You sit at table <strong>2</strong>, seat <strong>3</strong>." in text
    assert f'action="/p/{token}/table/"' in text
    # Only his own: no table's token, nor the names of the players he sits with.
    assert live.token not in text
    assert "Ana5 " not in text and "Ana7 " not in text and "Ana1 " not in text
    # His table's page, his seat already chosen on this phone: the card, not "Who are you?".
    response = phone.post(f"/p/{token}/table/")
    assert response.status_code == 302 and response["Location"] == f"/t/{live.token}/"
    table_page = phone.get(response["Location"]).content.decode()
    assert "Who are you?" not in table_page and "Save hand 1" in table_page
    assert "#6 Ana6" in table_page.replace("<strong>", "").replace("</strong>", "")
    assert Client().get(f"/p/{token}/table/").status_code == 405


def test_the_page_in_slovenian(day):
    event, organiser = day["event"], day["organiser"]
    _round(event, organiser, 1, [["1", "2", "3", "4"], ["5", "6", "7", "8"]])
    page = Client(headers={"accept-language": "sl"}).get(f"/p/{_link(event, 2).token}/")
    text = page.content.decode()
    assert "Sedite za mizo <strong>1</strong>, na mestu <strong>2</strong>." in text


def test_after_the_round_the_page_shows_the_rounds_and_waits_for_the_next(day):
    event, organiser = day["event"], day["organiser"]
    rnd = _round(event, organiser, 1, [["1", "2", "3", "4"], ["5", "6", "7", "8"]])
    _close(rnd, organiser)
    token = _link(event, 3).token
    text = Client().get(f"/p/{token}/").content.decode()
    assert "The next round is not drawn yet" in text and "Your rounds" in text
    assert "The event plans 2 rounds." in text and f"/p/{token}/table/" not in text
    # A click on a page left open from the round before: back to the page, which says so.
    response = Client().post(f"/p/{token}/table/")
    assert response.status_code == 302 and response["Location"] == f"/p/{token}/"


def test_wrong_and_reissued_links_are_not_found(day):
    event, organiser = day["event"], day["organiser"]
    old = _link(event, 4)
    assert Client().get("/p/" + "x" * 32 + "/").status_code == 404
    assert Client().get("/p/short/").status_code == 404

    response = client_for(organiser).post(f"/manage/e/{event.slug}/players/4/link/reissue/")
    assert response.status_code == 302
    new = _link(event, 4)
    assert new.token != old.token
    assert Client().get(f"/p/{old.token}/").status_code == 404
    assert Client().get(f"/p/{new.token}/").status_code == 200
    entry = AuditEntry.objects.get(action="player_link.reissue")
    assert entry.actor == organiser and entry.event == event


def test_only_the_organiser_lists_and_reissues_the_links(day):
    event, organiser, referee = day["event"], day["organiser"], day["referee"]
    token = _link(event, 1).token
    listing = client_for(organiser).get(f"/manage/e/{event.slug}/players/links/")
    text = listing.content.decode()
    assert listing.status_code == 200
    assert text.count('class="badge-card"') == 8 and f"/p/{token}/" in text
    assert "data:image/png;base64," in text
    # A public event: a stranger sees it, and is refused as the referee is.
    for client, status in ((client_for(referee), 403), (client_for(make_user("nobody")), 403)):
        assert client.get(f"/manage/e/{event.slug}/players/links/").status_code == status
        assert client.post(f"/manage/e/{event.slug}/players/1/link/reissue/").status_code == status
    assert Client().get(f"/manage/e/{event.slug}/players/links/").status_code == 302
    assert _link(event, 1).token == token
    assert client_for(organiser).post(
        f"/manage/e/{event.slug}/players/99/link/reissue/").status_code == 404


def test_a_private_events_page_links_to_no_public_page(day):
    organiser = day["organiser"]
    event = make_event(organiser, slug="closed", players=4, is_public=False)
    _round(event, organiser, 1, [["1", "2", "3", "4"]])
    text = Client().get(f"/p/{_link(event, 1).token}/").content.decode()
    assert "You sit at table <strong>1</strong>" in text
    assert f"/e/{event.slug}/" not in text


def test_a_finished_rounds_table_link_leads_the_phone_on_to_its_current_table(day):
    event, organiser = day["event"], day["organiser"]
    first = _round(event, organiser, 1, [["1", "2", "3", "4"], ["5", "6", "7", "8"]])
    link1 = TableLink.objects.get(table__round=first, table__number=1, revoked_at__isnull=True)
    phone = Client()
    assert phone.post(f"/t/{link1.token}/seat/", {"seat": 2}).status_code == 302
    assert "later-table" not in phone.get(f"/t/{link1.token}/").content.decode()
    _close(first, organiser)
    second = _round(event, organiser, 2, [["1", "5", "3", "7"], ["2", "6", "4", "8"]])
    link2 = TableLink.objects.get(table__round=second, table__number=2, revoked_at__isnull=True)
    text = phone.get(f"/t/{link1.token}/").content.decode()
    assert "Round 2 is published: you sit at table 2." in text
    assert f'href="/t/{link2.token}/"' in text


def test_an_imported_archive_gives_its_registrations_new_links(day):
    event = day["event"]
    doc = archive.loads(archive.dumps(archive.export_event(event)))
    old_tokens = set(PlayerLink.objects.values_list("token", flat=True))
    event.slug = "open-old"
    event.save()
    copy = archive.import_event(doc, actor=make_user("staff", staff=True))
    links = PlayerLink.objects.filter(registration__event=copy, revoked_at__isnull=True)
    assert links.count() == 8 and not set(links.values_list("token", flat=True)) & old_tokens
    assert player_links.links_ensure(event=copy) == 0


def test_a_seat_chosen_on_a_finished_rounds_sheet_leads_nowhere(day):
    """Whoever kept a round-1 sheet cannot choose another player's seat on it after the round
    and be led to that player's table (its live link) in round 2."""
    event, organiser = day["event"], day["organiser"]
    first = _round(event, organiser, 1, [["1", "2", "3", "4"], ["5", "6", "7", "8"]])
    link1 = TableLink.objects.get(table__round=first, table__number=1, revoked_at__isnull=True)
    _close(first, organiser)
    second = _round(event, organiser, 2, [["1", "5", "3", "7"], ["2", "6", "4", "8"]])
    link2 = TableLink.objects.get(table__round=second, table__number=2, revoked_at__isnull=True)
    phone = Client()
    assert phone.post(f"/t/{link1.token}/seat/", {"seat": 2}).status_code == 302
    text = phone.get(f"/t/{link1.token}/").content.decode()
    assert "later-table" not in text and link2.token not in text


def test_a_reissued_personal_link_leads_its_old_holder_to_no_later_table(day):
    event, organiser = day["event"], day["organiser"]
    first = _round(event, organiser, 1, [["1", "2", "3", "4"], ["5", "6", "7", "8"]])
    link1 = TableLink.objects.get(table__round=first, table__number=1, revoked_at__isnull=True)
    old = _link(event, 2).token
    thief = Client()
    assert thief.post(f"/p/{old}/table/")["Location"] == f"/t/{link1.token}/"
    player_links.link_reissue(registration=_link(event, 2).registration, actor=organiser)
    _close(first, organiser)
    second = _round(event, organiser, 2, [["1", "5", "3", "7"], ["2", "6", "4", "8"]])
    link2 = TableLink.objects.get(table__round=second, table__number=2, revoked_at__isnull=True)
    text = thief.get(f"/t/{link1.token}/").content.decode()
    assert "later-table" not in text and link2.token not in text
    # The player with his new link is led to his table as before.
    assert Client().post(f"/p/{_link(event, 2).token}/table/")["Location"] == f"/t/{link2.token}/"
