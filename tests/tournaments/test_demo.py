"""`seed_demo` builds the demo through the services, is idempotent, and the demo event shows
in the admin."""

import pytest
from django.core.management import call_command
from django.test import Client

from tests.conftest import built_once
from tournaments.models import AuditEntry, Event, Hand, Registration, Round, Scorecard

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture(scope="module", autouse=True)
def demo(django_db_setup, django_db_blocker):
    # Built once for the module; every test runs in a savepoint inside it.
    yield from built_once(django_db_blocker, lambda: call_command("seed_demo", verbosity=0))


def _counts():
    return tuple(m.objects.count() for m in (Event, Registration, Round, Scorecard, Hand, AuditEntry))


def test_seed_demo_builds_a_played_slovenian_event_and_a_second_run_changes_nothing():
    # The module's fixture ran seed_demo once; this is the second run.
    assert Event.objects.filter(slug="demo-slovenian").exists()
    first = _counts()
    call_command("seed_demo", verbosity=0)
    assert _counts() == first

    event = Event.objects.get(slug="demo-slovenian")
    assert event.registrations.count() == 24
    assert list(event.rounds.values_list("number", "status")) == [(1, "closed"), (2, "published")]
    # Round 1: six tables of 24 hands, every table confirmed then verified at closing.
    cards = Scorecard.objects.filter(table__round__event=event, table__round__number=1)
    assert cards.count() == 6
    assert all(c.status == "verified" and c.hands.count() == 24 for c in cards)
    # Table points 4/3/2/1 were awarded at every table: 6 tables x 10 points.
    assert sum(r.tournament_points for r in event.registrations.all()) == 60
    # Round 2 of the points system seats the four best of round 1 at table 1.
    best = sorted(event.registrations.all(), key=lambda r: (-r.tournament_points, -r.score, r.start_number))[:4]
    table1 = Round.objects.get(event=event, number=2).tables.get(number=1)
    assert {s.registration_id for s in table1.seats.all()} == {r.pk for r in best}


def test_demo_event_is_visible_in_the_admin_and_on_the_public_pages():
    client = Client()
    assert client.login(username="organiser", password="organiser")
    page = client.get("/admin/tournaments/event/")
    assert page.status_code == 200
    assert "Demo: Odprti turnir TRI + 1" in page.content.decode()
    public = Client().get("/e/demo-slovenian/")
    assert public.status_code == 200
    assert "Rok Oblak" in public.content.decode()


def test_czech_demo_has_money_sheets_that_conserve_money():
    from tournaments.domain.standings import event_standings
    from tournaments.models import MoneySheetRow

    event = Event.objects.get(slug="demo-czech")
    assert event.stake_haler == 2000 and event.round_duration_minutes == 55
    assert list(event.rounds.values_list("number", "status")) == [(1, "closed"), (2, "published")]
    for card in Scorecard.objects.filter(table__round__event=event).exclude(money_rows=None):
        rows = list(MoneySheetRow.objects.filter(scorecard=card))
        assert len(rows) == 4
        # The table's money equals the stakes plus what was bought (seed 004's self-check).
        assert sum(r.money_haler for r in rows) == 4 * 2000 + sum(r.bought_haler for r in rows)
        assert sum(r.result_haler for r in rows) == 0
        assert all(r.bought_haler % 1000 == 0 for r in rows)
    standings = event_standings(event)
    assert standings.unit == "haler"
    assert standings.pending_tables == [(2, 3), (2, 4)]
    assert sum(r.score for r in standings.rows) == 0


def test_tarockcup_demo_plays_three_random_rounds_with_a_zero_sum_schrift():
    from tournaments.domain.standings import event_standings

    event = Event.objects.get(slug="demo-tarockcup")
    assert list(event.rounds.values_list("number", "status", "seating_system")) == [
        (1, "closed", "random"), (2, "closed", "random"), (3, "closed", "random")]
    cards = Scorecard.objects.filter(table__round__event=event)
    assert cards.count() == 9 and all(c.hands.count() == 16 for c in cards)
    # Seed 001: the Schrift is zero-sum at every table, so over the tournament too.
    assert all(sum(c.totals.values()) == 0 for c in cards)
    standings = event_standings(event)
    assert not standings.uses_points and standings.pending_tables == []
    assert sum(r.score for r in standings.rows) == 0
    scores = [r.score for r in standings.rows]
    assert scores == sorted(scores, reverse=True)


def test_the_entries_demo_takes_entries_online_with_a_full_list_and_one_to_decide():
    from tournaments.models import Entry

    event = Event.objects.get(slug="demo-entries")
    statuses = list(event.entries.order_by("pk").values_list("status", flat=True))
    assert statuses == [Entry.Status.ACCEPTED] * 10 + [Entry.Status.WAITING, Entry.Status.PENDING]
    page = Client().get("/e/demo-entries/").content.decode()
    assert 'href="/e/demo-entries/enter/"' in page
