"""Messages to players by e-mail (issue #31): "round 2: you sit at table 7, seat 3" when a
round is published, and "the card of your table was corrected" when an official changes a card
that counts, to each player who asked for it on his personal page, in the language he asked in.

The mail goes through Django's mail framework from a background job (a Job of kind
`send_messages`, published when the round's publication commits): the publication never waits
for a mail server and never fails because of one. Each message is a `Message` row, unique by
its registration, kind and key (the round and its seating version), so that a player is told
once, however often the job runs (an online entry's messages, tournaments.services.entry_mails,
are rows of the same kind, to the entry's address); a send that fails is tried again (`SEND_ATTEMPTS` times with
a pause between, then the job fails with the count and a run of the same job, asked again or
requeued, tries the failed ones once more).

Without a mail server (the embedded default: no EMAIL_URL) nothing is queued or sent, and the
pages say so; the personal links work the same. Each message kind can be turned off per event
(`Event.round_messages`, `Event.correction_messages`).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.errors import ServiceError
from tournaments.models import (
    Entry,
    Event,
    Job,
    Message,
    PlayerLink,
    Registration,
    Round,
    Scorecard,
    Seat,
)
from tournaments.runtime import jobs
from tournaments.services import audit, entry_mails
from tournaments.services.validation import full_clean

logger = logging.getLogger(__name__)

MESSAGES_JOB = "send_messages"
SEND_ATTEMPTS = 3


def mail_configured() -> bool:
    """Whether this server has a mail server to send through (settings.EMAIL_URL)."""
    return bool(getattr(settings, "EMAIL_CONFIGURED", False))


def round_messages_queue(*, rnd: Round) -> Job | None:
    """Called when the round is published (in its transaction): a message to every player
    seated in it who asked for his table by e-mail, sent by a job once the publication commits.
    None when there is nobody to tell, no mail server, or the event turned the kind off."""
    event = rnd.event
    if not mail_configured() or not event.round_messages:
        return None
    wanted = list(Registration.objects.filter(seats__round=rnd, round_messages=True)
                  .exclude(email="").values_list("pk", flat=True))
    if not wanted:
        return None
    return _queue(Message.Kind.ROUND_TABLE, f"round:{rnd.pk}:v{rnd.seating_version}", wanted,
                  event, rnd.pk)


def messages_job_of(rnd: Round) -> Job | None:
    """The newest job that sent the e-mails of the round's publication, if any."""
    return (Job.objects.filter(kind=MESSAGES_JOB, result__round_id=rnd.pk)
            .order_by("-created_at").first())


# A referee who corrects a card often changes several hands in a row: its players are told
# once per card in this many seconds (the message says the card changed, not how).
CORRECTION_WINDOW_SECONDS = 600


def card_messages_queue(*, card: Scorecard) -> Job | None:
    """Called when an official's correction changes a card that counts (or annuls it), in its
    transaction: a message to each of the card's players who asked to be told, sent by a job
    once the correction commits. None when there is nobody to tell, no mail server, or the
    event turned the kind off."""
    event = card.table.round.event
    if not mail_configured() or not event.correction_messages:
        return None
    wanted = list(Registration.objects.filter(
        event=event, start_number__in=[int(p) for p in card.player_ids], correction_messages=True)
        .exclude(email="").values_list("pk", flat=True))
    if not wanted:
        return None
    window = int(timezone.now().timestamp()) // CORRECTION_WINDOW_SECONDS
    key = f"card:{card.pk}:w{window}"
    return _queue(Message.Kind.CARD_CORRECTED, key, wanted, event, card.table.round_id)


def _queue(kind: str, key: str, registration_ids: list[int], event: Event, round_id: int) -> Job:
    """The messages of one kind and key to these registrations (each once, whoever asks
    again), and the job that sends them after the commit."""
    Message.objects.bulk_create(
        [Message(registration_id=pk, kind=kind, key=key) for pk in registration_ids],
        ignore_conflicts=True)
    job, created = jobs.find_or_create(
        f"{MESSAGES_JOB}:{key}", kind=MESSAGES_JOB, event=event, total=len(registration_ids),
        result={"kind": kind, "key": key, "round_id": round_id})
    if created:
        jobs.queue(job)
    return job


def entry_message_queue(*, entry: Entry, kind: str) -> Job | None:
    """Called in the transaction that changed an online entry (tournaments.services.entries):
    the message of that change to the entrant's address, sent by a job once it commits. The
    link that confirms the address is always sent; the others where the event sends them."""
    if not mail_configured() or not entry.email:
        return None
    if kind != Message.Kind.ENTRY_CONFIRM and not entry.event.entry_messages:
        return None
    key = f"entry:{entry.pk}"
    Message.objects.bulk_create([Message(entry=entry, kind=kind, key=key)], ignore_conflicts=True)
    job, created = jobs.find_or_create(
        f"{MESSAGES_JOB}:{kind}:{key}", kind=MESSAGES_JOB, event=entry.event, total=1,
        result={"kind": kind, "key": key, "round_id": None})
    if created:
        jobs.queue(job)
    return job


