# The two commands of the README. Both build .venv from nothing on a fresh machine.
# `make run` installs the companion only; `make test` adds the test and training extras
# (one test trains the reader's models for an epoch, so torch and ultralytics are needed).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORE := $(VENV)/.core-installed
DEV := $(VENV)/.dev-installed

.PHONY: run test lint format bench clean

$(CORE): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e .
	touch $(CORE)

$(DEV): $(CORE)
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test,train,lint]'
	touch $(DEV)

run: $(CORE)
	$(BIN)/spinner serve

test: $(DEV)
	$(BIN)/python -m pytest -q

# ruff (lint and format check) and mypy, as configured in pyproject.toml
lint: $(DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(DEV)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(DEV)
	$(BIN)/python bench/score_speed.py
	$(BIN)/python bench/read_speed.py
	$(BIN)/python bench/web_load.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
