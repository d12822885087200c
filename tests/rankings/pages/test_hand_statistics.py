"""The statistics pages of the hands: a player's page shows how he plays (a table and an SVG)
from the confirmed tables of public events only — never a private event's, a draft round's or
an unconfirmed card's hands; an event's statistics page, linked from its tabs, shows its most
played game, biggest hand and longest winning streak as worked out by hand, in a constant
number of queries, and answers in every language."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from sample_data.factories import EventFactory, PlayerFactory, RegistrationFactory, UserFactory
from tournaments import services
from tournaments.models import Event, Round, Scorecard

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 3, 7)
LANGUAGES = ("en", "sl", "cs", "de")


def trojka(declarer: int, resting: int, points: int) -> dict:
    return {"game": "trojka", "declarer": str(declarer), "resting": str(resting),
            "points": points}


def play_event(players, rounds, *, public=True, rated=True, confirm=True, slug=None) -> Event:
    """An event of `players` (start numbers 1, 2, ... in that order) played through the
    services: `rounds` is a list of rounds, each a list of tables (start numbers, the hands'
    records). Every card is submitted by the organiser and confirmed by the referee unless
    `confirm` is false (then it stays submitted)."""
    organiser, referee = UserFactory(), UserFactory()
    most = max(len(hands) for tables in rounds for _seats, hands in tables)
    event = EventFactory(starts_on=DAY, ends_on=DAY, is_public=public, rated=rated,
                         seating_system="random", hands_per_round=most,
                         **({"slug": slug} if slug else {}))
    event.organisers.add(organiser)
    event.referees.add(referee)
    for number, player in enumerate(players, start=1):
        RegistrationFactory(event=event, player=player, start_number=number)
    for number, tables in enumerate(rounds, start=1):
        rnd = services.round_store(event=event, number=number, seating_system="random", seed=1,
                                   tables=[[str(n) for n in seats] for seats, _ in tables],
                                   actor=organiser)
        services.round_publish(rnd=rnd, actor=organiser)
        cards = Scorecard.objects.filter(table__round=rnd).order_by("table__number")
        for card, (_seats, hands) in zip(cards, tables, strict=True):
            for hand_number, record in enumerate(hands, start=1):
                card.refresh_from_db()
                services.hand_save(scorecard=card, number=hand_number, actor=organiser,
                                   expected_version=card.version, record=record)
            services.scorecard_submit(scorecard=card, actor=organiser)
            if confirm:
                services.scorecard_confirm(scorecard=card, actor=referee,
                                           reason="fewer hands than the round plays")
    return event


def statistics_section(page: str) -> str:
    start = page.index('class="card player-statistics"')
    return page[start:page.index("</section>", start)]


def declared(section: str, game: str) -> tuple[int, int]:
    """(declared, won) of a game in the player's games table."""
    table = section[section.index('class="data compact hand-games"'):]
    row = re.search(rf"<tr><td>{game}</td><td class=\"num\">(\d+)</td><td class=\"num\">(\d+)</td>",
                    table)
    assert row, game
    return int(row.group(1)), int(row.group(2))


def test_the_players_page_shows_his_figures_as_a_table_and_an_svg():
    players = [PlayerFactory() for _ in range(4)]
    play_event(players, [[([1, 2, 3, 4], [
        trojka(1, 4, 50),  # won: 25
        trojka(1, 2, 30),  # lost: -15
        {"game": "dvojka", "declarer": "1", "resting": "3", "points": 40,
         "announcements": [{"name": "trula", "by": "1", "announced": True, "achieved": True}],
         "contras": [{"on": "game", "by": "2", "level": 1}]},
        {"game": "klop", "resting": "4",
         "points_by_player": {"1": 10, "2": 20, "3": 30, "4": 10}},
    ])]])
    page = Client().get(f"/players/{players[0].pk}/").content.decode()
    section = statistics_section(page)
    assert "<svg" in section and 'role="img"' in section
    assert declared(section, "trojka") == (2, 1)
    assert declared(section, "dvojka") == (1, 1)
    # trula announced once and made; "2"'s kontra on a won dvojka was wrong
    assert re.search(r"<td>trula</td><td class=\"num\">1</td><td class=\"num\">1</td>", section)
    # the klop gives everybody a radelc
    assert re.search(r"Radelci collected</th><td class=\"num\">1</td>", section)
    two = statistics_section(Client().get(f"/players/{players[1].pk}/").content.decode())
    assert re.search(r"Contras given</th><td class=\"num\">1</td>", two)
    assert re.search(r"Contras wrong</th><td class=\"num\">1</td>", two)
    # numbers as a table for screen readers: the chart's numbers are in the table's cells
    assert "<caption" in section


