"""Settings come from the environment; a bad value stops the start with a clear message."""

from __future__ import annotations

import os
import re
import runpy
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

SETTINGS_FILE = Path(settings.BASE_DIR) / "sudokusite" / "settings.py"
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "example.com",
}


def load(monkeypatch, **env: str) -> dict:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS_FILE))


# Set by the test run itself (the browser tests need it); never in production.
NOT_INHERITED = {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    """manage.py in a fresh process: outside pytest, so production rules apply."""
    base = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("name", "value", "complaint"),
    [
        ("DEBUG", "maybe", "DEBUG='maybe' is not a boolean"),
        ("DATABASE_URL", "not-a-url", "is not a database URL"),
        ("DATABASE_URL", "mysql://u@h/db", "is not a database URL"),
        ("DATABASE_URL", "postgres://u@h:99999/db", "DATABASE_URL is malformed"),
        ("DATABASE_URL", "postgres://u@h:5432/", "names no database"),
        ("REDIS_URL", "http://localhost:6379", "is not a Redis URL"),
        ("REDIS_URL", "redis://localhost:6379/zero", "must be a database number"),
        ("REDIS_URL", "redis://localhost:port/0", "has a bad port"),
        ("TRUSTED_PROXY_COUNT", "two", "TRUSTED_PROXY_COUNT='two' is not a whole number"),
        ("TRUSTED_PROXY_COUNT", "-1", "TRUSTED_PROXY_COUNT=-1 is too small"),
        ("API_TOKEN_TTL_DAYS", "0", "API_TOKEN_TTL_DAYS=0 is too small"),
        ("LOGIN_FAILURE_LIMIT", "５", "is not a whole number"),
        ("CSRF_TRUSTED_ORIGINS", "example.com", "must be an origin"),
        ("EMAIL_URL", "pigeon://coop", "is not an email URL"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL='LOUD'"),
        ("AUTH_RATE_PER_ADDRESS", "lots", "must look like 10/min"),
        ("SECURE_SSL_REDIRECT", "sometimes", "SECURE_SSL_REDIRECT='sometimes'"),
        ("CELERY_TASK_TIME_LIMIT", "10", "must exceed CELERY_TASK_SOFT_TIME_LIMIT"),
    ],
)
def test_it_refuses_a_bad_value_naming_the_variable(monkeypatch, name, value, complaint):
    with pytest.raises(ImproperlyConfigured, match=complaint.replace("(", r"\(")):
        load(monkeypatch, **{name: value})


def test_it_reads_good_values(monkeypatch, tmp_path):
    loaded = load(
        monkeypatch,
        DEBUG="yes",
        DATABASE_URL="postgres://player:pw@db.internal:5433/sudoku",
        REDIS_URL="redis://cache.internal:6380/2",
        ALLOWED_HOSTS="a.example, b.example",
        TRUSTED_PROXY_COUNT="1",
        API_TOKEN_TTL_DAYS="7",
    )
    assert loaded["DEBUG"] is True
    database = loaded["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["HOST"], database["PORT"]) == ("sudoku", "db.internal", 5433)
    assert loaded["CELERY_BROKER_URL"] == "redis://cache.internal:6380/2"
    assert loaded["CELERY_BROKER_TRANSPORT_OPTIONS"]["visibility_timeout"] >= 3600
    assert loaded["CACHES"]["default"]["BACKEND"].endswith("RedisCache")
    assert loaded["ALLOWED_HOSTS"] == ["a.example", "b.example"]
    assert loaded["REST_FRAMEWORK"]["NUM_PROXIES"] == 1
    assert loaded["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert loaded["REST_KNOX"]["TOKEN_TTL"].days == 7


@pytest.mark.parametrize(
    "url",
    [
        "postgres://player@%2Fvar%2Frun%2Fpostgresql/sudoku",  # libpq's percent-encoded form
        "postgres://player@%2fvar%2frun%2fpostgresql:5432/sudoku",
        "postgres:////var/run/postgresql/sudoku",  # django-environ's own form
    ],
)
def test_it_reads_a_socket_directory_as_the_database_host(monkeypatch, url):
    database = load(monkeypatch, DEBUG="yes", DATABASE_URL=url)["DATABASES"]["default"]
    assert (database["NAME"], database["HOST"]) == ("sudoku", "/var/run/postgresql")


def test_it_runs_without_any_server_by_default(monkeypatch):
    for name in ("DATABASE_URL", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    loaded = load(monkeypatch)
    assert loaded["DATABASES"]["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert loaded["DATABASES"]["default"]["NAME"].endswith("var/db.sqlite3")
    assert loaded["CELERY_BROKER_URL"].startswith("filesystem://")
    assert loaded["CELERY_RESULT_BACKEND"].startswith("file://")
    assert loaded["CACHES"]["default"]["BACKEND"].endswith("LocMemCache")
    assert loaded["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"


def test_it_configures_celery_for_reliable_json_work():
    assert settings.CELERY_ACCEPT_CONTENT == ["json"]
    assert settings.CELERY_TASK_SERIALIZER == "json"
    assert settings.CELERY_TASK_ACKS_LATE is True
    assert settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
    assert 0 < settings.CELERY_TASK_SOFT_TIME_LIMIT < settings.CELERY_TASK_TIME_LIMIT
    assert not getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False)


def test_it_requires_a_secret_key_in_production():
    result = run_manage("check", DEBUG="0", ALLOWED_HOSTS="example.com")
    assert result.returncode != 0
    assert "SECRET_KEY is required when DEBUG is off" in result.stderr


def test_it_refuses_a_short_secret_key_in_production():
    result = run_manage("check", DEBUG="0", SECRET_KEY="short", ALLOWED_HOSTS="example.com")
    assert result.returncode != 0
    assert "SECRET_KEY is too short" in result.stderr


def test_it_passes_the_deployment_checklist_with_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_it_sends_secure_headers_in_production():
    script = (
        "import django; django.setup();"
        "from django.conf import settings as s;"
        "print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE,"
        " s.SECURE_HSTS_SECONDS >= 31536000, s.X_FRAME_OPTIONS,"
        " s.STORAGES['staticfiles']['BACKEND'].rsplit('.', 1)[-1],"
        " s.CACHES['default']['BACKEND'].rsplit('.', 1)[-1])"
    )
    base = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED | {"REDIS_URL"}}
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=settings.BASE_DIR,
        env={**base, **PRODUCTION_ENV, "DJANGO_SETTINGS_MODULE": "sudokusite.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "True",
        "True",
        "True",
        "True",
        "DENY",
        "CompressedManifestStaticFilesStorage",
        # Shared by every gunicorn worker, unlike a memory cache.
        "FileBasedCache",
    ]


def test_it_documents_every_variable_it_reads():
    source = SETTINGS_FILE.read_text()
    names = set(re.findall(r'(?:env_\w+|_raw|redis_url|database_from_url)\(\s*"([A-Z_]+)"', source))
    assert {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "TRUSTED_PROXY_COUNT"} <= names
    readme = (Path(settings.BASE_DIR) / "README.md").read_text()
    example = (Path(settings.BASE_DIR) / ".env.example").read_text()
    # A row of the README's table names it (a row may group a few related ones).
    rows = [line for line in readme.splitlines() if line.startswith("| `")]
    assert sorted(n for n in names if not any(f"`{n}`" in row for row in rows)) == []
    assert sorted(n for n in names if not re.search(rf"^{n}=", example, re.M)) == []


def test_it_starts_from_the_example_env_file(monkeypatch):
    example = (Path(settings.BASE_DIR) / ".env.example").read_text()
    values = dict(
        line.split("=", 1) for line in example.splitlines() if line and not line.startswith("#")
    )
    loaded = load(monkeypatch, **values)
    assert loaded["DEBUG"] is True
    assert loaded["DATABASES"]["default"]["ENGINE"] == "django.db.backends.sqlite3"


def test_a_pooled_process_holds_at_most_its_pool_of_connections(monkeypatch):
    url = "postgres://player:pw@db.internal:5433/sudoku"
    pooled = load(
        monkeypatch, DEBUG="yes", DATABASE_URL=url, DATABASE_POOL="1", DATABASE_POOL_SIZE="3"
    )["DATABASES"]["default"]
    assert pooled["CONN_MAX_AGE"] == 0  # Django's pool takes each connection back
    assert pooled["OPTIONS"]["pool"]["max_size"] == 3
    assert pooled["OPTIONS"]["pool"]["timeout"] == 10
    threaded = load(monkeypatch, DEBUG="yes", DATABASE_URL=url, DATABASE_POOL="0")
    assert "pool" not in threaded["DATABASES"]["default"]["OPTIONS"]
    assert threaded["DATABASES"]["default"]["CONN_MAX_AGE"] == 60


def test_the_asgi_application_pools_its_connections_unless_told_not_to():
    code = "import sudokusite.asgi, os; print(os.environ['DATABASE_POOL'])"
    base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_POOL"}}
    for env, expected in (({}, "1"), ({"DATABASE_POOL": "0"}, "0")):
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=settings.BASE_DIR,
            env={**base, "DEBUG": "1", **env},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.stdout.split()[-1:] == [expected], done.stderr
