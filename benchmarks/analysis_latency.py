"""Latency of repeated static analyses of one geometry under changing loads (the HTTP service's case).

In process, no HTTP: each call starts from a model document as the service parses it from JSON
and ends with the result document dumped to JSON text. Two scenes:

- arch: ``generate("arch", voussoirs=40)`` with a live point load on the extrados whose size
  and place change at every call;
- wall: ``generate("wall", courses=25, blocks_per_course=20)`` (513 blocks) with a horizontal
  live point load on a top block, growing at every call.

Cold: every call is a new analysis from the document (``engine.analyze``), as if the geometry
were new. Warm: calls go through one ``AnalysisCache``, which has seen the geometry (its first,
missing call is not counted). Cold and warm calls alternate. Totals (p50, p95 over the calls)
are timed through the real entry points; the breakdown comes from a second pass that calls the
same stages one by one: model build (document to Model with mechanics; ``AnalysisCache.model``
when warm), solve (``solve_static``), result (``static_result``: the typed Result, post-processing
included) and JSON (``Result.to_dict`` writing the document, and ``json.dumps`` of it).

    .venv/bin/python benchmarks/analysis_latency.py [--arch-calls 30] [--wall-calls 10] [--gc-freeze]

With --gc-freeze the objects alive after the warm-up (modules, numba's compiled code) are moved
out of the garbage collector's reach (gc.freeze(), as a long-running service may do at start):
without it, the full collections that the result documents' many lists trigger walk them all.

The table is printed and written to benchmarks/results/analysis_latency.txt.
"""
import argparse
import datetime
import gc
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from extrados import Model, analyze, generators
from extrados.engine.analysis.cache import AnalysisCache
from extrados.engine.analysis.static import STATIC_STEP, solve_static
from extrados.engine.generators.arch import arch_point_load, arch_weight
from extrados.engine.post.results import static_result

RESULTS = Path(__file__).resolve().parent / "results" / "analysis_latency.txt"
STAGES = ("build", "solve", "result", "json")


def arch_documents(calls):
    """Model documents of the 40-voussoir arch, the live point load moving and growing call by call."""
    base = generators.generate("arch", voussoirs=40)
    weight = arch_weight(1.0, 0.1075, 0.5, 40, 2000.0)
    return [json.loads(json.dumps(dict(base, loads=[arch_point_load(
        1.0, 0.1075, 40, -30.0 + 60.0 * k / calls, 0.002 * (1.0 + k / calls) * weight)])))
        for k in range(calls + 1)]


def wall_documents(calls):
    """Model documents of the 513-block wall, a horizontal live load on a top block growing call by call."""
    base = generators.generate("wall", courses=25, blocks_per_course=20)
    top = next(b for b in base["blocks"] if b["id"] == "c24b10")
    point = np.mean(top["vertices"], axis=0).tolist()
    return [json.loads(json.dumps(dict(base, loads=[{"kind": "point", "block": "c24b10", "point": point,
                                                      "force": [50.0 * (1.0 + k / calls), 0.0, 0.0],
                                                      "live": True}])))
            for k in range(calls + 1)]


def timed(function, *args, **kwargs):
    """(seconds, value) of one call."""
    started = time.perf_counter()
    value = function(*args, **kwargs)
    return time.perf_counter() - started, value


def total_ms(analyze_document, doc):
    """(milliseconds of ``analyze_document(doc)`` plus ``json.dumps`` of its result, the result)."""
    started = time.perf_counter()
    result = analyze_document(doc)
    json.dumps(result.to_dict())
    return 1e3 * (time.perf_counter() - started), result


def stage_ms(build, doc):
    """Milliseconds of each stage (dict) of one document, with ``build(doc) -> (model, warm start)``."""
    seconds = {}
    seconds["build"], (model, warm) = timed(build, doc)
    seconds["solve"], solution = timed(solve_static, model, 1.0, warm=warm)
    seconds["result"], result = timed(static_result, model, solution, STATIC_STEP)
    seconds["json"], _ = timed(lambda: json.dumps(result.to_dict()))
    return {name: 1e3 * value for name, value in seconds.items()}


def cold_build(doc):
    model = Model.from_dict(doc)
    model.mechanics
    return model, None


def scene_rows(name, documents):
    """Table rows (cold, warm) of one scene. Cold and warm calls alternate, document by document,
    so that the load of a shared machine weighs on both alike."""
    cache = AnalysisCache()
    cache.analyze(documents[0])
    paths = {"cold": (analyze, cold_build), "warm": (cache.analyze, cache.model)}
    ms = {path: [] for path in paths}
    iterations = {path: [] for path in paths}
    stages = {path: {stage: [] for stage in STAGES} for path in paths}
    for doc in documents[1:]:
        for path, (analyze_document, build) in paths.items():
            milliseconds, result = total_ms(analyze_document, doc)
            assert result.solver["warm_start"] == (path == "warm")
            ms[path].append(milliseconds)
            iterations[path].append(result.solver["iterations"])
    for doc in documents[1:]:
        for path, (_, build) in paths.items():
            for stage, milliseconds in stage_ms(build, doc).items():
                stages[path][stage].append(milliseconds)
    return [(name, path, ms[path], iterations[path], stages[path]) for path in paths]


def table(rows):
    header = (f"{'scene':>6} {'path':>5} {'calls':>5} {'p50 ms':>8} {'p95 ms':>8} | {'build':>7} {'solve':>7} "
              f"{'result':>7} {'json':>7} | {'iters p50':>9}")
    lines = [header, "-" * len(header)]
    for name, path, ms, iterations, stages in rows:
        medians = " ".join(f"{np.median(stages[s]):>7.1f}" for s in STAGES)
        lines.append(f"{name:>6} {path:>5} {len(ms):>5} {np.percentile(ms, 50):>8.1f} {np.percentile(ms, 95):>8.1f} | "
                     f"{medians} | {int(np.median(iterations)):>9}")
    lines.append("(build, solve, result, json: p50 ms of each stage in the breakdown pass)")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch-calls", type=int, default=30)
    parser.add_argument("--wall-calls", type=int, default=10)
    parser.add_argument("--gc-freeze", action="store_true", help="gc.freeze() after the warm-up")
    args = parser.parse_args()
    analyze(arch_documents(1)[0])  # load the numba cache and warm the imports
    if args.gc_freeze:
        gc.collect()
        gc.freeze()
    rows = scene_rows("arch", arch_documents(args.arch_calls)) + scene_rows("wall", wall_documents(args.wall_calls))
    stamp = datetime.datetime.now().isoformat(timespec="minutes")
    heading = (f"analysis_latency.py{' --gc-freeze' if args.gc_freeze else ''}, {stamp}, {platform.platform()}, "
               f"{os.cpu_count()} cpus (shared with other jobs), python {platform.python_version()}")
    text = heading + "\n" + table(rows)
    print(text)
    RESULTS.write_text(text + "\n")


if __name__ == "__main__":
    main()
