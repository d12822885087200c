"""Putting a season's players into its divisions from a CSV file, all or nothing.

The columns are an event's player import's (first_name, last_name, club, country,
federation_id; tournaments.services.player_entry.read_import_csv reads them, with commas, semicolons or
tabs) plus `division` (its level, 1, 2 ..., its Roman numeral, I, II ..., or its name, in
any case and without diacritics) and `seed_position` (empty: the next free position of the
division). A row names an existing registry player as the event import does
(tournaments.services.player_entry.ImportRegistry: by federation id, else by first name, last name and
club, forgiving case and diacritics); only a player the registry lacks is created. Every row
is checked before anything is written, and one bad row refuses the whole file with every
problem at `rows[i].<column>`, the message naming the file line. The members are added
together by `leagues.services.memberships_add_many` (the checks of `membership_add`, one audit
entry each), and one more entry records the import.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from leagues import roles
from leagues.models import Division, Season
from leagues.names import roman
from leagues.services import memberships_add_many
from leagues.services.seasons import check_planning
from tournaments import services as tournament_services
from tournaments.domain import search
from tournaments.errors import Forbidden, ServiceError
from tournaments.models import Player
from tournaments.services import audit
from tournaments.services.player_entry import (
    ImportRegistry,
    create_players_of_plan,
    import_error,
    read_import_csv,
    refusals_at_rows,
    refuse_oversized_csv,
)

SEASON_IMPORT_COLUMNS = (*tournament_services.PLAYER_IMPORT_COLUMNS, "division", "seed_position")


class ImportedMembers(list):
    """The memberships an import created, in the file's order, and the players it found in
    the registry by name and club (`reused`) rather than creating them again."""

    def __init__(self) -> None:
        super().__init__()
        self.reused: list[Player] = []


def _division_names(divisions: list[Division]) -> dict[str, Division]:
    names: dict[str, Division] = {}
    for d in divisions:
        for name in (str(d.level), roman(d.level).lower(), f"{roman(d.level).lower()}.", search.fold(d.name)):
            names.setdefault(name, d)
    return names


def _plan(season: Season, rows: list[tuple[int, int, dict[str, str]]], actor: Any
          ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    errors: list[dict[str, Any]] = []
    divisions = list(season.divisions.order_by("level"))
    by_name = _division_names(divisions)
    members = set(season.memberships.values_list("player_id", flat=True))
    taken: dict[int, set[int]] = {d.pk: set() for d in divisions}
    for division_id, position in season.memberships.values_list("division_id", "seed_position"):
        taken[division_id].add(position)
    counts = {pk: len(positions) for pk, positions in taken.items()}
    named: dict[tuple[int, int], int] = {}
    seen_players: dict[Any, int] = {}
    registry = ImportRegistry(rows, actor=actor)
    plan = []
    for index, line, v in rows:
        # Called only within this iteration, so index and line are this row's.
        def bad(column: str, code: str, message: str) -> None:
            errors.append(import_error(index, column, code, f"line {line}: {message}"))  # noqa: B023

        new_player = registry.check_values(v, bad)
        division = None
        if not v["division"]:
            if len(divisions) == 1:
                division = divisions[0]
            else:
                bad("division", "required", _("the division is missing: give its name or its level (%(levels)s)")
                    % {"levels": ", ".join(str(d.level) for d in divisions)})
        else:
            division = by_name.get(search.fold(v["division"]))
            if division is None:
                bad("division", "unknown_division",
                    _("%(value)s is not a division of this season: give its name or its level (%(names)s)")
                    % {"value": v["division"],
                       "names": ", ".join(f"{d.level} {d.name}" for d in divisions)})
        position = None
        if v["seed_position"]:
            try:
                position = int(v["seed_position"])
            except ValueError:
                position = None
            if position is None or position < 1 or (division is not None and division.size
                                                    and position > division.size):
                bad("seed_position", "out_of_range",
                    _("the seed position must be a whole number from 1 to the division's size, got %(value)s")
                    % {"value": v["seed_position"]})
                position = None
            elif division is not None and position in taken[division.pk]:
                bad("seed_position", "seed_position_taken",
                    _("seed position %(n)s of %(division)s is taken") % {"n": position, "division": division.name})
            elif division is not None and (division.pk, position) in named:
                bad("seed_position", "duplicate", _("seed position %(n)s of %(division)s is also on line %(line)s")
                    % {"n": position, "division": division.name, "line": named[(division.pk, position)]})
            elif division is not None:
                named[(division.pk, position)] = line
        if division is not None:
            counts[division.pk] += 1
            if division.size and counts[division.pk] > division.size:
                bad("division", "division_full", _("%(division)s is full (%(n)s players)")
                    % {"division": division.name, "n": division.size})
        player, matched_by, key = registry.match(v, bad)
        if player is not None and player.pk in members:
            bad("last_name", "already_member", _("%(player)s is already in this season") % {"player": player})
        if key in seen_players:
            bad("last_name", "duplicate", _("the same player as on line %(line)s") % {"line": seen_players[key]})
        else:
            seen_players[key] = line
        plan.append({"player": player, "matched_by": matched_by, "new_player": new_player,
                     "division": division, "seed_position": position})
    if not errors:
        # Rows without a position take the free ones of their division, in the file's order,
        # leaving the positions other rows name to them.
        for item in plan:
            if item["seed_position"] is None:
                pk = item["division"].pk
                used = taken[pk] | {p for (d, p) in named if d == pk}
                item["seed_position"] = next(n for n in range(1, len(used) + 2) if n not in used)
                taken[pk].add(item["seed_position"])
    return plan, errors


@transaction.atomic
def memberships_import_csv(*, season: Season, text: str, actor: Any,
                           field: str = "file") -> ImportedMembers:
    """Put the players of a CSV file into the season's divisions (see the module's
    docstring), before the first matchday is seated; all or nothing. The file's limits are
    the event import's (CSV_IMPORT_MAX_BYTES: 413, CSV_IMPORT_MAX_ROWS: 400), naming
    `field`, the field the text came in."""
    if not roles.can_organise_league(actor, season.league):
        raise Forbidden(_("only the organisers of %(league)s may do this") % {"league": season.league.name},
                        code="not_organiser")
    refuse_oversized_csv(text, field)
    # Lock the season so that no member slips in between the check and the writes.
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    check_planning(season)
    rows, errors = read_import_csv(text, SEASON_IMPORT_COLUMNS, field=field)
    plan: list[dict[str, Any]] = []
    if not errors:
        plan, errors = _plan(season, rows, actor)
    if errors:
        raise ServiceError(errors)
    # In bulk, as an event's import writes (tournaments.services.player_entry): the new
    # players, then the members, with the checks and audit entries of player_create and
    # membership_add; should they refuse anything the plan let through, it is named at its row.
    create_players_of_plan(plan, rows, actor)
    with refusals_at_rows("entries", rows):
        members = memberships_add_many(
            season=season, actor=actor,
            entries=[(item["division"], item["player"], item["seed_position"]) for item in plan])
    created = ImportedMembers()
    created.extend(members)
    created.reused.extend(item["player"] for item in plan if item["matched_by"] == "name")
    audit.record(actor=actor, action="league.membership.import", target=season,
                 after={"rows": len(created),
                        "members": [[m.division.level, m.seed_position, m.player_id] for m in created],
                        "reused_players": [p.pk for p in created.reused]})
    return created
