"""Pages that follow the day by themselves (issue #14, findings 5 and 12): the projector shows
the whole field a screenful at a time with the tables still playing, and a round's seating and
a table's scorecard refresh themselves while the round is on, saying how fresh they are."""

from __future__ import annotations

import re

import pytest

from tests.tournaments.pages.support import (
    client_for,
    make_event,
    make_user,
    play_table,
    seat_round,
)
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def big_round(django_capture_on_commit_callbacks):
    organiser = make_user("org", can_create=True)
    referee = make_user("ref")
    event = make_event(organiser, slug="big", players=44, referee=referee)
    rnd = seat_round(event, organiser, django_capture_on_commit_callbacks)
    services.round_publish(rnd=rnd, actor=organiser)
    return event, rnd, organiser, referee


def _places(html: str) -> list[int]:
    body = html.split('class="data standings"', 1)[1].split("</table>", 1)[0]
    return [int(n) for n in re.findall(r'<td class="num">(\d+)\.</td>', body)]


def test_the_projector_sends_the_whole_field_for_its_script_to_page_and_names_the_open_tables(big_round):
    event, rnd, organiser, referee = big_round
    for table in rnd.tables.order_by("number")[:2]:
        play_table(table, organiser, referee, 4)
    anonymous = client_for(None)
    first = anonymous.get("/e/big/projector/").content.decode()
    # Every place, in order: static/js/projector.js shows as many as the screen holds and pages
    # on; the refresh asks for the same page again (the script keeps the page on screen).
    places = _places(first)
    assert len(places) == 44 and places == sorted(places) and places[0] == 1
    assert 'hx-get="/e/big/projector/"' in first and "js/projector.js" in first
    assert 'data-template="Page {page} of {pages}, places {first}–{last} of {field}"' in first
    open_tables = re.search(r"Still playing: (.*?)</p>", first).group(1)
    assert re.findall(r"<strong>(\d+)</strong>", open_tables) == [str(n) for n in range(3, 12)]
    # An old address with a page (an open browser tab from before) shows the same.
    assert _places(anonymous.get("/e/big/projector/?page=3").content.decode()) == places


def test_the_round_and_a_tables_card_refresh_themselves_while_the_round_is_on(big_round):
    event, rnd, organiser, referee = big_round
    anonymous = client_for(None)
    seating = anonymous.get("/e/big/rounds/1/?q=Ana1").content.decode()
    assert 'hx-get="/e/big/rounds/1/?q=Ana1"' in seating and 'hx-trigger="every 5s"' in seating
    assert 'class="updated' in seating
    card = anonymous.get("/e/big/rounds/1/tables/1/").content.decode()
    assert 'id="live-card" hx-get="/e/big/rounds/1/tables/1/"' in card and 'class="updated' in card
    # The htmx refresh of the seating gets the seating alone (and polls on).
    fragment = anonymous.get("/e/big/rounds/1/?q=Ana1", HTTP_HX_REQUEST="true").content.decode()
    assert fragment.startswith('<div id="seating" hx-get=') and "<html" not in fragment
    # Once the round is closed nothing changes any more: no polling.
    for table in rnd.tables.all():
        services.scorecard_annul(scorecard=table.scorecard, actor=referee, reason="test")
    from tournaments.services import round_jobs

    round_jobs.round_close(rnd=rnd, actor=organiser)
    closed = anonymous.get("/e/big/rounds/1/").content.decode()
    assert "hx-trigger=\"every" not in closed.split('id="seating"', 1)[1].split(">", 1)[0]
    assert 'id="live-card" hx-get' not in anonymous.get("/e/big/rounds/1/tables/1/").content.decode()
