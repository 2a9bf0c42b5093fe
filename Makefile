# Each target bootstraps its own virtual environment (.venv) first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# numba caches compiled kernels here so later runs skip compilation
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache

.PHONY: run test bench venv clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	mkdir -p out
	$(BIN)/extrados example arch > out/arch.json
	$(BIN)/extrados analyze out/arch.json --out out/arch-result.json --png out/arch-result.png

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q

bench: $(STAMP)
	$(BIN)/python benchmarks/static_walls.py

clean:
	rm -rf $(VENV) .numba_cache out
