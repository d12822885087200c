"""Writes of players and events: a player in the registry, an event created or changed (its
ruleset, mode and options checked against the registry), and the event's status following
its rounds."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.domain import limits, rights, standings
from tournaments.domain.rulesets import (
    effective_mode,
    is_money_ruleset,
    ruleset_config_errors,
    table_size_error,
)
from tournaments.domain.seating_options import seating_option_errors
from tournaments.errors import CONSTRAINT_MESSAGES, Forbidden, ServiceError
from tournaments.models import (
    Event,
    Player,
    Scorecard,
)
from tournaments.services import audit
from tournaments.services.scorecards import refresh_carried_totals
from tournaments.services.validation import field_errors, full_clean, jsonable

EVENT_FIELDS = {
    "name", "slug", "venue", "starts_on", "ends_on", "time_zone", "language", "ruleset_code",
    "ruleset_mode", "ruleset_options", "seating_system", "seating_options", "planned_rounds",
    "hands_per_round", "round_duration_minutes", "table_size", "min_table_size", "stake_haler",
    "status", "is_public", "card_confirmation", "one_phone_per_table", "seating_pool", "rated",
    "round_messages", "correction_messages", "online_entry", "entry_deadline", "entry_cap",
    "entry_approval", "entry_federation_id", "entry_messages", "players_may_withdraw",
}


def _new_player(first_name: str, last_name: str, club: str = "", country: str = "",
                federation_id: str = "", user: Any = None, actor: Any = None) -> Player:
    return Player(first_name=first_name.strip(), last_name=last_name.strip(), club=club.strip(),
                  country=country.strip().upper(), federation_id=federation_id.strip(), user=user,
                  created_by=actor if rights.is_signed_in(actor) else None)


def _player_created(player: Player) -> dict[str, Any]:
    # Who entered a player into the registry is on record, like every other write.
    return {"name": str(player), "club": player.club, "federation_id": player.federation_id}


def save_player(player: Player) -> None:
    """Save a checked player; a federation id another request took between the check and the
    write is refused at its field, as the check refuses it."""
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        where, message = CONSTRAINT_MESSAGES["player_federation_id_unique"]
        raise ServiceError(str(message), field=where, code="player_federation_id_unique") from None


@transaction.atomic
def player_create(*, first_name: str, last_name: str, club: str = "", country: str = "",
                  federation_id: str = "", user: Any = None, actor: Any = None) -> Player:
    if not rights.can_manage_players(actor):
        raise Forbidden(_("only event organisers may add players to the registry"),
                        code="not_organiser")
    player = _new_player(first_name, last_name, club, country, federation_id, user, actor)
    # Who entered him is the actor himself, no input to check (and a query per player).
    full_clean(player, exclude=["created_by"])
    save_player(player)
    audit.record(actor=actor, action="player.create", target=player, after=_player_created(player))
    return player


@transaction.atomic
def player_create_for(*, event: Event, actor: Any, first_name: str, last_name: str,
                      club: str = "", country: str = "", federation_id: str = "") -> Player:
    """A new player of the registry for an online entry of `event` that takes a place
    (tournaments.services.entries, where the event's settings are the right): checked and
    audited as `player_create`'s, and entered, for the registry's owners, by the event's first
    organiser when no organiser's hand approved him."""
    owner = actor if rights.is_organiser(actor, event) else event.organisers.order_by("pk").first()
    player = _new_player(first_name, last_name, club, country, federation_id, None, owner)
    full_clean(player, exclude=["created_by"])
    save_player(player)
    audit.record(actor=actor, action="player.create", target=player, after=_player_created(player))
    return player


@transaction.atomic
def player_career_hide(*, player: Player, hidden: bool, actor: Any) -> Player:
    """Hide a player's career page from visitors, or show it again (issue #19, privacy)."""
    if not rights.can_hide_career(actor, player):
        raise Forbidden(_("only the player himself or an organiser may hide his career page"),
                        code="not_allowed")
    if not isinstance(hidden, bool):
        raise ServiceError(_("say whether the career page is hidden"), field="hidden",
                           code="invalid")
    if player.career_hidden != hidden:
        before = player.career_hidden
        player.career_hidden = hidden
        player.save(update_fields=["career_hidden", "updated_at"])
        audit.record(actor=actor, action="player.career", target=player,
                     before={"career_hidden": before}, after={"career_hidden": hidden})
    return player


@transaction.atomic
def players_create_many(*, players: list[dict[str, Any]], actor: Any = None) -> list[Player]:
    """`player_create` for many players at once (an archive's new players), in a constant
    number of queries: each is validated as `player_create` validates him, the database
    constraints included (checked over the whole list, not one query per player), then all
    are inserted and audited together. All or none."""
    if not rights.can_manage_players(actor):
        raise Forbidden(_("only event organisers may add players to the registry"),
                        code="not_organiser")
    new = [_new_player(**values, actor=actor) for values in players]
    errors: list[dict[str, Any]] = []
    for i, player in enumerate(new):
        try:
            full_clean(player, exclude=["created_by"], validate_constraints=False)
        except ServiceError as exc:
            errors.extend({**e, "field": f"players[{i}].{e.get('field') or 'player'}"}
                          for e in exc.errors)
    errors.extend(_constraint_errors(new))
    if errors:
        raise ServiceError(errors)
    for player in new:
        player.fill_search_columns()  # what Player.save() does, which a bulk insert skips
    created = Player.objects.bulk_create(new, batch_size=500)
    if any(p.pk is None for p in created):  # pragma: no cover - PostgreSQL and SQLite return keys
        raise ServiceError(_("the database returned no keys for the new players"), code="no_keys_returned")
    audit.record_many(actor=actor, action="player.create",
                      changes=[(p, _player_created(p)) for p in created])
    return created


def _constraint_errors(new: list[Player]) -> list[dict[str, Any]]:
    """Player's Meta constraints over a list of unsaved players: a federation id used twice
    (among them or by a stored player) and a player without a name."""
    errors = []
    ids = [p.federation_id for p in new if p.federation_id]
    taken = set(Player.objects.filter(federation_id__in=ids).values_list("federation_id", flat=True))
    seen: set[str] = set()
    for i, player in enumerate(new):
        if not player.first_name and not player.last_name:
            errors.append({"hand": None, "field": f"players[{i}].last_name", "code": "required",
                           "message": _("a player needs a first or a last name")})
        fid = player.federation_id
        if fid and (fid in taken or fid in seen):
            errors.append({"hand": None, "field": f"players[{i}].federation_id", "code": "unique",
                           "message": _("federation id %(id)s belongs to another player") % {
                               "id": fid}})
        seen.add(fid)
    return errors


@transaction.atomic
def event_create(*, actor: Any, organisers: list[Any] | None = None, **fields: Any) -> Event:
    if not rights.can_create_events(actor):
        raise Forbidden(_("you may not create events"), code="not_allowed")
    unknown = set(fields) - EVENT_FIELDS
    if unknown:
        raise ServiceError(_("unknown event fields: %(f)s") % {"f": ", ".join(sorted(unknown))},
                           code="unknown_fields")
    event = Event(**fields)
    event.ruleset_mode = effective_mode(event.ruleset_code, event.ruleset_mode)
    _check_event(event)
    event.save()
    for user in organisers or ([actor] if getattr(actor, "is_authenticated", False) else []):
        event.organisers.add(user)
    audit.record(actor=actor, action="event.create", target=event, event=event,
                 after={"name": event.name, "ruleset": event.ruleset_code})
    return event


@transaction.atomic
def event_update(*, event: Event, actor: Any, **fields: Any) -> Event:
    rights.require_organiser(actor, event)
    unknown = set(fields) - EVENT_FIELDS
    if unknown:
        raise ServiceError(_("unknown event fields: %(f)s") % {"f": ", ".join(sorted(unknown))},
                           code="unknown_fields")
    # The row as it is now, locked: save() writes every column, and the caller's copy may hold
    # a status or a results version that moved since it was read (a round closing and
    # finishing the event, a hand confirmed). Written back, they undid that change, and an
    # older results version served pages cached before it.
    event.refresh_from_db(from_queryset=Event.objects.select_for_update(no_key=True))
    rules_fields = {"ruleset_code", "ruleset_mode", "ruleset_options"} & set(fields)
    if rules_fields and Scorecard.objects.filter(table__round__event=event).exists():
        raise ServiceError(_("the ruleset cannot change once scorecards exist"),
                           field=sorted(rules_fields)[0], code="ruleset_locked")
    before = {k: jsonable(getattr(event, k)) for k in fields}
    for k, v in fields.items():
        setattr(event, k, v)
    event.ruleset_mode = effective_mode(event.ruleset_code, event.ruleset_mode)
    _check_event(event)
    event.save()
    after = {k: jsonable(getattr(event, k)) for k in fields}
    audit.record(actor=actor, action="event.update", target=event, event=event, before=before,
                 after=after)
    if any(before[k] != after[k] for k in standings.COUNTED_BY & set(fields)):
        # What the closed rounds' cards give changed with how they are counted: the carried
        # totals follow at once, as the next round's seating reads them.
        refresh_carried_totals(event, actor=actor)
    if "entry_cap" in fields:
        # A larger cap (or none) gives its new places to the waiting list; entries builds on
        # this module's players.
        from tournaments.services import entries
        entries.waiting_list_move_up(event=event, actor=actor)
    return event


def _check_event(event: Event) -> None:
    problems = ruleset_config_errors(event.ruleset_code, event.ruleset_mode, event.ruleset_options)
    errors = [{"hand": None, "field": f, "code": "invalid_ruleset", "message": m}
              for f, ms in problems.items() for m in ms]
    seats = table_size_error(event.ruleset_code, event.ruleset_mode, event.table_size)
    if seats:
        errors.append({"hand": None, "field": "table_size", "code": "table_size_not_in_mode",
                       "message": seats})
    if is_money_ruleset(event.ruleset_code) and not event.stake_haler:
        errors.append({"hand": None, "field": "stake_haler", "code": "required",
                       "message": _("a money ruleset needs the stake per player")})
    errors.extend(seating_option_errors(event.seating_system, event.seating_options))
    if event.min_table_size == 1 and event.seating_system != "points":
        errors.append({"hand": None, "field": "min_table_size", "code": "lone_player_points_only",
                       "message": _("a table of one player is for the points system only (Tarok.net "
                                    "rules §4.1 b); the smallest table of other systems seats at "
                                    "least 2")})
    errors.extend(limits.json_problems(event.ruleset_options, "ruleset_options"))
    try:
        event.full_clean(exclude=["organisers", "referees"])
    except ValidationError as exc:
        errors.extend(e for e in field_errors(exc) if not e["field"].startswith("ruleset"))
    if errors:
        raise ServiceError(errors)


def event_status_follow(event: Event, status: str | None, *, actor: Any) -> None:
    """Move the event to the status its rounds imply (lifecycle.status_after_*), audited.
    An organiser's own choice in the event form stands until the next publish or close."""
    if status is None or status == event.status:
        return
    before = event.status
    event.updated_at = timezone.now()
    Event.objects.filter(pk=event.pk).update(status=status, updated_at=event.updated_at)
    event.status = status
    audit.record(actor=actor, action="event.status", target=event, event=event,
                 before={"status": before}, after={"status": status})
