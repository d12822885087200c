"""TRI + 1 at one table (seed 000 §3): "trije igrajo, talon počiva ... Igra se 24 iger." The
dealer is the talon who rests; the deal passes seat by seat."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.seating import SeatingInvalid
from tournaments.seating.rotation import rest_rotation, rests_per_player


def test_each_of_four_rests_six_of_24_hands():
    assert rests_per_player(["a", "b", "c", "d"]) == {"a": 6, "b": 6, "c": 6, "d": 6}


def test_the_dealer_rests_and_the_next_seat_leads():
    hands = rest_rotation(["a", "b", "c", "d"])
    assert len(hands) == 24
    assert [h["dealer"] for h in hands[:5]] == ["a", "b", "c", "d", "a"]
    assert hands[0] == {"hand": 1, "dealer": "a", "resting": "a", "forehand": "b",
                        "playing": ["b", "c", "d"]}
    assert hands[23]["resting"] == "d"


def test_three_at_a_table_nobody_rests_and_each_deals_eight():
    hands = rest_rotation(["a", "b", "c"])
    assert all(h["resting"] is None and h["playing"] == ["a", "b", "c"] for h in hands)
    assert [sum(1 for h in hands if h["dealer"] == p) for p in "abc"] == [8, 8, 8]


@given(st.integers(min_value=1, max_value=200))
def test_rests_differ_by_at_most_one_for_any_number_of_hands(hands):
    counts = rests_per_player(["a", "b", "c", "d"], hands)
    assert sum(counts.values()) == hands
    assert max(counts.values()) - min(counts.values()) <= 1


@pytest.mark.parametrize("players, hands", [(["a", "b"], 24), (["a", "a", "b", "c"], 24),
                                            (["a", "b", "c", "d", "e"], 24), (["a", "b", "c", "d"], 0),
                                            ("abcd", 24), (["a", "b", "c", 4], 24)])
def test_bad_tables_are_refused(players, hands):
    with pytest.raises(SeatingInvalid):
        rest_rotation(players, hands)
