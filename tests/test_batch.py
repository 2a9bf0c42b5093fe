"""Batches on real Dask: the spec's errors at their fields, the cases and their keys, the table a
batch fills (each row equal to analysing its case alone), failing cases, resuming, and the CLI.

The Dask tests share one LocalCluster of two worker processes (``scheduler=`` its address); the CLI
starts its own. Models are tiny: a 2-block column, static or shaken for 0.05 s.
"""
import csv
import hashlib
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from extrados import ModelError, analyze
from extrados.batch import expand, load_spec, run
from extrados.batch.outputs import case_outputs, slenderness
from extrados.engine.generators import generate
from tests.dask_harness import dask_cluster as running_dask_cluster

#: Outputs of one case computed by a worker and in this process: the same code on the same input,
#: single-threaded, so equal to round-off.
SAME_CASE_RTOL = 1e-9

STATIC_SPEC = {
    "generator": {"name": "column", "parameters": {"blocks": 2}},
    "analysis": {"type": "static"},
    "vary": [{"parameter": "width", "list": [0.3, 0.4]},
             {"pointer": "/joints/dry/friction", "grid": {"start": 0.6, "stop": 0.8, "count": 2}}],
    "outputs": {"names": ["stable", "load_factor", "solver_iterations", "solver_converged"]},
}

DYNAMIC_SPEC = {
    "generator": {"name": "column", "parameters": {"blocks": 2}},
    "analysis": {"type": "dynamic", "duration": 0.05},
    "ground_motions": {"stochastic": {"seeds": [3, 4], "parameters": {"duration": 0.1, "dt": 0.01, "t_rise": 0.02,
                                                                         "t_strong": 0.05, "decay": 1.0}},
                       "target_pga": [2.0, 6.0]},
    "outputs": {"names": ["stable", "collapse", "collapse_time", "first_sliding", "first_uplift", "max_rotation",
                          "theta_max_over_alpha", "max_displacement"], "blocks": ["b1"], "result_document": True},
}


def spec_with(base, **fields):
    return json.loads(json.dumps({**base, **fields}))


@pytest.mark.parametrize("fields, path", [
    ({"vary": [{"parameter": "width", "grid": {"start": 0.3, "stop": 0.4, "count": 0}}]}, "vary[0].grid.count"),
    ({"vary": [{"parameter": "width", "list": [0.3], "colour": "red"}]}, "vary[0].colour"),
    ({"outputs": {"names": ["stable", "height"]}}, "outputs.names[1]"),
    ({"outputs": {"names": ["max_rotation"]}}, "outputs.blocks"),
    ({"ground_motions": {"stochastic": {"count": 2}, "scale_factors": [1.0]}}, "analysis.type"),
    ({"ground_motions": {"stochastic": {"count": 2, "parameters": {"dt": 0}}, "scale_factors": [1.0]},
      "analysis": {"type": "dynamic"}}, "ground_motions.stochastic.parameters.dt"),
    ({"analysis": {"type": "dynamic", "duration": -1.0}}, "analysis.duration"),
    ({"vary": [{"parameter": "width", "list": [0.3, [0.4]]}]}, "vary[0].list[1]"),
    ({"vary": [{"parameter": "width", "list": [0.3, 1, "0.4"]}]}, "vary[0].list"),
    ({"vary": [{"parameters": ["width", "block_height"], "rows": [[0.3, 1.0], [0.4]]}]}, "vary[0].rows[1]"),
    ({"vary": [{"parameters": ["width"], "rows": [[0.3], ["0.4"]]}]}, "vary[0].rows (width)"),
    ({"vary": [{"parameter": "width", "rows": [[0.3]]}]}, "vary[0]"),
    ({"outputs": {"free_rocking": {"block": "b1"}}}, "analysis.type"),
    ({"analysis": {"type": "dynamic", "duration": 0.05}, "outputs": {"free_rocking": {"block": "b1", "axis": [0, 0, 0]}}},
     "outputs.free_rocking.axis"),
])
def test_spec_errors_name_their_field(fields, path):
    with pytest.raises(ModelError) as error:
        load_spec(spec_with(STATIC_SPEC, **fields))
    assert error.value.path == path, error.value


