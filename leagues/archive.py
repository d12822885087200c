"""The open archive format of a league season (docs/archive-format.md): the league (by slug,
created on import when missing), the season with its divisions, members, schedule and how it
was formed, its matchdays with their events embedded in the event archive's shape, and the
season's audit trail.

`export_season(season) -> dict`, `validate_season(doc)` and `import_season(doc, actor)` mirror
`tournaments.archive` and share its building blocks: the whole file is checked first (every
embedded event included, stored scores against the engine) and refused with every problem
at its path, then written in one transaction. `tournaments.archive.dumps` writes the file.

The schedule and the formation of a season name players by database id (they are what the
services seat and report from); the archive names them by their index in the season's
`players` list and gives them the new ids on import, so a restored season seats the same
people.

Why one module of some 650 lines: the season's format, its export, its checks and its write
are one document read top to bottom against docs/archive-format.md, each in named steps of
under 80 lines; the cups' archive already lives apart (`archive_cups`). Split like
`tournaments/archive/` (export, check, write) when it grows again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext as _

from leagues.models import Division, League, Matchday, Season, SeasonMembership
from tournaments.archive import (
    FORMAT,
    IMPORT_ACTION,
    LOCAL_ACTIONS,
    VERSION,
    Checker,
    ImportContext,
    atomic_import,
    audit_out,
    check_audit_list,
    check_event_body,
    check_header,
    check_player,
    ensure_users,
    event_body,
    exported_with,
    plain,
    player_key,
    record_import,
    refuse_if_rescored_differently,
    resolve_players,
    username,
    usernames_of,
    write_audit,
    write_event_body,
)
from tournaments.domain.rulesets import ruleset_config_errors
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Player
from tournaments.runtime import collector
from tournaments.services import audit

LEAGUE_FIELDS = ("name", "slug", "description", "division_size", "movement_count", "ruleset_code",
                 "ruleset_mode", "ruleset_options", "hands_per_matchday", "division_count",
                 "qualification_group", "table_size", "min_table_size", "is_public", "language")
SEASON_FIELDS = ("name", "slug", "starts_on", "ends_on", "planned_matchdays", "status", "seed")
DIVISION_FIELDS = ("level", "name", "is_qualification", "size", "plays_matchdays")
MEMBERSHIP_FIELDS = ("seed_position", "origin", "final_rank")
MATCHDAY_FIELDS = ("number", "date")

RELATION_KEYS: dict[type[models.Model], dict[str, str]] = {
    League: {"organisers": "organisers (usernames)"},
    Season: {"league": "the archive's league", "previous": "previous {league, season}",
             "schedule": "schedule (players by index)", "formation": "formation (players by index)"},
    Division: {"season": "nesting"},
    SeasonMembership: {"season": "nesting", "division": "nesting", "player": "player (index)"},
    Matchday: {"season": "nesting", "event": "event (embedded event archive)"},
}
LEFT_OUT: dict[type[models.Model], dict[str, str]] = {
    League: {"id": "database id"},
    Season: {"id": "database id"},
    Division: {"id": "database id"},
    SeasonMembership: {"id": "database id"},
    Matchday: {"id": "database id"},
}

# Natural keys of the objects a season's audit entries name.
TARGET_KEYS: dict[str, tuple[str, ...]] = {
    "leagues.league": ("slug",),
    "leagues.season": ("slug",),
    "leagues.division": ("level",),
    "leagues.seasonmembership": ("player",),
    "leagues.matchday": ("matchday",),
}
# The members of a formation that list players by id: plain lists, and (id, reason) pairs.
FORMATION_ID_LISTS = ("leaving", "dropped_out", "not_admitted")
FORMATION_ID_PAIRS = ("applicants",)


# ---------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------

def _player_ids(season: Season, memberships: list[SeasonMembership]) -> set[int]:
    ids = {m.player_id for m in memberships}
    for division in (season.schedule or {}).get("divisions", {}).values():
        ids.update(_as_id(pid) for pid in division.get("players", []))
        for tables in division.get("rounds", []):
            ids.update(_as_id(pid) for table in tables for pid in table)
    formation = season.formation or {}
    for key in FORMATION_ID_LISTS:
        ids.update(_as_id(pid) for pid in formation.get(key) or [])
    for key in FORMATION_ID_PAIRS:
        ids.update(_as_id(pair[0]) for pair in formation.get(key) or [] if pair)
    ids.discard(None)
    return ids


def _as_id(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def map_schedule(schedule: Any, convert: Any) -> Any:
    """The schedule with every player id passed through `convert`; the rest as it is."""
    if not isinstance(schedule, dict):
        return schedule
    out = dict(schedule)
    divisions = schedule.get("divisions")
    if isinstance(divisions, dict):
        out["divisions"] = {}
        for level, division in divisions.items():
            if not isinstance(division, dict):
                out["divisions"][level] = division
                continue
            d = dict(division)
            if isinstance(division.get("players"), list):
                d["players"] = [convert(pid) for pid in division["players"]]
            if isinstance(division.get("rounds"), list):
                d["rounds"] = [[[convert(pid) for pid in table] for table in tables]
                               for tables in division["rounds"]]
            out["divisions"][level] = d
    return out


def map_formation(formation: Any, convert: Any) -> Any:
    if not isinstance(formation, dict):
        return formation
    out = dict(formation)
    for key in FORMATION_ID_LISTS:
        if isinstance(formation.get(key), list):
            out[key] = [convert(pid) for pid in formation[key]]
    for key in FORMATION_ID_PAIRS:
        if isinstance(formation.get(key), list):
            out[key] = [[convert(pair[0]), *pair[1:]] if isinstance(pair, list) and pair else pair
                        for pair in formation[key]]
    return out


def _player_sort_key(player: Player) -> tuple:
    return (player.last_name, player.first_name, player.club, player.country,
            player.federation_id, username(player.user) or "", player.pk)


def export_season(season: Season) -> dict[str, Any]:
    """The archive document of one season of a league. Made with the collector paused, as an
    event's archive is (tournaments.runtime.collector): a season holds its matchdays'
    events whole."""
    return collector.run_paused(_export_season, season)


def _export_season(season: Season) -> dict[str, Any]:
    league = season.league
    return {"format": FORMAT, "version": VERSION, "kind": "season",
            "exported_with": exported_with(), "league": league_body(league),
            "season": season_body(season)}


def league_body(league: League) -> dict[str, Any]:
    return {**plain(league, LEAGUE_FIELDS), "organisers": usernames_of(league.organisers),
            "audit": _audit_of([league], league)}


def season_body(season: Season) -> dict[str, Any]:
    memberships = list(season.memberships.select_related("player__user", "division"))
    players = sorted(Player.objects.filter(pk__in=_player_ids(season, memberships))
                     .select_related("user"), key=_player_sort_key)
    index = {p.pk: i for i, p in enumerate(players)}

    def to_index(pid: Any) -> int | None:
        return index.get(_as_id(pid))

    body = plain(season, SEASON_FIELDS)
    body["previous"] = ({"league": season.previous.league.slug, "season": season.previous.slug}
                        if season.previous_id else None)
    body["players"] = [player_key(p) for p in players]
    body["schedule"] = map_schedule(season.schedule, to_index)
    body["formation"] = map_formation(season.formation, to_index)
    members: dict[int, list[SeasonMembership]] = {}
    for m in memberships:
        members.setdefault(m.division_id, []).append(m)
    divisions = list(season.divisions.order_by("level"))
    body["divisions"] = [
        {**plain(d, DIVISION_FIELDS),
         "members": [{**plain(m, MEMBERSHIP_FIELDS), "player": index[m.player_id]}
                     for m in sorted(members.get(d.pk, []), key=lambda m: m.seed_position)]}
        for d in divisions
    ]
    matchdays = list(season.matchdays.select_related("event").order_by("number"))
    body["matchdays"] = [{**plain(md, MATCHDAY_FIELDS), "event": event_body(md.event)}
                         for md in matchdays]
    body["audit"] = _audit_of([season, *divisions, *memberships, *matchdays], season.league,
                              index=index, season=season)
    return body


def _audit_of(objects: list[models.Model], league: League, *, index: dict[int, int] | None = None,
              season: Season | None = None) -> list[dict[str, Any]]:
    """The audit entries (outside any event) that name one of these objects, oldest first.
    Entries of a matchday's event belong to that event's archive."""
    refs: dict[tuple[int, str], Any] = {}
    query = Q(pk__in=[])
    for obj in objects:
        ct = ContentType.objects.get_for_model(obj, for_concrete_model=False)
        refs[(ct.pk, str(obj.pk))] = _ref_of(obj, index or {}, league, season)
        query |= Q(content_type=ct, object_id=str(obj.pk))
    entries = (AuditEntry.objects.filter(query, event__isnull=True)
               .exclude(action__in=LOCAL_ACTIONS).select_related("actor", "content_type"))
    return [audit_out(e, refs.get((e.content_type_id, e.object_id)), None)
            for e in sorted(entries, key=lambda e: (e.created_at, e.pk))]


def _ref_of(obj: models.Model, index: dict[int, int], league: League,
            season: Season | None) -> dict[str, Any]:
    if isinstance(obj, League):
        return {"slug": obj.slug}
    if isinstance(obj, Season):
        return {"slug": obj.slug}
    if isinstance(obj, Division):
        return {"level": obj.level}
    if isinstance(obj, SeasonMembership):
        return {"player": index[obj.player_id]}
    return {"matchday": obj.number}


# ---------------------------------------------------------------------------------------
# Checking
# ---------------------------------------------------------------------------------------

LEAGUE_KEYS = (*LEAGUE_FIELDS, "organisers", "audit")
LEAGUE_ADDED = ("language",)  # keys a later version added: an older archive may lack them
SEASON_KEYS = (*SEASON_FIELDS, "previous", "players", "schedule", "formation", "divisions",
               "matchdays", "audit")


def _check_doc(doc: Any) -> tuple[Checker, ImportContext, dict | None]:
    checker = Checker()
    ctx = ImportContext()
    doc = check_header(doc, "season", checker, ("league", "season"))
    if doc is None or "league" not in doc or "season" not in doc:
        return checker, ctx, None
    before = len(checker.errors)
    plan: dict[str, Any] = {"league": _check_league(doc["league"], "league", checker, ctx)}
    league_slug = doc["league"].get("slug") if isinstance(doc["league"], dict) else None
    plan["season"] = _check_season(doc["season"], "season", checker, ctx, league_slug)
    if len(checker.errors) != before or plan["league"] is None or plan["season"] is None:
        return checker, ctx, None
    events = [md["event"] for md in plan["season"]["matchdays"]]
    # Season members and the matchdays' registrations are one set of people: match them
    # together (the season's own list first, in its order, so new players get their ids in it).
    season_players = plan["season"]["player_entries"]
    resolve_players(checker, ctx, [{"registrations": season_players}, *events])
    return checker, ctx, plan


def _check_league(body: Any, path: str, checker: Checker, ctx: ImportContext) -> dict | None:
    before = len(checker.errors)
    # `language` came with issue #33: an older archive's league takes the default.
    body = checker.obj(body, path, LEAGUE_KEYS, optional=LEAGUE_ADDED)
    if body is None:
        return None
    fields = checker.fields(League, LEAGUE_FIELDS, body, path, optional=LEAGUE_ADDED)
    if fields is not None:
        for name, messages in ruleset_config_errors(fields["ruleset_code"], fields["ruleset_mode"],
                                                    fields["ruleset_options"]).items():
            for message in messages:
                checker.add(f"{path}.{name}", "invalid_ruleset", message)
        checker.check_constraints(League(**fields), path)
    organisers = []
    for i, name in enumerate(checker.items(body.get("organisers", []), f"{path}.organisers")):
        cleaned = checker.username(name, f"{path}.organisers[{i}]", nullable=False)
        if cleaned:
            organisers.append(cleaned)
            ctx.usernames.add(cleaned)
    slug = body.get("slug")

    def check_ref(type_label: str, ref: Any, p: str) -> Any:
        if type_label != "leagues.league":
            checker.add(p, "unknown_ref", _("a league's trail names only the league, not %(type)s") % {
                "type": repr(type_label)})
            return None
        ref = checker.obj(ref, p, ("slug",))
        if ref is not None and ref.get("slug") != slug:
            checker.add(f"{p}.slug", "unknown_league", _("names another league than this one"))
            return None
        return ref

    audit = check_audit_list(body.get("audit", []), f"{path}.audit", checker, ctx, check_ref, None)
    if len(checker.errors) != before:
        return None
    return {"fields": fields, "organisers": organisers, "audit": audit}


def _check_season(body: Any, path: str, checker: Checker, ctx: ImportContext,
                  league_slug: Any) -> dict | None:
    """The plan of a season's body, or None when it has problems (every one of them is in
    `checker`, in the order of the file): its fields, the season before it, its players, the
    schedule and formation that name them by index, the divisions and their members, the
    matchdays with their events, and the season's trail."""
    before = len(checker.errors)
    body = checker.obj(body, path, SEASON_KEYS)
    if body is None:
        return None
    fields = _check_season_fields(body, path, checker, league_slug)
    previous = _check_previous(body.get("previous"), f"{path}.previous", checker)
    players = _check_season_players(body, path, checker, ctx)
    check_index = _player_index_check(checker, f"{path}.players", len(players))
    _check_schedule_and_formation(body, path, checker, check_index)
    divisions, levels, members_seen = _check_divisions(body, path, checker, check_index)
    matchdays, numbers = _check_matchdays(body, path, checker, ctx)
    check_ref = _season_ref_check(checker, body.get("slug"), levels, members_seen, numbers)
    audit = check_audit_list(body.get("audit", []), f"{path}.audit", checker, ctx, check_ref, None)
    if len(checker.errors) != before:
        return None
    return {"fields": fields, "previous": previous, "players": players,
            "player_entries": [p for p in players if p is not None],
            "schedule": body["schedule"], "formation": body["formation"],
            "divisions": divisions, "matchdays": matchdays, "audit": audit}


