"""examples/validate.py fills docs/validation/*.md from the examples' JSON: checked on small stored documents.

No example runs here: each run's folder is written from FIXTURES, documents that hold only
the keys the section functions read, with round values, and the templates are the real ones.
"""
import copy
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
SPEC = importlib.util.spec_from_file_location("validate", ROOT / "examples" / "validate.py")
validate = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(validate)


def rocking_run(time_step, amplitudes, e_g):
    return {"time_step": time_step, "amplitudes_over_alpha": amplitudes, "errors_vs_exact": {"N": 6, "e_G": e_g},
            "first_impacts_vs_exact": {"amplitude_max_rel_error": 0.01, "impact_time_max_rel_error": 0.005,
                                       "within_design_tolerance": True}}


def ground_run(displacement_end, drop, collapse=None):
    """A spandrel_summary entry of one direction."""
    step = {"keystone_displacement_end_m": displacement_end}
    return {"duration_s": 6.0, "ground_motion": {"amplitude_m": 0.0497, "frequency_hz": 1.0,
                                                 "peak_acceleration_m_s2": 1.962},
            "events": {"collapse": collapse}, "equivalent_static": {"stable": True},
            "keystone_displacement_end_m": displacement_end, "keystone_largest_drop_m": drop,
            "steps_study": {"0.001": step, "0.005": step, "0.02": step},
            "wall_clock_s": 60.0, "seconds_per_step": 0.01, "real_time_factor": 0.1}


def housner_entry(pga, beyond=None):
    return {"pga_g": pga, "equivalent_body": {"alpha_rad": 0.1397, "p_1_s": 1.648, "restitution": 0.969},
            "uplift_acceleration_g": 0.141,
            "housner": {"largest_rad": 0.05, "beyond_alpha_s": beyond, "overturned_s": beyond},
            "extrados": {"largest_rad": 0.051, "beyond_alpha_s": beyond, "collapse_s": beyond}}


def sweep_entry(pga, drop, one_centimetre_s, collapse=None):
    return {"pga_g": pga, "events": {"collapse": collapse}, "keystone_largest_drop_m": drop,
            "keystone_drop_times_s": {"0.01": one_centimetre_s}}


def arch_row(friction, nscd, sliding=()):
    return {"friction": friction, "nscd": nscd, "limit_analysis": nscd, "conventional_limit": 0.17,
            "conventional_limit_with_friction": nscd, "friction_demand": friction / 2, "paper": 0.1, "hinges": ["v0|ground", "v7|v8"], "sliding": list(sliding)}


def arch_run(scale=1.0):
    """seed000_arch_point_loads.json: reactions of (1 + 0.2) W_arch with W_arch = 100 kN."""
    return {"seed000_arch_point_loads": {
        "rows": [arch_row(0.8, 0.2 * scale), arch_row(0.4, 0.06 * scale, ["v0|ground"])],
        "results": {"mu_0.8": {"reactions": [{"force": [0.0, 0.0, 1.2e5]}], "load_factor": 0.2,
                               "load_factor_report": {"tolerance": 0.005}}}}}


def scenario(p, left):
    """One construction_wall scenario: wall invariants p (Pa), the fixed slab's reaction (N)."""
    return {"p_wall": p, "q_wall": 2 * p, "p_2d_wall": 1.5 * p, "q_2d_wall": 1.2 * p,
            "reactions": {"ground_left": left}, "max_displacement": 1e-5, "steps": 100, "seconds": 10.0,
            "layers": [{"sigma_xx": -270.0 + 10 * k} for k in range(6)], "weight": 113e3}


def hht_run(time_step, ratio):
    """One free-rocking run of examples/hht_rocking.py's concept study."""
    return {"time_step": time_step, "seconds": 1.0, "mean_energy_ratio": ratio,
            "errors_vs_eq3": {"N": 6, "e_theta": 0.1, "e_T": 0.05, "e_G": 0.112}}


