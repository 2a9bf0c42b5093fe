"""From a survey to a load factor: a tower's fourth floor in the spirit of the Tour Saint-Laurent (seed 002 sec. 5).

"It features forty courses (layers) of hewn stones on three sides of the tower", walls "of two
ashlar facings with mortar infill in-between". The true walls are two_leaf_wall generators (a mortared
core, mohr_coulomb joints, a course of through stones every third course) set in a U in plan: the north
wall runs past the corners, the east and west walls butt against it. Their as-built shape is deformed
course by course: the north wall bulges out (+y) by up to BULGE_RATIO of its height at mid-height and
mid-length (30 mm at forty courses), and its courses sag, its top by up to SAG_RATIO of its height at
mid-length. A synthetic survey (engine.survey.synthetic) draws noisy
points (sigma SIGMA_M) on the outer facings from stations outside and on the inner ones from inside;
the points go to a CSV and a PLY file and come back with the readers; the core comes from the
archaeologist's table (its blocks measured all round). `survey_to_model` (outline "quad", the blocky
simplification) gives the as-built wall; `idealised_survey` the wall with level courses and plane
facings, with the core as designed (the undeformed generator's). Both are checked (plane residuals
against the noise, no overlaps, volumes), the gaps the survey leaves between neighbours taken as closed
joints (settings.gaps "close", which survey_to_model writes: the core's mortar bonds across them), analysed
statically and for the factor of a horizontal body acceleration along +y (a live load, lambda in g),
and drawn coloured by entity; the as-built result is exported to VTK (ParaView) and glTF.

    .venv/bin/python examples/survey_tower.py [--courses 40] [--walls 3] [--length 8] [--out out/survey_tower]

Writes POINTS.csv, POINTS.ply, STONES.csv, DEPTHS.json, the two model documents, survey_tower.json (the
reports, static verdicts, load factors, solver figures and run time), survey_tower.png, vtk/ and a .glb.
"""
import argparse
import json
import time
from pathlib import Path

import numpy as np

from extrados import Model, analyze, generators
from extrados.engine.generators import GROUND_ID, ground_slab
from extrados.engine.exchange.gltf_export import write_gltf
from extrados.engine.exchange.vtk_export import write_vtk
from extrados.engine.survey import read_stone_table, read_survey
from extrados.engine.survey.idealise import idealised_survey
from extrados.engine.survey.stones import StonePoints
from extrados.engine.survey.synthetic import synthetic_survey
from extrados.engine.survey.to_model import survey_to_model

BLOCK_LENGTH, BLOCK_HEIGHT = 0.5, 0.3           # m, ashlar face
THICKNESS, FACING_DEPTH = 1.0, 0.25             # m; the thickness two ashlars, so the north wall spans the corners
SIGMA_M = 0.0025                                # measurement noise, m
BULGE_RATIO, SAG_RATIO = 1 / 400, 1 / 800      # course deformations of the north wall, over its height
POINTS_PER_STONE = 150
CSV_DIGITS_M = 1e-5                             # the CSV's coordinates are written to 0.01 mm
STATION_DISTANCE = 12.0                         # m, from an outer facing to its station
DEPTHS = {"stretcher": FACING_DEPTH, "through_stone": THICKNESS}    # the archaeologist's depth table, m
HORIZONTAL_LOAD = [{"kind": "body_acceleration", "blocks": "all", "acceleration": [0.0, 9.81, 0.0], "live": True}]
#: Plan placement of each wall: name, rotation about z (degrees; the generator's outer face y = -t/2
#: turned outwards), and which of them, in the order --walls takes them.
WALLS = (("north", 180.0), ("east", 90.0), ("west", -90.0))
#: Colours of the leaves in the drawing.
LEAF_COLOURS = {"outer": "#d9b98c", "inner": "#b5c9d6", "through": "#a0522d", "core": "#8c8c8c"}


def placed(vertices, angle_deg, offset):
    """Vertices (n, 3) turned by ``angle_deg`` about z and moved by ``offset`` (m)."""
    angle = np.radians(angle_deg)
    turn = np.array([[np.cos(angle), -np.sin(angle), 0.0], [np.sin(angle), np.cos(angle), 0.0], [0.0, 0.0, 1.0]])
    return np.asarray(vertices) @ turn.T + offset


