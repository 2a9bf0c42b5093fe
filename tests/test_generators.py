"""Parametric model generators: geometry of every block, layout of each model, registry and errors.

Geometry is checked independently of the engine, with trimesh and a separating-axis
test on the convex blocks; expected values come from the closed forms of DESIGN sec. 7.
"""
import inspect
import itertools
import json
import math

import numpy as np
import pytest
import trimesh

from extrados.engine.generators import GENERATORS, generate
from extrados.engine.generators.arch import arch_point_load, semicircular_arch
from extrados.engine.generators.column import column
from extrados.engine.generators.block import rocking_block
from extrados.engine.generators.incline import block_on_incline
from extrados.engine.generators.stack import harmonic_stack
from extrados.engine.generators.wall import running_bond_wall

#: Round-off on metre-sized coordinates built from a few float operations.
ROUNDOFF = 1e-12
#: Cross products of edge directions shorter than this are parallel edges: no new axis.
PARALLEL_EDGES = 1e-9
G = 9.81

REQUIRED_KEYS = {"format", "units", "gravity", "materials", "joints", "default_joint", "blocks"}
OPTIONAL_KEYS = {"joint_assignments", "loads", "support_motion", "settings"}
BLOCK_KEYS = {"id", "vertices", "faces", "material", "support"}


# --- geometry helpers ---------------------------------------------------------

def as_mesh(block):
    """trimesh of a block, each polygon face fanned into triangles, nothing merged or fixed."""
    triangles = [[face[0], face[i], face[i + 1]] for face in block["faces"] for i in range(1, len(face) - 1)]
    return trimesh.Trimesh(vertices=np.asarray(block["vertices"], float), faces=triangles, process=False)


def face_planes(block):
    """Unit outward normals (Newell) and a point of each face: (n_faces, 3) each."""
    vertices = np.asarray(block["vertices"], float)
    normals, points = [], []
    for face in block["faces"]:
        polygon = vertices[face]
        normal = np.cross(polygon, np.roll(polygon, -1, axis=0)).sum(axis=0)
        normals.append(normal / np.linalg.norm(normal))
        points.append(polygon.mean(axis=0))
    return np.array(normals), np.array(points)


def edges(block):
    """Unit directions of the block's edges, (n_edges, 3)."""
    vertices = np.asarray(block["vertices"], float)
    pairs = {tuple(sorted((face[i], face[(i + 1) % len(face)]))) for face in block["faces"]
             for i in range(len(face))}
    directions = np.array([vertices[b] - vertices[a] for a, b in pairs])
    return directions / np.linalg.norm(directions, axis=1)[:, None]


def penetration(block_a, block_b):
    """How deep two convex blocks overlap (m): negative apart, zero touching.

    Separating-axis theorem: two convex polyhedra are disjoint iff their
    projections are disjoint on some face normal of either or on some cross
    product of an edge of each; the least projection overlap over these axes
    is the penetration depth.
    """
    normals_a, _ = face_planes(block_a)
    normals_b, _ = face_planes(block_b)
    crosses = np.cross(edges(block_a)[:, None, :], edges(block_b)[None, :, :]).reshape(-1, 3)
    lengths = np.linalg.norm(crosses, axis=1)
    crosses = crosses[lengths > PARALLEL_EDGES] / lengths[lengths > PARALLEL_EDGES][:, None]
    axes = np.concatenate([normals_a, normals_b, crosses])
    project_a = np.asarray(block_a["vertices"], float) @ axes.T
    project_b = np.asarray(block_b["vertices"], float) @ axes.T
    overlap = np.minimum(project_a.max(0), project_b.max(0)) - np.maximum(project_a.min(0), project_b.min(0))
    return float(overlap.min())


def size_of(document):
    vertices = np.concatenate([np.asarray(b["vertices"], float) for b in document["blocks"]])
    return float(np.linalg.norm(np.ptp(vertices, axis=0)))


