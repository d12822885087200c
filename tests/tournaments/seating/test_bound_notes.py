"""The bound of a field (tournaments.seating.bounds) as a league's schedule page shows it: the
number of matchdays is counted in the reader's language, one matchday or several; and the
notes about a number of things say one thing in the singular."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.engine_text import note_text
from tournaments.seating.bounds import no_repeat_bound, schedule_distance
from tournaments.seating.notes import counted, note


@pytest.mark.parametrize(("lang", "one", "ten"), [
    ("en", "at most 1 matchday without", "at most 10 matchdays without"),
    ("sl", "največ 1 kolo, ne da bi", "največ 10 kol, ne da bi"),
    ("cs", "nejvýše 1 kolo, aniž", "nejvýše 10 kol, aniž"),
    ("de", "höchstens 1 Spieltag, ohne", "höchstens 10 Spieltage, ohne"),
])
def test_the_bound_of_a_field_counts_its_matchdays_in_the_language(lang, one, ten):
    with translation.override(lang):
        assert one in note_text(no_repeat_bound(8))  # a field of 8: one matchday
        assert ten in note_text(no_repeat_bound(32))


def test_a_note_about_one_thing_says_it_in_the_singular():
    """The engine's English has a form for one and a form for more (the catalogues have each
    language's forms): one bye, one absent player, one repeat meeting, one time."""
    assert counted(1, "{count} player is absent", "{count} players are absent") == "{count} player is absent"
    assert counted(0, "{count} player is absent", "{count} players are absent") == "{count} players are absent"
    with translation.override("de"):
        assert note_text(note("league_absent", "{count} player is absent", count=1)) == "1 Spieler fehlt"
        assert note_text(note("league_absent", "{count} players are absent", count=3)) == "3 Spieler fehlen"


def test_a_schedules_distance_counts_each_of_its_numbers_in_english():
    one_matchday = [[["1", "2", "3", "4"], ["5", "6", "7", "8"]]]
    again = one_matchday + [[["1", "2", "3", "5"], ["4", "6", "7", "8"]]]
    assert schedule_distance(one_matchday)["text"] == (
        "1 matchday: the first 1 without a repeat meeting; 0 repeat meetings (at least 0 unavoidable), "
        "no pair more than 1 time")
    assert schedule_distance(again)["text"].startswith("2 matchdays: the first 1 without a repeat meeting; ")
    assert "no pair more than 2 times" in schedule_distance(again)["text"]
