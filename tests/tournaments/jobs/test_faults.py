"""Faults the event must survive, with real processes: a Celery worker killed (SIGKILL) in the
middle of rendering a round's sheets, a broker that is down while organisers ask for work, and
PostgreSQL restarted while hands are being entered.

Every test starts its own throwaway Redis server (and, for the restart, its own PostgreSQL
cluster) on a free port, so it can stop and start them without disturbing other runs that
share the machine's PostgreSQL and Redis. Each test is bounded in time and removes its
processes and temporary directories.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import override_settings
from pypdf import PdfReader
from rest_framework.test import APIClient

from sample_data.factories import EventFactory, RegistrationFactory, UserFactory
from tournaments import services
from tournaments.models import Job, Round
from tournaments.printing import services as printing
from tournaments.runtime import jobs

ROOT = Path(__file__).resolve().parents[3]
PG_BIN = Path("/usr/lib/postgresql/15/bin")

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


# ---------------------------------------------------------------------------------------
# Processes of our own
# ---------------------------------------------------------------------------------------


def _require_services() -> None:
    """Like tests/tournaments/jobs/test_worker.py: these tests need the PostgreSQL test database and
    a Redis installation; CI (EXPECT_WORKER=1) must not skip them."""
    broker = os.environ.get("CELERY_BROKER_URL", "")
    missing = []
    if connection.vendor != "postgresql":
        missing.append("PostgreSQL (DATABASE_URL)")
    if not broker.startswith("redis"):
        missing.append("a Redis broker (CELERY_BROKER_URL)")
    if shutil.which("redis-server") is None:
        missing.append("redis-server")
    if missing:
        if os.environ.get("EXPECT_WORKER"):
            pytest.fail("CI must run the fault tests; missing: " + ", ".join(missing))
        pytest.skip("needs " + ", ".join(missing))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until(predicate, timeout: float, what: str, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def _stop(proc: subprocess.Popen | None, timeout: float = 10) -> str:
    """Stop a process we started (by its own handle) and return what it printed."""
    if proc is None:
        return ""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=timeout)
    if proc.stdout is None or proc.stdout.closed:
        return ""
    out = proc.stdout.read()
    proc.stdout.close()
    return out or ""


@contextlib.contextmanager
def redis_server(port: int):
    """A throwaway Redis on `port`, without persistence, stopped on exit."""
    workdir = tempfile.mkdtemp(prefix="tarok-redis-")
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", workdir],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        def answers() -> bool:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
            return False

        _wait_until(answers, 10, f"redis-server on port {port}")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop(proc)
        shutil.rmtree(workdir, ignore_errors=True)


def _database_url() -> str:
    s = connection.settings_dict
    user = s.get("USER") or "postgres"
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or 5432
    return f"postgres://{user}@{host}:{port}/{s['NAME']}"


def start_worker(broker: str, queue: str, media_root: Path, pool: str = "solo",
                 **env: str) -> subprocess.Popen:
    """A real worker on the test database, consuming only our own queue; `pool="prefork"`
    runs its tasks in a pool process, as docs/deploy.md's workers do."""
    full_env = dict(os.environ, DATABASE_URL=_database_url(), CELERY_BROKER_URL=broker,
                    MEDIA_ROOT=str(media_root), **env)
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", f"--pool={pool}",
         "--concurrency=1", "-Q", queue,
         "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"],
        cwd=ROOT, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@contextlib.contextmanager
def app_broker(url: str):
    """Point this (web) process's Celery app at `url` and a queue of its own. The app and
    kombu's process-wide registry keep pools of broker connections made for the old URL: they
    are emptied both ways (closing a pool but leaving it registered would break later tests)."""
    from kombu import pools

    from config.celery import app

    def reset_pools() -> None:
        pools.reset()
        app._pool = None
        app.amqp._producer_pool = None

    queue = f"faults-{uuid.uuid4().hex[:10]}"
    old = app.conf.broker_url, app.conf.task_default_queue, app.conf.broker_read_url, app.conf.broker_write_url
    # Celery copies broker_url into the read and write URLs when it configures itself.
    app.conf.broker_url = app.conf.broker_read_url = app.conf.broker_write_url = url
    app.conf.task_default_queue = queue
    reset_pools()
    try:
        yield queue
    finally:
        reset_pools()
        app.conf.broker_url, app.conf.task_default_queue, app.conf.broker_read_url, app.conf.broker_write_url = old


