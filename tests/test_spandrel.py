"""Spandrel wall generator (seed 000 fig. 8, sec. 4): block geometry, tiling of the wall, statics.

The wall must be tiled exactly: every block a closed convex prism, no two
overlapping, their volumes adding up to the wall less the opening bounded by
the intrados chords, the fill lying face to face on the voussoirs' extrados.
Most checks use a small wall (8 x 3 m, R = 1.8 m) to stay fast.
"""
import math

import numpy as np
import pytest

from extrados import Model, analyze, generators
from extrados.engine.generators import block_entry, model_document, polygon_area
from extrados.engine.generators.spandrel import (
    chord_polygon, chord_polygon_area, keystone_id, polygon_prism, spandrel_sections, spandrel_wall,
)
from extrados.engine.pipeline import detect
from extrados.engine.state import State

#: Round-off on metre-sized coordinates built from a few float operations.
ROUNDOFF = 1e-12
#: Largest overlap (m) tolerated between two blocks.
OVERLAP = 1e-9

SMALL = {"length": 8.0, "height": 3.0, "opening_radius": 1.8}
VARIANTS = {
    "small": {},
    "even voussoirs": {"voussoirs": 10},
    "few voussoirs": {"voussoirs": 5, "ring_thickness": 0.3},
    "low courses": {"course_height": 0.3, "block_length": 0.6, "ring_thickness": 0.4},
    "wide opening": {"opening_radius": 2.5, "ring_thickness": 0.3, "course_height": 0.3, "voussoirs": 9},
}


def small_wall(variant="small"):
    return {**SMALL, **VARIANTS[variant]}


def parameters(**params):
    """All parameters of the generator: the defaults updated by params."""
    defaults = {p.name: p.default for p in generators.GENERATORS["spandrel_wall"].parameters}
    return {**defaults, **params}


def section_parameters(params):
    keys = ("length", "height", "opening_radius", "ring_thickness", "voussoirs", "course_height", "block_length")
    return {key: params[key] for key in keys}


def movable(model):
    return ~model.mechanics.is_support


# --- prisms ---------------------------------------------------------------------------

def test_polygon_prism_is_a_closed_outward_prism_of_any_polygon():
    hexagon = [(math.cos(a), math.sin(a) + 2.0) for a in np.linspace(0.0, 2.0 * math.pi, 7)[:-1]]
    vertices, faces = polygon_prism(hexagon, -0.2, 0.3)
    assert len(vertices) == 12 and len(faces) == 8
    document = model_document([block_entry("hexagon", vertices, faces)], friction=0.5, density=1000.0)
    model = Model.from_dict(document)          # validates closed, planar, convex
    assert model.to_dict()["blocks"][0]["faces"] == faces   # kept as given: already outward
    assert model.mechanics.volume[0] == pytest.approx(1.5 * math.sqrt(3.0) * 0.5, rel=ROUNDOFF)
    with pytest.raises(ValueError, match="clockwise"):
        polygon_prism(hexagon[::-1], 0.0, 1.0)


# --- the document -----------------------------------------------------------------------

def test_registered_with_described_parameters_and_seed_defaults():
    generator = generators.GENERATORS["spandrel_wall"]
    defaults = {p.name: p.default for p in generator.parameters}
    assert defaults == {"length": 16.2, "height": 5.0, "thickness": 0.8, "opening_radius": 3.8,
                        "ring_thickness": 0.6, "voussoirs": 15, "course_height": 0.5, "block_length": 1.0,
                        "density": 1800.0, "friction": 0.4}
    document = generators.generate("spandrel_wall", voussoirs="15", length="16.2")
    assert document == spandrel_wall()
    assert document["materials"]["stone"]["density"] == 1800.0
    assert document["joints"][document["default_joint"]] == {"law": "coulomb", "friction": 0.4}


def test_block_ids_voussoirs_then_courses_then_ground():
    document = spandrel_wall(**SMALL)
    ids = [b["id"] for b in document["blocks"]]
    assert ids[:15] == [f"v{k}" for k in range(15)]
    assert ids[-1] == "ground" and document["blocks"][-1]["support"]
    fill = ids[15:-1]
    assert all(i.startswith("s") for i in fill) and len(set(fill)) == len(fill)
    assert sum(b["support"] for b in document["blocks"]) == 1
    assert keystone_id(15) == "v7" and keystone_id(10) == "v5"


def test_key_stone_sits_on_the_crown():
    for n in (15, 10):
        document = spandrel_wall(**SMALL, voussoirs=n)
        keystone = next(b for b in document["blocks"] if b["id"] == keystone_id(n))
        vertices = np.asarray(keystone["vertices"])
        if n % 2:
            assert vertices[:, 0].min() == pytest.approx(-vertices[:, 0].max(), abs=ROUNDOFF)
        else:
            assert vertices[:, 0].min() == pytest.approx(0.0, abs=ROUNDOFF)
        assert vertices[:, 2].max() == pytest.approx(max(z for _, z in chord_polygon(2.4, n)), abs=ROUNDOFF)


