"""Who may see and do what, in which state of a round or a scorecard: the one answer that the
pages, the API, the management commands and the services all ask.

The roles:
- anonymous visitors and users without a role: public events, their published rounds;
- a player (a user linked to a Player): besides, writes the card of a table he sits at while
  the table may write it (see `tournaments.domain.lifecycle`), and confirms his table's card;
- a seat of a table acting through the table's link (`TableSeat`: a phone holding the table's
  token, on which a player chose his seat; no account): the same rights as a player, for that
  table only;
- a referee of an event: penalties, disputes, corrections (with a reason), annulments,
  verification, and every card of that event;
- an organiser of an event: everything a referee may, and running the event;
- staff: everything everywhere;
- a manager of the player registry (staff, or a user given `tournaments.manage_registry`):
  sees, corrects and merges every record of the registry; an organiser only those of his own
  events (see "The player registry" below);
- the system (`actor=None`: management commands, background jobs, the demo): every right; the
  lifecycle still holds.
An organiser or referee of one event has no rights on another. A private event, and a draft
round, do not exist for whoever may not see them: the edges answer 404, not 403.

`*_refusal` functions answer None (allowed) or the `Refusal` to show; `require_*` raise it
(`Forbidden`, 403, or `NotFound`, 404), which every edge turns into its answer.

Why one module of some 620 lines: "who may" is one rule, asked by every edge; a reader checks a
role against docs/security.md top to bottom, and the card's rules (the larger half) are small
named refusals. Split the card's rules into their own module past 650 lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.domain import lifecycle
from tournaments.errors import Forbidden, NotFound, ServiceError
from tournaments.models import Event, Player, Registration, Round, Scorecard, Table


@dataclass(frozen=True)
class Refusal:
    """Why not. `status` is what the edges answer: 404 when the object does not exist for the
    actor, 403 when he lacks the right, 400 when he has it but the card's state does not allow
    the action now (or a reason is missing)."""

    code: str
    message: str
    field: str = "non_field_errors"
    status: int = 403

    @property
    def hidden(self) -> bool:
        return self.status == 404

    def error(self) -> ServiceError:
        cls = {404: NotFound, 403: Forbidden}.get(self.status, ServiceError)
        return cls(self.message, field=self.field, code=self.code)


# ---------------------------------------------------------------------------------------
# Who the actor is
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TableSeat:
    """A player acting through his table's link: the table the token opens, the seat he chose
    on this phone, and the phone's opaque id (kept in the audit trail)."""

    table_id: int
    event_id: int
    start_number: int
    name: str
    device: str = ""

    def __str__(self) -> str:
        return f"#{self.start_number} {self.name}"


def is_table_seat(actor: Any) -> bool:
    return isinstance(actor, TableSeat)


def is_system(actor: Any) -> bool:
    return actor is None


def is_signed_in(actor: Any) -> bool:
    return bool(getattr(actor, "is_authenticated", False))


def is_staff(actor: Any) -> bool:
    return is_system(actor) or (is_signed_in(actor) and actor.is_staff)


# Apps built on this one name further organisers of some events (the leagues app: the
# organisers of a league organise its matchdays' events, also those named after a matchday
# was created), registered in their AppConfig.ready(): `check(actor, event)`.
_event_organiser_checks: list[Callable[[Any, Event], bool]] = []


def register_event_organisers(check: Callable[[Any, Event], bool]) -> None:
    if check not in _event_organiser_checks:
        _event_organiser_checks.append(check)


def is_organiser(actor: Any, event: Event) -> bool:
    if is_staff(actor):
        return True
    if not is_signed_in(actor):
        return False
    return (event.organisers.filter(pk=actor.pk).exists()
            or any(check(actor, event) for check in _event_organiser_checks))


def is_official(actor: Any, event: Event) -> bool:
    """A referee or an organiser of the event (or staff)."""
    if is_organiser(actor, event):
        return True
    return is_signed_in(actor) and event.referees.filter(pk=actor.pk).exists()


def sits_at(actor: Any, table: Table) -> bool:
    if is_table_seat(actor):
        return actor.table_id == table.pk
    if not is_signed_in(actor):
        return False
    return table.seats.filter(registration__player__user=actor).exists()


