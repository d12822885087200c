"""Who may do what: the roles of the product, answered in one place for pages and API.

- anonymous: public pages and reads of public events only;
- player: a user linked to a Player; enters and confirms hands of tables he sits at;
- referee of an event: penalties, disputes, corrections, annulments, confirmations there;
- organiser of an event: everything about that event;
- staff: everything everywhere.
An organiser or referee of one event has no rights on another.
"""

from __future__ import annotations

from typing import Any

from tournaments.models import Event, Table


def is_staff(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_staff)


def is_organiser(user: Any, event: Event) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return is_staff(user) or event.organisers.filter(pk=user.pk).exists()


def is_referee(user: Any, event: Event) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return is_organiser(user, event) or event.referees.filter(pk=user.pk).exists()


def sits_at(user: Any, table: Table) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return table.seats.filter(registration__player__user=user).exists()


def can_view_event(user: Any, event: Event) -> bool:
    return event.is_public or is_referee(user, event)


def can_enter_hands(user: Any, table: Table) -> bool:
    """Players of the table write their own sheet; officials may enter any table."""
    return sits_at(user, table) or is_referee(user, table.round.event)


def can_confirm(user: Any, table: Table) -> bool:
    """A second person confirms: a player of that table or an official (the services refuse
    the person who entered)."""
    return can_enter_hands(user, table)


def can_referee(user: Any, event: Event) -> bool:
    return is_referee(user, event)


def can_organise(user: Any, event: Event) -> bool:
    return is_organiser(user, event)
