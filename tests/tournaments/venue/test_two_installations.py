"""Two installations of the app on this machine (issue #32, Done when): the federation's server
(a runserver process on the tests' PostgreSQL database) and a venue's laptop (a runserver
process of its own on a SQLite file, tasks in process, commands run as an organiser at the
venue would). The laptop takes a 12-player event, the server refuses a write to it, round 1 is
seated and published on the laptop, table 1 plays it on phones through its table link on the
laptop's address (the laptop's runserver), the others are played while the server is stopped
for part of the round;
when the server is back the next push brings it to exactly the laptop's state (its archive of
the event equals the laptop's); round 2 the same; the event is handed back and a correction on
the server works again.

Needs PostgreSQL for the server (CI runs it; elsewhere it is skipped)."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token

from sample_data import printouts
from tests.mailbox import free_port
from tournaments import archive, services
from tournaments.errors import Conflict
from tournaments.models import Event, VenueHold

ROOT = Path(__file__).resolve().parents[3]
SLUG = "venue-e2e"

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _server_database_url() -> str:
    s = connection.settings_dict
    return f"postgres://{s.get('USER') or 'postgres'}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"


def _env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "EMAIL_URL")}
    env.update(DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="config.settings")
    return env


@contextmanager
def _running(env: dict[str, str], port: int):
    """A runserver process on `port`, answering before this yields."""
    proc = subprocess.Popen([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz/", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(proc.stdout.read()) from None
                time.sleep(0.3)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


class Laptop:
    """The laptop's installation: its own database, its commands."""

    def __init__(self, tmp_path: Path) -> None:
        # Pushes by the test's command, one at a time (test_pusher.py pushes by itself).
        self.env = {**_env(f"sqlite:///{tmp_path / 'laptop.sqlite3'}"), "VENUE_AUTO_PUSH": "0"}
        self.manage("migrate", "--noinput")
        self.manage("createcachetable")

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env,
                              capture_output=True, text=True, timeout=300)
        if check and done.returncode != 0:
            raise AssertionError(f"manage.py {' '.join(args)}: {done.stdout}\n{done.stderr}")
        return done

    def run(self, code: str) -> str:
        return self.manage("shell", "-c", code).stdout

    def play(self, number: int, tables: list[int], *, seat: bool = False, close: bool = False) -> None:
        """At the venue: seat and publish round `number`, play the given tables' cards, close it."""
        self.run(f"""
from sample_data import printouts
from tournaments import services
from tournaments.models import Event
from tournaments.services import round_jobs
event = Event.objects.get(slug={SLUG!r}); boss = event.organisers.first()
if {seat!r}:
    services.round_publish(rnd=printouts.seat(event, {number}), actor=boss)
rnd = event.rounds.get(number={number})
for table in rnd.tables.filter(number__in={tables!r}).order_by("number"):
    printouts.play_tri1_table(table, seed=table.number * 10 + {number})
if {close!r}:
    round_jobs.round_close(rnd=event.rounds.get(number={number}), actor=boss)
""")

    def table_link(self, number: int, table: int) -> dict:
        """Round `number`'s table link: its token, the card's players."""
        return json.loads(self.run(f"""
import json
from tournaments.models import TableLink
link = TableLink.objects.get(table__round__event__slug={SLUG!r}, table__round__number={number},
                             table__number={table}, revoked_at__isnull=True)
print(json.dumps({{"token": link.token, "players": link.table.scorecard.player_ids}}))
""").strip().splitlines()[-1])

    def push(self) -> dict:
        done = self.manage("venue", "push", SLUG, check=False)
        return json.loads(done.stdout)

    def archive_event(self) -> dict:
        return json.loads(self.manage("export_event", SLUG, "-").stdout)["event"]


class Phone:
    """A player's phone on the venue's Wi-Fi: a browser's cookies, the laptop's address, the
    forms posted as a browser posts them (with the CSRF token the page gave)."""

    def __init__(self, base: str, token: str, seat: int) -> None:
        self.base, self.token = base, token
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener.addheaders = [("Accept-Language", "en")]
        self.get()
        self.post("seat/", {"seat": seat})

    def get(self) -> str:
        with self.opener.open(f"{self.base}/t/{self.token}/", timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, fields: dict) -> str:
        csrf = next(c.value for c in self.jar if c.name == "csrftoken")
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": csrf}).encode()
        request = urllib.request.Request(f"{self.base}/t/{self.token}/{path}", data=data,
                                         headers={"Referer": f"{self.base}/t/{self.token}/"})
        with self.opener.open(request, timeout=30) as response:  # follows the redirect
            return response.read().decode()

    def hand(self, number: int, players: list[str]) -> None:
        from tournaments.seating.rotation import rest_rotation

        resting = rest_rotation(players, max(number, 4))[number - 1]["resting"]
        declarer = next(p for p in players if p != resting)
        version = re.search(r'name="version" value="(\d+)"', self.get())
        page = self.post("hands/", {"number": number, "version": version.group(1) if version else "",
                                    "game": "trojka", "declarer": declarer, "resting": resting,
                                    "points": 40 + number})
        assert f"Hand {number} saved" in page, page[:2000]


