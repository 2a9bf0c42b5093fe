"""settings.gaps: small gaps between blocks as drawn kept open, or closed in the static CCP
(engine.analysis.joint_gaps).

A lintel on two piers, one pier GAP shorter than the other: with the gap open the lintel bears on
the tall pier alone and has to tilt onto the short one (a settle run decides); with the gap closed
it is a beam on two supports, each pier carrying half of its weight (the closed form of a symmetric
simply supported beam). Closing a gap must not make a mechanism stand: a block whose centre lies
past the edge of the block under it stays a mechanism.
"""
import json
import subprocess
import sys

import jsonschema
import numpy as np
import pytest

from blocks import box_block, document, ground
from extrados import Model, ModelError, analyze
from extrados.engine.analysis.cache import AnalysisCache
from extrados.engine.io.schema import result_schema

RESULT_SCHEMA = jsonschema.Draft202012Validator(result_schema())
GAP = 0.002                 # m, how much shorter the right pier is
DENSITY = 2000.0
PIER = 0.4                  # m, piers PIER x PIER x 1 m
SPAN = 2.0                  # m, the lintel's length, centred between the piers
#: Relative tolerance on the piers' sum: the static CCP is solved to its default relative residual (1e-7)
REACTION_TOLERANCE = 1e-6
#: On each pier's share: a horizontal self-stress between the two joints (GAP / 2 apart in height once
#: the contact points lie midway) shifts the split by its force times GAP / 2 over the span
SPLIT_TOLERANCE = 1e-3


def lintel(gaps=None, scale=1.0):
    """Ground, two piers under the ends of a lintel (0.3 m deep), the right pier GAP shorter; every
    length times ``scale``."""
    def box(block_id, lo, hi):
        return box_block(block_id, scale * np.asarray(lo), scale * np.asarray(hi))
    left = box("left", (-SPAN / 2, -PIER / 2, 0.0), (-SPAN / 2 + PIER, PIER / 2, 1.0))
    right = box("right", (SPAN / 2 - PIER, -PIER / 2, 0.0), (SPAN / 2, PIER / 2, 1.0 - GAP))
    beam = box("lintel", (-SPAN / 2, -PIER / 2, 1.0), (SPAN / 2, PIER / 2, 1.3))
    floor = ground()
    floor["vertices"] = (scale * np.asarray(floor["vertices"])).tolist()
    return document([floor, left, right, beam], density=DENSITY,
                    settings=None if gaps is None else {"gaps": gaps})


def force_on(result, block_id):
    """N, the vertical force the contacts of ``block_id`` with the block above it carry (its top joint)."""
    doc = result.to_dict()
    return sum(interface["force"][2] for interface in doc["interfaces"]
               if block_id in interface["blocks"] and "lintel" in interface["blocks"])


def lintel_weight(scale=1.0):
    return DENSITY * 9.81 * SPAN * PIER * 0.3 * scale ** 3


def test_with_the_gap_open_the_lintel_has_to_tilt_onto_the_short_pier_and_a_settle_run_decides():
    result = analyze(lintel())
    doc = result.to_dict()
    assert doc["verdict_by"] == "settle run" and "gap_closure" not in doc
    assert doc["max_point_speed"] > GAP / 1.0 * 0.1          # it moves at a fraction of GAP / h (h = 1 s)


def test_with_the_gap_closed_each_pier_carries_half_the_lintel_at_once():
    result = analyze(lintel({"mode": "close"}))
    doc = result.to_dict()
    assert result.stable and doc["verdict_by"] == "static" and doc["solver"]["converged"]
    weight = lintel_weight()
    left, right = abs(force_on(result, "left")), abs(force_on(result, "right"))
    assert left + right == pytest.approx(weight, rel=REACTION_TOLERANCE)
    assert left == pytest.approx(weight / 2, rel=SPLIT_TOLERANCE) and right == pytest.approx(weight / 2,
                                                                                            rel=SPLIT_TOLERANCE)
    closure = doc["gap_closure"]
    # the lintel meets the short pier on a 4-point face patch
    assert closure["contacts"] == 4 and closure["pairs"] == 1
    assert closure["max_gap"]["gap"] == pytest.approx(GAP, abs=1e-12)
    assert sorted(closure["max_gap"]["blocks"]) == ["lintel", "right"]
    assert closure["tolerance"] == Model.from_dict(lintel()).settings["envelope"]
    RESULT_SCHEMA.validate(doc)


def test_a_tolerance_below_the_gap_closes_nothing():
    doc = analyze(lintel({"mode": "close", "tolerance": GAP / 2})).to_dict()
    assert doc["gap_closure"] == {"tolerance": GAP / 2, "contacts": 0, "pairs": 0, "max_gap": {"gap": 0.0, "blocks": []}}
    assert doc["verdict_by"] == "settle run"


