"""README's commands, run as written, so that README cannot rot (issue 16).

Every ```bash and ```python block of README.md runs in a temporary folder that holds what the commands
name from the repository: ``examples/`` (the shipped ground-motion record) and ``.venv/bin/extrados`` and
``.venv/bin/python``, which run the interpreter under test (the ``.venv`` that `make test` set up, or any
other). The curl block talks to a real service on a free loopback port: only its ``localhost:8765`` is
rewritten. README's untagged block, ``make run`` and ``make test``, is not run: ``make run`` serves
until stopped, and ``make test`` runs this very suite.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server_harness import running_service

REPOSITORY = Path(__file__).resolve().parents[1]
README = (REPOSITORY / "README.md").read_text(encoding="utf-8")
#: s; the longest block (a 2 s dynamic run of the arch) takes about 20 s on 2 busy cores.
BLOCK_TIME_LIMIT = 600
README_ADDRESS = "localhost:8765"


def fenced_blocks():
    """README's fenced code blocks as (language, text) pairs, in order; language "" when untagged."""
    found, language, lines = [], None, []
    for line in README.splitlines():
        if line.startswith("```") and language is None:
            language, lines = line[3:].strip(), []
        elif line.startswith("```"):
            found.append((language, "\n".join(lines) + "\n"))
            language = None
        elif language is not None:
            lines.append(line)
    return found


def blocks(language):
    """The code blocks of README tagged with this language, in order."""
    return [text for tag, text in fenced_blocks() if tag == language]


def readme_folder(tmp_path):
    """A folder with README's view of the repository: examples/ and .venv/bin/{extrados,python}."""
    os.symlink(REPOSITORY / "examples", tmp_path / "examples")
    bin_folder = tmp_path / ".venv" / "bin"
    bin_folder.mkdir(parents=True)
    for name, command in (("python", f'"{sys.executable}" "$@"'), ("extrados", f'"{sys.executable}" -m extrados "$@"')):
        script = bin_folder / name
        script.write_text(f"#!/bin/sh\nexec {command}\n")
        script.chmod(0o755)
    return tmp_path


def run_bash(script, folder):
    """Run a README bash block with bash -e (the first failing command stops it); the CompletedProcess."""
    return subprocess.run(["bash", "-e", "-x", "-c", script], cwd=folder, capture_output=True, text=True,
                          timeout=BLOCK_TIME_LIMIT)


def json_documents(text):
    """The JSON documents printed one after another in text."""
    decoder, documents, at = json.JSONDecoder(), [], 0
    while text[at:].strip():
        at += len(text[at:]) - len(text[at:].lstrip())
        document, at = decoder.raw_decode(text, at)
        documents.append(document)
    return documents


def test_readme_has_the_blocks_this_test_runs():
    assert len(blocks("bash")) == 3 and len(blocks("python")) == 4
    assert {tag for tag, _ in fenced_blocks()} == {"bash", "python", ""}
    commands = [line.split("#")[0].strip() for block in blocks("") for line in block.splitlines()]
    assert commands == ["make run", "make test"]