def is_table_party(actor: Any, table: Table) -> bool:
    """A player of the table or an official of its event: who follows the table's own page
    and history."""
    return sits_at(actor, table) or is_official(actor, table.round.event)


# Apps built on this one name further event creators (the leagues app: the organisers of a
# league create its matchdays), registered in their AppConfig.ready().
_event_creator_checks: list[Callable[[Any], bool]] = []


def register_event_creators(check: Callable[[Any], bool]) -> None:
    if check not in _event_creator_checks:
        _event_creator_checks.append(check)


def can_create_events(actor: Any) -> bool:
    """Staff, users given the `tournaments.add_event` permission, anyone who already organises
    an event (an organiser runs his next event himself), and whom other apps name."""
    if is_staff(actor):
        return True
    if not is_signed_in(actor):
        return False
    return (actor.has_perm("tournaments.add_event") or actor.organised_events.exists()
            or any(check(actor) for check in _event_creator_checks))


# ---------------------------------------------------------------------------------------
# The player registry: who sees, corrects and merges its records (issue #29)
# ---------------------------------------------------------------------------------------
#
# One registry serves every organiser of a federation's server. Its managers (staff, and users
# given `tournaments.manage_registry`, which a manager grants in the app) see, correct and
# merge every record. An organiser uses the registry to enter players: he sees the players
# of public events and of his own events (those he may see: he organises or referees them),
# and the records he entered that play nowhere yet; he corrects and merges only records that
# play in no event but his own. Everybody else sees a player exactly where his public page
# exists: in a public event (or a public league, `register_player_visibility`).

REGISTRY_PERMISSION = "tournaments.manage_registry"

# Apps built on this one name further events an actor organises, as a query on Event (the
# leagues app: the events of the matchdays of his leagues), and further places a player can
# be seen in, as a query on Player (the leagues app: the seasons of public leagues and of his
# own): `query(actor)`.
_organised_event_queries: list[Callable[[Any], Q]] = []
_player_visibility_queries: list[Callable[[Any], Q]] = []


def register_organised_events(query: Callable[[Any], Q]) -> None:
    if query not in _organised_event_queries:
        _organised_event_queries.append(query)


def register_player_visibility(query: Callable[[Any], Q]) -> None:
    if query not in _player_visibility_queries:
        _player_visibility_queries.append(query)


# ...and, for a player, whether `actor` runs each place of theirs the player plays in (the
# leagues app: each league season he is a member of): `check(actor, player) -> [bool, ...]`.
_player_place_checks: list[Callable[[Any, Player], list[bool]]] = []


def register_player_places(check: Callable[[Any, Player], list[bool]]) -> None:
    if check not in _player_place_checks:
        _player_place_checks.append(check)


def can_manage_players(actor: Any) -> bool:
    """Who uses the registry (its pages, its API): event creators, who enter players, and its
    managers. What each of them sees and changes there is `visible_players_q` and
    `can_edit_player`."""
    return can_create_events(actor) or is_registry_manager(actor)


def is_registry_manager(actor: Any) -> bool:
    return is_staff(actor) or (is_signed_in(actor) and actor.has_perm(REGISTRY_PERMISSION))


def officiated_events_q(actor: Any) -> Q:
    """The events `actor` organises or referees, as a query on Event."""
    if not is_signed_in(actor):
        return Q(pk__in=[])
    q = Q(organisers=actor) | Q(referees=actor)
    for query in _organised_event_queries:
        q |= query(actor)
    return q


def visible_events_q(actor: Any) -> Q:
    """The events `actor` may see (`can_view_event`), as a query on Event."""
    if is_staff(actor):
        return Q()
    return Q(is_public=True) | officiated_events_q(actor)


def visible_players_q(actor: Any) -> Q:
    """The registry's players `actor` may see, as a query on Player: managers all; everybody
    the players of the events he may see (and of the public or his own leagues); a user also
    his own record and the records he entered."""
    if is_registry_manager(actor):
        return Q()
    events = Event.objects.filter(visible_events_q(actor)).values("pk")
    q = Q(pk__in=Registration.objects.filter(event__in=events).values("player_id"))
    for query in _player_visibility_queries:
        q |= query(actor)
    if is_signed_in(actor):
        q |= Q(user=actor) | Q(created_by=actor)
    return q


