"""E-mails to players (issue #31), read as a mail server gets them: a real SMTP server
(aiosmtpd) runs in the test process and Django's SMTP backend talks to it.

When a round is published, each player who asked for it on his personal page gets one e-mail
naming his table and seat, in the language he asked in, with his page's link; nobody else gets
one. A mail server that is down never holds up the publication, the failed messages are kept
and sent once it is back, none twice. Without a mail server, or with the event's messages
turned off, nothing is queued. The address is the player's own choice, refused at its field
when it is no address, and shown on no public page."""

from __future__ import annotations

import pytest
from aiosmtpd.controller import Controller
from django.test import Client

from tests.mailbox import Inbox, free_port, point_django_at
from tests.tournaments.pages.support import client_for, make_event, make_user, play_table
from tournaments import services
from tournaments.models import AuditEntry, Event, Job, Message, PlayerLink, Registration, TableLink
from tournaments.services import messages, player_links, round_jobs

pytestmark = pytest.mark.django_db


@pytest.fixture
def day():
    organiser = make_user("boss")
    event = make_event(organiser, slug="open", players=8)
    return {"event": event, "organiser": organiser}


def _link(event, start_number: int) -> PlayerLink:
    return PlayerLink.objects.get(registration__event=event, registration__start_number=start_number,
                                  revoked_at__isnull=True)


def _choose(event, start_number: int, address: str, language: str, wanted: bool = True):
    return messages.messages_choose(link=_link(event, start_number), email=address,
                                    round_messages=wanted, language=language)


def _publish(event, organiser, capture, tables=(("1", "2", "3", "4"), ("5", "6", "7", "8"))):
    rnd = services.round_store(event=event, number=1, seating_system="points", seed=1,
                               tables=[list(t) for t in tables], actor=organiser)
    with capture(execute=True):
        services.round_publish(rnd=rnd, actor=organiser)
    return rnd


def _body(mail) -> str:
    return mail.get_body(preferencelist=("plain",)).get_content()


def test_each_player_who_asked_gets_his_table_in_his_language_once(
        smtp, day, django_capture_on_commit_callbacks):
    event, organiser = day["event"], day["organiser"]
    _choose(event, 2, "ana2@example.org", "sl")
    _choose(event, 6, "ana6@example.org", "de")
    _choose(event, 7, "ana7@example.org", "cs")
    _choose(event, 3, "ana3@example.org", "en", wanted=False)  # an address, but no message asked
    rnd = _publish(event, organiser, django_capture_on_commit_callbacks,
                   tables=(("1", "2", "3", "4"), ("5", "8", "6", "7")))

    assert sorted(m["To"] for m in smtp.mails) == ["ana2@example.org", "ana6@example.org",
                                                   "ana7@example.org"]
    sl, de, cs = (smtp.to(a)[0] for a in ("ana2@example.org", "ana6@example.org", "ana7@example.org"))
    assert "je objavljen: sedite za mizo 1, na mestu 2." in _body(sl)
    assert "Sie sitzen an Tisch 2, Platz 3." in _body(de)
    assert "je zveřejněno: sedíte u stolu 2, na místě 4." in _body(cs)
    assert sl["From"] == "turnir@example.org" and "Event open" in sl["Subject"]
    # No link to his page: the address is his word, never confirmed (a mistyped one must not
    # receive the key to his page).
    assert _link(event, 2).token not in _body(sl) and "/p/" not in _body(sl)
    job = Job.objects.get(kind=messages.MESSAGES_JOB)
    assert job.status == Job.Status.DONE and job.progress == 3
    assert set(Message.objects.values_list("status", flat=True)) == {Message.Status.SENT}

    # Run again (a retry, a second worker): nobody is told twice.
    messages.messages_send(job.pk)
    assert len(smtp.mails) == 3
    rnd.refresh_from_db()
    assert rnd.status == rnd.Status.PUBLISHED