def test_left_out_objects_get_their_fields_defaults():
    spec, _ = load_spec({"generator": {"name": "column"}, "analysis": {"type": "dynamic", "duration": 0.05},
                         "ground_motions": {"stochastic": {"count": 1}, "scale_factors": [1.0]}})
    assert spec["outputs"] == {"names": ["stable", "load_factor"], "blocks": [], "result_document": False}
    assert spec["ground_motions"]["stochastic"]["parameters"]["duration"] == 10.0
    assert len(expand(spec, Path.cwd())) == 1


def test_a_parameter_needs_a_generator_and_a_pointer_a_field():
    spec = {"model": {"blocks": []}, "analysis": {"type": "static"}, "vary": [{"parameter": "width", "list": [1]}]}
    with pytest.raises(ModelError) as error:
        load_spec(spec)
    assert error.value.path == "vary[0].parameter"
    spec = spec_with(STATIC_SPEC, vary=[{"pointer": "/joints/wet/friction", "list": [0.5]}])
    with pytest.raises(ModelError) as error:
        expand(*load_spec(spec))
    assert error.value.path == "vary[0].pointer" and "'wet'" in error.value.message


def test_a_spec_of_too_many_cases_is_refused_before_expanding():
    spec = spec_with(STATIC_SPEC, vary=[{"parameter": "width", "list": [0.3]}] + [
        {"pointer": "/joints/dry/friction", "grid": {"start": 0.5, "stop": 0.8, "count": 10000}}] * 2)
    with pytest.raises(ModelError) as error:
        expand(*load_spec(spec))
    assert error.value.path == "vary" and "100000000 cases" in error.value.message


def test_cases_are_the_product_keyed_by_their_documents():
    cases = expand(*load_spec(STATIC_SPEC))
    assert len(cases) == 2 * 2
    assert [case.inputs for case in cases] == [{"width": w, "/joints/dry/friction": f}
                                               for w in (0.3, 0.4) for f in (0.6, 0.8)]
    assert [case.model["joints"]["dry"]["friction"] for case in cases] == [0.6, 0.8, 0.6, 0.8]
    canonical = json.dumps({"model": cases[0].model, "analysis": cases[0].analysis}, sort_keys=True,
                           separators=(",", ":"))
    assert cases[0].key == hashlib.sha256(canonical.encode()).hexdigest()
    assert [case.key for case in expand(*load_spec(STATIC_SPEC))] == [case.key for case in cases]
    assert len({case.key for case in cases}) == 4


def test_parameters_vary_together_by_rows_and_request_fields_by_pointer():
    spec = spec_with(STATIC_SPEC, analysis={"type": "dynamic", "duration": 0.05, "time_step": 0.01},
                     vary=[{"parameters": ["width", "block_height"], "rows": [[0.3, 1.0], [0.4, 2.0]]},
                           {"request": "/time_step", "list": [0.01, 0.005]}])
    cases = expand(*load_spec(spec))
    assert [case.inputs for case in cases] == [{"width": w, "block_height": h, "analysis/time_step": dt}
                                               for w, h in ((0.3, 1.0), (0.4, 2.0)) for dt in (0.01, 0.005)]
    assert [case.model for case in cases[::2]] == [generate("column", blocks=2, width=w, block_height=h)
                                                   for w, h in ((0.3, 1.0), (0.4, 2.0))]
    assert [case.analysis["time_step"] for case in cases] == [0.01, 0.005] * 2
    assert spec["analysis"]["time_step"] == 0.01 and len({case.key for case in cases}) == 4
    with pytest.raises(ModelError) as error:
        expand(*load_spec(spec_with(spec, vary=[{"request": "/hht/alpha", "list": [-0.1]}])))
    assert error.value.path == "vary[0].request" and "analysis request has no 'hht'" in error.value.message