def harmonic_row(acceleration, overturned, largest, housner_largest):
    return {"acceleration_over_g_tan_alpha": acceleration, "frequency_over_p": 4.0, "cycles": 3,
            "time_step": 0.0124, "overturned": overturned, "housner_overturned": overturned,
            "largest_over_alpha": largest, "housner_largest_over_alpha": housner_largest,
            "largest_error": None if overturned else largest / housner_largest - 1.0}


def ensemble_entry(ks, collapsed):
    return {"time_step": 0.00278, "ks_distance": ks, "ks_pvalue": 0.5, "failed": [],
            "nscd": {"collapsed": collapsed, "cases": 100}, "housner": {"collapsed": 12, "cases": 100}}


FIXTURES = {
    "hht_rocking": {
        "hht_rocking/concept": {"restitution": 0.94, "eq2_restitution": 0.9409,
                                "law": {"A1": -2.238, "A2": 0.629, "A3": -0.205, "source": "seed 003 eq. 9"},
                                "runs": {"paper": hht_run(0.013, 0.945), "law": hht_run(0.01245, 0.94)}},
        "hht_rocking/steps": {"steps": [0.007, 0.013, 0.026], "mean_energy_ratios": [0.97, 0.94, 0.9],
                              "dissipation_grows_with_step": True, "half_period_curve_max_error": 0.015},
        "hht_rocking/amplitudes": {"tilts": [0.25, 0.5], "time_step": 0.013, "mean_energy_ratios": [0.94, 0.945],
                                   "spread": 0.0025},
        "hht_rocking/harmonic": {"restitution": 0.9409,
                                 "cases": [harmonic_row(1.5, False, 0.3, 0.31), harmonic_row(3.0, True, 5.5, 5.5)]}},
    "hht_rocking_ensemble": {"hht_rocking/ensemble": {
        "count": 100, "pga": 3.0, "seconds": 600.0,
        "by_restitution": {"0.9532": ensemble_entry(0.08, 11), "0.9465": ensemble_entry(0.07, 10)}}},
    "arch_minimum_thickness": {"arch_minimum_thickness": {
        "t_min_reference": 0.10746, "t_min": {"10": 0.107, "20": 0.1073, "40": 0.1074},
        "mu_springing_at_1.02_t_min": 0.394, "mu_at_t_0.3": 0.3088,
        "result_at_1.02_t_min": {"solver": {"name": "apgd"}}}},
    "free_rocking": {"free_rocking/free_rocking": {
        "r": 0.8313, "housner_exact": {"amplitudes_over_alpha": [0.5, 0.46, 0.42, 0.39, 0.36, 0.33, 0.3]},
        "runs": [rocking_run(1e-3, [0.5, 0.45, 0.41, 0.37, 0.34, 0.30, 0.27], 0.05),
                 rocking_run(2.5e-4, [0.5, 0.46, 0.42, 0.39, 0.36, 0.32, 0.3], 0.01)]}},
    "spandrel_wall_ground_motion": {
        "spandrel_summary": {"x": ground_run([-0.0115, 0.0, -0.006], 0.0062),
                             "y": ground_run([0.0, -0.034, 0.0], 0.0008),
                             "housner": [housner_entry(0.2), housner_entry(0.3, beyond=3.5)],
                             "pga_sweep": [sweep_entry(0.3, 0.06, 0.2), sweep_entry(0.45, 0.19, 0.14, collapse=1.91)]},
        "spandrel_x_h0.02": {"solver_at_end": {"converged": True, "iterations": 2984, "residual": 9e-6}},
        "spandrel_y_h0.02": {"solver_at_end": {"converged": False, "iterations": 5000, "residual": 2.4e-5}}},
    "spandrel_collapse_study": {"study": [
        {"variant": variant, "pga_g": pga, "duration_s": 6.0, "largest_drop_m": drop, "final_drop_m": drop,
         "collapse_s": None, "first_sliding_s": 0.001, "seconds": 100.0, "unconverged_steps": 0,
         "mean_iterations": 60.0}
        for variant, pga, drop in (("baseline", 0.2, 0.0062), ("baseline", 0.3, 0.06),
                                   ("non_associated", 0.2, 0.0061), ("non_associated", 0.3, 0.05),
                                   ("rounded_25mm", 0.2, 0.0069))]},
    "spandrel_layout_study": {"study": [
        {"variant": variant, "direction": "in_plane", "pga_g": 0.2, "duration_s": 6.0, "blocks": blocks,
         "largest_drop_m": drop, "final_drop_m": drop, "largest_sway_m": 0.012, "collapse_s": None,
         "first_sliding_s": 0.001, "seconds": 100.0, "unconverged_steps": 0, "mean_iterations": 60.0}
        for variant, blocks, drop in (("voussoirs_9", 122, 0.0061), ("baseline", 129, 0.0064),
                                      ("small_blocks", 437, 0.0071))]},
    "spandrel_out_of_plane_study": {"study": [
        {"variant": variant, "direction": "out_of_plane", "pga_g": 0.2, "duration_s": 6.0, "blocks": blocks,
         "largest_drop_m": drop, "final_drop_m": drop, "largest_sway_m": 0.25, "collapse_s": collapse,
         "first_sliding_s": 0.001, "seconds": 50.0, "unconverged_steps": 0, "mean_iterations": 60.0}
        for variant, blocks, drop, collapse in (("baseline", 129, 0.0008, None), ("voussoirs_9", 122, 0.0009, None),
                                                ("small_blocks", 437, 0.031, 4.5))]},
    "spandrel_out_of_plane_settings": {"study": [
        {"variant": variant, "direction": "out_of_plane", "pga_g": 0.2, "duration_s": 6.0, "blocks": 129,
         "largest_drop_m": drop, "final_drop_m": drop, "largest_sway_m": 0.031, "collapse_s": None,
         "first_sliding_s": 0.001, "seconds": 70.0, "unconverged_steps": 0, "mean_iterations": 60.0}
        for variant, drop in (("baseline", 0.0008), ("soft_joints", 0.0058))]},
    "seed001_kappa_study": {"seed001_kappa_study": {
        "thresholds": [0.001, 0.01], "paper": {"ratio": 1.67},
        "cases": [{"case": "settlement", "kappa": {"0.001": 11.3, "0.01": 2.0}},
                  {"case": "x", "kappa": {"0.001": 156.3, "0.01": 90.0}},
                  {"case": "z", "kappa": {"0.001": 20.0, "0.01": 0.0}}]}},
    "load_factor_arch": {"load_factor_arch": {
        "radius": 1.0, "voussoirs": 20, "friction": 0.8, "tolerance": 0.005,
        "rows": [{"thickness_over_radius": 0.15, "load_at": "quarter span", "nscd": 0.224, "limit_analysis": 0.226,
                  "published": 0.2255, "nscd_vs_lp_percent": -0.9, "lp_vs_published_percent": 0.2, "solves": 9,
                  "hinges": [["v0", "ground"], ["v12", "v13"]], "sliding": []}]}},
    "arch_thrust_lines": {"arch_thrust_lines": {"thrust": {
        "effective": 904.0, "minimum": 808.6, "maximum": 1048.4, "limit": 911.4, "geometric_safety_factor": 1.397}}},
    "seed000_arch_point_loads": arch_run(),
    "seed000_arch_pairs_10": arch_run(1.3),
    "seed000_arch_pairs_15": arch_run(2.0),
    "seed000_arch_fit": {"seed000_arch_fit": {"fits": [
        {"layout": "crown", "depth_for_10_percent": 0.538, "jumps_at_depth": None,
         "lp": {"mu_0.8": 0.1, "mu_0.4": 0.039}, "nscd": {"mu_0.8": 0.1, "mu_0.4": 0.039}},
        {"layout": "pair ±30°", "depth_for_10_percent": None, "jumps_at_depth": 0.414}]}},
    "seed000_spandrel_arch": {"seed000_spandrel_arch": {
        "friction": 0.4,
        "equivalent_arch": {"nscd": 0.415, "limit_analysis": 0.42, "conventional_limit": 0.698,
                            "conventional_limit_with_friction": 0.42, "conventional_friction_demand": 0.399, "spandrel_weight_over_arch": 1.8,
                            "hinges": ["v2|v3", "v7|v8"], "sliding": ["v0|ground"]},
        "assembly_static": {"factor": 0.416, "stable": True}, "assembly_load_factor": {"nscd": 1.95},
        "line_shape": {"effective_eccentricity_ratio": 0.26, "conventional_eccentricity_ratio": 0.66,
                       "effective_horizontal_thrust_springing_crown_n": [12.1e3, 52.5e3],
                       "conventional_horizontal_thrust_n": 69.5e3, "effective_springing_angle_deg": 84.0,
                       "conventional_springing_angle_deg": 68.0}}},
    "seed001_strain_maps": {"seed001_strain_maps": {
        "assumptions": {"courses": 16, "output_interval": 0.01}, "paper": {"ratio": 1.67}, "ratio": 2.0,
        "cases": {name: {"kappa": kappa, "cells": 248, "critical_cells": 22, "mean_shear": 3e-3, "mean_dilation": 3e-3,
                         "steps": 1500} for name, kappa in (("settlement", 11.3), ("shaking", 22.6))}}},
    "seed000_wall_unsupported_base": {"seed000_wall_unsupported_base": {
        "parameters": {"gap": 7.6, "friction": 0.4}, "blocks": 165, "duration_s": 3.0, "time_step_s": 0.002,
        "fallen": ["c0b1", "c0b2", "c1b1"],
        "courses": [{"course": 0, "fallen": ["c0b1", "c0b2"], "triangle": ["c0b2", "c0b1"]},
                    {"course": 1, "fallen": ["c1b1"], "triangle": []},
                    {"course": 2, "fallen": [], "triangle": []}],
        "remaining_stands": True, "static_verdict_by": "settle run", "largest_support_joint_force_n": 203e3}},
    "seed000_cylinder_dome": {"seed000_cylinder_dome": {
        "parameters": {"radius": 4.0, "height": 2.0, "courses": 2, "gap_radius": 3.2}, "blocks": 98,
        "duration_s": 3.0, "time_step_s": 0.002, "dynamic_seconds": 130.0, "fallen": ["c0r0b0", "c1r0b0"],
        "courses": [{"course": 0, "blocks": 41, "fallen": 1, "open_radius_m": 1.85},
                    {"course": 1, "blocks": 57, "fallen": 1, "open_radius_m": 0.74}],
        "remaining_stands": True, "static_verdict_by": "static", "outward_fraction": 0.99}},
    "construction_wall": {"construction_wall": {
        "assumptions": {"blocks": 248, "courses": 16, "blocks_per_course": 15, "block_length": 0.4,
                        "block_height": 0.22, "depth": 0.3, "density": 1820.0, "friction": 0.65, "settlement": 0.04,
                        "settled_blocks_of_the_first_course": 4},
        "paper": {"p_wall": {"I": 1.57e4, "II": 1.59e4}, "q_wall": {"I": 1.29e4, "II": 1.30e4}},
        "scenarios": {"scenario I": scenario(1.0e4, [97.0, 0.0, 83e3]),
                      "scenario II": scenario(1.0e4, [15.0, 0.0, 83e3]),
                      "scenario II + settlement": scenario(0.9e4, [600.0, 0.0, 105e3])},
        "scenario II vs I": {"blockwise_mean_difference_p": 8e-4, "blockwise_mean_difference_q": 4e-4,
                             "layer_difference_p": 8e-4, "layer_difference_q": 4e-4,
                             "layer_change_p": [-0.004, -0.003, 0.0015, 0.0009, 0.0006, 0.0003]},
        "settlement vs scenario II": {"layer_difference_p": 0.21}}},
    "diagonal_compression": {"diagonal_compression": {
        "paper_peak_kN": 260.0, "speed_m_per_s": 0.002, "time_step_s": 0.001,
        "panel": {"joint_stiffness": 1e12, "shoe_length": 0.15},
        "panel_geometry": {"width": 0.84, "height": 0.84, "thickness": 0.1, "friction": 0.8},
        "closed_form_peaks_kN": {"elastic_continuum": 224.0, "no_tension_across": 845.0},
        "sets": {str(k): {"peak_force_kN": peak, "displacement_at_peak_mm": 0.44, "peak_passed": True,
                          "bonds_at_peak": {"intact": 100, "damaged": 20, "broken": 3},
                          "centre_bed_joints_at_peak": {"normal_stress_MPa": 5.5, "shear_stress_MPa": 5.72},
                          "steps": 750, "unconverged_steps": 0, "max_kinetic_over_work": 3e-7, "runtime_s": 230.0}
                 for k, peak in ((1, 662.0), (2, 634.0))}}},
}
OPTIONS = {"arch_minimum_thickness": ["--iterations", "12"],
           "spandrel_wall_ground_motion": ["--steps-study", "--pga-sweep", "0.3", "0.45", "--housner", "0.2", "0.3"],
           "arch_thrust_lines": ["--thickness", "0.15"], "spandrel_collapse_study": ["--pga", "0.2", "0.3"]}


