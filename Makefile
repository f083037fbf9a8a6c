# The two commands a fresh machine needs: `make guide` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test test-fast lint bench guide guide-quick clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,bench]' || $(BIN)/pip install --quiet -e '.[test]'
	# bytecode for every installed module, once (about 10 s): where PYTHONDONTWRITEBYTECODE
	# is set and pip left none, each command would recompile numpy, pandas and numba's
	# sources at start-up (measured: 3.3 s for `dilemma equity AA random` instead of 1.2 s)
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib >/dev/null || true
	touch $(STAMP)

install: $(STAMP)

# two workers (pytest-xdist), a test file per worker at a time: numba compiles and
# subprocess start-ups overlap, so the suite takes about half the time on 2 cores
test: $(STAMP)
	$(BIN)/ruff check evaluator analysis scripts tests
	$(BIN)/pytest -q -n 2 --dist loadfile

test-fast: $(STAMP)
	$(BIN)/pytest -q -n 2 --dist loadfile -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check evaluator analysis scripts tests

bench: $(STAMP)
	$(BIN)/python scripts/bench_evaluator.py
	$(BIN)/python scripts/bench_equity.py
	$(BIN)/python scripts/bench_settlement.py
	$(BIN)/python scripts/bench_study.py
	$(BIN)/python scripts/bench_solver.py
	$(BIN)/python scripts/bench_engine.py
	$(BIN)/python scripts/bench_games.py

guide: $(STAMP)
	$(BIN)/dilemma guide --out results/

guide-quick: $(STAMP)
	$(BIN)/dilemma guide --quick --out results-quick/

clean:
	rm -rf $(VENV) build *.egg-info
