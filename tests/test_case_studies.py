"""Seed 000 case studies (sec. 3, figs. 6-10): their generators and the physics they show, small and fast.

The full-size runs, with figures, are examples/seed000_*.py; here each case is cut to what
a test can check in seconds:

- the `cylinder` generator tiles a (solid or hollow) cylinder with closed convex outward
  blocks whose volumes add up to the closed form, and the `wall_over_gap` generator tiles a
  running-bond wall on two slabs;
- the wall over a gap drops exactly the blocks of the corbelling triangle (fig. 9) and the
  rest stands;
- the stand-alone arch under a crown load slides at its springings at mu = 0.4 and not at
  mu = 0.8, at a lower load (figs. 6-7);
- the spandrel wall carries the load that fails its ring alone under the spandrels' weight
  (fig. 8).
"""
import math

import numpy as np
import pytest
import trimesh

from extrados import Model, analyze, generators
from extrados.engine.generators.arch import arch_point_load, arch_weight, voussoir_section
from extrados.engine.generators.cylinder import (
    boundary_radii, boundary_sides, cylinder, cylinder_volume, regular_polygon_area,
)
from extrados.engine.generators.wall_gap import wall_over_gap
from extrados.engine.post.funicular import combined, limit_live_factor, self_weight, semicircular_section, vertical_loads

#: Volumes in closed form against trimesh's sums: round-off of a few hundred blocks (relative).
VOLUME_RELATIVE = 1e-9
#: Round-off on metre-sized coordinates (m).
ROUNDOFF = 1e-12
G = 9.81


def as_mesh(block):
    """trimesh of a block, each polygon face fanned into triangles, nothing merged or fixed."""
    triangles = [[face[0], face[i], face[i + 1]] for face in block["faces"] for i in range(1, len(face) - 1)]
    return trimesh.Trimesh(vertices=np.asarray(block["vertices"], float), faces=triangles, process=False)


def movable_blocks(document):
    return [block for block in document["blocks"] if not block["support"]]


def check_closed_convex_outward(block):
    """The block is watertight, faces outward, equals its convex hull and has planar faces."""
    mesh = as_mesh(block)
    assert mesh.is_watertight and mesh.is_winding_consistent, block["id"]
    assert mesh.volume > 0.0, f"{block['id']}: faces point inward"
    assert mesh.volume == pytest.approx(mesh.convex_hull.volume, rel=1e-10), f"{block['id']} is not convex"
    vertices = np.asarray(block["vertices"], float)
    for face in block["faces"]:
        polygon = vertices[face]
        normal = np.cross(polygon, np.roll(polygon, -1, axis=0)).sum(axis=0)
        normal /= np.linalg.norm(normal)
        # every vertex on or behind the face's plane, the face's own vertices on it
        signed = (vertices - polygon.mean(axis=0)) @ normal
        assert signed.max() <= 10 * ROUNDOFF and np.abs(signed[face]).max() <= 10 * ROUNDOFF, block["id"]


# --- cylinder generator -----------------------------------------------------------------------

CYLINDERS = {
    "solid with a gap": {"radius": 3.0, "thickness": 3.0, "height": 1.0, "courses": 2, "gap_radius": 1.5},
    "hollow": {"radius": 3.0, "thickness": 1.0, "height": 1.5, "courses": 3, "gap_radius": 0.0},
    "fine rings": {"radius": 2.5, "thickness": 2.5, "height": 0.6, "courses": 2, "ring_width": 0.5,
                   "blocks_per_ring": 6, "block_length": 0.6, "gap_radius": 1.0, "gap_sides": 6},
}


def cylinder_parameters(case):
    defaults = {p.name: p.default for p in generators.GENERATORS["cylinder"].parameters}
    return {**defaults, **CYLINDERS[case]}


@pytest.mark.parametrize("case", CYLINDERS)
def test_cylinder_blocks_are_closed_convex_and_fill_the_closed_form_volume(case):
    params = cylinder_parameters(case)
    document = cylinder(**params)
    blocks = movable_blocks(document)
    for block in blocks:
        check_closed_convex_outward(block)
    total = sum(as_mesh(block).volume for block in blocks)
    keys = ("radius", "thickness", "height", "courses", "ring_width", "blocks_per_ring", "block_length")
    assert total == pytest.approx(cylinder_volume(**{key: params[key] for key in keys}), rel=VOLUME_RELATIVE)
    # and within the circumscribed cylinder
    vertices = np.concatenate([np.asarray(block["vertices"], float) for block in blocks])
    assert np.hypot(vertices[:, 0], vertices[:, 1]).max() <= params["radius"] * (1 + ROUNDOFF)
    assert vertices[:, 2].min() == 0.0 and vertices[:, 2].max() == pytest.approx(params["height"], abs=ROUNDOFF)