def can_view_player(actor: Any, player: Player) -> bool:
    """Whether `player` exists for `actor`: his page, the API's records of him, the registry's
    lists. A player of private events only does not exist for outsiders (404 everywhere)."""
    return Player.objects.filter(visible_players_q(actor), pk=player.pk).exists()


def can_edit_player(actor: Any, player: Player) -> bool:
    """Whether `actor` may correct `player`'s record (and merge it): a registry manager; an
    organiser for a record that plays in no event but his own (nor in a league season but of
    his own leagues), or that he entered and that plays nowhere yet."""
    if is_registry_manager(actor):
        return True
    if not can_manage_players(actor):
        return False
    events = list(Event.objects.filter(registrations__player=player).distinct())
    places = [record for query in _player_place_checks for record in query(actor, player)]
    if not events and not places:
        return player.created_by_id is not None and player.created_by_id == actor.pk
    return all(is_organiser(actor, event) for event in events) and all(places)


def registry_refusal(actor: Any, player: Player) -> Refusal | None:
    """None when `actor` may correct and merge `player`; else why not (404 when the player
    does not exist for him)."""
    if not can_view_player(actor, player):
        return Refusal("not_found", _("there is no player %(id)s") % {"id": player.pk},
                       field="player", status=404)
    if not can_manage_players(actor):
        return Refusal("not_organiser", _("only event organisers may change the player registry"))
    if not can_edit_player(actor, player):
        return Refusal("not_owner", _("%(player)s plays in events of other organisers: a manager "
                                      "of the player registry corrects or merges him")
                       % {"player": player})
    return None


def require_edit_player(actor: Any, player: Player, *, field: str = "player") -> None:
    refusal = registry_refusal(actor, player)
    if refusal is not None:
        raise Refusal(refusal.code, refusal.message, field=field, status=refusal.status).error()


def require_manage_players(actor: Any) -> None:
    """Entering players into the registry is for those who run events."""
    if not can_manage_players(actor):
        raise Forbidden(_("only event organisers may change the player registry"),
                        code="not_organiser")


def require_registry_manager(actor: Any) -> None:
    """Granting the registry's management to a user is for its managers."""
    if not is_registry_manager(actor):
        raise Forbidden(_("only the managers of the player registry may do this"),
                        code="not_registry_manager")


def is_player_himself(actor: Any, player: Any) -> bool:
    return bool(getattr(actor, "is_authenticated", False) and player.user_id == actor.pk)


def can_view_career(viewer: Any, player: Any) -> bool:
    """A player's career page (his events, leagues, ratings and how he plays) is public unless
    he hid it; he and those who may correct his record still see it."""
    return (not player.career_hidden or is_player_himself(viewer, player)
            or can_edit_player(viewer, player))


def can_hide_career(actor: Any, player: Any) -> bool:
    """The player himself, or whoever may correct his record on his behalf, may hide or show
    his career page."""
    return is_player_himself(actor, player) or can_edit_player(actor, player)


# ---------------------------------------------------------------------------------------
# Seeing
# ---------------------------------------------------------------------------------------

def can_view_event(actor: Any, event: Event) -> bool:
    if is_table_seat(actor) and actor.event_id == event.pk:
        return True  # the token opens its own table, also of a private event
    return event.is_public or is_official(actor, event)


def can_enter_online(actor: Any, event: Event) -> bool:
    """Who sees an event's entry form, its entry list and an entry's own page: whoever sees
    the event (a private event takes no entries from strangers). Whether it takes entries now
    is tournaments.domain.lifecycle.online_entry_refusal."""
    return can_view_event(actor, event)


def can_withdraw_self(event: Event) -> bool:
    """Whether a player may withdraw himself on his personal page (the holder of the link is
    the player; the event allows it)."""
    return event.players_may_withdraw


def can_view_round(actor: Any, rnd: Round) -> bool:
    """Drafts are the officials' working copy."""
    event = rnd.event
    if not can_view_event(actor, event):
        return False
    return not lifecycle.is_draft(rnd) or is_official(actor, event)