def deformation(vertices, height, length):
    """(n, 3) moves, m, of north wall vertices (n, 3): a bulge out along +y, largest at mid-height and
    mid-length, and a sag growing with height, largest at mid-length. A field of the vertices, so that
    neighbours sharing a corner move it alike: the as-built joints stay closed."""
    across = np.cos(np.pi * vertices[:, 0] / length)             # 1 at mid-length, 0 at the corners
    bulge = BULGE_RATIO * height * across * np.sin(np.pi * vertices[:, 2] / height)
    sag = -SAG_RATIO * across * vertices[:, 2]
    return np.column_stack([np.zeros(len(vertices)), bulge, sag])


def tower(courses, walls, length, deformed):
    """Model document of the U of two-leaf walls (without ground), true or as-built (``deformed``)."""
    side_length = length * BLOCK_LENGTH
    north_length = side_length + 2.0 * THICKNESS
    blocks, assignments, document = [], [], None
    for name, angle in WALLS[:walls]:
        per_course = length + (4 if name == "north" else 0)
        document = generators.generate("two_leaf_wall", courses=courses, blocks_per_course=per_course,
                                       block_length=BLOCK_LENGTH, block_height=BLOCK_HEIGHT, thickness=THICKNESS,
                                       facing_depth=FACING_DEPTH, core_pieces=1, through_stone_courses=3,
                                       core_mortar=1)
        offset = (np.array([0.0, side_length / 2.0 + THICKNESS / 2.0, 0.0]) if name == "north" else
                  np.array([np.sign(angle) * (north_length / 2.0 - THICKNESS / 2.0), 0.0, 0.0]))
        for block in document["blocks"][:-1]:                    # the generator's own ground last
            vertices = placed(block["vertices"], angle, offset)
            if deformed and name == "north":
                vertices = vertices + deformation(vertices, courses * BLOCK_HEIGHT, north_length)
            block_id = f"{name}.{block['id']}"
            entity = {**block["entity"], "building": "Tour Saint-Laurent", "wall": name, "stone": block_id}
            blocks.append({"id": block_id, "vertices": vertices.tolist(), "faces": block["faces"],
                           "entity": entity})
        assignments += [{"blocks": [a if a == GROUND_ID else f"{name}.{a}" for a in pair["blocks"]],
                         "joint": pair["joint"]} for pair in document["joint_assignments"]]
    document.update(blocks=blocks, joint_assignments=assignments)
    return document


def stations(name, courses, length):
    """(outer, inner) survey stations of a wall, m: STATION_DISTANCE out from its outer face and in
    from its inner face, at mid-height (the synthetic survey sees through the other walls)."""
    outward = placed([[0.0, -1.0, 0.0]], dict(WALLS)[name], 0.0)[0]
    middle = np.array([0.0, 0.0, courses * BLOCK_HEIGHT / 2.0]) + outward * (length * BLOCK_LENGTH / 2.0
                                                                             + THICKNESS / 2.0)
    return middle + (STATION_DISTANCE + THICKNESS / 2.0) * outward, middle - (STATION_DISTANCE
                                                                              + THICKNESS / 2.0) * outward


def survey_rows(document, courses, walls, length, rng):
    """(point rows, stone table rows) of the synthetic survey of the as-built walls."""
    points, table = [], []
    for name, _ in WALLS[:walls]:
        outer, inner = stations(name, courses, length)
        for leaves, station in ((("outer", "through"), outer), (("inner",), inner)):
            seen = [b for b in document["blocks"] if b["entity"]["wall"] == name and b["entity"]["leaf"] in leaves]
            stones, _ = synthetic_survey(seen, station, POINTS_PER_STONE, SIGMA_M, rng)
            points += [(stone.stone, *point) for stone in stones for point in stone.points]
            table += [{**block["entity"], "station": station} for block in seen]
        core = [b for b in document["blocks"] if b["entity"]["wall"] == name and b["entity"]["leaf"] == "core"]
        points += [(block["id"], *vertex) for block in core for vertex in block["vertices"]]
        table += [{**block["entity"], "survey": "all_round"} for block in core]
    return points, table


