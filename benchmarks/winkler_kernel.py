"""Time per call of the Winkler contact patches (engine.contact.winkler) after compilation.

Two scenes, posed once and detected once: a tilted rocking block on its ground slab (one pair)
and ``generate("wall", courses=10, blocks_per_course=10)`` settled 0.1 mm into its joints.
Timed separately: ``pair_faces`` (once per detection), ``winkler_patches`` (the entry point, once
per Newton iteration) and ``winkler_kernel`` alone (without the Geometry bundle it is handed).

    .venv/bin/python benchmarks/winkler_kernel.py [--calls 20000]

The table is printed and written to benchmarks/results/winkler_kernel.txt.
"""
import argparse
import time
from pathlib import Path

import numpy as np

from extrados import Model, generators
from extrados.engine.collision.detect import detect_contacts
from extrados.engine.collision.narrow_phase import posed_geometry
from extrados.engine.contact.winkler import pair_faces, winkler_kernel, winkler_patches
from extrados.engine.geometry.packed import pose_polyhedra
from extrados.engine.geometry.quaternion import quat_from_axis_angle
from extrados.engine.tolerance import TOL

ENVELOPE = 0.005
NORMAL_STIFFNESS = 5e8  # N/m^3, seed 003's k5
SETTLEMENT = 1e-4  # m, each movable block lowered into its bed joint
PARALLEL_SINE_SQUARED = 1.0 - TOL.parallel_cosine ** 2  # as winkler_patches hands it on


def rocking_pose(mechanics):
    """The block tilted by 10 mrad about y and lowered 2 mm: a partly uplifted base."""
    position = mechanics.position0.copy()
    orientation = np.tile([1.0, 0.0, 0.0, 0.0], (mechanics.n_blocks, 1))
    orientation[0] = quat_from_axis_angle(np.array([0.0, 1.0, 0.0]), 0.01)
    position[0, 2] -= 0.002
    return position, orientation


def settled_pose(mechanics):
    """Every movable block lowered by SETTLEMENT."""
    position = mechanics.position0.copy()
    position[~mechanics.is_support, 2] -= SETTLEMENT
    return position, np.tile([1.0, 0.0, 0.0, 0.0], (mechanics.n_blocks, 1))


def microseconds_per_call(function, calls):
    function()
    start = time.perf_counter()
    for _ in range(calls):
        function()
    return (time.perf_counter() - start) / calls * 1e6


def scene_row(name, doc, pose, calls):
    mechanics = Model(doc).mechanics
    packed = mechanics.polyhedra
    position, orientation = pose(mechanics)
    contacts = detect_contacts(packed, position, orientation, mechanics.is_support, ENVELOPE)
    faces = pair_faces(contacts, packed)
    posed = pose_polyhedra(packed, position, orientation)
    geometry = posed_geometry(packed, posed)
    stiffness = np.full(len(faces.kind), NORMAL_STIFFNESS)
    times = [microseconds_per_call(lambda: pair_faces(contacts, packed), calls),
             microseconds_per_call(lambda: winkler_patches(packed, posed, faces, NORMAL_STIFFNESS), calls),
             microseconds_per_call(lambda: winkler_kernel(geometry, faces, stiffness, PARALLEL_SINE_SQUARED), calls)]
    return f"{name:<14} {len(faces.kind):>6} " + " ".join(f"{t:>16.1f}" for t in times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    calls = parser.parse_args().calls
    lines = [f"{'scene':<14} {'pairs':>6} {'pair_faces us':>16} {'patches us':>16} {'kernel us':>16}",
             scene_row("rocking block", generators.generate("rocking_block"), rocking_pose, calls),
             scene_row("wall 10x10", generators.generate("wall", courses=10, blocks_per_course=10), settled_pose,
                       max(calls // 20, 1))]
    text = "\n".join(lines)
    print(text)
    (Path(__file__).parent / "results" / "winkler_kernel.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()
