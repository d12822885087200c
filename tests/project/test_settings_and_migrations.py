"""The project as a whole: migrations in sync with the models, the production profile clean
under `check --deploy`, the embedded defaults (SQLite, eager Celery) and CI's real services."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import clear_url_caches, get_resolver
from django.utils import translation

from config import warmup
from scoring import rules as scoring_rules

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_migrations_are_in_sync_with_the_models():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def _manage(*args, env_extra=None, unset=()):
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_production_profile_passes_check_deploy_without_warnings():
    proc = _manage("check", "--deploy", "--fail-level", "WARNING", env_extra={
        "DEBUG": "0",
        "SECRET_KEY": "prod-" + "k3y" * 20 + "Zq9!",
        "ALLOWED_HOSTS": "tarok.example.org",
    })
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_production_profile_refuses_to_start_without_a_secret_key():
    proc = _manage("check", env_extra={"DEBUG": "0", "ALLOWED_HOSTS": "x.org"}, unset=("SECRET_KEY",))
    assert proc.returncode != 0
    assert "SECRET_KEY" in proc.stderr


def test_embedded_default_is_sqlite_and_eager_celery():
    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; django.setup();"
            "from django.conf import settings as s;"
            "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER,"
            " s.DATABASES['default']['OPTIONS'].get('transaction_mode'))")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    # IMMEDIATE: concurrent writers wait for each other instead of failing "database is locked"
    assert proc.stdout.split() == ["django.db.backends.sqlite3", "True", "IMMEDIATE"], proc.stderr


@pytest.mark.django_db
def test_ci_runs_on_postgresql_when_it_says_so():
    from django.db import connection

    if not os.environ.get("EXPECT_POSTGRES"):
        pytest.skip("only CI (EXPECT_POSTGRES=1) insists on PostgreSQL")
    assert connection.vendor == "postgresql"


def test_a_web_process_is_readied_before_its_first_request(monkeypatch):
    """config/wsgi.py (what gunicorn loads) warms the process up: every page template
    compiles (a broken one would fail here rather than on a visitor) and the URL names of
    every language are built, so that the first request does not pay for them."""
    names = warmup.page_templates()
    assert "tournaments/standings.html" in names and len(names) > 50
    # A fresh resolver, as in a new process (earlier tests of this process have reversed).
    clear_url_caches()
    assert not get_resolver()._reverse_dict
    # The scoring registry as a new process has it: its families not yet imported.
    monkeypatch.setattr(scoring_rules, "_loaded", False)
    assert warmup.warm_up() == len(names)
    assert scoring_rules._loaded
    resolver = get_resolver()
    for code in ("en", "sl", "cs", "de"):
        with translation.override(code):
            assert code in resolver._reverse_dict  # built, not waiting for the first reverse
    source = (ROOT / "config" / "wsgi.py").read_text()
    assert "warm_up()" in source.split("application = get_wsgi_application()", 1)[1]


def test_the_venue_address_is_a_scheme_and_a_host_and_its_host_is_allowed():
    """PUBLIC_BASE_URL (issue #32, docs/venue.md): a laptop at a venue is reached at its address
    on the Wi-Fi, which the sheets' QR codes carry; Django must answer the phones there."""
    shown = _manage("shell", "-c", "from django.conf import settings; print(settings.ALLOWED_HOSTS)",
                    env_extra={"PUBLIC_BASE_URL": "http://192.168.1.20:8000/"})
    assert shown.returncode == 0, shown.stderr
    assert "192.168.1.20" in shown.stdout
    wrong = _manage("check", env_extra={"PUBLIC_BASE_URL": "192.168.1.20:8000"})
    assert wrong.returncode != 0 and "PUBLIC_BASE_URL must be a scheme and a host" in wrong.stderr
