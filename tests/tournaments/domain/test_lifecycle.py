"""tournaments.domain.lifecycle, the states of a round and a scorecard and the event's rules
that follow them: the moves allowed between states, which cards count and which a table still
writes, who sits out of the next round and why, who may be marked absent, when entries close,
and the event's status once a round is published or closed. Read on model instances that are
not saved, except where the rule asks the database."""

from __future__ import annotations

import pytest

from tests.tournaments.pages.support import make_event, make_user
from tournaments.domain import lifecycle
from tournaments.domain.lifecycle import SitsOut
from tournaments.models import Event, Registration, Round, Scorecard

R = Round.Status
C = Scorecard.Status


def test_a_round_moves_forward_and_back_only_by_the_two_undos():
    assert lifecycle.round_may_move(R.DRAFT, R.PUBLISHED)
    assert lifecycle.round_may_move(R.PUBLISHED, R.PLAYING)
    assert lifecycle.round_may_move(R.PUBLISHED, R.CLOSED)  # closed without the clock
    assert lifecycle.round_may_move(R.PLAYING, R.CLOSED)
    # Issue #33's undos: back to a draft (unpublish_refusal), a closed round opened again
    # (reopen_refusal).
    assert lifecycle.round_may_move(R.PUBLISHED, R.DRAFT)
    assert lifecycle.round_may_move(R.PLAYING, R.DRAFT)
    assert lifecycle.round_may_move(R.CLOSED, R.PLAYING)
    assert lifecycle.round_may_move(R.CLOSED, R.PUBLISHED)
    assert not lifecycle.round_may_move(R.DRAFT, R.CLOSED)
    assert not lifecycle.round_may_move(R.CLOSED, R.DRAFT)
    assert not lifecycle.round_may_move(R.PLAYING, R.PUBLISHED)
    assert not lifecycle.round_may_move("no such state", R.PUBLISHED)


def test_a_card_moves_forward_back_to_open_from_submitted_and_to_annulled_from_anywhere():
    assert lifecycle.card_may_move(C.OPEN, C.SUBMITTED)
    assert lifecycle.card_may_move(C.SUBMITTED, C.OPEN)  # the table changed it again
    assert lifecycle.card_may_move(C.SUBMITTED, C.CONFIRMED)
    assert lifecycle.card_may_move(C.CONFIRMED, C.VERIFIED)
    assert not lifecycle.card_may_move(C.OPEN, C.CONFIRMED)
    assert not lifecycle.card_may_move(C.CONFIRMED, C.OPEN)
    assert not lifecycle.card_may_move(C.VERIFIED, C.CONFIRMED)
    for status in (C.OPEN, C.SUBMITTED, C.CONFIRMED, C.VERIFIED):
        assert lifecycle.card_may_move(status, C.ANNULLED)
    assert not any(lifecycle.card_may_move(C.ANNULLED, status) for status in C.values)


def test_only_confirmed_and_verified_cards_of_rounds_that_are_no_drafts_count():
    published, draft = Round(status=R.PUBLISHED), Round(status=R.DRAFT)
    for status in C.values:
        card = Scorecard(status=status)
        assert lifecycle.counts(card, published) == (status in (C.CONFIRMED, C.VERIFIED))
        assert not lifecycle.counts(card, draft)
        assert lifecycle.is_pending(card) == (status in (C.OPEN, C.SUBMITTED))
        assert lifecycle.is_finished(card) == (status in (C.CONFIRMED, C.VERIFIED, C.ANNULLED))


def test_a_table_writes_only_in_published_or_playing_rounds():
    assert [s for s in R.values if lifecycle.is_playable(Round(status=s))] == [R.PUBLISHED, R.PLAYING]
    assert lifecycle.is_draft(Round(status=R.DRAFT))
    assert lifecycle.TABLE_WRITABLE_CARDS == {C.OPEN, C.SUBMITTED}
    assert lifecycle.CORRECTED_CARDS == {C.CONFIRMED, C.VERIFIED}