def _check_season_fields(body: dict, path: str, checker: Checker, league_slug: Any) -> dict | None:
    """The season's own fields: it ends after it starts, and its league (when this database
    has it) has no season of that slug yet."""
    fields = checker.fields(Season, SEASON_FIELDS, body, path)
    league = League.objects.filter(slug=league_slug).first() if isinstance(league_slug, str) else None
    if fields is not None:
        if fields["starts_on"] and fields["ends_on"] and fields["ends_on"] < fields["starts_on"]:
            checker.add(f"{path}.ends_on", "invalid", _("the season ends before it starts"))
        if league is not None and league.seasons.filter(slug=fields["slug"]).exists():
            checker.add(f"{path}.slug", "season_exists",
                        _("league %(league)s already has a season %(season)s in this database; "
                          "delete or rename it first, or import into another database") % {
                            "league": repr(league.slug), "season": repr(fields["slug"])})
    return fields


def _check_season_players(body: dict, path: str, checker: Checker,
                          ctx: ImportContext) -> list[dict | None]:
    """The season's players, one entry per index (None for an invalid one, so the indexes
    that name the others still hold). Namesakes are told apart by their occurrence."""
    players: list[dict | None] = []
    occurrences: dict[tuple, int] = {}
    for i, data in enumerate(checker.items(body.get("players", []), f"{path}.players")):
        p = f"{path}.players[{i}]"
        player = check_player(checker, data, p, ctx.usernames)
        if player is None:
            players.append(None)
            continue
        key = (player[0]["first_name"], player[0]["last_name"], player[0]["club"])
        occurrences[key] = occurrences.get(key, 0) + 1
        players.append({"player": player, "occurrence": occurrences[key] - 1, "path": p})
    return players