# ---------------------------------------------------------------------------------------
# A worker killed in the middle of rendering sheets
# ---------------------------------------------------------------------------------------


def _forty_table_round():
    event = EventFactory(seating_system="fixed", ruleset_code="tarok-net-2007", ruleset_mode="four",
                         planned_rounds=3, hands_per_round=8)
    numbers = [str(RegistrationFactory(event=event, start_number=n).start_number) for n in range(1, 161)]
    tables = [numbers[i:i + 4] for i in range(0, len(numbers), 4)]
    return services.round_store(event=event, number=1, seating_system="fixed", seed=0, tables=tables,
                                actor=None)


def test_worker_killed_while_rendering_sheets_renders_one_complete_pdf_after_restart(tmp_path, settings):
    _require_services()
    settings.MEDIA_ROOT = str(tmp_path / "media")
    rnd = _forty_table_round()
    assert rnd.tables.count() == 40
    # Redis hands an unacknowledged message to another worker only after the visibility
    # timeout: a few seconds here instead of production's hour (docs/deploy.md).
    visibility = 3
    port = _free_port()
    first = second = None
    with redis_server(port) as broker, app_broker(broker) as queue:
        try:
            # The round in one task (PDF_SHEETS_PART_TABLES=0): this test is about one long
            # task redelivered; the parts have their test below.
            first = start_worker(broker, queue, tmp_path / "media",
                                 CELERY_VISIBILITY_TIMEOUT=str(visibility),
                                 PDF_SHEETS_PART_TABLES="0")
            job = printing.round_sheets_queue(rnd=rnd, actor=None, base_url="http://testserver")

            # Killed with some tables rendered and many still to go: mid-way, for certain.
            killed_at = _wait_until(
                lambda: (j := Job.objects.get(pk=job.pk)).progress >= 3 and j, 90,
                "the first worker to render a few tables")
            first.send_signal(signal.SIGKILL)
            first.wait(timeout=10)
            killed_at = Job.objects.get(pk=job.pk)
            assert killed_at.status == Job.Status.RUNNING
            assert killed_at.progress < 40, "the worker finished before it could be killed"
            assert printing.current_sheets_file(rnd) is None

            time.sleep(visibility + 1)
            second = start_worker(broker, queue, tmp_path / "media",
                                  CELERY_VISIBILITY_TIMEOUT=str(visibility),
                                  PDF_SHEETS_PART_TABLES="0")
            done = _wait_until(
                lambda: (j := Job.objects.get(pk=job.pk)).status in (Job.Status.DONE, Job.Status.FAILED) and j,
                120, "the redelivered rendering to finish")
        except AssertionError:
            print(_stop(first), _stop(second))
            raise
        finally:
            _stop(first)
            _stop(second)

    assert done.status == Job.Status.DONE, done.message
    assert done.attempts == 2  # the killed run and the redelivered one
    assert done.progress == done.total == 40
    assert Job.objects.filter(key=printing.job_key(rnd)).count() == 1
    assert Round.objects.filter(event=rnd.event).count() == 1
    path = printing.current_sheets_file(rnd)
    assert path is not None
    assert len(PdfReader(str(path)).pages) == 40
    # Exactly the one file: no second version and no half-written temporary left behind.
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_two_workers_render_the_parts_of_a_round_and_one_pdf_comes_out_in_table_order(
        tmp_path, settings):
    _require_services()
    settings.MEDIA_ROOT = str(tmp_path / "media")
    rnd = _forty_table_round()
    workers = []
    with redis_server(_free_port()) as broker, app_broker(broker) as queue:
        try:
            # One worker of each pool: each lays its parts out in a forked child
            # (tournaments.printing.child_process), also from a prefork pool's process.
            for pool in ("solo", "prefork"):
                workers.append(start_worker(broker, queue, tmp_path / "media", pool=pool,
                                            PDF_SHEETS_PART_TABLES="8"))
            job = printing.round_sheets_queue(rnd=rnd, actor=None, base_url="http://testserver")
            done = _wait_until(
                lambda: (j := Job.objects.get(pk=job.pk)).status in (Job.Status.DONE, Job.Status.FAILED) and j,
                120, "the parts to be rendered and joined")
        finally:
            logs = [_stop(worker) for worker in workers]

    assert done.status == Job.Status.DONE, (done.message, logs)
    assert done.result["parts"] == 5 and done.progress == done.total == 40
    # Both workers rendered parts of the round.
    for log in logs:
        assert "render_round_sheets_part" in log and "succeeded" in log, log
    path = printing.current_sheets_file(rnd)
    pages = PdfReader(str(path)).pages
    assert len(pages) == 40
    for page, table in zip(pages, rnd.tables.order_by("number"), strict=True):
        text = " ".join(page.extract_text().split())  # a name may wrap in its column
        for seat in table.seats.select_related("registration__player"):
            name = seat.registration.player.full_name
            assert name in text, (table.number, name)
    # The parts were joined and removed.
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


