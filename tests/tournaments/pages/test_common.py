"""The page modules' shared toolkit (tournaments.pages.common): finding a round as the user
may see it, the one lookup the role-checked pages and the printouts ask."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.pages.support import (  # noqa: F401
    World,
    client_for,
    draft_round_2,
    standings_of,
    world_fixture,
    world_of_the_module,
)
from tournaments.models import Penalty, Registration, Round, Scorecard
from tournaments.pages.common import visible_round_or_404


def _draft(world: World) -> Round:
    return Round.objects.create(event=world.event, number=2, seating_system="points", seed=1)


@pytest.mark.parametrize("who", ["anonymous", "stranger", "player"])
def test_a_draft_round_does_not_exist_for_a_visitor(who, world: World):
    _draft(world)
    user = AnonymousUser() if who == "anonymous" else getattr(world, who)
    with pytest.raises(Http404, match="No such round"):
        visible_round_or_404(user, world.event, 2)


@pytest.mark.parametrize("who", ["organiser", "referee", "staff"])
def test_the_officials_find_a_draft_round(who, world: World):
    draft = _draft(world)
    assert visible_round_or_404(getattr(world, who), world.event, 2) == draft


def test_a_published_round_is_found_by_a_visitor(world: World):
    assert visible_round_or_404(AnonymousUser(), world.event, 1) == world.round


def test_a_round_that_does_not_exist_is_404_even_for_the_organiser(world: World):
    with pytest.raises(Http404, match="No such round"):
        visible_round_or_404(world.organiser, world.event, 9)


def test_a_card_of_a_draft_counts_nowhere_and_prints_for_nobody(world: World):
    rnd = draft_round_2(world)
    before = standings_of(world.event)
    # Data from before this rule (or an archive): a confirmed card in a draft round.
    Scorecard.objects.filter(table__round=rnd, table__number=1).update(
        status="confirmed", totals={"1": 500, "2": -500, "3": 0, "4": 0})
    Scorecard.objects.filter(table__round=rnd, table__number=2).update(
        status="annulled", annulled_reason="x")
    assert standings_of(world.event) == before
    for table in (1, 2):
        url = f"/e/event-a/rounds/2/tables/{table}/scorecard.pdf"
        assert Client().get(url).status_code == 404
        assert client_for(world.organiser).get(url).status_code == 200
    Penalty.objects.create(event=world.event, table=rnd.tables.get(number=1), kind="renons",
                           registration=Registration.objects.get(event=world.event, start_number=2))
    listed = APIClient().get("/api/v1/events/event-a/penalties/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert all(row.get("round") != 2 for row in rows), rows
    official = APIClient()
    official.force_authenticate(world.referee)
    officials_rows = official.get("/api/v1/events/event-a/penalties/").json()
    officials_rows = officials_rows["results"] if isinstance(officials_rows, dict) else officials_rows
    assert any(row.get("round") == 2 for row in officials_rows), officials_rows
