"""Extrados from a COMPAS script: blocks as COMPAS meshes in, COMPAS geometry out.

Builds a semicircular arch of voussoirs with radial joints as `compas.datastructures.Mesh`
hexahedra on a ground slab (the support), analyses it in-process with `engine.analyze`
(static: self-weight), and turns the result into COMPAS geometry: a `Line` for every contact
force and every joint resultant (from the point of application along the force, scaled) and
a `Polyline` for every thrust line. Everything is saved with `compas.json_dump`.
With --url the same model also goes through the HTTP service (the Grasshopper client,
`extrados_gh.client.ExtradosClient` in gh_components/) and its result is checked against the
in-process one.

    .venv/bin/python examples/compas_script.py [--out out/compas_arch.json]
        [--voussoirs 9] [--radius 1.0] [--thickness 0.15] [--depth 0.3] [--scale 1e-4]
        [--url http://127.0.0.1:8000]
"""
import argparse
import math
import sys
from pathlib import Path

import compas
from compas.datastructures import Mesh
from compas.geometry import Line, Point, Polyline, Vector

from extrados import Model, analyze

ROOT = Path(__file__).resolve().parents[1]

#: Faces of a hexahedron whose vertices 0-3 are one end quad and 4-7 the other, in the same order.
HEX_FACES = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]]
#: Default length per newton of the force lines (m/N).
SCALE = 1e-4
#: Relative tolerance of the HTTP-versus-in-process check.
RTOL = 1e-5


def hexahedron(end_a, end_b):
    """A COMPAS mesh from two quads (lists of 4 points) ``end_b`` = ``end_a`` shifted, with outward faces."""
    vertices = [list(map(float, p)) for p in end_a + end_b]
    mesh = Mesh.from_vertices_and_faces(vertices, HEX_FACES)
    # Outward normals: flip every face if the signed volume of the hexahedron is negative.
    if _signed_volume(vertices, HEX_FACES) < 0.0:
        mesh = Mesh.from_vertices_and_faces(vertices, [face[::-1] for face in HEX_FACES])
    return mesh


def _signed_volume(vertices, faces):
    volume = 0.0
    for face in faces:
        a = vertices[face[0]]
        for i in range(1, len(face) - 1):
            b, c = vertices[face[i]], vertices[face[i + 1]]
            volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                       + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0
    return volume


def arch_meshes(voussoirs=9, radius=1.0, thickness=0.15, depth=0.3, slab=0.1):
    """The ground slab and the voussoirs of a semicircular arch in the x-z plane, as COMPAS meshes.

    ``radius`` is that of the centre line; joints are radial; the arch spans y in
    [-depth/2, depth/2] and springs from the top face (z = 0) of a slab ``slab`` thick.

    Returns
    -------
    list of (str, Mesh, bool)
        (id, mesh, support) with the slab first ("ground", support) then "v0".."v{n-1}".
    """
    inner, outer, half = radius - thickness / 2.0, radius + thickness / 2.0, depth / 2.0
    reach = outer + 0.2
    ground = hexahedron([[-reach, -half - 0.1, -slab], [reach, -half - 0.1, -slab],
                         [reach, half + 0.1, -slab], [-reach, half + 0.1, -slab]],
                        [[-reach, -half - 0.1, 0.0], [reach, -half - 0.1, 0.0],
                         [reach, half + 0.1, 0.0], [-reach, half + 0.1, 0.0]])
    blocks = [("ground", ground, True)]
    for i in range(voussoirs):
        # From the right springing (angle 0) to the left (angle pi); snap the springings to z = 0.
        angles = [math.pi * i / voussoirs, math.pi * (i + 1) / voussoirs]

        def point(r, angle, y):
            return [r * math.cos(angle), y, 0.0 if angle in (0.0, math.pi) else r * math.sin(angle)]

        quad = [(inner, angles[0]), (inner, angles[1]), (outer, angles[1]), (outer, angles[0])]
        blocks.append((f"v{i}", hexahedron([point(r, a, -half) for r, a in quad],
                                           [point(r, a, half) for r, a in quad]), False))
    return blocks


def model_from_meshes(meshes, supports=()):
    """An Extrados `Model` of COMPAS meshes.

    Parameters
    ----------
    meshes : list of Mesh, or list of (id, Mesh) / (id, Mesh, support) tuples
    supports : iterable of str or int
        Ids (or indices) of the support blocks, besides those flagged in the tuples.
    """
    supports = set(supports)
    model = Model()
    for index, item in enumerate(meshes):
        if isinstance(item, Mesh):
            block_id, mesh, support = f"b{index}", item, False
        else:
            block_id, mesh, support = (tuple(item) + (False,))[:3]
        model.add_block(mesh, id=block_id, support=bool(support or block_id in supports or index in supports))
    return model


