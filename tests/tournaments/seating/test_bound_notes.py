"""The bound of a field (tournaments.seating.bounds) as a league's schedule page shows it: the
number of matchdays is counted in the reader's language, one matchday or several."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.engine_text import note_text
from tournaments.seating.bounds import no_repeat_bound


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
