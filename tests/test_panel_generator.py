"""The `panel` generator: the diagonal compression panel of seed 004 sec. 5.2 (Table 4).

Geometry against its closed forms (block count, volume, a vertical diagonal), every block
convex with outward faces, the joint laws of Table 4, the shoes' dry joints on every contact
the engine finds between them and the panel, and the statics: with mortar the panel stands
on its corner; dry, its bed joints lie at 45 degrees, steeper than the friction angle
atan 0.8 = 38.7 degrees, and it falls.
"""
import math

import numpy as np
import pytest

from extrados import Model, analyze
from extrados.engine.contact.cohesive import COULOMB, CohesiveLaw
from extrados.engine.contact.laws import contact_laws
from extrados.engine.generators import GENERATORS, generate
from extrados.engine.generators.panel import ACTUATOR_IDS, BASE_IDS, TABLE_4, diagonal_panel
from extrados.engine.pipeline import detect
from extrados.engine.state import State

#: Round-off on metre-sized coordinates built from a few float operations.
ROUNDOFF = 1e-12
WIDTH = HEIGHT = 0.84
THICKNESS = 0.1
SHOE_LENGTH, SHOE_THICKNESS = 0.15, 0.03
COURSES, PER_COURSE = 14, 4


def panel_blocks(document):
    return [block for block in document["blocks"] if not block["support"]]


def vertices_of(blocks):
    return np.concatenate([np.asarray(block["vertices"], float) for block in blocks])


def face_normal(vertices, face):
    """Unit normal of a face by Newell's formula: outward when the face runs counter-clockwise seen from outside."""
    polygon = vertices[face]
    normal = np.cross(polygon, np.roll(polygon, -1, axis=0)).sum(axis=0)
    return normal / np.linalg.norm(normal)


def test_the_model_loads_with_the_closed_form_block_count_and_volume():
    document = generate("panel")
    model = Model.from_dict(document)
    # even courses hold 4 whole blocks, odd ones 3 whole and 2 half blocks; 4 shoe pieces
    assert len(panel_blocks(document)) == COURSES // 2 * PER_COURSE + COURSES // 2 * (PER_COURSE + 1) == 63
    assert sorted(b["id"] for b in document["blocks"] if b["support"]) == sorted(BASE_IDS + ACTUATOR_IDS)
    volume = WIDTH * HEIGHT * THICKNESS + 4 * SHOE_LENGTH * SHOE_THICKNESS * THICKNESS
    assert model.mechanics.volume.sum() == pytest.approx(volume, rel=1e-12)
    panel_volume = sum(v for v, b in zip(model.mechanics.volume, document["blocks"]) if not b["support"])
    assert panel_volume == pytest.approx(WIDTH * HEIGHT * THICKNESS, rel=1e-12)
    assert GENERATORS["panel"].function is diagonal_panel and generate("panel") == diagonal_panel()


def test_every_block_is_convex_with_outward_faces():
    document = generate("panel")
    for block in document["blocks"]:
        vertices = np.asarray(block["vertices"], float)
        centre = vertices.mean(axis=0)
        for face in block["faces"]:
            normal = face_normal(vertices, face)
            offsets = (vertices - vertices[face[0]]) @ normal
            assert offsets.max() <= ROUNDOFF, f"{block['id']}: a vertex lies outside face {face}"
            assert (centre - vertices[face[0]]) @ normal < 0.0, f"{block['id']}: face {face} points inward"


def test_the_loaded_diagonal_is_vertical_with_the_lower_corner_at_the_origin():
    document = generate("panel")
    vertices = vertices_of(panel_blocks(document))
    lowest, highest = vertices[np.argmin(vertices[:, 2])], vertices[np.argmax(vertices[:, 2])]
    assert lowest[0] == pytest.approx(highest[0], abs=ROUNDOFF) and abs(lowest[0]) <= ROUNDOFF
    assert lowest[2] == pytest.approx(0.0, abs=ROUNDOFF)
    assert highest[2] == pytest.approx(WIDTH * math.sqrt(2.0), abs=ROUNDOFF)
    assert np.ptp(vertices[:, 1]) == pytest.approx(THICKNESS)
    # the loading shoe sits above the panel, the fixed one below it
    shoes = {b["id"]: np.asarray(b["vertices"], float) for b in document["blocks"] if b["support"]}
    assert min(shoes[i][:, 2].min() for i in ACTUATOR_IDS) > HEIGHT / math.sqrt(2.0)
    assert max(shoes[i][:, 2].max() for i in BASE_IDS) < HEIGHT / math.sqrt(2.0)


