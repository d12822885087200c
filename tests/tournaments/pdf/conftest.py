"""Fixtures of the printout tests: every test stores rendered files under its own MEDIA_ROOT;
the Czech money event several of them print."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _media_root(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture
def czech():
    """The GP Vysočiny money event, with its round 2 seated (the seed's four players at
    table 4)."""
    from sample_data import printouts

    event = printouts.czech_event()
    return event, printouts.czech_round_two(event)


@pytest.fixture
def printed_at_fixed(monkeypatch):
    """Every printout of the test printed at one minute: the tests that compare two renderings
    pixel by pixel would otherwise differ in the footer's time when the minute turns between
    them (it did, on a slow machine)."""
    from tournaments.printing import render

    monkeypatch.setattr(render, "_printed_at", lambda event: "2026-11-24 10:00")
