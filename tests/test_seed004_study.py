"""Seed 004 sec. 5.2.1-5.2.2 on the small panel (examples/seed004_mesh_study.py, issue 23): the laws of fig. 18 and
what l_c makes of the blocks' mesh and of their joints' contact points."""
import sys
from pathlib import Path

import numpy as np
import pytest

from extrados.engine.contact.cohesive import BilinearMode
from extrados.engine.generators.panel import TABLE_1_MODE_I, TABLE_2_MODE_II
from extrados.engine.pipeline import detect
from extrados.engine.state import State

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from diagonal_compression import PeakWatch  # noqa: E402
from seed004_mesh_study import (LEVELS, curve_figures, scaled_mode, softening_start,  # noqa: E402
                                study_document, study_joint, study_model, study_thickness)


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("mode", [TABLE_1_MODE_I, TABLE_2_MODE_II], ids=["Table 1", "Table 2"])
def test_fig18_levels_scale_strength_and_energy_and_keep_k0_and_ultimate_opening(mode, level):
    """Fig. 18: the low and high laws are the medium one with its peak stress and cohesive energy scaled by 0.5 and
    1.5, its initial stiffness K0 and ultimate opening kept."""
    medium, scaled = BilinearMode.from_dict(mode, "m"), BilinearMode.from_dict(scaled_mode(mode, level), "m")
    opening = np.linspace(0.0, medium.ultimate * 1.001, 200001)
    stress = scaled.stress(opening)
    factor = LEVELS[level]
    assert stress.max() == pytest.approx(factor * mode["strength"], rel=1e-4)
    assert np.trapezoid(stress, opening) == pytest.approx(factor * mode["energy"], rel=1e-6)
    assert scaled.ultimate == medium.ultimate and scaled.stress([1e-3 * scaled.elastic])[0] == \
        pytest.approx(mode["stiffness"] * 1e-3 * scaled.elastic, rel=1e-12)


def test_study_joint_is_tables_1_and_2_with_the_failed_joints_friction():
    joint = study_joint("low", "high")
    assert joint["friction"] == 0.7 and joint["mode_I"]["strength"] == 0.5 * 4.0e4
    assert joint["mode_II"]["energy"] == pytest.approx(1.5 * 34.0) and joint["mode_II"]["stiffness"] == 5.8e10


def test_lc_gives_elements_of_lc_block_lengths_and_two_contact_points_an_element_edge():
    """l_c = 0.1 on 210 mm blocks: elements of about 21 mm (the paper's 10 a side), joints cut every 10.5 mm. The bed
    joint of the corner block (210 mm) under the half block above it (105 mm) is 105 mm long: 11 stations, two per
    element edge, in two rows through the 10 mm thickness, 22 points."""
    model = study_model(0.1, 0.21, 0.01, 2e-3)
    body = model.elastic_bodies[model.block_ids.index("c0b0")]
    nodes, corners = body.mesh.nodes, body.mesh.boundary[:, :3]            # the 6-node triangles' corners
    edges = np.linalg.norm(nodes[corners] - nodes[np.roll(corners, 1, axis=1)], axis=2)
    assert 0.8 * 0.021 <= np.median(edges) <= 1.1 * 0.021 and edges.max() <= np.sqrt(2.0) * 1.2 * 0.021
    contacts = detect(model, State.initial(model.mechanics))
    ids = np.array(model.block_ids)
    pair = {frozenset(("c0b0", "c1b0"))}
    mine = [frozenset((ids[a], ids[b])) in pair for a, b in zip(contacts.body_a, contacts.body_b)]
    points = contacts.point[mine]
    assert len(points) == 22
    across = np.unique(np.round(points[:, 1], 9))
    assert np.allclose(across, [-0.005, 0.005])


def test_fine_lc_thins_the_panel_to_the_contact_spacing_and_keeps_two_rows_of_contact_points_through_it():
    """At l_c = 0.05 the joints are cut every 5.25 mm, finer than the 10 mm panel: the panel is 5.25 mm thick there,
    and a bed joint still holds two rows of points through its thickness (20 stations along the 105 mm joint of the
    corner block under the half block above it), as at l_c = 0.1; at l_c = 0.1 and coarser the panel keeps 10 mm."""
    assert study_thickness(0.1, 0.21, 0.01) == 0.01 and study_thickness(0.5, 0.21, 0.01) == 0.01
    thickness = study_thickness(0.05, 0.21, 0.01)
    assert thickness == pytest.approx(0.00525, rel=1e-12)
    model = study_model(0.05, 0.21, thickness, 2e-3)
    contacts = detect(model, State.initial(model.mechanics))
    ids = np.array(model.block_ids)
    pair = frozenset(("c0b0", "c1b0"))
    mine = [frozenset((ids[a], ids[b])) == pair for a, b in zip(contacts.body_a, contacts.body_b)]
    points = contacts.point[mine]
    assert np.allclose(np.unique(np.round(points[:, 1], 9)), [-thickness / 2, thickness / 2])
    assert len(points) == 2 * 21