# ---------------------------------------------------------------------------------------
# Sending (the job's task)
# ---------------------------------------------------------------------------------------

def _language(registration: Registration) -> str:
    return registration.message_language or registration.event.language or "en"


def _mail(subject: str, lines: list[str], to: Registration | Entry) -> EmailMessage:
    # One line, whatever the event's name holds: a header with a line break is refused.
    return EmailMessage(subject=" ".join(subject.split()), body="\n\n".join(lines),
                        to=[to.email])


def wants(message: Message) -> bool:
    """Whether the player still asks for this message, and his event still sends its kind:
    asked when it is queued and again when it is sent (he may have changed his mind between)."""
    if message.entry_id is not None:
        return entry_mails.wants(message)
    registration, event = message.registration, message.registration.event
    if not registration.email:
        return False
    if message.kind == Message.Kind.ROUND_TABLE:
        return registration.round_messages and event.round_messages
    return registration.correction_messages and event.correction_messages


def round_table_mail(message: Message) -> EmailMessage:
    """The e-mail of a ROUND_TABLE message, in the player's language."""
    registration = message.registration
    event = registration.event
    round_id = int(message.key.split(":")[1])
    seat = Seat.objects.select_related("table", "round").get(round_id=round_id, registration=registration)
    params = {"event": event.name, "round": seat.round.number, "table": seat.table.number,
              "seat": seat.position + 1}
    with translation.override(_language(registration)):
        subject = _("%(event)s, round %(round)s: table %(table)s") % params
        lines = [_("Round %(round)s of %(event)s is published: you sit at table %(table)s, "
                   "seat %(seat)s.") % params]
        # No link to his page: the address is his word, never confirmed, and a mistyped one
        # must not receive the key to his page.
        lines.append(_("You get this message because you asked for it on your page; you can turn "
                       "it off there."))
    return _mail(subject, lines, registration)


def card_corrected_mail(message: Message) -> EmailMessage:
    """The e-mail of a CARD_CORRECTED message, in the player's language."""
    registration = message.registration
    event = registration.event
    card = Scorecard.objects.select_related("table__round").get(pk=int(message.key.split(":")[1]))
    params = {"event": event.name, "round": card.table.round.number, "table": card.table.number}
    with translation.override(_language(registration)):
        subject = _("%(event)s, round %(round)s: the card of table %(table)s was corrected") % params
        lines = [_("A referee corrected the card of your table %(table)s in round %(round)s of "
                   "%(event)s.") % params]
        lines.append(_("Your results and your place as they are now are on your page."))
        lines.append(_("You get this message because you asked for it on your page; you can turn "
                       "it off there."))
    return _mail(subject, lines, registration)


MAILS = {Message.Kind.ROUND_TABLE: round_table_mail, Message.Kind.CARD_CORRECTED: card_corrected_mail,
         **entry_mails.MAILS}


def _deliver(message: Message, connection: Any, pause: float) -> str:
    """Send the message, trying SEND_ATTEMPTS times; the last error, or "" once it went."""
    error = ""
    for attempt in range(SEND_ATTEMPTS):
        if attempt and pause:
            time.sleep(pause * attempt)
        try:
            mail = MAILS[message.kind](message)
            mail.connection = connection
            if mail.send(fail_silently=False):
                return ""
            error = "the mail server took no message"
        except Exception as exc:  # any failure of the mail server is this message's, not the job's
            error = f"{type(exc).__name__}: {exc}"[:300]
        logger.warning("message %s to registration %s (entry %s) not sent: %s", message.pk,
                       message.registration_id, message.entry_id, error)
    return error


def _settle(job: Job, data: dict) -> Job:
    """The job's end: done when every message of it went (or is no longer wanted), failed with
    the count when some did not (Try again sends those)."""
    all_of_job = Message.objects.filter(kind=data.get("kind"), key=data.get("key"))
    failed = all_of_job.filter(status=Message.Status.FAILED).count()
    sent = all_of_job.filter(status=Message.Status.SENT).count()
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.FAILED if failed else Job.Status.DONE, progress=sent,
        updated_at=timezone.now(),
        **jobs.stage_fields(job.pk, "messages_failed" if failed else "messages_done",
                            sent=sent, failed=failed))
    job.refresh_from_db()
    return job


