# The two commands of the README. Both build .venv from nothing on a fresh machine.
# `make run` installs the companion only; `make test` adds the test and training extras
# (one test trains the reader's models for an epoch, so torch and ultralytics are needed).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORE := $(VENV)/.core-installed
DEV := $(VENV)/.dev-installed

.PHONY: run test bench clean

$(CORE): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(CORE)

$(DEV): $(CORE)
	$(BIN)/pip install --quiet -e '.[test,train]'
	touch $(DEV)

run: $(CORE)
	$(BIN)/spinner serve

test: $(DEV)
	$(BIN)/python -m pytest -q

bench: $(DEV)
	$(BIN)/python bench/score_speed.py
	$(BIN)/python bench/read_speed.py
	$(BIN)/python bench/web_load.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
