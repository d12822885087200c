"""An event's archive made from an earlier one (`archive.export_event_since`, issue #35): a
venue laptop's push reads again only what may have changed since the archive the server
acknowledged, and must give exactly the archive a whole export gives, after every kind of
change a day brings; where it cannot (a clock set back, an earlier archive that is not the
trail up to its version) it says so and the whole export is made."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest

from sample_data import printouts
from sample_data.printouts import _tri1_hand
from tournaments import archive, services
from tournaments.models import AuditEntry, Event, Registration, Scorecard
from tournaments.seating.rotation import rest_rotation
from tournaments.services import round_jobs
from tournaments.venue import state
from tournaments.venue.client import state_version


@pytest.fixture
def event():
    event = printouts.slovenian_event(slug="since-day", tables=2, hands_per_round=4)
    rnd = printouts.seat(event, 1)
    services.round_publish(rnd=rnd, actor=event.organisers.first())
    return event


def _card(event: Event, table: int, rnd: int = 1) -> Scorecard:
    return Scorecard.objects.get(table__round__event=event, table__round__number=rnd,
                                 table__number=table)


def _records(card: Scorecard, seed: int = 3) -> list[dict]:
    rng = random.Random(seed)
    rotation = rest_rotation(list(card.player_ids), 4)
    return [_tri1_hand(rng, list(card.player_ids), h["resting"]) for h in rotation]


def _save(event: Event, table: int, number: int, reason: str = "", seed: int = 3):
    card = _card(event, table)
    return services.hand_save(scorecard=card, number=number, record=_records(card, seed)[number - 1],
                              actor=event.organisers.first(), expected_version=card.version,
                              reason=reason)


def _steps(event: Event) -> list:
    organiser, referee = event.organisers.first(), event.referees.first()

    def offender() -> Registration:
        return Registration.objects.get(event=event, start_number=int(_card(event, 1).player_ids[1]))

    def dispute_with_correction() -> None:
        card = _card(event, 1)
        dispute = services.dispute_open(event=event, table=card.table, hand=card.hands.get(number=1),
                                        description="recount", actor=None, raised_by_name="Table 1")
        _save(event, 1, 1, reason="dispute decided", seed=9)
        correction = AuditEntry.objects.filter(event=event, action="hand.update").latest("pk")
        services.dispute_decide(dispute=dispute, decision="recounted", actor=referee,
                                correction=correction)

    def swap_in_round_two() -> None:
        rnd = event.rounds.get(number=2)
        first, second = (_card(event, 1, 2).player_ids[0], _card(event, 2, 2).player_ids[2])
        services.round_swap_players(rnd=rnd, first=str(first), second=str(second), actor=organiser)

    return [
        ("a hand typed", lambda: _save(event, 2, 1)),
        ("the hand confirmed", lambda: services.hand_confirm(hand=_card(event, 2).hands.get(number=1),
                                                             actor=referee)),
        ("the hand corrected", lambda: _save(event, 2, 1, reason="wrong points", seed=5)),
        ("a hand more", lambda: _save(event, 2, 2)),
        ("that hand deleted", lambda: services.hand_delete(
            scorecard=_card(event, 2), number=2, actor=organiser,
            expected_version=_card(event, 2).version, reason="entered twice")),
        ("a table played, submitted and confirmed", lambda: printouts.play_tri1_table(
            _card(event, 1).table)),
        ("a penalty", lambda: services.penalty_record(
            table=_card(event, 1).table, registration=offender(), kind="renons", actor=referee,
            hand_number=2, description="revoke")),
        ("a dispute decided by a correction", dispute_with_correction),
        ("an adjustment", lambda: services.standings_adjust(
            registration=offender(), actor=referee, reason="late", points_delta=Decimal("-0.5"),
            score_delta=-10)),
        ("a card annulled", lambda: services.scorecard_annul(scorecard=_card(event, 2), actor=referee,
                                                             reason="table left early")),
        ("the round closed", lambda: round_jobs.round_close(rnd=event.rounds.get(number=1),
                                                           actor=organiser)),
        ("round 2 drawn", lambda: printouts.seat(Event.objects.get(pk=event.pk), 2)),
        ("two players swapped in round 2", swap_in_round_two),
        ("round 2 published", lambda: services.round_publish(rnd=event.rounds.get(number=2),
                                                             actor=organiser)),
    ]


# The steps after which the earlier trail's entries name their objects by other keys.
WHOLE = {"that hand deleted", "two players swapped in round 2"}


@pytest.mark.django_db
def test_an_export_since_an_earlier_archive_is_the_whole_export_after_every_kind_of_change(event):
    previous, since = archive.export_event(event), state_version(event)
    for name, step in _steps(event):
        step()
        event = Event.objects.get(pk=event.pk)
        whole = archive.export_event(event)
        # As the laptop keeps it: packed in parts and read back, its cards unread
        # (tournaments.venue.state).
        previous = state.unpacked(state.kept(previous).packed())
        made = archive.export_event_since(event, previous, since)
        if name in WHOLE:
            # The earlier trail names what is gone or moved: no export since it.
            assert made is None, name
            made = whole
        assert made is not None, name
        assert made["event"] == whole["event"], name
        assert archive.delta.canonical(made) == archive.delta.canonical(whole), name
        previous, since = made, state_version(event)


@pytest.mark.django_db
def test_a_hand_typed_reads_its_card_and_leaves_the_others_as_they_were(event):
    previous, since = archive.export_event(event), state_version(event)
    _save(event, 2, 1)
    made = archive.export_event_since(event, previous, since)
    tables = made["event"]["rounds"][0]["tables"]
    was = previous["event"]["rounds"][0]["tables"]
    assert tables[0]["scorecard"] is was[0]["scorecard"]           # not read again
    assert tables[1]["scorecard"] is not was[1]["scorecard"]
    assert len(tables[1]["scorecard"]["hands"]) == 1
    assert made["event"]["audit"][:len(previous["event"]["audit"])] == previous["event"]["audit"]
    # Nothing changed since: the same archive, its cards the earlier one's.
    again = archive.export_event_since(event, made, state_version(event))
    assert again["event"] == made["event"]
    assert again["event"]["rounds"][0]["tables"][1]["scorecard"] is tables[1]["scorecard"]


@pytest.mark.django_db
def test_an_export_since_is_refused_when_the_newer_entries_would_not_come_last(event):
    previous, since = archive.export_event(event), state_version(event)
    entry = _save(event, 2, 1) and AuditEntry.objects.filter(event=event).latest("pk")
    # The venue's clock was set back: the new entry sorts before the earlier trail's last.
    AuditEntry.objects.filter(pk=entry.pk).update(created_at=entry.created_at - dt.timedelta(days=1))
    assert archive.export_event_since(event, previous, since) is None


@pytest.mark.django_db
def test_an_export_since_is_refused_from_an_archive_that_is_not_the_trail_up_to_its_version(event):
    previous, since = archive.export_event(event), state_version(event)
    _save(event, 2, 1)
    assert archive.export_event_since(event, previous, since - 1) is None     # another version
    other = {**previous, "event": {**previous["event"], "slug": "another"}}
    assert archive.export_event_since(event, other, since) is None            # another event
    assert archive.export_event_since(event, {"event": None}, since) is None  # no archive
    older = {**previous, "exported_with": {**previous["exported_with"], "version": "0.0.1"}}
    assert archive.export_event_since(event, older, since) is None            # another version
    assert archive.export_event_since(event, previous, since) is not None