def test_cylinder_volume_closed_form_tends_to_the_circle():
    """Hand check of the closed form: the rings' outer polygon doubles toward the circle, pi R^2 H."""
    radius, height = 8.1, 5.0
    volume = cylinder_volume(radius, radius, height, 10, 0.8, 8, 1.0)
    radii = boundary_radii(radius, radius, 10, odd=False)
    sides = boundary_sides(radii, 8, 1.0)
    assert volume == pytest.approx(height * regular_polygon_area(radius, sides[-1]), rel=1e-12)
    assert volume == pytest.approx(math.pi * radius ** 2 * height, rel=0.01)


def test_cylinder_rings_share_corners_and_odd_courses_are_staggered():
    radii_even = boundary_radii(3.0, 3.0, 3, odd=False)
    radii_odd = boundary_radii(3.0, 3.0, 3, odd=True)
    assert radii_even == pytest.approx([1.0, 2.0, 3.0])
    assert radii_odd == pytest.approx([0.5, 1.5, 2.5, 3.0])
    sides = boundary_sides([1.0, 2.0, 4.0, 8.0], 8, 1.0)
    assert all(outer % inner == 0 for inner, outer in zip(sides, sides[1:]))
    # no radial joint of course 1 lies over one of course 0
    document = cylinder(radius=3.0, thickness=3.0, height=1.0, courses=2, gap_radius=0.0)
    angles = {0: set(), 1: set()}
    for block in movable_blocks(document):
        course = int(block["id"][1:].split("r")[0])
        vertices = np.asarray(block["vertices"], float)
        angles[course] |= {round(math.atan2(y, x), 9) % round(2 * math.pi, 9) for x, y, _ in vertices
                           if math.hypot(x, y) > 1e-9}
    assert not angles[0] & angles[1]


def test_cylinder_supports_leave_the_gap_polygon_open():
    document = cylinder(radius=3.0, thickness=3.0, height=1.0, courses=2, gap_radius=1.5, gap_sides=8)
    supports = [block for block in document["blocks"] if block["support"]]
    assert [block["id"] for block in supports] == [f"ground{s}" for s in range(8)]
    for block in supports:
        check_closed_convex_outward(block)
        top = np.asarray(block["vertices"], float)
        assert top[:, 2].max() == 0.0
        # the inner corners of each slab are corners of the octagon of circumradius 1.5
        assert np.hypot(top[:, 0], top[:, 1]).min() == pytest.approx(1.5, rel=1e-12)
    assert [block["id"] for block in cylinder(radius=3.0, thickness=3.0, gap_radius=0.0, height=1.0, courses=2)
            ["blocks"] if block["support"]] == ["ground"]


@pytest.mark.parametrize("params, culprit", [
    ({"thickness": 9.0}, "thickness"), ({"gap_radius": 8.1}, "gap_radius"), ({"blocks_per_ring": 2}, "blocks_per_ring"),
    ({"courses": 0}, "courses"), ({"ring_width": -1.0}, "ring_width"), ({"gap_sides": 2}, "gap_sides"),
])
def test_cylinder_bad_parameters_name_the_parameter(params, culprit):
    with pytest.raises(ValueError, match=culprit):
        generators.generate("cylinder", **params)


def test_cylinder_is_registered_and_accepted_by_the_model():
    generator = generators.GENERATORS["cylinder"]
    assert [p.name for p in generator.parameters] == [
        "radius", "thickness", "height", "courses", "ring_width", "blocks_per_ring", "block_length", "gap_radius",
        "gap_sides", "density", "friction"]
    model = Model.from_dict(generators.generate("cylinder", **CYLINDERS["solid with a gap"]))
    assert model.mechanics.is_support.sum() == 8


# --- wall over a gap -----------------------------------------------------------------------------

SMALL_WALL = {"length": 9.0, "height": 2.5, "gap": 5.0}


def test_wall_over_gap_tiles_the_wall_on_two_slabs():
    document = wall_over_gap(**SMALL_WALL)
    blocks = movable_blocks(document)
    for block in blocks:
        check_closed_convex_outward(block)
    total = sum(as_mesh(block).volume for block in blocks)
    assert total == pytest.approx(9.0 * 2.5 * 0.8, rel=VOLUME_RELATIVE)
    supports = {block["id"]: np.asarray(block["vertices"], float) for block in document["blocks"] if block["support"]}
    assert set(supports) == {"ground_left", "ground_right"}
    assert supports["ground_left"][:, 0].max() == -2.5 and supports["ground_right"][:, 0].min() == 2.5
    assert all(vertices[:, 2].max() == 0.0 for vertices in supports.values())