# ---------------------------------------------------------------------------------------
# The broker down, then back
# ---------------------------------------------------------------------------------------


def test_broker_down_keeps_the_app_answering_and_the_work_runs_once_it_is_back(tmp_path, settings):
    _require_services()
    settings.MEDIA_ROOT = str(tmp_path / "media")
    organiser = UserFactory(is_staff=True)
    event = EventFactory(seating_system="random", ruleset_code="tarok-net-2007", ruleset_mode="tri+1")
    for n in range(1, 11):
        RegistrationFactory(event=event, start_number=n)
    client = APIClient()
    client.force_authenticate(organiser)
    unavailable = jobs.queue_unavailable_message()

    port = _free_port()  # nothing listens here yet: the broker is down
    worker = None
    with app_broker(f"redis://127.0.0.1:{port}/0") as queue:
        started = time.monotonic()
        response = client.post(f"/api/v1/events/{event.slug}/rounds/generate/")
        elapsed = time.monotonic() - started
        assert response.status_code == 202, response.content
        assert elapsed < 10, f"the request hung {elapsed:.1f}s on the dead broker"
        body = response.json()
        assert body["status"] == Job.Status.QUEUED
        assert body["message"] == unavailable
        job_id = body["id"]

        # Asking again finds the same job; polling answers; the pages answer.
        again = client.post(f"/api/v1/events/{event.slug}/rounds/generate/")
        assert again.status_code == 202 and again.json()["id"] == job_id
        with override_settings(JOB_REQUEUE_AFTER_SECONDS=0):
            polled = client.get(f"/api/v1/jobs/{job_id}/")
        assert polled.status_code == 200
        assert polled.json()["status"] == Job.Status.QUEUED
        assert polled.json()["message"] == unavailable
        assert client.get(f"/e/{event.slug}/").status_code == 200
        assert client.get(f"/api/v1/events/{event.slug}/").status_code == 200
        with pytest.raises(CommandError, match="unavailable"):
            call_command("requeue_jobs", "--older-than", "0", stdout=io.StringIO())
        assert Round.objects.filter(event=event).count() == 0

        with redis_server(port) as broker:
            try:
                worker = start_worker(broker, queue, tmp_path / "media")
                out = io.StringIO()
                call_command("requeue_jobs", "--older-than", "0", stdout=out)
                assert f"published 1 job(s): {job_id}" in out.getvalue()
                job = _wait_until(
                    lambda: (j := Job.objects.get(pk=job_id)).status in (Job.Status.DONE, Job.Status.FAILED) and j,
                    60, "the requeued seating job")
                assert job.status == Job.Status.DONE, job.message
                # Polling a finished job publishes nothing more, nor does the command.
                with override_settings(JOB_REQUEUE_AFTER_SECONDS=0):
                    final = client.get(f"/api/v1/jobs/{job_id}/").json()
                assert final["status"] == Job.Status.DONE
                out = io.StringIO()
                call_command("requeue_jobs", "--older-than", "0", stdout=out)
                assert "published 0 job(s)" in out.getvalue()
            except AssertionError:
                print(_stop(worker))
                raise
            finally:
                _stop(worker)

    assert Round.objects.filter(event=event).count() == 1
    assert Job.objects.filter(event=event).count() == 1
    assert Job.objects.get(pk=job_id).attempts == 1


