"""Rigid against deformable blocks on seed 001's 248-block wall (sec. 4.4, figs. 19-21, Tables I and II).

Seed 001 computes its wall under gravity twice: rigid blocks, and blocks of linear elasticity (E = 16 GPa,
nu = 0.3, sec. 4.3.2), with the same joints (mu = 0.65) and density (1820 kg/m^3). It reports:

- Table I: the wall averages barely differ, p_wall 1.57e4 Pa rigid against 1.55e4 deformable, q_wall 1.29e4
  against 1.28e4;
- block by block the stress invariants differ by 36 % (spherical) and 52 % (deviatoric) on average, and 94 % of
  the blocks carry at least as much stress deformable as rigid (fig. 19);
- layer by layer about 25 % (figs. 20-21);
- Table II: 1391 contacts rigid, 1932 deformable; 28 min against 91 min.

Here both walls are solved by the static analysis (engine.analysis.static) on the geometry of
examples/construction_wall.py (what the paper does not give is assumed there), the deformable one with the
default mesh (10-node tetrahedra, about 50 a block). Block stresses are the contact-force tensors of seed 001
eq. 35 (engine.post.stress) for both; for the deformable wall the script also checks them against the
volume average of its element stresses (the result's "deformable" fields), which equilibrium makes equal.
The invariants are engine.post.stress's p and q.

What it finds (16 x 15 wall): see docs and the printed summary; the engine's rigid contacts are regularized
(seed 000 eq. 43), so its rigid wall's forces are already those of stiff contact springs, not the NLGS
solution the paper's rigid case depends on (examples/construction_wall.py), and both walls share their
contact points (the joint polygons' corners): our contact counts are equal.

Writes OUT/seed001_rigid_deformable.json.

    .venv/bin/python examples/seed001_rigid_deformable.py [--courses 16] [--blocks-per-course 15]
                                                          [--element tet10] [--out out]
"""
import argparse
import json
import time
from pathlib import Path

import numpy as np

from construction_wall import relative_differences, wall_document
from extrados import Model, analyze
from extrados.engine.post.stress import stress_invariants, stress_summary

#: Seed 001 sec. 4.3.2: the blocks' elasticity.
STONE = {"E": 16e9, "nu": 0.3}
#: What seed 001 reports (Table I, sec. 4.4, Table II).
PAPER = {"p_wall": {"rigid": 1.57e4, "deformable": 1.55e4}, "q_wall": {"rigid": 1.29e4, "deformable": 1.28e4},
         "blockwise_mean_difference_p": 0.36, "blockwise_mean_difference_q": 0.52, "layer_difference": 0.25,
         "deformable_at_least_rigid": 0.94, "contacts": {"rigid": 1391, "deformable": 1932},
         "minutes": {"rigid": 28.6, "deformable": 91.1}}


def solve(document):
    """The static result of a wall document, its model and the seconds it took."""
    started = time.perf_counter()
    model = Model.from_dict(document)
    result = analyze(model, "static").to_dict()
    return model, result, time.perf_counter() - started


def deformable_document(courses, blocks_per_course, element):
    """The wall with its blocks deformable (STONE, ``element``)."""
    document = wall_document(courses, blocks_per_course)
    document["materials"]["stone"]["deformable"] = {**STONE, "element": element}
    return document


def element_average_gap(model, result):
    """Largest difference between a deformable block's volume-averaged element stress and its contact tensor,
    over the largest block stress (the two agree by equilibrium, seed 001 eq. 35)."""
    tensors = {b["id"]: np.array(b["stress"]) for b in result["blocks"]}
    scale = max(np.abs(t).max() for t in tensors.values())
    return max(float(np.abs(np.array(f["mean_stress"]) - tensors[f["block"]]).max()) for f in result["deformable"]) / scale


def comparison(model, rigid, deformable):
    """Table I's wall averages, the block-by-block and layer differences and the share of blocks stressed at
    least as much deformable as rigid."""
    mech = model.mechanics
    movable = ~mech.is_support
    summaries = {}
    for name, result in (("rigid", rigid), ("deformable", deformable)):
        stress = np.array([b["stress"] for b in result["blocks"]])
        position = np.array([b["position"] for b in result["blocks"]])
        summaries[name] = {"stress": stress, "structure": stress_summary(mech, position, stress)["structure"]}
    p_rigid, q_rigid = stress_invariants(summaries["rigid"]["stress"][movable])
    p_elastic, q_elastic = stress_invariants(summaries["deformable"]["stress"][movable])
    return {"p_wall": {name: s["structure"]["p"] for name, s in summaries.items()},
            "q_wall": {name: s["structure"]["q"] for name, s in summaries.items()},
            **relative_differences(model, rigid, deformable),
            "deformable_at_least_rigid_p": float(np.mean(p_elastic >= p_rigid)),
            "deformable_at_least_rigid_q": float(np.mean(q_elastic >= q_rigid))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--courses", type=int, default=16)
    parser.add_argument("--blocks-per-course", type=int, default=15)
    parser.add_argument("--element", default="tet10", choices=["tet4", "tet10"])
    parser.add_argument("--out", default="out", help="output folder")
    args = parser.parse_args()
    model, rigid, rigid_seconds = solve(wall_document(args.courses, args.blocks_per_course))
    deformable_model, deformable, deformable_seconds = solve(
        deformable_document(args.courses, args.blocks_per_course, args.element))
    figures = comparison(model, rigid, deformable)
    document = {"paper": PAPER, "stone": STONE, "element": args.element,
                "blocks": int((~model.mechanics.is_support).sum()),
                "tetrahedra": sum(len(b.mesh.tetrahedra) for b in deformable_model.elastic_bodies.values()),
                "stable": {"rigid": rigid["stable"], "deformable": deformable["stable"]},
                "contacts": {"rigid": len(rigid["contacts"]), "deformable": len(deformable["contacts"])},
                "seconds": {"rigid": rigid_seconds, "deformable": deformable_seconds},
                "element_average_against_contact_tensor": element_average_gap(deformable_model, deformable),
                **{key: value for key, value in figures.items() if not key.startswith("layer_change")}}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "seed001_rigid_deformable.json").write_text(json.dumps(document, indent=1))
    print(f"{document['blocks']} blocks, {document['tetrahedra']} tetrahedra; stands: rigid {rigid['stable']}, "
          f"deformable {deformable['stable']}; {rigid_seconds:.1f} s rigid, {deformable_seconds:.1f} s deformable")
    for key in ("p_wall", "q_wall"):
        print(f"{key}: rigid {figures[key]['rigid']:.4g} Pa, deformable {figures[key]['deformable']:.4g} Pa "
              f"(paper {PAPER[key]['rigid']:.3g} and {PAPER[key]['deformable']:.3g})")
    print(f"block by block: p {100 * figures['blockwise_mean_difference_p']:.1f} %, q "
          f"{100 * figures['blockwise_mean_difference_q']:.1f} % (paper 36 % and 52 %); layer by layer: p "
          f"{100 * figures['layer_difference_p']:.1f} %, q {100 * figures['layer_difference_q']:.1f} % (paper ~25 %)")
    print(f"blocks at least as stressed deformable as rigid: p {100 * figures['deformable_at_least_rigid_p']:.0f} %, "
          f"q {100 * figures['deformable_at_least_rigid_q']:.0f} % (paper 94 %)")
    print(f"element averages against the contact tensors: {document['element_average_against_contact_tensor']:.1e}"
          f" of the largest block stress")


if __name__ == "__main__":
    main()