def write_runs(out, fixtures, quick=False):
    """The runs' folders as the examples and validate leave them: their JSON and validate's record."""
    for run, documents in fixtures.items():
        for stem, document in documents.items():
            path = out / run / f"{stem}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(document))
        record = {"run": run, "options": OPTIONS.get(run, []), "quick": quick, "seconds": 10.0, "cpu_count": 2}
        (out / run / validate.RUN_RECORD).write_text(json.dumps(record))


def load(tmp_path, fixtures=FIXTURES, quick=False):
    write_runs(tmp_path, fixtures, quick)
    return validate.load_runs(tmp_path, list(fixtures))


def without(path):
    """FIXTURES with the key at ``path`` (run, stem, key, ...) removed."""
    fixtures = copy.deepcopy(FIXTURES)
    parent = fixtures
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    return fixtures


def test_every_placeholder_of_every_template_is_filled_by_its_section_function(tmp_path):
    data = load(tmp_path)
    for section in validate.SECTIONS:
        template = (validate.TEMPLATES / f"{section.name}.md").read_text()
        assert validate.placeholders(template) == set(section.values(data)), section.name
    text, missing = validate.render(data)
    assert not missing
    assert "{{" not in text and "}}" not in text
    assert "Not generated" not in text and "--quick" not in text.split("\n## ")[0]