def test_wall_over_gap_refuses_a_gap_as_long_as_the_wall():
    with pytest.raises(ValueError, match="gap"):
        generators.generate("wall_over_gap", length=4.0, gap=4.0)


def corbel_triangle(document, gap, course_height, block_length):
    """Ids of the blocks wholly within |x| <= gap/2 - z_bottom (block_length / 2) / course_height."""
    inside = set()
    for block in movable_blocks(document):
        vertices = np.asarray(block["vertices"], float)
        reach = gap / 2.0 - vertices[:, 2].min() * (block_length / 2.0) / course_height
        if -reach <= vertices[:, 0].min() and vertices[:, 0].max() <= reach:
            inside.add(block["id"])
    return inside


def test_wall_over_gap_drops_the_corbelling_triangle_and_the_rest_stands():
    """Seed 000 fig. 9 at small size: 1 s of dynamics under self-weight.

    Criterion: a block has fallen when its centre dropped by more than a course height;
    the fallen blocks are exactly those wholly inside the corbelling triangle, and every
    other block moved less than a fifth of a course height (the blocks round the opening
    settle by up to 4 cm as the arch takes up its thrust); the remaining blocks, in their original places,
    stand statically and bear on the slabs through inclined resultants (a natural arch).
    """
    document = wall_over_gap(**SMALL_WALL)
    model = Model.from_dict(document)
    result = analyze(model, {"type": "dynamic", "duration": 1.0, "time_step": 0.002, "output_interval": 0.1})
    frames = result.to_dict()["frames"]
    drop = np.asarray(frames[0]["positions"])[:, 2] - np.asarray(frames[-1]["positions"])[:, 2]
    movable = ~model.mechanics.is_support
    fallen = {model.block_ids[i] for i in np.flatnonzero(movable & (drop > 0.5))}
    assert fallen == corbel_triangle(document, 5.0, 0.5, 1.0)
    assert len(fallen) == 10
    still = movable & (drop <= 0.5)
    moved = np.linalg.norm(np.asarray(frames[-1]["positions"]) - np.asarray(frames[0]["positions"]), axis=1)
    assert moved[still].max() < 0.1
    remaining = dict(document, blocks=[b for b in document["blocks"] if b["id"] not in fallen])
    static = analyze(remaining, {"type": "static"}).to_dict()
    assert static["stable"]
    springings = [joint for joint in static["interfaces"] if joint["normal_force"] > 0.0
                  and any(b.startswith("ground") for b in joint["blocks"])
                  and abs(joint["centre"][0]) == pytest.approx(2.5, abs=0.51)]
    assert springings and all(abs(joint["force"][0]) > 0.1 * abs(joint["force"][2]) for joint in springings)


# --- arches (figs. 6-8) ------------------------------------------------------------------------------

SPANDREL = {p.name: p.default for p in generators.GENERATORS["spandrel_wall"].parameters}
RADIUS = SPANDREL["opening_radius"] + SPANDREL["ring_thickness"] / 2.0
RING = {"radius": RADIUS, "thickness": SPANDREL["ring_thickness"], "depth": SPANDREL["thickness"],
        "voussoirs": SPANDREL["voussoirs"], "density": SPANDREL["density"]}


def ring_weight():
    return arch_weight(RING["radius"], RING["thickness"], RING["depth"], RING["voussoirs"], RING["density"])


def crown_load(total):
    return arch_point_load(RING["radius"], RING["thickness"], RING["voussoirs"], 0.0, total)


def load_factor_report(document):
    result = analyze(document, {"type": "load_factor", "tolerance": 0.01})
    return result.to_dict()["load_factor_report"]


@pytest.fixture(scope="module")
def arch_reports():
    reports = {}
    for friction in (0.8, 0.4):
        document = generators.generate("arch", **RING, friction=friction)
        document["loads"] = [crown_load(ring_weight())]
        reports[friction] = load_factor_report(document)
    return reports


def support_pairs(pairs):
    return [pair for pair in pairs if "ground" in pair]


def test_arch_slides_at_the_springings_only_at_low_friction(arch_reports):
    """Seed 000 sec. 3.1: at mu = 0.8 a pure hinge mechanism; at mu = 0.4 the springers slide on the imposts."""
    high, low = arch_reports[0.8], arch_reports[0.4]
    assert support_pairs(high["mechanism"]["sliding"]) == []
    assert sorted(map(tuple, support_pairs(low["mechanism"]["sliding"]))) == [("v0", "ground"), ("v14", "ground")]
    # both mechanisms hinge at the haunches and at the crown
    for report in (high, low):
        hinged = {tuple(hinge["blocks"]) for hinge in report["mechanism"]["hinges"]}
        assert {("v2", "v3"), ("v11", "v12"), ("v6", "v7"), ("v7", "v8")} <= hinged