def can_view_table(actor: Any, table: Table) -> bool:
    return can_view_round(actor, table.round)


def can_view_table_history(actor: Any, table: Table) -> bool:
    """A table's audit history: its players and the officials."""
    return can_view_table(actor, table) and is_table_party(actor, table)


def require_event_visible(actor: Any, event: Event | None, slug: str = "") -> Event:
    if event is None or not can_view_event(actor, event):
        raise NotFound(_("there is no event %(slug)s") % {"slug": slug or getattr(event, "slug", "")},
                       field="event", code="not_found")
    return event


def require_round_visible(actor: Any, rnd: Round | None, number: int = 0) -> Round:
    if rnd is None or not can_view_round(actor, rnd):
        raise NotFound(_("there is no round %(n)s") % {"n": number or getattr(rnd, "number", "")},
                       field="round", code="not_found")
    return rnd


def require_table_visible(actor: Any, table: Table | None, number: int = 0) -> Table:
    if table is None or not can_view_table(actor, table):
        raise NotFound(_("there is no table %(n)s") % {"n": number or getattr(table, "number", "")},
                       field="table", code="not_found")
    return table


# ---------------------------------------------------------------------------------------
# Running an event
# ---------------------------------------------------------------------------------------

def require_organiser(actor: Any, event: Event) -> None:
    if not is_organiser(actor, event):
        raise Forbidden(_("only the organisers of %(event)s may do this") % {"event": event.name},
                        code="not_organiser")


def require_official(actor: Any, event: Event) -> None:
    if not is_official(actor, event):
        raise Forbidden(_("only the referees and organisers of %(event)s may do this")
                        % {"event": event.name}, code="not_referee")


def call_refusal(actor: Any, table: Table) -> Refusal | None:
    """Who calls the referee to a table (issue #33): a player of the table (his phone on the
    table link), while its round is played; the officials, who answer calls, take them."""
    if not sits_at(actor, table):
        return Refusal("not_at_table", _("only the players of this table may call its referee"))
    if not lifecycle.is_playable(table.round):
        return _round_state_refusal(table.round)
    return None


# ---------------------------------------------------------------------------------------
# Writing a table's scorecard
# ---------------------------------------------------------------------------------------

class CardAction:
    """What one may do to a scorecard."""

    ENTER = "enter"            # enter, change or delete a hand; enter the money sheet
    SUBMIT = "submit"          # the table hands its card in
    CONFIRM_HAND = "confirm_hand"
    CONFIRM = "confirm"        # a second person confirms the submitted card
    VERIFY = "verify"          # an official checks a confirmed card
    ANNUL = "annul"            # an official annuls the table's round

    ALL = (ENTER, SUBMIT, CONFIRM_HAND, CONFIRM, VERIFY, ANNUL)


def _not_at_table() -> Refusal:
    return Refusal("not_at_table",
                   _("only the players of this table and the officials may write its scorecard"))


def _round_state_refusal(rnd: Round) -> Refusal:
    if lifecycle.is_draft(rnd):
        return Refusal("round_not_published", _("round %(n)s is not published yet")
                       % {"n": rnd.number}, field="round", status=400)
    return Refusal("round_not_open", _("round %(n)s is %(status)s: ask a referee")
                   % {"n": rnd.number, "status": rnd.get_status_display().lower()}, field="round")


def _card_state_refusal(card: Scorecard) -> Refusal:
    return Refusal("scorecard_closed",
                   _("the scorecard is %(status)s: a change is now a referee's correction")
                   % {"status": card.get_status_display().lower()}, field="scorecard")


def _same_person(actor: Any, user_id: int | None, seat: int | None, event_id: int) -> bool:
    """Whether `actor` is who acted as account `user_id` or as seat `seat` of the event: a
    seat through the table link and the account linked to that seat's player are one person,
    whichever way he went (issue #29: one person submitted on the link and confirmed with his
    account)."""
    if is_table_seat(actor):
        if seat is not None and seat == actor.start_number:
            return True
        return user_id is not None and Registration.objects.filter(
            event_id=event_id, start_number=actor.start_number, player__user_id=user_id).exists()
    pk = getattr(actor, "pk", None) if is_signed_in(actor) else None
    if pk is None:
        return False
    if user_id is not None and user_id == pk:
        return True
    return seat is not None and Registration.objects.filter(
        event_id=event_id, start_number=seat, player__user_id=pk).exists()


