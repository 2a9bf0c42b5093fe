"""Round-trip latency of repeated static analyses through the HTTP service (issue 5).

A designer drags a slider: the same blocks are sent again and again with new loads. This starts
the real service (``python -m extrados.server`` under waitress, on a free loopback port) and times
``POST /v1/analyses`` from the client's side, request body written to result parsed:

- cold: a new geometry every request (the arch's thickness or the wall's block length moves by
  a hair), so nothing is cached;
- warm: the same geometry, a live point load that changes every request, so the geometry cache
  and the warm start apply.

Prints p50 and p95 per model and case, and writes benchmarks/results/http_latency.txt.

    .venv/bin/python benchmarks/http_latency.py [--repeats 40] [--wall-repeats 12]
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import numpy as np

from extrados.engine.generators import generate

RESULTS = os.path.join(os.path.dirname(__file__), "results", "http_latency.txt")


def arch(variant):
    return generate("arch", voussoirs=40, thickness=0.15 + 1e-5 * variant)


def wall(variant):
    return generate("wall", courses=25, blocks_per_course=20, block_length=0.4 + 1e-6 * variant)


def with_live_load(doc, step):
    """The document with a live point load on the middle block of the top course (the arch's crown),
    changing with ``step``."""
    doc = json.loads(json.dumps(doc))
    movable = [b for b in doc["blocks"] if not b.get("support")]
    top_z = max(max(v[2] for v in b["vertices"]) for b in movable)
    crest = [b for b in movable if max(v[2] for v in b["vertices"]) > top_z - 1e-9]  # the top course
    block = crest[len(crest) // 2]
    corners = [v for v in block["vertices"] if v[2] > max(w[2] for w in block["vertices"]) - 1e-9]
    top = [sum(v[k] for v in corners) / len(corners) for k in range(3)]  # middle of the block's top face
    # vertical, 20-120 N: a fifth of the arch's crown collapse load at most, so every request is
    # the plain static case (a borderline one would add a settle run, which is another benchmark)
    doc["loads"] = [{"kind": "point", "block": block["id"], "point": top,
                     "force": [0.0, 0.0, -20.0 - 2.0 * (step % 51)], "live": True}]
    return doc


def start_service(data_dir):
    process = subprocess.Popen([sys.executable, "-m", "extrados.server", "--port", "0", "--data-dir", data_dir],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in process.stdout:
        if line.startswith("Extrados service on http://"):
            threading.Thread(target=process.stdout.read, daemon=True).start()
            return process, line.split()[3]
    raise RuntimeError("the service did not start")


def round_trip(base, doc):
    """Seconds for one analysis request, and its result."""
    body = json.dumps({"model": doc, "analysis": {"type": "static"}}).encode()
    started = time.perf_counter()
    request = urllib.request.Request(base + "/v1/analyses", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as response:
        result = json.loads(response.read())
    return time.perf_counter() - started, result


def measure(base, geometry, repeats):
    """{case: (seconds array, iterations array)} for cold and warm requests."""
    round_trip(base, with_live_load(geometry(-1), 0))  # compile and import everything once
    figures = {}
    cold, cold_iterations = [], []
    for k in range(repeats):
        seconds, result = round_trip(base, with_live_load(geometry(k), k))
        cold.append(seconds)
        cold_iterations.append(result["solver"]["iterations"])
    figures["cold"] = (np.array(cold), np.array(cold_iterations))
    same = geometry(repeats + 1)
    round_trip(base, with_live_load(same, 0))  # the first sight of this geometry is a cold one
    warm, warm_iterations = [], []
    for k in range(1, repeats + 1):
        seconds, result = round_trip(base, with_live_load(same, k))
        warm.append(seconds)
        warm_iterations.append(result["solver"]["iterations"])
    figures["warm"] = (np.array(warm), np.array(warm_iterations))
    return figures, len(result["blocks"]), len(result["contacts"])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=40, help="requests per case for the arch")
    parser.add_argument("--wall-repeats", type=int, default=12, help="requests per case for the wall")
    args = parser.parse_args(argv)
    lines = [f"HTTP round trip of POST /v1/analyses (static), client to parsed result; loopback, waitress; "
             f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
             f"{'model':<28}{'case':<6}{'n':>4}{'p50 ms':>9}{'p95 ms':>9}{'iterations p50':>16}"]
    with tempfile.TemporaryDirectory() as data_dir:
        process, base = start_service(data_dir)
        try:
            for name, geometry, repeats in (("arch, 40 voussoirs", arch, args.repeats),
                                            ("wall, 25 x 20 (500 blocks)", wall, args.wall_repeats)):
                figures, n_blocks, n_contacts = measure(base, geometry, repeats)
                for case, (seconds, iterations) in figures.items():
                    lines.append(f"{name:<28}{case:<6}{len(seconds):>4}{1e3 * np.percentile(seconds, 50):>9.1f}"
                                 f"{1e3 * np.percentile(seconds, 95):>9.1f}{np.median(iterations):>16.0f}")
                lines.append(f"{'':<28}({n_blocks} blocks with the ground, {n_contacts} contacts)")
                print("\n".join(lines[-3:]), flush=True)
        finally:
            process.terminate()
            process.wait(timeout=30)
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
    with open(RESULTS, "w", encoding="utf-8") as handle:
        handle.write(text)
    print(text)


if __name__ == "__main__":
    main()
