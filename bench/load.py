"""Load run of a tournament round being played (issue #18): the tables of an event enter their
hands from their phones while the hall's phones poll the public pages.

It builds a TRI+1 event of PLAYERS players (256) through the services with round 1 published
(seated, cards open, no hand yet), starts the app on a free loopback port and, for SECONDS
(60), runs two kinds of clients in threads:

- a phone at every table, walking the table link's pages as a player does
  (tests/browser/test_table_day.py drives the same pages in Chromium): it opens the link,
  says who it is, and for each of the round's hands, one every HAND_SECONDS, posts the
  engine's live check of the hand (as htmx does while the hand is tapped in) and saves it,
  following the redirect to its table page as a browser does. After the last hand it hands
  the card in, chooses another seat and confirms it. The hands are plausible TRI+1 hands
  (`bench/scale.py`'s `_records`, the demo's generator), posted as the form's fields.
  HAND_SECONDS defaults to the round's hands spread over 80 % of the run, so that every card
  is handed in and confirmed before the end if the server keeps up: 2 s a hand for 60 s,
  where a real round plays 24 hands in about 55 minutes (138 s a hand), so the writes come
  about 70 times faster (a phone that falls behind stops at the end of the run);
- POLLERS (200) phones in the hall, each loading the public standings, the round's page
  and one table's scorecard once, then polling them every POLL_SECONDS (10) as the pages'
  htmx does (`hx-trigger="every ..."`: the standings' live fragment, the round's seating
  and the scorecard with `HX-Request: true`), their starts spread over the first interval.

It prints requests per second, p50/p95/max latency per kind of request, the errors (any
answer that is not 2xx or 3xx, counted and listed) and the public pages' cache hit rate,
read from the `X-Page-Cache` header of `tournaments.runtime.page_cache`. Targets (issue #18): a hit
rate of at least 90 % on the public pages and a p95 under 100 ms.

The server is gunicorn with the production profile (DEBUG=0) and BENCH_WORKERS (4) sync
workers, as docs/deploy.md runs it, set up by `bench/http.py`'s helpers; requests carry
`X-Forwarded-Proto: https` as from nginx, and the phones' posts an `Origin`, so CSRF is
checked as in production. Every request goes to 127.0.0.1 only; the run is bounded in time
and the server and the scratch folder are removed at the end.

Run from the repository root: `python -P bench/load.py [players] [seconds]` (or `make
bench`). SQLite in a RAM folder unless BENCH_DATABASE_URL names a PostgreSQL database (whose
tables it migrates and fills; the event stays there under a new slug each run).
BENCH_LOAD_POLLERS, BENCH_LOAD_POLL_SECONDS and BENCH_LOAD_HAND_SECONDS change the load;
BENCH_LOAD_CACHE_URL gives the server a shared cache (e.g. rediscache://127.0.0.1:6379/14);
BENCH_LOAD_SQLITE_IMMEDIATE=1 opens SQLite's transactions with BEGIN IMMEDIATE.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder would come first on sys.path, where bench/http.py
# hides the standard library's `http` package; from the root, `bench` is a namespace package.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

import http.client  # noqa: E402
import http.cookies  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

from bench import http as bench_http  # noqa: E402
from bench import scale  # noqa: E402

PLAYERS = 256
SECONDS = 60.0
POLLERS = int(os.environ.get("BENCH_LOAD_POLLERS", "200"))
POLL_SECONDS = float(os.environ.get("BENCH_LOAD_POLL_SECONDS", "10"))
HAND_SECONDS = os.environ.get("BENCH_LOAD_HAND_SECONDS", "")
WORKERS = int(os.environ.get("BENCH_WORKERS", "4"))
TIMEOUT = 30
TARGET_HIT_RATE = 0.90
TARGET_P95_MS = 100.0
# What a phone in a Slovenian hall sends; each language is cached apart.
LANGUAGE = "sl-SI,sl;q=0.9,en;q=0.8"
PUBLIC_KINDS = ("standings", "round page", "scorecard")


# ---------------------------------------------------------------------------------------
# The event
# ---------------------------------------------------------------------------------------

@dataclass
class TablePlan:
    """What one table's phone needs: its link, two of its seats and the hands it will enter
    as the form's fields."""

    number: int
    token: str
    first_seat: str
    confirming_seat: str
    hands: list[dict[str, str]]


