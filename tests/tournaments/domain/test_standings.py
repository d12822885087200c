"""tournaments.domain.standings, the rules of a table's result read on its own: the placing by
total (equal totals by start number, as numbers), the table points of the points system (seed
000 §4.1 b: 4/3/2/1, less a third per missing seat) with equal scores sharing the places'
points or not (the option `table_ties`), a tied player's place, who has a line, and the
decimals shown for exact points. The standings of whole events are tested where events are
played: tests/tournaments/formats/, services/test_corrections.py, pages/test_public.py."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from tournaments.domain import standings
from tournaments.domain.standings import CardResult

TIED = CardResult(["1", "2", "3", "4"], {"1": 10, "2": 30, "3": 10, "4": -50})


def test_the_placing_is_by_total_and_equal_totals_by_the_lower_start_number():
    assert standings.table_placing(TIED) == ["2", "1", "3", "4"]
    # Start numbers compare as numbers, not as text; a missing total is 0.
    card = CardResult(["10", "9", "11"], {"11": 5})
    assert standings.placed_totals(card.player_ids, card.totals) == [("11", 5), ("9", 0), ("10", 0)]


def test_a_full_table_scores_four_three_two_one():
    card = CardResult(["1", "2", "3", "4"], {"1": -20, "2": 70, "3": 10, "4": 40})
    assert standings.table_result(card, 4, {"table_ties": standings.TIES_START_NUMBER}) == {
        "2": (4, 70), "4": (3, 40), "3": (2, 10), "1": (1, -20)}


def test_a_missing_seat_costs_a_third_each():
    """Seed 000 §4.1 b: "se točke zmanjšajo za 0.333 za vsakega manjkajočega igralca"."""
    card = CardResult(["7", "5", "9"], {"7": 5, "5": 20, "9": 0})
    assert standings.table_result(card, 4) == {
        "5": (Fraction(11, 3), 20), "7": (Fraction(8, 3), 5), "9": (Fraction(5, 3), 0)}
    lone = CardResult(["41"], {})
    assert standings.table_result(lone, 4) == {"41": (3, 0)}


def test_equal_scores_share_the_places_points_by_default_or_follow_the_start_numbers():
    assert standings.table_result(TIED, 4) == {
        "2": (4, 30), "1": (Fraction(5, 2), 10), "3": (Fraction(5, 2), 10), "4": (1, -50)}
    assert standings.table_result(TIED, 4, {"table_ties": standings.TIES_START_NUMBER}) == {
        "2": (4, 30), "1": (3, 10), "3": (2, 10), "4": (1, -50)}


def test_tied_players_are_found_in_runs_and_share_the_first_of_their_places():
    placing = standings.table_placing(TIED)
    assert standings.tied_groups(placing, TIED.totals) == [["1", "3"]]
    assert standings.tied_groups(["2", "1"], {"1": 10, "2": 30}) == []
    assert standings.tied_place(placing, TIED.totals, "3", {}) == 1
    assert standings.tied_place(placing, TIED.totals, "3",
                                {"table_ties": standings.TIES_START_NUMBER}) == 2


def test_a_withdrawn_player_has_a_line_only_with_a_counted_card():
    assert not standings.has_row(0, "withdrawn")
    assert standings.has_row(1, "withdrawn")
    assert standings.has_row(0, "registered")


def test_exact_points_are_shown_with_three_decimals_rounded_half_up():
    assert standings.to_decimal(Fraction(11, 3)) == Decimal("3.667")
    assert standings.to_decimal(Fraction(-1, 3)) == Decimal("-0.333")
    # Thirds summed exactly show as the whole number they are (7.000, never 7.001).
    assert standings.to_decimal(Fraction(5, 3) + Fraction(5, 3) + Fraction(11, 3)) == Decimal("7.000")