def _line(start, force, scale):
    start = Point(*start)
    return Line(start, start + Vector(*force) * scale)


def result_geometry(result, scale=SCALE):
    """COMPAS geometry of a result document (or `Result`).

    Returns
    -------
    dict
        ``forces``: a Line per contact with non-zero force, from its point along force*scale;
        ``resultants``: a Line per interface (joint resultant) from its centre along force*scale;
        ``thrust_lines``: a Polyline per thrust line, through its points;
        ``thrust_line_names``: their names, in the same order.
    """
    doc = result.to_dict() if hasattr(result, "to_dict") else result
    forces = [_line(c["point"], c["force"], scale) for c in doc.get("contacts", [])
              if any(f != 0.0 for f in c["force"])]
    resultants = [_line(i["centre"], i["force"], scale) for i in doc.get("interfaces", [])
                  if i.get("centre") is not None and any(f != 0.0 for f in i["force"])]
    lines = [line for line in doc.get("thrust_lines", []) if len(line.get("points", [])) >= 2]
    return {"forces": forces, "resultants": resultants,
            "thrust_lines": [Polyline(line["points"]) for line in lines],
            "thrust_line_names": [line.get("name", "") for line in lines]}


def compare_results(local, remote, rtol=RTOL):
    """Differences between two result documents (stable flag and contact forces); [] if they agree."""
    problems = []
    if local["stable"] != remote["stable"]:
        problems.append(f"stable: {local['stable']} in-process, {remote['stable']} over HTTP")
    a, b = local.get("contacts", []), remote.get("contacts", [])
    if len(a) != len(b):
        return problems + [f"{len(a)} contacts in-process, {len(b)} over HTTP"]
    largest = max([math.sqrt(sum(f * f for f in c["force"])) for c in a] + [1.0])
    for index, (ca, cb) in enumerate(zip(a, b)):
        for fa, fb in zip(ca["force"], cb["force"]):
            if abs(fa - fb) > rtol * max(abs(fa), abs(fb), 1e-3 * largest):
                problems.append(f"contact {index}: force {ca['force']} in-process, {cb['force']} over HTTP")
                break
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/compas_arch.json", help="the COMPAS JSON file to write")
    parser.add_argument("--url", default=None, help="also analyse through the HTTP service at this URL")
    parser.add_argument("--voussoirs", type=int, default=9)
    parser.add_argument("--radius", type=float, default=1.0)
    parser.add_argument("--thickness", type=float, default=0.15)
    parser.add_argument("--depth", type=float, default=0.3)
    parser.add_argument("--scale", type=float, default=SCALE, help="force line length per newton (m/N)")
    args = parser.parse_args(argv)

    blocks = arch_meshes(args.voussoirs, args.radius, args.thickness, args.depth)
    model = model_from_meshes(blocks)
    result = analyze(model, {"type": "static"}).to_dict()
    geometry = result_geometry(result, args.scale)
    print(f"in-process: stable={result['stable']}, {len(result['contacts'])} contacts, "
          f"{len(geometry['forces'])} force lines, {len(geometry['thrust_lines'])} thrust lines")

    status = 0
    if args.url:
        sys.path.insert(0, str(ROOT / "gh_components"))  # where Rhino finds extrados_gh too
        from extrados_gh.client import ExtradosClient

        remote = ExtradosClient(args.url).analyze(model.to_dict(), {"type": "static"})
        problems = compare_results(result, remote)
        if problems:
            status = 1
            print("HTTP result differs from the in-process one:\n  " + "\n  ".join(problems[:10]))
        else:
            print(f"HTTP ({args.url}): stable={remote['stable']}, contact forces agree within {RTOL:g}")

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    compas.json_dump({"blocks": [mesh for _, mesh, _ in blocks], "block_ids": [bid for bid, _, _ in blocks],
                      "forces": geometry["forces"], "resultants": geometry["resultants"],
                      "thrust_lines": geometry["thrust_lines"], "thrust_line_names": geometry["thrust_line_names"],
                      "stable": result["stable"]}, str(out))
    print(f"wrote {out}")
    return status


if __name__ == "__main__":
    sys.exit(main())
