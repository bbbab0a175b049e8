# Every target makes its own virtual environment in .venv; a fresh machine needs only python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test check check-long bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

## play: the web app to play and review Go (prints its URL; ARGS="--engine 'gnugo --mode gtp'")
play: $(STAMP)
	$(BIN)/tengen serve $(ARGS)

## test: run every test (GNU Go cross-checks included when gnugo is installed)
test: $(STAMP)
	$(BIN)/pytest -q

## check: lint and type-check (mypy strict on tengen.core)
check: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

## check-long: the long GNU Go cross-check (30 games per size and rule setting, ~25 min)
check-long: $(STAMP)
	TENGEN_CROSSCHECK_GAMES=30 $(BIN)/pytest -q tests/core/test_gnugo_crosscheck.py

## bench: playouts (vs sgfmill and C), records (vs sgfmill), scoring (vs GNU Go), batch; tables + JSON
bench: $(STAMP)
	$(BIN)/python bench/playout.py
	$(BIN)/python bench/records.py
	$(BIN)/python bench/scoring.py
	$(BIN)/python bench/batch.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
