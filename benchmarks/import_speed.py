"""Time to import a file of many boxes (engine.io.cad.import_file), per format.

A row of n tilted 0.4 x 0.3 x 0.25 m boxes is written by trimesh as STL, GLB and OBJ and read back;
the table gives the seconds per file and per block, the file read (trimesh) apart from the rest
(checks, hulls, faces, corners on the planes). A non-convex body costs more (its distance from its
hull is sampled); the boxes here are all convex.

    .venv/bin/python benchmarks/import_speed.py [--blocks 500]

The table is printed and written to benchmarks/results/import_speed.txt.
"""
import argparse
import datetime
import platform
import tempfile
import time
from pathlib import Path

import trimesh

from extrados.engine.io.cad import import_file
from extrados.engine.io.cad.mesh_files import read_scene


def boxes_scene(n):
    """n tilted boxes in a row, 0.5 m apart."""
    scene = trimesh.Scene()
    for k in range(n):
        box = trimesh.creation.box((0.4, 0.3, 0.25))
        box.apply_transform(trimesh.transformations.rotation_matrix(0.3, (1, 2, 3)))
        box.apply_translation((0.5 * k, 0.0, 0.0))
        scene.add_geometry(box, node_name=f"b{k}", geom_name=f"b{k}")
    return scene


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=500)
    args = parser.parse_args()
    scene = boxes_scene(args.blocks)
    machine = platform.processor() or platform.machine()
    lines = [f"import_speed, {args.blocks} boxes, {datetime.date.today()}, {machine}",
             f"{'format':>6} {'read s':>8} {'import s':>9} {'ms/block':>9}"]
    with tempfile.TemporaryDirectory() as folder:
        for suffix in ("stl", "glb", "obj"):
            path = Path(folder) / f"boxes.{suffix}"
            scene.export(path)
            read = timed(read_scene, path)
            total = timed(import_file, path, up="z")
            lines.append(f"{suffix:>6} {read:8.2f} {total:9.2f} {1e3 * total / args.blocks:9.2f}")
    text = "\n".join(lines)
    print(text)
    results = Path(__file__).parent / "results"
    results.mkdir(exist_ok=True)
    (results / "import_speed.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()
