"""Saving, editing, confirming and annulling hands through the services: the whole card is
rescored in one transaction, running totals are stored, stale versions are refused, nothing
is saved when the engine refuses a hand, and every change leaves an audit entry."""

from __future__ import annotations

import pytest

from sample_data.factories import EventFactory, RegistrationFactory, UserFactory
from tournaments import services
from tournaments.errors import Conflict, ServiceError
from tournaments.models import AuditEntry, Hand, Scorecard

pytestmark = pytest.mark.django_db


@pytest.fixture
def card():
    event = EventFactory(ruleset_code="tarok-net-2007", ruleset_mode="tri+1")
    for n in range(1, 5):
        RegistrationFactory(event=event, start_number=n)
    rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=0,
                               tables=[["1", "2", "3", "4"]], actor=None)
    services.round_publish(rnd=rnd, actor=None)
    return Scorecard.objects.get(table__round=rnd)


def official(card: Scorecard):
    """A referee of the card's event."""
    user = UserFactory()
    card.table.round.event.referees.add(user)
    return user


def trojka(declarer: str, points: int, resting: str = "4") -> dict:
    return {"game": "trojka", "declarer": declarer, "resting": resting, "points": points}


def test_saving_hands_stores_scores_running_totals_and_an_audit_entry(card):
    user = official(card)
    # §3.5/§3.7: trojka 10 + difference; 40 points won by 5 -> +15, 30 points lost by 5 -> -15
    services.hand_save(scorecard=card, number=1, record=trojka("1", 40), actor=user, expected_version=1)
    services.hand_save(scorecard=card, number=2, record=trojka("2", 30), actor=user, expected_version=2)
    card.refresh_from_db()
    hands = list(card.hands.order_by("number"))
    assert [h.scores["1"] for h in hands] == [15, 0]
    assert [h.scores["2"] for h in hands] == [0, -15]
    assert hands[1].running_totals == {"1": 15, "2": -15, "3": 0, "4": 0}
    assert card.totals == {"1": 15, "2": -15, "3": 0, "4": 0}
    assert card.version == 3
    actions = list(AuditEntry.objects.filter(table=card.table).values_list("action", flat=True))
    assert actions.count("hand.create") == 2


def test_editing_an_earlier_hand_rescores_the_later_ones(card):
    services.hand_save(scorecard=card, number=1, record=trojka("1", 40), actor=None, expected_version=1)
    services.hand_save(scorecard=card, number=2, record=trojka("2", 50), actor=None, expected_version=2)
    services.hand_save(scorecard=card, number=1, record=trojka("1", 20), actor=None,
                       expected_version=3, reason="wrong points")
    card.refresh_from_db()
    h2 = card.hands.get(number=2)
    assert h2.running_totals["1"] == -25  # trojka lost by 15
    assert h2.running_totals["2"] == 25
    entry = AuditEntry.objects.filter(action="hand.update").get()
    assert entry.before["points"] == 40 and entry.after["points"] == 20
    assert entry.reason == "wrong points"


def test_a_stale_version_is_refused_and_changes_nothing(card):
    services.hand_save(scorecard=card, number=1, record=trojka("1", 40), actor=None, expected_version=1)
    with pytest.raises(Conflict) as exc:
        services.hand_save(scorecard=card, number=1, record=trojka("1", 60), actor=None,
                           expected_version=1)
    assert exc.value.errors[0]["code"] == "stale_version"
    assert Hand.objects.get(scorecard=card, number=1).record["points"] == 40


def test_an_invalid_hand_is_refused_with_the_engine_errors_and_nothing_is_saved(card):
    services.hand_save(scorecard=card, number=1, record=trojka("1", 40), actor=None, expected_version=1)
    with pytest.raises(ServiceError) as exc:
        services.hand_save(scorecard=card, number=2, record=trojka("4", 71), actor=None,
                           expected_version=2)
    fields = {e["field"] for e in exc.value.errors}
    assert "points" in fields
    assert all(e["hand"] == 1 for e in exc.value.errors)
    card.refresh_from_db()
    assert card.version == 2 and card.hands.count() == 1


def test_a_hand_cannot_skip_numbers(card):
    with pytest.raises(ServiceError) as exc:
        services.hand_save(scorecard=card, number=3, record=trojka("1", 40), actor=None,
                           expected_version=1)
    assert exc.value.errors[0]["code"] == "hand_number_out_of_range"


def test_confirmation_needs_a_second_person(card):
    writer, checker = official(card), official(card)
    hand = services.hand_save(scorecard=card, number=1, record=trojka("1", 40), actor=writer,
                              expected_version=1)
    with pytest.raises(ServiceError):
        services.hand_confirm(hand=hand, actor=writer)
    services.hand_confirm(hand=hand, actor=checker)
    hand.refresh_from_db()
    assert hand.confirmed_by == checker


def test_annulling_needs_a_reason_and_blocks_further_entry(card):
    referee = official(card)
    with pytest.raises(ServiceError):
        services.scorecard_annul(scorecard=card, actor=referee, reason="  ")
    services.scorecard_annul(scorecard=card, actor=referee, reason="card filled wrongly")
    with pytest.raises(ServiceError):
        services.hand_save(scorecard=card, number=1, record=trojka("1", 40), actor=None,
                           expected_version=None)
    assert AuditEntry.objects.filter(action="scorecard.annul", reason="card filled wrongly").exists()
