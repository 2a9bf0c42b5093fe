"""Thrust lines: the conventional (graphical statics) and the effective (NSCD joint resultants) one.

Conventional lines are checked against the parabola of equal loads and the minimum
thickness of the semicircular arch (DESIGN sec. 7: t/R = 0.1075, H/V = 0.395, hinges
at the crown and springing extrados and about 54.5 deg from the crown at the intrados).
The effective line is checked on a static NSCD analysis of the generated arch against
equilibrium (constant horizontal thrust under vertical loads) and against the
conventional bounds, as seed 000 (sec. 3.1) compares them.
"""
import math

import numpy as np
import pytest

from extrados import Model, ModelError, analyze, generators
from extrados.engine.generators.arch import arch_weight
from extrados.engine.post.funicular import (
    arch_section, line_through, line_with_thrust, self_weight, semicircular_section, thrust_bounds, vertical_loads,
)
from extrados.engine.post.interfaces import Interfaces
from extrados.engine.post.thrust import (
    effective_thrust_line, effective_thrust_line_of_result, find_chain, result_interfaces, thrust_line_documents,
)
from extrados.engine.tolerance import TOL

T_MIN = 0.1075            # t/R, Milankovitch; Cocchetti & Rizzi 2020 (0.10746)
THRUST_RATIO = 0.395      # H / V at t_min, V the weight of half the arch
INTRADOS_HINGE_DEG = 54.5  # from the crown
RADIUS, DEPTH, DENSITY, VOUSSOIRS = 1.0, 0.5, 2000.0, 20
#: The published values are for the continuous circular arch; our voussoirs have straight
#: intrados and extrados chords (n = 20), which moves t_min by 0.1 % and H/V by 0.4 %.
PUBLISHED_RELATIVE = 0.01
#: Round-off on the funicular polygon's vertices, relative to its rise.
ROUNDOFF_RELATIVE = 1e-9
#: The linear programs stop at HiGHS's feasibility tolerance (1e-7 of the arch's size) and the
#: bisection on the thickness at 1e-6: a hinge touches the scaled section to well within this.
HINGE_RELATIVE = 1e-3
#: The static solve stops at a relative residual of 1e-7 (engine.analysis.static), which leaves
#: each block out of balance by about that fraction of the joint forces.
EQUILIBRIUM_RELATIVE = 1e-6


# --- conventional thrust line: closed forms -----------------------------------------------

def beam_section(loads_count, spacing, half_height):
    """Vertical joints: springings at x = 0 and x = (n + 1) s, the others midway between the loads at i s."""
    span = (loads_count + 1) * spacing
    x = np.concatenate([[0.0], (np.arange(1, loads_count) + 0.5) * spacing, [span]])
    return arch_section(np.column_stack([x, np.full_like(x, -half_height)]),
                        np.column_stack([x, np.full_like(x, half_height)]))


def test_funicular_polygon_of_equal_loads_lies_on_the_parabola():
    n, spacing, load, thrust = 9, 0.5, 1000.0, 2000.0
    section = beam_section(n, spacing, 5.0)
    loads = vertical_loads(section, np.arange(n), spacing * np.arange(1, n + 1), np.full(n, load))
    line = line_with_thrust(section, loads, thrust, [(0, 0.5), (n, 0.5)])
    # z_k = M(x_k) / H, the moment of a simply supported beam under the n loads: P s k (n + 1 - k) / 2
    k = np.arange(1, n + 1)
    rise = load * spacing * k * (n + 1 - k) / (2.0 * thrust)
    expected = np.column_stack([np.concatenate([[0.0], spacing * k, [(n + 1) * spacing]]),
                                np.concatenate([[0.0], rise, [0.0]])])
    np.testing.assert_allclose(line.polygon, expected, rtol=0.0, atol=ROUNDOFF_RELATIVE * rise.max())
    assert line.thrust == pytest.approx(thrust, rel=ROUNDOFF_RELATIVE)
    assert line.left_reaction == pytest.approx(n * load / 2.0, rel=ROUNDOFF_RELATIVE)