def test_a_private_event_a_draft_round_and_an_unconfirmed_card_never_count():
    players = [PlayerFactory() for _ in range(4)]
    table = [1, 2, 3, 4]
    public = play_event(players, [[(table, [trojka(1, 4, 50)])],
                                  [(table, [trojka(1, 4, 50), trojka(1, 4, 60)])]],
                        slug="public-one")
    play_event(players, [[(table, [trojka(1, 4, 50)] * 3)]], public=False)
    play_event(players, [[(table, [trojka(1, 4, 20)] * 4)]], confirm=False)
    unrated = play_event(players, [[(table, [trojka(1, 4, 20)])]], rated=False, slug="friendly")
    section = statistics_section(Client().get(f"/players/{players[0].pk}/").content.decode())
    # 1 + 2 from the public event, 1 (lost) from the unrated one; none of the private's three
    # nor of the unconfirmed card's four
    assert declared(section, "trojka") == (4, 3)
    assert "friendly" in section and unrated.name in section and "unrated" in section
    # the second round of the public event becomes a draft: its two hands drop out
    Round.objects.filter(event=public, number=2).update(status=Round.Status.DRAFT)
    section = statistics_section(Client().get(f"/players/{players[0].pk}/").content.decode())
    assert declared(section, "trojka") == (2, 1)


def test_a_player_of_private_events_only_shows_no_statistics():
    players = [PlayerFactory() for _ in range(4)]
    play_event(players, [[([1, 2, 3, 4], [trojka(1, 4, 50)])]], public=False)
    user = UserFactory()
    players[0].user = user
    players[0].save()
    client = Client()
    client.force_login(user)
    page = client.get(f"/players/{players[0].pk}/").content.decode()
    assert "player-statistics" not in page


@pytest.fixture
def small_event():
    """Eight players, two rounds of two tables; worked out by hand:
    - trojka is played 7 times (of 10 hands), won 6 times;
    - the biggest hand: "5"'s trojka with 70 points, 10 + 35 = 45;
    - the longest streak: "1" wins three declared games in a row (two in round 1, one in
      round 2); "5" wins one, loses one, wins one."""
    players = [PlayerFactory() for _ in range(8)]
    event = play_event(players, [
        [([1, 2, 3, 4], [trojka(1, 4, 50), trojka(1, 2, 40),
                         {"game": "dvojka", "declarer": "2", "resting": "3", "points": 30}]),
         ([5, 6, 7, 8], [trojka(5, 8, 70), trojka(5, 6, 20),
                         {"game": "klop", "resting": "7",
                          "points_by_player": {"5": 10, "6": 20, "7": 30, "8": 10}}])],
        [([1, 5, 2, 6], [trojka(1, 6, 45), trojka(5, 1, 40)]),
         ([3, 7, 4, 8], [trojka(3, 8, 36), {"game": "dvojka", "declarer": "4", "resting": "7",
                                            "points": 36}])],
    ], slug="small")
    return event, players


def test_the_event_statistics_page_shows_the_figures_worked_out_by_hand(small_event):
    event, players = small_event
    event_page = Client().get(f"/e/{event.slug}/").content.decode()
    assert f'href="/e/{event.slug}/statistics/"' in event_page
    response = Client().get(f"/e/{event.slug}/statistics/")
    assert response.status_code == 200
    page = response.content.decode()
    most = page[page.index('class="data compact most-played"'):]
    first = re.search(r"<tbody>\s*<tr><td>([^<]+)</td><td class=\"num\">(\d+)</td>", most)
    assert first.groups() == ("trojka", "7")
    assert "<svg" in page
    biggest = page[page.index('class="data compact biggest-hands"'):]
    row = re.search(r"<tbody>\s*<tr><td>(.*?)</td><td class=\"num\"><b>(\d+)</b></td>"
                    r"<td>([^<]+)</td>", biggest, re.S)
    assert str(players[4]) in row.group(1) and row.group(2) == "45" and row.group(3) == "trojka"
    streaks = page[page.index('class="data compact winning-streaks"'):]
    row = re.search(r"<tbody>\s*<tr><td>(.*?)</td><td class=\"num\"><b>(\d+)</b>", streaks, re.S)
    assert str(players[0]) in row.group(1) and row.group(2) == "3"


