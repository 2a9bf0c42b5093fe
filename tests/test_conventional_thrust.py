"""Conventional thrust lines of a chain of blocks, through the analysis request (engine.post.conventional).

The lines an analysis returns for the generated semicircular arch are checked against
engine.post.funicular on the arch's analytic section, as examples/arch_thrust_lines.py
computes them (Heyman 1966; seed 000 sec. 3.1): the section cut from the joint polygons is
the analytic one to round-off, so both solve the same linear programs. The effective
thrust of a standing arch lies between the minimum and maximum thrust; the lines do not
depend on the arch's orientation about the vertical; a chain that is no arch in a
vertical plane, or a bad request, is refused naming the field.
"""
import math

import jsonschema
import numpy as np
import pytest

from extrados import ModelError, analyze, generators
from extrados.engine.analysis.request import request_fields
from extrados.engine.generators.arch import arch_point_load, arch_weight
from extrados.engine.io.schema import analysis_schema
from extrados.engine.post.funicular import combined, self_weight, semicircular_section, thrust_bounds, vertical_loads
from tests.blocks import box_block, document, ground

RADIUS, DEPTH, DENSITY, VOUSSOIRS = 1.0, 0.5, 2000.0, 20
#: The joints cut from the contact polygons equal the analytic joints to round-off (1e-15 m), so
#: both ways solve the same linear programs: their optima agree to round-off; the bisection on the
#: thickness (relative width 1e-6) takes the same steps unless a midpoint falls within HiGHS's
#: feasibility tolerance of lam*, which would move the safety factor by at most that width.
SAME_RELATIVE = 1e-6
#: Points: round-off on the joint crossings, far below this (m).
SAME_POINT = 1e-6
#: The load factor bisection stops within 0.5 % of the collapse factor (engine.analysis.load_factor),
#: so at the last standing factor the arch is near its hinging collapse: its geometric safety factor
#: is at least 1 (a standing arch holds a thrust line, Heyman's safe theorem) and within 1 % of it.
NEAR_COLLAPSE = 0.01
#: The linear programs let a line stray LP_FEASIBILITY (1e-7) of the section's size outside a joint.
SAFE_THEOREM_SLACK = 1e-6
CASES = [(0.15, 0.0, 0.0), (0.20, 0.0, 0.0), (0.15, 0.1, 30.0), (0.20, 0.2, -20.0)]  # t (m), P / W, angle (deg)
CONVENTIONAL = {"type": "static", "thrust_line": {"conventional": True}}


def arch_document(thickness, load_fraction, angle_deg):
    return generators.generate("arch", radius=RADIUS, thickness=thickness, depth=DEPTH, voussoirs=VOUSSOIRS,
                               friction=0.8, density=DENSITY, load_fraction=load_fraction, load_angle_deg=angle_deg)


def reference_bounds(thickness, load_fraction, angle_deg, live_factor=1.0):
    """funicular.thrust_bounds on the analytic section, loads as examples/arch_thrust_lines.py sets them."""
    section = semicircular_section(RADIUS, thickness, VOUSSOIRS)
    loads = self_weight(section, DENSITY, DEPTH)
    if load_fraction > 0.0:
        weight = arch_weight(RADIUS, thickness, DEPTH, VOUSSOIRS, DENSITY)
        load = arch_point_load(RADIUS, thickness, VOUSSOIRS, angle_deg, load_fraction * weight)
        loads = combined(loads, vertical_loads(section, [int(load["block"][1:])], [load["point"][0]],
                                               [-live_factor * load["force"][2]]))
    return thrust_bounds(section, loads)


def lines_by_name(result):
    return {line["name"]: line for line in result["thrust_lines"]}


