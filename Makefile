# Each target bootstraps its own virtual environment (.venv) first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# numba caches compiled kernels so later runs skip compilation. The folder is named by a hash of
# the engine's sources: numba does not notice an edit to a function inlined from another module,
# so a cache kept across such an edit would run stale code. Folders of older sources are removed.
ENGINE_HASH := $(shell cat $$(find engine -name '*.py' | sort) | sha1sum | cut -c1-12)
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache/$(ENGINE_HASH)

.PHONY: run test bench validate venv clean prune-numba-cache

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

prune-numba-cache:
	mkdir -p .numba_cache
	find .numba_cache -mindepth 1 -maxdepth 1 ! -name $(ENGINE_HASH) -exec rm -rf {} +

# Starts the service on 127.0.0.1:8765 (jobs and results in out/service) and prints the viewer's
# address, which opens with the arch example analysed. Ctrl-C stops it.
run: $(STAMP) prune-numba-cache
	mkdir -p out
	$(BIN)/extrados serve --data-dir out/service --example arch

test: $(STAMP) prune-numba-cache
	$(BIN)/python -m pytest -n 2 -q

bench: $(STAMP) prune-numba-cache
	$(BIN)/python benchmarks/static_walls.py

# Reruns the examples and regenerates docs/validation.md from docs/validation/*.md (minutes; the full
# spandrel runs take most). VALIDATE_ARGS=--quick checks that everything runs: do not commit its output.
validate: $(STAMP) prune-numba-cache
	$(BIN)/python examples/validate.py $(VALIDATE_ARGS)

clean:
	rm -rf $(VENV) .numba_cache out