def test_the_numbers_are_the_runs(tmp_path):
    text, _ = validate.render(load(tmp_path))
    assert "| same, n = 40 | 0.10746 | 0.10740 (−0.06 %) |" in text
    assert "W_arch = 100.0 kN" in text                       # 1.2e5 N of reactions at lambda = 0.2
    assert "±10°: 26.0 %" in text and "±15°: 40.0 %" in text
    assert "| blocks fallen | 2 | 1 | 0 |" in text
    assert "Up to course 0 the fallen blocks are exactly the corbelling triangle" in text
    assert "hinges at v2\\|v3, v7\\|v8; sliding at v0\\|ground" in text   # escaped inside a table
    assert "both pass α (3.50 s, Housner 3.50 s) and overturn" in text
    assert "stops unconverged at 5,000 iterations (residual 2.4e-05) out of plane" in text
    assert "the fixed slab's reaction grows from 83 to 105 kN" in text
    # the layouts (in plane and through the thickness side by side), the settings through the thickness
    assert "| small_blocks | 437 | 7.1 | — | 31.0 | 250 | 4.50 | 100 / 50 |" in text
    assert "(3 of 3 stand; the key stone settles by\n7.1 mm at most, " in text
    assert "every wall whose blocks span the\nthickness stands** (2 of 3 stand)" in text
    assert "| soft_joints | 5.8 | 31 | — | 0 | 70 |" in text
    # kappa of each case at each threshold, and each shaking's ratio to the settlement
    assert "| 0.001 | 11.3 | 156.3 | 20.0 | 13.83 | 1.77 |" in text
    assert "| 0.01 | 2.0 | 90.0 | 0.0 | 45.00 | 0.00 |" in text
    assert "| their τ / σ (elastic continuum 1.89) | 1.04 | 1.04 |" in text
    assert "here\nset 1 662 kN (2.55×), set 2 634 kN (2.44×)" in text and "224 kN, near the paper's" in text
    assert "| law: 12.45 | 6 | 0.100 | 0.050 | 0.112 | 0.9400 | 1.0 |" in text
    assert "| 1.5 | 4 | 3 | 12.4 | survives | survives | 0.310 | 0.300 | −3.2 % |" in text
    assert "| 0.9532 | 2.78 | 0.080 | 0.500 | 11 / 100 | 12 / 100 | 0 |" in text


