"""The public PDFs (seating list, standings) of a large event rendered in the background and
served from the cache; a small event's rendered in the request (issue #18).

"Large" is above settings.PDF_INLINE_MAX_TABLES tables; the tests lower it under the 4 tables
of their event instead of building a hundred tables."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.http import http_date

from config.celery import app
from sample_data import printouts
from tests.tournaments.pdf.pdftext import text
from tournaments import services, tasks
from tournaments.models import Job
from tournaments.printing import public_pdfs
from tournaments.printing import render as printing_render

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = printouts.slovenian_event(slug="open", tables=4)
    printouts.seat(event, 1)
    return event


@pytest.fixture
def large(settings):
    settings.PDF_INLINE_MAX_TABLES = 2
    # No quiet period unless a test is about it: the jobs render when the test runs them.
    settings.PUBLIC_PDF_QUIET_SECONDS = 0


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """The names of the PDFs WeasyPrint rendered, in order."""
    calls: list[str] = []
    for name in ("seating_pdf", "standings_pdf"):
        original = getattr(printing_render, name)
        monkeypatch.setattr(printing_render, name,
                            lambda *a, _o=original, _n=name, **k: (calls.append(_n), _o(*a, **k))[1])
    return calls


@pytest.fixture
def broker(monkeypatch):
    """A real queue that never runs anything: the ids of the jobs handed to it."""
    queued: list[int] = []
    monkeypatch.setattr(tasks.render_public_pdf, "apply_async",
                        lambda args, **kwargs: queued.append(args[0]))
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield queued
    app.conf.task_always_eager = eager


def _is_pdf(response) -> bytes:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def _publish(event, capture):
    with capture(execute=True):
        services.round_publish(rnd=event.rounds.get(number=1), actor=event.organisers.first())
    event.refresh_from_db()


def test_publishing_a_round_of_a_large_event_renders_its_seating_list_before_any_request(
        event, large, renders, django_capture_on_commit_callbacks):
    _publish(event, django_capture_on_commit_callbacks)
    # Eager queue (no broker): the job ran when the publication committed.
    assert renders == ["seating_pdf"]
    spec = public_pdfs.seating_of(event, event.rounds.get(number=1))
    stored = public_pdfs.cached(spec)
    assert stored is not None
    assert Job.objects.get(key=spec.job_key).status == Job.Status.DONE
    # Every phone is served from the cache, whatever its language: the list is written in the
    # event's (Slovenian) for all of them.
    phones = [Client(), Client(HTTP_ACCEPT_LANGUAGE="de"), Client(HTTP_ACCEPT_LANGUAGE="en")]
    served = [_is_pdf(phone.get("/e/open/rounds/1/seating.pdf")) for phone in phones]
    assert served == [stored] * 3
    assert renders == ["seating_pdf"]
    assert "Razpored, 1. krog" in text(stored) and "Novak Janez" in text(stored)


def test_a_missing_version_of_a_large_event_answers_with_the_progress_not_a_pdf(
        event, large, renders, broker, django_capture_on_commit_callbacks):
    _publish(event, django_capture_on_commit_callbacks)
    # The queue took the publication's jobs (the seating list, and the standings whose
    # version the publication moved) but ran nothing.
    spec = public_pdfs.seating_of(event, event.rounds.get(number=1))
    job = Job.objects.get(key=spec.job_key)
    standings = Job.objects.get(key=public_pdfs.standings_of(event).job_key)
    assert broker == [job.pk, standings.pk] and job.status == Job.Status.QUEUED
    with django_capture_on_commit_callbacks(execute=True):
        page = Client().get("/e/open/rounds/1/seating.pdf", HTTP_ACCEPT="text/html")
    assert page.status_code == 202 and page["Retry-After"] == "2"
    assert page["Content-Type"].startswith("text/html")
    html = page.content.decode()
    assert '<meta http-equiv="refresh" content="2">' in html and "<progress" in html
    # In the event's language, in words: "Razpored (PDF): V čakalni vrsti".
    assert "Razpored (PDF): V čakalni vrsti" in html and "queued</" not in html
    # Two more visitors (one asking for JSON) find the same job: nothing is queued again.
    with django_capture_on_commit_callbacks(execute=True):
        state = Client().get("/e/open/rounds/1/seating.pdf", HTTP_ACCEPT="application/json")
        Client().get("/e/open/rounds/1/seating.pdf")
    assert state.status_code == 202
    assert state.json() | {"message": ""} == {
        "job": job.pk, "kind": "seating", "round": 1, "status": "queued", "settling": False,
        "status_label": "Queued", "progress": 0,
        "total": 1, "message": "", "url": None, "download_url": "/e/open/rounds/1/seating.pdf",
        "status_url": "/e/open/rounds/1/seating.pdf/status/",
        # Never an older seating list: it would send players to the wrong table.
        "last_url": None, "last_rendered_at": None}
    assert broker == [job.pk, standings.pk] and renders == []
    fragment = Client().get("/e/open/rounds/1/seating.pdf/status/", HTTP_HX_REQUEST="true")
    assert 'hx-get="/e/open/rounds/1/seating.pdf/status/"' in fragment.content.decode()

    # The worker renders it; run twice (a message delivered twice), it renders once.
    assert tasks.render_public_pdf.apply(args=[job.pk]).get()["status"] == "done"
    assert tasks.render_public_pdf.apply(args=[job.pk]).get()["status"] == "done"
    assert renders == ["seating_pdf"]
    status = Client().get("/e/open/rounds/1/seating.pdf/status/").json()
    assert (status["status"], status["url"]) == ("done", "/e/open/rounds/1/seating.pdf")
    _is_pdf(Client().get("/e/open/rounds/1/seating.pdf"))
    assert renders == ["seating_pdf"]


def test_confirming_a_card_finds_the_standings_queued_and_they_render_its_version(
        event, large, renders, broker, django_capture_on_commit_callbacks):
    _publish(event, django_capture_on_commit_callbacks)
    queued_before = list(broker)
    standings_job = Job.objects.get(key=public_pdfs.standings_of(event).job_key)
    # Every hand typed and confirmed, the card handed in and confirmed: each step a new
    # results version, and the standings' one job (queued by the publication, not run yet)
    # is found waiting every time: nothing is queued again, nothing rendered.
    with django_capture_on_commit_callbacks(execute=True):
        printouts.play_tri1_table(event.rounds.get(number=1).tables.get(number=1))
    event.refresh_from_db()
    standings = public_pdfs.standings_of(event)
    job = Job.objects.get(key=standings.job_key)
    assert job.pk == standings_job.pk and job.result["kind"] == "standings"
    assert job.status == Job.Status.QUEUED
    assert broker == queued_before and renders == []
    # The seating list did not change with the results: its job of the publication stays.
    assert Job.objects.filter(kind=public_pdfs.RENDER_JOB, result__kind="seating").count() == 1
    # The job queued at the publication renders the version of when it starts: the last card.
    tasks.render_public_pdf.apply(args=[job.pk]).get()
    job.refresh_from_db()
    assert job.result["rendered"]["parts"][2] == event.results_version
    pdf = _is_pdf(Client().get("/e/open/standings.pdf"))
    assert renders == ["standings_pdf"] and pdf == public_pdfs.cached(standings)


def _withdraw_last(event) -> None:
    registration = event.registrations.exclude(status="withdrawn").order_by("start_number").last()
    services.registration_set_status(registration=registration, status="withdrawn",
                                     actor=event.organisers.first())
    event.refresh_from_db()


def test_a_job_queued_for_an_old_version_renders_the_newest(
        event, large, renders, broker, django_capture_on_commit_callbacks):
    _publish(event, django_capture_on_commit_callbacks)
    old = public_pdfs.standings_of(event)
    job = public_pdfs.pdf_job(old)
    _withdraw_last(event)
    newest = public_pdfs.standings_of(event)
    assert newest.parts != old.parts and public_pdfs.pdf_job(newest).pk == job.pk
    done = public_pdfs.public_pdf_render(job.pk)
    assert done.status == Job.Status.DONE and renders == ["standings_pdf"]
    assert public_pdfs.cached(newest) is not None and public_pdfs.cached(old) is None
    assert done.result["rendered"]["parts"] == list(newest.parts)


def test_one_job_per_pdf_and_a_change_while_it_renders_renders_it_once_more(
        event, large, renders, broker, django_capture_on_commit_callbacks, monkeypatch):
    """At most one job waiting or running per PDF: asking while it waits or runs queues
    nothing; a change that came while it rendered queues it once more when it ends, and that
    rendering shows the change."""
    _publish(event, django_capture_on_commit_callbacks)
    job = public_pdfs.pdf_job(public_pdfs.standings_of(event))
    published = list(broker)
    assert published.count(job.pk) == 1
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            assert public_pdfs.public_pdf_queue(pdf=public_pdfs.standings_of(event)).pk == job.pk
    assert broker == published

    original = public_pdfs._render
    seen_while_running: list[str] = []

    def render_while_a_card_is_confirmed(pdf, **how):
        if not seen_while_running:
            # A change commits while the first rendering runs: it finds the job running.
            with django_capture_on_commit_callbacks(execute=True):
                _withdraw_last(event)
            seen_while_running.append(Job.objects.get(pk=job.pk).status)
        return original(pdf, **how)

    monkeypatch.setattr(public_pdfs, "_render", render_while_a_card_is_confirmed)
    with django_capture_on_commit_callbacks(execute=True):
        first = public_pdfs.public_pdf_render(job.pk)
    assert seen_while_running == [Job.Status.RUNNING]
    # Rendered the version it started with, then queued itself again (published once more).
    assert first.status == Job.Status.QUEUED and broker == [*published, job.pk]
    newest = public_pdfs.standings_of(event)
    assert public_pdfs.cached(newest) is None
    again = public_pdfs.public_pdf_render(job.pk)
    assert again.status == Job.Status.DONE and again.attempts == 2
    assert again.result["rendered"]["parts"] == list(newest.parts)
    assert public_pdfs.cached(newest) is not None and renders == ["standings_pdf"] * 2
    # Run again (a message delivered twice): nothing; and still one job per PDF.
    assert public_pdfs.public_pdf_render(job.pk).attempts == 2 and len(renders) == 2
    assert Job.objects.filter(kind=public_pdfs.RENDER_JOB).count() == 2  # seating, standings


def test_the_standings_wait_for_the_results_to_settle_and_say_so(
        event, large, renders, broker, django_capture_on_commit_callbacks, monkeypatch, settings):
    from datetime import timedelta

    from tournaments.models import AuditEntry
    from tournaments.runtime import jobs

    settings.PUBLIC_PDF_QUIET_SECONDS = 5
    settings.PUBLIC_PDF_LONGEST_WAIT_SECONDS = 30
    _publish(event, django_capture_on_commit_callbacks)

    def last_change_ago(seconds: float) -> None:
        AuditEntry.objects.filter(event=event).update(
            created_at=timezone.now() - timedelta(seconds=seconds))

    put_back: list[tuple] = []
    monkeypatch.setattr(jobs, "publish_now",
                        lambda kind, *args, countdown=None: put_back.append((kind, *args, countdown)))
    # The seating list does not wait: a hall is waiting for it.
    seating = public_pdfs.pdf_job(public_pdfs.seating_of(event, event.rounds.get(number=1)))
    assert public_pdfs.public_pdf_render(seating.pk).status == Job.Status.DONE
    # The standings do: the event's last change (its audit trail) was a second ago. The job
    # goes back to the queue for the rest of the quiet period, and stays queued.
    last_change_ago(1)
    job = public_pdfs.pdf_job(public_pdfs.standings_of(event))
    assert public_pdfs.public_pdf_render(job.pk).status == Job.Status.QUEUED
    assert renders == ["seating_pdf"] and len(put_back) == 1
    kind, job_id, countdown = put_back[0]
    assert (kind, job_id) == (public_pdfs.RENDER_JOB, job.pk) and 3 < countdown <= 4
    # The visitor is told why, in words, in the event's language.
    state = Client().get("/e/open/standings.pdf/status/").json()
    assert state["settling"] is True and state["status"] == "queued"
    assert state["status_label"] == "Waiting for the results to settle"
    page = Client().get("/e/open/standings.pdf/status/", HTTP_HX_REQUEST="true").content.decode()
    assert "Lestvica (PDF): Čakam, da se rezultati umirijo" in page
    # Still within the period: back again for what is left of it.
    last_change_ago(4)
    public_pdfs.public_pdf_render(job.pk)
    assert 0 < put_back[-1][2] <= 1 and renders == ["seating_pdf"]
    # Quiet for longer than the period: it renders.
    last_change_ago(6)
    assert public_pdfs.public_pdf_render(job.pk).status == Job.Status.DONE
    assert renders == ["seating_pdf", "standings_pdf"] and len(put_back) == 2
    state = Client().get("/e/open/standings.pdf/status/").json()
    assert (state["settling"], state["status"], state["last_url"]) == (False, "done", None)
    rendered = public_pdfs.cached(public_pdfs.standings_of(event))
    rendered_at = timezone.localtime(
        datetime.fromisoformat(Job.objects.get(pk=job.pk).result["rendered"]["at"]), event.tz)

    # A new change: while the newest standings wait, the page offers the last ones with
    # their time, and they are served at once, marked.
    with django_capture_on_commit_callbacks(execute=True):
        _withdraw_last(event)
    last_change_ago(1)
    state = Client().get("/e/open/standings.pdf/status/").json()
    assert state["settling"] is True and state["last_url"] == "/e/open/standings.pdf?last=1"
    # In the event's time zone (JSON keeps milliseconds).
    assert state["last_rendered_at"].startswith(rendered_at.isoformat()[:23])
    assert state["last_rendered_at"].endswith(rendered_at.isoformat()[-6:])
    page = Client().get("/e/open/standings.pdf", HTTP_ACCEPT="text/html")
    assert page.status_code == 202
    assert (f'<a href="/e/open/standings.pdf?last=1">Zadnja različica, stanje ob '
            f'{rendered_at:%H:%M}</a>') in page.content.decode()
    last = Client().get("/e/open/standings.pdf?last=1")
    assert _is_pdf(last) == rendered and last["X-PDF-As-Of"] == f"{rendered_at:%Y-%m-%d %H:%M}"
    assert renders == ["seating_pdf", "standings_pdf"]


def test_results_that_never_settle_still_render_after_the_longest_wait(
        event, large, renders, broker, django_capture_on_commit_callbacks, monkeypatch, settings):
    from datetime import timedelta

    from tournaments.models import AuditEntry
    from tournaments.runtime import jobs

    settings.PUBLIC_PDF_QUIET_SECONDS = 5
    settings.PUBLIC_PDF_LONGEST_WAIT_SECONDS = 20
    _publish(event, django_capture_on_commit_callbacks)
    monkeypatch.setattr(jobs, "publish_now", lambda kind, *args, countdown=None: None)
    job = public_pdfs.pdf_job(public_pdfs.standings_of(event))
    AuditEntry.objects.filter(event=event).update(created_at=timezone.now())
    assert public_pdfs.public_pdf_render(job.pk).status == Job.Status.QUEUED
    # Queued 25 s ago and the results changed a moment ago again: no more waiting.
    queued_at = (timezone.now() - timedelta(seconds=25)).isoformat()
    Job.objects.filter(pk=job.pk).update(result={**job.result, "queued_at": queued_at})
    AuditEntry.objects.filter(event=event).update(created_at=timezone.now())
    assert public_pdfs.public_pdf_render(job.pk).status == Job.Status.DONE
    assert renders == ["standings_pdf"]


def test_a_small_event_renders_in_the_request_without_a_job(
        event, renders, django_capture_on_commit_callbacks):
    _publish(event, django_capture_on_commit_callbacks)
    # Four tables, under the default threshold: nothing rendered before the request.
    assert renders == []
    _is_pdf(Client().get("/e/open/rounds/1/seating.pdf"))
    _is_pdf(Client().get("/e/open/standings.pdf"))
    _is_pdf(Client().get("/e/open/rounds/1/seating.pdf"))
    assert renders == ["seating_pdf", "standings_pdf"]
    assert not Job.objects.filter(kind=public_pdfs.RENDER_JOB).exists()


def test_a_second_request_waits_for_the_inline_rendering_of_the_first(
        event, renders, monkeypatch):
    from django.core.cache import caches

    from tournaments.printing import pdf_cache

    spec = public_pdfs.standings_of(event)
    # Another request is rendering this version (its marker is set); its PDF reaches the
    # cache while this one waits.
    caches["default"].add("rendering:" + pdf_cache.pdf_key(spec.kind, spec.parts, spec.language), 1)
    waits: list[float] = []

    def other_request_finishes(seconds):
        waits.append(seconds)
        pdf_cache.keep(spec.kind, spec.parts, spec.language, b"%PDF-of-the-other-request")

    monkeypatch.setattr(public_pdfs.time, "sleep", other_request_finishes)
    assert public_pdfs.render_inline(spec) == b"%PDF-of-the-other-request"
    assert renders == [] and len(waits) == 1


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_first_request_for_a_large_events_standings_gets_the_pdf(
        event, large, renders):
    # Autocommit as in production. With the eager queue the standings are not rendered
    # after each change of results (each confirmation would wait for them); the first request
    # queues the job, which runs as the queueing commits, and is served the PDF at once.
    services.round_publish(rnd=event.rounds.get(number=1), actor=event.organisers.first())
    assert renders == ["seating_pdf"]
    pdf = _is_pdf(Client().get("/e/open/standings.pdf"))
    event.refresh_from_db()
    job = Job.objects.get(key=public_pdfs.standings_of(event).job_key)
    assert job.status == Job.Status.DONE and renders == ["seating_pdf", "standings_pdf"]
    assert _is_pdf(Client().get("/e/open/standings.pdf")) == pdf
    assert renders == ["seating_pdf", "standings_pdf"]


def test_the_standings_progress_after_a_round_and_a_failed_rendering_asked_again(
        event, large, renders, broker, django_capture_on_commit_callbacks):
    _publish(event, django_capture_on_commit_callbacks)
    assert Client().get("/e/open/standings.pdf/status/?round=x").status_code == 400
    assert Client().get("/e/open/standings.pdf/status/?round=9").status_code == 404
    # Nothing asked yet for the standings after round 1.
    state = Client().get("/e/open/standings.pdf/status/?round=1").json()
    assert (state["status"], state["job"], state["url"]) == ("not_started", None, None)
    with django_capture_on_commit_callbacks(execute=True):
        answer = Client().get("/e/open/standings.pdf?round=1", HTTP_ACCEPT="application/json")
    assert answer.status_code == 202
    assert answer.json()["status_url"] == "/e/open/standings.pdf/status/?round=1"
    job = Job.objects.get(pk=answer.json()["job"])
    assert broker[-1] == job.pk and job.result["round"] == 1
    # The rendering failed: the page says so in words and offers to try again; the next
    # request queues the same job again.
    Job.objects.filter(pk=job.pk).update(status=Job.Status.FAILED, message="rendering failed: x")
    page = Client().get("/e/open/standings.pdf/status/?round=1", HTTP_HX_REQUEST="true")
    assert "Lestvica (PDF): Ni uspelo" in page.content.decode()
    assert 'href="/e/open/standings.pdf?round=1"' in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        again = Client().get("/e/open/standings.pdf?round=1", HTTP_ACCEPT="application/json")
    assert again.json()["job"] == job.pk and again.json()["status"] == "queued"
    assert broker[-1] == job.pk and renders == []
    tasks.render_public_pdf.apply(args=[job.pk]).get()
    pdf = _is_pdf(Client().get("/e/open/standings.pdf?round=1"))
    assert "Lestvica po 1. krogu" in text(pdf)
    assert renders == ["standings_pdf"]


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_a_visitor_gets_the_last_standings_with_their_time_at_once(
        event, large, renders):
    # Autocommit as in production, tasks in the process (no broker).
    services.round_publish(rnd=event.rounds.get(number=1), actor=event.organisers.first())
    first = _is_pdf(Client().get("/e/open/standings.pdf"))  # none rendered yet: in the request
    assert renders == ["seating_pdf", "standings_pdf"]
    event.refresh_from_db()
    job = public_pdfs.pdf_job(public_pdfs.standings_of(event))
    rendered_at = datetime.fromisoformat(job.result["rendered"]["at"])
    _withdraw_last(event)
    # The next visitor gets the last version at once, marked with its time; the newest is
    # rendered once his answer has gone (the test client closes the response as a server does).
    stale = Client().get("/e/open/standings.pdf")
    assert _is_pdf(stale) == first
    assert stale["X-PDF-As-Of"] == timezone.localtime(rendered_at, event.tz).strftime("%Y-%m-%d %H:%M")
    assert stale["Last-Modified"] == http_date(rendered_at.timestamp())
    assert "no-cache" in stale["Cache-Control"]
    # Its footer says when it was printed, the visible note of its time.
    assert rendered_at.astimezone(event.tz).strftime("%Y-%m-%d") in text(first)
    assert renders == ["seating_pdf", "standings_pdf", "standings_pdf"]
    newest = public_pdfs.cached(public_pdfs.standings_of(event))
    assert newest is not None and newest != first
    # The visitor after him gets the newest, unmarked, and nothing renders again.
    fresh = Client().get("/e/open/standings.pdf")
    assert _is_pdf(fresh) == newest and "X-PDF-As-Of" not in fresh
    assert renders == ["seating_pdf", "standings_pdf", "standings_pdf"]
    # The seating list is never served old: a changed one is rendered for the visitor.
    player = event.registrations.get(start_number=1).player
    player.last_name = "Novakovič"
    player.save()
    renamed = Client().get("/e/open/rounds/1/seating.pdf")
    assert "Novakovič" in text(_is_pdf(renamed)) and "X-PDF-As-Of" not in renamed


def test_one_refresh_of_an_events_pdfs_runs_at_a_commit_however_many_changes_it_made(
        db, django_capture_on_commit_callbacks, monkeypatch):
    """A round's close audits three changes of its event: one refresh runs, not three (each
    reads the event and the cache, some 15 ms at 1,024 players). A change in a savepoint that
    rolls back takes only its own callback with it."""
    from django.db import transaction

    from sample_data.factories import EventFactory
    from tournaments.models import Event

    ran = []
    monkeypatch.setattr(public_pdfs, "_refresh_quietly", ran.append)
    first, second = EventFactory(), EventFactory()
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            for _change in range(3):
                public_pdfs.refresh_after_commit(first)
            public_pdfs.refresh_after_commit(second)
            try:
                with transaction.atomic():
                    public_pdfs.refresh_after_commit(Event.objects.get(pk=second.pk))
                    raise RuntimeError("rolled back")
            except RuntimeError:
                pass
    assert ran == [first.pk, second.pk]
    ran.clear()
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            public_pdfs.refresh_after_commit(first)
            try:
                with transaction.atomic():
                    public_pdfs.refresh_after_commit(first)
                    raise RuntimeError("rolled back")
            except RuntimeError:
                pass
    assert ran == [first.pk]  # the next commit refreshes again; the outer change's survived