def test_record_files_at_each_scale_end_at_rest(tmp_path):
    record = tmp_path / "pulse.txt"
    record.write_text("0 0\n0.01 1.0\n0.02 -0.5\n0.03 0\n")
    spec = spec_with(DYNAMIC_SPEC, ground_motions={"files": [{"path": "pulse.txt", "unit": "g"}],
                                                   "direction": [0, 2, 0], "scale_factors": [0.5, 2.0]})
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    cases = expand(*load_spec(tmp_path / "spec.json"))  # the path is read from the spec's folder
    assert [case.inputs for case in cases] == [{"motion": "pulse.txt", "scale_factor": s} for s in (0.5, 2.0)]
    motion = cases[1].model["support_motion"]
    assert motion["kind"] == "record" and motion["baseline"] == "end_at_rest" and motion["dt"] == pytest.approx(0.01)
    assert motion["accelerations"][1] == pytest.approx([0.0, 2.0 * 9.80665, 0.0])  # 1 g along +y, times 2


def test_inline_records_are_the_same_motions_as_their_files(tmp_path):
    (tmp_path / "pulse.txt").write_text("0 0\n0.01 1.0\n0.02 -0.5\n0.03 0\n")
    motions = {"direction": [0, 2, 0], "scale_factors": [0.5, 2.0]}
    from_file = spec_with(DYNAMIC_SPEC, ground_motions={**motions, "files": [{"path": "pulse.txt", "unit": "g"}]})
    (tmp_path / "spec.json").write_text(json.dumps(from_file))
    inline = spec_with(DYNAMIC_SPEC, ground_motions={**motions, "records": [
        {"name": "pulse", "dt": 0.01, "accelerations": [0, 1.0, -0.5, 0], "unit": "g"}]})
    file_cases, inline_cases = expand(*load_spec(tmp_path / "spec.json")), expand(*load_spec(inline))
    assert [case.inputs for case in inline_cases] == [{"motion": "pulse", "scale_factor": s} for s in (0.5, 2.0)]
    for file_case, inline_case in zip(file_cases, inline_cases):
        file_motion, inline_motion = file_case.model["support_motion"], inline_case.model["support_motion"]
        assert inline_motion["dt"] == pytest.approx(file_motion["dt"], rel=1e-12)
        assert np.allclose(inline_motion["accelerations"], file_motion["accelerations"], rtol=1e-12, atol=0)
    for fields, path in (({"accelerations": [0.0]}, "ground_motions.records[0].accelerations"),
                         ({"dt": 0.0}, "ground_motions.records[0].dt")):
        bad = spec_with(inline, ground_motions={**motions, "records": [{**inline["ground_motions"]["records"][0],
                                                                        **fields}]})
        with pytest.raises(ModelError) as error:
            load_spec(bad)
        assert error.value.path == path, error.value
    with pytest.raises(ModelError) as error:
        load_spec(json.loads(json.dumps(inline).replace("-0.5", "NaN")))
    assert error.value.path.startswith("ground_motions.records[0].accelerations"), error.value


@pytest.mark.parametrize("motion, half_base", [
    (None, 0.125),                                                                  # x: half the width
    ({"kind": "sine", "direction": [0, 1, 0], "frequency": 2.0, "amplitude": 0.01}, 0.25),  # y: half the depth
    ({"kind": "record", "dt": 0.01, "accelerations": [[0, 0, 0], [0, -3, 0.5]]}, 0.25),     # y, vertical dropped
])
def test_slenderness_is_housners_alpha_along_the_motion(motion, half_base):
    model = generate("rocking_block", width=0.25, depth=0.5, height=1.0)
    if motion is not None:
        model["support_motion"] = motion
    assert slenderness(model, "block", np.array([0.0, 0.0, 0.5])) == pytest.approx(math.atan(half_base / 0.5),
                                                                                  rel=1e-12)