@pytest.mark.parametrize("path, message", [
    (("arch_minimum_thickness", "arch_minimum_thickness", "mu_springing_at_1.02_t_min"),
     "static.md: {{mu_springing}}: arch_minimum_thickness/arch_minimum_thickness.json has no key "
     "'mu_springing_at_1.02_t_min'"),
    (("seed000_spandrel_arch", "seed000_spandrel_arch", "line_shape", "conventional_springing_angle_deg"),
     "seed000_spandrel_arch.md: {{conventional_angle}}: seed000_spandrel_arch/seed000_spandrel_arch.json has no "
     "key 'conventional_springing_angle_deg'"),
    (("spandrel_wall_ground_motion", "spandrel_y_h0.02"),
     "spandrel_ground_motion.md: {{y_coarse_solver}}: out/validation/spandrel_wall_ground_motion/ has no key "
     "'spandrel_y_h0.02'"),
    (("free_rocking", "free_rocking/free_rocking", "r"),
     "dynamic.md: {{r}}: free_rocking/free_rocking/free_rocking.json has no key 'r'"),
])
def test_a_missing_key_names_the_placeholder(tmp_path, path, message):
    with pytest.raises(validate.TemplateError) as error:
        validate.render(load(tmp_path, without(path)))
    assert str(error.value) == message


