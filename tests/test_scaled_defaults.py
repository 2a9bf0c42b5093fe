"""Verdicts do not depend on the model's scale (issue 16, item 8).

The default compliance and envelope scale with the model (engine.scaled_defaults): a model and
the same model scaled by 100 in length, and by 1e3 in density as well, get the same static and
dynamic verdicts; the project's ordinary models keep the schema's values, so no verification
number moves.
"""
import math

import pytest

from blocks import box_block, document, ground
from extrados import Model, analyze, generators
from extrados.engine.model import SETTINGS_DEFAULTS

SCALES = [(1.0, 1.0), (100.0, 1.0), (100.0, 1e3), (0.01, 1.0)]   # (length, density) factors


def scaled(doc, length, density):
    """The document with every vertex times ``length`` and every density times ``density``."""
    doc = dict(doc, materials={name: dict(material, density=material["density"] * density)
                               for name, material in doc["materials"].items()})
    doc["blocks"] = [dict(block, vertices=[[length * x for x in point] for point in block["vertices"]])
                     for block in doc["blocks"]]
    return doc


def cube_on_slab(size, density):
    return document([ground(half=2.0 * size, thickness=0.5 * size),
                     box_block("cube", (-size / 2, -size / 2, 0.0), (size / 2, size / 2, size))], density=density)


@pytest.mark.parametrize("size, density", [(20.0, 2000.0), (0.3, 1e10)])
def test_heavy_cube_resting_flat_stands(size, density):
    """Reported stable: false with converged: true under the absolute default compliance 1e-10 m/N."""
    result = analyze(cube_on_slab(size, density), "static")
    assert result.stable and result.to_dict()["solver"]["converged"]


@pytest.mark.parametrize("length, density", SCALES)
@pytest.mark.parametrize("sign", [-1, 1])
def test_incline_verdict_is_the_same_at_every_scale(length, density, sign):
    """A block 0.3 degrees inside (-1) or outside (+1) its friction angle (the closed form tan theta = mu)."""
    mu = 0.6
    theta = math.degrees(math.atan(mu)) + sign * 0.3
    doc = generators.generate("incline", angle_deg=theta, width=0.5, height=0.5, friction=mu)
    assert analyze(scaled(doc, length, density), "static").stable is (sign < 0)


@pytest.mark.parametrize("length, density", SCALES)
@pytest.mark.parametrize("name", ["arch", "column"])
def test_standing_structures_stand_at_every_scale(name, length, density):
    result = analyze(scaled(generators.generate(name), length, density), "static")
    assert result.stable and result.to_dict()["solver"]["converged"]


@pytest.mark.parametrize("length, density", SCALES[:3])
def test_dynamic_verdict_and_motion_are_the_same_at_every_scale(length, density):
    """A cube at rest for 0.05 s: not collapsed, and its sink under the compliance below 2e-5 of its
    size (9e-6 at 1 m, 1.1e-7 at 100 m: the heaviest block's c m is bounded, so larger models sink less)."""
    doc = scaled(cube_on_slab(1.0, 2000.0), length, density)
    result = analyze(doc, {"type": "dynamic", "duration": 0.05, "time_step": 1e-3}).to_dict()
    assert result["stable"]
    cube = result["blocks"][[block["id"] for block in result["blocks"]].index("cube")]
    assert 0.5 * length - cube["position"][2] < 2e-5 * length


@pytest.mark.parametrize("name", sorted(generators.GENERATORS))
def test_ordinary_models_keep_the_schema_defaults(name):
    """Every generator (blocks of 1.5 kg to 1.7 t) keeps the schema's defaults, so results do not change."""
    settings = Model.from_dict(generators.generate(name)).settings
    assert settings["compliance"] == SETTINGS_DEFAULTS["compliance"]
    assert settings["envelope"] == SETTINGS_DEFAULTS["envelope"]


def test_written_settings_are_used_as_written():
    doc = dict(cube_on_slab(20.0, 2000.0), settings={"compliance": 1e-10, "envelope": 0.05})
    settings = Model.from_dict(doc).settings
    assert (settings["compliance"], settings["envelope"]) == (1e-10, 0.05)