def surface_distance(block, point):
    """Largest signed distance of a point from the block's face planes: <= 0 inside, 0 on the surface."""
    normals, points = face_planes(block)
    return float(np.max(np.einsum("ij,ij->i", normals, np.asarray(point) - points)))


def blocks_by_id(document):
    return {b["id"]: b for b in document["blocks"]}


def extent(block, axis):
    values = np.asarray(block["vertices"], float)[:, axis]
    return values.min(), values.max()


def centre_of_mass(blocks, density):
    meshes = [as_mesh(b) for b in blocks]
    masses = np.array([density * m.volume for m in meshes])
    return (masses[:, None] * np.array([m.center_mass for m in meshes])).sum(0) / masses.sum()


# --- every generator: document and block checks --------------------------------

CASES = {
    "arch": {}, "arch odd": {"voussoirs": 7, "thickness": 0.3},
    "arch loaded": {"voussoirs": 20, "thickness": 0.15, "load_fraction": 1.0, "load_angle_deg": 20.0},
    "wall": {}, "wall toothed": {"half_blocks": False, "courses": 5, "lateral_acceleration": 6.0},
    "column": {},
    "incline": {}, "incline steep": {"angle_deg": 60.0, "height": 1.0}, "incline flat": {"angle_deg": 0.0},
    "stack": {}, "stack falls": {"scale": 1.02, "blocks": 6}, "rocking_block": {},
}


def case_document(case):
    return generate(case.split()[0], **CASES[case])


@pytest.mark.parametrize("case", CASES)
def test_document_shape_and_json_round_trip(case):
    document = case_document(case)
    keys = set(document)
    assert REQUIRED_KEYS <= keys <= REQUIRED_KEYS | OPTIONAL_KEYS
    assert document["format"] == "extrados.model/1" and document["units"] == "SI"
    assert document["gravity"] == [0.0, 0.0, -G]
    assert document["joints"][document["default_joint"]]["law"] == "coulomb"
    assert ("loads" in document) == bool(document.get("loads"))
    ids = [b["id"] for b in document["blocks"]]
    assert len(ids) == len(set(ids))
    for block in document["blocks"]:
        assert set(block) == BLOCK_KEYS
        assert block["material"] in document["materials"]
        assert isinstance(block["support"], bool)
    assert sum(b["support"] for b in document["blocks"]) == 1
    for load in document.get("loads", []):
        assert load["live"] is True
        assert load["kind"] in ("point", "body_acceleration")
        assert load["kind"] != "point" or load["block"] in ids
    assert json.loads(json.dumps(document, allow_nan=False)) == document


@pytest.mark.parametrize("case", CASES)
def test_every_block_is_a_closed_convex_outward_polyhedron(case):
    document = case_document(case)
    for block in document["blocks"]:
        mesh = as_mesh(block)
        label = f"{case}: {block['id']}"
        assert mesh.is_watertight and mesh.is_winding_consistent, label
        assert mesh.volume > 0.0, f"{label}: faces point inward"
        assert mesh.volume == pytest.approx(mesh.convex_hull.volume, rel=ROUNDOFF * 100), label
        # Every vertex lies on or behind every face plane: convex, planar faces, outward normals.
        normals, points = face_planes(block)
        vertices = np.asarray(block["vertices"], float)
        signed = np.einsum("fk,fvk->fv", normals, vertices[None, :, :] - points[:, None, :])
        assert signed.max() <= ROUNDOFF * 10, label
        for face, plane in zip(block["faces"], signed):
            assert np.abs(plane[face]).max() <= ROUNDOFF * 10, f"{label}: face {face} is not planar"
        assert len({tuple(v) for v in block["vertices"]}) == len(block["vertices"])


@pytest.mark.parametrize("case", CASES)
def test_no_two_blocks_overlap(case):
    document = case_document(case)
    tolerance = ROUNDOFF * size_of(document)
    for block_a, block_b in itertools.combinations(document["blocks"], 2):
        depth = penetration(block_a, block_b)
        assert depth <= tolerance, f"{case}: {block_a['id']} and {block_b['id']} overlap by {depth}"


