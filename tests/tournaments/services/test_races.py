"""Races with real concurrent database connections (PostgreSQL): two clients writing the same
hand at the same moment store it once, the stale one gets a conflict and changes nothing; two
organisers seating the next round at once get one round; a correction of a closed round and
the close of the next one are both carried, whichever commits first; the desk's changes of a
registration and the close of a round wait for one another instead of deadlocking."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction

from sample_data import printouts
from sample_data.factories import EventFactory, RegistrationFactory, UserFactory
from tests.tournaments.services.carried import carried, standings_totals
from tournaments import archive, services
from tournaments.errors import Conflict
from tournaments.models import AuditEntry, Hand, Job, Round, Scorecard
from tournaments.services import checkin, player_links, round_jobs

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks (SELECT ... FOR UPDATE) need PostgreSQL; SQLite serialises writers")


def _run_together(*calls):
    """Start every call in its own thread (own connection) at the same moment."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def runner(i, call):
        try:
            barrier.wait()
            outcomes[i] = ("ok", call())
        except Exception as exc:  # the outcome under test: which call lost
            outcomes[i] = ("error", exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcomes


def _card():
    event = EventFactory(ruleset_code="tarok-net-2007", ruleset_mode="tri+1")
    for n in range(1, 5):
        RegistrationFactory(event=event, start_number=n)
    rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=0,
                               tables=[["1", "2", "3", "4"]], actor=None)
    services.round_publish(rnd=rnd, actor=None)
    return Scorecard.objects.get(table__round__event=event)


def test_two_clients_writing_the_same_hand_store_it_once():
    card = _card()
    a = {"game": "trojka", "declarer": "1", "resting": "4", "points": 40}
    b = {"game": "dvojka", "declarer": "2", "resting": "4", "points": 50}
    outcomes = _run_together(
        lambda: services.hand_save(scorecard=card, number=1, record=a, actor=None, expected_version=1),
        lambda: services.hand_save(scorecard=card, number=1, record=b, actor=None, expected_version=1),
    )
    kinds = sorted(kind for kind, _ in outcomes)
    assert kinds == ["error", "ok"], outcomes
    loser = next(v for k, v in outcomes if k == "error")
    assert isinstance(loser, Conflict)
    card.refresh_from_db()
    assert card.version == 2
    assert Hand.objects.filter(scorecard=card).count() == 1
    stored = Hand.objects.get(scorecard=card).record
    winner = next(v for k, v in outcomes if k == "ok")
    assert stored == winner.record
    assert AuditEntry.objects.filter(action="hand.create").count() == 1


def test_two_organisers_seating_the_next_round_at_once_get_one_round():
    event = EventFactory(seating_system="random")
    for n in range(1, 13):
        RegistrationFactory(event=event, start_number=n)
    first, second = UserFactory(), UserFactory()
    event.organisers.add(first, second)
    outcomes = _run_together(
        lambda: round_jobs.round_generation_queue(event=event, actor=first).pk,
        lambda: round_jobs.round_generation_queue(event=event, actor=second).pk,
    )
    assert [k for k, _ in outcomes] == ["ok", "ok"], outcomes
    assert outcomes[0][1] == outcomes[1][1]  # the same job
    assert Job.objects.filter(event=event).count() == 1
    assert Round.objects.filter(event=event).count() == 1
    assert Round.objects.get(event=event).tables.count() == 3


def test_two_phones_on_one_table_link_at_once_store_the_hand_once():
    """Two phones of one table post hand 1 at the same moment through the table link: one is
    stored, the other is told another phone saved it and keeps its entry to save as hand 2."""
    from django.test import Client

    from tournaments.seating.rotation import rest_rotation
    from tournaments.services import table_links

    card = _card()
    link = table_links.links_ensure(rnd=card.table.round)[1]
    resting = rest_rotation(list(card.player_ids), 4)[0]["resting"]
    phones = []
    for seat in ("1", "2"):
        phone = Client()
        phone.post(f"/t/{link.token}/seat/", {"seat": seat})
        phones.append(phone)
    bodies = [{"number": 1, "version": 1, "game": "trojka", "declarer": d, "resting": resting,
               "points": p} for d, p in (("1", 45), ("2", 36))]
    for body in bodies:
        if body["declarer"] == resting:
            body["declarer"] = "3"
    outcomes = _run_together(
        *(lambda phone=phone, body=body: phone.post(f"/t/{link.token}/hands/", body).status_code
          for phone, body in zip(phones, bodies, strict=True)))
    codes = sorted(value for kind, value in outcomes if kind == "ok")
    assert codes == [302, 409], outcomes
    card.refresh_from_db()
    assert Hand.objects.filter(scorecard=card).count() == 1 and card.version == 2
    assert AuditEntry.objects.filter(action="hand.create").count() == 1