def test_a_mail_server_that_is_down_never_holds_up_the_round_and_is_caught_up_once(
        settings, day, django_capture_on_commit_callbacks):
    event, organiser = day["event"], day["organiser"]
    port = free_port()
    point_django_at(settings, port)  # nobody listens there yet
    _choose(event, 2, "ana2@example.org", "en")
    _choose(event, 5, "ana5@example.org", "en")
    rnd = _publish(event, organiser, django_capture_on_commit_callbacks)
    rnd.refresh_from_db()
    assert rnd.status == rnd.Status.PUBLISHED
    job = Job.objects.get(kind=messages.MESSAGES_JOB)
    assert job.status == Job.Status.FAILED
    assert "2 messages could not be sent" in job.message
    failed = Message.objects.get(registration__start_number=2)
    assert failed.status == Message.Status.FAILED and failed.error and failed.attempts == 1

    # The round's page says so and links the job, whose page sends the failed ones again.
    organiser_client = client_for(organiser)
    round_page = organiser_client.get(f"/manage/e/{event.slug}/rounds/1/").content.decode()
    assert f"/manage/e/{event.slug}/jobs/{job.pk}/" in round_page
    assert "2 messages could not be sent" in round_page
    job_page = organiser_client.get(f"/manage/e/{event.slug}/jobs/{job.pk}/").content.decode()
    assert "E-mails of round 1" in job_page and "Try again" in job_page

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert organiser_client.post(f"/manage/e/{event.slug}/jobs/{job.pk}/retry/").status_code == 302
        messages.messages_send(job.pk)  # and once more, as a late duplicate of the task
    finally:
        controller.stop()
    assert sorted(m["To"] for m in inbox.mails) == ["ana2@example.org", "ana5@example.org"]
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and "2 messages sent" in job.message


def test_without_a_mail_server_or_with_the_kind_off_nothing_is_queued(
        settings, smtp, day, django_capture_on_commit_callbacks):
    event, organiser = day["event"], day["organiser"]
    _choose(event, 2, "ana2@example.org", "en")
    event.round_messages = False
    event.save(update_fields=["round_messages"])
    rnd = _publish(event, organiser, django_capture_on_commit_callbacks)
    assert not Message.objects.exists() and not smtp.mails

    settings.EMAIL_CONFIGURED = False
    event.round_messages = True
    event.save(update_fields=["round_messages"])
    assert messages.round_messages_queue(rnd=rnd) is None
    assert not Message.objects.exists()
    page = Client().get(f"/p/{_link(event, 2).token}/").content.decode()
    assert "This server sends no e-mail." in page and 'name="email"' not in page


def test_the_player_chooses_on_his_page_refused_at_the_field_and_the_address_shown_nowhere(
        smtp, day):
    event, organiser = day["event"], day["organiser"]
    token = _link(event, 4).token
    phone = Client()
    page = phone.get(f"/p/{token}/").content.decode()
    assert 'name="email"' in page and 'name="round_messages"' in page

    bad = phone.post(f"/p/{token}/messages/", {"email": "not an address", "round_messages": "on",
                                               "language": "sl"})
    assert bad.status_code == 400 and 'id="err-email"' in bad.content.decode()
    missing = phone.post(f"/p/{token}/messages/", {"email": "", "round_messages": "on", "language": "en"})
    assert missing.status_code == 400 and "Give an e-mail address to get messages." in missing.content.decode()
    registration = Registration.objects.get(event=event, start_number=4)
    assert registration.email == "" and not registration.round_messages

    done = phone.post(f"/p/{token}/messages/", {"email": "secret.player@example.org",
                                                "round_messages": "on", "language": "de"})
    assert done.status_code == 302
    registration.refresh_from_db()
    assert (registration.email, registration.round_messages, registration.message_language) == \
        ("secret.player@example.org", True, "de")
    entry = AuditEntry.objects.get(action="registration.messages")
    assert entry.actor_label == f"#4 {registration.player}"
    assert "secret.player" not in str(entry.before) + str(entry.after)

    address = "secret.player@example.org"
    for path in (f"/e/{event.slug}/", f"/e/{event.slug}/standings/", f"/e/{event.slug}/standings.csv",
                 f"/players/{registration.player_id}/", f"/api/v1/events/{event.slug}/registrations/",
                 f"/api/v1/events/{event.slug}/standings/"):
        response = Client().get(path)
        assert address not in response.content.decode("utf-8", "replace"), path
    # The organiser's own pages do not show it either: it is the player's, for his messages.
    for path in (f"/manage/e/{event.slug}/players/", f"/manage/e/{event.slug}/audit/"):
        assert address not in client_for(organiser).get(path).content.decode()

    # Not on the personal page either, which its organiser may open: masked, kept when the
    # field is left empty, removed on request.
    page = client_for(organiser).get(f"/p/{token}/").content.decode()
    assert address not in page and "s•••@example.org" in page
    phone.post(f"/p/{token}/messages/", {"email": "", "round_messages": "on", "language": "de"})
    registration.refresh_from_db()
    assert registration.email == address and registration.round_messages
    phone.post(f"/p/{token}/messages/", {"email": "", "forget": "on", "language": "de"})
    registration.refresh_from_db()
    assert registration.email == "" and not registration.round_messages

    player_links.link_reissue(registration=registration, actor=organiser)
    assert phone.post(f"/p/{token}/messages/", {"email": "x@example.org", "language": "en"}).status_code == 404


