# Each target bootstraps its own virtual environment (.venv) first.
# Needs GNU make, a POSIX shell and Python 3 (PYTHON=python where there is no python3, as on Windows,
# where Git Bash or WSL provides make and the shell); every other step runs in Python.
PYTHON ?= python3
VENV := .venv
ifeq ($(OS),Windows_NT)
BIN := $(VENV)/Scripts
else
BIN := $(VENV)/bin
endif
STAMP := $(VENV)/.installed
# numba caches compiled kernels so later runs skip compilation. The folder is named by a hash of
# the engine's sources: numba does not notice an edit to a function inlined from another module,
# so a cache kept across such an edit would run stale code. Folders of older sources are removed.
# The hash is Python's (hashlib): sha1sum is missing on macOS.
ENGINE_HASH := $(shell $(PYTHON) -c "import hashlib, pathlib; \
	files = sorted(pathlib.Path('engine').rglob('*.py'), key=str); \
	print(hashlib.sha1(b''.join(f.read_bytes() for f in files)).hexdigest()[:12])")
ifeq ($(ENGINE_HASH),)
$(error cannot hash the engine's sources with $(PYTHON); give a Python 3 as PYTHON=...)
endif
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache/$(ENGINE_HASH)

.PHONY: run test bench validate venv clean prune-numba-cache browser siconos stubs

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

prune-numba-cache:
	$(PYTHON) -c "import pathlib, shutil; cache = pathlib.Path('.numba_cache'); cache.mkdir(exist_ok=True); \
	[shutil.rmtree(old) if old.is_dir() else old.unlink() for old in cache.iterdir() if old.name != '$(ENGINE_HASH)']"

# The viewer's tests drive a Chromium: Debian's (apt-get install chromium, when root on a system with
# apt-get) or else Playwright's (python -m playwright install chromium, per user). Installs one when
# none is there (tests/browser.py).
browser: $(STAMP)
	$(BIN)/python tests/browser.py

# The typed stubs of Rhino 8's RhinoCommon and Grasshopper that gh_components/ is type-checked against
# (tests/test_gh_typecheck.py), in their own folder: in site-packages their stub-only Rhino package would import.
RHINO_STUBS := $(VENV)/rhino-stubs/.installed
$(RHINO_STUBS): $(STAMP)
	$(BIN)/python -m pip install --quiet --upgrade --target $(VENV)/rhino-stubs rhino-stubs-typed==8.20.25157 \
		grasshopper-stubs-typed==8.20.25157
	touch $(RHINO_STUBS)

stubs: $(RHINO_STUBS)

# The Coulomb friction tests compare with Siconos' fc3d solvers: Debian's python3-siconos under the system
# Python, installed when missing (apt-get, as root); tests/siconos_setup.py.
siconos: $(STAMP)
	$(BIN)/python tests/siconos_setup.py

# Starts the service on 127.0.0.1:8765 (jobs and results in out/service) and prints the viewer's
# address, which opens with the arch example analysed. Ctrl-C stops it.
run: $(STAMP) prune-numba-cache
	mkdir -p out
	$(BIN)/extrados serve --data-dir out/service --example arch

test: $(STAMP) prune-numba-cache browser siconos stubs
	$(BIN)/python -m pytest -n 2 -q --durations=40

bench: $(STAMP) prune-numba-cache
	$(BIN)/python benchmarks/static_walls.py

# Reruns the examples and regenerates docs/validation.md from docs/validation/*.md (minutes; the full
# spandrel runs take most). VALIDATE_ARGS=--quick checks that everything runs: do not commit its output.
validate: $(STAMP) prune-numba-cache
	$(BIN)/python examples/validate.py $(VALIDATE_ARGS)

clean:
	rm -rf $(VENV) .numba_cache out