def test_arch_collapse_loads_are_a_few_percent_of_its_weight_and_lower_at_low_friction(arch_reports):
    """Crown load: 17.0 % at mu = 0.8, 5.8 % at mu = 0.4 (examples/seed000_arch_point_loads.py, LP within 2 %)."""
    high, low = arch_reports[0.8], arch_reports[0.4]
    assert high["nscd"] == pytest.approx(0.170, rel=0.02)
    assert low["nscd"] == pytest.approx(0.058, rel=0.02)
    for report in (high, low):
        assert report["nscd"] == pytest.approx(report["limit_analysis"], rel=0.02)


def test_the_conventional_line_checked_for_sliding_gives_the_limit_analysis_factor(arch_reports):
    """Seed 000 figs. 6-7: the conventional construction with sec. 3.1's sliding check on every admissible
    line (funicular eq. 5') stands up to the LP's factor, within the bisections' widths; at mu = 0.4 it is
    a third of the no-sliding factor (the springers slide), at mu = 0.8 the same (pure hinging)."""
    section = semicircular_section(RING["radius"], RING["thickness"], RING["voussoirs"])
    dead = self_weight(section, RING["density"], RING["depth"])
    live = as_vertical_loads(section, [crown_load(ring_weight())])
    hinging = limit_live_factor(section, dead, live)
    for friction, report in arch_reports.items():
        assert limit_live_factor(section, dead, live, friction) == pytest.approx(report["limit_analysis"], rel=0.002)
    assert limit_live_factor(section, dead, live, 0.8) == pytest.approx(hinging, rel=1e-3)
    assert limit_live_factor(section, dead, live, 0.4) < 0.4 * hinging


def spandrel_dead_loads():
    """The fill between each voussoir's extrados chord and the wall top, as a dead load on that voussoir."""
    loads = []
    for k in range(RING["voussoirs"]):
        (x1, z1), (x2, z2) = (voussoir_section(RING["radius"], RING["thickness"], RING["voussoirs"], k)[i]
                              for i in (0, 3))
        h1, h2 = SPANDREL["height"] - z1, SPANDREL["height"] - z2
        x = x1 + (x2 - x1) * (h1 + 2.0 * h2) / (3.0 * (h1 + h2))
        weight = RING["density"] * G * RING["depth"] * 0.5 * (x2 - x1) * (h1 + h2)
        loads.append({"kind": "point", "block": f"v{k}", "point": [x, 0.0, z1 + (z2 - z1) * (x - x1) / (x2 - x1)],
                      "force": [0.0, 0.0, -weight], "live": False})
    return loads


def as_vertical_loads(section, loads):
    """funicular VerticalLoads of point loads on the ring's voussoirs ("v<k>")."""
    return vertical_loads(section, [int(load["block"][1:]) for load in loads], [load["point"][0] for load in loads],
                          [-load["force"][2] for load in loads])


def test_spandrel_wall_carries_the_load_that_fails_its_ring_alone():
    """Seed 000 fig. 8: the ring alone under the spandrels' weight fails at about 40 % of its weight
    (42 % here); the whole wall under that load stands. The conventional thrust line gives the same
    factor once seed 000 sec. 3.1's sliding check is applied to every admissible line (funicular eq. 5'),
    as the static theorem with friction says it must (the LP's factor, within the bisections' widths);
    without the check (Heyman's no-sliding hypothesis) a line fits up to 69 %: the ring's springings
    slide on their imposts first."""
    document = generators.generate("arch", **RING, friction=SPANDREL["friction"])
    live_loads, dead_loads = [crown_load(ring_weight())], spandrel_dead_loads()
    document["loads"] = live_loads + dead_loads
    report = load_factor_report(document)
    assert 0.3 < report["nscd"] < 0.5
    section = semicircular_section(RING["radius"], RING["thickness"], RING["voussoirs"])
    dead = combined(self_weight(section, RING["density"], RING["depth"]), as_vertical_loads(section, dead_loads))
    live = as_vertical_loads(section, live_loads)
    assert limit_live_factor(section, dead, live, SPANDREL["friction"]) == pytest.approx(report["limit_analysis"],
                                                                                       rel=0.002)
    assert limit_live_factor(section, dead, live) > 1.6 * report["limit_analysis"]
    failing = report["bracket"][1]
    wall = generators.generate("spandrel_wall")
    wall["loads"] = [crown_load(failing * ring_weight())]
    result = analyze(wall, {"type": "static"}).to_dict()
    assert result["stable"]