def test_a_seated_draft_tells_nobody_its_publication_does(smtp, day, django_capture_on_commit_callbacks):
    event, organiser = day["event"], day["organiser"]
    _choose(event, 1, "ana1@example.org", "en")
    with django_capture_on_commit_callbacks(execute=True):
        job = round_jobs.round_generation_queue(event=event, actor=organiser)
    job.refresh_from_db()
    assert not smtp.mails
    rnd = event.rounds.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(rnd=rnd, actor=organiser)
    table = TableLink.objects.get(table__seats__registration__start_number=1, table__round=rnd).table
    assert f"you sit at table {table.number}" in _body(smtp.to("ana1@example.org")[0])


def test_players_who_asked_are_told_once_when_a_referee_corrects_their_card(
        smtp, day, django_capture_on_commit_callbacks):
    event, organiser = day["event"], day["organiser"]
    messages.messages_choose(link=_link(event, 2), email="ana2@example.org", round_messages=False,
                             correction_messages=True, language="sl")
    messages.messages_choose(link=_link(event, 3), email="ana3@example.org", round_messages=True,
                             language="en")  # a table by e-mail, but no corrections
    messages.messages_choose(link=_link(event, 6), email="ana6@example.org", round_messages=False,
                             correction_messages=True, language="de")  # another table
    rnd = _publish(event, organiser, django_capture_on_commit_callbacks)
    smtp.mails.clear()
    table = rnd.tables.get(number=1)
    # The table types and confirms its card: no correction, nobody is told.
    referee = make_user("ref")
    event.referees.add(referee)
    with django_capture_on_commit_callbacks(execute=True):
        card = play_table(table, organiser, referee, hands=4)
    assert not smtp.mails

    # The referee corrects two hands of the confirmed card: ana2 is told once, in Slovenian.
    for number in (1, 2):
        card.refresh_from_db()
        record = dict(card.hands.get(number=number).record)
        with django_capture_on_commit_callbacks(execute=True):
            services.hand_save(scorecard=card, number=number, record=record, actor=organiser,
                               expected_version=card.version, reason="wrong declarer")
    assert [m["To"] for m in smtp.mails] == ["ana2@example.org"]
    body = _body(smtp.mails[0])
    assert "Sodnik je popravil listo vaše mize 1 v 1. krogu turnirja Event open." in body
    assert "/p/" not in body
    assert Message.objects.filter(kind=Message.Kind.CARD_CORRECTED).count() == 1

    # The event turned them off: the next correction tells nobody.
    event.correction_messages = False
    event.save(update_fields=["correction_messages"])
    Message.objects.all().delete()
    card.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        services.scorecard_annul(scorecard=card, actor=organiser, reason="wrong table")
    assert len(smtp.mails) == 1


def test_a_player_who_changed_his_mind_is_not_told_and_a_reissue_ends_the_old_holders_address(
        settings, day, django_capture_on_commit_callbacks):
    event, organiser = day["event"], day["organiser"]
    port = free_port()
    point_django_at(settings, port)  # down at first
    _choose(event, 2, "ana2@example.org", "en")
    _choose(event, 5, "thief@example.org", "en")
    _publish(event, organiser, django_capture_on_commit_callbacks)
    job = Job.objects.get(kind=messages.MESSAGES_JOB)
    assert job.status == Job.Status.FAILED
    # Player 2 unticks the box; player 5's link was stolen, and the organiser reissues it.
    _choose(event, 2, "ana2@example.org", "en", wanted=False)
    player_links.link_reissue(registration=_link(event, 5).registration, actor=organiser)
    registration = Registration.objects.get(event=event, start_number=5)
    assert (registration.email, registration.round_messages) == ("", False)

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        messages.messages_send(job.pk)
    finally:
        controller.stop()
    assert inbox.mails == []
    assert set(Message.objects.values_list("status", flat=True)) == {Message.Status.WITHDRAWN}
    job.refresh_from_db()
    assert job.status == Job.Status.DONE


def test_a_line_break_in_the_events_name_never_breaks_the_mail(smtp, day, django_capture_on_commit_callbacks):
    event, organiser = day["event"], day["organiser"]
    Event.objects.filter(pk=event.pk).update(name="Open\nBcc: everybody@example.org")
    event.refresh_from_db()
    _choose(event, 2, "ana2@example.org", "en")
    _publish(event, organiser, django_capture_on_commit_callbacks)
    assert [m["To"] for m in smtp.mails] == ["ana2@example.org"]
    assert smtp.mails[0]["Bcc"] is None and "\n" not in smtp.mails[0]["Subject"]
