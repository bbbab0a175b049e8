# Every target makes its own virtual environment in .venv; a fresh machine needs only python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test check check-long bench bench-env clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,bench,cluster]'
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

# The bench's own environment: tengen plus the peers it is measured against (sgfmill,
# OpenSpiel, pgx on a CPU build of jax), kept out of the package's dependencies.
BENCH_VENV := bench/.venv
BENCH_BIN := $(BENCH_VENV)/bin
BENCH_STAMP := $(BENCH_VENV)/.installed
BENCH_PEERS := sgfmill open_spiel pgx jax jaxlib
# Shared machine: run the timings at lower priority (NICE= to turn off).
NICE ?= nice -n 5

$(BENCH_STAMP): pyproject.toml
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_BIN)/pip install --quiet --upgrade pip
	$(BENCH_BIN)/pip install --quiet -e '.[cluster]' $(BENCH_PEERS)
	touch $(BENCH_STAMP)

## bench-env: bench/.venv with tengen and the peers (sgfmill, OpenSpiel, pgx + CPU jax)
bench-env: $(BENCH_STAMP)

## bench: playouts (vs C, sgfmill), peers (OpenSpiel, pgx, memory), records, scoring, batch,
##        matches, analysis, the web app's game list, and a 10-game 9x9 match of the built-in
##        player against GNU Go
bench: $(BENCH_STAMP)
	$(NICE) $(BENCH_BIN)/python bench/playout.py
	$(NICE) $(BENCH_BIN)/python bench/peers.py
	$(NICE) $(BENCH_BIN)/python bench/records.py
	$(NICE) $(BENCH_BIN)/python bench/scoring.py
	$(NICE) $(BENCH_BIN)/python bench/batch.py
	$(NICE) $(BENCH_BIN)/python bench/match.py
	$(NICE) $(BENCH_BIN)/python bench/analysis.py
	$(NICE) $(BENCH_BIN)/python bench/web.py
	$(NICE) $(BENCH_BIN)/python bench/strength.py

clean:
	rm -rf $(VENV) $(BENCH_VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
