"""examples/seed001_strain_maps.py on a small wall (seed 001 sec. 4.2): the strain indicator kappa (eq. 59) of
base shaking outgrows that of a settlement, as in the paper's fig. 14, and a wall whose whole foundation settles
moves as one body and gains no strain (a rigid motion of a cell is no strain, engine.post.strain)."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import seed001_strain_maps as example  # noqa: E402

WALL = (4, 5)                # courses, blocks per course
INTERVAL = 0.01              # s
SHAKING_S = 0.5              # s, enough for the comparison at equal times


def kappa_at(result, t):
    history = result["strain"]["history"]
    return float(np.interp(t, history["t"], history["indicator"]))


@pytest.fixture(scope="module")
def runs():
    settling, _ = example.run_case(example.strain_wall(*WALL, example.SETTLEMENT), example.SETTLING_S, INTERVAL)
    shaking, _ = example.run_case(example.shaken_wall(*WALL, SHAKING_S), SHAKING_S, INTERVAL)
    return settling, shaking


def test_shaking_strains_the_wall_more_than_a_settlement(runs):
    """kappa at 0.5 s (equal times), and the mean cumulated shear of the cells at the runs' ends."""
    settling, shaking = runs
    assert kappa_at(shaking, SHAKING_S) > kappa_at(settling, SHAKING_S) > 0.0
    # measured 0.056 against 0.015 (the shaking after 0.5 s, the settlement after its 1.5 s)
    assert np.mean(shaking["strain"]["shear"]) > 2.0 * np.mean(settling["strain"]["shear"])


def test_a_wall_settling_on_its_whole_foundation_gains_no_strain():
    document = example.strain_wall(*WALL, example.SETTLEMENT)
    document["support_motion"]["blocks"] = ["ground_left", "ground_right"]
    result, _ = example.run_case(document, example.SETTLING_S, INTERVAL)
    drop = [b["position"][2] for b in result["blocks"] if not b["support"]]
    start = [p[2] for p, b in zip(result["frames"][0]["positions"], result["blocks"]) if not b["support"]]
    assert np.subtract(start, drop) == pytest.approx(example.SETTLEMENT, rel=0.01)   # it went down 4 cm
    strain = result["strain"]
    assert max(map(abs, strain["dilation"] + strain["shear"])) < 1e-5
    assert strain["history"]["indicator"][-1] == 0.0
