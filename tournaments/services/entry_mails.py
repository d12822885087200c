"""The e-mails of an online entry (issue #31, docs/entries.md), written in the language the
entrant chose: the link that confirms his address, then each step of his entry (received,
a place, the waiting list, moved up, refused). Sent as every player message is
(tournaments.services.messages); this module says what each holds and whether it is still
wanted when its turn comes.

The links they carry are built on the address of the server the entry was made on
(`Entry.base_url`): the job that sends them has no request. A place's message carries the
player's personal link: the address it goes to was confirmed by the entrant himself.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from tournaments.models import Entry, Message, PlayerLink

K = Message.Kind
ENTRY_KINDS = frozenset({K.ENTRY_CONFIRM, K.ENTRY_RECEIVED, K.ENTRY_ACCEPTED, K.ENTRY_WAITING,
                         K.ENTRY_MOVED_UP, K.ENTRY_REFUSED})


def wants(message: Message) -> bool:
    """The confirmation link only while the entry waits for it; the others while the event
    sends entry messages."""
    entry = message.entry
    if not entry.email:
        return False
    if message.kind == K.ENTRY_CONFIRM:
        return entry.status == Entry.Status.UNCONFIRMED
    return entry.event.entry_messages


def _params(entry: Entry) -> dict:
    registration = entry.registration
    return {"event": entry.event.name, "name": str(entry),
            "number": registration.start_number if registration else "",
            "hours": settings.ENTRY_CONFIRM_HOURS,
            "page": _url(entry, reverse("entry-page", args=[entry.event.slug, entry.token]))}


def _url(entry: Entry, path: str) -> str:
    return entry.base_url.rstrip("/") + path


def _personal_link(entry: Entry) -> str:
    link = (PlayerLink.objects.filter(registration_id=entry.registration_id, revoked_at__isnull=True)
            .values_list("token", flat=True).first())
    return _url(entry, reverse("player-link", args=[link])) if link else ""


def _waiting_place(entry: Entry) -> int:
    return entry.event.entries.filter(status=Entry.Status.WAITING,
                                      counted_at__lt=entry.counted_at).count() + 1


def _body(message: Message, entry: Entry, p: dict) -> tuple[str, list[str]]:
    kind = message.kind
    if kind == K.ENTRY_CONFIRM:
        return (_("%(event)s: confirm your entry") % p, [
            _("You entered %(event)s as %(name)s.") % p,
            _("Open this link and confirm within %(hours)s hours; until then the entry does not "
              "count:") % p, p["page"],
            _("If you did not enter, ignore this message: the entry then lapses.")])
    if kind == K.ENTRY_RECEIVED:
        return (_("%(event)s: your entry is received") % p, [
            _("Your entry to %(event)s is received. The organiser decides on it, and you get a "
              "message when he has.") % p, _("Your entry's page:"), p["page"]])
    if kind == K.ENTRY_WAITING:
        p = {**p, "place": _waiting_place(entry)}
        return (_("%(event)s: you are on the waiting list") % p, [
            _("%(event)s is full: you are number %(place)s on its waiting list. When a place "
              "becomes free it goes to the first of the list, and you get a message.") % p,
            _("Your entry's page:"), p["page"]])
    if kind == K.ENTRY_REFUSED:
        return (_("%(event)s: your entry was not accepted") % p, [
            _("The organiser of %(event)s did not accept your entry. If you think this is a "
              "mistake, ask him.") % p])
    if kind == K.ENTRY_MOVED_UP:
        subject = _("%(event)s: a place became free, and it is yours") % p
        first = _("A place became free in %(event)s and it is yours: start number %(number)s.") % p
    else:
        subject = _("%(event)s: you have a place") % p
        first = _("You have a place in %(event)s: start number %(number)s.") % p
    lines = [first]
    link = _personal_link(entry)
    if link:
        lines += [_("Your own page for the event, with your table in each round, your results "
                    "and your place (keep it to yourself):"), link]
    return subject, lines


def entry_mail(message: Message) -> EmailMessage:
    """The e-mail of one of an entry's messages, in the entrant's language."""
    entry = Entry.objects.select_related("event", "registration").get(pk=message.entry_id)
    with translation.override(entry.language or entry.event.language or "en"):
        subject, lines = _body(message, entry, _params(entry))
    return EmailMessage(subject=" ".join(subject.split()), body="\n\n".join(lines), to=[entry.email])


MAILS = dict.fromkeys(ENTRY_KINDS, entry_mail)
