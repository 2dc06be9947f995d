"""Settings for sudokusite, read from the environment.

Every variable is listed in README.md and .env.example. A value that cannot be
understood (``DEBUG=maybe``, a malformed ``DATABASE_URL``, a ``REDIS_URL`` that is
not ``redis://``) raises ImproperlyConfigured at start-up naming the variable,
instead of silently falling back to a default.

A ``.env`` file in the project root is read if present; the real environment wins.
"""

from __future__ import annotations

import os
import re
import sys
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from sudokusite.env import env_bool, env_int, env_list, env_str, env_value

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# pytest-django imports this module before any conftest runs, so a test run is
# recognised here rather than through an environment variable nobody remembers.
TESTING = "pytest" in sys.modules or sys.argv[1:2] == ["test"]


def database_from_url(name: str, url: str) -> dict:
    """Django DATABASES entry for a sqlite:// or postgres:// URL."""
    scheme = urlsplit(url).scheme
    if scheme not in {"sqlite", "postgres", "postgresql", "pgsql"}:
        raise ImproperlyConfigured(
            f"{name}={url!r} is not a database URL: expected sqlite:///path/to/db.sqlite3 "
            "or postgres://user:password@host:5432/dbname."
        )
    try:
        config = environ.Env.db_url_config(url)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} is malformed: {exc}.") from exc
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name}={url!r} names no database.")
    if scheme == "sqlite":
        if config["NAME"] != ":memory:":
            Path(config["NAME"]).parent.mkdir(parents=True, exist_ok=True)
        # Wait for a lock instead of failing at once when the web process and
        # the worker write at the same moment. A transaction takes the write lock when it
        # begins (IMMEDIATE): one that read first and wrote later could not wait for it
        # ("database is locked" at once, as SQLite will not risk a deadlock), and it is
        # what serialises the game actions here, where select_for_update does nothing.
        # WAL lets pages and the worker read while a move is written.
        config["OPTIONS"] = {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL",
        }
    else:
        # libpq's URIs name a socket directory as the host, percent-encoded
        # (postgres://user@%2Fvar%2Frun%2Fpostgresql/db): django-environ decodes the user,
        # password and name but leaves the host as written, which no connection would find.
        config["HOST"] = unquote(config.get("HOST") or "")
        # Off by default: a check is one more round trip (SELECT 1) at the start of every
        # request. Without it, a connection the server dropped fails one request, which
        # closes it (clients retry); with it, that request reconnects instead.
        config["CONN_HEALTH_CHECKS"] = env_bool("DATABASE_CONN_HEALTH_CHECKS", False)
        if env_bool("DATABASE_POOL", False):
            # An ASGI process runs sync code (views, the sockets' service calls) in threads
            # it makes as it goes, each of which would keep a connection of its own for
            # CONN_MAX_AGE: 77 for one two-process node. A pool (psycopg_pool, through
            # Django) lends each call one of at most DATABASE_POOL_SIZE connections and
            # takes it back after; a call that finds none free waits DATABASE_POOL_TIMEOUT
            # seconds, then answers 503. sudokusite.asgi turns it on.
            config["CONN_MAX_AGE"] = 0
            config.setdefault("OPTIONS", {})["pool"] = {
                "min_size": 1,
                "max_size": env_int("DATABASE_POOL_SIZE", 4, minimum=1, maximum=1000),
                "timeout": env_int("DATABASE_POOL_TIMEOUT", 10, minimum=1, maximum=600),
                "max_idle": 300,
            }
        else:
            # One connection per thread that uses one, kept between requests: gunicorn's
            # WSGI processes (a thread each per WEB_THREADS), Celery's.
            config["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
        # Server-side parameters and prepared statements: PostgreSQL parses and plans a
        # statement a connection repeats once, not on every request (a move's statements
        # cost the database about half the CPU). Turn off behind a pooler that cannot keep
        # prepared statements (PgBouncer in transaction mode before 1.21).
        if env_bool("DATABASE_PREPARED_STATEMENTS", True):
            config.setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)
    return config


def redis_url(name: str) -> str | None:
    url = env_value(name)
    if url is None:
        return None
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={url!r} has a bad port.") from exc
    if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
        raise ImproperlyConfigured(
            f"{name}={url!r} is not a Redis URL: expected redis://host:6379/0 (or rediss://)."
        )
    if parts.path.strip("/") and not parts.path.strip("/").isdigit():
        raise ImproperlyConfigured(f"{name}={url!r}: the path must be a database number.")
    return url