@pytest.mark.parametrize("mortar", [1, 2])
def test_mortar_joints_are_table_4_and_the_shoes_are_dry(mortar):
    document = generate("panel", mortar=mortar, joint_stiffness=5e11)
    joint = document["joints"][document["default_joint"]]
    assert joint["law"] == "cohesive" and joint["friction"] == 0.8
    for mode in ("mode_I", "mode_II"):
        assert joint[mode] == dict(TABLE_4[mortar][mode], stiffness=5e11)
    assert (joint["mode_II"]["strength"], joint["mode_II"]["ultimate_opening"]) == (1.63e6, 4.0e-3)
    assert joint["mode_II"]["energy"] == {1: 700.0, 2: 350.0}[mortar]
    assert joint["mode_I"]["energy"] == {1: 16.0, 2: 8.0}[mortar]
    CohesiveLaw.from_dict(joint, "joints.mortar")     # the bilinear curves exist at this K0
    assert document["joints"]["shoe"] == {"law": "coulomb", "friction": 0.8}
    assert {a["joint"] for a in document["joint_assignments"]} == {"shoe"}
    dry = generate("panel", mortar=0)
    assert dry["joints"][dry["default_joint"]] == {"law": "coulomb", "friction": 0.8}


def test_every_contact_between_a_shoe_and_the_panel_is_a_dry_shoe_joint():
    model = Model.from_dict(generate("panel"))
    contacts = detect(model, State.initial(model.mechanics))
    law = contact_laws(model, contacts)
    support = model.mechanics.is_support
    on_shoe = support[contacts.body_a] | support[contacts.body_b]
    shoe_law = model.joint_table["law_code"][law[on_shoe]]
    assert on_shoe.sum() >= 4 * 4 and np.all(shoe_law == COULOMB) and np.all(law[on_shoe] != 0)
    assert np.all(law[~on_shoe] == 0)                 # and between blocks, the mortar
    touching = {tuple(sorted(model.block_ids[i] for i in pair)) for pair in
                zip(contacts.body_a[on_shoe], contacts.body_b[on_shoe])}
    assert touching == {("base_bed", "c0b0"), ("base_head", "c0b0"), ("base_head", "c1b0"), ("base_head", "c2b0"),
                        ("actuator_bed", "c13b3"), ("actuator_bed", "c13b4"), ("actuator_head", "c11b4"),
                        ("actuator_head", "c12b3"), ("actuator_head", "c13b4")}


def test_the_mortared_panel_stands_on_its_corner_and_the_dry_one_falls():
    assert analyze(generate("panel", mortar=1), "static").to_dict()["stable"] is True
    assert analyze(generate("panel", mortar=0), "static").to_dict()["stable"] is False


def test_a_dynamic_run_of_the_document_drives_the_loading_shoe_down_the_diagonal():
    """The document's support motion is the test's displacement control: after 10 ms at 2 mm/s the loading shoe
    has moved 20 um down, the panel bears on both shoes, and the shoes' forces balance the panel's weight
    (quasi-static: within 1 % of it) and each other horizontally."""
    document = generate("panel", mortar=1, loading_speed=2e-3)
    result = analyze(document, {"type": "dynamic", "duration": 0.01, "time_step": 1e-3}).to_dict()
    start = {block["id"]: np.asarray(block["vertices"], float).mean(axis=0) for block in document["blocks"]}
    moved = {block["id"]: block["position"][2] for block in result["blocks"]}
    for shoe in ACTUATOR_IDS:
        # the document's vertex mean and the result's centre of mass coincide for a box
        assert moved[shoe] - start[shoe][2] == pytest.approx(-2e-5, rel=1e-6)
    force = {reaction["block"]: np.asarray(reaction["force"]) for reaction in result["reactions"]}
    base, actuator = sum(force[b] for b in BASE_IDS), sum(force[b] for b in ACTUATOR_IDS)
    weight = 1200.0 * WIDTH * HEIGHT * THICKNESS * 9.81
    assert actuator[2] < -10.0 * weight                      # the shoe presses down the diagonal
    assert base[2] + actuator[2] == pytest.approx(weight, rel=0.01)
    assert abs(base[0] + actuator[0]) < 0.01 * weight


def test_the_generator_is_registered_with_typed_parameters():
    generator = GENERATORS["panel"]
    assert [p.name for p in generator.parameters][:2] == ["width", "height"]
    assert all(p.type in (float, int, bool) and isinstance(p.default, p.type) and p.help
               for p in generator.parameters)
    assert generator(mortar="2", width="0.84") == diagonal_panel(mortar=2)


@pytest.mark.parametrize("params, culprit", [
    ({"width": 0.8}, "width"), ({"height": 0.85}, "height"), ({"mortar": 3}, "mortar"), ({"mortar": -1}, "mortar"),
    ({"joint_stiffness": 0.0}, "joint_stiffness"), ({"shoe_length": 0.9}, "shoe_length"),
    ({"width": 0.21}, "width"),
])
def test_bad_parameters_name_themselves(params, culprit):
    with pytest.raises(ValueError, match=f"^{culprit}"):
        generate("panel", **params)