def _player_index_check(checker: Checker, players_path: str, count: int) -> Callable[..., bool]:
    """`check_index(value, path, nullable=False)`: whether `value` is the index of one of the
    `count` players of `players_path`, reporting it at `path` when not."""
    def check_index(value: Any, p: str, *, nullable: bool = False) -> bool:
        if value is None and nullable:
            return True
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < count:
            checker.add(p, "unknown_player",
                        _("must be the index of an entry of %(list)s (0 to %(last)s), got "
                          "%(value)s") % {"list": players_path, "last": count - 1,
                                          "value": repr(value)})
            return False
        return True

    return check_index


def _check_schedule_and_formation(body: dict, path: str, checker: Checker,
                                  check_index: Callable[..., bool]) -> None:
    """The schedule and the formation are objects whose players are indexes; they may name a
    player the database no longer has (null)."""
    for where, data in (("schedule", body.get("schedule")), ("formation", body.get("formation"))):
        if not isinstance(data, dict):
            checker.add(f"{path}.{where}", "not_an_object", _("must be an object"))
    try:
        map_schedule(body.get("schedule"),
                     lambda v: check_index(v, f"{path}.schedule", nullable=True))
        map_formation(body.get("formation"),
                      lambda v: check_index(v, f"{path}.formation", nullable=True))
    except TypeError:
        checker.add(f"{path}.schedule", "invalid_schedule",
                    _("a division's rounds must be lists of tables, each a list of players"))


