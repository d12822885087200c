"""The API's side of `tournaments.domain.rights`: finding the event, round and table of a URL as the
caller may see them, and refusing early what the caller may not do.

Every rule is `tournaments.domain.rights`'; this module only finds objects and raises its refusals
(404 for what does not exist for the caller, 403 for a missing right). The services check the
same rules again, with the card's state, when they write. Anonymous writes are refused by
DRF's `IsAuthenticatedOrReadOnly` before any of this runs.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.api import lookups
from tournaments.domain import rights
from tournaments.domain.rights import CardAction
from tournaments.errors import Forbidden
from tournaments.models import Event, Round, Table

can_create_events = rights.can_create_events
can_manage_players = rights.can_manage_players
can_preview = rights.is_official
require_organiser = rights.require_organiser
require_referee = rights.require_official


def visible_event(user: Any, slug: str) -> Event:
    return rights.require_event_visible(user, selectors.event_by_slug(slug), slug)


def visible_round(user: Any, event: Event, number: int) -> Round:
    return rights.require_round_visible(user, lookups.round_of(event, number), number)


def visible_table(user: Any, event: Event, round_number: int, table_number: int) -> Table:
    return rights.require_table_visible(user, lookups.table_of(event, round_number, table_number),
                                        table_number)


def require_table_reader(user: Any, table: Table) -> None:
    """A table's own history: its players and the event's officials."""
    if not rights.can_view_table_history(user, table):
        raise Forbidden(_("only the players of this table and the referees may see this"),
                        code="not_at_table")


def _require_card(user: Any, table: Table, action: str) -> None:
    # Rights (403/404) are refused before the body is read; the state of the card (400) is
    # the service's to check once the card is locked.
    refusal = rights.card_refusal(user, table.scorecard, action, reason="-", table=table)
    if refusal is not None and refusal.status != 400:
        raise refusal.error()


def require_table_writer(user: Any, table: Table) -> None:
    _require_card(user, table, CardAction.ENTER)


def require_table_confirmer(user: Any, table: Table) -> None:
    _require_card(user, table, CardAction.CONFIRM)