def _form_fields(record: dict, ctx) -> dict[str, str]:
    """A hand as the phone's form posts it (tournaments.forms.HandForm's own mapping)."""
    from tournaments.forms import HandForm

    out = {}
    for name, value in HandForm.initial_from_record(record, ctx).items():
        if value is True:
            out[name] = "on"
        elif value is not False and value is not None:
            out[name] = str(value)
    return out


def build(players: int, tag: str) -> tuple[str, list[TablePlan]]:
    """A TRI+1 event of `players` with round 1 seated and published, and every table's plan."""
    from sample_data import printouts
    from tournaments import services
    from tournaments.forms import entry_context
    from tournaments.models import Scorecard, TableLink
    from tournaments.pages.common import seat_labels

    event = printouts.slovenian_event(slug=f"load-{players}-{tag}", tables=players // 4,
                                     planned_rounds=3, name=f"Load {players}")
    rnd = scale._seat(event, 1)
    services.round_publish(rnd=rnd, actor=event.organisers.first())
    tokens = {link.table_id: link.token for link in
              TableLink.objects.filter(table__round=rnd, revoked_at__isnull=True)}
    plans = []
    for card in Scorecard.objects.filter(table__round=rnd).select_related("table"):
        seats = list(card.player_ids)
        ctx = entry_context(code=card.ruleset_code, mode=card.ruleset_mode,
                            players=seat_labels(card.table), hands_per_round=event.hands_per_round)
        records = scale._records(card, event.hands_per_round, seed=card.table.number)
        plans.append(TablePlan(number=card.table.number, token=tokens[card.table_id],
                               first_seat=seats[0], confirming_seat=seats[2],
                               hands=[_form_fields(r, ctx) for r in records]))
    plans.sort(key=lambda p: p.number)
    return event.slug, plans


# ---------------------------------------------------------------------------------------
# Clients
# ---------------------------------------------------------------------------------------

@dataclass
class Stats:
    """Every request's kind, time and answer, from all the client threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    # (when the request ended, its time): the tail of the latencies over the run.
    timeline: list[tuple[float, float]] = field(default_factory=list)
    errors: dict[str, dict[int, int]] = field(default_factory=dict)
    error_samples: list[str] = field(default_factory=list)
    verdicts: dict[str, dict[str, int]] = field(default_factory=dict)
    # Set when the run is over: a straggler's answers (or the stopped server's refusals)
    # are not counted.
    closed: bool = False

    def add(self, kind: str, seconds: float, status: int, path: str, verdict: str | None) -> None:
        with self.lock:
            if self.closed:
                return
            self.latencies.setdefault(kind, []).append(seconds)
            self.timeline.append((time.monotonic(), seconds))
            if not 200 <= status < 400:
                counts = self.errors.setdefault(kind, {})
                counts[status] = counts.get(status, 0) + 1
                if counts[status] == 1:  # the first of each kind and status, to look into
                    self.error_samples.append(f"{status or 'no answer'} {kind} {path}")
            if verdict:
                counts = self.verdicts.setdefault(kind, {})
                counts[verdict] = counts.get(verdict, 0) + 1


class Browser:
    """One phone: its cookies, over a new connection per request (gunicorn's sync workers
    close every connection after the answer)."""

    def __init__(self, port: int, stats: Stats):
        self.port = port
        self.stats = stats
        self.cookies: dict[str, str] = {}
        self.origin = f"https://127.0.0.1:{port}"

    def _remember(self, response: http.client.HTTPResponse) -> None:
        for line in response.msg.get_all("Set-Cookie") or []:
            jar = http.cookies.SimpleCookie()
            jar.load(line)
            for name, morsel in jar.items():
                if morsel.value == "" or morsel["max-age"] == "0":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value

    def request(self, kind: str, method: str, path: str, *, form: dict[str, str] | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, str, str]:
        """(status, Location, body); the time and the answer go to the stats."""
        sent = {"X-Forwarded-Proto": "https", "Accept-Language": LANGUAGE, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Origin"] = self.origin
        start = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            content = response.read()
            status = response.status
        except OSError as exc:
            self.stats.add(kind, time.perf_counter() - start, 0, f"{path} ({exc})", None)
            return 0, "", ""
        finally:
            conn.close()
        self.stats.add(kind, time.perf_counter() - start, status, path,
                       response.getheader("X-Page-Cache"))
        self._remember(response)
        return status, response.getheader("Location") or "", content.decode("utf-8", "replace")

    def post_and_follow(self, kind: str, path: str, form: dict[str, str]) -> str:
        """A form's post and the page its redirect leads to, as a browser loads it."""
        status, location, body = self.request(kind, "POST", path, form=form)
        if status in (301, 302, 303) and location:
            target = urllib.parse.urlsplit(location)
            return self.request("table page", "GET", target.path + (
                f"?{target.query}" if target.query else ""))[2]
        return body


