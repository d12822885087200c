"""The points system's seating note counts late entries with the plural the number takes, in
the engine's English and in sl, cs and de (issue #33: "then 1 late entries"). The note is what
a round's page shows under its number (tournaments.engine_text.notes)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.engine_text.notes import note_text
from tournaments.seating import seat_round


def _points_note(late: int, missed: int = 0) -> dict:
    players = ([{"id": f"p{n}", "points": 4, "score": n, "played_last_round": True} for n in range(8)]
               + [{"id": f"late{n}", "new": True} for n in range(late)]
               + [{"id": f"away{n}", "points": 1, "score": 0, "played_last_round": False}
                  for n in range(missed)])
    result = seat_round({"system": "points", "round": 2, "seed": 1, "players": players})
    return next(n for n in result["notes"] if n["code"] == "points_order")


@pytest.mark.parametrize("late, words", [(1, ", then 1 late entry"), (2, ", then 2 late entries")])
def test_the_engines_english_note_agrees_with_the_number(late, words):
    note = _points_note(late)
    assert note["text"].endswith(words)
    assert "1 late entries" not in note["text"]
    with translation.override("en"):
        assert note_text(note) == note["text"]


@pytest.mark.parametrize("language, expected", [
    ("sl", {1: "nato 1 pozna prijava", 2: "nato 2 pozni prijavi", 3: "nato 3 pozne prijave",
            5: "nato 5 poznih prijav"}),
    ("cs", {1: "pak 1 pozdní přihláška", 2: "pak 2 pozdní přihlášky", 5: "pak 5 pozdních přihlášek"}),
    ("de", {1: "dann 1 Nachmeldung", 2: "dann 2 Nachmeldungen"}),
])
def test_the_note_counts_late_entries_in_each_language(language, expected):
    for late, words in expected.items():
        with translation.override(language):
            assert words in note_text(_points_note(late)), (language, late)
