"""The `extrados` command: examples, analysis, and refusal of bad input with exit code 2."""
import json
import math
import re
import subprocess
import sys

import numpy as np
import pytest

from extrados.engine.generators import DEFAULT_MAX_BLOCKS, GENERATORS

EXTRADOS = [sys.executable, "-m", "extrados"]


def run(*args, stdin=None):
    return subprocess.run(EXTRADOS + list(args), capture_output=True, text=True, input=stdin, timeout=300)


def test_example_lists_generators_and_prints_a_model():
    listing = run("example")
    assert listing.returncode == 0
    for name in ("arch", "wall", "column", "incline", "stack", "rocking_block"):
        assert name in listing.stdout
    arch = run("example", "arch", "--voussoirs", "10")
    assert arch.returncode == 0
    doc = json.loads(arch.stdout)
    assert sum(b["id"].startswith("v") for b in doc["blocks"]) == 10


def test_analyze_writes_result_and_picture(tmp_path):
    model = tmp_path / "column.json"
    model.write_text(run("example", "column", "--blocks", "3").stdout)
    out, png = tmp_path / "result.json", tmp_path / "result.png"
    done = run("analyze", str(model), "--out", str(out), "--png", str(png))
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["format"] == "extrados.result/1" and result["stable"] is True
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "stable: yes" in done.stdout