# --- Core -----------------------------------------------------------------

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if DEBUG or TESTING:
        SECRET_KEY = "django-insecure-local-development-key-never-use-in-production"
    else:
        raise ImproperlyConfigured(
            "SECRET_KEY is required when DEBUG is off. Generate one with: "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
elif not DEBUG and not TESTING and len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("SECRET_KEY is too short: use at least 50 random characters.")

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG or TESTING else []
)
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is required when DEBUG is off (e.g. example.com).")

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
for _origin in CSRF_TRUSTED_ORIGINS:
    if urlsplit(_origin).scheme not in {"http", "https"} or not urlsplit(_origin).netloc:
        raise ImproperlyConfigured(
            f"CSRF_TRUSTED_ORIGINS item {_origin!r} must be an origin like https://example.com."
        )

SITE_NAME = env_str("SITE_NAME", "Sudoku")

# How many reverse proxies in front of the app append to X-Forwarded-For. With
# the default 0 the header is never trusted, so a client cannot pick its own
# address to dodge login throttling.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0, maximum=10)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "axes",
    "sudokusite",
    "accounts",
    "puzzles",
    "play",
    "solving",
    "ratings",
    "replays",
    "integrity",
    "learn",
    "races",
    "channels",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The language: the language cookie, then Accept-Language (an account's saved choice
    # comes first: accounts.middleware, once the user is known). Before anything that
    # may answer, so every error is in the reader's language.
    "sudokusite.middleware.LocaleMiddleware",  # Django's, for URLs without a language prefix
    "sudokusite.middleware.ApiBodySizeLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Django's, with an API URL missing its slash answered 404 instead of redirected.
    "sudokusite.middleware.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.AccountLanguageMiddleware",
    "sudokusite.middleware.MessageMiddleware",  # Django's, with no storage for /api/
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "sudokusite.csp.CSPMiddleware",  # django-csp's, with the site policy built once
    # Last, so it sees the login attempts the views made.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "sudokusite.urls"
WSGI_APPLICATION = "sudokusite.wsgi.application"
# HTTP and the race sockets (races.routing), served by uvicorn (see docs/operations.md).
ASGI_APPLICATION = "sudokusite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "sudokusite.context_processors.site",
            ],
        },
    },
]

DATABASES = {
    "default": database_from_url(
        "DATABASE_URL", env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = redis_url("REDIS_URL")

# Login throttles count in the cache, so every web and worker process must share
# it: Redis when configured, else files under var/cache (shared by the processes
# of one machine). Tests use a per-process memory cache.
CACHE_KEY_PREFIX = env_str("CACHE_KEY_PREFIX", "sudoku")
if TESTING:
    # Parallel test runs sharing one Redis database must not see each other's keys.
    CACHE_KEY_PREFIX = f"test-{os.getpid()}"
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
        }
    }
elif TESTING:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": CACHE_KEY_PREFIX,
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
            "KEY_PREFIX": CACHE_KEY_PREFIX,
        }
    }

# --- Races (Django Channels) -------------------------------------------------

# The channel layer carries a race's updates to every socket watching it, whichever
# process holds the socket: Redis with REDIS_URL (every process of every machine), else
# in memory (one process: `make run`, the tests without Redis). Redis' Pub/Sub layer: a
# group send is one PUBLISH that each subscribed process fans out to its own sockets (the
# list-based RedisChannelLayer pushes a copy per socket and pops each one). Delivery is
# at most once, which suits progress updates: a socket that reconnects gets a snapshot.
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                "prefix": f"{CACHE_KEY_PREFIX}:channels",
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