def _claim(message: Message) -> bool:
    """Take the message for this run: of two runs of the job (a retry, a job queued again
    while a slow worker still sends), one sends it."""
    return bool(Message.objects.filter(pk=message.pk, status=message.status).update(
        status=Message.Status.SENDING, attempts=F("attempts") + 1))


def messages_send(job_id: int) -> Job:
    """Run a messages job (called by the Celery task): send each of its messages that is
    waiting or failed before, over one connection to the mail server.

    A message is claimed (SENDING) before it goes and is never sent again by another run: a
    run that dies while sending leaves it SENDING, neither failed nor sent (it may have gone),
    rather than risk telling the player twice. A message the player no longer asks for (he
    unticked it or cleared his address since) is not sent. A mail server that cannot be
    reached fails the run's messages at once, with its error, instead of trying each."""
    job = Job.objects.get(pk=job_id)
    data = job.result if isinstance(job.result, dict) else {}
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, attempts=F("attempts") + 1,
                                         updated_at=timezone.now())
    # A worker retries with a pause; the embedded default sends in the request, at once.
    pause = 0.0 if jobs.runs_eagerly() else 1.0
    pending = list(Message.objects.filter(kind=data.get("kind"), key=data.get("key"),
                                          status__in=(Message.Status.QUEUED, Message.Status.FAILED))
                   .select_related("registration__event", "registration__player", "entry__event"))
    for message in [m for m in pending if not wants(m)]:
        Message.objects.filter(pk=message.pk, status=message.status).update(
            status=Message.Status.WITHDRAWN)
    pending = [m for m in pending if wants(m)]
    if not pending:
        return _settle(job, data)
    connection = get_connection(fail_silently=False)
    try:
        connection.open()
    except Exception as exc:  # the mail server is away: every message waits for Try again
        error = f"{type(exc).__name__}: {exc}"[:300]
        logger.warning("mail server unavailable for job %s: %s", job.pk, error)
        Message.objects.filter(pk__in=[m.pk for m in pending]).update(
            status=Message.Status.FAILED, error=error, attempts=F("attempts") + 1)
        return _settle(job, data)
    try:
        for message in pending:
            if not _claim(message):
                continue
            error = _deliver(message, connection, pause)
            Message.objects.filter(pk=message.pk).update(
                status=Message.Status.FAILED if error else Message.Status.SENT, error=error,
                sent_at=None if error else timezone.now())
            Job.objects.filter(pk=job.pk).update(progress=F("progress") + (0 if error else 1),
                                                 updated_at=timezone.now())
    finally:
        connection.close()
    return _settle(job, data)


# ---------------------------------------------------------------------------------------
# The player's choice, on his personal page
# ---------------------------------------------------------------------------------------

@transaction.atomic
def messages_choose(*, link: PlayerLink, email: str, round_messages: bool, language: str,
                    correction_messages: bool = False, forget: bool = False) -> Registration:
    """The player, through his live personal link, gives the address and the messages he
    wants (and the language he wants them in). An address is needed to ask for a message;
    without one, none is sent. An empty address keeps the one saved (the page never shows it
    back), `forget` removes it. The address itself stays out of the audit trail."""
    link = PlayerLink.objects.select_related("registration").get(pk=link.pk)
    if link.revoked_at is not None:
        raise ServiceError(_("This personal link was replaced."), field="token", code="link_replaced")
    audit.lock_event(link.registration.event)
    registration = Registration.objects.select_for_update().get(pk=link.registration_id)
    email = "" if forget else ((email or "").strip() or registration.email)
    if (round_messages or correction_messages) and not email:
        raise ServiceError(_("Give an e-mail address to get messages."), field="email",
                           code="email_required")
    if language not in {code for code, _name in settings.LANGUAGES}:
        language = ""
    # Whether an address is given, never the address (the trail is read by the officials).
    before = {"email_given": bool(registration.email), "table_messages": registration.round_messages,
              "correction_messages_wanted": registration.correction_messages}
    registration.email, registration.round_messages = email, round_messages
    registration.correction_messages = correction_messages
    registration.message_language = language
    full_clean(registration, exclude=["event", "player"])
    registration.save(update_fields=["email", "round_messages", "correction_messages",
                                     "message_language"])
    audit.record(actor=audit.player_label(registration), action="registration.messages", target=registration,
                 event=registration.event, event_pages=False, before=before,
                 after={"email_given": bool(email), "table_messages": round_messages,
                        "correction_messages_wanted": correction_messages})
    return registration


def masked(address: str) -> str:
    """A saved address as its page shows it: enough for its owner to recognise it, not enough
    for anyone else to write to it ("a•••@example.org")."""
    if not address or "@" not in address:
        return ""
    local, domain = address.rsplit("@", 1)
    return f"{local[:1]}•••@{domain}"