def test_the_verdict_and_what_is_closed_do_not_change_with_the_scale():
    """Half and twice the size: the gap (1 mm, 4 mm) stays within the default envelope, 5 mm at most
    (engine.scaled_defaults), which bounds what the default tolerance can close."""
    small, large = (analyze(lintel({"mode": "close"}, scale)).to_dict() for scale in (0.5, 2.0))
    assert small["stable"] and large["stable"] and small["verdict_by"] == large["verdict_by"] == "static"
    assert large["gap_closure"]["contacts"] == small["gap_closure"]["contacts"] == 4
    assert large["gap_closure"]["max_gap"]["gap"] == pytest.approx(4.0 * small["gap_closure"]["max_gap"]["gap"],
                                                                   rel=1e-9)


def test_closing_a_gap_does_not_make_a_mechanism_stand():
    """A 1 m cube whose centre lies 0.1 m past the edge of the cube under it, 1 mm above it."""
    blocks = [ground(), box_block("base", (0, 0, 0), (1, 1, 1)),
              box_block("top", (0.6, 0, 1.001), (1.6, 1, 2.001))]
    result = analyze(document(blocks, settings={"gaps": {"mode": "close"}}))
    assert not result.stable and result.to_dict()["verdict_by"] == "static"
    assert result.to_dict()["gap_closure"]["contacts"] == 4


def test_the_load_factor_closes_the_same_gaps():
    doc = lintel({"mode": "close"})
    doc["loads"] = [{"kind": "body_acceleration", "blocks": "all", "acceleration": [9.81, 0.0, 0.0], "live": True}]
    result = analyze(doc, {"type": "load_factor"}).to_dict()
    assert result["gap_closure"]["contacts"] == 4
    RESULT_SCHEMA.validate(result)


def test_the_cache_closes_gaps_by_each_documents_settings():
    cache = AnalysisCache()
    opened = cache.analyze(lintel(), "static").to_dict()
    closed = cache.analyze(lintel({"mode": "close"}), "static").to_dict()
    reopened = cache.analyze(lintel(), "static").to_dict()
    assert "gap_closure" not in opened and "gap_closure" not in reopened
    assert closed["gap_closure"]["contacts"] == 4 and closed["verdict_by"] == "static"
    assert reopened["verdict_by"] == opened["verdict_by"] == "settle run"


@pytest.mark.parametrize("gaps, path", [({"mode": "shut"}, "settings.gaps.mode"),
                                        ({"mode": "close", "tolerance": -1.0}, "settings.gaps.tolerance"),
                                        ({"close": True}, "settings.gaps.close")])
def test_a_bad_gaps_setting_is_refused_at_its_path(gaps, path):
    with pytest.raises(ModelError) as caught:
        Model.from_dict(lintel(gaps))
    assert caught.value.path == path


def test_the_cli_refuses_a_bad_gaps_setting_with_exit_2(tmp_path):
    model = tmp_path / "lintel.json"
    model.write_text(json.dumps(lintel({"mode": "shut"})))
    done = subprocess.run([sys.executable, "-m", "extrados", "analyze", str(model)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2 and "settings.gaps.mode" in done.stderr and "Traceback" not in done.stderr


def write_two_stone_survey(folder):
    """Two stones' faces in the plane y = 0, 1 m wide, 'a' over z in [0, 0.5] and 'b' GAP above it, 0.3 m deep,
    seen from y = -10 m: the CSV survey, the stone table and the depth table."""
    rows = []
    for stone, (bottom, top) in (("a", (0.0, 0.5)), ("b", (0.5 + GAP, 1.0))):
        rows += [f"{stone},{x},0.0,{z}" for x in (0.0, 0.5, 1.0) for z in (bottom, 0.5 * (bottom + top), top)]
    (folder / "points.csv").write_text("stone,x,y,z\n" + "\n".join(rows) + "\n")
    (folder / "stones.csv").write_text("stone,type\na,stretcher\nb,stretcher\n")
    (folder / "depths.json").write_text('{"stretcher": 0.3}')


@pytest.mark.parametrize("options, gaps", [([], {"mode": "close"}), (["--joint-gaps", "open"], {"mode": "open"}),
                                           (["--gap-tolerance", "0.004"], {"mode": "close", "tolerance": 0.004})])
def test_extrados_survey_writes_the_gaps_setting(tmp_path, options, gaps):
    write_two_stone_survey(tmp_path)
    out = tmp_path / "model.json"
    done = subprocess.run([sys.executable, "-m", "extrados", "survey", str(tmp_path / "points.csv"), "--stones",
                           str(tmp_path / "stones.csv"), "--depths", str(tmp_path / "depths.json"), "--out", str(out),
                           "--viewpoint", "0.5", "-10", "0.5", *options], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["settings"] == {"gaps": gaps}


def test_extrados_survey_refuses_a_negative_gap_tolerance_with_exit_2(tmp_path):
    write_two_stone_survey(tmp_path)
    done = subprocess.run([sys.executable, "-m", "extrados", "survey", str(tmp_path / "points.csv"), "--stones",
                           str(tmp_path / "stones.csv"), "--depths", str(tmp_path / "depths.json"), "--out",
                           str(tmp_path / "model.json"), "--viewpoint", "0.5", "-10", "0.5", "--gap-tolerance", "-1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "gap_tolerance is -1.0; it must be a positive length in m" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "model.json").exists()
