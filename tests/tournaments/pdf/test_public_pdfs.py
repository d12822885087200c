"""The public PDFs (seating list, standings) of a large event rendered in the background and
served from the cache; a small event's rendered in the request (issue #18).

"Large" is above settings.PDF_INLINE_MAX_TABLES tables; the tests lower it under the 4 tables
of their event instead of building a hundred tables."""

from __future__ import annotations

import pytest
from django.test import Client

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
        "job": job.pk, "kind": "seating", "round": 1, "status": "queued",
        "status_label": "Queued", "progress": 0,
        "total": 1, "message": "", "url": None, "download_url": "/e/open/rounds/1/seating.pdf",
        "status_url": "/e/open/rounds/1/seating.pdf/status/"}
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


def test_confirming_a_card_queues_the_standings_of_the_new_results_version(
        event, large, renders, broker, django_capture_on_commit_callbacks):
    _publish(event, django_capture_on_commit_callbacks)
    queued_before = list(broker)
    # Every hand typed and confirmed, the card handed in and confirmed: only the last step
    # changes the standings.
    with django_capture_on_commit_callbacks(execute=True):
        printouts.play_tri1_table(event.rounds.get(number=1).tables.get(number=1))
    event.refresh_from_db()
    standings = public_pdfs.standings_of(event)
    job = Job.objects.get(key=standings.job_key)
    assert job.result["kind"] == "standings"
    assert job.result["parts"][2] == event.results_version
    # Queued, not rendered: the request that confirmed did not wait for WeasyPrint.
    assert broker == [*queued_before, job.pk] and renders == []
    # The seating list did not change with the results: its job of the publication stays.
    assert Job.objects.filter(kind=public_pdfs.RENDER_JOB, result__kind="seating").count() == 1
    tasks.render_public_pdf.apply(args=[job.pk]).get()
    pdf = _is_pdf(Client().get("/e/open/standings.pdf"))
    assert renders == ["standings_pdf"] and pdf == public_pdfs.cached(standings)


def test_a_job_whose_version_was_superseded_renders_nothing(
        event, large, renders, broker, django_capture_on_commit_callbacks):
    _publish(event, django_capture_on_commit_callbacks)
    old = public_pdfs.standings_of(event)
    with django_capture_on_commit_callbacks(execute=True):
        job = public_pdfs.public_pdf_queue(pdf=old)
    registration = event.registrations.order_by("start_number").last()
    services.registration_set_status(registration=registration, status="withdrawn",
                                     actor=event.organisers.first())
    done = public_pdfs.public_pdf_render(job.pk)
    assert done.status == Job.Status.FAILED and "newer version" in done.message
    assert renders == []


def test_rendering_a_version_forgets_the_jobs_of_the_older_ones(
        event, large, renders, broker, django_capture_on_commit_callbacks):
    """A large event queues a standings version per confirmed card: once a version is
    rendered, the finished and superseded jobs of the older ones are deleted, and nothing else
    (the seating list's job, a job still waiting)."""
    _publish(event, django_capture_on_commit_callbacks)
    organiser = event.organisers.first()
    standings_jobs = []
    for registration in event.registrations.order_by("-start_number")[:3]:
        with django_capture_on_commit_callbacks(execute=True):
            standings_jobs.append(public_pdfs.public_pdf_queue(pdf=public_pdfs.standings_of(event)))
        services.registration_set_status(registration=registration, status="withdrawn",
                                         actor=organiser)
        event.refresh_from_db()
    first, second, third = standings_jobs
    assert public_pdfs.public_pdf_render(first.pk).status == Job.Status.FAILED  # superseded
    waiting = public_pdfs.public_pdf_queue(pdf=public_pdfs.standings_of(event))
    Job.objects.filter(pk=second.pk).update(status=Job.Status.DONE)
    Job.objects.filter(pk=third.pk).update(status=Job.Status.RUNNING)
    seating = Job.objects.get(result__kind="seating")
    # The newest version renders and takes the finished and failed older ones with it.
    assert public_pdfs.public_pdf_render(waiting.pk).status == Job.Status.DONE
    left = set(Job.objects.filter(kind=public_pdfs.RENDER_JOB).values_list("pk", flat=True))
    assert left == {waiting.pk, third.pk, seating.pk}
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
