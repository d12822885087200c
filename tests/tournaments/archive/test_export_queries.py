"""Exporting an event reads each kind of object in one query: the played demo with hands,
penalties, disputes and adjustments costs the queries of a one-table event."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.archive.test_event import rich_demo, small_event
from tournaments import archive

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _export_queries(event) -> int:
    with CaptureQueriesContext(connection) as ctx:
        archive.export_event(event)
    return len(ctx.captured_queries)


def test_an_events_export_costs_the_same_queries_whatever_its_size():
    small = small_event(slug="one-table", ruleset="slovenski-tarok-zei", mode="four")
    assert _export_queries(rich_demo()) == _export_queries(small) == 14