def write_survey(folder, points, table):
    """Write the survey as CSV and PLY points, the stone table as CSV and the depth table as JSON."""
    with open(folder / "POINTS.csv", "w", encoding="utf-8") as handle:
        handle.write("stone,x,y,z\n" + "".join(f"{s},{x:.5f},{y:.5f},{z:.5f}\n" for s, x, y, z in points))
    write_labelled_ply(folder / "POINTS.ply", points)
    columns = ["stone", "building", "wall", "leaf", "course", "type", "survey", "station_x", "station_y",
               "station_z"]
    with open(folder / "STONES.csv", "w", encoding="utf-8") as handle:
        handle.write(",".join(columns) + "\n")
        for row in table:
            station = row.get("station")
            values = {**row, **({} if station is None else dict(zip(columns[-3:], station)))}
            handle.write(",".join(str(values.get(column, "")) for column in columns) + "\n")
    (folder / "DEPTHS.json").write_text(json.dumps(DEPTHS))


def write_labelled_ply(path, points):
    """A binary PLY of the points, each with its stone's name as a list of bytes ``stone`` (read_ply's label)."""
    from plyfile import PlyData, PlyElement

    vertex = np.empty(len(points), dtype=[("x", "f8"), ("y", "f8"), ("z", "f8"), ("stone", object)])
    for k, (stone, x, y, z) in enumerate(points):
        vertex[k] = (x, y, z, np.frombuffer(stone.encode("ascii"), dtype=np.uint8))
    element = PlyElement.describe(vertex, "vertex", len_types={"stone": "u1"}, val_types={"stone": "u1"})
    PlyData([element]).write(str(path))


def surveyed_model(stones, table, ground, joints_from, outline):
    """(Model, report dict) of surveyed stones with the true walls' joint laws and assignments."""
    document, report = survey_to_model(stones, table, DEPTHS, base_blocks=[ground], outline=outline)
    document.update({key: joints_from[key] for key in ("materials", "joints", "default_joint", "joint_assignments")},
                    gravity=joints_from["gravity"])
    return Model.from_dict(document), report.to_dict()


def analysed(model, load_factor=True):
    """Static verdict under self-weight and, when ``load_factor``, the factor of the horizontal live load
    (HORIZONTAL_LOAD), with the solvers' figures."""
    static = analyze(model, "static")
    document = static.to_dict()
    figures = {"stable": document["stable"], "verdict_by": document["verdict_by"], "static_solver": document["solver"],
               "gap_closure": document.get("gap_closure"),
               "load_factor": None, "load_factor_solves": None, "load_factor_solver": None}
    if load_factor:
        factor = analyze(Model.from_dict({**model.to_dict(), "loads": HORIZONTAL_LOAD}),
                         {"type": "load_factor", "tolerance": 0.02}).to_dict()
        figures.update(load_factor=factor["load_factor_report"]["nscd"],
                       load_factor_solves=factor["load_factor_report"]["solves"], load_factor_solver=factor["solver"])
    return static, figures


