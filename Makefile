# Two commands on a fresh machine:  `make run`  and  `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# The unit suite runs in this many pytest-xdist workers (each with its own test database,
# on SQLite and on PostgreSQL alike); `make test TEST_WORKERS=0` runs it without workers.
TEST_WORKERS ?= 2

.PHONY: run test checks test-unit test-unit-early test-unit-late test-postgres test-integration test-e2e lint bench casebook clean install engine-native

# The packages are installed by uv (Astral's resolver and installer): on the 2-core machine it
# installs the project and its dev tools in ~40 s where pip took 2-5 minutes (issue 32,
# item 7), with the same versions. Where uv cannot be had, pip does it as before.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	($(PIP) install --quiet 'uv>=0.5' && \
	  $(VENV)/bin/uv pip install --quiet --python $(PY) -e '.[dev]') || \
	  $(PIP) install --quiet -e '.[dev]'
	touch $(STAMP)

# Each ruleset's hot modules compiled by mypyc from their source (issues 15 and 32): a group
# and a manifest per ruleset (`NATIVE` in its package, `campaign.rules.native`); after an
# edit the script rebuilds only the rulesets whose source changed, two at a time. A ruleset
# uses its build only while it matches its source (else, or without a C compiler, it runs
# from source: `ENGINE_PURE=1` forces that).
NATIVE := build/engine-native/.built
NATIVE_SOURCES := $(wildcard battles/rulesets/*/*.py battles/rulesets/*/*/*.py \
                             battles/rulesets/*/*/*/*.py)
$(NATIVE): $(STAMP) $(NATIVE_SOURCES) scripts/build_engine.py
	$(PY) scripts/build_engine.py
	@mkdir -p $(@D) && touch $@

engine-native: $(NATIVE)

install: $(STAMP) $(NATIVE)

run: $(STAMP) $(NATIVE)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo --if-empty
	$(PY) manage.py runserver_with_clock $(HOST):$(PORT)

# The whole suite on SQLite with in-process jobs; with CI set (or INTEGRATION=1) also
# the same suite on PostgreSQL, the PostgreSQL + Redis + Celery worker suite (which then
# must not be skipped) and the browser suite in Debian's headless chromium (installed by
# scripts/install-e2e.sh).
# The checks (ruff, import-linter, mypy, migrations) run beside the engine build and the
# unit suite (`-j4`, each target's output kept together): mypy and import-linter use one
# core, so one after the other they left the second core idle for minutes on a fresh
# clone, where mypy has no cache (issue 32, item 7). Any of them failing fails `make test`.
test: $(STAMP)
	$(MAKE) --no-print-directory -j4 --output-sync=target checks test-unit-early test-unit-late
	@if [ -n "$$CI" ] || [ -n "$$INTEGRATION" ]; then \
	  $(MAKE) --no-print-directory test-postgres && \
	  $(MAKE) --no-print-directory test-integration && $(MAKE) --no-print-directory test-e2e; fi

# The suite in two parts (issue 32, item 7). On a fresh clone the engine build uses less
# than one core on average (91 s of CPU in its ~100 s: two rulesets at a time, then the last
# alone) and the checks ~20 s of CPU, so the tests of EARLY_TESTS (none of which needs the
# compiled engines; a ruleset not built yet runs from its source, bit-identical) run beside
# the build in one process; the rest wait for the build and run in TEST_WORKERS workers.
# Together they are the whole suite (the second part ignores the first's directories).
EARLY_TESTS ?= tests/security tests/economy tests/territories
test-unit: $(STAMP)
	$(MAKE) --no-print-directory -j3 --output-sync=target test-unit-early test-unit-late

test-unit-early: $(STAMP)
	$(PY) -m pytest -m "not integration and not e2e" -q $(EARLY_TESTS)

test-unit-late: $(STAMP) $(NATIVE)
	$(PY) -m pytest -m "not integration and not e2e" -q -n $(TEST_WORKERS) \
	  $(addprefix --ignore=,$(EARLY_TESTS))

# The same suite on PostgreSQL: SQLite hides locking and SQL that only PostgreSQL refuses.
test-postgres: $(STAMP) $(NATIVE)
	DATABASE_URL=$${POSTGRES_TEST_URL:-postgres://postgres@127.0.0.1:5432/unlimit3d_suite} \
	  $(PY) -m pytest -m "not integration and not e2e" -q -n $(TEST_WORKERS) -p no:randomly

test-integration: $(STAMP) $(NATIVE)
	REQUIRE_SERVICES=1 DATABASE_URL=$${INTEGRATION_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/unlimit3d} \
	  CELERY_BROKER_URL=$${INTEGRATION_BROKER_URL:-redis://127.0.0.1:6379/5} \
	  $(PY) -m pytest -m integration -q -p no:randomly

# Headless Chromium (Debian's package) driven by Playwright through a two-player turn;
# screenshots land in artifacts/screenshots/.
test-e2e: $(STAMP)
	bash scripts/install-e2e.sh
	$(PY) -m pytest -m e2e tests/e2e -q -p no:randomly

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

checks: lint
	$(PY) manage.py makemigrations --check --dry-run

casebook: $(STAMP) $(NATIVE)
	$(PY) manage.py casebook tests/casebook

bench: $(STAMP) $(NATIVE)
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles build/engine-native
