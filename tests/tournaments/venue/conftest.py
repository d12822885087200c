"""The venue tests' shared day: an event of eight, its archive before and after table 1 played."""

from __future__ import annotations

import pytest

from sample_data import printouts
from tournaments import archive, services
from tournaments.models import Event


@pytest.fixture
def day():
    """An event of eight with round 1 published; state A, then state B with table 1 played."""
    event = printouts.slovenian_event(slug="venue-day", tables=2, hands_per_round=4)
    rnd = printouts.seat(event, 1)
    services.round_publish(rnd=rnd, actor=event.organisers.first())
    a = archive.export_event(event)
    printouts.play_tri1_table(rnd.tables.get(number=1))
    b = archive.export_event(Event.objects.get(pk=event.pk))
    return {"event": event, "organiser": event.organisers.first(), "a": a, "b": b}