def test_three_point_choice_recovers_the_line():
    n = 9
    section = beam_section(n, 0.5, 5.0)
    loads = vertical_loads(section, np.arange(n), 0.5 * np.arange(1, n + 1), np.linspace(500.0, 1500.0, n))
    line = line_with_thrust(section, loads, 1800.0, [(0, 0.3), (n, 0.6)])
    again = line_through(section, loads, [(0, line.fraction[0]), (4, line.fraction[4]), (n, line.fraction[n])])
    assert again.thrust == pytest.approx(1800.0, rel=ROUNDOFF_RELATIVE)
    np.testing.assert_allclose(again.crossing, line.crossing, atol=ROUNDOFF_RELATIVE)


# --- conventional thrust line: minimum thickness of the semicircular arch ---------------------

def arch_bounds(thickness):
    section = semicircular_section(RADIUS, thickness, VOUSSOIRS)
    loads = self_weight(section, DENSITY, DEPTH)
    return loads, thrust_bounds(section, loads)


def test_self_weight_matches_the_generator():
    loads, _ = arch_bounds(0.15)
    assert loads.force.sum() == pytest.approx(arch_weight(RADIUS, 0.15, DEPTH, VOUSSOIRS, DENSITY), rel=1e-12)


def test_at_minimum_thickness_one_line_fits_with_five_hinges():
    loads, bounds = arch_bounds(T_MIN)
    half_weight = loads.force.sum() / 2.0
    # one line fits: the admissible thrusts shrink to a point
    assert bounds.minimum is not None and bounds.maximum is not None
    assert bounds.maximum.thrust == pytest.approx(bounds.minimum.thrust, rel=PUBLISHED_RELATIVE)
    assert bounds.geometric_safety_factor == pytest.approx(1.0, rel=PUBLISHED_RELATIVE)
    assert bounds.limit.thrust / half_weight == pytest.approx(THRUST_RATIO, rel=PUBLISHED_RELATIVE)
    # hinges: where the limit line touches the scaled section, +1 extrados, -1 intrados
    eccentricity = (2.0 * bounds.limit.fraction - 1.0) * bounds.geometric_safety_factor
    extrados = np.flatnonzero(eccentricity > 1.0 - HINGE_RELATIVE)
    intrados = np.flatnonzero(eccentricity < -1.0 + HINGE_RELATIVE)
    assert extrados.tolist() == [0, VOUSSOIRS // 2, VOUSSOIRS]
    assert len(intrados) == 2 and intrados[0] + intrados[1] == VOUSSOIRS
    angle_from_crown = 90.0 - 180.0 * intrados[0] / VOUSSOIRS
    assert abs(angle_from_crown - INTRADOS_HINGE_DEG) <= 0.5 * 180.0 / VOUSSOIRS  # the nearest joint


def test_thicker_arch_admits_a_range_of_thrusts():
    thickness = 0.15
    loads, bounds = arch_bounds(thickness)
    assert bounds.minimum.thrust < 0.9 * bounds.maximum.thrust
    # the weights grow almost in proportion to t, so the least thickness is again about t_min
    assert bounds.geometric_safety_factor == pytest.approx(thickness / T_MIN, rel=PUBLISHED_RELATIVE)
    for line in (bounds.minimum, bounds.maximum):
        assert line.fraction.min() >= -HINGE_RELATIVE and line.fraction.max() <= 1.0 + HINGE_RELATIVE


def test_thinner_arch_admits_no_line():
    thickness = 0.10
    _, bounds = arch_bounds(thickness)
    assert bounds.minimum is None and bounds.maximum is None
    assert bounds.geometric_safety_factor == pytest.approx(thickness / T_MIN, rel=PUBLISHED_RELATIVE)


def test_load_on_an_unknown_voussoir_is_refused():
    section = semicircular_section(RADIUS, 0.15, VOUSSOIRS)
    with pytest.raises(ModelError) as info:
        vertical_loads(section, [3, VOUSSOIRS], [0.0, 0.1], [1.0, 1.0])
    assert info.value.path == "loads.voussoir[1]"


# --- effective thrust line: the joint graph -------------------------------------------------

def graph_interfaces(pairs, normal_force):
    """Interfaces with only the fields the chain search reads: blocks and normal forces."""
    n = len(pairs)
    pairs = np.asarray(pairs, np.int64).reshape(-1, 2)
    zeros = np.zeros((n, 3))
    return Interfaces(pairs[:, 0], pairs[:, 1], zeros, zeros, zeros, zeros, np.asarray(normal_force, float),
                      np.zeros(n), np.zeros(n + 1, np.int64))


def test_a_column_has_no_chain():
    is_support = np.array([True, False, False, False])
    assert find_chain(is_support, graph_interfaces([(1, 0), (2, 1), (3, 2)], [3.0, 2.0, 1.0])) is None


def test_a_lintel_is_a_chain_of_one_block():
    is_support = np.array([True, False, True])
    assert find_chain(is_support, graph_interfaces([(1, 0), (1, 2)], [1.0, 1.0])) == [0, 1, 2]


def test_a_wall_on_the_ground_has_no_automatic_chain():
    """Three blocks on the ground under a lintel: three springers, no chain is "the" thrust line."""
    is_support = np.array([True, False, False, False, False])
    pairs = [(1, 0), (2, 0), (3, 0), (4, 1), (4, 2), (4, 3)]
    assert find_chain(is_support, graph_interfaces(pairs, [1.0] * 6)) is None
    assert find_chain(is_support, graph_interfaces(pairs[:1] + pairs[2:], [1.0] * 5)) == [0, 1, 4, 3, 0]


def test_an_open_joint_breaks_the_chain():
    is_support = np.array([True, False, False, False])
    pairs = [(1, 0), (2, 1), (3, 2), (3, 0)]
    assert find_chain(is_support, graph_interfaces(pairs, [1.0, 1.0, 1.0, 1.0])) == [0, 1, 2, 3, 0]
    assert find_chain(is_support, graph_interfaces(pairs, [1.0, 0.0, 1.0, 1.0])) is None


# --- effective thrust line of an NSCD analysis ------------------------------------------------

@pytest.fixture(scope="module")
def arch_result():
    """A static analysis of the arch at t/R = 0.15, mu = 0.8: its model and result document."""
    model = Model.from_dict(generators.generate("arch", radius=RADIUS, thickness=0.15, depth=DEPTH,
                                                voussoirs=VOUSSOIRS, friction=0.8, density=DENSITY))
    result = analyze(model, {"type": "static"}).to_dict()
    assert result["stable"]
    return model, result


def joint_angle(j):
    """Polar angle (rad) of radial joint j of the generated arch, 0 at the left springing (pointing -x)."""
    return math.pi * j / VOUSSOIRS


def test_effective_line_runs_springing_to_springing_inside_the_joints(arch_result):
    _, result = arch_result
    line = effective_thrust_line_of_result(result)
    assert line.blocks == ("ground", *(f"v{k}" for k in range(VOUSSOIRS)), "ground")
    centre = line.centre
    assert np.all(np.diff(centre[:, 0]) > 0.0)            # ordered from the left springing to the right
    np.testing.assert_allclose(centre[[0, -1], 2], 0.0, atol=TOL.length)  # on the abutments' top face
    radius = np.hypot(centre[:, 0], centre[:, 2])
    thickness = 0.15
    assert np.all(radius >= RADIUS - thickness / 2.0 - TOL.length)
    assert np.all(radius <= RADIUS + thickness / 2.0 + TOL.length)
    # each centre on its own joint plane
    angle = np.arctan2(centre[:, 2], -centre[:, 0])
    expected = np.array([joint_angle(j) for j in range(VOUSSOIRS + 1)])
    np.testing.assert_allclose(radius * np.sin(angle - expected), 0.0, atol=TOL.length)
    assert np.all(np.abs(centre[:, 1]) <= DEPTH / 2.0)


def test_effective_line_carries_a_constant_thrust(arch_result):
    _, result = arch_result
    line = effective_thrust_line_of_result(result)
    thrust = line.force[:, 0]
    assert np.all(thrust > 0.0)
    assert np.abs(thrust - thrust.mean()).max() <= EQUILIBRIUM_RELATIVE * thrust.mean()
    # the two springings carry the weight: V_A up on v0, V_B down on the ground from v19
    weight = arch_weight(RADIUS, 0.15, DEPTH, VOUSSOIRS, DENSITY)
    assert line.force[0, 2] - line.force[-1, 2] == pytest.approx(weight, rel=EQUILIBRIUM_RELATIVE)
    np.testing.assert_allclose(np.linalg.norm(line.direction, axis=1), 1.0, rtol=ROUNDOFF_RELATIVE)


def test_effective_thrust_lies_between_the_conventional_bounds(arch_result):
    _, result = arch_result
    thrust = effective_thrust_line_of_result(result).force[:, 0].mean()
    _, bounds = arch_bounds(0.15)
    assert bounds.minimum.thrust < thrust < bounds.maximum.thrust


def test_named_chain_and_result_document_entry(arch_result):
    model, result = arch_result
    ring = [f"v{k}" for k in range(VOUSSOIRS)]
    block_ids, is_support, interfaces = result_interfaces(result)
    automatic = effective_thrust_line(block_ids, is_support, interfaces)
    named = effective_thrust_line(block_ids, is_support, interfaces, chain=ring)
    assert named.blocks == automatic.blocks
    np.testing.assert_array_equal(named.centre, automatic.centre)
    [entry] = thrust_line_documents(model.mechanics, interfaces)
    assert entry["name"] == "effective" and entry["points"] == automatic.centre.tolist()


def test_named_chain_errors_name_the_entry(arch_result):
    _, result = arch_result
    with pytest.raises(ModelError) as info:
        effective_thrust_line_of_result(result, chain=["v0", "v1", "v2", "v99"])
    assert info.value.path == "thrust_line.chain[3]" and "v99" in info.value.message
    with pytest.raises(ModelError) as info:
        effective_thrust_line_of_result(result, chain=["v0", "v2"], path="analysis.chain")
    assert info.value.path == "analysis.chain[1]" and "broken" in info.value.message



# --- a chain named in the analysis request ------------------------------------------------------

@pytest.fixture(scope="module")
def spandrel_model():
    return Model.from_dict(generators.generate("spandrel_wall"))


def test_a_ring_named_in_the_request_gives_the_thrust_line_of_an_arch_inside_a_wall(spandrel_model):
    """The spandrel wall stands on the ground with many springers: no automatic chain. Naming its ring
    gives the line through the 16 joints from springing to springing, each centre inside its joint
    polygon (the result's in_polygon flag of the same joint)."""
    ring = [f"v{k}" for k in range(15)]
    assert analyze(spandrel_model, {"type": "static"}).to_dict()["thrust_lines"] == []
    result = analyze(spandrel_model, {"type": "static", "thrust_line": {"chain": ring}}).to_dict()
    (line,) = result["thrust_lines"]
    assert line["blocks"][1:-1] == ring and len(line["points"]) == 16
    inside = {tuple(sorted(j["blocks"])): j["in_polygon"] for j in result["interfaces"]}
    chain = line["blocks"]
    assert all(inside[tuple(sorted(pair))] for pair in zip(chain[:-1], chain[1:]))


@pytest.mark.parametrize("field, path", [
    ({"chain": ["v0", "nope"]}, "analysis.thrust_line.chain[1]"),
    ({"chain": []}, "analysis.thrust_line.chain"),
    ({"blocks": ["v0"]}, "analysis.thrust_line.blocks"),
])
def test_a_bad_named_chain_is_refused_before_the_analysis_runs(spandrel_model, field, path):
    with pytest.raises(ModelError) as error:
        analyze(spandrel_model, {"type": "dynamic", "duration": 100.0, "thrust_line": field})
    assert error.value.path == path


def test_a_named_chain_broken_by_an_open_joint_is_reported_in_the_result(spandrel_model):
    """v0 and v5 share no joint: the analysis is kept, its thrust line says where the chain breaks."""
    result = analyze(spandrel_model, {"type": "static", "thrust_line": {"chain": ["v0", "v5"]}}).to_dict()
    (line,) = result["thrust_lines"]
    assert line["points"] == [] and "analysis.thrust_line.chain" in line["error"]
    assert result["stable"] and result["interfaces"]