def assert_same_lines(lines, bounds):
    """The result's conventional entries against funicular ThrustBounds (lines at y = 0)."""
    for name, expected in (("minimum_thrust", bounds.minimum), ("maximum_thrust", bounds.maximum),
                           ("limit", bounds.limit)):
        line = lines[name]
        assert line["thrust"] == pytest.approx(expected.thrust, rel=SAME_RELATIVE)
        np.testing.assert_allclose(line["points"], expected.to_dict(name)["points"], rtol=0.0, atol=SAME_POINT)
        assert line["blocks"] == ["ground", *(f"v{k}" for k in range(VOUSSOIRS)), "ground"]
    assert lines["limit"]["geometric_safety_factor"] == pytest.approx(bounds.geometric_safety_factor,
                                                                      rel=SAME_RELATIVE)


_RESULTS = {}


def static_result(thickness, load_fraction, angle_deg):
    """The static result with conventional lines of an arch case, computed once per module."""
    key = (thickness, load_fraction, angle_deg)
    if key not in _RESULTS:
        _RESULTS[key] = analyze(arch_document(*key), CONVENTIONAL).to_dict()
    return _RESULTS[key]


@pytest.mark.parametrize("case", CASES)
def test_lines_of_the_generated_arch_match_graphical_statics_on_its_analytic_section(case):
    result = static_result(*case)
    assert [line["name"] for line in result["thrust_lines"]] == ["effective", "minimum_thrust", "maximum_thrust",
                                                                "limit"]
    assert_same_lines(lines_by_name(result), reference_bounds(*case))


@pytest.mark.parametrize("case", CASES)
def test_effective_thrust_of_a_standing_arch_lies_between_the_minimum_and_the_maximum(case):
    result = static_result(*case)
    assert result["stable"]
    lines = lines_by_name(result)
    thrust = np.linalg.norm(np.array(lines["effective"]["forces"])[:, :2], axis=1).mean()
    assert lines["minimum_thrust"]["thrust"] < thrust < lines["maximum_thrust"]["thrust"]
    assert lines["limit"]["geometric_safety_factor"] > 1.0


def rotated_about_z(doc, angle_deg):
    """The model document with every vertex and load point turned about the vertical axis."""
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    rotation = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    doc = dict(doc, blocks=[dict(block, vertices=(np.array(block["vertices"]) @ rotation.T).tolist())
                            for block in doc["blocks"]])
    doc["loads"] = [dict(load, point=(rotation @ load["point"]).tolist(), force=(rotation @ load["force"]).tolist())
                    for load in doc.get("loads", [])]
    return doc, rotation


@pytest.mark.parametrize("case", [CASES[0], CASES[2]])
def test_an_arch_turned_about_the_vertical_has_the_same_lines(case):
    doc, rotation = rotated_about_z(arch_document(*case), 30.0)
    turned = lines_by_name(analyze(doc, CONVENTIONAL).to_dict())
    upright = lines_by_name(static_result(*case))
    for name in ("minimum_thrust", "maximum_thrust", "limit"):
        assert turned[name]["thrust"] == pytest.approx(upright[name]["thrust"], rel=SAME_RELATIVE)
        np.testing.assert_allclose(turned[name]["points"], np.array(upright[name]["points"]) @ rotation.T,
                                   rtol=0.0, atol=SAME_POINT)
    assert turned["limit"]["geometric_safety_factor"] == pytest.approx(upright["limit"]["geometric_safety_factor"],
                                                                       rel=SAME_RELATIVE)


def test_a_named_ring_gives_the_lines_of_the_automatic_chain():
    named = analyze(arch_document(*CASES[0]), {"type": "static", "thrust_line": {
        "chain": [f"v{k}" for k in range(VOUSSOIRS)], "conventional": True}}).to_dict()
    assert named["thrust_lines"] == static_result(*CASES[0])["thrust_lines"]


def test_load_factor_lines_carry_the_live_load_at_the_found_factor():
    case = CASES[2]
    result = analyze(arch_document(*case), {"type": "load_factor", "thrust_line": {"conventional": True}}).to_dict()
    factor = result["load_factor"]
    assert factor > 1.0
    lines = lines_by_name(result)
    assert_same_lines(lines, reference_bounds(*case, live_factor=factor))
    assert 1.0 - SAFE_THEOREM_SLACK <= lines["limit"]["geometric_safety_factor"] <= 1.0 + NEAR_COLLAPSE


