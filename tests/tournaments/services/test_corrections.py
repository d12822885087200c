"""A referee's correction after a round is closed reaches everything that depends on it: the
carried totals of the registrations and the seating of the next round (seed 000 §4.1 b seats
by points)."""

from __future__ import annotations

import gc
from decimal import Decimal

import pytest

from sample_data import printouts
from sample_data.factories import EventFactory, RegistrationFactory, UserFactory
from tests.tournaments.services.carried import carried, standings_totals
from tournaments import archive, selectors, services
from tournaments.domain import standings
from tournaments.domain.exact_points import points_text
from tournaments.domain.standings import event_standings
from tournaments.models import Registration, Scorecard
from tournaments.services import round_jobs

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
    round_jobs.round_close(rnd=rnd, actor=organiser)
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


def _played(event, number, organiser, referee, points, tables=None):
    """Round `number` seated (at `tables` of start numbers, or four by four), published and
    every card confirmed with one hand (the table's points from `points`)."""
    rnd = printouts.seat(event, number, tables)
    services.round_publish(rnd=rnd, actor=organiser)
    for card in Scorecard.objects.filter(table__round=rnd).order_by("table__number"):
        ids = list(card.player_ids)
        services.hand_save(scorecard=card, number=1, actor=organiser, expected_version=card.version,
                           record={"game": "trojka", "declarer": ids[card.table.number % 3],
                                   "resting": ids[3], "points": points + 10 * card.table.number})
        card.refresh_from_db()
        services.scorecard_submit(scorecard=card, actor=organiser)
        services.scorecard_confirm(scorecard=card, actor=referee, reason="short test card")
    return rnd


def test_a_correction_refreshes_only_its_tables_players_and_agrees_with_the_whole_standings():
    """The carried totals after a correction are those of the whole standings up to the last
    closed round, for every player (one with a referee's adjustment too), though only the
    corrected table's players are read and written."""
    event = printouts.slovenian_event(slug="scoped-refresh", tables=3)
    organiser, referee = event.organisers.first(), event.referees.first()
    for number in (1, 2):
        round_jobs.round_close(rnd=_played(event, number, organiser, referee, 20), actor=organiser)
    services.standings_adjust(registration=Registration.objects.get(event=event, start_number=5),
                              actor=referee, reason="late", points_delta="-1/3", score_delta=-10)
    card = Scorecard.objects.get(table__round__event=event, table__round__number=1, table__number=2)
    before = carried(event)
    ids = list(card.player_ids)
    services.hand_save(scorecard=card, number=1, actor=referee, expected_version=card.version,
                       record={"game": "trojka", "declarer": ids[2], "resting": ids[3], "points": 55},
                       reason="counted again")
    after = carried(event)
    assert after == standings_totals(event, 2)
    moved = {n for n in after if after[n] != before[n]}
    assert moved and moved <= {int(p) for p in ids}


def test_a_withdrawn_player_who_never_played_carries_nothing_though_adjusted():
    """The standings give a withdrawn player with no counted card no line, so a referee's
    adjustment of him carries nothing, whether the carried totals are refreshed for him alone
    (the adjustment) or for everybody (closing a round): the two agree."""
    event, card, organiser, referee = closed_round()
    late = services.registration_add(event=event, actor=organiser, first_name="Late",
                                     last_name="Comer")
    services.registration_set_status(registration=late, status="withdrawn", actor=organiser)
    services.standings_adjust(registration=late, actor=referee, reason="fee not paid",
                              points_delta="-1", score_delta=-5)
    late.refresh_from_db()
    assert (late.tournament_points, late.score) == (0, 0)
    assert late.start_number not in {r.start_number for r in event_standings(event).rows}
    services.refresh_carried_totals(event, actor=referee)
    late.refresh_from_db()
    assert (late.tournament_points, late.score) == (0, 0)