@pytest.mark.parametrize("text, message", [
    ('{"format": "extrados.model/1", "blocks": [', "malformed JSON"),
    ('{"format": "extrados.model/1", "blocks": [{"id": "a", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1],[1,1,1]], '
     '"faces": [[0,1,2],[0,1,3],[0,2,3],[1,2,4]]}]}', "blocks[0] 'a': mesh is not closed"),
    ('{"format": "extrados.model/1", "blocks": [], "colour": 1}', "colour"),
])
def test_bad_input_exits_2_with_a_message(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    done = run("analyze", str(path))
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_missing_file_and_unknown_example_exit_2(tmp_path):
    assert run("analyze", str(tmp_path / "nothing.json")).returncode == 2
    done = run("example", "pyramid")
    assert done.returncode == 2 and "arch" in done.stderr
    done = run("example", "arch", "--voussoirs", "1")
    assert done.returncode == 2 and "voussoirs" in done.stderr


def test_dynamic_analysis_with_a_two_column_ground_record(tmp_path):
    model = tmp_path / "block.json"
    model.write_text(run("example", "rocking_block").stdout)
    record = tmp_path / "record.txt"
    record.write_text("# t (s)  a (g)\n" + "".join(f"{0.01 * k:.2f} 0.5\n" for k in range(31)))
    out = tmp_path / "result.json"
    done = run("analyze", str(model), "--analysis", "dynamic", "--duration", "0.3", "--time-step", "0.002",
               "--ground-record", str(record), "--ground-scale", "9.81", "--ground-baseline", "none",
               "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["analysis"] == "dynamic" and result["frames"][0]["t"] == 0.0
    # a = 0.5 g > g tan(alpha) = 0.25 g as given (no baseline: a constant record corrected to rest is zero): it rocks
    assert result["events"]["first_uplift"] is not None


def test_a_ground_record_ends_at_rest_unless_asked_not_to(tmp_path):
    """A 0.1 s pulse of 0.3 g and then zeros: as given, the ground leaves it at about 0.28 m/s and has
    drifted some 0.15 m by 0.6 s; by default (--ground-baseline end_at_rest) its baseline is removed and
    the ground is back where it started at the record's end, to the frames' rounding (1e-6 m)."""
    model = tmp_path / "block.json"
    model.write_text(run("example", "rocking_block").stdout)
    record = tmp_path / "pulse.txt"
    record.write_text("".join(f"{0.01 * k:.2f} {0.3 if k < 10 else 0.0}\n" for k in range(31)))
    drift = {}
    for baseline in ("end_at_rest", "none"):
        out = tmp_path / f"{baseline}.json"
        options = [] if baseline == "end_at_rest" else ["--ground-baseline", "none"]
        done = run("analyze", str(model), "--analysis", "dynamic", "--duration", "0.6", "--time-step", "0.002",
                   "--ground-record", str(record), "--ground-scale", "9.81", *options, "--out", str(out), "--quiet")
        assert done.returncode == 0, done.stderr
        result = json.loads(out.read_text())
        ground = [block["id"] for block in result["blocks"]].index("ground")
        first, last = result["frames"][0]["positions"][ground], result["frames"][-1]["positions"][ground]
        drift[baseline] = np.linalg.norm(np.subtract(last, first))
    assert drift["end_at_rest"] <= 1e-6 and drift["none"] > 0.1, drift


def test_dynamic_run_warns_about_steps_that_did_not_converge(tmp_path):
    document = json.loads(run("example", "rocking_block").stdout)
    document["settings"] = {"max_iterations": 2, "tolerance": 1e-12}
    model = tmp_path / "block.json"
    model.write_text(json.dumps(document))
    done = run("analyze", str(model), "--analysis", "dynamic", "--duration", "0.01", "--time-step", "0.001",
               "--out", str(tmp_path / "result.json"), "--quiet")
    assert done.returncode == 0, done.stderr
    # the first step, from rest, goes to Newton (engine.solvers.auto.RunPlan.cold_newton), whose steps
    # max_iterations does not cap; the other nine stop at 2 iterations
    assert "did not converge in 9 of 10 steps (first at t = 0.002 s" in done.stdout + done.stderr


def test_a_four_column_record_is_the_two_column_one_along_its_direction(tmp_path):
    from extrados.cli import read_record

    two, four = tmp_path / "x.txt", tmp_path / "xyz.txt"
    two.write_text("0 0\n0.01 0.5\n0.02 -0.25\n")
    four.write_text("0 0 0 0\n0.01 0 0.3 0.4\n0.02 0 -0.15 -0.2\n")
    along = read_record(two, "0,3,4", 9.81)
    assert along["kind"] == "record" and along["dt"] == pytest.approx(0.01)
    assert np.allclose(read_record(four, "1,0,0", 9.81)["accelerations"], along["accelerations"], rtol=1e-15, atol=0)


def test_bad_ground_record_exits_2(tmp_path):
    model = tmp_path / "block.json"
    model.write_text(run("example", "rocking_block").stdout)
    record = tmp_path / "record.txt"
    record.write_text("0 1 2\n0.1 1 2\n")
    done = run("analyze", str(model), "--analysis", "dynamic", "--duration", "0.1", "--ground-record", str(record))
    assert done.returncode == 2 and "two or four columns" in done.stderr


def test_construction_by_courses_and_a_named_thrust_line_from_the_command_line(tmp_path):
    """A 3-course wall built course by course from the CLI stands, with one stage per course; a chain
    named with --thrust-line-chain comes back as the result's thrust line."""
    model = tmp_path / "wall.json"
    model.write_text(run("example", "wall", "--courses", "3", "--blocks_per_course", "2").stdout)
    out = tmp_path / "result.json"
    done = run("analyze", str(model), "--analysis", "construction", "--stages", "courses", "--time-step", "0.002",
               "--thrust-line-chain", "c0b0,c1b0", "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["stable"] and len(result["construction"]["stages"]) == 3
    assert result["thrust_lines"][0]["blocks"][:3] == ["ground", "c0b0", "c1b0"]
    wrong = run("analyze", str(model), "--stages", "all")
    assert wrong.returncode == 2 and "--stages applies to a construction analysis only" in wrong.stderr


def test_a_picture_of_a_result_whose_named_thrust_line_could_not_be_drawn(tmp_path):
    """A chain broken by a missing joint leaves its thrust line without points: the PNG is drawn without it."""
    model = tmp_path / "column.json"
    model.write_text(run("example", "column", "--blocks", "3").stdout)
    out, png = tmp_path / "result.json", tmp_path / "result.png"
    done = run("analyze", str(model), "--thrust-line-chain", "b0,b2", "--out", str(out), "--png", str(png))
    assert done.returncode == 0, done.stderr
    (line,) = json.loads(out.read_text())["thrust_lines"]
    assert line["points"] == [] and "broken" in line["error"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- issue 16: the first hour ------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_example_help_lists_every_parameter_with_unit_range_and_default(name):
    done = run("example", name, "--help")
    assert done.returncode == 0, done.stderr
    lines = {line.split()[0]: line for line in done.stdout.splitlines() if line.strip().startswith("--")}
    for parameter in GENERATORS[name].parameters:
        line = lines[f"--{parameter.name.replace('_', '-')}"]
        default = str(parameter.default).lower() if parameter.type is bool else f"{parameter.default:.12g}"
        assert f"default {default})" in line and parameter.range in line and parameter.help in line
        assert parameter.unit in line


def test_example_refuses_more_blocks_than_the_limit_naming_the_parameters():
    done = run("example", "wall", "--courses", "1000", "--blocks-per-course", "1000")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"more than {DEFAULT_MAX_BLOCKS} blocks" in done.stderr
    assert "--courses 1000" in done.stderr and "--blocks-per-course 1000" in done.stderr
    assert "--max-blocks" in done.stderr and done.stdout == ""
    small = run("example", "column", "--blocks", "30", "--max-blocks", "10")
    assert small.returncode == 2 and "more than 10 blocks (--blocks 30)" in small.stderr
    assert run("example", "column", "--blocks", "10", "--max-blocks", "11").returncode == 0


def test_a_reader_that_stops_early_ends_the_example_quietly():
    """`extrados example wall | head -c 200`: the reader closes the pipe; no BrokenPipeError traceback."""
    writer = subprocess.Popen(EXTRADOS + ["example", "wall", "--courses", "40", "--blocks-per-course", "40"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = writer.stdout.read(200)
    writer.stdout.close()
    stderr = writer.stderr.read().decode()
    assert writer.wait(timeout=300) == 0 and head.startswith(b"{")
    assert stderr == ""


@pytest.mark.parametrize("option", ["--out", "--png"])
def test_an_output_path_in_a_missing_folder_is_refused_before_the_analysis(tmp_path, option):
    model = tmp_path / "column.json"
    model.write_text(run("example", "column", "--blocks", "2").stdout)
    missing = tmp_path / "no-such-folder" / "result.file"
    done = run("analyze", str(model), option, str(missing))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{option}: folder {str(missing.parent)!r} does not exist" in done.stderr
    assert "stable" not in done.stdout + done.stderr  # refused before analysing, not after
    folder = run("analyze", str(model), option, str(tmp_path))
    assert folder.returncode == 2 and f"{option}: {tmp_path} is a folder" in folder.stderr


def test_summary_prints_event_times_without_float_noise(tmp_path):
    model = tmp_path / "pushed.json"
    model.write_text(run("example", "rocking_block", "--lateral-acceleration", "5").stdout)
    # steps of 3 ms: raw event times such as 0.47100000000000003 s
    done = run("analyze", str(model), "--analysis", "dynamic", "--duration", "0.6", "--time-step", "0.003",
               "--quiet", "--out", str(tmp_path / "result.json"))
    assert done.returncode == 0, done.stderr
    events = json.loads((tmp_path / "result.json").read_text())["events"]
    assert repr(events["collapse"]) != f"{events['collapse']:.6g}"  # the document keeps the raw float
    assert f"collapse at {events['collapse']:.6g} s" in done.stdout
    assert f"first uplift at {events['first_uplift']:.6g} s" in done.stdout
    assert not re.search(r"\d\.\d{7,}", done.stdout), done.stdout


def test_hht_with_a_coefficient_of_restitution_takes_the_laws_time_step(tmp_path):
    """Issue 18: extrados analyze M.json --analysis dynamic --integrator hht --restitution 0.9."""
    from extrados.engine.dynamics.time_step_law import REQUEST_LAW

    model = tmp_path / "block.json"
    made = run("example", "rocking_block", "--tilt", "0.5", "--normal-stiffness", "5e8", "--density", "2600")
    model.write_text(made.stdout)
    out = tmp_path / "result.json"
    done = run("analyze", str(model), "--analysis", "dynamic", "--integrator", "hht", "--restitution", "0.9",
               "--duration", "0.2", "--quiet", "--out", str(out))
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    law = doc["integrator"]["time_step_law"]
    assert doc["time_step"] == law["time_step"] == pytest.approx(
        REQUEST_LAW.time_step(0.5 * math.hypot(0.25, 1.0), 4.0, 5e8, 0.9))
    refused = run("analyze", str(model), "--analysis", "dynamic", "--integrator", "hht", "--restitution", "0.9",
                  "--time-step", "0.01", "--duration", "0.2", "--quiet")
    assert refused.returncode == 2 and "time_step" in refused.stderr
