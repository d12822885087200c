"""The one settings module, driven by environment variables (django-environ).

Embedded default (no variables set): DEBUG on, SQLite file in the project, Celery tasks run
eagerly in process. Real services: DATABASE_URL (PostgreSQL through psycopg 3) and
CELERY_BROKER_URL (Redis). Production profile: DEBUG=0 with SECRET_KEY and ALLOWED_HOSTS set;
it then switches on every secure setting so `manage.py check --deploy` is clean.
"""

from pathlib import Path
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=True)

if DEBUG:
    # Only for local development; production must set its own (refused below otherwise).
    SECRET_KEY = env.str(
        "SECRET_KEY", default="dev-only-key-8f3c1b7e0a9d4c52b6e1f7a3d9c0b2e4f6a8c1d3e5f7091b"
    )
else:
    SECRET_KEY = env.str("SECRET_KEY")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_countries",
    "config.apps.ProjectConfig",
    "guard",
    "scoring",
    "tournaments",
    "leagues",
    "rankings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Anonymous visits of public event pages are answered from the cache before sessions,
    # authentication and the view: the hall's phones poll these pages all day.
    "tournaments.runtime.page_cache.PublicPageCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Inside CommonMiddleware, which still turns a 404 of a path missing its slash into a
    # redirect after this has answered it in the API's error shape.
    "tournaments.api.errors.ApiNotFoundMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A write to an event run at a venue (or handed back by this laptop) is refused before its
    # view (docs/venue.md).
    "tournaments.venue.edges.VenueHoldMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.security.SecurityHeadersMiddleware",
]

if not DEBUG:
    # Production serves collected static files itself; in development runserver does.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Persistent connections: opening one costs more than the single query of a cached page.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The embedded default serves one machine: a write waits for another (a phone saving a
    # hand while its live check still reads) instead of failing with "database is locked".
    # IMMEDIATE: a transaction takes the write lock when it begins, so the wait applies; one
    # that read first and then wrote could not wait (bench/load.py saw such 500s with several
    # server processes, and none with this).
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options.setdefault("timeout", 20)
    options.setdefault("transaction_mode", "IMMEDIATE")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Languages of the UI; the catalogues live in locale/. Times are stored in UTC and shown in
# each event's own time zone (Event.time_zone).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("sl", _("Slovenian")),
    ("cs", _("Czech")),
    ("de", _("German")),
]
LOCALE_PATHS = [
    # The printed sheets' own catalogue (tournaments.printing): only messages of context
    # "printout", so it decides the printouts' wording and nothing else.
    BASE_DIR / "tournaments" / "printing" / "locale",
    BASE_DIR / "locale",
]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
MEDIA_ROOT = env.path("MEDIA_ROOT", default=str(BASE_DIR / "media"))
MEDIA_URL = "media/"

# CSV imports (an event's players, a league season's divisions; tournaments.domain.limits): a file
# or pasted text over this many bytes is refused by its size before it is read (413), and one
# with more data rows than this as soon as the reader passes them (400). An import of this
# many rows fits in one web request (docs/performance.md, bench/csv_import.py); a larger list
# is imported in parts.
CSV_IMPORT_MAX_BYTES = env.int("CSV_IMPORT_MAX_BYTES", default=1_048_576)
CSV_IMPORT_MAX_ROWS = env.int("CSV_IMPORT_MAX_ROWS", default=5_000)

# Request bodies, chosen rather than left to Django's defaults (docs/security.md, "Limits"):
# - a body that is not a file (JSON, form fields) is refused beyond this many bytes before it
#   is read: 413 in the API's error shape (tournaments.api.errors), Django's 400 page on the
#   pages. 2.5 MiB, or twice a CSV import's limit if that is more: the largest JSON body a
#   client needs is a CSV import's text (`csv`), escaped;
# - an uploaded file beyond this many bytes is written to a temporary file as it arrives
#   instead of being held in memory, so a 60 MB upload costs the worker disk, not memory, and
#   the CSV imports refuse it by its size without reading it;
# - at most this many form fields (Django's default), refused with a 400 like the size.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE",
                                      default=max(2_621_440, 2 * CSV_IMPORT_MAX_BYTES))
FILE_UPLOAD_MAX_MEMORY_SIZE = env.int("FILE_UPLOAD_MAX_MEMORY_SIZE", default=2_621_440)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000

# Django's model backend, refusing every sign-in while its address or username is over the
# limit of failed logins (guard.login_limit).
AUTHENTICATION_BACKENDS = ["guard.login_limit.RateLimitedModelBackend"]

LOGIN_URL = "/accounts/login/"
# After logging in without a page to return to: a player's table, an organiser's events.
LOGIN_REDIRECT_URL = "after-login"
LOGOUT_REDIRECT_URL = "/"

