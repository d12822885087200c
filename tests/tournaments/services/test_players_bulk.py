"""`players_create_many`: an archive's new players entered into the registry together (issue
#18, "import_event uses bulk inserts") with the checks `player_create` makes, all or none."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import services
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Player


def _many(n: int, prefix: str) -> list[dict]:
    return [{"first_name": f"  Ana{i} ", "last_name": f"Kovačič-{prefix}", "club": "TK Ljubljana",
             "country": "si", "federation_id": f"{prefix}-{i}"} for i in range(n)]


def _queries(players: list[dict]) -> int:
    with CaptureQueriesContext(connection) as captured:
        services.players_create_many(players=players)
    return len(captured)


def test_many_players_are_created_and_audited_in_a_constant_number_of_queries(db):
    _queries(_many(1, "warm"))  # the content type of Player is looked up once per process
    assert _queries(_many(3, "a")) == _queries(_many(40, "b"))
    created = Player.objects.get(federation_id="b-7")
    # What player_create does to the values, and what Player.save() derives from them.
    assert (created.first_name, created.country) == ("Ana7", "SI")
    assert created.search_name and created.search_club
    assert Player.objects.filter(last_name__startswith="Kovačič").count() == 44
    assert AuditEntry.objects.filter(action="player.create").count() == 44


def test_a_federation_id_used_twice_or_a_player_without_a_name_saves_nobody(db):
    services.player_create(first_name="Ana", last_name="Stored", federation_id="SLO-1")
    players = [{"first_name": "Bor", "last_name": "New", "federation_id": "SLO-1"},
               {"first_name": "Cene", "last_name": "New", "federation_id": "SLO-2"},
               {"first_name": "Dan", "last_name": "New", "federation_id": "SLO-2"},
               {"first_name": " ", "last_name": "", "federation_id": ""},
               {"first_name": "Eva", "last_name": "New", "country": "XX"}]
    with pytest.raises(ServiceError) as refused:
        services.players_create_many(players=players)
    fields = {e["field"] for e in refused.value.errors}
    assert {"players[0].federation_id", "players[2].federation_id", "players[3].last_name",
            "players[4].country"} <= fields
    assert "players[1].federation_id" not in fields
    assert not Player.objects.filter(last_name="New").exists()
