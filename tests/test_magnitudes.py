"""Unchecked magnitudes, nesting and the engine's small refusals (issue 16, items 4, 6 and 9).

Each input below gave a 500, a traceback with exit 1, Infinity in a result, or was accepted when
it should be refused (or the reverse). Every one is now a ModelError naming the field (CLI: exit 2).
"""
import copy
import json
import subprocess
import sys

import pytest

from blocks import box_block, document, ground
from extrados import Model, analyze
from extrados.engine.errors import ModelError

CUBE = document([ground(), box_block("cube", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0))])


def nested(depth):
    """A list nested ``depth`` deep, built without recursion."""
    value = [0.0]
    for _ in range(depth):
        value = [value]
    return value


def changed(path, value, analysis="static"):
    """(model document, analysis) with CUBE's field at ``path`` (a tuple of keys) set to ``value``."""
    doc = copy.deepcopy(CUBE)
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc, analysis


POINT = {"kind": "point", "block": "cube", "point": [0.5, 0.5, 1.0]}
DYNAMIC = {"type": "dynamic", "duration": 0.05}
#: (model, analysis, the path of the ModelError); nesting is refused where it passes MAX_NESTING = 32 levels
BAD = {
    "density 10**400": (*changed(("materials", "stone", "density"), 10 ** 400), "materials.stone.density"),
    "friction 10**400": (*changed(("joints", "dry", "friction"), 10 ** 400), "joints.dry.friction"),
    "max_iterations 10**30": (*changed(("settings",), {"max_iterations": 10 ** 30}), "settings.max_iterations"),
    "vertex 1e308": (*changed(("blocks", 1, "vertices", 0, 0), 1e308), "blocks[1].vertices[0][0]"),
    "gravity 1e308": (*changed(("gravity",), [0.0, 0.0, -1e308]), "gravity[2]"),
    "live load 1e300": (*changed(("loads",), [dict(POINT, force=[1e300, 0.0, 0.0], live=True)], "load_factor"),
                        "loads[0].force[0]"),
    "acceleration 1e200": (*changed(("loads",), [{"kind": "body_acceleration", "blocks": "all",
                                                  "acceleration": [1e200, 0.0, 0.0]}], DYNAMIC),
                           "loads[0].acceleration[0]"),
    "density 1e-300": (*changed(("materials", "stone", "density"), 1e-300), "materials.stone.density"),
    "blocks nested 900": (*changed(("blocks",), nested(900)), "blocks" + "[0]" * 31),
    "faces nested 950": (*changed(("blocks", 1, "faces"), nested(950)), "blocks[1].faces" + "[0]" * 29),
    "settings nested 600": (*changed(("settings",), {"envelope": nested(600)}), "settings.envelope" + "[0]" * 30),
    "face index 10**5000": (*changed(("blocks", 1, "faces", 0, 0), 10 ** 5000), "blocks[1].faces[0][0]"),
    "record of 1 sample": (*changed(("support_motion",), {"kind": "record", "dt": 0.01,
                                                          "accelerations": [[1.0, 0.0, 0.0]]}, DYNAMIC),
                           "support_motion.accelerations"),
    "record dt 1e-300": (*changed(("support_motion",), {"kind": "record", "dt": 1e-300,
                                                        "accelerations": [[1.0, 0.0, 0.0]] * 2}, DYNAMIC),
                         "support_motion.dt"),
    "time_step 1e-300": (CUBE, {"type": "dynamic", "duration": 1.0, "time_step": 1e-300}, "analysis.time_step"),
    "duration 10**400": (CUBE, {"type": "dynamic", "duration": 10 ** 400}, "analysis.duration"),
    "duration 1e308": (CUBE, {"type": "dynamic", "duration": 1e308}, "analysis.duration"),
    "max_factor 1e300": (*changed(("loads",), [dict(POINT, force=[1.0, 0.0, 0.0], live=True)],
                                  {"type": "load_factor", "max_factor": 1e300}), "analysis.max_factor"),
    "request nested 900": (CUBE, {"type": "static", "thrust_line": {"chain": nested(900)}},
                           "analysis.thrust_line.chain" + "[0]" * 30),
}
@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_magnitude_is_a_model_error_at_its_field(name):
    model, analysis, path = BAD[name]
    with pytest.raises(ModelError) as caught:
        analyze(model, analysis)
    assert caught.value.path == path


