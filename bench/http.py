"""HTTP benchmark of the public standings page against a bare Django view, in one run.

It builds a scratch database (SQLite in a temporary folder unless BENCH_DATABASE_URL names
another), loads the demo, starts gunicorn on loopback with the production profile, and sends
concurrent requests from client threads to `/healthz/` (the bare view) and to
`/e/demo-slovenian/standings/`. It prints requests per second and latency for both, and the
ratio (target: the standings page at least 0.7 of the bare view). It then counts the queries
of the standings page for fields of growing size, which must stay constant.

Run from the repository root: `python bench/http.py` (or `make bench`). Every request goes to
127.0.0.1 only; the load is bounded in time and the server is stopped at the end.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name would hide the
# standard library's `http` package; the repository root replaces it.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

import http.client  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

CLIENTS = int(os.environ.get("BENCH_CLIENTS", "8"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "6"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
TARGET_RATIO = 0.7
PAGES = [("bare view /healthz/", "/healthz/"),
         ("standings /e/demo-slovenian/standings/", "/e/demo-slovenian/standings/")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL",)}
    env.update({
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-" + "x7Qp" * 12,
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{tmp / 'bench.sqlite3'}"),
        "STATIC_ROOT": str(tmp / "static"),
        "MEDIA_ROOT": str(tmp / "media"),
        "LOG_LEVEL": "ERROR",
    })
    return env


def _manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def _get(port: int, path: str) -> tuple[int, float]:
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"X-Forwarded-Proto": "https"})
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - start
    finally:
        conn.close()


def _load(port: int, path: str) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    deadline = time.monotonic() + SECONDS

    def client() -> None:
        nonlocal errors
        mine, bad = [], 0
        while time.monotonic() < deadline:
            status, took = _get(port, path)
            if status == 200:
                mine.append(took)
            else:
                bad += 1
        with lock:
            latencies.extend(mine)
            errors += bad

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    latencies.sort()
    return {
        "requests": len(latencies),
        "errors": errors,
        "rps": len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies) * 1000 if latencies else float("nan"),
        "p95_ms": latencies[int(len(latencies) * 0.95)] * 1000 if latencies else float("nan"),
    }


def _wrk(port: int, path: str) -> dict[str, float] | None:
    """Load from wrk (Debian's `wrk`), a C client that leaves the cores to the server; None
    when it is not installed."""
    if shutil.which("wrk") is None:
        return None
    proc = subprocess.run(
        ["wrk", f"-t{min(CLIENTS, 2)}", f"-c{CLIENTS}", f"-d{SECONDS:.0f}s", "--latency",
         "-H", "X-Forwarded-Proto: https", f"http://127.0.0.1:{port}{path}"],
        capture_output=True, text=True, timeout=SECONDS + 30, check=True)
    out = proc.stdout

    def ms(label: str) -> float:
        m = re.search(rf"^\s*{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if not m:
            return float("nan")
        return float(m.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m.group(2)]

    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors:.*", out)
    return {
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),
        "errors": int(non_2xx.group(1)) if non_2xx else (1 if errors else 0),
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50_ms": ms("50"),
        "p95_ms": ms("99"),  # wrk reports 50/75/90/99: the column shows its 99th percentile
    }


def _query_counts(env: dict[str, str]) -> list[tuple[int, int]]:
    """Queries of the standings page for events of growing size, counted in process."""
    code = r"""
import django, os
django.setup()
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from sample_data.factories import EventFactory, RegistrationFactory, UserFactory
from tournaments import services
from tournaments.models import Scorecard
out = []
for size in (8, 64, 256):
    event = EventFactory(slug=f"bench-{size}", seating_system="points", hands_per_round=1)
    user, other = UserFactory(), UserFactory()
    event.organisers.add(user)
    event.referees.add(other)
    for n in range(1, size + 1):
        RegistrationFactory(event=event, start_number=n)
    tables = [[str(n + k) for k in range(4)] for n in range(1, size + 1, 4)]
    rnd = services.round_store(event=event, number=1, seating_system="points", seed=1,
                               tables=tables, actor=user)
    services.round_publish(rnd=rnd, actor=user)
    for card in Scorecard.objects.filter(table__round=rnd):
        p = card.player_ids
        services.hand_save(scorecard=card, number=1, actor=user, expected_version=card.version,
                           record={"game": "trojka", "declarer": p[0], "resting": p[3], "points": 41})
        services.scorecard_submit(scorecard=card, actor=user)
        services.scorecard_confirm(scorecard=card, actor=other)
    client = Client()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/e/bench-{size}/standings/", secure=True).status_code == 200
    out.append((size, len(ctx.captured_queries)))
print(out)
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"}, check=True)
    return eval(proc.stdout.strip().splitlines()[-1])  # a list of tuples printed by our child


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="tarok-bench-"))
    env = _env(tmp)
    server = None
    try:
        _manage(env, "migrate", "--noinput")
        _manage(env, "seed_demo")
        _manage(env, "collectstatic", "--noinput")
        port = _free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
             f"127.0.0.1:{port}", "--workers", str(WORKERS), "--log-level", "warning"],
            cwd=ROOT, env=env)
        for _ in range(100):
            try:
                if _get(port, "/healthz/")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        for _, path in PAGES:  # warm up every worker's caches and connections
            for _ in range(WORKERS * 4):
                _get(port, path)
        client = "wrk" if shutil.which("wrk") else "Python threads (install wrk for a lighter client)"
        tail = "p99 ms" if shutil.which("wrk") else "p95 ms"
        print(f"{CLIENTS} concurrent clients ({client}), {SECONDS:.0f} s per page, gunicorn with "
              f"{WORKERS} sync workers, database {env['DATABASE_URL'].split(':')[0]}")
        print(f"{'page':42} {'req/s':>8} {'p50 ms':>8} {tail:>8} {'errors':>7}")
        results = {}
        for label, path in PAGES:
            r = _wrk(port, path) or _load(port, path)
            results[path] = r
            print(f"{label:42} {r['rps']:8.0f} {r['p50_ms']:8.1f} {r['p95_ms']:8.1f} {r['errors']:7d}")
        ratio = results[PAGES[1][1]]["rps"] / results[PAGES[0][1]]["rps"]
        verdict = "OK" if ratio >= TARGET_RATIO else "BELOW TARGET"
        print(f"standings / bare view = {ratio:.2f} (target {TARGET_RATIO}): {verdict}")
        server.terminate()
        server.wait(timeout=20)
        server = None
        counts = _query_counts(env)
        print("queries of the standings page by field size: "
              + ", ".join(f"{size} players: {q}" for size, q in counts))
        constant = len({q for _, q in counts}) == 1
        print("query count constant as the field grows:", "OK" if constant else "GROWS")
        return 0 if constant else 1
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
