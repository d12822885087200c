"""The smaller findings of issue 12 (finding 8): the API's standings CSV is safe in a
spreadsheet, the page cache never hands a fragment to a back navigation, a job whose worker
died is detected and retried, a swap cannot strand a table's results, password reset exists
only with mail settings, and the OpenAPI schema documents every answer."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from config.celery import app
from sample_data.factories import UserFactory
from tests.tournaments.api.test_roles import E, build_world
from tournaments import services
from tournaments.errors import ServiceError
from tournaments.models import Job, Player, Round
from tournaments.runtime import jobs
from tournaments.services import round_jobs

pytestmark = pytest.mark.django_db


def test_the_api_standings_csv_escapes_formula_cells_like_the_page():
    world = build_world()
    Player.objects.filter(last_name="Last1").update(first_name="=1+2", club="@SUM(A1)")
    api = APIClient().get(E + "standings/csv/").content.decode()
    page = Client().get("/e/cup/standings.csv").content.decode()
    for text in (api, page):
        assert "'=1+2" in text and "'@SUM(A1)" in text
        assert ",=1+2" not in text
    assert world.event.slug == "cup"


def test_a_history_restore_never_gets_the_cached_fragment():
    build_world()
    client = Client()
    fragment = client.get("/e/cup/rounds/1/", HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and "<html" not in fragment.content.decode()
    restored = client.get("/e/cup/rounds/1/", HTTP_HX_REQUEST="true",
                          HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<html" in restored.content.decode()
    assert "HX-History-Restore-Request" in restored["Vary"]
    # And the other way round: a fragment request after a cached whole page.
    whole = client.get("/e/cup/rounds/1/")
    assert "<html" in whole.content.decode()
    assert "<html" not in client.get("/e/cup/rounds/1/", HTTP_HX_REQUEST="true").content.decode()


# ---------------------------------------------------------------------------------------
# Jobs whose worker died
# ---------------------------------------------------------------------------------------

def _stuck_seating_job(world) -> Job:
    """Round 2's seating job, RUNNING since long ago: its worker was killed -9."""
    for card in world.round1.tables.all():
        services.scorecard_annul(scorecard=card.scorecard, actor=world.users["referee"],
                                 reason="set-up")
    round_jobs.round_close(rnd=world.round1, actor=world.users["organiser"])
    job = Job.objects.create(key=f"{round_jobs.SEAT_JOB}:{world.event.pk}:2",
                             kind=round_jobs.SEAT_JOB, event=world.event,
                             status=Job.Status.RUNNING, progress=2, total=3,
                             result={"round": 2})
    Job.objects.filter(pk=job.pk).update(updated_at=timezone.now() - dt.timedelta(hours=1))
    job.refresh_from_db()
    return job


def test_a_job_that_stopped_reporting_is_stale_and_a_fresh_one_is_not():
    world = build_world()
    job = _stuck_seating_job(world)
    assert jobs.is_stale(job)
    Job.objects.filter(pk=job.pk).update(updated_at=timezone.now())
    job.refresh_from_db()
    assert not jobs.is_stale(job)


def test_the_job_page_offers_to_retry_a_stale_job_and_the_retry_runs_it(
        django_capture_on_commit_callbacks):
    world = build_world()
    job = _stuck_seating_job(world)
    client = Client()
    client.force_login(world.users["organiser"])
    page = client.get(f"/manage/e/cup/jobs/{job.pk}/").content.decode()
    assert "stopped reporting" in page and f"/jobs/{job.pk}/retry/" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/manage/e/cup/jobs/{job.pk}/retry/")
    assert response.status_code == 302
    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert Round.objects.filter(event=world.event, number=2).exists()


def test_asking_for_the_seating_again_does_not_return_the_stuck_job(
        django_capture_on_commit_callbacks):
    world = build_world()
    stuck = _stuck_seating_job(world)
    with django_capture_on_commit_callbacks(execute=True):
        job = round_jobs.round_generation_queue(event=world.event,
                                                     actor=world.users["organiser"])
    job.refresh_from_db()
    assert job.pk == stuck.pk and job.status == Job.Status.DONE


def test_requeue_jobs_publishes_a_stale_running_job(monkeypatch):
    world = build_world()
    job = _stuck_seating_job(world)
    published = []
    monkeypatch.setattr(jobs, "publish", lambda task, job_id: published.append(job_id) or True)
    old = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        from django.core.management import call_command

        call_command("requeue_jobs")
    finally:
        app.conf.task_always_eager = old
    assert published == [job.pk]
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED and "stopped reporting" in job.message


# ---------------------------------------------------------------------------------------
# Swaps, password reset
# ---------------------------------------------------------------------------------------

def test_a_swap_in_a_draft_round_whose_table_has_hands_is_refused():
    world = build_world()
    Round.objects.filter(pk=world.round1.pk).update(status=Round.Status.DRAFT)
    world.round1.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        services.round_swap_players(rnd=world.round1, first="1", second="5",
                                    actor=world.users["organiser"])
    assert refused.value.errors[0]["code"] == "table_has_results"
    assert "table 1" in refused.value.errors[0]["message"]
    assert world.card(1).player_ids == ["1", "2", "3", "4"]
    # Within tables without entries a swap is still fine.
    services.round_swap_players(rnd=world.round1, first="6", second="5",
                                actor=world.users["organiser"])
    assert world.card(2).player_ids == ["6", "5", "7", "8"]


def test_password_reset_does_not_exist_without_mail_settings(settings):
    settings.EMAIL_CONFIGURED = False
    UserFactory(username="ana", email="ana@example.org")
    client = Client()
    assert client.get("/accounts/password_reset/").status_code == 404
    assert client.post("/accounts/password_reset/", {"email": "ana@example.org"}).status_code == 404
    assert "password_reset" not in client.get("/accounts/login/").content.decode()
    assert mail.outbox == []


def test_password_reset_works_with_mail_settings(settings):
    settings.EMAIL_CONFIGURED = True
    UserFactory(username="ana", email="ana@example.org")
    client = Client()
    assert "/accounts/password_reset/" in client.get("/accounts/login/").content.decode()
    response = client.post("/accounts/password_reset/", {"email": "ana@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1


# ---------------------------------------------------------------------------------------
# The schema
# ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", HTTP_ACCEPT="application/json")
    return response.json()


def test_lists_document_their_refusals_and_bounded_pagination(schema):
    for path in ("/api/v1/events/{slug}/registrations/", "/api/v1/events/{slug}/penalties/"):
        operation = schema["paths"][path]["get"]
        assert {"400", "404"} <= set(operation["responses"]), path
        params = {p["name"]: p["schema"] for p in operation["parameters"]}
        assert params["limit"]["minimum"] == 1 and params["limit"]["maximum"] == 1000
        assert params["offset"]["minimum"] == 0
    assert "400" in schema["paths"]["/api/v1/events/"]["get"]["responses"]


def test_the_token_endpoint_documents_its_429_and_the_round_parameter_its_minimum(schema):
    assert {"400", "429"} <= set(schema["paths"]["/api/v1/auth/token/"]["post"]["responses"])
    params = schema["paths"]["/api/v1/events/{slug}/standings/"]["get"]["parameters"]
    round_ = next(p for p in params if p["name"] == "round")
    assert round_["schema"]["minimum"] == 1


def test_a_disputes_correction_is_nullable_in_the_schema(schema):
    correction = schema["components"]["schemas"]["Dispute"]["properties"]["correction"]
    assert correction.get("nullable") is True