@pytest.mark.parametrize("case", CASES)
def test_every_block_touches_another(case):
    """Zero gaps: each block touches (penetration exactly zero) at least one other."""
    document = case_document(case)
    tolerance = ROUNDOFF * size_of(document)
    for block_a in document["blocks"]:
        nearest = max(penetration(block_a, b) for b in document["blocks"] if b is not block_a)
        assert abs(nearest) <= tolerance, f"{case}: {block_a['id']} is {-nearest} m from every other block"


# --- arch ---------------------------------------------------------------------

def voussoirs_of(document):
    return [b for b in document["blocks"] if not b["support"]]


@pytest.mark.parametrize("n", [2, 3, 10, 20, 40])
def test_arch_voussoir_volumes_are_the_exact_trapezoids(n):
    radius, thickness, depth = 1.5, 0.2, 0.4
    document = semicircular_arch(radius=radius, thickness=thickness, depth=depth, voussoirs=n)
    voussoirs = voussoirs_of(document)
    assert [b["id"] for b in voussoirs] == [f"v{k}" for k in range(n)]
    # Straight chords: a trapezoid of area 1/2 sin(pi/n) ((R + t/2)^2 - (R - t/2)^2) = R t sin(pi/n).
    trapezoid = 0.5 * math.sin(math.pi / n) * ((radius + thickness / 2) ** 2 - (radius - thickness / 2) ** 2)
    for block in voussoirs:
        assert as_mesh(block).volume == pytest.approx(trapezoid * depth, rel=1e-12)
    total = sum(as_mesh(b).volume for b in voussoirs)
    assert total == pytest.approx(n * radius * thickness * math.sin(math.pi / n) * depth, rel=1e-12)
    # ... which falls short of the annulus pi R t depth by the chord factor n sin(pi/n) / pi.
    assert total / (math.pi * radius * thickness * depth) == pytest.approx(n * math.sin(math.pi / n) / math.pi)


def test_arch_with_many_voussoirs_approaches_the_annulus():
    document = semicircular_arch(voussoirs=400)
    total = sum(as_mesh(b).volume for b in voussoirs_of(document))
    assert total == pytest.approx(math.pi * 1.0 * 0.1075 * 0.5, rel=1.1 * math.pi ** 2 / (6 * 400 ** 2))


@pytest.mark.parametrize("n", [7, 20])
def test_arch_joints_are_radial_and_shared(n):
    radius, thickness = 1.0, 0.15
    intrados, extrados = radius - thickness / 2, radius + thickness / 2
    voussoirs = voussoirs_of(semicircular_arch(radius=radius, thickness=thickness, voussoirs=n))
    for k, block in enumerate(voussoirs):
        vertices = np.asarray(block["vertices"], float)
        radii = np.hypot(vertices[:, 0], vertices[:, 2])
        assert np.all(np.isclose(radii, intrados, atol=ROUNDOFF) | np.isclose(radii, extrados, atol=ROUNDOFF))
        # Angle from the left springing: theta = atan2(z, -x), on joints k and k + 1 only.
        theta = np.arctan2(vertices[:, 2], -vertices[:, 0])
        on_joints = np.isclose(theta, math.pi * k / n, atol=ROUNDOFF) | np.isclose(theta, math.pi * (k + 1) / n,
                                                                                    atol=ROUNDOFF)
        assert on_joints.all(), block["id"]
        assert np.ptp(vertices[:, 1]) == pytest.approx(0.5)
    for left, right in zip(voussoirs, voussoirs[1:]):
        shared = {tuple(v) for v in left["vertices"]} & {tuple(v) for v in right["vertices"]}
        assert len(shared) == 4, f"{left['id']} and {right['id']} do not share a joint face exactly"