def submitted_by_actor(card: Scorecard, actor: Any) -> bool:
    """Whether `actor` is who submitted the card: the same account, the same seat, or the
    seat and the account of one player."""
    return _same_person(actor, card.submitted_by_id, card.submitted_by_seat,
                        card.table.round.event_id)


def on_submitting_phone(card: Scorecard, actor: Any) -> bool:
    """Whether `actor` acts on the phone the card was submitted on (through the table link:
    whatever seat he chose on it, the phone is the same person's hand)."""
    return (is_table_seat(actor) and bool(actor.device)
            and actor.device == card.submitted_by_device)


def entered_by_actor(hand: Any, actor: Any) -> bool:
    """Whether `actor` entered the hand (as `submitted_by_actor` says of a card)."""
    return _same_person(actor, hand.entered_by_id, hand.entered_by_seat,
                        hand.scorecard.table.round.event_id)


def _hand_count_refusal(card: Scorecard, actor: Any, official: bool, off: tuple[int, int],
                        reason: str) -> Refusal | None:
    """A card with fewer or more hands than the event plays (`lifecycle.hand_count_off`) is
    the referee's to confirm, explicitly and with a reason: not the table's, and not the one
    official who entered and submitted it himself (where officials confirm alone, a second
    official confirms it)."""
    entered, planned = off
    # The count once, its plural agreeing with the number; then what follows from it.
    count = ngettext("the card has %(n)s hand where the round plays %(total)s",
                     "the card has %(n)s hands where the round plays %(total)s",
                     entered) % {"n": entered, "total": planned}
    if not official:
        return Refusal("hand_count_needs_referee",
                       f"{count}: {_('only a referee may confirm it, with a reason')}", field="hands")
    if submitted_by_actor(card, actor):
        return Refusal("hand_count_needs_second_official",
                       f"{count}: {_('another referee or organiser confirms it, not the one who submitted it')}",
                       field="confirmed_by", status=400)
    if not reason.strip():
        return Refusal("hand_count_reason_required", f"{count}: {_('confirming it needs a reason')}",
                       field="reason", status=400)
    return None


def _not_referee(event: Event) -> Refusal:
    return Refusal("not_referee", _("only the referees and organisers of %(event)s may do this")
                   % {"event": event.name})


def _status_refusal(code: str, message: str, card: Scorecard) -> Refusal:
    return Refusal(code, message % {"status": card.get_status_display().lower()}, field="status",
                   status=400)


def _who_refusal(actor: Any, card: Scorecard, action: str, table: Table,
                 official: bool) -> Refusal | None:
    """Step one: whether `actor` has a part in the table's card at all, and may act on it in
    the round's and the card's state (a player only while the table writes its card)."""
    rnd = table.round
    if not can_view_round(actor, rnd):
        return Refusal("not_found", _("there is no table %(n)s") % {"n": table.number},
                       field="table", status=404)
    if not official and not sits_at(actor, table):
        return (_not_referee(rnd.event) if action in (CardAction.VERIFY, CardAction.ANNUL)
                else _not_at_table())
    if lifecycle.is_draft(rnd):
        return _round_state_refusal(rnd)
    if not official:
        if action in (CardAction.VERIFY, CardAction.ANNUL):
            return _not_referee(rnd.event)
        if not lifecycle.is_playable(rnd):
            return _round_state_refusal(rnd)
        if card.status not in lifecycle.TABLE_WRITABLE_CARDS:
            return _card_state_refusal(card)
    if card.status == Scorecard.Status.ANNULLED:
        return Refusal("annulled", _("the scorecard is annulled"), field="scorecard", status=400)
    return None


