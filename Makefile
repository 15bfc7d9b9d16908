# The two commands a new machine needs:  make run   and   make test
#   make run    installs what running needs (no development tools) and runs `daily serve`
#               (make run PORT=8080: on port 8080)
#   make test   installs the development tools too, then ruff, mypy and the whole test suite
#   make test-fast   the inner loop: no live servers, browser or worker processes (tests/README.md)
#   make typecheck   mypy alone (over daily and workers; config in pyproject.toml)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_DEPS := $(VENV)/.installed-run
DEV_DEPS := $(VENV)/.installed-dev

.PHONY: install install-run run test test-fast lint typecheck test-prereqs

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(RUN_DEPS): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(DEV_DEPS): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(RUN_DEPS) $@

install-run: $(RUN_DEPS)

# A developer's setup: the service plus the test and lint tools.
install: $(DEV_DEPS)

# `make run PORT=8080` serves on another port (default DAILY_PORT or 8000);
# `make run SERVE_ARGS="--access-log"` passes any other `daily serve` option.
PORT ?=
SERVE_ARGS ?=
run: install-run
	$(BIN)/daily serve $(if $(PORT),--port $(PORT)) $(SERVE_ARGS)

# Debian's chromium for the browser tests and nginx-light for the nginx error-page test
# (installed when running as root with apt-get).
test-prereqs:
	@tools/need_chromium.sh
	@tools/need_nginx.sh

lint: install
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy

# With no Redis on 127.0.0.1:6379 (and DAILY_TEST_REDIS_URL unset) the tests start the
# embedded Valkey for the run (tests/conftest.py). mypy fails the run on any type error.
# Four test processes on two cores: part of the suite waits on servers it started, and
# the extra processes fill those waits; --dist worksteal keeps a module's tests (and its
# live server) in one process and lets an idle process take half of the busiest one's rest.
test: install test-prereqs
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest -n 4 --dist worksteal

# The fast tier (tests/README.md): what needs no live server, browser, worker process or
# server of its own, and takes no more than a few seconds (the markers of tests/tiers.py).
# It uses the test Redis as `make test` does.
test-fast: install
	$(BIN)/pytest -n 2 -q -m "not live and not browser and not slow and not spawns"
