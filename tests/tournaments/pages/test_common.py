"""The page modules' shared toolkit (tournaments.pages.common): finding a round as the user
may see it, the one lookup the role-checked pages and the printouts ask."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from tests.tournaments.pages.support import World, world_fixture, world_of_the_module  # noqa: F401
from tournaments.models import Round
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