def test_arch_springings_sit_on_the_ground_and_the_arch_is_symmetric():
    radius, thickness, n = 2.0, 0.3, 9
    document = semicircular_arch(radius=radius, thickness=thickness, voussoirs=n, depth=0.6)
    blocks = blocks_by_id(document)
    intrados, extrados = radius - thickness / 2, radius + thickness / 2
    for block_id, sign in (("v0", -1.0), (f"v{n - 1}", 1.0)):
        base = [v for v in blocks[block_id]["vertices"] if v[2] == 0.0]
        assert sorted({v[0] for v in base}) == sorted([sign * intrados, sign * extrados])
        assert len(base) == 4
    lowest = min(v[2] for b in voussoirs_of(document) for v in b["vertices"])
    assert lowest == 0.0
    ground = blocks["ground"]
    assert ground["support"] and extent(ground, 2)[1] == 0.0
    assert extent(ground, 0)[0] < -extrados and extent(ground, 0)[1] > extrados
    assert extent(ground, 1)[0] < -0.3 and extent(ground, 1)[1] > 0.3
    for k in range(n):
        mirrored = {(-x, y, z) for x, y, z in blocks[f"v{k}"]["vertices"]}
        assert mirrored == {tuple(v) for v in blocks[f"v{n - 1 - k}"]["vertices"]}


def test_arch_without_base_has_no_support():
    document = semicircular_arch(base=False, voussoirs=4)
    assert [b["id"] for b in document["blocks"]] == ["v0", "v1", "v2", "v3"]
    assert not any(b["support"] for b in document["blocks"])


# --- arch point load ------------------------------------------------------------

def test_crown_load_of_an_even_arch_acts_at_the_crown_joint():
    radius, thickness = 1.0, 0.15
    document = semicircular_arch(thickness=thickness, voussoirs=20, load_fraction=1.0, load_angle_deg=0.0)
    (load,) = document["loads"]
    assert load["block"] == "v9"
    assert load["point"] == [0.0, 0.0, radius + thickness / 2]


@pytest.mark.parametrize("angle_deg, fraction", [(20.0, 1.0), (-30.0, 0.5), (30.0, 2.0), (85.0, 0.1)])
def test_point_load_on_the_extrados_of_the_voussoir_containing_the_angle(angle_deg, fraction):
    radius, thickness, depth, n, density = 1.0, 0.15, 0.5, 20, 2000.0
    extrados = radius + thickness / 2
    document = semicircular_arch(radius=radius, thickness=thickness, depth=depth, voussoirs=n, density=density,
                                 load_fraction=fraction, load_angle_deg=angle_deg)
    (load,) = document["loads"]
    # The voussoir spanning the angle theta = 90 + beta degrees from the left springing.
    theta = math.radians(90.0 + angle_deg)
    assert load["block"] == f"v{int(theta // (math.pi / n))}"
    block = blocks_by_id(document)[load["block"]]
    # On the block's surface, on its extrados chord, on the line of action x = (R + t/2) sin(beta).
    assert surface_distance(block, load["point"]) == pytest.approx(0.0, abs=ROUNDOFF)
    x, y, z = load["point"]
    assert x == pytest.approx(extrados * math.sin(math.radians(angle_deg)), abs=ROUNDOFF)
    assert y == 0.0
    extrados_vertices = [v for v in block["vertices"] if math.hypot(v[0], v[2]) > radius]
    (xa, _, za), (xb, _, zb) = sorted(extrados_vertices)[::2]
    assert z == pytest.approx(za + (x - xa) / (xb - xa) * (zb - za), abs=ROUNDOFF)
    # Force: the fraction of the arch's weight, downward, live.
    weight = density * G * sum(as_mesh(b).volume for b in voussoirs_of(document))
    assert load["force"][:2] == [0.0, 0.0]
    assert -load["force"][2] == pytest.approx(fraction * weight, rel=1e-12)
    assert load["live"] is True