def _check_divisions(body: dict, path: str, checker: Checker, check_index: Callable[..., bool]
                     ) -> tuple[list[dict], set[int], set[int]]:
    """The divisions' plans, their levels and the players who are members: levels begin at 1
    and are given once, a season has one qualification group, a player is a member once."""
    divisions = []
    levels: set[int] = set()
    members_seen: set[int] = set()
    qualification = 0
    for i, division in enumerate(checker.items(body.get("divisions", []), f"{path}.divisions")):
        p = f"{path}.divisions[{i}]"
        division = checker.obj(division, p, (*DIVISION_FIELDS, "members"))
        if division is None:
            continue
        dfields = checker.fields(Division, DIVISION_FIELDS, division, p)
        if dfields is not None:
            if dfields["level"] < 1 or dfields["level"] in levels:
                checker.add(f"{p}.level", "invalid_level",
                            _("levels begin at 1 and are given once, got %(level)s") % {
                                "level": dfields["level"]})
            levels.add(dfields["level"])
            qualification += dfields["is_qualification"]
        members = _check_members(division, p, checker, check_index, members_seen)
        divisions.append({"fields": dfields, "members": members})
    if qualification > 1:
        checker.add(f"{path}.divisions", "two_qualification_groups",
                    _("a season has one qualification group"))
    return divisions, levels, members_seen


