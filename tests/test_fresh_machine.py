"""`make test` on a fresh machine (issue 16): no sha1sum (macOS), no Debian chromium.

Each check runs the real thing with a PATH that lacks the tool in question: the Makefile under make, the
browser discovery of `tests.browser` in a fresh interpreter.
"""
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]


def engine_hash(root):
    """The first 12 hex digits of the SHA-1 of the engine's sources, concatenated in path order."""
    files = sorted((root / "engine").rglob("*.py"), key=str)
    return hashlib.sha1(b"".join(path.read_bytes() for path in files)).hexdigest()[:12]


def bare_environment(tmp_path, **variables):
    """Environment variables with a PATH of one empty folder: no sha1sum, no chromium, nothing else."""
    empty = tmp_path / "empty-bin"
    empty.mkdir(exist_ok=True)
    return {"HOME": os.environ.get("HOME", str(tmp_path)), "PATH": str(empty), **variables}


@pytest.fixture
def make():
    found = shutil.which("make")
    if found is None:
        pytest.fail("GNU make is missing: the Makefile is the project's entry point (apt-get install make, "
                    "xcode-select --install on macOS)")
    return found


def test_makefile_prunes_the_numba_cache_without_sha1sum(tmp_path, make):
    # a copy of the Makefile and the engine's sources, run with nothing on PATH but Python given by path
    shutil.copy(REPOSITORY / "Makefile", tmp_path / "Makefile")
    shutil.copytree(REPOSITORY / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    current = tmp_path / ".numba_cache" / engine_hash(tmp_path)
    stale = tmp_path / ".numba_cache" / "0123456789ab"
    for folder in (current, stale):
        folder.mkdir(parents=True)
        (folder / "kernel.nbi").write_bytes(b"cached")
    done = subprocess.run([make, "prune-numba-cache", f"PYTHON={sys.executable}"], cwd=tmp_path,
                          env=bare_environment(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert current.is_dir() and (current / "kernel.nbi").exists()
    assert not stale.exists()


def test_makefile_names_the_cache_by_the_engine_hash(tmp_path, make):
    done = subprocess.run([make, "-n", "prune-numba-cache", f"PYTHON={sys.executable}"], cwd=REPOSITORY,
                          env=bare_environment(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"!= '{engine_hash(REPOSITORY)}'" in done.stdout


def discovered(tmp_path, browsers):
    """(find_chromium(), Playwright's Chromium path) in a fresh interpreter with a bare PATH."""
    code = "import tests.browser as b; print(b.find_chromium()); print(b.playwright_chromium())"
    done = subprocess.run([sys.executable, "-c", code], cwd=REPOSITORY, capture_output=True, text=True, timeout=120,
                          env=bare_environment(tmp_path, PLAYWRIGHT_BROWSERS_PATH=str(browsers)))
    assert done.returncode == 0, done.stderr
    found, playwright = done.stdout.split()
    return found, Path(playwright)


def test_browser_discovery_takes_playwrights_chromium_when_none_is_on_path(tmp_path):
    browsers = tmp_path / "playwright-browsers"
    found, playwright = discovered(tmp_path, browsers)
    assert found == "None" and playwright.is_relative_to(browsers)  # nothing yet: the tests fail with the commands
    playwright.parent.mkdir(parents=True)
    playwright.write_text("#!/bin/sh\n")
    playwright.chmod(0o755)
    found, _ = discovered(tmp_path, browsers)
    assert found == str(playwright)


def test_browser_discovery_prefers_a_chromium_on_path(tmp_path):
    chromium = tmp_path / "empty-bin" / "chromium"
    chromium.parent.mkdir()
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    found, _ = discovered(tmp_path, tmp_path / "playwright-browsers")
    assert found == str(chromium)
