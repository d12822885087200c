"""Large divisions draw their schedule in a background job that reports the search's
progress (leagues.services.schedule_job_queue and schedule_job_run, leagues.tasks); a schedule
the seating engine refuses is said in the reader's language, in the request and from the job."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from leagues import services, tasks
from leagues.selectors import divisions_of
from leagues.services import schedule as schedule_services
from sample_data.factories import UserFactory
from tests.leagues.helpers import make_players
from tournaments.errors import ServiceError
from tournaments.models import Job
from tournaments.runtime import jobs

pytestmark = pytest.mark.django_db


def big_season(owner, players: int = 68):
    league = services.league_create(actor=owner, organisers=[owner], name="Big", slug="big",
                                    division_size=players, movement_count=2, division_count=1,
                                    hands_per_matchday=1)
    season = services.season_create(league=league, actor=owner, name="2026", slug="2026", planned_matchdays=3,
                                    seed=5)
    division = divisions_of(season)[0]
    for player in make_players(players, "big"):
        services.membership_add(division=division, player=player, actor=owner)
    return season


def test_a_large_division_is_scheduled_in_a_job_with_progress(django_capture_on_commit_callbacks):
    owner = UserFactory(username="big-owner", is_staff=True)
    season = big_season(owner)
    assert services.schedule_needs_job(season)
    client = Client()
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/api/v1/leagues/big/seasons/2026/schedule/", {}, content_type="application/json")
    assert answer.status_code == 202
    job = Job.objects.get(pk=answer.json()["id"])
    # Celery runs eagerly in the tests: the job has run, reported its progress and finished.
    assert job.kind == services.SCHEDULE_JOB and job.status == Job.Status.DONE and job.progress == 100
    season.refresh_from_db()
    stored = season.schedule["divisions"]["1"]
    assert len(stored["rounds"]) == 3 and stored["repeat_pairs"] == 0
    shown = client.get("/api/v1/leagues/big/seasons/2026/schedule/").json()
    assert shown["job"]["status"] == "done" and shown["divisions"][0]["bound"]["params"]["players"] == 68
    # asking again before it runs finds the same job; a done job is not run twice
    assert services.schedule_job_run(job.pk).pk == job.pk
    # the broker-outage requeue knows the task
    assert jobs._task_for(services.SCHEDULE_JOB) is tasks.generate_league_schedule


def test_the_job_reports_progress_while_the_search_runs(monkeypatch):
    owner = UserFactory(username="big-owner2", is_staff=True)
    season = big_season(owner, players=70)
    job = services.schedule_job_queue(season=season, actor=owner)
    seen = []
    real = schedule_services.seat_round

    def watched(request, progress=None):
        def spy(done, total):
            progress(done, total)
            seen.append(Job.objects.get(pk=job.pk).progress)
        return real(request, progress=spy)

    monkeypatch.setattr(schedule_services, "seat_round", watched)
    assert services.schedule_job_run(job.pk).status == Job.Status.DONE
    assert seen and seen == sorted(seen) and seen[-1] == 99


def five_in_a_division(owner):
    """A division of five: two tables would need six, one table seats four, so the seating
    engine refuses the schedule."""
    league = services.league_create(actor=owner, organisers=[owner], name="Pet", slug="pet", division_size=8,
                                    movement_count=2, division_count=1, hands_per_matchday=1)
    season = services.season_create(league=league, actor=owner, name="2026", slug="2026", planned_matchdays=2,
                                     seed=5)
    for player in make_players(5, "pet"):
        services.membership_add(division=divisions_of(season)[0], player=player, actor=owner)
    return season


FIVE_SL = ("igralcev (5) ni mogoče razporediti za mize po 3 do 4: število miz 2 bi zahtevalo "
           "vsaj 6 igralcev")


def test_the_engine_refusing_a_schedule_is_said_in_the_language_of_the_request():
    owner = UserFactory(username="pet-owner", is_staff=True)
    season = five_in_a_division(owner)
    with translation.override("sl"), pytest.raises(ServiceError) as exc:
        services.schedule_generate(season=season, actor=owner)
    assert [(e["field"], e["code"], e["message"]) for e in exc.value.errors] == [
        ("divisions.1", "cannot_seat", FIVE_SL)]
    client = Client()
    client.force_login(owner)
    answer = client.post("/api/v1/leagues/pet/seasons/2026/schedule/", {}, content_type="application/json",
                         HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["message"] == \
        "5 Spieler lassen sich nicht an Tische mit 3 bis 4 Plätzen setzen: 2 Tische bräuchten mindestens 6 Spieler"


def test_a_background_draw_refused_by_the_engine_is_said_in_the_readers_language():
    owner = UserFactory(username="pet-owner2", is_staff=True)
    season = five_in_a_division(owner)
    job = services.schedule_job_queue(season=season, actor=owner)
    # the worker has no request language: the job keeps the engine's code, params and English
    with translation.override("en"):
        job = services.schedule_job_run(job.pk)
    assert job.status == Job.Status.FAILED
    division = divisions_of(season)[0].name
    assert job.message == (f"the seating was refused: {division}: 5 players cannot sit at tables of 3 to 4: "
                           "2 tables would need at least 6")
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = "sl"
    page = client.get("/manage/leagues/pet/2026/schedule/").content.decode()
    assert f"razporejanje je bilo zavrnjeno: {division}: {FIVE_SL}" in page
    assert "cannot sit" not in page
    client.cookies["django_language"] = "en"
    assert "5 players cannot sit at tables of 3 to 4" in client.get("/manage/leagues/pet/2026/schedule/").content.decode()