def test_a_private_events_statistics_are_its_officials_only():
    players = [PlayerFactory() for _ in range(4)]
    event = play_event(players, [[([1, 2, 3, 4], [trojka(1, 4, 50)])]], public=False)
    assert Client().get(f"/e/{event.slug}/statistics/").status_code == 404
    client = Client()
    client.force_login(event.referees.get())
    assert client.get(f"/e/{event.slug}/statistics/").status_code == 200
    assert Client().get("/e/no-such-event/statistics/").status_code == 404


def test_unconfirmed_cards_are_not_on_the_event_statistics_page():
    players = [PlayerFactory() for _ in range(4)]
    event = play_event(players, [[([1, 2, 3, 4], [trojka(1, 4, 50)])]], confirm=False)
    page = Client().get(f"/e/{event.slug}/statistics/").content.decode()
    assert "No confirmed hands yet." in page and "<svg" not in page


def event_of_tables(n: int) -> Event:
    players = [PlayerFactory() for _ in range(4 * n)]
    tables = [([4 * t + 1, 4 * t + 2, 4 * t + 3, 4 * t + 4],
               [trojka(4 * t + 1, 4 * t + 4, 50), trojka(4 * t + 2, 4 * t + 1, 30)])
              for t in range(n)]
    return play_event(players, [tables])


@pytest.mark.parametrize("tables", [2, 6])
def test_the_event_statistics_page_takes_a_constant_number_of_queries(
        tables, django_assert_max_num_queries):
    event = event_of_tables(tables)
    client = Client()
    with django_assert_max_num_queries(5):
        assert client.get(f"/e/{event.slug}/statistics/").status_code == 200


def test_the_players_page_takes_as_many_queries_for_one_event_as_for_three(
        django_assert_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    players = [PlayerFactory() for _ in range(4)]
    play_event(players, [[([1, 2, 3, 4], [trojka(1, 4, 50)])]])
    with CaptureQueriesContext(connection) as one:
        Client().get(f"/players/{players[0].pk}/")
    for _ in range(2):
        play_event(players, [[([1, 2, 3, 4], [trojka(1, 4, 50)])]])
    with CaptureQueriesContext(connection) as three:
        page = Client().get(f"/players/{players[0].pk}/").content.decode()
    assert declared(statistics_section(page), "trojka") == (3, 3)
    # The statistics section reads two queries whatever the events; the page's history of
    # events (tournaments) grows with them, so compare only the queries on hands.
    hand_queries = [q for q in three.captured_queries if "tournaments_hand" in q["sql"]]
    assert len(hand_queries) == len([q for q in one.captured_queries
                                     if "tournaments_hand" in q["sql"]]) == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_answer_in_every_language(small_event, language):
    event, players = small_event
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    page = client.get(f"/e/{event.slug}/statistics/")
    assert page.status_code == 200
    assert f'<html lang="{language}">' in page.content.decode()
    player = client.get(f"/players/{players[0].pk}/")
    assert player.status_code == 200
    assert "player-statistics" in player.content.decode()


def test_the_statistics_are_the_same_after_an_archive_export_and_import(small_event):
    """Issue #19: what the hands say survives the archive, as the ratings do."""
    import json

    from tests.rankings.services.test_ratings import delete_events_and_players
    from tournaments import archive

    event, players = small_event
    before_event = Client().get(f"/e/{event.slug}/statistics/").content.decode()
    before_player = statistics_section(
        Client().get(f"/players/{players[0].pk}/").content.decode())
    assert "trojka" in before_event and "trojka" in before_player
    names = [str(p) for p in players]
    doc = json.loads(json.dumps(archive.export_event(Event.objects.get(pk=event.pk))))
    delete_events_and_players()
    imported = archive.import_event(doc, actor=None)
    after_event = Client().get(f"/e/{imported.slug}/statistics/").content.decode()
    first = imported.registrations.get(start_number=1).player

    def without_links(html: str) -> str:
        # Database ids differ after the import; the words and figures may not.
        return re.sub(r'href="[^"]*"', "", html)

    assert without_links(after_event) == without_links(before_event)
    after_player = statistics_section(Client().get(f"/players/{first.pk}/").content.decode())
    assert without_links(after_player) == without_links(before_player)
    assert str(first) == names[0]