RACE_COUNTDOWN_SECONDS = env_int("RACE_COUNTDOWN_SECONDS", 5, minimum=1, maximum=60)
# Races a player may host at once (not yet finished), and how fast they may make them.
RACE_OPEN_LIMIT = env_int("RACE_OPEN_LIMIT", 3, minimum=1, maximum=100)
# A socket's messages: the largest accepted, and how many a second (a burst of twice that).
RACE_SOCKET_MAX_BYTES = 1024
RACE_SOCKET_RATE = env_int("RACE_SOCKET_RATE", 5, minimum=1, maximum=100)
# Race sockets open at once per account and per client address (TRUSTED_PROXY_COUNT decides
# which), counted over every node (races.socket_caps); one more is closed with 4409. An
# address is shared by a household, a school or a carrier's NAT: it gets more.
RACE_SOCKETS_PER_USER = env_int("RACE_SOCKETS_PER_USER", 10, minimum=1, maximum=10_000)
RACE_SOCKETS_PER_ADDRESS = env_int("RACE_SOCKETS_PER_ADDRESS", 100, minimum=1, maximum=100_000)

# --- Authentication ---------------------------------------------------------

AUTHENTICATION_BACKENDS = [
    # Axes first: it refuses a locked-out username or address before any
    # password is checked.
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, with the username in any case (usernames are unique
    # regardless of case).
    "accounts.backends.CaseInsensitiveModelBackend",
    # Never reached by a sign-in (the one above decides every username and password);
    # listed so that sessions it signed in before stay signed in.
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 8},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Length counts spaces: refuse a password of blanks or of a few repeated characters.
    {"NAME": "accounts.validators.DistinctCharactersValidator", "OPTIONS": {"min_distinct": 5}},
]
if TESTING:
    # Hashing is deliberately slow; tests create many users.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"  # the lobby: a player who logs in wants to play
LOGOUT_REDIRECT_URL = "home"

# django-axes: after LOGIN_FAILURE_LIMIT failed logins for one username, or from
# one client address, further attempts are refused for LOGIN_COOLOFF_MINUTES.
# One password-reset email per address per this many seconds (web and API).
PASSWORD_RESET_EMAIL_INTERVAL = env_int("PASSWORD_RESET_EMAIL_INTERVAL", 300, minimum=0)
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
# Failures count under the lower-cased username, as sign-in ignores case.
AXES_USERNAME_CALLABLE = "accounts.backends.lockout_username"
# A success clears only the failures of the name that signed in (accounts.lockout).
AXES_HANDLER = "accounts.lockout.LockoutHandler"
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "sudokusite.net.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_VERBOSE = False

API_TOKEN_TTL_DAYS = env_int("API_TOKEN_TTL_DAYS", 30, minimum=1, maximum=3650)
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=API_TOKEN_TTL_DAYS),
    # An idle device signs in again after TOKEN_TTL; an active one keeps its token.
    "AUTO_REFRESH": True,
    "MIN_REFRESH_INTERVAL": 60,
    "AUTH_HEADER_PREFIX": "Token",
}

# --- The game clock -----------------------------------------------------------

# The clock counts only while someone plays: of the time between two signs of life (a
# move, any write, a heartbeat the game page sends while it is visible), at most this
# many seconds count. A browser killed mid-game stops the clock within this gap; the page
# sends its heartbeat three times per gap (docs/playing.md#the-clock).
GAME_CLOCK_GAP_SECONDS = env_int("GAME_CLOCK_GAP_SECONDS", 60, minimum=10, maximum=3600)

# --- API --------------------------------------------------------------------

# Largest request body the API reads, in bytes; larger answers 413.
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 256 * 1024, minimum=1024)

# Work one solver request may spend on a 9x9 grid: search nodes, and logic-engine
# technique passes. Bigger grids get fewer, as each costs more there (see
# solving/services.py); a grid that needs more is answered 422 too_hard.
SOLVER_NODE_BUDGET = env_int("SOLVER_NODE_BUDGET", 20_000, minimum=100, maximum=1_000_000)
SOLVER_LOGIC_BUDGET = env_int("SOLVER_LOGIC_BUDGET", 3_500, minimum=100, maximum=100_000)