@pytest.mark.parametrize("n", [5, 20])
def test_point_load_helper_over_the_whole_extrados(n):
    radius, thickness = 1.0, 0.2
    document = semicircular_arch(radius=radius, thickness=thickness, voussoirs=n)
    blocks = blocks_by_id(document)
    for angle_deg in np.linspace(-90.0, 90.0, 73):
        load = arch_point_load(radius, thickness, n, float(angle_deg), 100.0, live=False)
        assert load["live"] is False and load["force"] == [0.0, 0.0, -100.0]
        assert surface_distance(blocks[load["block"]], load["point"]) == pytest.approx(0.0, abs=ROUNDOFF)
        low, high = extent(blocks[load["block"]], 0)
        assert low - ROUNDOFF <= load["point"][0] <= high + ROUNDOFF


def test_unloaded_arch_has_no_loads_key():
    assert "loads" not in semicircular_arch(load_angle_deg=30.0)


# --- wall -----------------------------------------------------------------------

def courses_of(document):
    courses = {}
    for block in document["blocks"]:
        if not block["support"]:
            course, index = block["id"][1:].split("b")
            courses.setdefault(int(course), []).append((int(index), block))
    return [[b for _, b in sorted(courses[c])] for c in sorted(courses)]


def test_default_wall_is_ferris_tin_loi_wall_1():
    document = running_bond_wall()
    courses = courses_of(document)
    assert len(courses) == 6
    assert [len(c) for c in courses] == [5, 6, 5, 6, 5, 6]
    blocks = [b for c in courses for b in c]
    x = np.concatenate([np.asarray(b["vertices"])[:, 0] for b in blocks])
    z = np.concatenate([np.asarray(b["vertices"])[:, 2] for b in blocks])
    length, height = np.ptp(x), np.ptp(z)
    assert length == pytest.approx(2.0, abs=ROUNDOFF) and height == pytest.approx(1.05, abs=ROUNDOFF)
    assert length / height == pytest.approx(1.905, abs=5e-4)
    assert z.min() == 0.0
    for c, course in enumerate(courses):
        lengths = [np.ptp(extent(b, 0)) for b in course]
        expected = [0.4] * 5 if c % 2 == 0 else [0.2] + [0.4] * 4 + [0.2]
        assert lengths == pytest.approx(expected, abs=ROUNDOFF)
        for block in course:
            assert extent(block, 2) == pytest.approx((c * 0.175, (c + 1) * 0.175), abs=ROUNDOFF)
            assert extent(block, 1) == (-0.1, 0.1)
            assert len({tuple(v) for v in block["vertices"]}) == 8
            assert as_mesh(block).volume == pytest.approx(np.prod([np.ptp(extent(block, a)) for a in range(3)]))
    ground = blocks_by_id(document)["ground"]
    assert extent(ground, 2)[1] == 0.0 and extent(ground, 0)[0] < -1.0 and extent(ground, 0)[1] > 1.0


@pytest.mark.parametrize("half_blocks", [True, False])
def test_wall_courses_are_contiguous_and_in_running_bond(half_blocks):
    n, block_length = 4, 0.3
    document = running_bond_wall(courses=4, blocks_per_course=n, block_length=block_length, half_blocks=half_blocks)
    courses = courses_of(document)
    joints = []
    for course in courses:
        for left, right in zip(course, course[1:]):
            assert extent(left, 0)[1] == extent(right, 0)[0], "a gap or overlap between neighbours"
        joints.append({extent(b, 0)[1] for b in course[:-1]})
    half_length = n * block_length / 2
    for c, course in enumerate(courses):
        ends = (extent(course[0], 0)[0], extent(course[-1], 0)[1])
        if c % 2 == 0 or half_blocks:
            assert ends == pytest.approx((-half_length, half_length), abs=ROUNDOFF)
        else:
            assert len(course) == n - 1
            assert ends == pytest.approx((-half_length + block_length / 2, half_length - block_length / 2))
    # The vertical joints of one course fall on the middles of the whole blocks below it
    # (on all of them but the end ones under a toothed course).
    for c, (lower, upper_joints) in enumerate(zip(courses, joints[1:])):
        middles = np.array([sum(extent(b, 0)) / 2 for b in lower if np.ptp(extent(b, 0)) > block_length * 0.75])
        for joint in upper_joints:
            assert np.abs(middles - joint).min() <= ROUNDOFF
        toothed_above = c % 2 == 0 and not half_blocks
        assert len(upper_joints) == len(middles) - (2 if toothed_above else 0)