def _check_members(division: dict, path: str, checker: Checker, check_index: Callable[..., bool],
                   members_seen: set[int]) -> list[dict]:
    """One division's members: each names a player of the season not yet a member (added to
    `members_seen`), on a seed position from 1 given once in the division."""
    members = []
    positions: set[int] = set()
    for j, member in enumerate(checker.items(division.get("members", []), f"{path}.members")):
        mp = f"{path}.members[{j}]"
        member = checker.obj(member, mp, (*MEMBERSHIP_FIELDS, "player"))
        if member is None:
            continue
        mfields = checker.fields(SeasonMembership, MEMBERSHIP_FIELDS, member, mp)
        if check_index(member.get("player"), f"{mp}.player"):
            if member["player"] in members_seen:
                checker.add(f"{mp}.player", "duplicate",
                            _("the player is a member twice in this season"))
            members_seen.add(member["player"])
        if mfields is not None:
            if mfields["seed_position"] < 1 or mfields["seed_position"] in positions:
                checker.add(f"{mp}.seed_position", "invalid_position",
                            _("seed positions begin at 1 and are given once per division, "
                              "got %(position)s") % {"position": mfields["seed_position"]})
            positions.add(mfields["seed_position"])
        members.append({"fields": mfields, "player": member.get("player")})
    return members