def _field(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    return found.group(1) if found else ""


def _sleep_until(moment: float) -> None:
    pause = moment - time.monotonic()
    if pause > 0:
        time.sleep(pause)


def table_phone(plan: TablePlan, browser: Browser, start: float, first_hand: float,
                hand_seconds: float, deadline: float) -> None:
    """A player's phone at one table: the link, the seat, the round's hands (the first at
    `first_hand`, then one every `hand_seconds`), the card."""
    link = f"/t/{plan.token}/"
    _sleep_until(start)
    page = browser.request("table page", "GET", link)[2]
    page = browser.post_and_follow("seat", link + "seat/", {
        "csrfmiddlewaretoken": _field(page, "csrfmiddlewaretoken"), "seat": plan.first_seat})
    due = first_hand - hand_seconds
    while True:
        number = int(_field(page, "number") or 0)
        if not 1 <= number <= len(plan.hands):
            break  # the card is complete (or the page has no hand form)
        due += hand_seconds
        if max(due, time.monotonic()) > deadline:  # a phone behind its schedule stops too
            return
        _sleep_until(due)  # the hand is being played
        fields = {"csrfmiddlewaretoken": _field(page, "csrfmiddlewaretoken"),
                  "number": str(number), "version": _field(page, "version"),
                  **plan.hands[number - 1]}
        browser.request("live check", "POST", link + "validate/", form=fields,
                        headers={"HX-Request": "true", "HX-Target": "hand-feedback",
                                 "HX-Current-URL": browser.origin + link})
        page = browser.post_and_follow("hand post", link + "hands/", fields)
        if 'name="version"' not in page:  # an error page: the player reloads his table
            page = browser.request("table page", "GET", link)[2]
    if time.monotonic() > deadline:
        return
    page = browser.post_and_follow("submit / confirm", link + "submit/", {
        "csrfmiddlewaretoken": _field(page, "csrfmiddlewaretoken")})
    # The second signature: another player of the table chooses his seat on the same phone.
    page = browser.post_and_follow("seat", link + "seat/", {
        "csrfmiddlewaretoken": _field(page, "csrfmiddlewaretoken"), "seat": plan.confirming_seat})
    browser.post_and_follow("submit / confirm", link + "confirm/", {
        "csrfmiddlewaretoken": _field(page, "csrfmiddlewaretoken")})


def hall_phone(slug: str, table: int, browser: Browser, start: float, deadline: float) -> None:
    """A phone in the hall: the three public pages once, then their htmx polls."""
    event = f"/e/{slug}/"
    pages = [  # (kind, page, what its htmx polls, the element it swaps)
        ("standings", event + "standings/", event + "standings/live/", "standings-live"),
        ("round page", event + "rounds/1/", event + "rounds/1/", "seating"),
        ("scorecard", event + f"rounds/1/tables/{table}/", event + f"rounds/1/tables/{table}/",
         "live-card"),
    ]
    moment, first = start, True
    while moment < deadline and time.monotonic() < deadline:
        _sleep_until(moment)
        for kind, page, poll, element in pages:
            if first:
                browser.request(kind, "GET", page)
            else:
                browser.request(kind, "GET", poll, headers={
                    "HX-Request": "true", "HX-Target": element, "HX-Trigger": element,
                    "HX-Current-URL": browser.origin + page})
        moment, first = moment + POLL_SECONDS, False


def run_load(port: int, slug: str, plans: list[TablePlan], seconds: float,
             hand_seconds: float) -> tuple[Stats, float]:
    stats = Stats()
    rng = random.Random(18)
    begin = time.monotonic() + 1.0
    deadline = begin + seconds
    # The tables open their links in the first seconds; their hands fall out of step.
    threads = [threading.Thread(target=table_phone, daemon=True, args=(
        plan, Browser(port, stats), begin + rng.uniform(0, min(hand_seconds, 5.0)),
        begin + rng.uniform(0, hand_seconds), hand_seconds, deadline)) for plan in plans]
    threads += [threading.Thread(target=hall_phone, daemon=True, args=(
        slug, plans[n % len(plans)].number, Browser(port, stats),
        begin + rng.uniform(0, POLL_SECONDS), deadline)) for n in range(POLLERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.0, deadline + TIMEOUT - time.monotonic()))
    with stats.lock:
        stats.closed = True
    stragglers = sum(thread.is_alive() for thread in threads)
    if stragglers:
        print(f"{stragglers} clients still waiting {TIMEOUT} s after the end: not counted")
    stats.timeline = [(moment - begin, took) for moment, took in stats.timeline]
    return stats, time.monotonic() - begin


# ---------------------------------------------------------------------------------------
# The server and the report
# ---------------------------------------------------------------------------------------

def _serve(env: dict[str, str]) -> tuple[subprocess.Popen, int]:
    port = bench_http._free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
         f"127.0.0.1:{port}", "--workers", str(WORKERS), "--log-level", "warning"],
        cwd=ROOT, env=env)
    for _ in range(300):
        try:
            if bench_http._get(port, "/healthz/")[0] == 200:
                break
        except OSError:
            time.sleep(0.1)
    else:
        raise RuntimeError("the server did not answer")
    return server, port


