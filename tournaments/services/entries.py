"""Online entry (issue #31, docs/entries.md): a player enters an event himself, with no
account, and what follows until he has a place: his address confirmed by a link, the
organiser's approval (where the event asks for it, and always without a mail server), the cap
on places and the waiting list that moves up when a place becomes free; and what a player does
himself later on his personal page (withdraw, sit out the next round) where the event allows it.

An entry is an `Entry` row until it takes a place; then it has its `Registration`, made as the
organiser's own entry makes one (`registrations.registration_insert`), the player matched to
the registry the same way (federation id, then name and club: `player_entry.ImportRegistry`).
A match the registry cannot settle (a federation id of another name, two players of one name
and club) is left to the organiser, never guessed.

Places are counted under the event row's lock, so a cap holds however many enter at once. The
e-mails go through `messages` (the entry's own kinds), queued in the transaction and sent by a
job after it commits.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from guard import counters
from tournaments.domain import lifecycle, rights, search
from tournaments.domain.countries import country_code
from tournaments.errors import Forbidden, NotFound, ServiceError, TooManyAttempts
from tournaments.models import Entry, Event, Message, Player, PlayerLink, Registration
from tournaments.services import audit, messages, registrations
from tournaments.services.checkin import absence_change
from tournaments.services.events import player_create_for
from tournaments.services.player_entry import PLAYER_IMPORT_COLUMNS, ImportRegistry

TOKEN_BYTES = 24
E = Entry.Status
K = Message.Kind
# The entries that hold or wait for a place: a second entry of the same player is refused.
COUNTING = (E.PENDING, E.WAITING, E.ACCEPTED)
HOUR = 3600


def _entrant(entry: Entry) -> str:
    # Who did it, for the audit trail: the entrant, who has no account.
    return _("online entry: %(name)s") % {"name": entry}


def _address_taken(key: str, limit: int, seconds: int, field: str) -> None:
    """Count one entry under `key`; refuse (429) past `limit` in `seconds`. Outside the
    entry's transaction: a refused entry still counts."""
    if counters.take(key, seconds) > limit:
        raise TooManyAttempts(_("Too many entries from here: try again later."), field=field,
                              code="too_many_entries")


def _values_errors(event: Event, values: dict[str, Any], mail: bool) -> tuple[dict, list]:
    """The entry's cleaned values and what is wrong with them, each at its field."""
    errors: list[dict[str, Any]] = []

    def bad(field: str, code: str, message: str) -> None:
        errors.append({"hand": None, "field": field, "code": code, "message": message})

    v = {k: str(values.get(k) or "").strip() for k in
         ("first_name", "last_name", "club", "country", "federation_id", "email", "language")}
    for field in ("first_name", "last_name"):
        if not v[field]:
            bad(field, "required", _("This field is required."))
    if event.entry_federation_id and not v["federation_id"]:
        bad("federation_id", "required", _("This event asks for your federation id."))
    if mail and not v["email"]:
        bad("email", "required", _("Give your e-mail address: the entry is confirmed through it."))
    country = country_code(v["country"])
    if country is None:
        bad("country", "invalid", _("%(value)s is not a country: give its name or its two-letter "
                                    "code (SI, AT, CZ)") % {"value": v["country"]})
    v["country"] = country or ""
    if v["language"] not in {code for code, _name in settings.LANGUAGES}:
        v["language"] = ""
    if not values.get("consent"):
        bad("consent", "required", _("Entries are shown in public with name and club: tick this "
                                     "to enter (or ask the organiser to enter you)."))
    candidate = Entry(event=event, **v, token="x")
    try:
        candidate.full_clean(exclude=["event", "token", *(f for f in v if not v[f])])
    except ValidationError as exc:
        for field, problems in exc.message_dict.items():
            for problem in problems:
                bad(field, "invalid", problem)
    return v, errors


def _match(v: dict[str, str]) -> tuple[str, Player | None]:
    """The registry's player the entry names, as the organiser's own entry finds him: by
    federation id, else by name and club. Uncertain (the organiser decides) when the id is
    another name's or several players share the name and club."""
    row = {c: v.get(c, "") for c in PLAYER_IMPORT_COLUMNS}
    problems: list[str] = []
    registry = ImportRegistry([(0, 1, row)], actor=None)
    player, matched_by, _key = registry.match(row, lambda column, code, message: problems.append(code))
    if problems:
        return Entry.Match.UNCERTAIN, None
    if player is None:
        return Entry.Match.NEW, None
    return (Entry.Match.NAME if matched_by == "name" else Entry.Match.FEDERATION_ID), player