def _check_matchdays(body: dict, path: str, checker: Checker, ctx: ImportContext
                     ) -> tuple[list[dict], set[int]]:
    """The matchdays' plans (each with its embedded event checked as an event archive) and
    their numbers, which begin at 1 and are given once."""
    matchdays = []
    numbers: set[int] = set()
    for i, md in enumerate(checker.items(body.get("matchdays", []), f"{path}.matchdays")):
        p = f"{path}.matchdays[{i}]"
        md = checker.obj(md, p, (*MATCHDAY_FIELDS, "event"))
        if md is None:
            continue
        mfields = checker.fields(Matchday, MATCHDAY_FIELDS, md, p)
        if mfields is not None:
            if mfields["number"] < 1 or mfields["number"] in numbers:
                checker.add(f"{p}.number", "invalid_number",
                            _("matchday numbers begin at 1 and are given once, got %(number)s") % {
                                "number": mfields["number"]})
            numbers.add(mfields["number"])
        event = check_event_body(md.get("event"), f"{p}.event", checker, ctx)
        matchdays.append({"fields": mfields, "event": event})
    return matchdays, numbers


def _season_ref_check(checker: Checker, slug: Any, levels_known: set[int], members_seen: set[int],
                      md_known: set[int]) -> Callable[[str, Any, str], Any]:
    """`check_ref` of the season's trail: an entry names this season, one of its divisions,
    members or matchdays by its natural key; the league is named by null here."""
    def check_ref(type_label: str, ref: Any, p: str) -> Any:
        keys = TARGET_KEYS.get(type_label)
        if keys is None or type_label == "leagues.league":
            checker.add(p, "unknown_ref", _("objects of type %(type)s are named by null here") % {
                "type": repr(type_label)})
            return None
        ref = checker.obj(ref, p, keys)
        if ref is None:
            return None
        ok = {"leagues.season": lambda: ref["slug"] == slug,
              "leagues.division": lambda: ref["level"] in levels_known,
              "leagues.seasonmembership": lambda: ref["player"] in members_seen,
              "leagues.matchday": lambda: ref["matchday"] in md_known}[type_label]()
        if not ok:
            checker.add(p, "unknown_ref", _("names nothing of this season: %(ref)s") % {"ref": repr(ref)})
            return None
        return ref

    return check_ref


def _check_previous(ref: Any, path: str, checker: Checker) -> Season | None:
    """The season before this one, linked when the database has it (import seasons oldest
    first); a previous season that already has its next one is a conflict."""
    if ref is None:
        return None
    ref = checker.obj(ref, path, ("league", "season"))
    if ref is None:
        return None
    previous = (Season.objects.filter(league__slug=ref.get("league"), slug=ref.get("season"))
                .select_related("next_season").first())
    if previous is not None and hasattr(previous, "next_season"):
        checker.add(path, "previous_taken",
                    _("season %(season)s of %(league)s already has its next season %(next)s") % {
                        "season": repr(ref.get("season")), "league": repr(ref.get("league")),
                        "next": repr(previous.next_season.slug)})
        return None
    return previous


# ---------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------

def validate_season(doc: Any) -> list[dict[str, Any]]:
    """Every problem of a season archive (empty when it can be imported); writes nothing."""
    return collector.run_paused(_check_doc, doc)[0].errors


def import_season(doc: Any, actor: Any) -> Season:
    """Import a season archive in one transaction (the league too when this database has none
    of that slug), or refuse it with every problem listed and write nothing. Checked and
    written with the collector paused, as an event's archive is."""
    return collector.run_paused(_import_season, doc, actor)


def _import_season(doc: Any, actor: Any) -> Season:
    checker, ctx, plan = _check_doc(doc)
    if checker.errors or plan is None:
        raise ServiceError(checker.errors or [{"hand": None, "field": "archive", "code": "invalid",
                                               "message": _("the archive cannot be read")}])
    with atomic_import():
        users = ensure_users(ctx.usernames)
        season = _write(plan, ctx, users)
        events = [md.event for md in season.matchdays.select_related("event")]
        refuse_if_rescored_differently(events)
        for event in events:
            record_import(event, actor, doc)
        audit.record(actor=actor, action=IMPORT_ACTION, target=season,
                     after={"format": doc.get("format"), "version": doc.get("version"),
                            "kind": doc.get("kind"), "exported_with": doc.get("exported_with")})
    return season


