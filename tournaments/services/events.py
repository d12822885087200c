"""Writes of players and events: a player in the registry, an event created or changed (its
ruleset, mode and options checked against the registry), and the event's status following
its rounds."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import audit, limits, rights
from tournaments.errors import Forbidden, ServiceError
from tournaments.models import (
    Event,
    Player,
    Scorecard,
)
from tournaments.rulesets import effective_mode, is_money_ruleset, ruleset_config_errors
from tournaments.seating_options import seating_option_errors
from tournaments.services.validation import field_errors, full_clean, jsonable

EVENT_FIELDS = {
    "name", "slug", "venue", "starts_on", "ends_on", "time_zone", "language", "ruleset_code",
    "ruleset_mode", "ruleset_options", "seating_system", "seating_options", "planned_rounds",
    "hands_per_round", "round_duration_minutes", "table_size", "min_table_size", "stake_haler",
    "status", "is_public", "card_confirmation", "seating_pool", "rated",
}


@transaction.atomic
def player_create(*, first_name: str, last_name: str, club: str = "", country: str = "",
                  federation_id: str = "", user: Any = None, actor: Any = None) -> Player:
    if not rights.can_manage_players(actor):
        raise Forbidden(_("only event organisers may add players to the registry"),
                        code="not_organiser")
    player = Player(first_name=first_name.strip(), last_name=last_name.strip(), club=club.strip(),
                    country=country.strip().upper(), federation_id=federation_id.strip(), user=user)
    full_clean(player)
    player.save()
    # Who entered a player into the registry is on record, like every other write.
    audit.record(actor=actor, action="player.create", target=player,
                 after={"name": str(player), "club": player.club,
                        "federation_id": player.federation_id})
    return player


@transaction.atomic
def event_create(*, actor: Any, organisers: list[Any] | None = None, **fields: Any) -> Event:
    if not rights.can_create_events(actor):
        raise Forbidden(_("you may not create events"), code="not_allowed")
    unknown = set(fields) - EVENT_FIELDS
    if unknown:
        raise ServiceError(f"unknown event fields: {', '.join(sorted(unknown))}")
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
        raise ServiceError(f"unknown event fields: {', '.join(sorted(unknown))}")
    rules_fields = {"ruleset_code", "ruleset_mode", "ruleset_options"} & set(fields)
    if rules_fields and Scorecard.objects.filter(table__round__event=event).exists():
        raise ServiceError("the ruleset cannot change once scorecards exist",
                           field=sorted(rules_fields)[0], code="ruleset_locked")
    before = {k: jsonable(getattr(event, k)) for k in fields}
    for k, v in fields.items():
        setattr(event, k, v)
    event.ruleset_mode = effective_mode(event.ruleset_code, event.ruleset_mode)
    _check_event(event)
    event.save()
    audit.record(actor=actor, action="event.update", target=event, event=event, before=before,
                 after={k: jsonable(getattr(event, k)) for k in fields})
    return event


def _check_event(event: Event) -> None:
    problems = ruleset_config_errors(event.ruleset_code, event.ruleset_mode, event.ruleset_options)
    errors = [{"hand": None, "field": f, "code": "invalid_ruleset", "message": m}
              for f, ms in problems.items() for m in ms]
    if is_money_ruleset(event.ruleset_code) and not event.stake_haler:
        errors.append({"hand": None, "field": "stake_haler", "code": "required",
                       "message": "a money ruleset needs the stake per player"})
    errors.extend(seating_option_errors(event.seating_system, event.seating_options))
    if event.min_table_size == 1 and event.seating_system != "points":
        errors.append({"hand": None, "field": "min_table_size", "code": "lone_player_points_only",
                       "message": _("a table of one player is for the points system only (seed "
                                    "000 §4.1 b); the smallest table of other systems seats at "
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