# Work one player may ask of the server (play/limits.py): games started per minute and
# per day (per user; a guest per session and per address), writes per game per cell of
# its grid (a 9x9 game about 200 with notes and undo; 8 per cell allows 648), and game
# analyses queued per hour (beyond it a game ends without one).
GAME_STARTS_PER_MINUTE = env_int("GAME_STARTS_PER_MINUTE", 20, minimum=1)
GAME_STARTS_PER_DAY = env_int("GAME_STARTS_PER_DAY", 500, minimum=1)
GAME_MOVES_PER_CELL = env_int("GAME_MOVES_PER_CELL", 8, minimum=2, maximum=1000)
ANALYSES_PER_HOUR = env_int("ANALYSES_PER_HOUR", 30, minimum=0)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # knox's tokens, in one query per request (see accounts/auth.py).
        "accounts.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["sudokusite.parsers.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "sudokusite.negotiation.ContentNegotiation",
    "DEFAULT_PAGINATION_CLASS": "sudokusite.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "DEFAULT_SCHEMA_CLASS": "sudokusite.schema.AutoSchema",
    "EXCEPTION_HANDLER": "sudokusite.errors.api_exception_handler",
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_THROTTLE_RATES": {
        "auth_address": env_str("AUTH_RATE_PER_ADDRESS", "30/min"),
        "auth_username": env_str("AUTH_RATE_PER_USERNAME", "10/min"),
        "register": env_str("REGISTER_RATE_PER_ADDRESS", "20/hour"),
        "password_reset": env_str("PASSWORD_RESET_RATE_PER_ADDRESS", "20/hour"),
        # The solver endpoints, per signed-in user or per client address for guests.
        "solver_analyse": env_str("SOLVER_ANALYSE_RATE", "30/min"),
        "solver_hint": env_str("SOLVER_HINT_RATE", "60/min"),
        "race_create": env_str("RACE_CREATE_RATE", "20/hour"),
    },
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
for _scope, _rate in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].items():
    if not re.fullmatch(r"[1-9][0-9]*/(s|sec|m|min|h|hour|d|day)", _rate):
        raise ImproperlyConfigured(f"Throttle rate {_rate!r} for {_scope} must look like 10/min.")

SPECTACULAR_SETTINGS = {
    "TITLE": "Sudoku API",
    "DESCRIPTION": (
        "Version 1 of the Sudoku API. Authenticate with `Authorization: Token <key>` "
        "from POST /api/v1/auth/token/. Errors have one shape, the Error component: "
        '`{"error": {"code": "...", "message": "..."}}` (a stale version\'s 409 is a '
        "StaleVersionError, with the game). Each error response lists the codes it can "
        "carry in `x-error-codes` and in its description."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # Assets come from drf-spectacular-sidecar, served by us: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A game's status shows in two components (a game, a game in the list): one name.
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "play.models.Status",
        "VariantEnum": "puzzles.models.Variant",
        # A race is classic only so far (races.api.serializers).
        "RaceVariantEnum": ["classic"],
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "sudokusite.schema.add_error_responses",
        "sudokusite.schema.name_parameter_enums",
        "sudokusite.schema.add_language_header",
    ],
}

# --- Celery -----------------------------------------------------------------

CELERY_DATA_DIR = Path(
    env_str("CELERY_DATA_DIR", str(VAR_DIR / ("celery-test" if TESTING else "celery")))
)
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # A task not acknowledged within this time is handed to another worker:
        # it must exceed the hard time limit and any countdown we use. (Tests that
        # kill workers set it to seconds, so the lost work comes back quickly.)
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=1),
        # How often a worker looks for tasks whose worker died (past the visibility
        # timeout) and puts them back on their queue; 1 = on every sweep.
        "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 60, minimum=1),
        "unacked_restore_throttle": 1,
    }
else:
    for _sub in ("queue", "processed", "results", "control"):
        (CELERY_DATA_DIR / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://localhost//"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_DATA_DIR / "queue"),
        "data_folder_out": str(CELERY_DATA_DIR / "queue"),
        "processed_folder": str(CELERY_DATA_DIR / "processed"),
        "control_folder": str(CELERY_DATA_DIR / "control"),
        "store_processed": False,
    }
    CELERY_RESULT_BACKEND = f"file://{CELERY_DATA_DIR / 'results'}"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_RESULT_EXPIRES = timedelta(days=1)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 300, minimum=1)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 360, minimum=1)
if CELERY_TASK_TIME_LIMIT <= CELERY_TASK_SOFT_TIME_LIMIT:
    raise ImproperlyConfigured("CELERY_TASK_TIME_LIMIT must exceed CELERY_TASK_SOFT_TIME_LIMIT.")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# When the broker connection drops (Redis restarts), a running task finishes instead of
