"""A league's or a cup's settings saved from an organiser's copy read before another change:
the fields he did not touch keep what the other change wrote (save() writes every column, and
the copy's old values used to be written back)."""

from __future__ import annotations

import pytest

from leagues import services
from leagues.models import CupSeries, League
from tests.leagues.helpers import users

pytestmark = pytest.mark.django_db


def test_a_league_update_keeps_what_moved_since_the_caller_read_the_league():
    organiser, _referee = users()
    league = services.league_create(actor=organiser, name="League", slug="league",
                                    description="first words")
    stale = League.objects.get(pk=league.pk)
    League.objects.filter(pk=league.pk).update(description="changed meanwhile")
    services.league_update(league=stale, actor=organiser, name="Renamed league")
    league.refresh_from_db()
    assert (league.name, league.description) == ("Renamed league", "changed meanwhile")


def test_a_cup_update_keeps_what_moved_since_the_caller_read_the_cup():
    organiser, _referee = users()
    series = services.cup_create(actor=organiser, name="Cup", slug="cup", season_label="2026")
    stale = CupSeries.objects.get(pk=series.pk)
    CupSeries.objects.filter(pk=series.pk).update(season_label="2027")
    services.cup_update(series=stale, actor=organiser, best_results_counted=3)
    series.refresh_from_db()
    assert (series.best_results_counted, series.season_label) == (3, "2027")
