"""The event's status follows its rounds (tournaments.services.events with the rules of
tournaments.domain.lifecycle; issue #14, finding 4): publishing round 1 makes the event run,
closing the last planned round finishes it, each change audited; a status the organiser set by
hand stands until a round moves it."""

from __future__ import annotations

from tests.tournaments.pages.support import make_user, play_table, registered_event, seat_round
from tournaments import services
from tournaments.models import AuditEntry, Event
from tournaments.services import round_jobs


def test_the_event_runs_when_round_1_is_published_and_finishes_with_the_last(
        db, django_capture_on_commit_callbacks):
    event, organiser = registered_event(4, planned_rounds=1, status=Event.Status.REGISTRATION)
    referee = make_user("ref-status")
    event.referees.add(referee)
    rnd = seat_round(event, organiser, django_capture_on_commit_callbacks)
    event.refresh_from_db()
    assert event.status == "registration"  # a draft round changes nothing
    services.round_publish(rnd=rnd, actor=organiser)
    event.refresh_from_db()
    assert event.status == "running"
    play_table(rnd.tables.get(number=1), organiser, referee, event.hands_per_round)
    round_jobs.round_close(rnd=rnd, actor=organiser)
    event.refresh_from_db()
    assert event.status == "finished"
    assert list(AuditEntry.objects.filter(event=event, action="event.status")
                .order_by("pk").values_list("after", flat=True)) == [
        {"status": "running"}, {"status": "finished"}]

def test_an_organisers_manual_status_stands_until_the_next_round_moves(
        db, django_capture_on_commit_callbacks):
    event, organiser = registered_event(4, planned_rounds=2, status=Event.Status.REGISTRATION)
    rnd = seat_round(event, organiser, django_capture_on_commit_callbacks)
    services.round_publish(rnd=rnd, actor=organiser)
    services.event_update(event=event, actor=organiser, status=Event.Status.REGISTRATION)
    event.refresh_from_db()
    assert event.status == "registration"
    referee = make_user("ref-manual")
    event.referees.add(referee)
    play_table(rnd.tables.get(number=1), organiser, referee, event.hands_per_round)
    round_jobs.round_close(rnd=rnd, actor=organiser)
    event.refresh_from_db()
    assert event.status == "registration"  # one of two rounds closed: not finished


def test_an_event_update_keeps_what_moved_since_the_caller_read_the_event(db):
    """The organiser's copy of the event was read before a round finished it and a hand moved
    its results version: saving his new name keeps both (save() writes every column; before,
    the copy's old status and version were written back)."""
    event, organiser = registered_event(4, planned_rounds=1, status=Event.Status.RUNNING)
    stale = Event.objects.get(pk=event.pk)
    moved = event.results_version + 5
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED, results_version=moved)
    updated = services.event_update(event=stale, actor=organiser, name="Renamed cup")
    event.refresh_from_db()
    assert (event.name, event.status, event.results_version) == (
        "Renamed cup", Event.Status.FINISHED, moved + 1)  # and one more for this change
    assert updated.status == Event.Status.FINISHED