def _refuse_twice(event: Event, v: dict[str, str], player: Player | None,
                  entry: Entry | None = None) -> None:
    """A player enters an event once: refused when he holds a registration, or an entry of
    his (the same federation id, or name and club) counts already."""
    if player is not None and event.registrations.filter(player=player).exists():
        raise ServiceError(_("%(name)s is already entered in this event.") % {
            "name": f"{v['first_name']} {v['last_name']}"}, field="last_name", code="already_entered")
    name, club = search.player_key(v["first_name"], v["last_name"], v["club"])
    others = event.entries.filter(status__in=COUNTING).exclude(pk=getattr(entry, "pk", None))
    for other in others.only("first_name", "last_name", "club", "federation_id"):
        same_id = v["federation_id"] and other.federation_id == v["federation_id"]
        if same_id or search.player_key(other.first_name, other.last_name, other.club) == (name, club):
            raise ServiceError(_("%(name)s has already entered this event.") % {
                "name": f"{v['first_name']} {v['last_name']}"}, field="last_name",
                code="already_entered")


def entry_submit(*, event: Event, values: dict[str, Any], client: str, base_url: str,
                 actor: Any, honeypot: str = "") -> Entry:
    """An entry typed into the event's form by anybody. Refused (nothing kept) when the event
    takes no entries now, the form's hidden field was filled (a robot), the address or the
    e-mail address entered too often, a field is wrong, or the player has entered already.
    With a mail server the entry waits for its address to be confirmed by the link sent to it
    (it counts only then); without one it waits for the organiser. `actor` is who fills the
    form (a visitor: an anonymous user), for who may see the event."""
    if not rights.can_enter_online(actor, event):
        raise NotFound(_("No such event."), field="event", code="not_found")
    refusal = lifecycle.online_entry_refusal(event, timezone.now())
    if refusal is not None:
        raise ServiceError(refusal[1], field="event", code=refusal[0])
    _address_taken(f"entry:ip:{client}", settings.ENTRY_ADDRESS_LIMIT, HOUR, "__all__")
    if honeypot.strip():
        raise ServiceError(_("The entry could not be taken."), field="__all__", code="refused")
    mail = messages.mail_configured()
    v, errors = _values_errors(event, values, mail)
    if errors:
        raise ServiceError(errors)
    if v["email"]:
        _address_taken(f"entry:mail:{v['email'].lower()}", settings.ENTRY_EMAIL_LIMIT, 24 * HOUR,
                       "email")
    return _entry_create(event, v, mail, base_url, bool(values.get("round_messages")))


@transaction.atomic
def _entry_create(event: Event, v: dict[str, str], mail: bool, base_url: str,
                  round_messages: bool) -> Entry:
    event = Event.objects.select_for_update().get(pk=event.pk)
    match, player = _match(v)
    _refuse_twice(event, v, player)
    now = timezone.now()
    # Entered again before confirming (the first mail lost, a typo in the address): the earlier
    # unconfirmed entry of this name and address is replaced by this one.
    name_key = search.player_key(v["first_name"], v["last_name"], v["club"])
    for old in event.entries.filter(status=E.UNCONFIRMED, email__iexact=v["email"]):
        if search.player_key(old.first_name, old.last_name, old.club) == name_key:
            Entry.objects.filter(pk=old.pk).update(status=E.EXPIRED)
    entry = Entry(event=event, **v, round_messages=round_messages and bool(v["email"]),
                  consent=True, token=secrets.token_urlsafe(TOKEN_BYTES), base_url=base_url[:200],
                  match=match, player=player)
    if mail:
        entry.status = E.UNCONFIRMED
        entry.confirm_by = now + dt.timedelta(hours=settings.ENTRY_CONFIRM_HOURS)
    else:
        entry.status, entry.counted_at = E.PENDING, now
    entry.save()
    audit.record(actor=_entrant(entry), action="entry.create", target=entry, event=event,
                 event_pages=False, after=_trail(entry))
    if mail:
        messages.entry_message_queue(entry=entry, kind=K.ENTRY_CONFIRM)
    return entry


def _trail(entry: Entry) -> dict[str, Any]:
    # What the officials read of an entry: never the address, only whether there is one.
    return {"name": str(entry), "club": entry.club, "federation_id": entry.federation_id,
            "match": entry.match, "player": entry.player_id, "status": entry.status,
            "email_given": bool(entry.email)}


def open_by_token(token: str) -> Entry:
    """The entry of a token, with its event; NotFound for any other."""
    entry = None
    if token and len(token) <= 64:
        entry = Entry.objects.select_related("event", "registration").filter(token=token).first()
    if entry is None:
        raise NotFound(_("There is no entry with this link."), field="token", code="not_found")
    return entry


def is_expired(entry: Entry, now: dt.datetime | None = None) -> bool:
    return (entry.status == E.EXPIRED or entry.status == E.UNCONFIRMED
            and entry.confirm_by is not None and (now or timezone.now()) >= entry.confirm_by)


