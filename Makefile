# Everyday commands. `make run` and `make test` work on a fresh clone with only Python 3.11.

SHELL := /bin/bash
# The interpreter .venv is made from: the distribution's Python 3.11 where it has one that
# can make a venv, else the first python3.11 (or python3) on PATH; `make PYTHON=...` picks
# another. Debian builds its interpreter with profile-guided optimisation and links it
# statically; a pyenv build of the same version has neither, and runs a move through
# Django slower (docs/performance.md).
SYSTEM_PYTHON := /usr/bin/python3.11
PYTHON ?= $(shell if $(SYSTEM_PYTHON) -c 'import ensurepip, venv' 2>/dev/null; \
	then echo $(SYSTEM_PYTHON); else command -v python3.11 || command -v python3; fi)
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(CURDIR)/$(VENV)/bin
STAMP := $(VENV)/.requirements-installed
# The installer itself is pinned too, so a fresh venv resolves the same way every time.
PIP_VERSION := 26.3
PORT ?= 8000
HOST ?= 127.0.0.1
# gunicorn processes: one per core, each with WEB_THREADS threads (gunicorn.conf.py).
WEB_CONCURRENCY ?= $(shell nproc)
PYTEST_ARGS ?= -n auto --durations=25

export PYTHONUNBUFFERED := 1

.PHONY: venv run seed test lint fmt bench chaos drill serve asgi migrate clean messages

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the requirements change.
$(STAMP): requirements.txt constraints.txt | $(PY)
	$(PY) -m pip install --quiet pip==$(PIP_VERSION)
	$(PY) -m pip install --quiet -r requirements.txt -c constraints.txt
	touch $@

venv: $(STAMP)

migrate: venv
	$(PY) manage.py migrate --noinput

# Starter data: the puzzle bank's starter puzzles and today's daily puzzles (idempotent, seconds).
seed: migrate
	$(PY) manage.py seed_bank

# Development: uvicorn with reload (pages, API and race sockets) on 127.0.0.1:$(PORT) plus a
# Celery worker with beat, on the embedded defaults (SQLite, filesystem broker, in-memory
# channel layer). Ctrl-C stops both.
run: export DEBUG := 1
run: export PORT := $(PORT)
run: seed
	PATH="$(BIN):$$PATH" $(BIN)/honcho start -f Procfile.dev

test: venv
	$(BIN)/ruff check .
	$(PY) -m pytest $(PYTEST_ARGS)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The translation catalogs (locale/zh_Hans): collect the strings of the Python code,
# templates and static/js (makemessages needs GNU gettext's xgettext, a developer's tool),
# then compile the .mo files with Babel. The .mo files are committed, so `make run` and
# `make test` need neither; tests/test_i18n_catalog.py fails when they fall behind.
MESSAGE_FLAGS := -l zh_Hans --add-location=file --no-obsolete --ignore=.venv --ignore=staticfiles \
	--ignore=tests --ignore=bench --ignore=static/api
messages: venv
	DEBUG=1 $(PY) manage.py makemessages $(MESSAGE_FLAGS)
	DEBUG=1 $(PY) manage.py makemessages -d djangojs $(MESSAGE_FLAGS)
	$(BIN)/pybabel compile --statistics -d locale -l zh_Hans -D django
	$(BIN)/pybabel compile --statistics -d locale -l zh_Hans -D djangojs

fmt: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Every benchmark section; the report, with the date and the machine, goes to
# bench/RESULTS.md. PostgreSQL and Redis come from DATABASE_URL and REDIS_URL, else the
# local defaults if they answer (sections that need a missing one say they were skipped).
bench: venv
	$(PY) -m bench --out bench/RESULTS.md

# Faults while players play and a pack is made (ops/chaos.py): a worker SIGKILLed, Redis
# restarted, gunicorn SIGKILLed; then the invariants. About three minutes; exit 1 on a
# broken invariant. Needs PostgreSQL (CHAOS_DATABASE_URL, default .../chaos, recreated)
# and redis-server on the PATH (it starts its own on CHAOS_REDIS_PORT, default 6390).
chaos: venv
	$(PY) -m ops.chaos

# The site on two web machines (ops/drill.py): two nodes on 127.0.0.2 and 127.0.0.3 behind
# HAProxy, one PostgreSQL, one Redis, two workers; a node killed, a node's database cut,
# then the invariants and the figures. About three minutes; exit 1 on a broken invariant.
# Needs PostgreSQL (DRILL_DATABASE_URL, default .../drill, recreated) and redis-server;
# installs Debian's haproxy when it is missing (as root, like .ci/run's Chromium).
drill: venv
	@command -v haproxy >/dev/null || { echo "Installing HAProxy (Debian's package)"; \
		DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends haproxy </dev/null; }
	$(PY) -m ops.drill

# Production-like: gunicorn, a Celery worker and beat, against DATABASE_URL and
# REDIS_URL from the environment (SECRET_KEY and ALLOWED_HOSTS are required).
serve: export WEB_CONCURRENCY := $(WEB_CONCURRENCY)
serve: export PORT := $(PORT)
serve: venv
	$(PY) manage.py check --deploy
	$(PY) manage.py collectstatic --noinput
	$(PY) manage.py migrate --noinput
	PATH="$(BIN):$$PATH" $(BIN)/honcho start -f Procfile

# One ASGI node on HOST:PORT: the whole site over HTTP and the race sockets (/ws/), gunicorn
# managing uvicorn workers (sudokusite/workers.py, gunicorn.conf.py's processes and pinning),
# against DATABASE_URL and REDIS_URL (the channel layer). E.g. two nodes behind a proxy:
# `make asgi HOST=0.0.0.0 PORT=8001` on each machine.
asgi: export WEB_CONCURRENCY := $(WEB_CONCURRENCY)
asgi: venv
	$(BIN)/gunicorn sudokusite.asgi:application --worker-class sudokusite.workers.AsgiWorker \
		--bind $(HOST):$(PORT) --access-logfile - --forwarded-allow-ips 127.0.0.1

clean:
	rm -rf staticfiles test-artifacts .pytest_cache .ruff_cache .mypy_cache