def test_a_job_left_waiting_is_published_again_when_polled(tmp_path, settings):
    """The recovery without the command: a queued job is handed to the queue again when its
    page polls it (not more often than JOB_REQUEUE_AFTER_SECONDS), and runs exactly once."""
    _require_services()
    settings.MEDIA_ROOT = str(tmp_path / "media")
    organiser = UserFactory(is_staff=True)
    event = EventFactory(seating_system="random", ruleset_code="tarok-net-2007", ruleset_mode="tri+1")
    for n in range(1, 9):
        RegistrationFactory(event=event, start_number=n)
    client = APIClient()
    client.force_authenticate(organiser)
    port = _free_port()
    worker = None
    with app_broker(f"redis://127.0.0.1:{port}/0") as queue:
        job_id = client.post(f"/api/v1/events/{event.slug}/rounds/generate/").json()["id"]
        with redis_server(port) as broker:
            try:
                worker = start_worker(broker, queue, tmp_path / "media")
                # Not yet waited long enough: polling leaves it alone.
                with override_settings(JOB_REQUEUE_AFTER_SECONDS=3600):
                    assert client.get(f"/e/{event.slug}/").status_code == 200
                    assert client.get(f"/api/v1/jobs/{job_id}/").json()["status"] == Job.Status.QUEUED
                time.sleep(2)
                assert Job.objects.get(pk=job_id).status == Job.Status.QUEUED
                # Waited long enough: the organiser's job page polls it and it is published.
                client.force_login(organiser)
                with override_settings(JOB_REQUEUE_AFTER_SECONDS=0):
                    page = client.get(f"/manage/e/{event.slug}/jobs/{job_id}/status/")
                assert page.status_code == 200
                assert Job.objects.get(pk=job_id).message != jobs.queue_unavailable_message()
                job = _wait_until(
                    lambda: (j := Job.objects.get(pk=job_id)).status in (Job.Status.DONE, Job.Status.FAILED) and j,
                    60, "the job published by the poll")
                assert job.status == Job.Status.DONE, job.message
            except AssertionError:
                print(_stop(worker))
                raise
            finally:
                _stop(worker)
    assert Round.objects.filter(event=event).count() == 1
    assert Job.objects.get(pk=job_id).attempts == 1


# ---------------------------------------------------------------------------------------
# PostgreSQL restarted while hands are entered
# ---------------------------------------------------------------------------------------

# Runs in a subprocess against the scratch cluster. Each hand is one "request": the signals
# Django's handler sends around every request run first (request_started closes a connection
# that is no longer usable, CONN_HEALTH_CHECKS), then the service, then request_finished.
# A hand is acknowledged (printed ACK) only once its service call returned; a failed call is
# retried, as a scorer would press save again.
ENTER_HANDS = r"""
import os, sys, time
import django
django.setup()
import datetime as dt
from django.core.signals import request_finished, request_started
from tournaments import services
from tournaments.models import Scorecard

total = int(sys.argv[1])
request_started.send(sender=None)
event = services.event_create(
    actor=None, name="Restart", slug="restart", starts_on=dt.date(2026, 11, 21),
    ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="four",
    seating_system="points", planned_rounds=1, hands_per_round=total)
regs = [services.registration_create(
            event=event, actor=None,
            player=services.player_create(first_name=f"F{n}", last_name=f"L{n}", club="TK"))
        for n in range(4)]
rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=0, actor=None,
                           tables=[[str(r.start_number) for r in regs]])
services.round_publish(rnd=rnd, actor=None)
card_id = Scorecard.objects.get(table__round=rnd).pk
request_finished.send(sender=None)
print("READY", card_id, flush=True)
deadline = time.monotonic() + 60
for n in range(1, total + 1):
    while True:
        request_started.send(sender=None)
        try:
            card = Scorecard.objects.get(pk=card_id)
            declarer = card.player_ids[n % 4]
            services.hand_save(scorecard=card, number=n, actor=None, expected_version=None,
                               record={"game": "trojka", "declarer": declarer, "points": 40 + n})
        except Exception as exc:
            print("FAIL", n, type(exc).__name__, str(exc).replace("\n", " ")[:200], flush=True)
            if time.monotonic() > deadline:
                sys.exit(2)
            time.sleep(0.2)
        else:
            print("ACK", n, flush=True)
            break
        finally:
            request_finished.send(sender=None)
    time.sleep(0.1)
print("END", flush=True)
"""

