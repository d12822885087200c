"""The public pages: event list, event page with live standings, standings and their CSV,
seating with "find my table", a table's scorecard with the breakdown of every hand, a
player's history with the rank chart, and the projector; and that the standings page's query
count does not grow with the field."""

from __future__ import annotations

import csv
import io
import re

from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.pages.support import (  # noqa: F401
    World,
    client_for,
    make_event,
    make_user,
    play_table,
    seat_round,
    world_fixture,
    world_of_the_module,
)
from tournaments import services
from tournaments.models import Event


def test_event_list_shows_public_events_with_links(world: World):
    page = client_for(None).get("/").content.decode()
    assert "Event event-a" in page and 'href="/e/event-a/"' in page
    assert "Event event-b" in page


def test_event_page_polls_a_standings_fragment_that_names_pending_tables(world: World):
    page = client_for(None).get("/e/event-a/").content.decode()
    # htmx polling every few seconds, of the fragment URL, without reloading the page.
    assert 'hx-get="/e/event-a/standings/live/"' in page and 'hx-trigger="every 5s"' in page
    assert "/static/js/htmx.min.js" in page and "unpkg" not in page and "cdn" not in page.lower()
    live = client_for(None).get("/e/event-a/standings/live/").content.decode()
    assert 'id="standings-live"' in live and "<html" not in live
    # Table 1 is confirmed and counts; table 2 is still open and is named as pending.
    assert 'href="/e/event-a/rounds/1/tables/2/"' in live
    assert 'href="/e/event-a/rounds/1/tables/1/"' not in live


def test_standings_count_only_confirmed_tables(world: World):
    seated = {str(s.registration.start_number) for s in world.table1.seats.all()}
    rows = _standings_rows(client_for(None).get("/e/event-a/standings/").content.decode())
    # The four players of table 1 have table points 4, 3, 2, 1; the rest have none yet.
    points = {sn: pts for sn, pts in rows}
    assert sorted(points[sn] for sn in seated) == ["1", "2", "3", "4"]
    assert all(points[sn] == "0" for sn in points if sn not in seated)


def _standings_rows(html: str) -> list[tuple[str, str]]:
    """(start number, table points) of each standings row."""
    body = html.split('class="data standings"', 1)[1].split("</tbody>", 1)[0]
    out = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)[1:]:
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        out.append((cells[1], cells[-2]))
    return out