@pytest.fixture(scope="module")
def scheduler():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def test_rows_equal_analysing_each_case_alone(tmp_path, scheduler):
    summary = run(DYNAMIC_SPEC, tmp_path, scheduler=scheduler, progress=False)
    assert (summary.cases, summary.done, summary.failed, summary.skipped) == (4, 4, 0, 0)
    rows = pq.read_table(tmp_path / "cases.parquet").to_pylist()
    assert rows == summary.rows
    assert [row["motion"] for row in rows] == ["stochastic:3"] * 2 + ["stochastic:4"] * 2
    spec, folder = load_spec(DYNAMIC_SPEC)
    for case, row in zip(expand(spec, folder), rows):
        assert row["key"] == case.key and row["error"] is None
        alone = case_outputs(analyze(case.model, case.analysis), spec["outputs"], case.model)
        for name, value in alone.items():
            assert row[name] == (pytest.approx(value, rel=SAME_CASE_RTOL) if isinstance(value, float) else value)
        document = json.loads((tmp_path / "results" / f"{case.key}.json").read_text())
        assert document["analysis"] == "dynamic" and document["stable"] == row["stable"]
    assert rows[-1]["max_rotation[b1]"] > 0 and rows[-1]["max_displacement[b1]"] > 0
    for row in rows:  # a 0.3 m cube: alpha = atan(0.15 / 0.15)
        assert row["theta_max_over_alpha[b1]"] == pytest.approx(row["max_rotation[b1]"] / (math.pi / 4), rel=1e-12)
    assert json.loads((tmp_path / "cases.json").read_text()) == rows
    with open(tmp_path / "cases.csv", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert list(table[0])[:4] == ["key", "motion", "target_pga", "stable"]
    assert [row["key"] for row in table] == [row["key"] for row in rows]


def test_a_failing_case_is_recorded_and_the_others_finish(tmp_path, scheduler):
    spec = spec_with(STATIC_SPEC, vary=[{"pointer": "/joints/dry/friction", "list": [0.7, -1.0, 0.9]}])
    seen = []
    summary = run(spec, tmp_path, scheduler=scheduler, progress=False,
                  on_case=lambda row, done, failed, pending: seen.append((row["key"], done, failed, pending)))
    assert (summary.done, summary.failed) == (2, 1)
    # on_case after each row: its key, then done + failed counting up to 3 as pending counts down
    assert sorted(key for key, *_ in seen) == sorted(row["key"] for row in summary.rows)
    assert [done + failed for _, done, failed, _ in seen] == [1, 2, 3]
    assert [pending for *_, pending in seen] == [2, 1, 0] and seen[-1][1:3] == (2, 1)
    errors = [row["error"] for row in summary.rows]
    assert errors[0] is None and errors[2] is None and "friction" in errors[1]
    assert [row["stable"] for row in summary.rows] == [True, None, True]


def test_a_rerun_resumes_and_skips_what_finished(tmp_path, scheduler):
    first = run(STATIC_SPEC, tmp_path, scheduler=scheduler, progress=False)
    again = run(STATIC_SPEC, tmp_path, scheduler=scheduler, progress=False)
    assert (again.cases, again.skipped, again.done, again.failed) == (4, 4, 0, 0)
    assert again.rows == first.rows
    # A driver killed after three cases: their parts remain, the fourth is computed alone.
    lost = first.rows[1]["key"]
    (tmp_path / "parts" / f"{lost}.parquet").unlink()
    (tmp_path / "cases.parquet").unlink()
    resumed = run(STATIC_SPEC, tmp_path, scheduler=scheduler, progress=False)
    assert (resumed.skipped, resumed.done) == (3, 1)
    runs = {row["key"]: row["run"] for row in resumed.rows}
    assert runs[lost] > first.rows[0]["run"]
    assert [runs[row["key"]] for row in first.rows if row["key"] != lost] == [first.rows[0]["run"]] * 3


def test_a_rerun_skips_failed_cases_unless_asked_to_retry_them(tmp_path, scheduler):
    """A case's own error (friction -1: a ModelError) is deterministic: a rerun skips it, and
    ``retry_failed=True`` computes it again, and only it, into the same single row."""
    spec = spec_with(STATIC_SPEC, vary=[{"pointer": "/joints/dry/friction", "list": [0.7, -1.0]}])
    first = run(spec, tmp_path, scheduler=scheduler, progress=False)
    assert [row["status"] for row in first.rows] == ["done", "failed"]
    again = run(spec, tmp_path, scheduler=scheduler, progress=False)
    assert (again.skipped, again.done, again.failed) == (2, 0, 0) and again.rows == first.rows
    retried = run(spec, tmp_path, scheduler=scheduler, progress=False, retry_failed=True)
    assert (retried.skipped, retried.done, retried.failed) == (1, 0, 1)
    assert [row["key"] for row in retried.rows] == [row["key"] for row in first.rows]
    assert retried.rows[0] == first.rows[0] and retried.rows[1]["run"] > first.rows[1]["run"]
    assert "friction" in retried.rows[1]["error"]


def test_cli_runs_a_batch_and_refuses_a_bad_spec(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(spec_with(STATIC_SPEC, vary=[STATIC_SPEC["vary"][1]])))
    done = subprocess.run([sys.executable, "-m", "extrados", "batch", str(spec), "--out", str(tmp_path / "out"),
                           "--workers", "2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "2 cases: 2 done, 0 failed" in done.stdout
    assert "2/2 [" in done.stderr and "done=2, failed=0" in done.stderr  # the progress bar's last state
    assert pq.read_table(tmp_path / "out" / "cases.parquet").num_rows == 2
    spec.write_text(json.dumps(spec_with(STATIC_SPEC, outputs={"names": ["stable", "height"]})))
    refused = subprocess.run([sys.executable, "-m", "extrados", "batch", str(spec), "--out", str(tmp_path / "bad")],
                             capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2
    assert "outputs.names[1]" in refused.stderr and "Traceback" not in refused.stderr


@pytest.fixture
def dask_cluster(tmp_path):
    """A real cluster on loopback, as a user starts one: ``dask scheduler`` and two ``dask worker`` processes."""
    with running_dask_cluster(tmp_path) as cluster:
        yield cluster.address


def test_cli_runs_on_a_dask_scheduler_and_two_workers(tmp_path, dask_cluster):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(STATIC_SPEC))
    done = subprocess.run([sys.executable, "-m", "extrados", "batch", str(spec), "--out", str(tmp_path / "out"),
                           "--scheduler", dask_cluster, "--quiet"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "4 cases: 4 done, 0 failed" in done.stdout
    rows = pq.read_table(tmp_path / "out" / "cases.parquet").to_pylist()
    assert sorted(row["key"] for row in rows) == sorted(case.key for case in expand(*load_spec(STATIC_SPEC)))
    assert all(row["stable"] is True for row in rows)


def test_cases_reach_the_scheduler_a_window_at_a_time(tmp_path, scheduler):
    """Twelve cases on two one-thread workers: at most IN_FLIGHT_PER_THREAD x 2 are on the scheduler at
    once (plus the one whose row is being written), not the whole batch."""
    from distributed import Client

    from extrados.batch.runner import IN_FLIGHT_PER_THREAD

    spec = spec_with(STATIC_SPEC, vary=[{"pointer": "/joints/dry/friction",
                                         "grid": {"start": 0.6, "stop": 0.9, "count": 12}}])
    seen = []
    with Client(scheduler) as watcher:
        def count_tasks(*_):
            seen.append(watcher.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)))
        summary = run(spec, tmp_path, scheduler=scheduler, progress=False, on_case=count_tasks)
    assert (summary.done, summary.failed) == (12, 0)
    window = IN_FLIGHT_PER_THREAD * 2 + 1
    assert window < 12 and len(seen) == 12 and max(seen) <= window, seen


def test_an_expansion_stops_at_its_byte_budget():
    """The budget counts each distinct model once and each record at each scale once (the cases share
    them), as compact JSON; one byte less than that is refused at 'vary'."""
    from extrados.batch.cases import BatchTooLarge

    spec, folder = load_spec(DYNAMIC_SPEC)
    cases = expand(spec, folder)
    models = {json.dumps({k: v for k, v in case.model.items() if k != "support_motion"}, separators=(",", ":"))
              for case in cases}
    motions = {json.dumps(case.model["support_motion"], separators=(",", ":")) for case in cases}
    held = sum(map(len, models | motions))
    assert len(models) == 1 and len(motions) == 4
    assert expand(spec, folder, max_bytes=held) == cases
    with pytest.raises(BatchTooLarge) as error:
        expand(spec, folder, max_bytes=held - 1)
    assert error.value.path == "vary" and "MiB" in error.value.message