def cube_text(replace_faces=None):
    """CUBE as JSON text, its ground's first face list replaced by the text ``replace_faces``."""
    text = json.dumps(CUBE)
    return text if replace_faces is None else text.replace('"faces": [[0, 3, 2, 1]', f'"faces": [{replace_faces}', 1)


@pytest.mark.parametrize("text", [
    json.dumps(BAD["density 10**400"][0]),
    json.dumps(BAD["vertex 1e308"][0]),
    cube_text("[" * 900 + "]" * 900),
    cube_text("[" * 5000 + "]" * 5000),
    cube_text("[" + "9" * 5000 + ", 3, 2, 1]"),
    cube_text("[NaN, 3, 2, 1]"),
], ids=["density 10**400", "vertex 1e308", "nested 900", "nested 5000", "5000 digits", "NaN"])
def test_cli_exits_2_on_bad_magnitudes(tmp_path, text):
    """Such inputs gave tracebacks with exit 1 (RecursionError, the integer-digit ValueError)."""
    file = tmp_path / "model.json"
    file.write_text(text)
    done = subprocess.run([sys.executable, "-m", "extrados", "analyze", str(file)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-500:]


@pytest.mark.parametrize("size", [1e-6, 1e-3])
def test_small_cube_is_accepted(size):
    """A 1e-6 m cube was refused: 'face 0 has zero area' (an absolute 1e-12 m^2)."""
    doc = document([box_block("c", (0.0, 0.0, 0.0), (size, size, size))])
    assert Model.from_dict(doc).mechanics.volume[0] == pytest.approx(size ** 3, rel=1e-9)


@pytest.mark.parametrize("thickness, path", [(1e-9, "blocks[0]"), (1e-12, "blocks[0]")])
def test_sliver_is_refused(thickness, path):
    """A 1 m x 1 m sliver 1e-9 m thick was accepted (its volume 1e-9 m^3 above an absolute 1e-12 x size)."""
    doc = document([box_block("s", (0.0, 0.0, 0.0), (1.0, 1.0, thickness))])
    with pytest.raises(ModelError) as caught:
        Model.from_dict(doc)
    assert caught.value.path.startswith(path)


def test_block_below_a_nanometre_is_refused():
    doc = document([box_block("dust", (0.0, 0.0, 0.0), (1e-10, 1e-10, 1e-10))])
    with pytest.raises(ModelError, match="smaller than 1e-09 m"):
        Model.from_dict(doc)


def test_documents_must_be_objects():
    for call in (lambda: Model.from_dict(None), lambda: Model.from_json("[1, 2]"), lambda: Model.from_json(12),
                 lambda: Model.from_json("  " + "[" * 5000 + "]" * 5000),
                 lambda: Model.from_json('{"format": "extrados.model/1", "blocks": [], "x": NaN}')):
        with pytest.raises(ModelError):
            call()


def test_add_block_refuses_an_integer_id():
    block = box_block("x", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    with pytest.raises(ModelError) as caught:
        Model().add_block(id=7, vertices=block["vertices"], faces=block["faces"])
    assert caught.value.path == "blocks[0].id"


def test_spg_with_one_iteration_is_not_converged():
    doc = document([ground(), box_block("a", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)),
                    box_block("b", (0.0, 0.0, 1.0), (1.0, 1.0, 2.0))], settings={"solver": "spg", "max_iterations": 1})
    solver = analyze(doc, "static").to_dict()["solver"]
    assert solver["iterations"] == 1 and solver["converged"] is (solver["residual"] <= 1e-7)


def test_large_but_bounded_inputs_give_strict_json():
    """Loads and accelerations at the schema's bound 1e15 stay finite through a dynamic run."""
    doc, _ = changed(("loads",), [{"kind": "body_acceleration", "blocks": "all", "acceleration": [1e15, 0.0, 0.0]}])
    json.dumps(analyze(doc, {"type": "dynamic", "duration": 0.01}).to_dict(), allow_nan=False)