def test_a_cap_holds_when_twenty_entrants_confirm_at_the_same_moment(settings):
    """Issue #31: twenty entrants of an event with nine places confirm their addresses at once
    (each in his own connection): nine take a place, with start numbers 1 to 9, and eleven
    wait in the order they came."""
    from django.contrib.auth.models import AnonymousUser

    from tournaments.models import Entry, Event, Registration
    from tournaments.services import entries

    settings.EMAIL_CONFIGURED = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    boss = UserFactory()
    event = EventFactory(status=Event.Status.REGISTRATION, online_entry=True, entry_cap=9,
                         entry_approval=False)
    event.organisers.add(boss)
    made = [entries.entry_submit(event=event, client=f"10.0.0.{n}", base_url="http://x",
                                 actor=AnonymousUser(),
                                 values={"first_name": f"P{n}", "last_name": "Race", "consent": True,
                                         "email": f"p{n}@example.org", "language": "en"})
            for n in range(20)]
    outcomes = _run_together(*[lambda e=e: entries.entry_confirm(token=e.token) for e in made])
    assert [o[0] for o in outcomes] == ["ok"] * 20, outcomes
    statuses = list(Entry.objects.filter(event=event).values_list("status", flat=True))
    assert statuses.count(Entry.Status.ACCEPTED) == 9
    assert statuses.count(Entry.Status.WAITING) == 11
    numbers = sorted(Registration.objects.filter(event=event).values_list("start_number", flat=True))
    assert numbers == list(range(1, 10))


def _two_rounds():
    """Two tables of the points system: round 1 played and closed, round 2 played and every
    card confirmed, not closed yet."""
    event = printouts.slovenian_event(slug="race-carried", tables=2)
    organiser = event.organisers.first()
    for number in (1, 2):
        rnd = printouts.seat(event, number, tables=[[1, 3, 5, 7], [2, 4, 6, 8]] if number == 2 else None)
        for table in rnd.tables.order_by("number"):
            printouts.play_tri1_table(table, seed=10 * number + table.number)
        if number == 1:
            round_jobs.round_close(rnd=rnd, actor=organiser)
    return event, rnd


def _held_open(call, done: threading.Event, release: threading.Event):
    """`call` in a transaction of its own that stays open, its row locks held, from when it
    is done (`done`) until `release`."""
    def held():
        try:
            with transaction.atomic():
                call()
                done.set()
                release.wait(30)
        finally:
            done.set()  # a failing call lets the others go on, and its error is its outcome
    return held


def _waiting_on_a_lock(seconds: float = 20.0) -> bool:
    """Whether another connection of this database waits on a row lock (within `seconds`)."""
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                           " AND wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.05)
    return False


def _meet(first, second):
    """`first` done and held open, `second` started and waiting on a lock behind it; then
    `first` commits and both finish. Their outcomes."""
    done, release = threading.Event(), threading.Event()

    def after_first():
        done.wait(30)
        return second()
    outcomes = _run_together(_held_open(first, done, release), after_first, lambda: (
        done.wait(30), _waiting_on_a_lock(), release.set()))
    assert outcomes[0][0] == "ok", outcomes[0]
    assert outcomes[2][0] == "ok" and outcomes[2][1][1], ("the second never waited on a lock", outcomes)
    return outcomes[:2]


@pytest.mark.parametrize("correction_first", [True, False], ids=["correction-first", "close-first"])
def test_a_correction_of_a_closed_round_meeting_the_next_close_is_carried(correction_first):
    """A referee annuls a table of closed round 1 while the organiser closes round 2: whichever
    commits first, the carried totals are the whole standings' up to round 2. Before, the close
    wrote the totals it had computed before the correction committed (or the correction those
    it had computed before the close committed), and they stayed wrong to the end: the event's
    own archive was then refused (`carried_total_mismatch`)."""
    event, second = _two_rounds()
    organiser, referee = event.organisers.first(), event.referees.first()
    card = Scorecard.objects.get(table__round__event=event, table__round__number=1, table__number=1)

    def correct():
        services.scorecard_annul(scorecard=card, actor=referee, reason="the table's card was lost")

    def close():
        round_jobs.round_close(rnd=second, actor=organiser)
    outcomes = _meet(correct, close) if correction_first else _meet(close, correct)
    assert [kind for kind, _ in outcomes] == ["ok", "ok"], outcomes
    assert carried(event) == standings_totals(event, 2)
    archive.replace_event(archive.export_event(event), event)  # the archive's check agrees


