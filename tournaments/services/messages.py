"""Messages to players by e-mail (issue #31): "round 2: you sit at table 7, seat 3" when a
round is published, to each player who asked for it on his personal page, in the language he
asked in.

The mail goes through Django's mail framework from a background job (a Job of kind
`send_messages`, published when the round's publication commits): the publication never waits
for a mail server and never fails because of one. Each message is a `Message` row, unique by
its registration, kind and key (the round and its seating version), so that a player is told
once, however often the job runs; a send that fails is tried again (`SEND_ATTEMPTS` times with
a pause between, then the job fails with the count and a run of the same job, asked again or
requeued, tries the failed ones once more).

Without a mail server (the embedded default: no EMAIL_URL) nothing is queued or sent, and the
pages say so; the personal links work the same. Each message kind can be turned off per event
(`Event.round_messages`).
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.errors import ServiceError
from tournaments.models import Job, Message, PlayerLink, Registration, Round, Seat
from tournaments.runtime import jobs
from tournaments.services import audit
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
    key = f"round:{rnd.pk}:v{rnd.seating_version}"
    Message.objects.bulk_create(
        [Message(registration_id=pk, kind=Message.Kind.ROUND_TABLE, key=key) for pk in wanted],
        ignore_conflicts=True)
    job, created = jobs.find_or_create(
        f"{MESSAGES_JOB}:{key}", kind=MESSAGES_JOB, event=event, total=len(wanted),
        result={"kind": Message.Kind.ROUND_TABLE, "key": key, "round_id": rnd.pk})
    if created:
        jobs.queue(job)
    return job


def messages_job_of(rnd: Round) -> Job | None:
    """The newest job that sent the e-mails of the round's publication, if any."""
    return (Job.objects.filter(kind=MESSAGES_JOB, result__round_id=rnd.pk)
            .order_by("-created_at").first())


# ---------------------------------------------------------------------------------------
# Sending (the job's task)
# ---------------------------------------------------------------------------------------

def _language(registration: Registration) -> str:
    return registration.message_language or registration.event.language or "en"


def _personal_url(registration: Registration) -> str:
    """The player's page, where the server knows its own address (settings.SITE_URL)."""
    base = getattr(settings, "SITE_URL", "")
    link = PlayerLink.objects.filter(registration=registration, revoked_at__isnull=True).first()
    return f"{base.rstrip('/')}/p/{link.token}/" if base and link else ""


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
        url = _personal_url(registration)
        if url:
            lines.append(_("Your page, with the button that opens your table: %(url)s") % {"url": url})
        lines.append(_("You get this message because you asked for it on your page; you can turn "
                       "it off there."))
    return EmailMessage(subject=subject, body="\n\n".join(lines), to=[registration.email])


def _deliver(message: Message, pause: float) -> str:
    """Send the message, trying SEND_ATTEMPTS times; the last error, or "" once it went."""
    error = ""
    for attempt in range(SEND_ATTEMPTS):
        if attempt and pause:
            time.sleep(pause * attempt)
        try:
            round_table_mail(message).send(fail_silently=False)
        except Exception as exc:  # any failure of the mail server is this message's, not the job's
            error = f"{type(exc).__name__}: {exc}"[:300]
            logger.warning("message %s to registration %s not sent: %s", message.pk,
                           message.registration_id, error)
        else:
            return ""
    return error


def messages_send(job_id: int) -> Job:
    """Run a messages job (called by the Celery task): send each of its messages that is
    waiting or failed before. Safe to run again: a message sent is never sent twice, as each
    is claimed by a conditional update before it goes."""
    job = Job.objects.get(pk=job_id)
    data = job.result if isinstance(job.result, dict) else {}
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, attempts=F("attempts") + 1,
                                         updated_at=timezone.now())
    # A worker retries with a pause; the embedded default sends in the request, at once.
    pause = 0.0 if jobs.runs_eagerly() else 1.0
    pending = (Message.objects.filter(kind=data.get("kind"), key=data.get("key"),
                                      status__in=(Message.Status.QUEUED, Message.Status.FAILED))
               .select_related("registration__event", "registration__player"))
    for message in pending:
        if not Message.objects.filter(pk=message.pk, status=message.status,
                                      attempts=message.attempts).update(attempts=F("attempts") + 1):
            continue  # another run of the job took it
        error = _deliver(message, pause)
        Message.objects.filter(pk=message.pk).update(
            status=Message.Status.FAILED if error else Message.Status.SENT, error=error,
            sent_at=None if error else timezone.now())
        Job.objects.filter(pk=job.pk).update(progress=F("progress") + (0 if error else 1),
                                             updated_at=timezone.now())
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


# ---------------------------------------------------------------------------------------
# The player's choice, on his personal page
# ---------------------------------------------------------------------------------------

@transaction.atomic
def messages_choose(*, link: PlayerLink, email: str, round_messages: bool, language: str) -> Registration:
    """The player, through his live personal link, gives the address and the messages he
    wants (and the language he wants them in). An address is needed to ask for a message;
    without one, none is sent. The address itself stays out of the audit trail."""
    link = PlayerLink.objects.select_related("registration").get(pk=link.pk)
    if link.revoked_at is not None:
        raise ServiceError(_("This personal link was replaced."), field="token", code="link_replaced")
    registration = Registration.objects.select_for_update().get(pk=link.registration_id)
    email = (email or "").strip()
    if round_messages and not email:
        raise ServiceError(_("Give an e-mail address to get messages."), field="email",
                           code="email_required")
    if language not in {code for code, _name in settings.LANGUAGES}:
        language = ""
    # Whether an address is given, never the address (the trail is read by the officials).
    before = {"email_given": bool(registration.email), "table_messages": registration.round_messages}
    registration.email, registration.round_messages = email, round_messages
    registration.message_language = language
    full_clean(registration, exclude=["event", "player"])
    registration.save(update_fields=["email", "round_messages", "message_language"])
    audit.record(actor=_holder(registration), action="registration.messages", target=registration,
                 event=registration.event, event_pages=False, before=before,
                 after={"email_given": bool(email), "table_messages": round_messages})
    return registration


def _holder(registration: Registration) -> str:
    # Who changed it, for the audit trail: the player himself, named as a table link names a
    # seat (the personal link is his alone).
    return f"#{registration.start_number} {registration.player}"[:200]
