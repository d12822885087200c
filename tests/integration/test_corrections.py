"""A referee's correction after a round is closed reaches everything that depends on it: the
carried totals of the registrations and the seating of the next round (seed 000 §4.1 b seats
by points)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.factories import EventFactory, RegistrationFactory, UserFactory
from tournaments import selectors, services, services_rounds
from tournaments.models import Registration, Scorecard

pytestmark = pytest.mark.django_db


def closed_round():
    """A closed round 1 of four players at which player 1 won a trojka with 50 points (+25)."""
    organiser, referee = UserFactory(), UserFactory()
    event = EventFactory(seating_system="points")
    event.organisers.add(organiser)
    event.referees.add(referee)
    for n in range(1, 5):
        RegistrationFactory(event=event, start_number=n)
    rnd = services.round_store(event=event, number=1, seating_system="points", seed=1,
                               tables=[["1", "2", "3", "4"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    card = Scorecard.objects.get(table__round=rnd)
    services.hand_save(scorecard=card, number=1, actor=organiser, expected_version=card.version,
                       record={"game": "trojka", "declarer": "1", "resting": "4", "points": 50})
    services.scorecard_submit(scorecard=card, actor=organiser)
    services.scorecard_confirm(scorecard=card, actor=referee, reason="a short test card: fewer hands than the round plays")
    services_rounds.round_close(rnd=rnd, actor=organiser)
    return event, card, organiser, referee


def test_a_correction_after_closing_changes_carried_points_and_the_next_seating():
    event, card, organiser, referee = closed_round()
    first = Registration.objects.get(event=event, start_number=1)
    assert (first.tournament_points, first.score) == (Decimal("4.000"), 25)

    # The referee finds the points were 20, not 50: player 1 lost by 15 (-25) and is last.
    card.refresh_from_db()
    services.hand_save(scorecard=card, number=1, actor=referee, expected_version=card.version,
                       record={"game": "trojka", "declarer": "1", "resting": "4", "points": 20},
                       reason="counted again at the referee's table")
    first.refresh_from_db()
    assert (first.tournament_points, first.score) == (Decimal("1.000"), -25)
    request = selectors.seating_request(event, 2, seed=7)
    points = {p["id"]: p["points"] for p in request["players"]}
    # 2, 3 and 4 are tied at 0 and share places 1–3 (the default table_ties "share", #21).
    assert points["1"] == 1.0 and points["2"] == points["3"] == points["4"] == 3.0


def test_an_annulled_table_counts_nothing_for_its_players():
    event, card, organiser, referee = closed_round()
    services.scorecard_annul(scorecard=card, actor=referee, reason="card missing signatures")
    assert set(Registration.objects.filter(event=event).values_list("tournament_points", "score")) == {
        (Decimal("0.000"), 0)}