# The limits on failed sign-ins, counted alike by the login page, the admin's login page and
# the API token endpoint (guard.login_limit, docs/security.md): failures allowed for one
# account from one address (or from one browser it signed in on before), across all accounts
# from one address (a venue's Wi-Fi is one address), and for one account from everywhere
# before unknown browsers wait a delay doubling up to LOGIN_DELAY_MAX_SECONDS.
LOGIN_FAILURES_ALLOWED = env.int("LOGIN_FAILURES_ALLOWED", default=5)
LOGIN_ADDRESS_FAILURES_ALLOWED = env.int("LOGIN_ADDRESS_FAILURES_ALLOWED", default=30)
LOGIN_USER_FAILURES_BEFORE_DELAY = env.int("LOGIN_USER_FAILURES_BEFORE_DELAY", default=10)
LOGIN_DELAY_MAX_SECONDS = env.int("LOGIN_DELAY_MAX_SECONDS", default=300)
LOGIN_FAILURE_WINDOW_SECONDS = env.int("LOGIN_FAILURE_WINDOW_SECONDS", default=900)

# Wrong table codes (and table links) counted within a quarter of an hour, per phone (its
# device cookie) and per address (tournaments.services.table_links): a hall of 64 tables shares the
# Wi-Fi's one address, and a few mistyped codes per table must not stop it.
TABLE_CODE_DEVICE_MISSES = env.int("TABLE_CODE_DEVICE_MISSES", default=10)
TABLE_CODE_ADDRESS_MISSES = env.int("TABLE_CODE_ADDRESS_MISSES", default=300)
TABLE_CODE_MISS_WINDOW_SECONDS = env.int("TABLE_CODE_MISS_WINDOW_SECONDS", default=900)

# Behind a reverse proxy every client has the proxy's address: the rate limits read the
# client's own from X-Forwarded-For as far as it was written by these proxies (addresses or
# networks), or by this many proxies in front of the app (guard.client_address,
# docs/deploy.md). Unset: REMOTE_ADDR is the client.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)

# The default cache coordinates the public PDFs rendered in requests, so every web process
# should see the same one: Redis with CACHE_URL, else a table of the database (created after
# every `migrate`). The rate limits count in the database itself (guard.counters).
# `check --deploy` warns when it is a cache of one process (config.checks). Public pages
# are cached in "pages": any process may keep its own copy, since their keys name the
# versions of what they show (tournaments.runtime.page_cache).
CACHES = {
    "default": env.cache("CACHE_URL", default="dbcache://django_cache"),
    "pages": env.cache("CACHE_URL", default="locmemcache://public-pages"),
}

# Mail (password reset, the players' messages) only with EMAIL_URL, e.g.
# smtp+tls://user:password@host:587 or consolemail:// for development; without it the
# password reset pages do not exist and no message to a player is queued or sent.
EMAIL_CONFIGURED = bool(env.str("EMAIL_URL", default=""))
if EMAIL_CONFIGURED:
    globals().update(env.email_url("EMAIL_URL"))
    DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="webmaster@localhost")
    # A mail server that answers nothing must not hold a worker (or, with no task queue, the
    # request that published a round) for ever: Django's default is no timeout at all.
    EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)

# At a venue (issue #32, docs/venue.md): the address phones reach this installation at, e.g.
# the laptop's address on the venue's Wi-Fi (http://192.168.1.20:8000). The QR codes of the
# sheets and badges, the table and personal links and the links in e-mails are built on it,
# and its host is allowed. Unset: the address each request came to.
PUBLIC_BASE_URL = env.str("PUBLIC_BASE_URL", default="").strip().rstrip("/")
if PUBLIC_BASE_URL:
    _public = urlsplit(PUBLIC_BASE_URL)
    if _public.scheme not in ("http", "https") or not _public.hostname or _public.path:
        raise ImproperlyConfigured(
            f"PUBLIC_BASE_URL must be a scheme and a host, like http://192.168.1.20:8000, "
            f"not {PUBLIC_BASE_URL!r}")
    if _public.hostname not in ALLOWED_HOSTS and "*" not in ALLOWED_HOSTS:
        ALLOWED_HOSTS.append(_public.hostname)
# The venue's Wi-Fi, printed as a join QR code on every table sheet so that a phone is on the
# laptop's network before it scans the table's code. Unset: no such code.
VENUE_WIFI_SSID = env.str("VENUE_WIFI_SSID", default="")
VENUE_WIFI_PASSWORD = env.str("VENUE_WIFI_PASSWORD", default="")
# The largest push of a venue laptop's event state this server reads, uncompressed (a whole
# archive: about 4 KB a hand, docs/venue.md).
VENUE_PUSH_MAX_BYTES = env.int("VENUE_PUSH_MAX_BYTES", default=64 * 1024 * 1024)
# The largest archive an import takes once inflated when it is sent compressed with gzip
# (tournaments.archive.api): a 1,024-player day of 4 rounds is about 80 MB of JSON.
ARCHIVE_MAX_BYTES = env.int("ARCHIVE_MAX_BYTES", default=512 * 1024 * 1024)
# A venue laptop pushes an event it holds by itself after each change (tournaments.venue.pusher):
# the changes of this many seconds together, and a failed push again after VENUE_PUSH_RETRY.
VENUE_AUTO_PUSH = env.bool("VENUE_AUTO_PUSH", default=True)
VENUE_PUSH_DELAY = env.int("VENUE_PUSH_DELAY", default=3)
VENUE_PUSH_RETRY = env.int("VENUE_PUSH_RETRY", default=30)

