"""What each write invalidates in the public page cache (issue #18): a hand typed at a table
changes that table's page only, so the standings, the event page and the round's page stay
cached through play; a card handed in changes its round's page and the projector; a
confirmation (a result that counts) changes the standings at once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from sample_data.factories import EventFactory, RegistrationFactory, UserFactory
from tournaments import services
from tournaments.models import Scorecard

pytestmark = pytest.mark.django_db


@pytest.fixture
def day():
    organiser, referee = UserFactory(), UserFactory()
    event = EventFactory(seating_system="points", ruleset_code="tarok-net-2007",
                         ruleset_mode="tri+1", is_public=True)
    event.organisers.add(organiser)
    event.referees.add(referee)
    for n in range(1, 9):
        RegistrationFactory(event=event, start_number=n)
    rnd = services.round_store(event=event, number=1, seating_system="points", seed=1,
                               tables=[["1", "2", "3", "4"], ["5", "6", "7", "8"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    card = Scorecard.objects.get(table__round=rnd, table__number=1)
    return event, card, organiser, referee


def _get(url: str) -> tuple[str, int]:
    """The page an anonymous visitor gets, and how many queries answering it took."""
    with CaptureQueriesContext(connection) as queries:
        response = Client().get(url)
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def _urls(event) -> dict[str, str]:
    base = f"/e/{event.slug}/"
    return {"event": base, "standings": base + "standings/", "live": base + "standings/live/",
            "round": base + "rounds/1/", "projector": base + "projector/",
            "table": base + "rounds/1/tables/1/", "other table": base + "rounds/1/tables/2/"}


def _hand(card, number, organiser, points):
    card.refresh_from_db()
    return services.hand_save(scorecard=card, number=number, actor=organiser,
                              expected_version=card.version,
                              record={"game": "dvojka", "declarer": "2", "resting": "4", "points": points})


def _served_from_cache(url: str, before: str) -> bool:
    page, queries = _get(url)
    # A hit reads the page's versions (one query, as the write made this process forget
    # them) and nothing else; the page is the one stored.
    return queries <= 1 and page == before


def test_a_typed_hand_changes_its_table_page_and_leaves_every_other_page_cached(day):
    event, card, organiser, _ = day
    urls = _urls(event)
    before = {name: _get(url)[0] for name, url in urls.items()}
    _hand(card, 1, organiser, 47)
    for name in ("event", "standings", "live", "round", "projector", "other table"):
        assert _served_from_cache(urls[name], before[name]), name
    table, queries = _get(urls["table"])
    assert queries > 1 and "dvojka" in table.lower()
    assert table != before["table"]


def test_a_confirmed_hand_leaves_every_public_page_cached(day):
    # The public pages do not show a hand's confirmation (the table's and officials' do).
    event, card, organiser, referee = day
    urls = _urls(event)
    hand = _hand(card, 1, organiser, 47)
    before = {name: _get(url)[0] for name, url in urls.items()}
    services.hand_confirm(hand=hand, actor=referee)
    for name, url in urls.items():
        assert _served_from_cache(url, before[name]), name


def test_a_card_handed_in_changes_its_round_page_and_the_projector_not_the_standings(day):
    event, card, organiser, referee = day
    urls = _urls(event)
    _hand(card, 1, organiser, 47)
    before = {name: _get(url)[0] for name, url in urls.items()}
    card.refresh_from_db()
    services.scorecard_submit(scorecard=card, actor=organiser)
    for name in ("event", "standings", "live", "other table"):
        assert _served_from_cache(urls[name], before[name]), name
    for name in ("round", "projector", "table"):
        page, queries = _get(urls[name])
        assert queries > 1 and page != before[name], name
    assert "card-submitted" in _get(urls["round"])[0]


def test_a_confirmation_changes_the_standings_at_once(day):
    event, card, organiser, referee = day
    urls = _urls(event)
    _hand(card, 1, organiser, 47)
    card.refresh_from_db()
    services.scorecard_submit(scorecard=card, actor=organiser)
    before = {name: _get(url)[0] for name, url in urls.items()}
    assert "R1 T1" in before["standings"]  # pending, not counted
    services.scorecard_confirm(scorecard=card, actor=referee, reason="a short test card: fewer hands than the round plays")
    for name in ("event", "standings", "live", "round", "projector"):
        page, queries = _get(urls[name])
        assert queries > 1 and page != before[name], name
    standings = _get(urls["standings"])[0]
    assert "R1 T1" not in standings and "R1 T2" in standings


def test_a_correction_of_a_confirmed_card_changes_the_standings(day):
    event, card, organiser, referee = day
    urls = _urls(event)
    _hand(card, 1, organiser, 47)
    card.refresh_from_db()
    services.scorecard_submit(scorecard=card, actor=organiser)
    services.scorecard_confirm(scorecard=card, actor=referee, reason="a short test card: fewer hands than the round plays")
    before = _get(urls["standings"])[0]
    card.refresh_from_db()
    services.hand_save(scorecard=card, number=1, actor=referee, expected_version=card.version,
                       reason="wrong points",
                       record={"game": "dvojka", "declarer": "2", "resting": "4", "points": 20})
    page, queries = _get(urls["standings"])
    assert queries > 1 and page != before