@pytest.mark.parametrize("write", ["submit", "hand_confirm"])
def test_a_close_meeting_a_table_that_hands_its_card_in_is_refused_not_deadlocked(write):
    """A table hands its card in (or an official confirms its hand) while the organiser closes
    the round: the close waits for the card and is then refused (the table is not confirmed),
    and the table's write is kept. Before, the close held the round's row while it waited for
    the card, the table's write wanted that row next, and PostgreSQL cancelled one of them
    (a deadlock: a server error for one of the two)."""
    event = printouts.slovenian_event(slug="race-hand-in", tables=2)
    organiser = event.organisers.first()
    rnd = printouts.seat(event, 1)
    first, second = rnd.tables.order_by("number")
    printouts.play_tri1_table(first, seed=1)
    card = Scorecard.objects.get(table=second)
    ids = list(card.player_ids)
    services.hand_save(scorecard=card, number=1, actor=None, expected_version=card.version,
                       record={"game": "trojka", "declarer": ids[0], "resting": ids[3], "points": 40})
    locked, release = threading.Event(), threading.Event()

    def table():
        with transaction.atomic():
            # What the table's write locks first (services._lock_card, hand_confirm): its card.
            Scorecard.objects.select_for_update(of=("self",)).get(pk=card.pk)
            locked.set()
            release.wait(30)
            if write == "submit":
                services.scorecard_submit(scorecard=card, actor=None)
            else:
                services.hand_confirm(hand=Hand.objects.get(scorecard=card, number=1), actor=organiser)

    def close():
        locked.wait(30)
        round_jobs.round_close(rnd=rnd, actor=organiser)
    outcomes = _run_together(table, close, lambda: (locked.wait(30), _waiting_on_a_lock(), release.set()))
    assert outcomes[0][0] == "ok", outcomes[0]
    assert outcomes[1][0] == "error" and [e["code"] for e in outcomes[1][1].errors] == ["tables_pending"], outcomes[1]
    assert Round.objects.get(pk=rnd.pk).status != Round.Status.CLOSED


def _check_in_again(event, registration, organiser):
    """The desk's bulk check-in of one withdrawn player (registrations_bulk_status)."""
    from tournaments.models import Registration

    Registration.objects.filter(pk=registration.pk).update(status=Registration.Status.WITHDRAWN)
    return lambda: checkin.registrations_bulk_status(event=event, action="check_in", actor=organiser,
                                                     registration_ids=[registration.pk])


def _merge_into_another(event, registration, organiser):
    """The registry's manager merges the player of the registration into another record."""
    from sample_data.factories import PlayerFactory
    from tournaments.services import player_registry

    keep, staff = PlayerFactory(), UserFactory(is_staff=True)
    return lambda: player_registry.player_merge(keep=keep, duplicate=registration.player,
                                                actor=staff, reason="one person, two records")


REGISTRATION_WRITERS = {
    "withdraw": lambda event, reg, organiser: lambda: services.registration_set_status(
        registration=reg, status="withdrawn", actor=organiser),
    "absent": lambda event, reg, organiser: lambda: checkin.registration_set_absent(
        registration=reg, number=3, absent=True, actor=organiser),
    "link_reissue": lambda event, reg, organiser: lambda: player_links.link_reissue(
        registration=reg, actor=organiser),
    "bulk_check_in": _check_in_again,
    "merge": _merge_into_another,
}


