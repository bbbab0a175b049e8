# Every target makes its own virtual environment in .venv; a fresh machine needs only python3.
# `make play` installs what the app needs at run time; `make test` and `make check` add the
# dev tools (and Dask, for the cluster test) to the same .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY_STAMP := $(VENV)/.play-installed
STAMP := $(VENV)/.installed

.PHONY: play test check check-long fuzz bench bench-env bench-quick pachi strength katago rapfi clean

$(PLAY_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(PLAY_STAMP)

$(STAMP): $(PLAY_STAMP)
	$(BIN)/pip install --quiet -e '.[dev,cluster]'
	touch $(STAMP)

## play: the web app to play and review Go (prints its URL; ARGS="--engine 'gnugo --mode gtp'")
play: $(PLAY_STAMP)
	$(BIN)/tengen serve $(ARGS)

## test: run every test (GNU Go cross-checks included when gnugo is installed)
test: $(STAMP)
	$(BIN)/pytest -q -n auto --dist loadscope --no-loadscope-reorder

## check: lint, type-check (mypy, strict where pyproject.toml says) and the layers (import-linter)
check: $(STAMP)
	$(BIN)/ruff check src tests bench fuzz
	$(BIN)/ruff format --check src tests bench fuzz
	$(BIN)/mypy
	$(BIN)/lint-imports

## check-long: the long GNU Go cross-check (30 games per size and rule setting, ~25 min) and
##             renju's judge against the RIF reference on 100,000 positions (~40 min) and
##             against Rapfi's forbidden points on 20,000 (~1 min; skipped without make rapfi), and all
##             of GNU Go's scoring regression tests against tengen gtp (~1 min), and every
##             recorded dead-stone play-out with 6 new ones (~5 min), and every corpus record
##             recounted against its RE[] (~2.5 min; make test recounts every second one)
check-long: $(STAMP)
	TENGEN_CROSSCHECK_GAMES=30 $(BIN)/pytest -q tests/core/test_gnugo_crosscheck.py
	TENGEN_RENJU_POSITIONS=100000 $(BIN)/pytest -q tests/gomoku/test_renju_reference.py
	TENGEN_RENJU_RAPFI_POSITIONS=20000 $(BIN)/pytest -q tests/gomoku/test_renju_rapfi.py
	TENGEN_REGRESS_ALL=1 $(BIN)/pytest -q tests/gtp/test_regress.py
	TENGEN_DEADSTONES=all TENGEN_DEADSTONES_LIVE=6 $(BIN)/pytest -q tests/scoring/test_deadstone_crosscheck.py
	TENGEN_RECOUNT_EVERY=1 $(BIN)/pytest -q tests/scoring/test_corpus_results.py

# Seconds each fuzz target runs in `make fuzz` (the pytest sample in `make test` runs ~3 s each).
FUZZ_S ?= 60

## fuzz: every fuzz/fuzz_*.py for FUZZ_S seconds (default 60) each, one summary line a target
##       (inputs tried, failures); fails if any target found a failure (see docs/FUZZING.md)
fuzz: $(STAMP)
	@status=0; for target in fuzz/fuzz_*.py; do \
		$(NICE) $(BIN)/python $$target --seconds $(FUZZ_S) || status=1; \
	done; exit $$status

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

## bench: cold start, playouts (vs C, sgfmill), peers (OpenSpiel, pgx, memory), records (and
##        how they scale), scoring, batch, matches, analysis, the web app's game list, the 19x19
##        opening against strong players' records, and a 10-game 9x9 match against GNU Go
bench: $(BENCH_STAMP)
	$(NICE) $(BENCH_BIN)/python bench/coldstart.py
	$(NICE) $(BENCH_BIN)/python bench/playout.py
	$(NICE) $(BENCH_BIN)/python bench/peers.py
	$(NICE) $(BENCH_BIN)/python bench/records.py
	$(NICE) $(BENCH_BIN)/python bench/records_scaling.py
	$(NICE) $(BENCH_BIN)/python bench/scoring.py
	$(NICE) $(BENCH_BIN)/python bench/batch.py
	$(NICE) $(BENCH_BIN)/python bench/match.py
	$(NICE) $(BENCH_BIN)/python bench/analysis.py
	$(NICE) $(BENCH_BIN)/python bench/web.py
	$(NICE) $(BENCH_BIN)/python bench/opening.py
	$(NICE) $(BENCH_BIN)/python bench/strength.py

## bench-quick: every row of the speed benches on a few games (a smoke run, minutes)
bench-quick: $(BENCH_STAMP)
	$(NICE) $(BENCH_BIN)/python bench/coldstart.py --quick
	$(NICE) $(BENCH_BIN)/python bench/playout.py --quick
	$(NICE) $(BENCH_BIN)/python bench/peers.py --quick
	$(NICE) $(BENCH_BIN)/python bench/batch.py --quick
	$(NICE) $(BENCH_BIN)/python bench/records.py --quick

## pachi: build Pachi (no neural network) from its source into build/pachi (git-ignored)
pachi:
	nice -n 10 scripts/build_pachi.sh

## rapfi: build Rapfi (Gomoku, classical evaluation, no network) into build/rapfi (git-ignored)
rapfi:
	nice -n 10 scripts/build_rapfi.sh

## strength: tengen against Pachi (skipped where not built) and GNU Go, resumable; ARGS are
##           bench/strength.py's, e.g. ARGS="--games 40 --size 9 --komi 7 --seconds 2 --threads 1"
##           (`make strength ARGS=--quick`: a few short games, a sanity run)
strength: $(STAMP)
	nice -n 10 $(BIN)/python bench/strength.py --opponent pachi $(ARGS)
	nice -n 10 $(BIN)/python bench/strength.py --opponent gnugo $(ARGS)

## katago: build KataGo (CPU, Eigen; ~6 min of both cores) and fetch katrain's small network
##         into .katago/; prints TENGEN_KATAGO and TENGEN_KATAGO_MODEL for its tests and bench
katago:
	PYTHON=$(PYTHON) nice -n 10 scripts/build_katago.sh

clean:
	rm -rf $(VENV) $(BENCH_VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
