"""The knock-out of seed 000 §4.1 a run end to end through the services (issue #21,
findings 1 and 2).

> "Za vsako mizo izpadeta dva igralca, dva pa gresta v naslednji krog. ... Ko ostanejo le
> štirje igralci, je finalna igra."
> "Vsi igralci se morajo prijaviti do žreba turnirja ... Po opravljenem žrebu prijava ni več
> možna."
"""

from __future__ import annotations

import pytest

from tests.tournaments.formats.support import new_event, run_round, seated
from tournaments import services
from tournaments.domain import standings
from tournaments.errors import ServiceError
from tournaments.models import Registration


def by_hand(rounds: list[tuple[list[list[str]], dict[str, int]]]) -> list[str]:
    """The order §4.1 a gives, computed from the rounds as played: the final table by its
    placing, then those who went out in the round before it ranked among themselves by their
    place at their table, that round's score, the total score and the start number, and so on
    back to the pre-competition. `rounds` holds each round's placings (tables first to last)
    and its scores."""
    total: dict[str, int] = {}
    for _placings, scores in rounds:
        for p, s in scores.items():
            total[p] = total.get(p, 0) + s
    order: list[str] = []
    placed: set[str] = set()
    for placings, scores in reversed(rounds):
        out = [(place, -scores[p], -total[p], int(p)) for table in placings
               for place, p in enumerate(table) if p not in placed and (len(placings) == 1 or place >= 2)]
        for *_key, number in sorted(out):
            p = str(number)
            order.append(p)
            placed.add(p)
    return order


def lowest_wins_early_highest_in_final(final_round: int):
    """Earlier rounds go to the lower start numbers; the final to the higher ones, so that the
    final's winner does not have the largest total score."""
    def decide(number: int, players: list[str], rnd: int) -> list[str]:
        ordered = sorted(players, key=int)
        return ordered[::-1] if rnd == final_round else ordered
    return decide


@pytest.mark.parametrize("players, rounds", [(16, 3), (36, 5)])
def test_the_final_order_is_who_went_out_when(db, django_capture_on_commit_callbacks, players, rounds):
    """Finding 1: the final table finished 31, 30, 16, 7 but the standings ranked its players
    by total game score and gave 2nd and 3rd place to players out in earlier rounds."""
    event, organiser, referee = new_event(f"ko{players}", players, seating_system="knockout",
                                          planned_rounds=rounds)
    decide = lowest_wins_early_highest_in_final(rounds)
    played = []
    for number in range(1, rounds + 1):
        rnd = run_round(event, organiser, referee, django_capture_on_commit_callbacks,
                        lambda t, ps, n=number: decide(t, ps, n))
        placings = [decide(0, table, number) for table in seated(rnd)]
        scores = {p: row.per_round[number][1] for row in standings.event_standings(event).rows
                  for p in [str(row.start_number)] if number in row.per_round}
        played.append((placings, scores))
    assert len(played[-1][0]) == 1, "the last round is the final table"
    table = standings.event_standings(event)
    expected = by_hand(played)
    assert len(expected) == players
    assert [str(r.start_number) for r in table.rows] == expected
    final = played[-1][0][0]
    assert [str(r.start_number) for r in table.rows[:4]] == final
    assert [r.rank for r in table.rows[:4]] == [1, 2, 3, 4]
    # Ranking by total game score (the order before the fix) would not give this order.
    by_score = sorted(table.rows, key=lambda r: (-r.score, r.start_number))
    assert [str(r.start_number) for r in by_score] != expected


def test_no_entry_after_the_knockout_draw(db, django_capture_on_commit_callbacks):
    """Finding 2: "Po opravljenem žrebu prijava ni več možna." A late entry was accepted and
    the next draw then failed with "player 9 ... is not among the available players"."""
    event, organiser, referee = new_event("ko-late", 8, seating_system="knockout", planned_rounds=2)
    services.registration_add(event=event, actor=organiser, first_name="Early", last_name="Bird")
    gone = event.registrations.get(start_number=9)
    services.registration_set_status(registration=gone, status="withdrawn", actor=organiser)
    run_round(event, organiser, referee, django_capture_on_commit_callbacks, lambda t, ps: ps)
    with pytest.raises(ServiceError) as refused:
        services.registration_add(event=event, actor=organiser, first_name="Late", last_name="Comer",
                                  status=Registration.Status.LATE_ENTRY)
    assert refused.value.errors[0]["code"] == "entries_closed"
    assert "draw" in refused.value.errors[0]["message"]
    # A player withdrawn before the draw cannot come back into it either.
    with pytest.raises(ServiceError) as back:
        services.registration_set_status(registration=gone, status="registered", actor=organiser)
    assert back.value.errors[0]["code"] == "entries_closed"
    assert event.registrations.count() == 9
    # The knock-out goes on to its final.
    final = run_round(event, organiser, referee, django_capture_on_commit_callbacks, lambda t, ps: ps)
    assert len(seated(final)) == 1


def test_the_points_system_still_takes_late_entries(db, django_capture_on_commit_callbacks):
    """§4.1 b is meant for late arrivals ("eni pridejo naknadno"): entries stay open."""
    event, organiser, referee = new_event("pts-late", 8, planned_rounds=2)
    run_round(event, organiser, referee, django_capture_on_commit_callbacks, lambda t, ps: ps)
    late = services.registration_add(event=event, actor=organiser, first_name="Late",
                                     last_name="Comer", status=Registration.Status.LATE_ENTRY)
    assert late.start_number == 9