@pytest.mark.parametrize("writer", list(REGISTRATION_WRITERS))
def test_a_registration_written_while_the_round_closes_is_not_deadlocked(writer, monkeypatch):
    """The desk changes a player's registration (withdraws him, marks him absent for the next
    round, reissues his link, checks him in; or the registry's manager merges his record into
    another) while the organiser closes the round. Before, the
    desk's write locked the registration, then wanted the event's row for its audit entry; the
    close held the event's row and wanted every registration for the carried totals:
    PostgreSQL cancelled one of the two (a server error). Now both lock the event's row first
    (audit.lock_event), and the close waits for the desk. The desk's write is stopped just
    before its audit entry, where it used to hold the registration and not the event."""
    from tournaments.services import audit

    event, second = _two_rounds()
    organiser = event.organisers.first()
    registration = event.registrations.get(start_number=5)
    write = REGISTRATION_WRITERS[writer](event, registration, organiser)
    paused, release = threading.Event(), threading.Event()
    real = audit._event_changed

    def pausing(event, *, event_pages):
        if not paused.is_set():  # the desk's write, the first to come here
            paused.set()
            release.wait(30)
        return real(event, event_pages=event_pages)
    monkeypatch.setattr(audit, "_event_changed", pausing)

    def close():
        paused.wait(30)
        round_jobs.round_close(rnd=second, actor=organiser)
    outcomes = _run_together(write, close, lambda: (paused.wait(30), _waiting_on_a_lock(), release.set()))
    assert [kind for kind, _ in outcomes] == ["ok", "ok", "ok"], outcomes
    assert outcomes[2][1][1], "the close never waited on a lock"
    assert Round.objects.get(pk=second.pk).status == Round.Status.CLOSED
    assert carried(event) == standings_totals(event, 2)


def _register(event, player, organiser, how):
    if how == "one":
        return lambda: services.registration_create(event=event, player=player, actor=organiser)
    return lambda: services.registrations_create_many(event=event, actor=organiser,
                                                      entries=[(player, 7, "registered")])


@pytest.mark.parametrize("how", ["one", "many"])
@pytest.mark.parametrize("merge_first", [True, False], ids=["merge-first", "registration-first"])
def test_a_player_registered_while_the_registry_merges_him_away_is_refused_or_moved(how, merge_first):
    """The organiser registers a player (alone, or with others from a list) while the
    registry's manager merges that player's record into another. Merged first: the
    registration is refused, naming the player, and nothing is saved. Registered first: the
    merge waits, then moves the new registration to the kept record. Before, the
    registration's foreign key was checked only at its commit, after the merge had deleted the
    record: a server error."""
    from sample_data.factories import PlayerFactory
    from tournaments.errors import ServiceError
    from tournaments.services import player_registry

    organiser, staff = UserFactory(), UserFactory(is_staff=True)
    event = EventFactory()
    event.organisers.add(organiser)
    keep, duplicate = PlayerFactory(), PlayerFactory()

    def merge():
        player_registry.player_merge(keep=keep, duplicate=duplicate, actor=staff,
                                     reason="one person, two records")
    register = _register(event, duplicate, organiser, how)
    outcomes = _meet(merge, register) if merge_first else _meet(register, merge)
    if merge_first:
        kind, error = outcomes[1]
        assert kind == "error" and isinstance(error, ServiceError), outcomes[1]
        assert [(e["field"], e["code"]) for e in error.errors] == [
            ("player" if how == "one" else "entries[0].player", "not_found")]
        assert not event.registrations.exists()
    else:
        assert [kind for kind, _ in outcomes] == ["ok", "ok"], outcomes
        assert list(event.registrations.values_list("player_id", flat=True)) == [keep.pk]


def test_a_change_of_how_tables_are_counted_meeting_the_close_is_carried_by_the_new_count():
    """The organiser adds extra table points for the score difference (seating option
    `extra`) while another closes round 2: the close waits for the change and counts round 2
    with the extra points, as the change counted round 1. Before, the close counted by the
    event as it had read it before waiting, and round 2 was carried without them."""
    event, second = _two_rounds()
    organiser = event.organisers.first()
    extra = {"per": 10, "points": "1/10", "cap": "1/2"}

    def change():
        services.event_update(event=event.__class__.objects.get(pk=event.pk), actor=organiser,
                              seating_options={**event.seating_options, "extra": extra})

    def close():
        round_jobs.round_close(rnd=Round.objects.get(pk=second.pk), actor=organiser)
    outcomes = _meet(change, close)
    assert [kind for kind, _ in outcomes] == ["ok", "ok"], outcomes
    event.refresh_from_db()
    assert event.seating_options["extra"] == extra
    assert carried(event) == standings_totals(event, 2)
