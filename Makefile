# The two commands a new machine needs:  make run   and   make test
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install run test lint bench

$(BIN)/daily: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(BIN)/daily

install: $(BIN)/daily

run: install
	$(BIN)/daily serve

test: install
	$(BIN)/ruff check .
	$(BIN)/pytest -n 2

lint: install
	$(BIN)/ruff check .