@pytest.mark.parametrize("params, culprit", [
    ({"opening_radius": 7.8}, "opening_radius"),
    ({"opening_radius": 4.5}, "opening_radius"),
    ({"voussoirs": 1}, "voussoirs"),
    ({"thickness": 0.0}, "thickness"),
    ({"course_height": 6.0}, "course_height"),
    ({"block_length": -1.0}, "block_length"),
    ({"friction": -0.1}, "friction"),
])
def test_bad_parameters_are_refused_by_name(params, culprit):
    with pytest.raises(ValueError, match=f"^{culprit}"):
        generators.generate("spandrel_wall", **params)


# --- tiling -------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_every_block_is_a_convex_prism_inside_the_wall_and_the_volumes_add_up(variant):
    params = parameters(**small_wall(variant))
    document = spandrel_wall(**small_wall(variant))
    model = Model.from_dict(document)          # validates closed, convex, outward, positive volume
    volume = model.mechanics.volume[movable(model)]
    assert volume.min() > 0.0
    length, height, thickness = params["length"], params["height"], params["thickness"]
    for block in document["blocks"][:-1]:
        vertices = np.asarray(block["vertices"])
        assert np.abs(vertices[:, 0]).max() <= length / 2.0 + ROUNDOFF
        assert vertices[:, 2].min() >= -ROUNDOFF and vertices[:, 2].max() <= height + ROUNDOFF
        assert np.abs(vertices[:, 1]).max() == pytest.approx(thickness / 2.0, abs=ROUNDOFF)
    # The wall less the opening bounded by the intrados chords, 1/2 n R^2 sin(pi/n).
    opening = 0.5 * params["voussoirs"] * params["opening_radius"] ** 2 * math.sin(math.pi / params["voussoirs"])
    assert chord_polygon_area(params["opening_radius"], params["voussoirs"]) == pytest.approx(opening, rel=ROUNDOFF)
    assert volume.sum() == pytest.approx((length * height - opening) * thickness, rel=1e-12)


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_two_blocks_overlap_and_every_block_touches(variant):
    model = Model.from_dict(spandrel_wall(**small_wall(variant)))
    contacts = detect(model, State.initial(model.mechanics))
    assert contacts.gap.min() >= -OVERLAP
    touching = contacts.gap <= OVERLAP
    touched = set(contacts.body_a[touching]) | set(contacts.body_b[touching])
    assert touched == set(range(model.mechanics.n_blocks))


@pytest.mark.parametrize("variant", VARIANTS)
def test_fill_lies_face_to_face_on_every_extrados_chord(variant):
    """The fill's edges along each extrados chord cover it exactly.

    The extrados runs clockwise about the ring (left springing, over the crown,
    right springing) and the fill cells counter-clockwise, so the fill lies on
    the left of each chord and its edges there run the same way.
    """
    params = parameters(**small_wall(variant))
    ring, courses = spandrel_sections(**section_parameters(params))
    extrados = chord_polygon(params["opening_radius"] + params["ring_thickness"], params["voussoirs"])
    edges = [(p, q) for cells in courses for cell in cells for p, q in zip(cell, cell[1:] + cell[:1])]
    for k, (start, end) in enumerate(zip(extrados, extrados[1:])):
        ux, uz = np.subtract(end, start) / math.dist(start, end)
        covered = 0.0
        for p, q in edges:
            off_line = max(abs(ux * (z - start[1]) - uz * (x - start[0])) for x, z in (p, q))
            along = ux * (q[0] - p[0]) + uz * (q[1] - p[1])
            if off_line <= OVERLAP and along > 0.0:
                covered += along
        assert covered == pytest.approx(math.dist(start, end), rel=1e-9), f"chord {k}"


def test_wall_is_symmetric_about_its_centre_line():
    ring, courses = spandrel_sections(**section_parameters(parameters(**SMALL)))

    def key(polygon):
        return tuple(sorted((round(x, 9) + 0.0, round(z, 9)) for x, z in polygon))

    cells = {key(cell) for cells in courses for cell in cells}
    mirrored = {key([(-x, z) for x, z in cell]) for cells in courses for cell in cells}
    assert cells == mirrored


def test_default_wall_has_no_slivers():
    """Cells cut by ring corners just below a bed joint are joined into whole stones."""
    params = parameters()
    ring, courses = spandrel_sections(**section_parameters(params))
    assert len(ring) == 15 and len(courses) == 10
    smallest = min(polygon_area(cell) for cells in courses for cell in cells)
    assert smallest > 0.1 * params["course_height"] * params["block_length"]


# --- statics -------------------------------------------------------------------------------------

def test_default_spandrel_wall_stands_under_self_weight():
    """Seed 000 sec. 3-4: the spandrel wall is safe under its own weight."""
    result = analyze(Model.from_dict(generators.generate("spandrel_wall")), {"type": "static"})
    assert result.stable
    assert result.solver["converged"]


def test_small_spandrel_wall_stands_and_its_ground_carries_the_weight():
    model = Model.from_dict(spandrel_wall(**SMALL))
    result = analyze(model, {"type": "static"})
    assert result.stable
    weight = model.mechanics.mass[movable(model)].sum() * 9.81
    on_ground = sum(i["force"][2] * (1 if i["blocks"][1] == "ground" else -1)
                    for i in result.to_dict()["interfaces"] if "ground" in i["blocks"])
    assert abs(on_ground) == pytest.approx(weight, rel=1e-4)