@pytest.mark.parametrize("side, blocks, shoe", [(0.42, 17, 0.075), (0.84, 63, 0.15)])
def test_panel_side_scales_the_shoes_to_the_papers_150_mm_at_840_mm(side, blocks, shoe):
    """The small panel's 75 mm shoes are the paper's 150 mm scaled with the panel; at the paper's 840 mm side
    the panel has its 63 blocks (seed 004 sec. 5.2, 14 courses of 210 x 60 mm)."""
    document = study_document(0.5, 0.21, 0.01, 0.02, side=side)
    along = np.array([1.0, 0.0, 1.0]) / np.sqrt(2.0)                  # the bed joints' direction in the x-z plane
    shoe_block = next(b for b in document["blocks"] if b["id"] == "actuator_bed")
    assert np.ptp(np.array(shoe_block["vertices"]) @ along) == pytest.approx(shoe, rel=1e-9)
    assert sum(not b["support"] for b in document["blocks"]) == blocks


def test_block_height_lays_blocks_half_the_size_both_ways():
    """``--block-height 0.03`` with half bricks: 105 x 30 mm blocks, 14 courses of the 420 mm panel, 4 and 5 blocks
    a course in running bond (63 blocks), every course 30 mm high."""
    document = study_document(0.2, 0.105, 0.01, 0.02, block_height=0.03)
    across = np.array([-1.0, 0.0, 1.0]) / np.sqrt(2.0)                 # normal to the bed joints in the x-z plane
    heights = [np.ptp(np.array(b["vertices"]) @ across) for b in document["blocks"] if not b["support"]]
    assert len(heights) == 63 and np.allclose(heights, 0.03, rtol=1e-9)


def test_softening_start_is_the_first_drop_below_085_after_the_peak():
    displacement = np.arange(8) * 1e-3
    force = np.array([0.0, 5.0, 9.0, 10.0, 9.0, 8.6, 8.4, 2.0])
    assert softening_start(displacement, force, 10.0) == 6e-3
    assert softening_start(displacement[:6], force[:6], 10.0) is None


def test_peak_watch_keeps_the_peak_and_the_last_step_before_the_force_falls_below_085_of_it():
    """Figs. 21 and 23 draw the bonds "just before panel failure": the step before the fall that
    `softening_start` finds (step 6 of this curve), and nothing is snapshot after it."""
    force = [0.0, 5.0, 9.0, 10.0, 9.0, 8.6, 8.4, 12.0, 2.0]
    watch, taken = PeakWatch(), []
    for k, value in enumerate(force):
        watch.update(value, lambda: taken.append(k) or {"step": k, "force": value})
    assert watch.passed and watch.peak["step"] == 3 and watch.plateau_end["step"] == 5
    assert taken == [0, 1, 2, 3, 4, 5]
    rising = PeakWatch()
    for value in force[:6]:
        rising.update(value, lambda: {"force": value})
    assert not rising.passed and rising.plateau_end is None and rising.peak["force"] == 10.0


def test_curve_figures_read_the_plateau_up_to_0_3_mm_and_the_elastic_secant():
    """A curve rising at 250 kN/mm to 10 kN at 0.04 mm, flat at 12 kN to 0.3 mm, then rising by friction to 30 kN:
    the plateau's load is 12 kN (the later rise is not it), the stiffness read at 0.02 mm 250 kN/mm."""
    displacement = np.array([0.0, 0.04, 0.1, 0.2, 0.3, 0.4, 0.5]) * 1e-3
    force = np.array([0.0, 10.0, 12.0, 11.5, 11.0, 20.0, 30.0]) * 1e3
    plateau, stiffness = curve_figures(displacement, force)
    assert plateau == 12e3 and stiffness == pytest.approx(250e6, rel=1e-12)
    assert curve_figures(displacement, force, window=0.4e-3)[0] == 20e3     # a wider window takes the later rise


def test_the_study_runs_and_writes_its_curves(tmp_path):
    """The command as README shows it, shortened to 5 steps: strict JSON with the run's figures, both plots."""
    import json
    import subprocess
    script = Path(__file__).resolve().parents[1] / "examples" / "seed004_mesh_study.py"
    done = subprocess.run([sys.executable, str(script), "--study", "mesh", "--lc", "0.5", "--max-displacement",
                           "1e-5", "--out", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "mesh.json").read_text(), parse_constant=lambda name: pytest.fail(name))
    run = record["runs"]["l_c = 0.5"]
    assert run["steps"] == 5 and run["unconverged_steps"] == 0 and run["blocks"] == 17
    assert len(run["force_per_100mm_kN"]) == 5 and run["force_per_100mm_kN"][-1] > 0.0
    assert run["plateau_force_per_100mm_kN"] == max(run["force_per_100mm_kN"])
    assert set(run["bonds_at_end"]) <= {"intact", "damaged", "broken"} and sum(run["bonds_at_end"].values()) > 0
    assert run["plateau_end_mm"] is None and run["bonds_at_plateau_end"] is None     # the force is still rising
    assert (tmp_path / "mesh_force.png").stat().st_size > 0 and (tmp_path / "mesh_bonds.png").stat().st_size > 0
