"""The energy impact law's plastic ratio is at most 1 (engine.pipeline.plastic_energy_ratio): a plastic impact of
rigid blocks dissipates. On a table shaken vertically above 1 g, blocks resting on it see the table's rise as a
closing contact at almost no relative speed, and the ratio, unbounded, reached 379 on a 4 x 4 wall and
1.7e25 on seed 001's 248-block wall, whose run then overflowed at 1.125 s. The ratios are read by wrapping the
engine's own function (it still computes every one of them)."""
import math
import sys
from pathlib import Path

import numpy as np

from extrados import analyze
from extrados.engine import pipeline

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from seed001_kappa_study import case_document  # noqa: E402
from seed001_strain_maps import FREQUENCY, PEAK_VELOCITY  # noqa: E402

G = 9.81


def test_a_plastic_impact_keeps_at_most_the_energy_it_had_on_a_table_shaken_above_one_g(monkeypatch):
    ratios = []
    engine_ratio = pipeline.plastic_energy_ratio

    def recorded(*args):
        ratios.append(engine_ratio(*args))
        return ratios[-1]
    monkeypatch.setattr(pipeline, "plastic_energy_ratio", recorded)
    document, _ = case_document("z", (4, 4))              # 1 m/s sin(2 pi 2 t) along z: 1.28 g at its peaks
    assert PEAK_VELOCITY * 2.0 * math.pi * FREQUENCY > G
    result = analyze(document, {"type": "dynamic", "duration": 2.0, "output_interval": 0.05})
    assert len(ratios) > 100                                # impacts every time the wall lands
    assert 0.0 <= min(ratios) and max(ratios) <= 1.0       # measured 379 at most before the bound
    energy = result.to_dict()["energy"]
    assert np.isfinite([entry["total"] for entry in energy]).all()
