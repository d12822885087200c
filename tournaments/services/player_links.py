"""Personal links: every registration gets an unguessable token that opens the player's own
page for the event (tournaments.pages.player_link) with no account: his table and seat in the
round being played, with that table's link so that he can enter hands without scanning the
sheet, his rounds so far and his place. This module issues, finds and reissues them.

A token is 32 URL-safe characters from `secrets` (192 bits), like a table link's: it cannot be
guessed, so a wrong one is simply not found (no counting as the short table codes need). A link
is issued with its registration (`registration_create`, `registrations_create_many`) and for
the registrations of an imported archive (`links_ensure`); the organiser reissues one that was
seen by the wrong people, and the old one stops working at once.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.domain import rights
from tournaments.errors import NotFound
from tournaments.models import Event, PlayerLink, Registration
from tournaments.services import audit

TOKEN_BYTES = 24
TOKEN_PATTERN = re.compile(rf"[A-Za-z0-9_-]{{{TOKEN_BYTES * 4 // 3}}}")


def _new(registration: Registration, created_by: Any = None) -> PlayerLink:
    return PlayerLink(registration=registration, token=secrets.token_urlsafe(TOKEN_BYTES),
                      created_by=created_by if rights.is_signed_in(created_by) else None)


@transaction.atomic
def links_ensure(*, event: Event, actor: Any = None, audited: bool = True) -> int:
    """A link for every registration of the event that has none; idempotent; how many were
    issued. The registration services call it unaudited for the registrations they create
    (their `registration.create` entries record those), as does an archive's import (its
    links are not archived: they are secrets of the running event)."""
    missing = list(event.registrations.filter(links__isnull=True).order_by("start_number"))
    PlayerLink.objects.bulk_create([_new(reg, actor) for reg in missing], batch_size=500)
    if missing and audited:
        audit.record(actor=actor, action="player_link.issue", target=event, event=event,
                     after={"start_numbers": [reg.start_number for reg in missing]})
    return len(missing)


@transaction.atomic
def link_reissue(*, registration: Registration, actor: Any) -> PlayerLink:
    """The registration's link, seen by the wrong people, stops working and a new one is
    issued in its place."""
    event = registration.event
    rights.require_organiser(actor, event)
    # The registration's row (after the event's, audit.lock_event): of two reissues at once (a
    # double click), the second waits and then finds the first one's link as the live one,
    # instead of issuing a second.
    audit.lock_event(event)
    Registration.objects.select_for_update().get(pk=registration.pk)
    old = (PlayerLink.objects.select_for_update()
           .filter(registration=registration, revoked_at__isnull=True).first())
    if old is not None:
        old.revoked_at = timezone.now()
        old.save(update_fields=["revoked_at"])
    link = _new(registration, actor)
    link.save()
    # Whoever held the old link may have given his own address for the messages: they stop,
    # and the player gives his again with the new link.
    Registration.objects.filter(pk=registration.pk).update(
        email="", round_messages=False, correction_messages=False, message_language="")
    audit.record(actor=actor, action="player_link.reissue", target=registration, event=event,
                 after={"start_number": registration.start_number})
    return link


def is_live(link_id: int) -> bool:
    """Whether the personal link of this id still opens its page (not reissued, not gone)."""
    return PlayerLink.objects.filter(pk=link_id, revoked_at__isnull=True).exists()


def live_links(event: Event) -> dict[int, PlayerLink]:
    """The live link of each registration of the event, by registration id."""
    return {link.registration_id: link for link in
            PlayerLink.objects.filter(registration__event=event, revoked_at__isnull=True)}


def open_by_token(token: str) -> PlayerLink:
    """The live link of a token, with its registration, player and event; NotFound for any
    other (wrong, reissued, or the player's registration removed)."""
    link = None
    if TOKEN_PATTERN.fullmatch(token or ""):
        link = (PlayerLink.objects.select_related("registration__player", "registration__event")
                .filter(token=token, revoked_at__isnull=True).first())
    if link is None:
        raise NotFound(_("There is no player with this link."), field="token", code="not_found")
    return link