# being cancelled: its rows are written whatever happens to its message, which Redis may
# have lost anyway (puzzles.pack_resume_stalled sends lost chunks again).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(CELERY_DATA_DIR / "beat-schedule")
# A pack chunk quiet for this long (nothing started, finished or sent) has lost its
# message (a broker restarted without persistence, or was down when the pack was asked
# for): puzzles.pack_resume_stalled sends it again. It must exceed the hard time limit,
# so a chunk still running is never sent twice; the sweep runs four times per period.
PACK_STALL_SECONDS = env_int("PACK_STALL_SECONDS", 2 * CELERY_TASK_TIME_LIMIT, minimum=2)
if PACK_STALL_SECONDS <= CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured("PACK_STALL_SECONDS must exceed CELERY_TASK_TIME_LIMIT.")
# Apps add their periodic tasks here, e.g. the puzzle bank's top-up.
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    # Queue packs for any size/level below PUZZLE_BANK_MINIMUM puzzles.
    "puzzles-bank-top-up": {"task": "puzzles.bank_top_up", "schedule": 600.0},
    # Choose today's and tomorrow's daily puzzles (idempotent).
    "puzzles-daily-pick": {"task": "puzzles.daily_puzzles_pick", "schedule": 3600.0},
    # Send again the chunks of packs that stopped moving (a lost message).
    "puzzles-pack-resume": {
        "task": "puzzles.pack_resume_stalled",
        "schedule": PACK_STALL_SECONDS / 4,
    },
    # Drop API tokens that expired (daily).
    "accounts-token-purge": {"task": "accounts.token_purge_expired", "schedule": 86400.0},
    # Give puzzles stored since the last run their starting rating (ratings.prior).
    "ratings-puzzle-backfill": {"task": "ratings.puzzle_ratings_backfill", "schedule": 600.0},
    # Start or time out the races nobody is watching when they fall due.
    "races-advance-due": {"task": "races.race_advance_due", "schedule": 30.0},
    # Keep Killer practice puzzles for each Killer technique (learn.variant_practice).
    "learn-variant-practice-top-up": {"task": "learn.variant_practice_top_up", "schedule": 600.0},
    # And for each constraint lesson made at levels (learn.constraint_practice).
    "learn-constraint-practice-top-up": {
        "task": "learn.constraint_practice_top_up",
        "schedule": 600.0,
    },
}

# The puzzle bank keeps at least PUZZLE_BANK_MINIMUM puzzles of each size and
# level, topping up to PUZZLE_BANK_TARGET.
PUZZLE_BANK_MINIMUM = env_int("PUZZLE_BANK_MINIMUM", 10, minimum=0, maximum=100_000)
PUZZLE_BANK_TARGET = env_int("PUZZLE_BANK_TARGET", 30, minimum=1, maximum=100_000)
if PUZZLE_BANK_TARGET < PUZZLE_BANK_MINIMUM:
    raise ImproperlyConfigured("PUZZLE_BANK_TARGET must be at least PUZZLE_BANK_MINIMUM.")

# --- Email ------------------------------------------------------------------

EMAIL_URL = env_value("EMAIL_URL")
if EMAIL_URL:
    if urlsplit(EMAIL_URL).scheme not in {"smtp", "smtps", "smtp+tls", "smtp+ssl", "consolemail"}:
        raise ImproperlyConfigured(
            f"EMAIL_URL={EMAIL_URL!r} is not an email URL: expected smtp+tls://user:pass@host:587."
        )
    globals().update(environ.Env.email_url_config(EMAIL_URL))
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Sudoku <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Internationalisation and static files ---------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The choice a visitor makes in the switcher, kept a year (Django's default is a session).
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # The manifest needs collectstatic; only production runs it.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG or TESTING
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG or TESTING
WHITENOISE_AUTOREFRESH = DEBUG or TESTING

# --- Security ---------------------------------------------------------------

X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

if TRUSTED_PROXY_COUNT:
    # The proxy that terminates TLS tells us the original scheme.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

PRODUCTION = not DEBUG and not TESTING
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", PRODUCTION)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", PRODUCTION)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if PRODUCTION else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", PRODUCTION)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", PRODUCTION)

# Everything is served from our own origin: no CDN, no inline script or style.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# --- Logging ----------------------------------------------------------------

LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(f"LOG_LEVEL={LOG_LEVEL!r} is not DEBUG, INFO, WARNING or ERROR.")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}