def test_wall_lateral_acceleration_is_a_live_body_load_on_all_blocks():
    document = running_bond_wall(lateral_acceleration=0.64 * G)
    assert document["loads"] == [{"kind": "body_acceleration", "blocks": "all",
                                  "acceleration": [0.64 * G, 0.0, 0.0], "live": True}]
    assert "loads" not in running_bond_wall()


# --- column -----------------------------------------------------------------------

def test_column_blocks_are_stacked_on_the_axis():
    document = column(blocks=4, width=0.3, depth=0.2, block_height=0.5, lateral_acceleration=2.0)
    blocks = blocks_by_id(document)
    for k in range(4):
        block = blocks[f"b{k}"]
        assert extent(block, 0) == (-0.15, 0.15) and extent(block, 1) == (-0.1, 0.1)
        assert extent(block, 2) == (k * 0.5, (k + 1) * 0.5)
        assert as_mesh(block).center_mass[:2] == pytest.approx([0.0, 0.0], abs=ROUNDOFF)
    assert extent(blocks["ground"], 2)[1] == 0.0
    assert document["loads"][0]["acceleration"] == [2.0, 0.0, 0.0]


# --- block on an incline ------------------------------------------------------------

@pytest.mark.parametrize("angle_deg", [0.0, 20.0, 45.0, 75.0])
def test_incline_block_sits_flush_on_the_slope(angle_deg):
    width, height, depth = 0.4, 0.7, 0.3
    document = block_on_incline(angle_deg=angle_deg, width=width, height=height, depth=depth)
    blocks = blocks_by_id(document)
    block, slope = blocks["block"], blocks["slope"]
    assert slope["support"] and not block["support"]
    angle = math.radians(angle_deg)
    uphill_normal = np.array([math.sin(angle), 0.0, math.cos(angle)])
    slope_normals, slope_points = face_planes(slope)
    top = [i for i, n in enumerate(slope_normals) if np.allclose(n, uphill_normal, atol=ROUNDOFF)]
    assert len(top) == 1, "the slope has one top face, inclined by angle_deg, descending toward +x"
    block_normals, _ = face_planes(block)
    bottom = [i for i, n in enumerate(block_normals) if np.allclose(n, -uphill_normal, atol=ROUNDOFF)]
    assert len(bottom) == 1
    bottom_vertices = np.asarray(block["vertices"], float)[block["faces"][bottom[0]]]
    # Flush: the bottom face lies in the plane of the slope's top face, within it.
    assert np.abs((bottom_vertices - slope_points[top[0]]) @ uphill_normal).max() <= ROUNDOFF
    along = np.array([math.cos(angle), 0.0, -math.sin(angle)])
    top_vertices = np.asarray(slope["vertices"], float)[slope["faces"][top[0]]]
    assert (top_vertices @ along).min() < (bottom_vertices @ along).min()
    assert (bottom_vertices @ along).max() < (top_vertices @ along).max()
    assert np.ptp(top_vertices[:, 1]) > depth
    # The block's size along the slope, normal to it and along y.
    vertices = np.asarray(block["vertices"], float)
    assert np.ptp(vertices @ along) == pytest.approx(width)
    assert np.ptp(vertices @ uphill_normal) == pytest.approx(height)
    assert np.ptp(vertices[:, 1]) == pytest.approx(depth)


# --- harmonic stack ------------------------------------------------------------------

def stack_blocks(document, n):
    blocks = blocks_by_id(document)
    return [blocks[f"b{i}"] for i in range(1, n + 1)], blocks["ground"]


