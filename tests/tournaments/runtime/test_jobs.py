"""Jobs whose worker died (tournaments.runtime.jobs and the seating job of
tournaments.services.round_jobs; issue 12, finding 8): a running job that stopped reporting is
stale, the job page offers to retry it and the retry runs it, asking for the seating again does
not hand back the stuck job, and `manage.py requeue_jobs` publishes it again."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from config.celery import app
from tests.tournaments.api.test_roles import build_world
from tournaments import services
from tournaments.models import Job, Round
from tournaments.runtime import jobs
from tournaments.services import round_jobs

pytestmark = pytest.mark.django_db


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
        call_command("requeue_jobs")
    finally:
        app.conf.task_always_eager = old
    assert published == [job.pk]
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED and "stopped reporting" in job.message