def draw_by_entity(model, entities, path):
    """The movable blocks in 3D, coloured by the leaf of their entity (outer, inner, through stone, core),
    with ``entities`` the result's, in model order; the ground is left out (it would hide the walls)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    figure = plt.figure(figsize=(8, 7))
    ax = figure.add_subplot(projection="3d")
    drawn = [(block, entity) for block, entity in zip(model.to_dict()["blocks"], entities) if not block.get("support")]
    for block, entity in drawn:
        vertices = np.asarray(block["vertices"])
        ax.add_collection3d(Poly3DCollection([vertices[face] for face in block["faces"]], edgecolor="0.3",
                                             facecolor=LEAF_COLOURS.get((entity or {}).get("leaf"), "white"),
                                             linewidth=0.2))
    movable = np.vstack([np.asarray(block["vertices"]) for block, _ in drawn])
    ax.set(xlim=(movable[:, 0].min(), movable[:, 0].max()), ylim=(movable[:, 1].min(), movable[:, 1].max()),
           zlim=(0.0, movable[:, 2].max()), xlabel="x (m)", ylabel="y (m)", zlabel="z (m)",
           title="as-built survey model, by leaf: " + ", ".join(LEAF_COLOURS))
    ax.set_box_aspect(np.ptp(movable, axis=0))
    figure.savefig(path, dpi=120)
    plt.close(figure)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--courses", type=int, default=40, help="courses of every wall")
    parser.add_argument("--walls", type=int, default=3, choices=(1, 2, 3), help="north, then east, then west")
    parser.add_argument("--length", type=int, default=8, help="ashlars per course of the east and west walls")
    parser.add_argument("--seed", type=int, default=1353, help="of the survey's noise")
    parser.add_argument("--out", default="out/survey_tower", help="output folder")
    parser.add_argument("--load-factor", action=argparse.BooleanOptionalAction, default=True,
                        help="the horizontal load factor of both walls (the slow part: a bisection of solves)")
    args = parser.parse_args(argv)
    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()

    true_walls = tower(args.courses, args.walls, args.length, deformed=False)
    as_built = tower(args.courses, args.walls, args.length, deformed=True)
    points, table = survey_rows(as_built, args.courses, args.walls, args.length, np.random.default_rng(args.seed))
    write_survey(folder, points, table)
    stones = read_survey(folder / "POINTS.csv")
    from_ply = read_survey(folder / "POINTS.ply")
    assert [s.stone for s in from_ply] == [s.stone for s in stones]
    assert all(np.allclose(a.points, b.points, rtol=0.0, atol=CSV_DIGITS_M) for a, b in zip(from_ply, stones))
    stone_table = read_stone_table(folder / "STONES.csv")
    reach = args.length * BLOCK_LENGTH + 2.0 * THICKNESS
    ground = ground_slab((-reach, reach), (-reach, reach), BLOCK_HEIGHT)

    faces = [stone for stone in stones if stone_table[stone.stone].survey == "face"]
    designed_core = [StonePoints(b["id"], np.asarray(b["vertices"]), np.zeros((0, 3)))
                     for b in true_walls["blocks"] if b["entity"]["leaf"] == "core"]
    built_model, built_report = surveyed_model(stones, stone_table, ground, true_walls, "quad")
    ideal_model, ideal_report = surveyed_model(idealised_survey(faces, stone_table) + designed_core, stone_table,
                                               ground, true_walls, "quad")
    results, summary = {}, {}
    for name, model in (("as_built", built_model), ("idealised", ideal_model)):
        static, summary[name] = analysed(model, args.load_factor)
        results[name] = static
        print(f"{name}: {'stands' if summary[name]['stable'] else 'does not stand'}, static residual "
              f"{summary[name]['static_solver']['residual']:.2e} "
              f"(converged {summary[name]['static_solver']['converged']})"
              f", horizontal load factor {summary[name]['load_factor']} g")
    rms = [stone["plane_rms_m"] for stone in built_report["stones"] if stone["plane_rms_m"] is not None]
    factors = [summary[name]["load_factor"] for name in ("as_built", "idealised")]
    ratio = None if None in factors else factors[0] / factors[1]
    print(f"{len(rms)} faces: plane RMS {np.mean(rms) * 1e3:.2f} mm (noise {SIGMA_M * 1e3:.2f} mm); "
          f"{len(built_report['overlaps'])} overlaps trimmed; as-built / idealised load factor {ratio}")

    Path(folder / "as_built.json").write_text(json.dumps(built_model.to_dict()))
    Path(folder / "idealised.json").write_text(json.dumps(ideal_model.to_dict()))
    entities = [block["entity"] for block in results["as_built"].to_dict()["blocks"]]
    draw_by_entity(built_model, entities, folder / "survey_tower.png")
    write_vtk(built_model, results["as_built"], folder / "vtk")
    write_gltf(built_model, folder / "survey_tower.glb", result=results["as_built"], colour_by="leaf")
    output = {"courses": args.courses, "walls": args.walls, "length": args.length, "sigma_m": SIGMA_M,
              "bulge_m": BULGE_RATIO * args.courses * BLOCK_HEIGHT, "sag_m": SAG_RATIO * args.courses * BLOCK_HEIGHT,
              "blocks": len(built_model.to_dict()["blocks"]), **summary,
              "as_built_over_idealised": ratio,
              "entities": entities,
              "survey_report": built_report, "idealised_report": ideal_report,
              "run_time_s": time.perf_counter() - start}
    (folder / "survey_tower.json").write_text(json.dumps(output, indent=1, allow_nan=False))
    print(f"wrote {folder} in {output['run_time_s']:.0f} s")


if __name__ == "__main__":
    main()