def _confirm_refusal(actor: Any, card: Scorecard, event: Event, official: bool, reason: str,
                     paper_checked: bool) -> Refusal | None:
    """Step two for a confirmation: by a second person (a second phone through the table link),
    or an official alone after the paper check where officials confirm alone; a card of
    another number of hands by an official with a reason."""
    if card.status != Scorecard.Status.SUBMITTED:
        return _status_refusal("not_submitted", _("only a submitted scorecard can be confirmed "
                                                  "(it is %(status)s)"), card)
    alone = official and paper_checked and event.card_confirmation == Event.CardConfirmation.OFFICIAL
    off = lifecycle.hand_count_off(card, event)
    if off is not None:
        refusal = _hand_count_refusal(card, actor, official, off, reason)
        if refusal is not None:
            return refusal
    if submitted_by_actor(card, actor) and not alone:
        if official and event.card_confirmation == Event.CardConfirmation.OFFICIAL:
            return Refusal("paper_not_checked",
                           _("compare the card with the signed paper sheet and say so to confirm it alone"),
                           field="paper_checked", status=400)
        return Refusal("same_person",
                       _("the card is confirmed by a second person, not the one who submitted it"),
                       field="confirmed_by", status=400)
    if on_submitting_phone(card, actor) and not event.one_phone_per_table:
        return Refusal("same_phone",
                       _("the card was submitted on this phone: another player of the table "
                         "confirms it on his own phone, or call the referee"),
                       field="confirmed_by", status=400)
    return None


def _action_refusal(actor: Any, card: Scorecard, action: str, event: Event, official: bool,
                    reason: str, paper_checked: bool) -> Refusal | None:
    """Step two: whether the card's state allows this action now."""
    status = card.status
    if action == CardAction.VERIFY:
        return None if status == Scorecard.Status.CONFIRMED else _status_refusal(
            "not_confirmed", _("only a confirmed scorecard can be verified (it is %(status)s)"), card)
    if action == CardAction.ANNUL:
        return None
    if action == CardAction.ENTER:
        if status in lifecycle.CORRECTED_CARDS and not reason.strip():
            return Refusal("reason_required",
                           _("the scorecard is %(status)s: a correction needs a reason")
                           % {"status": card.get_status_display().lower()}, field="reason", status=400)
        return None
    if action == CardAction.SUBMIT:
        return None if status == Scorecard.Status.OPEN else _status_refusal(
            "not_open", _("only an open scorecard can be submitted (it is %(status)s)"), card)
    if action == CardAction.CONFIRM:
        return _confirm_refusal(actor, card, event, official, reason, paper_checked)
    if action == CardAction.CONFIRM_HAND:
        return None if status in lifecycle.TABLE_WRITABLE_CARDS else _card_state_refusal(card)
    raise ValueError(f"unknown card action {action!r}")


def card_refusal(actor: Any, card: Scorecard, action: str, *, reason: str = "",
                 table: Table | None = None, paper_checked: bool = False) -> Refusal | None:
    """None when `actor` may do `action` to `card` now, else why not.

    Officials write any card of a published round; a change of a confirmed or verified card is
    a correction and needs a reason. Players write their own table's card while the round is
    playable and the card open or submitted. Nobody writes an annulled card or a draft's. A
    card is confirmed by a second person, except by an official of an event where officials
    confirm alone, who says he compared it with the signed paper sheet (`paper_checked`).
    Through the table link a second person is a second phone: the seat chosen on the phone
    that submitted the card does not make another person, unless the event plays with one
    phone per table (`Event.one_phone_per_table`; the card is then marked for the officials).
    Two steps: who may act on the card at all (`_who_refusal`), then what its state allows
    (`_action_refusal`)."""
    table = table or card.table
    event = table.round.event
    official = is_official(actor, event)
    return (_who_refusal(actor, card, action, table, official)
            or _action_refusal(actor, card, action, event, official, reason, paper_checked))


def may(actor: Any, card: Scorecard, action: str, *, table: Table | None = None) -> bool:
    """For pages: whether to offer the action (a correction's reason is asked by the form)."""
    refusal = card_refusal(actor, card, action, reason="-", table=table)
    return refusal is None


def require_card(actor: Any, card: Scorecard, action: str, *, reason: str = "",
                 paper_checked: bool = False) -> None:
    refusal = card_refusal(actor, card, action, reason=reason, paper_checked=paper_checked)
    if refusal is not None:
        raise refusal.error()
