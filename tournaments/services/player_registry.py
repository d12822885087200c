"""Writes of the player registry beyond adding a player: correcting a record, merging two
records of one person, and naming the registry's managers. Who may do each is
`tournaments.domain.rights` ("The player registry"): the registry's managers every record, an
organiser only records that play in no event but his own. Every change is audited with who
and why.

A person entered twice (a typo, diacritics left out, an import before the registry knew him)
has his history split between two records. Merging moves everything of the duplicate to the
record that is kept: his registrations (and with them his rounds, scores and cup results,
which follow from registrations), what other apps keep of him (league memberships and the
season schedules naming him, through `tournaments.hooks.PlayerRecords`), his account, and the
club, country and federation id the kept record lacks; then the duplicate is deleted. It is
refused, naming why, when the two records cannot be one person's: both registered in one
event or one season, linked to two accounts, or holding two federation ids. One transaction,
audited: the merge itself, and each moved registration in its event's trail.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Permission
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import hooks
from tournaments.domain import rights
from tournaments.errors import NotFound, ServiceError
from tournaments.models import Event, Player
from tournaments.services import audit
from tournaments.services.events import save_player
from tournaments.services.validation import full_clean, refuse_bad_text

# The fields the kept record takes over from the duplicate when it has none of its own.
FILLED_FIELDS = ("club", "country", "federation_id")


def _error(field: str, code: str, message: str) -> dict[str, Any]:
    return {"hand": None, "field": field, "code": code, "message": message}


def _record(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": str(player), "club": player.club, "country": player.country,
            "federation_id": player.federation_id,
            "user": player.user.get_username() if player.user_id else None}


def merge_problems(keep: Player, duplicate: Player) -> list[dict[str, Any]]:
    """Why these two records cannot be merged (empty: they can), as contract errors."""
    if keep.pk == duplicate.pk:
        return [_error("duplicate", "same_player", _("a player cannot be merged with himself"))]
    errors = []
    shared = list(Event.objects.filter(registrations__player=keep)
                  .filter(registrations__player=duplicate).order_by("starts_on", "name"))
    if shared:
        errors.append(_error("duplicate", "same_event", _(
            "both players are registered in %(events)s, each with his own results there; "
            "they cannot become one player") % {"events": ", ".join(e.name for e in shared)}))
    for records in hooks.player_records():
        errors.extend(records.conflicts(keep, duplicate))
    if keep.user_id and duplicate.user_id and keep.user_id != duplicate.user_id:
        errors.append(_error("user", "both_linked", _(
            "both players are linked to an account (%(first)s and %(second)s); a player has "
            "one account") % {"first": keep.user.get_username(),
                              "second": duplicate.user.get_username()}))
    if keep.federation_id and duplicate.federation_id and keep.federation_id != duplicate.federation_id:
        errors.append(_error("federation_id", "federation_id_mismatch", _(
            "the players have different federation ids (%(first)s and %(second)s): they look "
            "like two people") % {"first": keep.federation_id, "second": duplicate.federation_id}))
    return errors


@transaction.atomic
def player_merge(*, keep: Player, duplicate: Player, actor: Any, reason: str = "") -> Player:
    """Merge `duplicate` into `keep` (see the module's docstring); answers the kept player.
    Both records must be the actor's to correct; the reason is kept in the audit trail."""
    rights.require_edit_player(actor, keep, field="player")
    rights.require_edit_player(actor, duplicate, field="duplicate")
    refuse_bad_text({"reason": reason}, multiline=("reason",))
    # The events of the duplicate's registrations before the players and the registrations,
    # in the order every writer of a registration takes them (audit.lock_event): a merge that
    # held a registration and then wanted its event's row deadlocked with a close there.
    for event in Event.objects.filter(registrations__player=duplicate).distinct().order_by("pk"):
        audit.lock_event(event)
    locked = {p.pk: p for p in Player.objects.select_for_update(of=("self",)).select_related("user")
              .filter(pk__in=[keep.pk, duplicate.pk]).order_by("pk")}
    if keep.pk not in locked:
        raise NotFound(_("there is no player %(id)s") % {"id": keep.pk}, field="player",
                       code="not_found")
    if duplicate.pk not in locked:
        raise NotFound(_("there is no player %(id)s") % {"id": duplicate.pk}, field="duplicate",
                       code="not_found")
    keep, duplicate = locked[keep.pk], locked[duplicate.pk]
    errors = merge_problems(keep, duplicate)
    if errors:
        raise ServiceError(errors)
    before = {"kept": _record(keep), "duplicate": _record(duplicate)}
    moved_events = []
    for reg in duplicate.registrations.select_related("event").order_by("event__starts_on", "pk"):
        reg.player = keep
        reg.save(update_fields=["player"])
        moved_events.append(reg.event.slug)
        audit.record(actor=actor, action="registration.merge", target=reg, event=reg.event,
                     before={"player": duplicate.pk, "name": str(duplicate)},
                     after={"player": keep.pk, "name": str(keep)})
    moved = {records.name: records.move(keep, duplicate, actor) for records in hooks.player_records()}
    # One account per player and one owner per federation id: the duplicate lets go of
    # them before the kept record takes them.
    taken = {f: getattr(duplicate, f) for f in FILLED_FIELDS
             if getattr(duplicate, f) and not getattr(keep, f)}
    user = duplicate.user if duplicate.user_id and not keep.user_id else None
    if user is not None or "federation_id" in taken:
        duplicate.user = None if user is not None else duplicate.user
        duplicate.federation_id = "" if "federation_id" in taken else duplicate.federation_id
        duplicate.save(update_fields=["user", "federation_id"])
    for field, value in taken.items():
        setattr(keep, field, value)
    if user is not None:
        keep.user = user
    keep.save()
    duplicate.delete()
    audit.record(actor=actor, action="player.merge", target=keep, before=before,
                 after={"kept": _record(keep), "events": moved_events, **moved},
                 reason=reason.strip())
    return keep


# The fields of a record a correction may change.
CORRECTED_FIELDS = ("first_name", "last_name", "club", "country", "federation_id")


@transaction.atomic
def player_update(*, player: Player, actor: Any, reason: str, **fields: Any) -> Player:
    """Correct a record of the registry (a typo in a name, a new club, a federation id): the
    fields given, checked like a new player's, with a written reason. The player's name
    changes wherever it is shown, his past events' standings included, so the reason is
    required and the change is audited with before and after."""
    rights.require_edit_player(actor, player)
    unknown = sorted(set(fields) - set(CORRECTED_FIELDS))
    if unknown:
        raise ServiceError([_error(name, "unknown_field", _("%(field)s is not a field of a "
                                                            "player's record") % {"field": name})
                            for name in unknown])
    if not (reason or "").strip():
        raise ServiceError(_("say why the record is corrected"), field="reason",
                           code="reason_required")
    refuse_bad_text({"reason": reason}, multiline=("reason",))
    player = Player.objects.select_for_update().get(pk=player.pk)
    before = {name: getattr(player, name) for name in CORRECTED_FIELDS}
    for name, value in fields.items():
        value = (value or "").strip()
        setattr(player, name, value.upper() if name == "country" else value)
    after = {name: getattr(player, name) for name in CORRECTED_FIELDS}
    changed = [name for name in CORRECTED_FIELDS if before[name] != after[name]]
    if not changed:
        return player
    full_clean(player)
    save_player(player)
    # In the trail of every event he plays in (their officials see the name change, and their
    # cached pages show the new one at once), or the registry's own when he plays in none.
    events = list(Event.objects.filter(registrations__player=player).distinct().order_by("pk"))
    for event in events or [None]:
        audit.record(actor=actor, action="player.update", target=player, event=event,
                     before={name: before[name] for name in changed},
                     after={name: after[name] for name in changed}, reason=reason.strip())
    return player


@transaction.atomic
def registry_manager_set(*, user: Any, manager: bool, actor: Any, reason: str = "") -> bool:
    """Grant or take back the management of the player registry (the permission
    `tournaments.manage_registry`); answers whether anything changed. Staff manage the
    registry without it; a manager cannot take it from himself (someone else must), so the
    registry is never left without the one who asked."""
    rights.require_registry_manager(actor)
    refuse_bad_text({"reason": reason}, multiline=("reason",))
    if user.is_staff:
        raise ServiceError(_("%(user)s is staff and manages the registry anyway")
                           % {"user": user.get_username()}, field="username", code="is_staff")
    if not manager and rights.is_signed_in(actor) and actor.pk == user.pk:
        raise ServiceError(_("another manager takes the registry's management from you"),
                           field="username", code="self")
    permission = Permission.objects.get(content_type__app_label="tournaments",
                                        codename="manage_registry")
    has = user.user_permissions.filter(pk=permission.pk).exists()
    if has == manager:
        return False
    if manager:
        user.user_permissions.add(permission)
    else:
        user.user_permissions.remove(permission)
    audit.record(actor=actor, action="registry.manager", target=user,
                 before={"registry_manager": has}, after={"registry_manager": manager},
                 reason=reason.strip())
    return True
