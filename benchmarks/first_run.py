"""The first run after an install: compiling the kernels, and the solver's seconds of a cold and a warm run.

Each run is a fresh Python process with ``NUMBA_CACHE_DIR`` set to a new empty folder (cold) or to
the folder the cold run filled (warm). A process analyses the 40-voussoir arch (static) through
``extrados.analyze`` without any warm-up, so every kernel it needs compiles inside the analysis,
and reports the wall time of the analysis and the solver's ``seconds`` (compilation left out,
engine.compilation); then `compile_kernels` (the command line's warm-up), which in the cold
process compiles what the arch did not need.

    .venv/bin/python benchmarks/first_run.py

The table is printed and written to benchmarks/results/first_run.txt.
"""
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results" / "first_run.txt"
PROBE = """
import json, time
from extrados import analyze, generators
from extrados.engine.analysis.warm_up import compile_kernels, kernels_to_compile
model = generators.generate("arch", voussoirs=40)
missing = len(kernels_to_compile())
started = time.perf_counter()
result = analyze(model, "static")
analysis = time.perf_counter() - started
started = time.perf_counter()
compile_kernels()
warm_up = time.perf_counter() - started
print(json.dumps({"missing": missing, "analysis_s": analysis, "solver_s": result.solver["seconds"],
                  "warm_up_s": warm_up}))
"""


def probe(cache):
    """What one fresh process measures with ``cache`` as its kernel cache."""
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    answer = subprocess.run([sys.executable, "-c", PROBE], env=environment, capture_output=True, text=True,
                            check=True)
    return json.loads(answer.stdout.strip().splitlines()[-1])


def main():
    with tempfile.TemporaryDirectory() as folder:
        runs = {"cold": probe(Path(folder)), "warm": probe(Path(folder))}
    lines = [f"# first run, {datetime.date.today()}, {platform.machine()}, {os.cpu_count()} cores, "
             f"python {platform.python_version()}",
             "run    kernels missing   analysis (s)   solver seconds   then compile_kernels (s)"]
    for name, run in runs.items():
        lines.append(f"{name:6s} {run['missing']:15d} {run['analysis_s']:14.2f} {run['solver_s']:16.4f} "
                     f"{run['warm_up_s']:26.2f}")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    RESULTS.write_text(text)


if __name__ == "__main__":
    main()