@pytest.mark.parametrize("n", [1, 2, 4, 7])
def test_critical_harmonic_stack_puts_each_centre_of_mass_over_the_edge_below(n):
    length, density = 1.2, 2000.0
    document = harmonic_stack(blocks=n, length=length, scale=1.0, density=density)
    blocks, table = stack_blocks(document, n)
    assert extent(table, 0)[1] == 0.0 and extent(table, 2)[1] == 0.0
    supports = blocks[1:] + [table]
    for k, below in enumerate(supports, start=1):
        edge = extent(below, 0)[1]
        assert centre_of_mass(blocks[:k], density)[0] == pytest.approx(edge, abs=ROUNDOFF), f"top {k} blocks"
        # Block k overhangs the one below by L / (2k) and rests on it.
        assert extent(blocks[k - 1], 0)[1] - edge == pytest.approx(length / (2 * k), abs=ROUNDOFF)
        assert extent(blocks[k - 1], 2)[0] == extent(below, 2)[1]


@pytest.mark.parametrize("scale, sign", [(0.98, -1.0), (1.02, 1.0)])
def test_scaled_harmonic_stack_is_inside_or_beyond_every_edge(scale, sign):
    n, length, density = 5, 1.0, 2000.0
    blocks, table = stack_blocks(harmonic_stack(blocks=n, length=length, scale=scale, density=density), n)
    for k, below in enumerate(blocks[1:] + [table], start=1):
        beyond = centre_of_mass(blocks[:k], density)[0] - extent(below, 0)[1]
        assert sign * beyond > 0.0, f"top {k} blocks"
        assert extent(blocks[k - 1], 0)[1] - extent(below, 0)[1] == pytest.approx(scale * length / (2 * k))


# --- rocking block --------------------------------------------------------------------

def test_rocking_block_has_the_housner_slenderness():
    document = rocking_block(lateral_acceleration=3.0)
    blocks = blocks_by_id(document)
    block = blocks["block"]
    b = np.ptp(extent(block, 0)) / 2
    h = np.ptp(extent(block, 2)) / 2
    assert math.atan(b / h) == pytest.approx(0.244979, abs=1e-6)
    assert extent(block, 2)[0] == 0.0 and extent(blocks["ground"], 2)[1] == 0.0
    assert document["loads"] == [{"kind": "body_acceleration", "blocks": "all",
                                  "acceleration": [3.0, 0.0, 0.0], "live": True}]


# --- registry and errors -----------------------------------------------------------------

def test_registry_describes_each_function_signature():
    assert set(GENERATORS) == {"arch", "wall", "column", "incline", "stack", "rocking_block", "spandrel_wall",
                               "wall_over_gap", "cylinder", "panel", "two_leaf_wall"}
    for name, generator in GENERATORS.items():
        assert generator.name == name and generator.help
        signature = inspect.signature(generator.function).parameters
        assert [p.name for p in generator.parameters] == list(signature)
        for parameter in generator.parameters:
            assert parameter.default == signature[parameter.name].default
            assert parameter.type in (float, int, bool) and isinstance(parameter.default, parameter.type)
            assert isinstance(parameter.unit, str) and parameter.help and parameter.range
        json.dumps(generator.to_dict(), allow_nan=False)
        assert generate(name) == generator.function()


def test_text_values_from_a_command_line_are_converted():
    document = generate("arch", voussoirs="6", base="false", thickness="0.2", load_fraction="1")
    assert len(document["blocks"]) == 6 and len(document["loads"]) == 1
    assert generate("wall", courses=2.0)["blocks"] == running_bond_wall(courses=2)["blocks"]
    assert GENERATORS["column"](blocks="3") == column(blocks=3)
    assert GENERATORS["column"].convert({"width": "0.5", "blocks": "2"}) == {"width": 0.5, "blocks": 2}