# Online entry (issue #31, docs/entries.md): how long the link that confirms an entrant's
# address lives, and how many entries one address (a venue's Wi-Fi is one address for all)
# may make in an hour and one e-mail address in a day.
ENTRY_CONFIRM_HOURS = env.int("ENTRY_CONFIRM_HOURS", default=48)
ENTRY_ADDRESS_LIMIT = env.int("ENTRY_ADDRESS_LIMIT", default=30)
ENTRY_EMAIL_LIMIT = env.int("ENTRY_EMAIL_LIMIT", default=5)

REST_FRAMEWORK = {
    # Token first: DRF answers a missing or wrong credential with 401 only when the first
    # class names a challenge (`WWW-Authenticate: Token`); the session has none, and would
    # make a wrong token a 403. A request without a token header still signs in by its
    # session (and its writes still need the CSRF token).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "tournaments.api.schema.ApiAutoSchema",
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api.parsers.JSONParser",
        "tournaments.api.parsers.FormParser",
        "tournaments.api.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "tournaments.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "tournaments.api.errors.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Tarok tournaments API",
    "DESCRIPTION": "Events, rounds, tables, scorecards, standings and the scoring engine.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Numbers in addresses (tournaments.pages.converters): at most nine digits.
    "PATH_CONVERTER_OVERRIDES": {"num": {"type": "integer", "minimum": 0, "maximum": 999999999}},
    # Several models have a "status" with their own choices: one enum name per model.
    "ENUM_NAME_OVERRIDES": {
        # The codes of a refused scorecard: the engine's one list (scoring.errors.ERROR_CODES).
        "ScorecardErrorCodeEnum": "scoring.api.SCORE_ERROR_CODES",
        "EventStatusEnum": "tournaments.models.Event.Status",
        "RegistrationStatusEnum": "tournaments.models.Registration.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "ScorecardStatusEnum": "tournaments.models.Scorecard.Status",
        "DisputeStatusEnum": "tournaments.models.Dispute.Status",
        "JobStatusEnum": "tournaments.models.Job.Status",
        "SeasonStatusEnum": "leagues.models.Season.Status",
        "SeasonMembershipOriginEnum": "leagues.models.SeasonMembership.Origin",
    },
    # Swagger UI is served from our own static files: venues often have poor internet, and
    # the content security policy allows no third-party scripts.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# The public seating list and standings PDFs of an event with more tables than this are
# rendered by the task queue, never in a web request (tournaments.printing.public_pdfs).
PDF_INLINE_MAX_TABLES = env.int("PDF_INLINE_MAX_TABLES", default=16)
# Such an event's standings are rendered once its results have not changed for this many
# seconds (the confirmations at the end of a round make one rendering, not one per table), but
# at most the longest wait after they were asked for (docs/printing.md).
PUBLIC_PDF_QUIET_SECONDS = env.float("PUBLIC_PDF_QUIET_SECONDS", default=3.0)
PUBLIC_PDF_LONGEST_WAIT_SECONDS = env.float("PUBLIC_PDF_LONGEST_WAIT_SECONDS", default=30.0)

# A round's table sheets are rendered in parts of this many tables, one Celery task each, so
# that several workers (or a worker's several processes) render one round together and the
# parts are joined into one PDF (tournaments.printing.services). 0 renders a round in one task.
# 64: a 1,024-player round is 4 parts, enough for the two processes of docs/deploy.md's worker
# while each part's own costs (reading the round, the join) stay small (docs/performance.md).
PDF_SHEETS_PART_TABLES = env.int("PDF_SHEETS_PART_TABLES", default=64)
# A worker lays a round's sheets and the public lists out in a child process that ends
# without freeing them, a sixth of the sheets' rendering (tournaments.printing.child_process);
# off only to debug the layout.
PDF_SHEETS_CHILD_PROCESS = env.bool("PDF_SHEETS_CHILD_PROCESS", default=True)

# Celery: unset broker means eager, in-process execution (embedded default).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
if not CELERY_BROKER_URL:
    # A host named, or kombu warns "No hostname was supplied" at each eager task.
    CELERY_BROKER_URL = "memory://localhost/"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "max_retries": 2, "interval_start": 0, "interval_step": 0.5,
    # A request must not hang on a broker that does not answer (tournaments.runtime.jobs).
    "socket_connect_timeout": 2,
    # An unacknowledged task of a killed worker goes back to the queue after this many
    # seconds (Redis); it must exceed the longest task run (docs/deploy.md).
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
}
# Publishing a task gives up quickly when the broker is down: the web request answers and the
# job stays queued until the broker is back (tournaments.runtime.jobs).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2,
                                    "interval_max": 0.5}

# The federation-style points list of a game family (rankings.families.points_rule): by
# default the cup points table of seed 001 and its six best results of the last 12 months;
# e.g. {"slovenian": {"scale": {1: 100, 2: 80, 3: 60}, "best": 5, "months": 12}}.
RANKING_POINTS: dict = {}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