def test_a_card_confirmed_on_the_phone_that_submitted_it_needs_a_second_look():
    assert lifecycle.needs_second_look(Scorecard(status=C.CONFIRMED, confirmed_on_submitting_phone=True))
    assert not lifecycle.needs_second_look(Scorecard(status=C.CONFIRMED))
    assert not lifecycle.needs_second_look(Scorecard(status=C.VERIFIED, confirmed_on_submitting_phone=True))


def test_who_sits_out_of_the_next_round_and_why():
    everybody = Event(seating_pool=Event.SeatingPool.ACTIVE)
    checked_in = Event(seating_pool=Event.SeatingPool.CHECKED_IN)
    REG = Registration.Status
    assert lifecycle.sits_out_reason(everybody, REG.REGISTERED) is None
    assert lifecycle.sits_out_reason(everybody, REG.WITHDRAWN) == SitsOut.WITHDRAWN
    assert lifecycle.sits_out_reason(everybody, REG.REGISTERED, absent=True) == SitsOut.ABSENT
    assert lifecycle.sits_out_reason(checked_in, REG.REGISTERED) == SitsOut.NOT_CHECKED_IN
    assert lifecycle.sits_out_reason(checked_in, REG.CHECKED_IN) is None
    assert lifecycle.sits_out_reason(checked_in, REG.LATE_ENTRY) is None  # joins the field
    assert lifecycle.sits_out_reason(checked_in, REG.WITHDRAWN, absent=True) == SitsOut.WITHDRAWN


def test_absence_is_marked_for_rounds_ahead_of_a_field_that_changes_only():
    points = Event(seating_system="points", planned_rounds=5)
    present = Registration(status=Registration.Status.CHECKED_IN, absent_rounds=[3])
    assert lifecycle.is_absent(present, 3) and not lifecycle.is_absent(present, 4)
    assert not lifecycle.is_absent(Registration(absent_rounds=None), 1)
    assert lifecycle.absence_refusal(points, present, 3, next_number=2) is None
    assert lifecycle.absence_refusal(points, present, 1, next_number=2) == ("round", "round_not_ahead")
    assert lifecycle.absence_refusal(points, present, 6, next_number=2) == ("round", "round_not_ahead")
    withdrawn = Registration(status=Registration.Status.WITHDRAWN)
    assert lifecycle.absence_refusal(points, withdrawn, 3, next_number=2) == ("registration", "withdrawn")
    knockout = Event(seating_system="knockout", planned_rounds=5)
    assert lifecycle.absence_refusal(knockout, present, 3, next_number=2) == ("event", "absent_in_knockout")


def test_the_event_runs_once_a_round_is_published_and_finishes_with_its_last_round():
    S = Event.Status
    assert lifecycle.status_after_publish(Event(status=S.DRAFT)) == S.RUNNING
    assert lifecycle.status_after_publish(Event(status=S.REGISTRATION)) == S.RUNNING
    assert lifecycle.status_after_publish(Event(status=S.RUNNING)) is None
    assert lifecycle.status_after_publish(Event(status=S.FINISHED)) is None  # set by hand
    three = Event(status=S.RUNNING, planned_rounds=3)
    assert lifecycle.status_after_close(three, closed_rounds=3, open_rounds=0) == S.FINISHED
    assert lifecycle.status_after_close(three, closed_rounds=2, open_rounds=0) is None
    assert lifecycle.status_after_close(three, closed_rounds=3, open_rounds=1) is None
    assert lifecycle.status_after_close(Event(status=S.FINISHED, planned_rounds=1), 1, 0) is None


@pytest.mark.django_db
def test_entries_close_with_the_draw_of_a_knockout_only():
    organiser = make_user("org-entries", can_create=True)
    knockout = make_event(organiser, slug="ko-entries", players=4, seating_system="knockout")
    points = make_event(organiser, slug="pts-entries", players=4)
    assert not lifecycle.entries_closed(knockout)
    for event in (knockout, points):
        Round.objects.create(event=event, number=1, seating_system=event.seating_system, seed=1)
    assert lifecycle.entries_closed(knockout)
    assert not lifecycle.entries_closed(points)