def _server_archive() -> dict:
    return archive.export_event(Event.objects.get(slug=SLUG))["event"]


def test_a_day_at_a_venue_with_the_server_down_for_part_of_a_round(tmp_path):
    if connection.vendor != "postgresql":
        if os.environ.get("EXPECT_WORKER"):
            pytest.fail("CI runs the two installations on PostgreSQL")
        pytest.skip("the server's installation needs PostgreSQL (DATABASE_URL)")
    event = printouts.slovenian_event(slug=SLUG, tables=3, hands_per_round=4, planned_rounds=2)
    boss = event.organisers.first()
    token = Token.objects.create(user=boss).key
    server_env, port, laptop_port = _env(_server_database_url()), free_port(), free_port()
    server = f"http://127.0.0.1:{port}"
    laptop = Laptop(tmp_path)

    with _running(server_env, port):
        taken = json.loads(laptop.manage("venue", "take", server, SLUG, "--token", token,
                                         "--holder", "Laptop Kranj").stdout)
        assert taken == {"ok": True, "event": SLUG, "registrations": 12}
        # The server refuses a write to the event, at its API and in its services.
        request = urllib.request.Request(f"{server}/api/v1/events/{SLUG}/registrations/",
                                         data=json.dumps({"first_name": "Late", "last_name": "Comer"}).encode(),
                                         method="POST", headers={"Content-Type": "application/json",
                                                                 "Authorization": f"Token {token}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 409
        with pytest.raises(Conflict):
            services.registration_add(event=event, actor=boss, first_name="Late", last_name="Comer")

        laptop.play(1, [], seat=True)
        assert laptop.push()["sent"] == "archive"  # the first push: whole
        # Table 1 plays on its phones, through its table link on the laptop's address.
        with _running(laptop.env, laptop_port):
            link = laptop.table_link(1, 1)
            first = Phone(f"http://127.0.0.1:{laptop_port}", link["token"], seat=1)
            for number in (1, 2, 3, 4):
                first.hand(number, link["players"])
                if number == 2:
                    # A push in the middle of the card: what changed since the last one.
                    assert laptop.push() == {"ok": True, "applied": True, "sent": "delta",
                                             "version": mock.ANY}
                    assert _server_archive() == laptop.archive_event()
            first.post("submit/", {})
            Phone(f"http://127.0.0.1:{laptop_port}", link["token"], seat=3).post("confirm/", {})
        assert laptop.push()["ok"] is True
        assert _server_archive() == laptop.archive_event()
        server_card = Event.objects.get(slug=SLUG).rounds.get(number=1).tables.get(number=1).scorecard
        assert (server_card.status, server_card.hands.count()) == ("confirmed", 4)
        assert server_card.hands.get(number=1).entered_by_seat == 1

    # The server is down: the venue plays on, the push waits.
    laptop.play(1, [2, 3])
    down = laptop.push()
    assert down["ok"] is False and "cannot be reached" in down["error"]

    with _running(server_env, port):
        assert laptop.push()["ok"] is True
        assert _server_archive() == laptop.archive_event()
        laptop.play(1, [], close=True)
        laptop.play(2, [1, 2, 3], seat=True, close=True)
        assert laptop.push()["ok"] is True
        assert _server_archive() == laptop.archive_event()
        back = json.loads(laptop.manage("venue", "return", SLUG).stdout)
        assert back["ok"] is True

    assert not VenueHold.objects.filter(event__slug=SLUG).exists()
    assert Event.objects.get(slug=SLUG).rounds.filter(status="closed").count() == 2
    # The server writes again: a correction; the laptop writes no more.
    services.registration_add(event=Event.objects.get(slug=SLUG), actor=boss, first_name="Late",
                              last_name="Comer")
    refused_here = laptop.manage("venue", "push", SLUG, check=False)
    assert refused_here.returncode == 2
    assert "went back" in laptop.run(f"""
from tournaments.domain import lifecycle
from tournaments.models import Event
print(lifecycle.venue_refusal(Event.objects.get(slug={SLUG!r}).pk))
""")
