"""Public event pages are cached for anonymous visitors and change as soon as a result does;
officials always get a fresh page, and nothing personal is ever stored; an htmx fragment and
a whole page are never handed one for the other (a back navigation's history restore)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from sample_data.factories import EventFactory, RegistrationFactory, UserFactory
from tests.tournaments.api.test_roles import build_world
from tournaments import services
from tournaments.models import Scorecard

pytestmark = pytest.mark.django_db


@pytest.fixture
def card():
    organiser = UserFactory()
    event = EventFactory(seating_system="points")
    event.organisers.add(organiser)
    for n in range(1, 5):
        RegistrationFactory(event=event, start_number=n)
    rnd = services.round_store(event=event, number=1, seating_system="points", seed=1,
                               tables=[["1", "2", "3", "4"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    return Scorecard.objects.get(table__round=rnd), organiser


def _table_url(card):
    return f"/e/{card.table.round.event.slug}/rounds/1/tables/1/"


def test_a_second_anonymous_visit_is_served_from_the_cache_without_a_query(card):
    scorecard, _ = card
    url = _table_url(scorecard)
    first = Client().get(url)
    assert first.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        again = Client().get(url)
    assert again.content == first.content
    assert len(queries) == 0  # the event's version is remembered for a second
    # The stored page keeps the headers of the full answer (security headers included).
    assert again["Content-Security-Policy"] == first["Content-Security-Policy"]
    assert again["X-Frame-Options"] == "DENY"


def test_a_new_hand_shows_at_the_next_request(card):
    scorecard, organiser = card
    url = _table_url(scorecard)
    before = Client().get(url).content.decode()
    version = Scorecard.objects.get(pk=scorecard.pk).version
    services.hand_save(scorecard=scorecard, number=1, actor=organiser,
                       expected_version=scorecard.version,
                       record={"game": "dvojka", "declarer": "2", "resting": "4", "points": 47})
    # The table's page is cached by its card's version (the standings' by the event's, which
    # a typed hand leaves alone: tests/tournaments/pages/test_page_cache_scopes.py).
    assert Scorecard.objects.get(pk=scorecard.pk).version > version
    after = Client().get(url).content.decode()
    assert after != before
    assert "dvojka" in after


def test_officials_are_never_served_a_cached_page(card):
    scorecard, organiser = card
    url = _table_url(scorecard)
    Client().get(url)
    official = Client()
    official.force_login(organiser)
    page = official.get(url).content.decode()
    assert organiser.username in page  # their own header, not the anonymous one


def test_anonymous_pages_carry_no_csrf_token_and_set_no_cookie(card):
    scorecard, _ = card
    response = Client().get(f"/e/{scorecard.table.round.event.slug}/standings/")
    assert b"csrfmiddlewaretoken" not in response.content
    assert not response.cookies


def test_each_language_is_cached_apart(card):
    scorecard, _ = card
    url = f"/e/{scorecard.table.round.event.slug}/standings/"
    english = Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content
    slovenian = Client().get(url, HTTP_ACCEPT_LANGUAGE="sl").content
    assert english != slovenian


def test_the_language_switch_is_a_plain_link_that_only_redirects_inside_the_site():
    client = Client()
    response = client.get("/i18n/language/", {"language": "de", "next": "/e/x/"})
    assert response.status_code == 302 and response["Location"] == "/e/x/"
    assert response.cookies["django_language"].value == "de"
    outside = client.get("/i18n/language/", {"language": "de", "next": "https://evil.example/"})
    assert outside["Location"] == "/"
    unknown = Client().get("/i18n/language/", {"language": "xx", "next": "/"})
    assert "django_language" not in unknown.cookies


def test_a_visitor_with_a_session_is_never_served_from_the_cache(card):
    scorecard, organiser = card
    url = _table_url(scorecard)
    Client().get(url)
    official = Client()
    official.force_login(organiser)
    with CaptureQueriesContext(connection) as queries:
        official.get(url)
    assert len(queries) > 1  # the session was read and the page built for this visitor


def test_pages_outside_the_public_event_pages_are_not_cached(card):
    scorecard, _ = card
    slug = scorecard.table.round.event.slug
    Client().get(f"/e/{slug}/standings.csv")
    with CaptureQueriesContext(connection) as queries:
        Client().get(f"/e/{slug}/standings.csv")
    assert len(queries) > 1


def test_an_answer_says_whether_it_came_from_the_cache(card):
    scorecard, organiser = card
    url = _table_url(scorecard)
    assert Client().get(url)["X-Page-Cache"] == "miss"
    # The verdict is not stored with the page: a hit does not repeat the first answer's "miss".
    assert Client().get(url)["X-Page-Cache"] == "hit"
    services.hand_save(scorecard=scorecard, number=1, actor=organiser,
                       expected_version=scorecard.version,
                       record={"game": "dvojka", "declarer": "2", "resting": "4", "points": 47})
    assert Client().get(url)["X-Page-Cache"] == "miss"  # the card's version moved on
    official = Client()
    official.force_login(organiser)
    assert "X-Page-Cache" not in official.get(url)  # never served from the cache
    slug = scorecard.table.round.event.slug
    assert "X-Page-Cache" not in Client().get(f"/e/{slug}/standings.csv")


def test_a_tables_page_stays_longer_than_the_pages_with_a_clock(card, monkeypatch):
    """The load run (bench/load.py) found the table pages missing the cache: they lived 10 s,
    as long as the phones' polling. A table's page shows no clock and changes key with every
    write of its card, so it stays two minutes; the pages with a round clock stay 10 s."""
    from django.core.cache import caches

    from tournaments.runtime import page_cache

    lifetimes = {}
    pages = caches["pages"]
    real_set = pages.set

    def recording_set(key, value, timeout=None, **kwargs):
        lifetimes[key] = timeout
        return real_set(key, value, timeout, **kwargs)

    monkeypatch.setattr(pages, "set", recording_set)
    scorecard, _organiser = card
    slug = scorecard.table.round.event.slug
    Client().get(_table_url(scorecard))
    assert list(lifetimes.values()) == [page_cache.PAGE_SECONDS_BY_SCOPE["table"]] == [120]
    lifetimes.clear()
    Client().get(f"/e/{slug}/")
    Client().get(f"/e/{slug}/rounds/{scorecard.table.round.number}/")
    assert sorted(lifetimes.values()) == [page_cache.PAGE_SECONDS] * 2


def test_a_history_restore_never_gets_the_cached_fragment():
    build_world()
    client = Client()
    fragment = client.get("/e/cup/rounds/1/", HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and "<html" not in fragment.content.decode()
    restored = client.get("/e/cup/rounds/1/", HTTP_HX_REQUEST="true",
                          HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<html" in restored.content.decode()
    assert "HX-History-Restore-Request" in restored["Vary"]
    # And the other way round: a fragment request after a cached whole page.
    whole = client.get("/e/cup/rounds/1/")
    assert "<html" in whole.content.decode()
    assert "<html" not in client.get("/e/cup/rounds/1/", HTTP_HX_REQUEST="true").content.decode()
