"""Progress of every analysis that can take long (issue 16): through `analyze`'s callback, and through the
job API for a load factor job run with ?async=true.

What a caller sees must never go back, must end at 1 when the analysis has ended, and must move in
between (more than the final 1) for load factor searches, settle runs and construction stages,
which reported nothing, or once per stage, before.
"""
import time

from extrados import Model, analyze, generators
from extrados.engine.analysis.progress import Progress
from extrados.engine.analysis.static import settle_run_stands
from tests.server_harness import FINISHED, running_service

#: The arch of tests/test_load_factor.py with its crown load: a collapse search of several static solves.
LOADED_ARCH = generators.generate("arch", radius=1.0, thickness=0.15, voussoirs=20, friction=0.8, load_fraction=1.0,
                                  load_angle_deg=0.0)
#: s, between two polls of a job, and the longest a job may take (a worker loads the kernels first).
POLL_S = 0.01
JOB_TIMEOUT_S = 300.0


def reported(model, analysis):
    """The fractions ``analyze`` reports, in order."""
    fractions = []
    analyze(model, analysis, progress=fractions.append)
    return fractions


def assert_moves_to_one(fractions):
    assert fractions == sorted(fractions) and len(set(fractions)) == len(fractions)
    assert 0.0 < fractions[0] and fractions[-1] == 1.0
    assert len(fractions) > 2, fractions


def test_windows_map_into_the_whole_and_never_go_back():
    sent = []
    whole = Progress.of(sent.append)
    second_half = whole.part(0.5, 1.0)
    second_half.part(0.5, 1.0)(0.5)      # 0.5 + 0.5 * (0.5 + 0.5 * 0.5)
    whole(0.2)                            # behind what was sent: held back
    second_half(2.0)                      # clipped to the window's end
    assert sent == [0.875, 1.0]
    assert Progress.of(whole) is whole
    Progress.of(None)(0.5)                # nobody listens: nothing to do


def test_load_factor_search_reports_each_solve():
    fractions = reported(Model.from_dict(LOADED_ARCH), {"type": "load_factor"})
    assert_moves_to_one(fractions)


def test_construction_reports_within_its_stages():
    column = generators.generate("column", blocks=3)
    fractions = reported(Model.from_dict(column), {"type": "construction", "stages": "courses"})
    assert_moves_to_one(fractions)
    assert len(fractions) > 3  # three stages reported three values before, or none in the CLI


def test_static_and_dynamic_end_at_one():
    column = Model.from_dict(generators.generate("column", blocks=2))
    assert reported(column, "static") == [1.0]
    assert_moves_to_one(reported(column, {"type": "dynamic", "duration": 0.01, "time_step": 0.001}))


def test_a_settle_run_reports_its_steps():
    """A block sliding down a steep incline is a mechanism: the settle run steps to its end."""
    model = Model.from_dict(generators.generate("incline", angle_deg=40.0, friction=0.5))
    mech = model.mechanics
    wrench = mech.dead_wrench.copy()
    fractions = []
    assert not settle_run_stands(model, wrench, progress=Progress.of(fractions.append))
    assert_moves_to_one(fractions)
    assert len(fractions) > 100


def test_a_load_factor_job_shows_its_progress(tmp_path):
    """GET /v1/jobs/{id} shows fractions between 0 and 1 while a load factor job runs, never going back."""
    with running_service(data_dir=str(tmp_path)) as client:
        status, accepted, _ = client.post("/v1/analyses?async=true",
                                          {"model": LOADED_ARCH, "analysis": {"type": "load_factor"}})
        assert status == 202
        polled = []
        deadline = time.monotonic() + JOB_TIMEOUT_S
        while time.monotonic() < deadline:
            job = client.get(accepted["url"])[1]
            if job["state"] in FINISHED:
                break
            polled.append(job["progress"])
            time.sleep(POLL_S)
    assert job["state"] == "done" and job["progress"] == 1.0
    assert polled == sorted(polled)
    assert any(0.0 < p < 1.0 for p in polled), polled
