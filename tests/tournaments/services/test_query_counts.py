"""Writes that touch only what changed (issue #18): entering a hand costs a small fixed number
of queries however long the card is; storing, publishing, closing and seating a round cost
the same number of queries for 2 tables as for 8; a correction rewrites only the hands and
registrations it changes."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sample_data import printouts
from tournaments import services
from tournaments.demo import _tri1_hand
from tournaments.domain.standings import event_standings, events_standings
from tournaments.models import Event, Hand, Registration, Scorecard
from tournaments.seating.rotation import rest_rotation
from tournaments.services import round_jobs

pytestmark = pytest.mark.django_db

HAND_QUERIES = 11  # the target: under 12


def _record(card: Scorecard, number: int, seed: int) -> dict:
    rotation = rest_rotation(list(card.player_ids), 24)
    return _tri1_hand(random.Random(seed), list(card.player_ids), rotation[number - 1]["resting"])


def _enter(card: Scorecard, number: int, actor, seed: int = 0, reason: str = "") -> Hand:
    card.refresh_from_db()
    return services.hand_save(scorecard=card, number=number, record=_record(card, number, seed + number),
                              actor=actor, expected_version=card.version, reason=reason)


def _play(rnd, hands: int = 2) -> None:
    """A few hands at every table, handed in and confirmed, through the services."""
    event = rnd.event
    organiser, referee = event.organisers.first(), event.referees.first()
    for card in Scorecard.objects.filter(table__round=rnd):
        for number in range(1, hands + 1):
            _enter(card, number, organiser, seed=card.table.number * 100)
        card.refresh_from_db()
        services.scorecard_submit(scorecard=card, actor=organiser)
        services.scorecard_confirm(scorecard=card, actor=referee, reason="a short test card: fewer hands than the round plays")


def _queries(fn) -> int:
    with CaptureQueriesContext(connection) as captured:
        fn()
    return len(captured)


def _round_costs(tables: int) -> dict[str, int]:
    event = printouts.slovenian_event(slug=f"q{tables}", tables=tables)
    organiser = event.organisers.first()
    costs = {}
    box = {}
    costs["store"] = _queries(lambda: box.setdefault("rnd", printouts.seat(event, 1)))
    rnd = box["rnd"]
    costs["publish"] = _queries(lambda: services.round_publish(rnd=rnd, actor=organiser))
    _play(rnd)
    costs["close"] = _queries(lambda: round_jobs.round_close(rnd=rnd, actor=organiser))
    job = round_jobs.round_generation_queue(event=event, actor=organiser)
    costs["seat"] = _queries(lambda: round_jobs.round_generate(job.pk))
    assert event.rounds.get(number=2).tables.count() == tables
    return costs


def test_storing_publishing_closing_and_seating_a_round_cost_the_same_queries_for_any_size():
    _round_costs(1)  # warms this process's caches (content types) that the first write fills
    small, large = _round_costs(2), _round_costs(8)
    assert small == large, (small, large)


def test_closing_and_seating_stay_under_a_fixed_bound(django_assert_max_num_queries):
    event = printouts.slovenian_event(slug="bound", tables=6)
    organiser = event.organisers.first()
    rnd = printouts.seat(event, 1)
    services.round_publish(rnd=rnd, actor=organiser)
    _play(rnd, hands=1)
    with django_assert_max_num_queries(30):
        round_jobs.round_close(rnd=rnd, actor=organiser)
    job = round_jobs.round_generation_queue(event=event, actor=organiser)
    with django_assert_max_num_queries(45):
        round_jobs.round_generate(job.pk)
    assert event.rounds.get(number=2).tables.count() == 6


@pytest.fixture
def open_card():
    event = printouts.slovenian_event(slug="hands", tables=1)
    rnd = printouts.seat(event, 1)
    services.round_publish(rnd=rnd, actor=event.organisers.first())
    return Scorecard.objects.get(table__round=rnd)


def test_entering_a_hand_costs_under_twelve_queries_even_late_in_the_card(
        open_card, django_assert_max_num_queries):
    organiser = open_card.table.round.event.organisers.first()
    for number in range(1, 21):
        _enter(open_card, number, organiser)
    with django_assert_max_num_queries(HAND_QUERIES):
        _enter(open_card, 21, organiser)
    assert open_card.hands.count() == 21


def test_a_new_hand_writes_one_hand_row_and_an_edit_only_the_hands_it_changes(open_card):
    organiser = open_card.table.round.event.organisers.first()
    for number in range(1, 7):
        _enter(open_card, number, organiser)
    with CaptureQueriesContext(connection) as captured:
        _enter(open_card, 7, organiser)
    writes = [q["sql"] for q in captured if "tournaments_hand" in q["sql"]
              and q["sql"].startswith(("INSERT", "UPDATE"))]
    assert len(writes) == 1 and writes[0].startswith("INSERT"), writes
    # Editing hand 5 rewrites hand 5, and of hands 6 and 7 only what moved with it (their
    # running totals, and scores when a radelc of hand 5 doubles them), never their records;
    # hands 1-4 are not written at all.
    before = {h.number: (h.pk, h.running_totals) for h in open_card.hands.all()}
    with CaptureQueriesContext(connection) as captured:
        _enter(open_card, 5, organiser, seed=50)
    updates = [q["sql"] for q in captured if q["sql"].startswith('UPDATE "tournaments_hand"')]
    assert 1 <= len(updates) <= 2, updates
    assert all(f'WHEN ("tournaments_hand"."id" = {before[n][0]})' not in u
               for u in updates for n in range(1, 5))
    [own] = [u for u in updates if f'"tournaments_hand"."id" = {before[5][0]}' in u]
    assert '"record" = ' in own
    for later in (u for u in updates if u is not own):
        assert '"record" = ' not in later and '"entered_by_id" = ' not in later
    after = {h.number: h.running_totals for h in open_card.hands.all()}
    assert [after[n] for n in range(1, 5)] == [before[n][1] for n in range(1, 5)]


def test_saving_the_same_hand_again_rewrites_no_other_hand(open_card):
    organiser = open_card.table.round.event.organisers.first()
    for number in range(1, 5):
        _enter(open_card, number, organiser)
    same = open_card.hands.get(number=2).record
    open_card.refresh_from_db()
    with CaptureQueriesContext(connection) as captured:
        services.hand_save(scorecard=open_card, number=2, record=same, actor=organiser,
                           expected_version=open_card.version)
    updates = [q["sql"] for q in captured if q["sql"].startswith('UPDATE "tournaments_hand"')]
    # Only hand 2 itself: it is entered again, so who entered it is written anew.
    assert len(updates) == 1
    hand_ids = {h.number: h.pk for h in open_card.hands.all()}
    assert f'"tournaments_hand"."id" = {hand_ids[2]}' in updates[0]
    assert all(f'"tournaments_hand"."id" = {hand_ids[n]}' not in updates[0] for n in (1, 3, 4))


def test_a_correction_after_closing_rewrites_only_the_registrations_whose_totals_moved():
    event = printouts.slovenian_event(slug="correct", tables=4)
    organiser, referee = event.organisers.first(), event.referees.first()
    rnd = printouts.seat(event, 1)
    services.round_publish(rnd=rnd, actor=organiser)
    _play(rnd)
    round_jobs.round_close(rnd=rnd, actor=organiser)
    card = Scorecard.objects.get(table__round=rnd, table__number=1)
    totals_before = dict(Registration.objects.filter(event=event).values_list("start_number", "score"))
    with CaptureQueriesContext(connection) as captured:
        _enter(card, 1, referee, seed=999, reason="wrong points")
    updates = [q["sql"] for q in captured if q["sql"].startswith('UPDATE "tournaments_registration"')]
    totals_after = dict(Registration.objects.filter(event=event).values_list("start_number", "score"))
    moved = {n for n in totals_after if totals_after[n] != totals_before[n]}
    assert moved and moved <= set(map(int, card.player_ids))
    assert len(updates) == 1
    # Registrations of the other tables are not in the update.
    others = Registration.objects.filter(event=event).exclude(start_number__in=card.player_ids)
    assert all(f'"tournaments_registration"."id" = {reg.pk})' not in updates[0] for reg in others)
    assert Event.objects.get(pk=event.pk).rounds.get(number=1).status == "closed"


def test_the_standings_of_many_events_read_together_are_each_events_own_in_three_queries():
    """`events_standings` (the points list's cold path) gives every event the standings
    `event_standings` gives it alone, with an adjustment and an open card, in three queries
    whether there are two events or four, and with or without reading the players."""
    events = []
    for n in range(4):
        event = printouts.slovenian_event(slug=f"many-{n}", tables=2 + n % 2)
        rnd = printouts.seat(event, 1)
        services.round_publish(rnd=rnd, actor=event.organisers.first())
        if n != 2:  # the third event's cards stay open: pending, not counted
            _play(rnd)
        events.append(event)
    services.standings_adjust(registration=events[1].registrations.get(start_number=2),
                              actor=events[1].referees.first(), reason="late", points_delta="1/3")

    def shape(standings):
        return ([(r.start_number, r.rank, r.exact_points, r.score, r.adjusted) for r in standings.rows],
                standings.pending_tables, standings.after_round, standings.order)

    for some in (events[:2], events):
        with CaptureQueriesContext(connection) as captured:
            together = events_standings(some)
        assert len(captured) == 3
        assert {pk: shape(s) for pk, s in together.items()} == {
            e.pk: shape(event_standings(e)) for e in some}
        # Without the players (the points list's read): the same ranks, still three queries.
        with CaptureQueriesContext(connection) as captured:
            light = events_standings(some, with_players=False)
        assert len(captured) == 3
        assert {pk: shape(s) for pk, s in light.items()} == {pk: shape(s) for pk, s in together.items()}
    assert shape(together[events[2].pk])[1] == [(1, 1), (1, 2)]
    assert any(row[4] for row in shape(together[events[1].pk])[0])


def _checked_in_all(tables: int) -> tuple[int, Event]:
    from tournaments.services import checkin

    event = printouts.slovenian_event(slug=f"desk{tables}", tables=tables)
    event.registrations.update(status=Registration.Status.REGISTERED, checked_in_at=None)
    version = Event.objects.get(pk=event.pk).results_version
    organiser = event.organisers.first()
    queries = _queries(lambda: checkin.registrations_bulk_status(
        event=event, action="check_in_all", actor=organiser))
    assert Event.objects.get(pk=event.pk).results_version == version + 1  # the pages told once
    return queries, event


def test_checking_everybody_in_costs_the_same_queries_for_8_players_as_for_40():
    """The desk's "check in everybody" at a 1,024-player event took 25 s, a status change, an
    audit entry, a new results version and a refresh of the public PDFs for each player.
    Now a fixed number of statements, and still one audit entry each with the status before."""
    from tournaments.models import AuditEntry

    _checked_in_all(1)  # warms this process's caches (content types) that the first write fills
    small, _ = _checked_in_all(2)
    large, event = _checked_in_all(10)
    assert small == large, (small, large)
    regs = event.registrations.all()
    assert {r.status for r in regs} == {Registration.Status.CHECKED_IN}
    assert all(r.checked_in_at is not None for r in regs)
    entries = AuditEntry.objects.filter(event=event, action="registration.status")
    assert sorted(int(e.object_id) for e in entries) == sorted(r.pk for r in regs)
    assert {(str(e.before), str(e.after)) for e in entries} == {
        (str({"status": "registered"}), str({"status": "checked_in"}))}
