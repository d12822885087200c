"""What merging two records of one person (`tournaments.services.player_registry.player_merge`) means
for the leagues, registered as the `leagues` PlayerRecords hook: the duplicate's season
memberships move to the kept player, and so do the ids by which season schedules and
formations name him. Refused when both records are in one season (each has his own seed
position and results there). Cup results need nothing: they are read from registrations.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from leagues.archive import map_formation, map_schedule
from leagues.models import Season, SeasonMembership
from tournaments.models import Player
from tournaments.services import audit


def conflicts(keep: Player, duplicate: Player) -> list[dict[str, Any]]:
    shared = list(Season.objects.filter(memberships__player=keep)
                  .filter(memberships__player=duplicate).select_related("league")
                  .order_by("league__name", "slug"))
    if not shared:
        return []
    return [{"hand": None, "field": "duplicate", "code": "same_season", "message": _(
        "both players are in the season %(seasons)s, each with his own place there; one of "
        "them must leave it first") % {"seasons": ", ".join(str(s) for s in shared)}}]


def _renamer(keep: Player, duplicate: Player):
    """Converts a stored player id (a number, or its text in schedules) of the duplicate to
    the kept player's, in the same form."""
    def convert(value: Any) -> Any:
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value == duplicate.pk:
            return keep.pk
        if isinstance(value, str) and value == str(duplicate.pk):
            return str(keep.pk)
        return value
    return convert


def move(keep: Player, duplicate: Player, actor: Any) -> dict[str, Any]:
    seasons = []
    for membership in (SeasonMembership.objects.filter(player=duplicate)
                       .select_related("season__league", "division")):
        membership.player = keep
        membership.save(update_fields=["player"])
        seasons.append(str(membership.season))
        audit.record(actor=actor, action="league.membership.merge", target=membership,
                     before={"player": duplicate.pk, "name": str(duplicate)},
                     after={"player": keep.pk, "name": str(keep)})
    convert = _renamer(keep, duplicate)
    renamed = []
    for season in Season.objects.select_related("league").order_by("pk"):
        schedule, formation = map_schedule(season.schedule, convert), map_formation(season.formation, convert)
        if schedule != season.schedule or formation != season.formation:
            season.schedule, season.formation = schedule, formation
            season.save(update_fields=["schedule", "formation"])
            renamed.append(str(season))
    return {"seasons": seasons, "schedules": renamed}


def describe(player: Player) -> list[str]:
    return [str(m.division) for m in SeasonMembership.objects.filter(player=player)
            .select_related("division__season__league").order_by("season__starts_on", "pk")]