def test_command_line_block(tmp_path):
    folder = readme_folder(tmp_path)
    script = blocks("bash")[0]
    assert "extrados analyze" in script
    done = run_bash(script, folder)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "arch:" in done.stdout and "--voussoirs  (>= 2; default 20)" in done.stdout  # listing, help
    assert json.loads((folder / "result.json").read_text())["stable"] is True
    assert (folder / "result.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = json.loads((folder / "collapse.json").read_text())["load_factor_report"]
    assert report["status"] == "collapse" and 0.09 < report["nscd"] < 0.1  # README: λ ≈ 0.096
    events = json.loads((folder / "quake-result.json").read_text())["events"]
    assert events["first_uplift"] == pytest.approx(1.57, abs=0.01)  # README: it begins to rock at 1.57 s


def test_python_block(tmp_path):
    folder = readme_folder(tmp_path)
    done = subprocess.run([sys.executable, "-c", blocks("python")[0]], cwd=folder, capture_output=True, text=True,
                          timeout=BLOCK_TIME_LIMIT)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("True [")
    assert done.stdout.rstrip().endswith("(101, 21, 3)")


def test_points_and_entity_block(tmp_path):
    done = subprocess.run([sys.executable, "-c", blocks("python")[1]], cwd=readme_folder(tmp_path),
                          capture_output=True, text=True, timeout=BLOCK_TIME_LIMIT)
    assert done.returncode == 0, done.stderr[-3000:]
    faces_and_volume, entities = done.stdout.splitlines()
    faces, volume = faces_and_volume.rsplit(" ", 1)
    assert [len(face) for face in json.loads(faces)] == [4] * 6 and float(volume) == 0.072   # 6 quads; 0.072 m³
    assert entities.startswith("[None, {'wall': 'west'") and "'mason_mark': 'cross', 'phase': 2" in entities


def test_deformable_block(tmp_path):
    """A wall of deformable blocks: the first block's id, its tetrahedra (about 50, 10-node) and a compressive
    sigma_zz somewhere in it (its own weight and the course above)."""
    done = subprocess.run([sys.executable, "-c", blocks("python")[2]], cwd=readme_folder(tmp_path),
                          capture_output=True, text=True, timeout=BLOCK_TIME_LIMIT)
    assert done.returncode == 0, done.stderr[-3000:]
    block, tetrahedra, sigma_zz = done.stdout.split()
    assert block == "c0b0" and 30 <= int(tetrahedra) <= 100 and float(sigma_zz) < 0.0


def test_compas_dem_block(tmp_path):
    """compas_dem's dome as shipped: refused as drawn, it stands once its overlaps are shrunk (35.5 mm the
    deepest, tests/test_compas_dem.py), and it has a horizontal load factor with its hinges."""
    done = subprocess.run([sys.executable, "-c", blocks("python")[3]], cwd=readme_folder(tmp_path),
                          capture_output=True, text=True, timeout=BLOCK_TIME_LIMIT)
    assert done.returncode == 0, done.stderr[-3000:]
    stands, collapse = done.stdout.splitlines()
    assert stands.split()[0] == "True" and float(stands.split()[1]) == pytest.approx(0.0355, abs=5e-5)
    load_factor, hinges = collapse.split()
    assert 0.0 < float(load_factor) < 1.0 and int(hinges) > 0


def test_service_block(tmp_path):
    if shutil.which("curl") is None:
        pytest.fail("README's service commands use curl: install it (apt-get install curl, brew install curl)")
    folder = readme_folder(tmp_path)
    with running_service(data_dir=str(tmp_path / "service")) as client:
        script = blocks("bash")[1].replace(README_ADDRESS, client.base.removeprefix("http://"))
        assert README_ADDRESS not in script and client.base.removeprefix("http://") in script
        done = run_bash(script, folder)
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(json.loads((folder / "arch.json").read_text())["blocks"]) == 41  # 40 voussoirs and the ground
    static, job = json_documents(done.stdout)
    assert static["format"] == "extrados.result/1" and static["stable"] is True
    assert job["url"] == f"/v1/jobs/{job['id']}"


def test_batch_block(tmp_path):
    folder = readme_folder(tmp_path)
    done = run_bash(blocks("bash")[2], folder)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "8 cases: 8 done, 0 failed, 0 finished before" in done.stdout
    assert "8 cases: 0 done, 0 failed, 8 finished before" in done.stdout  # the rerun resumes
    rows = json.loads((folder / "study" / "cases.json").read_text())
    assert [(row["width"], row["/joints/dry/friction"]) for row in rows] == [
        (w, pytest.approx(f)) for w in (0.3, 0.4) for f in (0.5, 0.6, 0.7, 0.8)]
    assert all(row["stable"] is True and row["error"] is None for row in rows)
    report = json.loads((folder / "study" / "report.json").read_text())  # extrados report on the table
    assert report["cases"]["used"] == 8 and report["response_statistics"]["parameter"] == [0.3, 0.4]
    assert (folder / "study" / "report_cdf.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_shipped_ground_record_is_the_one_its_script_writes(tmp_path):
    written = tmp_path / "quake.txt"
    done = subprocess.run([sys.executable, str(REPOSITORY / "examples" / "quake.py"), "--out", str(written)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert written.read_bytes() == (REPOSITORY / "examples" / "quake.txt").read_bytes()  # deterministic
    rows = [line.split() for line in written.read_text().splitlines() if not line.startswith("#")]
    times, accelerations = [float(t) for t, _ in rows], [float(a) for _, a in rows]
    assert times[0] == 0.0 and times[-1] == pytest.approx(4.0) and len(times) == 401  # 4 s at 0.01 s
    assert max(map(abs, accelerations)) == pytest.approx(0.35, abs=1e-5)  # PGA in g, as its header says
    assert accelerations[0] == accelerations[-1] == 0.0  # enveloped: starts and ends at rest
