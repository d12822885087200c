"""A player may hide his career page (issue #19, privacy): "a player (or the organiser on his
behalf) may hide his career page". Visitors then see his name only; he, and whoever manages
the registry, still see everything; his results stay in the events' standings."""

from __future__ import annotations

import pytest

from tests.tournaments.pages.support import client_for, world_fixture, world_of_the_module  # noqa: F401
from tournaments import services
from tournaments.errors import Forbidden
from tournaments.models import AuditEntry


def _player(world):
    return world.player.player


def test_a_hidden_career_page_shows_visitors_the_name_only(world):
    player = _player(world)
    url = f"/players/{player.pk}/"
    assert world.event.name in client_for(None).get(url).content.decode()

    response = client_for(world.player).post(f"{url}career-visibility/", {"hidden": "1"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.career_hidden
    entry = AuditEntry.objects.get(action="player.career")
    assert entry.after == {"career_hidden": True} and entry.actor == world.player

    for visitor in (None, world.stranger, world.other_player, world.referee):
        page = client_for(visitor).get(url)
        assert page.status_code == 200
        text = page.content.decode()
        assert str(player) in text and world.event.name not in text, visitor
    # The standings of the event still name him: they are the event's results.
    assert str(player) in client_for(None).get(f"/e/{world.event.slug}/standings/").content.decode()
    # He and the organisers see the page, with a word that it is hidden.
    for viewer in (world.player, world.organiser, world.staff):
        text = client_for(viewer).get(url).content.decode()
        assert world.event.name in text and "visitors see only the name" in text, viewer

    client_for(world.organiser).post(f"{url}career-visibility/", {"hidden": "0"})
    player.refresh_from_db()
    assert not player.career_hidden
    assert world.event.name in client_for(None).get(url).content.decode()


def test_only_the_player_or_an_organiser_may_hide_it(world):
    player = _player(world)
    url = f"/players/{player.pk}/career-visibility/"
    for outsider in (world.other_player, world.referee, world.stranger):
        assert client_for(outsider).post(url, {"hidden": "1"}).status_code == 403, outsider
    assert client_for(None).post(url, {"hidden": "1"}).status_code in (302, 403)
    assert client_for(world.player).post(url, {"hidden": "maybe"}).status_code == 400
    assert client_for(world.player).get(url).status_code == 405
    player.refresh_from_db()
    assert not player.career_hidden
    with pytest.raises(Forbidden):
        services.player_career_hide(player=player, hidden=True, actor=world.other_player)


def test_the_api_hides_a_hidden_career_too(world):
    player = _player(world)
    url = f"/api/v1/players/{player.pk}/leagues-and-cups/"
    assert client_for(None).get(url).status_code == 200
    services.player_career_hide(player=player, hidden=True, actor=world.player)
    assert client_for(None).get(url).status_code == 404
    assert client_for(world.stranger).get(url).status_code == 404
    assert client_for(world.player).get(url).status_code == 200
    assert client_for(world.organiser).get(url).status_code == 200