@transaction.atomic
def entry_confirm(*, token: str) -> Entry:
    """The entrant opened the link sent to his address and confirmed: the entry counts from
    now. It then takes a place (or its turn on the waiting list), or waits for the organiser
    where the event approves each entry or the registry could not tell who he is."""
    entry = open_by_token(token)
    # The event's row first, then the entry's, as every write of entries locks them.
    event = Event.objects.select_for_update().get(pk=entry.event_id)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != E.UNCONFIRMED:
        return entry  # confirmed before (a second click): nothing more to do
    if is_expired(entry):
        raise ServiceError(_("This link has expired: enter again, and confirm within %(hours)s "
                             "hours.") % {"hours": settings.ENTRY_CONFIRM_HOURS},
                           field="token", code="link_expired")
    refusal = lifecycle.online_entry_refusal(event, timezone.now())
    # An entry made before the deadline may be confirmed after it, within its link's hours
    # (docs/entries.md); a drawn round, a finished event or entries closed refuse it.
    if refusal is not None and refusal[0] != "deadline_passed":
        raise ServiceError(refusal[1], field="event", code=refusal[0])
    v = {f: getattr(entry, f) for f in PLAYER_IMPORT_COLUMNS}
    entry.match, entry.player = _match(v)
    _refuse_twice(event, v, entry.player, entry)
    entry.counted_at = timezone.now()
    before = entry.status
    if event.entry_approval or entry.match == Entry.Match.UNCERTAIN:
        entry.status = E.PENDING
        entry.save()
        messages.entry_message_queue(entry=entry, kind=K.ENTRY_RECEIVED)
    else:
        entry.save()
        _take_place(entry, event, actor=_entrant(entry))
    audit.record(actor=_entrant(entry), action="entry.confirm", target=entry, event=event,
                 event_pages=False, before={"status": before}, after=_trail(entry))
    return entry


def places_taken(event: Event) -> int:
    return sum(1 for status in event.registrations.values_list("status", flat=True)
               if lifecycle.taking_places(status))


def _take_place(entry: Entry, event: Event, *, actor: Any, moved_up: bool = False) -> Entry:
    """Give the counted entry a place if one is free (its registration made as the organiser's
    would be), else its turn on the waiting list. The caller holds the event row's lock."""
    if event.entry_cap is not None and places_taken(event) >= event.entry_cap:
        entry.status = E.WAITING
        entry.save(update_fields=["status", "match", "player", "counted_at", "decided_at",
                                  "decided_by"])
        messages.entry_message_queue(entry=entry, kind=K.ENTRY_WAITING)
        return entry
    player = entry.player
    if player is None:
        # A new player of the registry, kept by the event's organisers (rights: the registry's
        # owners) as if one of them had typed him in.
        player = player_create_for(
            event=event, actor=actor, first_name=entry.first_name, last_name=entry.last_name,
            club=entry.club, country=entry.country, federation_id=entry.federation_id)
    existing = event.registrations.filter(player=player).first()
    registration = existing or registrations.registration_insert(event=event, player=player,
                                                                 actor=actor)
    if entry.email and not registration.email:
        # The address he confirmed, for the messages he asked for; the language he entered in.
        Registration.objects.filter(pk=registration.pk).update(
            email=entry.email, round_messages=entry.round_messages,
            message_language=entry.language)
    entry.player, entry.registration, entry.status = player, registration, E.ACCEPTED
    entry.save()
    kind = K.ENTRY_MOVED_UP if moved_up else K.ENTRY_ACCEPTED
    messages.entry_message_queue(entry=entry, kind=kind)
    return entry


def _pending(entry: Entry, actor: Any, statuses: tuple[str, ...]) -> tuple[Entry, Event]:
    rights.require_organiser(actor, entry.event)
    event = Event.objects.select_for_update().get(pk=entry.event_id)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status not in statuses:
        raise ServiceError(_("This entry is no longer waiting for a decision (%(status)s).")
                           % {"status": entry.get_status_display()}, field="entry",
                           code="already_decided")
    return entry, event