def test_closing_a_round_writes_only_the_registrations_whose_totals_changed(monkeypatch):
    """Issue #35: the close computes the standings once, the cycle collector paused, and
    writes the carried totals of the players they moved, in one statement (on PostgreSQL a
    join with the new values)."""
    from tournaments.services import scorecards

    organiser, referee = UserFactory(), UserFactory()
    event = EventFactory(seating_system="points")
    event.organisers.add(organiser)
    event.referees.add(referee)
    regs = {n: RegistrationFactory(event=event, start_number=n) for n in range(1, 9)}
    rnd = services.round_store(event=event, number=1, seating_system="points", seed=1,
                               tables=[["1", "2", "3", "4"], ["5", "6", "7", "8"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    first, second = (Scorecard.objects.get(table__round=rnd, table__number=n) for n in (1, 2))
    services.hand_save(scorecard=first, number=1, actor=organiser, expected_version=first.version,
                       record={"game": "trojka", "declarer": "1", "resting": "4", "points": 50})
    services.scorecard_submit(scorecard=first, actor=organiser)
    services.scorecard_confirm(scorecard=first, actor=referee, reason="a short test card")
    services.scorecard_annul(scorecard=second, actor=referee, reason="the table did not play")
    written, computed = [], []
    write = scorecards._write_totals
    monkeypatch.setattr(scorecards, "_write_totals", lambda changed: (written.append(
        sorted(r.start_number for r in changed)), write(changed)))
    # Every computation of the cards' results passes here, whichever way it was asked for.
    results_of = standings._counted_results
    monkeypatch.setattr(standings, "_counted_results",
                        lambda *a, **k: (computed.append(gc.isenabled()), results_of(*a, **k))[1])
    round_jobs.round_close(rnd=rnd, actor=organiser)
    assert written == [[1, 2, 3, 4]]  # the annulled table's players carry 0 as before
    # Once, with the cycle collector paused (tournaments.runtime.collector), and it is back.
    assert computed == [False] and gc.isenabled()
    stored = {n: (r.tournament_points, r.score) for n, r in
              ((n, Registration.objects.get(pk=reg.pk)) for n, reg in regs.items())}
    expected = {r.start_number: (r.exact_points, r.score) for r in event_standings(event, up_to_round=1).rows}
    assert all(stored[n] == (Decimal(points_text(expected.get(n, (0, 0))[0])), expected.get(n, (0, 0))[1])
               for n in regs)
    assert stored[1] == (Decimal("4.000"), 25)


def test_the_carried_totals_follow_a_withdrawal_and_a_return_at_once():
    """A withdrawn player with no counted card has no line and carries nothing; back in the
    event his adjustment is carried again. Both at the status change, not at the next close:
    the next round's seating reads the carried totals."""
    event = printouts.slovenian_event(slug="carried-status", tables=2)
    organiser, referee = event.organisers.first(), event.referees.first()
    round_jobs.round_close(rnd=_played(event, 1, organiser, referee, 20), actor=organiser)
    late = services.registration_add(event=event, actor=organiser, first_name="Late", last_name="Comer")
    services.standings_adjust(registration=late, actor=referee, reason="fee not paid",
                              points_delta="-1", score_delta=-5)
    assert carried(event)[late.start_number] == (-1, -5)
    services.registration_set_status(registration=late, status="withdrawn", actor=organiser)
    assert carried(event)[late.start_number] == (0, 0)
    services.registration_set_status(registration=late, status="registered", actor=organiser)
    assert carried(event)[late.start_number] == (-1, -5)
    assert carried(event) == standings_totals(event, 1)
    points = {p["id"]: p["points"] for p in selectors.seating_request(event, 2, seed=7)["players"]}
    assert points[str(late.start_number)] == -1


def test_the_carried_totals_follow_a_change_of_how_the_tables_are_counted():
    """Ties at a table shared, then given by start number, after round 1 closed: round 1's
    table points are carried anew at once, not at the next close."""
    event = printouts.slovenian_event(slug="carried-ties", tables=2)
    organiser, referee = event.organisers.first(), event.referees.first()
    services.event_update(event=event, actor=organiser, seating_system="points",
                          seating_options={"table_ties": "share"})
    round_jobs.round_close(rnd=_played(event, 1, organiser, referee, 20), actor=organiser)
    shared = carried(event)
    event.refresh_from_db()
    services.event_update(event=event, actor=organiser, seating_options={"table_ties": "start_number"})
    assert carried(event) != shared
    assert carried(event) == standings_totals(event, 1)


def test_nothing_is_carried_before_the_first_close_an_adjustment_neither():
    """Before any round is closed nobody carries anything, a player a referee adjusted neither
    (his adjustment alone was carried, while the refresh of everyone and an archive's check
    read 0: the event's own archive was refused). The first close carries it."""
    event = printouts.slovenian_event(slug="carried-before", tables=1)
    organiser, referee = event.organisers.first(), event.referees.first()
    services.standings_adjust(registration=Registration.objects.get(event=event, start_number=2),
                              actor=referee, reason="late", points_delta="-1", score_delta=-10)
    assert set(carried(event).values()) == {(0, 0)}
    archive.replace_event(archive.export_event(event), event)  # its carried totals accepted
    round_jobs.round_close(rnd=_played(event, 1, organiser, referee, 20), actor=organiser)
    assert carried(event) == standings_totals(event, 1)  # the adjustment counted in


def test_closing_a_later_round_places_its_own_cards_alone_and_carries_what_the_whole_standings_give(
        monkeypatch):
    """Issue #35: the second close adds what round 2's cards give to the carried totals; the
    cards of the closed round 1 are not placed again. The totals are still those of the whole
    standings, through a correction and adjustments of round 1, a player who withdrew after
    round 1, and a latecomer with an adjustment who played round 2 and withdrew before it
    closed (with no line before the close he carried nothing, his adjustment neither; the
    close gives him his line, with the adjustment). A reopened round closes again to the same."""
    event = printouts.slovenian_event(slug="carried-close", tables=2)
    organiser, referee = event.organisers.first(), event.referees.first()
    registration = lambda n: Registration.objects.get(event=event, start_number=n)  # noqa: E731
    services.standings_adjust(registration=registration(2), actor=referee, reason="late",
                              points_delta="-1/3", score_delta=-10)
    round_jobs.round_close(rnd=_played(event, 1, organiser, referee, 20,
                                       [[1, 2, 3, 4], [5, 6, 7, 8]]), actor=organiser)
    card = Scorecard.objects.get(table__round__number=1, table__round__event=event, table__number=2)
    ids = list(card.player_ids)
    services.hand_save(scorecard=card, number=1, actor=referee, expected_version=card.version,
                       record={"game": "trojka", "declarer": ids[1], "resting": ids[3], "points": 55},
                       reason="counted again")
    services.standings_adjust(registration=registration(6), actor=referee, reason="slow play",
                              points_delta="-1", score_delta=0)
    services.registration_set_status(registration=registration(3), status="withdrawn", actor=organiser)
    late = services.registration_add(event=event, actor=organiser, first_name="Late", last_name="Comer")
    services.standings_adjust(registration=late, actor=referee, reason="fee not paid",
                              points_delta="-1", score_delta=-5)
    rnd = _played(event, 2, organiser, referee, 30, [[1, 2, 4, late.start_number], [5, 6, 7, 8]])
    services.registration_set_status(registration=late, status="withdrawn", actor=organiser)
    assert carried(event)[late.start_number] == (0, 0)
    placed = []
    results_of = standings._counted_results
    monkeypatch.setattr(standings, "_counted_results", lambda event, values, *a, **k: results_of(
        event, [placed.append(v[0]) or v for v in values], *a, **k))
    round_jobs.round_close(rnd=rnd, actor=organiser)
    assert set(placed) == {2}  # round 2's cards alone
    totals = standings_totals(event, 2)
    assert carried(event) == totals
    assert totals[late.start_number] != (0, 0) and totals[3] != (0, 0)
    rows = {r.start_number: r for r in event_standings(event, up_to_round=2).rows}
    closing = event.audit_entries.filter(action="round.close").latest("pk").after
    assert closing == {str(n): {"points": str(standings.to_decimal(r.exact_per_round[2][0])),
                                "score": str(r.exact_per_round[2][1])}
                       for n, r in rows.items() if 2 in r.exact_per_round}
    assert len(closing) == 8
    services.round_reopen(rnd=rnd, actor=organiser, reason="closed too early")
    assert carried(event) == standings_totals(event, 1)
    round_jobs.round_close(rnd=rnd, actor=organiser)
    assert carried(event) == totals
