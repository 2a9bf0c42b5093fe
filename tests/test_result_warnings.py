"""The result's warnings (engine.verdict_warnings): an unconverged verdict is flagged in words, in the document
and in the CLI's summary; a converged one carries none."""
import json
import subprocess
import sys

import jsonschema

from extrados import analyze
from extrados.engine.generators import generate
from extrados.engine.io.schema import result_schema


def capped_arch(solver="apgd", iterations=5):
    model = generate("arch", voussoirs=10)
    model.setdefault("settings", {}).update(solver=solver, max_iterations=iterations)
    return model


def test_a_converged_static_result_has_no_warning():
    doc = analyze(generate("arch", voussoirs=10), {"type": "static"}).to_dict()
    assert doc["solver"]["converged"] and doc["warnings"] == []


def test_an_unconverged_static_solve_is_flagged_with_its_residual():
    doc = analyze(capped_arch(), {"type": "static"}).to_dict()
    assert list(jsonschema.Draft202012Validator(result_schema()).iter_errors(doc)) == []
    assert not doc["solver"]["converged"]
    [warning] = doc["warnings"]
    assert warning["code"] == "unconverged_solve" and warning["path"] == "solver"
    assert f"{doc['solver']['residual']:.3g}" in warning["message"] and "settings.max_iterations" in warning["message"]
    assert f"stable: {str(doc['stable']).lower()}" in warning["message"]


def test_an_unconverged_run_is_flagged_with_its_steps():
    doc = analyze(capped_arch(iterations=2), {"type": "dynamic", "duration": 0.01, "time_step": 1e-3}).to_dict()
    steps = doc["solver_steps"]
    assert steps["unconverged_steps"] > 0
    [warning] = doc["warnings"]
    assert warning["code"] == "unconverged_steps"
    assert f"{steps['unconverged_steps']} of {steps['steps']} steps" in warning["message"]


def test_the_cli_summary_prints_the_warning(tmp_path):
    path = tmp_path / "capped.json"
    path.write_text(json.dumps(capped_arch()))
    done = subprocess.run([sys.executable, "-m", "extrados", "analyze", str(path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "WARNING: the static solve did not converge: apgd stopped at residual" in done.stdout + done.stderr


def test_warnings_survive_a_round_trip_and_are_recomputed():
    from extrados.engine.result import Result

    doc = analyze(capped_arch(), {"type": "static"}).to_dict()
    assert Result.from_dict(json.loads(json.dumps(doc))).to_dict()["warnings"] == doc["warnings"]