READ_BACK = r"""
import json
import django
django.setup()
from tournaments.models import AuditEntry, Hand, Scorecard

card = Scorecard.objects.get(pk=int(__import__("sys").argv[1]))
hands = list(Hand.objects.filter(scorecard=card).order_by("number"))
print(json.dumps({
    "totals": card.totals,
    "hands": [{"number": h.number, "record": h.record, "scores": h.scores,
               "running_totals": h.running_totals} for h in hands],
    "created": AuditEntry.objects.filter(action="hand.create").count(),
}))
"""


class ScratchCluster:
    """A PostgreSQL 15 cluster of our own in a temporary directory, run by the postgres user
    (initdb refuses root), listening on a free port with trust authentication."""

    def __init__(self):
        self.port = _free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="tarok-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *args: str, timeout: float = 60) -> None:
        subprocess.run([*self.as_postgres, *args], check=True, timeout=timeout,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def _pg_ctl(self, *args: str) -> None:
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "-t", "30",
                  "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off",
                  *args)

    def start(self) -> None:
        if self.as_postgres:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "--no-sync")
        self._pg_ctl("start")

    def restart(self) -> None:
        self._pg_ctl("restart", "-m", "fast")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            self._pg_ctl("stop", "-m", "immediate")
        shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"


def test_postgresql_restart_mid_event_loses_no_acknowledged_hand():
    _require_services()
    if not (PG_BIN / "initdb").exists():
        pytest.skip(f"needs PostgreSQL 15 server binaries in {PG_BIN}")
    total = 14
    restart_after = 4
    cluster = ScratchCluster()
    env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
    env.update(DATABASE_URL=cluster.url, DJANGO_SETTINGS_MODULE="config.settings")
    entering = None
    lines: list[str] = []
    try:
        cluster.start()
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                       env=env, check=True, timeout=180)
        entering = subprocess.Popen([sys.executable, "-c", ENTER_HANDS, str(total)], cwd=ROOT, env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 120
        restarted = False
        for line in entering.stdout:
            lines.append(line.rstrip())
            if line.startswith("ACK") and int(line.split()[1]) == restart_after and not restarted:
                cluster.restart()  # while the next hands are being entered
                restarted = True
            if line.startswith("END") or time.monotonic() > deadline:
                break
        assert entering.wait(timeout=30) == 0, "\n".join(lines)
        assert restarted, "\n".join(lines)
        card_id = int(next(x for x in lines if x.startswith("READY")).split()[1])
        read = subprocess.run([sys.executable, "-c", READ_BACK, str(card_id)], cwd=ROOT, env=env,
                              check=True, timeout=60, capture_output=True, text=True)
        stored = json.loads(read.stdout.strip().splitlines()[-1])
    finally:
        _stop(entering)
        cluster.stop()

    log = "\n".join(lines)
    acknowledged = [int(x.split()[1]) for x in lines if x.startswith("ACK")]
    assert acknowledged == list(range(1, total + 1)), log
    # Every acknowledged hand is stored, as sent, and scored; the card's totals are the last
    # hand's running totals, so the whole card was rescored after each hand.
    assert [h["number"] for h in stored["hands"]] == acknowledged, log
    for hand in stored["hands"]:
        assert hand["record"]["points"] == 40 + hand["number"], log
        assert hand["scores"] and hand["running_totals"], log
    assert stored["totals"] == stored["hands"][-1]["running_totals"], log
    # A save that failed during the restart left nothing behind: each hand was created once
    # (a half-written attempt would show as a second creation or a missing audit entry).
    assert stored["created"] == total, log