@transaction.atomic
def entry_approve(*, entry: Entry, actor: Any, use_player: Player | None = None,
                  new_player: bool = False) -> Entry:
    """The organiser accepts a pending entry: it takes a place, or its turn on the waiting
    list when the event is full. Where the registry could not tell who the entrant is, the
    organiser names him (`use_player`, one of the registry's players he may see) or makes him a
    new player (`new_player`)."""
    entry, event = _pending(entry, actor, (E.PENDING,))
    before = entry.status
    if use_player is not None:
        if not rights.can_view_player(actor, use_player):
            raise NotFound(_("That player is no longer in the registry."), field="use_player",
                           code="not_found")
        entry.player, entry.match = use_player, Entry.Match.NAME
    elif new_player:
        entry.player, entry.match = None, Entry.Match.NEW
    else:
        entry.match, entry.player = _match({f: getattr(entry, f) for f in PLAYER_IMPORT_COLUMNS})
        if entry.match == Entry.Match.UNCERTAIN:
            raise ServiceError(_("The registry cannot tell who this is: choose the player or make "
                                 "a new one."), field="use_player", code="uncertain_player")
    if entry.player is not None and event.registrations.filter(player=entry.player).exists():
        raise ServiceError(_("%(player)s is already registered") % {"player": entry.player},
                           field="use_player", code="already_registered")
    entry.decided_at, entry.decided_by = timezone.now(), actor
    entry.counted_at = entry.counted_at or entry.decided_at
    _take_place(entry, event, actor=actor)
    audit.record(actor=actor, action="entry.approve", target=entry, event=event,
                 before={"status": before}, after=_trail(entry))
    return entry


@transaction.atomic
def entry_refuse(*, entry: Entry, actor: Any) -> Entry:
    """The organiser refuses an entry that waits for him or on the waiting list; the entrant
    is told."""
    entry, event = _pending(entry, actor, (E.PENDING, E.WAITING, E.UNCONFIRMED))
    before = entry.status
    entry.status, entry.decided_at, entry.decided_by = E.REFUSED, timezone.now(), actor
    entry.save(update_fields=["status", "decided_at", "decided_by"])
    if before != E.UNCONFIRMED:
        messages.entry_message_queue(entry=entry, kind=K.ENTRY_REFUSED)
    audit.record(actor=actor, action="entry.refuse", target=entry, event=event,
                 before={"status": before}, after=_trail(entry))
    return entry


@transaction.atomic
def entry_withdraw(*, token: str) -> Entry:
    """The entrant takes back an entry that has no place yet (through its own page). One
    with a place is withdrawn on the player's personal page, where the event allows it."""
    entry = open_by_token(token)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status not in (E.UNCONFIRMED, E.PENDING, E.WAITING):
        raise ServiceError(_("This entry cannot be withdrawn here (%(status)s).")
                           % {"status": entry.get_status_display()}, field="token",
                           code="not_withdrawable")
    before = entry.status
    entry.status = E.WITHDRAWN
    entry.save(update_fields=["status"])
    audit.record(actor=_entrant(entry), action="entry.withdraw", target=entry,
                 event=entry.event, event_pages=False, before={"status": before},
                 after=_trail(entry))
    return entry


def waiting_list_move_up(*, event: Event, actor: Any) -> list[Entry]:
    """Free places go to the waiting list, first come first served, until the first round
    is drawn (lifecycle.waiting_list_moves); each who moves up is told. Called in the
    transaction that freed the place (a withdrawal, a larger cap)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if not lifecycle.waiting_list_moves(event):
        return []
    moved = []
    for entry in event.entries.filter(status=E.WAITING).order_by("counted_at", "pk"):
        if event.entry_cap is not None and places_taken(event) >= event.entry_cap:
            break
        _take_place(entry, event, actor=actor, moved_up=True)
        audit.record(actor=actor, action="entry.moved_up", target=entry, event=event,
                     before={"status": E.WAITING}, after=_trail(entry))
        moved.append(entry)
    return moved


# ---------------------------------------------------------------------------------------
# What the player does himself, on his personal page
# ---------------------------------------------------------------------------------------

def _live_registration(link: PlayerLink) -> Registration:
    link = PlayerLink.objects.select_related("registration__event").get(pk=link.pk)
    if link.revoked_at is not None:
        raise ServiceError(_("This personal link was replaced."), field="token", code="link_replaced")
    if not rights.can_withdraw_self(link.registration.event):
        raise Forbidden(_("At this event, tell the organiser: players do not withdraw "
                          "themselves here."), field="token", code="not_allowed")
    audit.lock_event(link.registration.event)
    return Registration.objects.select_for_update().select_related("event", "player").get(
        pk=link.registration_id)


@transaction.atomic
def withdraw_self(*, link: PlayerLink) -> Registration:
    """The player withdraws from the event on his personal page: he is seated in no further
    round, and before the first round his place goes to the first of the waiting list."""
    registration = _live_registration(link)
    if registration.status == Registration.Status.WITHDRAWN:
        return registration
    return registrations.status_change(registration=registration,
                                       status=Registration.Status.WITHDRAWN,
                                       actor=audit.player_label(registration))


@transaction.atomic
def absent_self(*, link: PlayerLink, number: int, absent: bool) -> Registration:
    """The player says he sits out round `number` (not seated yet), or that he plays it after
    all, on his personal page."""
    registration = _live_registration(link)
    return absence_change(registration=registration, number=number, absent=absent,
                          actor=audit.player_label(registration))