def _write(plan: dict, ctx: ImportContext, users: dict[str, Any]) -> Season:
    lplan = plan["league"]
    league = League.objects.filter(slug=lplan["fields"]["slug"]).first()
    if league is None:
        # A league new to this database comes with its own trail; an existing one is left as
        # it is (its trail is already here).
        league = League.objects.create(**lplan["fields"])
        league.organisers.set([users[u] for u in lplan["organisers"]])
        write_audit(lplan["audit"], event=None, users=users,
                       find_target=lambda type_label, ref: league, tables={})

    splan = plan["season"]
    players = [ctx.resolver.materialise(p["resolved"], users) if p is not None else None
               for p in splan["players"]]

    def pk_of(index: Any) -> int | None:
        return players[index].pk if isinstance(index, int) and players[index] is not None else None

    season = Season.objects.create(
        league=league, previous=splan["previous"], **splan["fields"],
        # The schedule names players as text (what the seating engine takes), the formation
        # as numbers: each gets its players' new ids in the type it had.
        schedule=map_schedule(splan["schedule"], lambda i: None if pk_of(i) is None else str(pk_of(i))),
        formation=map_formation(splan["formation"], pk_of),
    )
    divisions: dict[int, Division] = {}
    memberships: dict[int, SeasonMembership] = {}
    for dplan in splan["divisions"]:
        division = Division.objects.create(season=season, **dplan["fields"])
        divisions[division.level] = division
        for m in dplan["members"]:
            memberships[m["player"]] = SeasonMembership.objects.create(
                season=season, division=division, player=players[m["player"]], **m["fields"])
    matchdays: dict[int, Matchday] = {}
    for mplan in splan["matchdays"]:
        event = write_event_body(mplan["event"], ctx, users)
        matchdays[mplan["fields"]["number"]] = Matchday.objects.create(
            season=season, event=event, **mplan["fields"])

    def find(type_label: str, ref: dict[str, Any]) -> models.Model | None:
        return {
            "leagues.season": lambda: season,
            "leagues.division": lambda: divisions.get(ref["level"]),
            "leagues.seasonmembership": lambda: memberships.get(ref["player"]),
            "leagues.matchday": lambda: matchdays.get(ref["matchday"]),
        }[type_label]()

    write_audit(splan["audit"], event=None, users=users, find_target=find, tables={})
    return season


# ---------------------------------------------------------------------------------------
# Backups
# ---------------------------------------------------------------------------------------

def _in_import_order(seasons: Iterable[Season]) -> Iterator[Season]:
    """Seasons with each one's previous season before it, so that importing in this order
    links every season to the one before."""
    seasons = sorted(seasons, key=lambda s: (s.league.slug, s.starts_on is None, s.starts_on, s.slug))
    by_pk = {s.pk: s for s in seasons}
    done: set[int] = set()

    def visit(season: Season) -> Iterator[Season]:
        if season.pk in done:
            return
        done.add(season.pk)
        if season.previous_id in by_pk:
            yield from visit(by_pk[season.previous_id])
        yield season

    for season in seasons:
        yield from visit(season)


def backup_documents() -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """(relative path, kind, name, document) of every season, for `manage.py backup_archives`."""
    for season in _in_import_order(Season.objects.select_related("league")):
        yield (f"seasons/{season.league.slug}/{season.slug}.json", "season",
               f"{season.league.slug}/{season.slug}", export_season(season))


def events_in_backup_documents() -> set[int]:
    """Ids of the events a season archive already holds (its matchdays)."""
    return set(Matchday.objects.values_list("event_id", flat=True))


def season_by_slugs(league_slug: str, season_slug: str) -> Season | None:
    return (Season.objects.select_related("league", "previous__league")
            .filter(league__slug=league_slug, slug=season_slug).first())