def test_a_placeholder_without_a_value_is_refused():
    with pytest.raises(validate.TemplateError, match=r"t\.md: \{\{nothing\}\} has no value"):
        validate.fill("a {{ something }} and {{nothing}}", {"something": lambda: "1"}, "t.md")


def test_a_value_without_a_placeholder_is_refused():
    with pytest.raises(validate.TemplateError, match="gives 'spare', which the template does not use"):
        validate.fill("a {{something}}", {"something": lambda: "1", "spare": lambda: "2"}, "t.md")


def test_a_missing_run_leaves_a_marked_stub(tmp_path):
    fixtures = {run: documents for run, documents in FIXTURES.items() if run != "seed000_cylinder_dome"}
    text, missing = validate.render(load(tmp_path, fixtures))
    assert missing == ["seed000_cylinder"]
    assert ("### Partially supported cylinder, fig. 10 (`seed000_cylinder_dome.py`)\n\n> **Not generated:** "
            "`seed000_cylinder_dome` did not finish") in text
    assert "| seed000_cylinder_dome | `examples/seed000_cylinder_dome.py` | did not run |" in text


def test_a_quick_run_is_flagged_at_the_top(tmp_path):
    text, _ = validate.render(load(tmp_path, quick=True))
    assert text.startswith("# Validation\n\n> **`--quick` check, not for committing:**")


def test_the_figures_are_copied_under_the_size_limit(tmp_path):
    out, docs = tmp_path / "out", tmp_path / "docs"
    docs.mkdir()
    data = load(out)
    for section in validate.SECTIONS:
        for run, source, _ in section.figures:
            (out / run / source).parent.mkdir(parents=True, exist_ok=True)
            Image.new("RGB", (40, 30), "white").save(out / run / source)
    noise = np.random.default_rng(0).integers(0, 256, (400, 400, 3), dtype=np.uint8)
    Image.fromarray(noise).save(out / "construction_wall" / "construction_wall.png")
    assert (out / "construction_wall" / "construction_wall.png").stat().st_size > validate.FIGURE_LIMIT_BYTES
    assert validate.write_document(data, out, docs) == []
    names = [name for section in validate.SECTIONS for _, _, name in section.figures]
    assert all(0 < (docs / name).stat().st_size < validate.FIGURE_LIMIT_BYTES for name in names)
    assert "![](seed000_cylinder_dome.png)" in (docs / "validation.md").read_text()