def test_unknown_generator_and_parameter_list_the_valid_ones():
    with pytest.raises(ValueError, match="'dome'.*arch.*wall"):
        generate("dome")
    with pytest.raises(ValueError, match="'span'.*radius.*voussoirs"):
        generate("arch", span=2.0)


@pytest.mark.parametrize("name, params, culprit", [
    ("arch", {"radius": -1.0}, "radius"),
    ("arch", {"thickness": 2.0}, "thickness"),
    ("arch", {"voussoirs": 1}, "voussoirs"),
    ("arch", {"voussoirs": 2.5}, "voussoirs"),
    ("arch", {"voussoirs": "many"}, "voussoirs"),
    ("arch", {"base": "maybe"}, "base"),
    ("arch", {"load_angle_deg": 91.0}, "load_angle_deg"),
    ("arch", {"load_fraction": -0.1}, "load_fraction"),
    ("arch", {"depth": 0.0}, "depth"),
    ("wall", {"courses": 0}, "courses"),
    ("wall", {"blocks_per_course": 1}, "blocks_per_course"),
    ("wall", {"block_length": -0.4}, "block_length"),
    ("wall", {"lateral_acceleration": "inf"}, "lateral_acceleration"),
    ("column", {"blocks": 0}, "blocks"),
    ("column", {"width": 0.0}, "width"),
    ("incline", {"angle_deg": 90.0}, "angle_deg"),
    ("incline", {"angle_deg": -5.0}, "angle_deg"),
    ("incline", {"friction": -0.6}, "friction"),
    ("stack", {"scale": 2.0}, "scale"),
    ("stack", {"scale": 0.0}, "scale"),
    ("stack", {"blocks": 0}, "blocks"),
    ("rocking_block", {"height": 0.0}, "height"),
    ("rocking_block", {"density": "nan"}, "density"),
])
def test_bad_parameters_raise_value_error_naming_them(name, params, culprit):
    with pytest.raises(ValueError, match=rf"\b{culprit}\b"):
        generate(name, **params)


def values_outside(text):
    """Values just outside a parameter's stated range ("> 0", ">= 2", "[0, 90)", "(0, 2)", "0, 1 or 2"), from its
    first clause; none for "any" and "true or false"."""
    if text[0] in "[(":
        low, high = (float(v) for v in text[1:-1].split(", "))
        return [low if text[0] == "(" else low - 1.0, high if text[-1] == ")" else high + 1.0]
    if text[0].isdigit():
        return [max(float(v) for v in text.replace(" or ", ", ").split(", ")) + 1.0]
    first = text.split(", ")[0]
    if first.startswith(">= "):
        return [float(first[3:]) - 1.0]
    if first.startswith("> "):
        return [float(first[2:])]
    return []


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_each_stated_range_is_the_one_the_generator_enforces(name):
    # the range `extrados example NAME --help` prints: a value just outside it is refused, naming the parameter
    generator = GENERATORS[name]
    checked = 0
    for parameter in generator.parameters:
        for value in values_outside(parameter.range):
            with pytest.raises(ValueError, match=rf"\b{parameter.name}\b"):
                generator(**{parameter.name: value})
            checked += 1
        assert checked or parameter.range in ("any", "true or false"), parameter
    assert checked >= len(generator.parameters) // 2


def test_direct_calls_check_their_parameters_too():
    with pytest.raises(ValueError, match="voussoirs"):
        semicircular_arch(voussoirs=1)
    with pytest.raises(ValueError, match="voussoirs"):
        semicircular_arch(voussoirs=3.0)
    with pytest.raises(ValueError, match="angle_from_crown_deg"):
        arch_point_load(1.0, 0.1, 10, 120.0, 1.0)
    with pytest.raises(ValueError, match="magnitude"):
        arch_point_load(1.0, 0.1, 10, 0.0, -1.0)


# --- the engine accepts what the generators make --------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_model_accepts_the_document(case):
    from extrados.engine.model import Model

    document = case_document(case)
    built = Model.from_dict(document)
    assert built.block_ids == [b["id"] for b in document["blocks"]]
