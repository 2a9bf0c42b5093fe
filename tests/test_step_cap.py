"""Runs of absurd length are refused before they start (issue 16, item 3).

``duration 1e9`` or ``time_step 1e-12`` was accepted (202) and held the only worker at progress 0
for up to 6 h; the CLI never ended. A request's ``max_steps`` (default 1e6, analysis_schema.json)
caps duration / time_step, and stages x max_stage_duration / time_step of a construction.
"""
import subprocess
import sys
import time

import pytest

from blocks import box_block, document, ground
from extrados import analyze
from extrados.engine.errors import ModelError
from extrados.engine.io.schema import request_default
from server_harness import running_service

CUBE = document([ground(), box_block("cube", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0))])


@pytest.mark.parametrize("request_fields, what", [
    ({"type": "dynamic", "duration": 1e9}, "duration / time_step"),
    ({"type": "dynamic", "duration": 1.0, "time_step": 1e-12}, "duration / time_step"),
    ({"type": "dynamic", "duration": 1e15, "time_step": 1e-300}, "duration / time_step"),
    ({"type": "construction", "time_step": 1e-9}, "1 stages x max_stage_duration / time_step"),
])
def test_too_many_steps_are_refused_at_once(request_fields, what):
    started = time.perf_counter()
    with pytest.raises(ModelError) as caught:
        analyze(CUBE, request_fields)
    assert caught.value.path == "analysis.time_step" and what in caught.value.message
    assert "max_steps" in caught.value.message and time.perf_counter() - started < 30.0


def test_max_steps_is_the_cap_and_can_be_raised():
    assert request_default("dynamic", "max_steps") == 1_000_000
    with pytest.raises(ModelError, match="3 time steps"):
        analyze(CUBE, {"type": "dynamic", "duration": 0.003, "max_steps": 2})
    assert analyze(CUBE, {"type": "dynamic", "duration": 0.003, "max_steps": 3}).to_dict()["steps"] == 3


def test_cli_refuses_too_many_steps_with_exit_2(tmp_path):
    import json

    path = tmp_path / "cube.json"
    path.write_text(json.dumps(CUBE))
    for args in (["--duration", "1e9"], ["--duration", "0.003", "--max-steps", "2"]):
        done = subprocess.run([sys.executable, "-m", "extrados", "analyze", str(path), "--analysis", "dynamic",
                               "--quiet", *args], capture_output=True, text=True, timeout=300)
        assert done.returncode == 2 and "max_steps" in done.stderr and "Traceback" not in done.stderr


def test_service_refuses_too_many_steps_before_queueing(tmp_path):
    with running_service(data_dir=str(tmp_path), max_steps=100) as client:
        status, body, _ = client.post("/v1/analyses", {"model": CUBE, "analysis": {"type": "dynamic", "duration": 1e9}})
        assert status == 422 and body["error"]["path"] == "analysis.time_step"
        status, body, _ = client.post("/v1/analyses", {"model": CUBE,
                                                       "analysis": {"type": "dynamic", "duration": 0.2}})
        assert status == 422 and "max_steps 100" in body["error"]["message"]
        status, body, _ = client.post("/v1/analyses", {"model": CUBE, "analysis": {"type": "dynamic", "duration": 0.01,
                                                                                   "max_steps": 10 ** 400}})
        assert status == 422 and "--max-steps" in body["error"]["message"]
        assert body["error"]["path"] == "analysis.max_steps"


def test_construction_counts_the_steps_of_its_support_motion():
    """A settlement of 1000 s after the stages: 1,002,000 steps at h = 1 ms."""
    doc = dict(CUBE, support_motion={"kind": "velocity", "velocity": [0.0, 0.0, -1e-6], "duration": 1000.0})
    with pytest.raises(ModelError, match="1 stages and the support motion"):
        analyze(doc, {"type": "construction"})
