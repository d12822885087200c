"""A real Celery worker process over Redis seats a round: the task travels through the broker,
the worker writes to the same (test) database, and a second run changes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

from sample_data.factories import EventFactory, RegistrationFactory, UserFactory
from tournaments.models import Job, Round
from tournaments.services import round_jobs
from tournaments.tasks import generate_round

ROOT = Path(__file__).resolve().parents[3]

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _database_url() -> str:
    s = connection.settings_dict
    user = s.get("USER") or "postgres"
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or 5432
    return f"postgres://{user}@{host}:{port}/{s['NAME']}"


@pytest.fixture
def real_worker():
    with _worker({}) as proc:
        yield proc


@contextmanager
def _worker(extra_env: dict[str, str]):
    """A real worker process on a queue of its own, with `extra_env` (a mail server...)."""
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if connection.vendor != "postgresql" or not broker.startswith("redis"):
        if os.environ.get("EXPECT_WORKER"):
            pytest.fail("CI must run the worker test on PostgreSQL with a Redis broker")
        pytest.skip("needs PostgreSQL (DATABASE_URL) and Redis (CELERY_BROKER_URL)")
    from config.celery import app

    queue = f"test-{uuid.uuid4().hex[:10]}"
    old_queue = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    env = dict(os.environ, DATABASE_URL=_database_url(), CELERY_BROKER_URL=broker, **extra_env)
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
         "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        yield proc
    finally:
        app.conf.task_default_queue = old_queue
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def _wait_for(job_id: int, timeout: float = 60.0) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = Job.objects.get(pk=job_id)
        if job.status in (Job.Status.DONE, Job.Status.FAILED) and job.attempts > 0:
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not finish in {timeout}s (status {job.status})")


def test_worker_seats_the_next_round_once(real_worker):
    organiser = UserFactory()
    event = EventFactory(seating_system="random", ruleset_code="tarok-net-2007", ruleset_mode="tri+1")
    event.organisers.add(organiser)
    for n in range(1, 11):
        RegistrationFactory(event=event, start_number=n)

    job = round_jobs.round_generation_queue(event=event, actor=organiser)
    try:
        job = _wait_for(job.pk)
    except AssertionError:
        real_worker.terminate()
        print(real_worker.stdout.read())
        raise
    assert job.status == Job.Status.DONE, job.message
    assert job.attempts == 1
    rnd = Round.objects.get(event=event, number=1)
    sizes = sorted(t.seats.count() for t in rnd.tables.all())
    assert sizes == [3, 3, 4]  # 10 players: one table of 4, two of 3
    assert rnd.generation_key == job.key

    # A crash after the round was stored but before the job was marked done: the task is
    # delivered again (late acknowledgement). The rerun must find the round, not add one.
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING)
    generate_round.delay(job.pk)
    job = _wait_for(job.pk)
    assert job.status == Job.Status.DONE
    assert job.attempts == 2
    assert Round.objects.filter(event=event).count() == 1
    assert Job.objects.filter(event=event).count() == 1


@pytest.fixture
def smtp_and_worker(settings):
    """A real SMTP server in this process, and a real worker sending through it."""
    from aiosmtpd.controller import Controller

    from tests.mailbox import Inbox, free_port

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    # This process only queues (the worker sends): it must know that mail is configured.
    settings.EMAIL_CONFIGURED = True
    try:
        with _worker({"EMAIL_URL": f"smtp://127.0.0.1:{controller.port}",
                      "DEFAULT_FROM_EMAIL": "turnir@example.org"}) as proc:
            yield inbox, proc
    finally:
        controller.stop()


def test_a_round_published_is_told_by_e_mail_through_the_worker(smtp_and_worker):
    inbox, worker = smtp_and_worker
    from tournaments import services
    from tournaments.models import PlayerLink
    from tournaments.services import messages

    organiser = UserFactory()
    event = EventFactory(seating_system="points", ruleset_code="tarok-net-2007", ruleset_mode="tri+1")
    event.organisers.add(organiser)
    for n in range(1, 5):
        player = services.player_create(first_name=f"Mail{n}", last_name="Worker", club="TK")
        services.registration_create(event=event, player=player, actor=organiser)
    link = PlayerLink.objects.get(registration__event=event, registration__start_number=3)
    messages.messages_choose(link=link, email="mail3@example.org", round_messages=True, language="sl")
    rnd = services.round_store(event=event, number=1, seating_system="points", seed=1,
                               tables=[["1", "2", "3", "4"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    job = Job.objects.get(kind=messages.MESSAGES_JOB)
    try:
        job = _wait_for(job.pk)
    except AssertionError:
        worker.terminate()
        print(worker.stdout.read())
        raise
    assert job.status == Job.Status.DONE, job.message
    assert [m["To"] for m in inbox.mails] == ["mail3@example.org"]
    body = inbox.mails[0].get_body(preferencelist=("plain",)).get_content()
    assert "sedite za mizo 1, na mestu 3." in body
    assert link.token not in body


@pytest.fixture
def pdf_worker():
    """A real worker rendering public PDFs, with a short quiet period for the standings."""
    with _worker({"PUBLIC_PDF_QUIET_SECONDS": "2", "PUBLIC_PDF_LONGEST_WAIT_SECONDS": "60"}) as proc:
        yield proc


def test_a_burst_of_results_renders_the_standings_at_most_twice_showing_the_last_change(
        pdf_worker, settings):
    """Issue #35: 50 changes of the results within a few seconds (the confirmations at the end
    of a round) make at most two renderings of the standings PDF through the real worker, and
    the last one shows the last change."""
    from sample_data import printouts
    from tests.tournaments.pdf.pdftext import text
    from tournaments.printing import public_pdfs
    from tournaments.services import officiating

    # Built as a small event (rendered in the request, nothing queued), then large: only the
    # burst's changes queue the standings.
    event = printouts.slovenian_event(slug="burst", tables=4)
    settings.PDF_INLINE_MAX_TABLES = 2
    referee = event.referees.first()
    first = event.registrations.get(start_number=1)
    started = time.monotonic()
    for n in range(1, 51):
        # Each an audited change of the results, committed on its own (autocommit).
        officiating.standings_adjust(registration=first, actor=referee, reason=f"burst {n}",
                                     score_delta=1000 + n)
        # Spread over seconds, as confirmations come: longer than a rendering of these
        # standings takes, so a worker rendering after each change would render many times.
        time.sleep(0.1)
    burst = time.monotonic() - started
    assert burst < 20, f"the 50 changes took {burst:.1f} s"
    event.refresh_from_db()
    newest = public_pdfs.standings_of(event)
    job = public_pdfs.pdf_job(newest)
    # One job for the PDF, whatever the number of changes.
    assert Job.objects.filter(event=event, kind=public_pdfs.RENDER_JOB).count() == 1
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        job.refresh_from_db()
        rendered = (job.result.get("rendered") or {}).get("parts")
        if job.status == Job.Status.DONE and rendered == list(newest.parts):
            break
        if job.status == Job.Status.FAILED:
            break
        time.sleep(0.2)
    else:
        pdf_worker.terminate()
        print(pdf_worker.stdout.read())
        raise AssertionError(f"the standings were not rendered (job {job.status}, {job.result})")
    assert job.status == Job.Status.DONE, job.message
    # Each claim of the job is one rendering.
    assert 1 <= job.attempts <= 2, f"{job.attempts} renderings for a burst of {burst:.1f} s"
    # The last rendering shows the last change: 1,001 + ... + 1,050 = 51,275 on the score.
    total = sum(1000 + n for n in range(1, 51))
    pdf = public_pdfs.cached(newest)
    assert pdf is not None
    assert f"Janez Novak * TK Ljubljana 0 {total}" in text(pdf), text(pdf)
    # Nothing left waiting, and a while later still nothing rendered again.
    renderings = job.attempts
    time.sleep(3)
    job.refresh_from_db()
    assert (job.status, job.attempts) == (Job.Status.DONE, renderings)