def test_standings_csv_export(world: World):
    response = client_for(None).get("/e/event-a/standings.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:6] == ["rank", "start_number", "first_name", "last_name", "club", "country"]
    assert "table_points" in rows[0] and "round_1" in rows[0]
    assert len(rows) == 1 + 8
    assert rows[1][0] == "1"
    card = world.table1.scorecard
    best = max(card.player_ids, key=lambda p: (card.totals[p], -int(p)))
    assert rows[1][1] == best


def test_standings_csv_does_not_let_a_name_become_a_spreadsheet_formula(world: World):
    player = world.event.registrations.get(start_number=1).player
    player.club = "=HYPERLINK(\"http://evil\")"
    player.save()
    rows = list(csv.reader(io.StringIO(client_for(None).get("/e/event-a/standings.csv").content.decode())))
    clubs = [r[4] for r in rows[1:]]
    assert "'=HYPERLINK(\"http://evil\")" in clubs and not any(c.startswith("=") for c in clubs)


def test_standings_rows_escape_what_a_player_typed(world: World):
    """The rows are written by the view, not the template: a name or club that looks like
    markup is shown as text on the standings page, its live fragment and the event page."""
    player = world.event.registrations.get(start_number=1).player
    player.last_name, player.club = "<img src=x onerror=alert(1)>", 'A&B "Club" <b>'
    player.save()
    for url in ("/e/event-a/standings/", "/e/event-a/standings/live/", "/e/event-a/"):
        page = client_for(None).get(url).content.decode()
        assert "<img src=x" not in page and "<b>" not in page, url
        assert "&lt;img src=x onerror=alert(1)&gt;" in page, url
        assert "A&amp;B &quot;Club&quot; &lt;b&gt;" in page, url
        assert f'href="/players/{player.pk}/"' in page, url


def test_the_event_page_counts_hands_per_round_only_where_a_round_plays_hands(world: World):
    """A money event's round is timed, not counted in hands (GP Vysočiny's money sheet): its
    page does not say "1 hands per round"; a one-hand round is "1 hand per round"."""
    organiser = make_user("money-organiser")
    make_event(organiser, slug="money", ruleset_code="gp-vysociny-2004", ruleset_mode="",
               seating_system="random", hands_per_round=1, stake_haler=2000, is_public=True)
    money = client_for(None).get("/e/money/").content.decode()
    assert "per round" not in money
    assert "4 hands per round" in client_for(None).get("/e/event-a/").content.decode()
    world.event.hands_per_round = 1
    world.event.save()
    caches["pages"].clear()  # a plain save is not an audited change of the results
    assert "1 hand per round" in client_for(None).get("/e/event-a/").content.decode()


def test_find_my_table_by_name_and_by_start_number(world: World):
    seat = world.table2.seats.select_related("registration__player").first()
    reg = seat.registration
    client = client_for(None)
    page = client.get("/e/event-a/rounds/1/", {"q": reg.player.last_name.lower()}).content.decode()
    assert 'class="table-card found" id="table-2"' in page
    assert page.count("table-card found") == 1
    fragment = client.get("/e/event-a/rounds/1/", {"q": str(reg.start_number)},
                          HTTP_HX_REQUEST="true").content.decode()
    assert fragment.startswith('<div id="seating"') and "<html" not in fragment
    assert 'class="table-card found" id="table-2"' in fragment
    assert "Nobody matches" in client.get("/e/event-a/rounds/1/", {"q": "zzz"}).content.decode()


def test_a_draft_round_is_not_public(world: World, django_capture_on_commit_callbacks):
    from tournaments.services import round_jobs

    # The round must be closed before the next is seated: annul the open table first.
    for table in world.round.tables.all():
        if table.scorecard.status == "open":
            services.scorecard_annul(scorecard=table.scorecard, actor=world.referee, reason="test")
    round_jobs.round_close(rnd=world.round, actor=world.organiser)
    seat_round(world.event, world.organiser, django_capture_on_commit_callbacks)
    assert client_for(None).get("/e/event-a/rounds/2/").status_code == 404
    assert client_for(world.referee).get("/e/event-a/rounds/2/").status_code == 200
    assert client_for(None).get("/e/event-a/rounds/2/tables/1/").status_code == 404


def test_table_page_shows_hands_breakdown_running_totals_and_radelci(world: World):
    card = world.table1.scorecard
    page = client_for(None).get("/e/event-a/rounds/1/tables/1/").content.decode()
    for number in range(1, 5):
        assert f'id="hand-{number}"' in page
    hands = list(card.hands.order_by("number"))
    # The klop of hand 2 gives every player a radelc, drawn as a circle.
    assert hands[1].state["radelci"] and all(v >= 1 for v in hands[1].state["radelci"].values())
    assert "○" in page
    # Every line of the engine's breakdown is shown.
    for hand in hands:
        for line in hand.lines:
            assert line["what"] in page
    # The kontra of hand 3 is in the hand's summary line.
    assert "kontra (" in page
    footer = page.split("<tfoot>", 1)[1].split("</tfoot>", 1)[0]
    for pid in card.player_ids:
        total = card.totals[pid]
        assert f'<span class="running">{str(total).replace("-", "−")}</span>' in footer


def test_player_page_has_history_and_an_svg_rank_chart(world: World):
    seat = world.table1.seats.select_related("registration__player").first()
    page = client_for(None).get(f"/players/{seat.registration.player_id}/").content.decode()
    assert "Event event-a" in page
    assert '<svg class="rank-chart"' in page and "<polyline" in page
    # The chart's point is the player's rank after round 1.
    from tournaments.domain.standings import event_standings

    rank = next(r.rank for r in event_standings(world.event, up_to_round=1).rows
                if r.registration.pk == seat.registration_id)
    assert f"Round 1: rank {rank}" in page


def test_player_page_offers_their_own_table_to_the_linked_user(world: World):
    seat = world.table1.seats.select_related("registration__player").order_by("position").first()
    url = f"/players/{seat.registration.player_id}/"
    mine = client_for(world.player).get(url).content.decode()
    assert "/manage/e/event-a/rounds/1/tables/1/" in mine
    assert "/manage/e/event-a/rounds/1/tables/1/" not in client_for(None).get(url).content.decode()


def test_projector_shows_clock_seating_and_standings_and_refreshes_itself(world: World):
    services.round_start_clock(rnd=world.round, actor=world.organiser)
    page = client_for(None).get("/e/event-a/projector/").content.decode()
    assert 'data-clock-minutes="55"' in page
    assert 'hx-trigger="every 15s"' in page and 'hx-select="#projector"' in page
    assert "Seating" in page and "Standings" in page
    for seat in world.table2.seats.select_related("registration__player"):
        assert seat.registration.player.last_name in page


def _standings_queries(event: Event) -> int:
    client = client_for(None)
    client.get(f"/e/{event.slug}/standings/")  # warm caches (content types, sessions)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/e/{event.slug}/standings/").status_code == 200
    return len(queries)


def test_standings_page_query_count_does_not_grow_with_the_field(db, django_capture_on_commit_callbacks):
    organiser = make_user("org")
    confirmer = make_user("conf")
    counts = []
    for slug, players in (("small", 8), ("large", 24)):
        event = make_event(organiser, slug=slug, players=players, referee=confirmer)
        rnd = seat_round(event, organiser, django_capture_on_commit_callbacks)
        services.round_publish(rnd=rnd, actor=organiser)
        for table in rnd.tables.all():
            play_table(table, organiser, confirmer, 4)
        counts.append(_standings_queries(event))
    assert counts[0] == counts[1], counts


def test_standings_use_the_players_own_word_for_the_score(db, django_capture_on_commit_callbacks):
    organiser = make_user("org")
    confirmer = make_user("conf")
    event = make_event(organiser, slug="cup", ruleset_code="steirischer-tarockcup-2017",
                       ruleset_mode="four", seating_system="random", min_table_size=4,
                       referee=confirmer)
    rnd = seat_round(event, organiser, django_capture_on_commit_callbacks)
    services.round_publish(rnd=rnd, actor=organiser)
    card = rnd.tables.get(number=1).scorecard
    p = card.player_ids
    services.hand_save(scorecard=card, number=1, actor=organiser, expected_version=None,
                       record={"game": "rufer", "declarer": p[0], "partner": p[1], "won": True})
    card.refresh_from_db()
    services.scorecard_submit(scorecard=card, actor=organiser)
    services.scorecard_confirm(scorecard=card, actor=confirmer, reason="a short test card: fewer hands than the round plays")
    page = client_for(None).get("/e/cup/standings/").content.decode()
    header = page.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert "Schrift" in header and "Table points" not in header
    # The Königrufen hand form offers a partner (the called king) and the Austrian game names.
    entry = client_for(organiser).get("/manage/e/cup/rounds/1/tables/2/").content.decode()
    assert 'name="partner"' in entry and '<option value="trischaken">Trischaken</option>' in entry