def _warm(port: int, slug: str) -> None:
    """Every worker has loaded its templates, as a server running since the morning has."""
    browser = Browser(port, Stats())
    for _ in range(WORKERS * 2):
        for path in (f"/e/{slug}/standings/", f"/e/{slug}/rounds/1/", f"/e/{slug}/rounds/1/tables/1/"):
            browser.request("warm", "GET", path)


def _percentile(ordered: list[float], share: float) -> float:
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _played(slug: str) -> str:
    """What the tables got done, read from the database after the run."""
    from django.db.models import Count

    from tournaments.models import Scorecard

    cards = Scorecard.objects.filter(table__round__event__slug=slug, table__round__number=1)
    hands = cards.aggregate(n=Count("hands"))["n"]
    confirmed = cards.filter(status=Scorecard.Status.CONFIRMED).count()
    return f"{hands:,} hands entered, {confirmed} of {cards.count()} cards confirmed"


def report(stats: Stats, elapsed: float, played: str) -> bool:
    """Print the figures; True when the targets are met."""
    total = sum(len(v) for v in stats.latencies.values())
    print(f"\n{total:,} requests in {elapsed:.0f} s: {total / elapsed:.0f} req/s; {played}")
    print("\n| requests | count | req/s | p50 | p95 | max | errors | cache hits |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    worst_p95 = 0.0
    every: list[float] = []
    for kind in [*PUBLIC_KINDS, "table page", "live check", "hand post", "seat", "submit / confirm"]:
        times = sorted(stats.latencies.get(kind, []))
        if not times:
            continue
        every += times
        p95 = _percentile(times, 0.95) * 1000
        worst_p95 = max(worst_p95, p95)
        counts = stats.verdicts.get(kind, {})
        looked = counts.get("hit", 0) + counts.get("miss", 0)
        hits = f"{counts.get('hit', 0) / looked:.1%}" if looked else "–"
        print(f"| {kind} | {len(times):,} | {len(times) / elapsed:.1f} | "
              f"{_percentile(times, 0.5) * 1000:.0f} ms | {p95:.0f} ms | {times[-1] * 1000:.0f} ms "
              f"| {sum(stats.errors.get(kind, {}).values())} | {hits} |")
    every.sort()
    hit = sum(stats.verdicts.get(k, {}).get("hit", 0) for k in PUBLIC_KINDS)
    looked = hit + sum(stats.verdicts.get(k, {}).get("miss", 0) for k in PUBLIC_KINDS)
    rate = hit / looked if looked else 0.0
    errors = sum(sum(counts.values()) for counts in stats.errors.values())
    if every:
        print(f"| all | {len(every):,} | {len(every) / elapsed:.1f} | "
              f"{_percentile(every, 0.5) * 1000:.0f} ms | {_percentile(every, 0.95) * 1000:.0f} ms "
              f"| {every[-1] * 1000:.0f} ms | {errors} | {rate:.1%} |")
    windows: dict[int, list[float]] = {}
    for moment, took in stats.timeline:
        windows.setdefault(int(moment // 10) * 10, []).append(took)
    print("p95 of every request by 10 s of the run: " + ", ".join(
        f"{start}–{start + 10} s {_percentile(sorted(times), 0.95) * 1000:.0f} ms"
        for start, times in sorted(windows.items())))
    for kind, counts in stats.errors.items():
        print(f"errors of {kind}: " + ", ".join(
            f"{n} × {status or 'no answer'}" for status, n in sorted(counts.items())))
    for sample in stats.error_samples:
        print(f"first error of its kind: {sample}")
    met_rate, met_p95 = rate >= TARGET_HIT_RATE, worst_p95 < TARGET_P95_MS
    print(f"\npublic pages' cache hit rate {rate:.1%} (target {TARGET_HIT_RATE:.0%}): "
          f"{'OK' if met_rate else 'BELOW TARGET'}")
    print(f"highest p95 of a kind {worst_p95:.0f} ms (target under {TARGET_P95_MS:.0f} ms): "
          f"{'OK' if met_p95 else 'ABOVE TARGET'}")
    return met_rate and met_p95 and errors == 0


def main() -> int:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else PLAYERS
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else SECONDS
    workdir = Path(tempfile.mkdtemp(dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None,
                                    prefix="tarok-bench-load-"))
    server = None
    # Stopped from outside, it still stops its server and removes its folder.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    if os.environ.get("BENCH_LOAD_SQLITE_IMMEDIATE") and not os.environ.get("BENCH_DATABASE_URL"):
        # Transactions that take SQLite's write lock when they begin, so that a second
        # writer waits (the busy timeout) instead of failing with "database is locked".
        os.environ["BENCH_DATABASE_URL"] = (f"sqlite:///{workdir / 'bench.sqlite3'}"
                                            "?transaction_mode=IMMEDIATE")
    try:
        scale._setup(workdir)
        from django.db import connections

        start = time.perf_counter()
        slug, plans = build(players, str(int(time.time())))
        hands = len(plans[0].hands)
        hand_seconds = float(HAND_SECONDS) if HAND_SECONDS else 0.8 * seconds / hands
        vendor = connections["default"].vendor
        connections.close_all()
        print(f"built {players} players ({len(plans)} tables, round 1 published) in "
              f"{time.perf_counter() - start:.0f} s; database {vendor}", flush=True)
        env = bench_http._env(workdir)
        if os.environ.get("BENCH_LOAD_CACHE_URL"):
            # A cache shared by the workers (Redis in production, docs/deploy.md); without
            # it each worker keeps its own copy of the public pages.
            env["CACHE_URL"] = os.environ["BENCH_LOAD_CACHE_URL"]
        bench_http._manage(env, "collectstatic", "--noinput")
        server, port = _serve(env)
        _warm(port, slug)
        print(f"{len(plans)} table phones, a hand every {hand_seconds:.1f} s each "
              f"({len(plans) / hand_seconds:.1f} hands/s in all; a real round: one every "
              f"{55 * 60 / hands:.0f} s); {POLLERS} hall phones polling 3 pages every "
              f"{POLL_SECONDS:.0f} s; gunicorn with {WORKERS} sync workers, cache "
              f"{env.get('CACHE_URL', 'of each worker').split(':')[0]}; {seconds:.0f} s",
              flush=True)
        stats, elapsed = run_load(port, slug, plans, seconds, hand_seconds)
        server.terminate()
        server.wait(timeout=20)
        server = None
        report(stats, elapsed, _played(slug))
        # The figures are the result; a target missed is reported above, not a failed run.
        return 0
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
