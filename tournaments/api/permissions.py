"""Who may call what in the API, answered by `tournaments.roles` and turned into refusals.

Objects are found through the numbers in the URL; an event the user may not see (hidden and
not his) and a draft round he may not preview answer 404, as if they did not exist. Rights on
a visible object that the user lacks answer 403. Anonymous writes are refused by DRF's
`IsAuthenticatedOrReadOnly` before any of this runs.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments import roles, selectors
from tournaments.api import lookups
from tournaments.errors import Forbidden, NotFound
from tournaments.models import Event, Round, Scorecard, Table

# A player writes his table's card while the round is on and the card not yet confirmed;
# after that a change is a correction, which is the referee's.
PLAYER_WRITABLE_ROUNDS = (Round.Status.PUBLISHED, Round.Status.PLAYING)
PLAYER_WRITABLE_CARDS = (Scorecard.Status.OPEN, Scorecard.Status.SUBMITTED)


def can_create_events(user: Any) -> bool:
    """Staff, and users given the `tournaments.add_event` permission (in the admin)."""
    return roles.is_staff(user) or bool(
        getattr(user, "is_authenticated", False) and user.has_perm("tournaments.add_event"))


def can_manage_players(user: Any) -> bool:
    """The player registry is used by whoever registers players: event creators and the
    organisers of any event."""
    if can_create_events(user):
        return True
    return bool(getattr(user, "is_authenticated", False) and user.organised_events.exists())


def visible_event(user: Any, slug: str) -> Event:
    event = selectors.event_by_slug(slug)
    if event is None or not roles.can_view_event(user, event):
        raise NotFound(_("there is no event %(slug)s") % {"slug": slug}, field="event",
                       code="not_found")
    return event


def can_preview(user: Any, event: Event) -> bool:
    """Draft rounds are shown to the event's officials only."""
    return roles.can_referee(user, event)


def visible_round(user: Any, event: Event, number: int) -> Round:
    rnd = lookups.round_of(event, number)
    if rnd is None or (rnd.status == Round.Status.DRAFT and not can_preview(user, event)):
        raise NotFound(_("round %(n)s of %(event)s does not exist") % {"n": number, "event": event.slug},
                       field="round", code="not_found")
    return rnd


def visible_table(user: Any, event: Event, round_number: int, table_number: int) -> Table:
    table = lookups.table_of(event, round_number, table_number)
    if table is None or (table.round.status == Round.Status.DRAFT and not can_preview(user, event)):
        raise NotFound(_("table %(t)s of round %(r)s does not exist") % {"t": table_number, "r": round_number},
                       field="table", code="not_found")
    return table


def require_organiser(user: Any, event: Event) -> None:
    if not roles.can_organise(user, event):
        raise Forbidden(_("only the organisers of %(event)s may do this") % {"event": event.slug},
                        code="not_organiser")


def require_referee(user: Any, event: Event) -> None:
    if not roles.can_referee(user, event):
        raise Forbidden(_("only the referees and organisers of %(event)s may do this")
                        % {"event": event.slug}, code="not_referee")


def require_table_reader(user: Any, table: Table) -> None:
    """A table's own history: its players and the event's officials."""
    if not roles.can_enter_hands(user, table):
        raise Forbidden(_("only the players of this table and the referees may see this"),
                        code="not_at_table")


def require_table_writer(user: Any, table: Table) -> None:
    """Players write their own table's card while it is theirs to write; officials any time
    (the services then ask a reason for a change of a verified card)."""
    event = table.round.event
    if roles.can_referee(user, event):
        return
    if not roles.sits_at(user, table):
        raise Forbidden(_("only the players of this table and the referees may write its scorecard"),
                        code="not_at_table")
    if table.round.status not in PLAYER_WRITABLE_ROUNDS:
        raise Forbidden(_("round %(n)s is %(status)s: ask a referee") % {
            "n": table.round.number, "status": table.round.get_status_display()},
            field="round", code="round_not_open")
    if table.scorecard.status not in PLAYER_WRITABLE_CARDS:
        raise Forbidden(_("the scorecard is %(status)s: a change is now a referee's correction")
                        % {"status": table.scorecard.get_status_display()},
                        field="scorecard", code="scorecard_closed")


def require_table_confirmer(user: Any, table: Table) -> None:
    if not roles.can_confirm(user, table):
        raise Forbidden(_("only the players of this table and the referees may confirm"),
                        code="not_at_table")
