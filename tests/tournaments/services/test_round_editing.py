"""A drafted round is previewed, edited (two players swapped, then re-checked by the
independent checker) and published; editing a published round is refused, and so is a swap
in a draft whose tables already have hands."""

from __future__ import annotations

import pytest

from sample_data.factories import EventFactory, RegistrationFactory, UserFactory
from tests.tournaments.api.test_roles import build_world
from tournaments import services
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Round
from tournaments.services import round_jobs

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(django_capture_on_commit_callbacks):
    """Seat round 1 of an 8-player points event through the queued job (run on commit)."""
    event = EventFactory(seating_system="points")
    for n in range(1, 9):
        RegistrationFactory(event=event, start_number=n)
    organiser = UserFactory()
    event.organisers.add(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        job = round_jobs.round_generation_queue(event=event, actor=organiser)
    job.refresh_from_db()
    assert job.status == "done", job.message
    return Round.objects.get(event=event, number=1), organiser


def _tables(rnd):
    return [[s.registration.start_number for s in t.seats.order_by("position")]
            for t in rnd.tables.order_by("number")]


def test_a_generated_round_is_a_draft_that_passes_the_checker(seated):
    rnd, _ = seated
    assert rnd.status == Round.Status.DRAFT
    assert services.seating_violations(rnd) == []


def test_swapping_two_players_moves_them_and_their_scorecards_and_is_audited(seated):
    rnd, organiser = seated
    before = _tables(rnd)
    first, second = before[0][0], before[1][2]
    services.round_swap_players(rnd=rnd, first=str(first), second=str(second), actor=organiser)
    rnd.refresh_from_db()
    after = _tables(rnd)
    assert after[0][0] == second and after[1][2] == first
    assert sorted(sum(after, [])) == sorted(sum(before, []))
    cards = [t.scorecard.player_ids for t in rnd.tables.order_by("number")]
    assert cards == [[str(p) for p in t] for t in after]
    assert rnd.seating_version == 2
    assert AuditEntry.objects.filter(action="round.swap", object_id=str(rnd.pk)).exists()


def test_a_swap_in_the_free_first_draw_stays_valid(seated):
    # Round 1 of the points system is a free draw: any swap keeps it valid.
    rnd, organiser = seated
    tables = _tables(rnd)
    services.round_swap_players(rnd=rnd, first=str(tables[0][0]), second=str(tables[1][0]),
                                actor=organiser)
    rnd.refresh_from_db()
    assert not any(services.is_checker_note(n) for n in rnd.notes)


def test_a_published_round_cannot_be_swapped(seated):
    rnd, organiser = seated
    services.round_publish(rnd=rnd, actor=organiser)
    tables = _tables(rnd)
    with pytest.raises(ServiceError) as exc:
        services.round_swap_players(rnd=rnd, first=str(tables[0][0]), second=str(tables[1][0]),
                                    actor=organiser)
    assert exc.value.errors[0]["code"] == "round_not_draft"


def test_swapping_someone_who_is_not_seated_is_refused(seated):
    rnd, organiser = seated
    with pytest.raises(ServiceError) as exc:
        services.round_swap_players(rnd=rnd, first="1", second="99", actor=organiser)
    assert exc.value.errors[0]["field"] == "players"


def test_a_swap_that_breaks_the_points_order_of_round_2_is_reported_by_the_checker(
        seated, django_capture_on_commit_callbacks):
    rnd, organiser = seated
    checker = UserFactory()
    rnd.event.referees.add(checker)
    services.round_publish(rnd=rnd, actor=organiser)
    for table in rnd.tables.order_by("number"):
        card = table.scorecard
        declarer, resting = card.player_ids[0], card.player_ids[3]
        services.hand_save(scorecard=card, number=1, actor=organiser, expected_version=card.version,
                           record={"game": "trojka", "declarer": declarer, "resting": resting,
                                   "points": 50})
        services.scorecard_submit(scorecard=card, actor=organiser)
        services.scorecard_confirm(scorecard=card, actor=checker, reason="a short test card: fewer hands than the round plays")
    round_jobs.round_close(rnd=rnd, actor=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        round_jobs.round_generation_queue(event=rnd.event, actor=organiser)
    round2 = Round.objects.get(event=rnd.event, number=2)
    assert services.seating_violations(round2) == []
    tables = _tables(round2)
    # Seed 000 §4.1 b: table 1 gathers the most points; moving a table-2 player up breaks it.
    services.round_swap_players(rnd=round2, first=str(tables[0][0]), second=str(tables[1][0]),
                                actor=organiser)
    round2.refresh_from_db()
    checker_notes = [n for n in round2.notes if services.is_checker_note(n)]
    assert checker_notes, round2.notes
    # Swapping back restores a valid round and clears the checker's notes.
    services.round_swap_players(rnd=round2, first=str(tables[0][0]), second=str(tables[1][0]),
                                actor=organiser)
    round2.refresh_from_db()
    assert not [n for n in round2.notes if services.is_checker_note(n)]


def test_a_swap_in_a_draft_round_whose_table_has_hands_is_refused():
    world = build_world()
    Round.objects.filter(pk=world.round1.pk).update(status=Round.Status.DRAFT)
    world.round1.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        services.round_swap_players(rnd=world.round1, first="1", second="5",
                                    actor=world.users["organiser"])
    assert refused.value.errors[0]["code"] == "table_has_results"
    assert "table 1" in refused.value.errors[0]["message"]
    assert world.card(1).player_ids == ["1", "2", "3", "4"]
    # Within tables without entries a swap is still fine.
    services.round_swap_players(rnd=world.round1, first="6", second="5",
                                actor=world.users["organiser"])
    assert world.card(2).player_ids == ["6", "5", "7", "8"]