def test_an_arch_too_thin_for_its_load_reports_the_lines_that_do_not_exist():
    result = analyze(arch_document(0.15, 0.3, 30.0), CONVENTIONAL).to_dict()
    lines = lines_by_name(result)
    assert lines["limit"]["geometric_safety_factor"] < 1.0 and len(lines["limit"]["points"]) == VOUSSOIRS + 1
    for name in ("minimum_thrust", "maximum_thrust"):
        assert lines[name]["points"] == [] and "no thrust line fits" in lines[name]["error"]


def test_without_an_automatic_chain_the_analysis_is_kept_and_the_lines_say_why():
    result = analyze(generators.generate("wall"), CONVENTIONAL).to_dict()
    assert [line["name"] for line in result["thrust_lines"]] == ["minimum_thrust", "maximum_thrust", "limit"]
    for line in result["thrust_lines"]:
        assert line["points"] == [] and "analysis.thrust_line" in line["error"] and "name one" in line["error"]
    assert result["interfaces"]


# --- errors -------------------------------------------------------------------------------

def corner_document():
    """Three cubes on the ground turning a corner: a chain whose centres fix no vertical plane."""
    return document([box_block("a", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)), box_block("b", (1.0, 0.0, 0.0), (2.0, 1.0, 1.0)),
                     box_block("c", (1.0, 1.0, 0.0), (2.0, 2.0, 1.0)), ground()])


@pytest.mark.parametrize("doc, chain, path, words", [
    (corner_document(), ["a", "b", "c"], "analysis.thrust_line.chain", "not an arch in a vertical plane"),
    (generators.generate("column"), ["b0", "b1", "b2", "b3", "b4"], "analysis.thrust_line.chain",
     "one vertical line"),
    (arch_document(0.15, 0.0, 0.0), ["v0", "nope"], "analysis.thrust_line.chain[1]", "unknown block id"),
    (dict(corner_document(), gravity=[1.0, 0.0, -9.81]), ["a", "b"], "gravity", "gravity along -z"),
])
def test_a_chain_off_a_vertical_plane_an_unknown_id_or_tilted_gravity_is_refused_early(doc, chain, path, words):
    with pytest.raises(ModelError) as error:
        analyze(doc, {"type": "static", "thrust_line": {"chain": chain, "conventional": True}})
    assert error.value.path == path and words in error.value.message


@pytest.mark.parametrize("field, path", [
    ({"conventional": "yes"}, "analysis.thrust_line.conventional"),
    ({"conventional": 1}, "analysis.thrust_line.conventional"),
    ({}, "analysis.thrust_line"),
    ({"conventional": True, "lines": 3}, "analysis.thrust_line.lines"),
    ({"chain": "v0", "conventional": True}, "analysis.thrust_line.chain"),
])
def test_the_schema_refuses_a_bad_thrust_line_field_at_its_path_for_every_door(field, path):
    """The request schema alone checks the field's form; the published schema and analyze agree."""
    request = {"type": "static", "thrust_line": field}
    with pytest.raises(ModelError) as by_schema:
        request_fields(request, "static")
    with pytest.raises(ModelError) as by_analysis:
        analyze(arch_document(0.15, 0.0, 0.0), request)
    assert by_schema.value.path == by_analysis.value.path == path
    assert list(jsonschema.Draft202012Validator(analysis_schema()).iter_errors(request))


def test_conventional_lines_of_a_dynamic_analysis_are_refused():
    with pytest.raises(ModelError) as error:
        analyze(arch_document(0.15, 0.0, 0.0), {"type": "dynamic", "duration": 1.0,
                                                "thrust_line": {"conventional": True}})
    assert error.value.path == "analysis.thrust_line.conventional"
