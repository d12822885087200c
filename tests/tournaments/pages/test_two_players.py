"""Two-player tarok (Tarok.net §2.2 "Tarok v dveh") through the product: an event of tables
of two is seated by the points system, its players enter igram and the ordinary game from a
table link on the phone (no kontra or penalty rows: the clause names none), the card totals
what §2.2 says, and the printed sheet is a two-column sheet with both players."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from sample_data.factories import allow_event_creation
from tests.tournaments.pages.support import make_user
from tournaments import services
from tournaments.models import Scorecard
from tournaments.pages.table_link import DEVICE_COOKIE
from tournaments.services import round_jobs, table_links

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_day():
    organiser = allow_event_creation(make_user("napoleon"))
    event = services.event_create(
        actor=organiser, name="Tarok v dveh", slug="dva", starts_on=dt.date(2026, 11, 28),
        ends_on=dt.date(2026, 11, 28), ruleset_code="tarok-net-2007", ruleset_mode="two",
        seating_system="points", planned_rounds=2, hands_per_round=4, table_size=2,
        min_table_size=2)
    for n in range(1, 5):
        player = services.player_create(first_name=f"Igor{n}", last_name=f"Dvojka{n}")
        services.registration_create(event=event, player=player, actor=organiser)
    job = round_jobs.round_generation_queue(event=event, actor=organiser)
    round_jobs.round_generate(job.pk)
    rnd = event.rounds.get(number=1)
    assert sorted(len(t.seats.all()) for t in rnd.tables.all()) == [2, 2]
    services.round_publish(rnd=rnd, actor=organiser)
    return {"event": event, "round": rnd, "links": table_links.links_ensure(rnd=rnd)}


def _phone(token: str, seat: int) -> Client:
    client = Client()
    client.cookies[DEVICE_COOKIE] = f"phone{seat}"
    assert client.post(f"/t/{token}/seat/", {"seat": seat}).status_code == 302
    return client


def test_a_table_of_two_enters_igram_and_the_ordinary_game(two_day):
    link = two_day["links"][1]
    card = Scorecard.objects.get(table=link.table)
    first, second = card.player_ids
    phone = _phone(link.token, 1)
    page = phone.get(f"/t/{link.token}/").content.decode()
    assert 'value="igram"' in page and 'value="navadna"' in page
    # §2.2 names no kontra and no penalties: the form offers neither
    assert 'name="con-0-on"' not in page and 'name="pen-0-kind"' not in page
    assert f'name="tbp-{first}"' not in page and f'name="pbp-{first}"' in page
    posted = phone.post(f"/t/{link.token}/hands/", {
        "number": 1, "version": card.version, "game": "igram", "declarer": first,
        "points": 44})
    assert posted.status_code == 302, posted.content.decode()[:2000]
    card.refresh_from_db()
    posted = phone.post(f"/t/{link.token}/hands/", {
        "number": 2, "version": card.version, "game": "navadna",
        f"pbp-{first}": 30, f"pbp-{second}": 40})
    assert posted.status_code == 302, posted.content.decode()[:2000]
    card.refresh_from_db()
    posted = phone.post(f"/t/{link.token}/hands/", {
        "number": 3, "version": card.version, "game": "igram", "declarer": second,
        "points": 31})
    assert posted.status_code == 302
    card.refresh_from_db()
    # igram 44: (44-35)*2 = 18; ordinary 40: +5; igram 31 lost: -(35-31)*3 = -12
    assert card.totals == {first: 18, second: 5 - 12}
    # a hand whose points do not add up is refused in words, nothing saved
    refused = phone.post(f"/t/{link.token}/hands/", {
        "number": 4, "version": card.version, "game": "navadna",
        f"pbp-{first}": 30, f"pbp-{second}": 20})
    assert refused.status_code == 400
    assert "points add up to 50, not 70" in refused.content.decode()
    assert card.hands.count() == 3
    # in Slovenian the refusal and the breakdown are in words
    phone.cookies["django_language"] = "sl"
    refused = phone.post(f"/t/{link.token}/hands/", {
        "number": 4, "version": card.version, "game": "navadna",
        f"pbp-{first}": 30, f"pbp-{second}": 20}).content.decode()
    assert "70" in refused and "50" in refused and "add up" not in refused
    from django.utils import translation

    from tournaments.engine_text import line_text
    lines = [line for number in (1, 2, 3)
             for line in card.hands.get(number=number).lines]
    with translation.override("sl"):
        assert [line_text(line, "tarok-net-2007") for line in lines] == [
            "igram dobljen s 44 točkami: razlika 9 ×2",
            "navadna igra dobljena s 40 točkami: razlika 5",
            "igram izgubljen s 31 točkami: razlika 4 ×3"]


@pytest.mark.slow
def test_the_printed_sheet_has_two_columns(two_day, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    from tests.tournaments.pdf.pdftext import text
    from tournaments.printing import render, selectors

    rnd = selectors.round_for_print(two_day["event"], 1)
    table = two_day["round"].tables.order_by("number").first()
    pdf = render.table_sheet_pdf(rnd, table.number, "https://print.example.org")
    body = text(pdf)
    names = [s.registration.player.last_name for s in table.seats.select_related(
        "registration__player")]
    assert len(names) == 2
    for name in names:
        assert name in body
    assert "two players" in body
    # §2.2 has no radelci: the sheet has no row to mark them, and says only to write each game
    assert "Radelci" not in body and "radelc" not in body
    assert "Write every game as soon as it is scored." in body


def test_an_event_of_two_players_needs_tables_of_two():
    from django.utils import translation

    from tournaments.errors import ServiceError

    organiser = allow_event_creation(make_user("napoleon2"))
    fields = {"name": "Dva", "slug": "dva2", "starts_on": dt.date(2026, 11, 28),
              "ends_on": dt.date(2026, 11, 28), "ruleset_code": "tarok-net-2007",
              "ruleset_mode": "two", "seating_system": "points", "table_size": 4,
              "min_table_size": 3}
    with translation.override("sl"), pytest.raises(ServiceError) as refused:
        services.event_create(actor=organiser, **fields)
    problem = next(e for e in refused.value.errors if e["field"] == "table_size")
    assert problem["message"] == "Oblika igre »dva igralca« ima za mizo 2 igralca, ne 4."
    # TRI + 1 seats four or three; a table of three is fine, of two is not
    with pytest.raises(ServiceError) as refused:
        services.event_create(actor=organiser, **dict(fields, ruleset_mode="tri+1", table_size=2,
                                                       min_table_size=2))
    assert [e["message"] for e in refused.value.errors if e["field"] == "table_size"] == [
        "The table form “TRI + 1” seats 4 or 3 players at a table, not 2."]
    assert services.event_create(actor=organiser, **dict(fields, ruleset_mode="tri+1",
                                                          table_size=3)).table_size == 3
