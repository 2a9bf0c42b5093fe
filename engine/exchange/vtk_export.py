"""A result as VTK files for ParaView: posed blocks, contact forces and deformed blocks per frame, as a time series.

A folder receives, per output frame k of a dynamic result (a static, load factor or construction result is
one frame, at t = 0):

- ``blocks_kkkk.vtu``: each block one VTK polyhedron cell (type 42, its faces listed) in its pose at the frame,
  with cell data per block (`block_cell_data`). Polyhedron cells rather than one polygon cell per face: one cell
  per block keeps the cell data per block (not repeated over its faces), so ParaView's Threshold, Cell Centers
  and Integrate Variables act on blocks. VTK's .vtu reader, ParaView's, reads polyhedron cells (their faces
  array), and meshio writes them and reads them back (tests/test_exports.py), grouped by vertex count: the
  cell data ``block_index`` says which block a cell is.
- ``contacts_kkkk.vtu``: the contact points as vertex cells with point data for glyphs (`contact_point_data`),
  for the frames whose contact forces the result holds: a static result's, and a dynamic result's last
  (the forces of its last step, engine.result). Earlier frames have none to write, and meshio cannot read
  an empty .vtu back, so those frames have no contacts file.
- ``deformable_kkkk.vtu``, when the model has deformable blocks (issue 23): their tetrahedra as one unstructured
  grid (`deformable_data`), at the frame whose fields the result holds, as for the contacts: meshio's ``tetra``
  (VTK_TETRA) or ``tetra10`` (VTK_QUADRATIC_TETRA), whose node order, VTK's (corners, then the mid-edge nodes of
  the edges 01, 12, 20, 03, 13, 23), is the engine's (engine.deformable.quadratic.EDGES), so the connectivity is
  written as the result has it.
- ``entities.json``, when blocks have entities (seed 002 sec. 2.1): {"no_entity": NO_ENTITY, "levels":
  {level: [names]}}, the names that the cell data ``entity_<level>`` codes (engine.post.entities), so that
  ParaView colours by wall, course or type and the legend can be read by name.
- ``result.pvd``: the VTK collection of every file with its frame's time, part 0 the blocks, part 1 the
  contacts and part 2 the deformable blocks at the time they have (ParaView: File > Open, the time series plays
  with the Time controls).

A dynamic result's stresses are those of its last step (engine.post.stress, seed 001 eq. 55): earlier frames
carry the stress fields as nan, so that every frame has the same fields. Units SI (m, m/s, rad, rad/s, N, Pa).
"""
import itertools
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import meshio
import numpy as np

from extrados.engine.post.entities import NO_ENTITY, entity_codes
from extrados.engine.post.poses import check_same_blocks, frame_pose, posed_vertices, quaternion_rotation

BLOCK_FILE = "blocks_{:04d}.vtu"
CONTACT_FILE = "contacts_{:04d}.vtu"
DEFORMABLE_FILE = "deformable_{:04d}.vtu"
COLLECTION_FILE = "result.pvd"
ENTITY_FILE = "entities.json"
#: The pvd's part of each dataset.
BLOCK_PART, CONTACT_PART, DEFORMABLE_PART = 0, 1, 2
#: meshio's cell type of each element of a deformable block (module docstring: the node orders agree).
TETRAHEDRON_CELLS = {"tet4": "tetra", "tet10": "tetra10"}
#: The cell data holding each block's stress; nan on the frames of a dynamic run before its last.
STRESS_FIELDS = ("stress", "principal_stress", "principal_direction_1", "principal_direction_2",
                 "principal_direction_3", "p", "q")


def polyhedron_cells(model, vertices):
    """meshio points and polyhedron cells of the blocks' faces at ``vertices``.

    Parameters
    ----------
    model : Model
        Its blocks' faces (outward, vertex indices of the block).
    vertices : list of (n_vertices, 3) float64
        m, each block's vertices in model order (engine.post.poses).

    Returns
    -------
    points : (sum n_vertices, 3) float64, m
    cells : list of (str, list)
        One ("polyhedron<n>", [faces of each cell]) per run of consecutive blocks of n vertices, in model
        order; a cell's faces are arrays of point indices.
    """
    starts = np.concatenate([[0], np.cumsum([len(v) for v in vertices])])
    cells = []
    for start, block_vertices, block in zip(starts, vertices, model.to_dict()["blocks"]):
        kind = f"polyhedron{len(block_vertices)}"
        faces = [start + np.asarray(face, np.int64) for face in block["faces"]]
        if cells and cells[-1][0] == kind:
            cells[-1][1].append(faces)
        else:
            cells.append((kind, [faces]))
    return np.concatenate(vertices), cells


def split_by_cells(values, cells):
    """``values`` (n_blocks, ...) as meshio cell data: one array per cell block of ``cells``."""
    ends = np.cumsum([len(faces) for _, faces in cells])
    return np.split(np.asarray(values), ends[:-1])


def block_cell_data(model, result, k):
    """{name: (n_blocks, ...) array} of the blocks at frame ``k`` (None: a result without frames).

    Fields: ``block_index`` (int64, model order), ``support`` (int8, 1 for a support), ``displacement``
    (m) of the centre of mass and ``rotation`` (rad, rotation vector) from the model's initial pose,
    ``velocity`` (m/s) and ``angular_velocity`` (rad/s) in the world frame; the average stress
    (seed 001 eq. 24, 35, 55; tension positive, Pa): ``stress`` (9 components, row-major: stress[i][k],
    force component i times arm component k), ``principal_stress`` (3, ascending: the most compressive
    first), ``principal_direction_1..3`` (unit, of each principal value), ``p`` = -tr / 3 and ``q`` =
    sqrt(3/2 s : s), nan on a dynamic frame before the last (module docstring); ``entity_<level>`` (int64)
    for each entity level some block names (engine.post.entities.entity_codes).
    """
    blocks = result.blocks
    position, orientation = frame_pose(result, k)
    velocity = blocks.velocity if k is None else result.frames.velocity[k]
    data = {"block_index": np.arange(len(blocks.ids), dtype=np.int64), "support": blocks.support.astype(np.int8),
            "displacement": position - model.geometry.centre,
            "rotation": quaternion_rotation(orientation).as_rotvec(),
            "velocity": velocity[:, :3], "angular_velocity": velocity[:, 3:],
            "stress": blocks.stress.reshape(-1, 9), "principal_stress": blocks.principal_values,
            **{f"principal_direction_{n + 1}": blocks.principal_directions[:, n] for n in range(3)},
            "p": blocks.p, "q": blocks.q,
            **{f"entity_{level}": codes for level, (codes, _) in entity_codes(blocks.entity).items()}}
    if k is not None and k != len(result.frames.t) - 1:
        data.update({name: np.full_like(data[name], np.nan) for name in STRESS_FIELDS})
    return data


def contact_point_data(contacts):
    """{name: (n_c, ...) array} of the contact points, for glyphs.

    Fields (N unless said): ``force`` on block_b from block_a (world), its ``normal_force`` F . n
    (compression positive) and ``tangential_force`` F - (F . n) n, the unit ``normal`` (into block_b),
    ``block_a`` and ``block_b`` (int64, model order) and the ``gap`` (m).
    """
    normal_force = np.einsum("ni,ni->n", contacts.force, contacts.normal)
    return {"force": contacts.force, "normal_force": normal_force,
            "tangential_force": contacts.force - normal_force[:, None] * contacts.normal, "normal": contacts.normal,
            "block_a": contacts.body_a, "block_b": contacts.body_b, "gap": contacts.gap}


def von_mises(voigt):
    """The von Mises stress (Pa) of stresses ``voigt`` (t, 6) Pa in Voigt order xx, yy, zz, yz, xz, xy.

    sigma_v = sqrt(((s_xx - s_yy)^2 + (s_yy - s_zz)^2 + (s_zz - s_xx)^2) / 2 + 3 (s_yz^2 + s_xz^2 + s_xy^2)).
    """
    xx, yy, zz, yz, xz, xy = np.asarray(voigt, float).T
    return np.sqrt(0.5 * ((xx - yy) ** 2 + (yy - zz) ** 2 + (zz - xx) ** 2) + 3.0 * (yz ** 2 + xz ** 2 + xy ** 2))


def voigt_tensors(voigt):
    """(t, 3, 3) symmetric tensors of ``voigt`` (t, 6) in Voigt order xx, yy, zz, yz, xz, xy."""
    xx, yy, zz, yz, xz, xy = np.asarray(voigt, float).T
    return np.stack([xx, xy, xz, xy, yy, yz, xz, yz, zz], axis=1).reshape(-1, 3, 3)


def deformable_data(fields, block_ids):
    """meshio points, cells and data of the deformable blocks' tetrahedra, one grid for all of them.

    Parameters
    ----------
    fields : list of dict
        The result's "deformable" entries (engine.post.deformable_fields): nodes (n, 3) m world, tetrahedra
        (t, 4 or 10), displacement (n, 3) m, stress (t, 6) Pa Voigt, principal_stress (t, 3) Pa ascending.
    block_ids : list of str
        The model's block ids in model order (``block_index``).

    Returns
    -------
    points : (sum n, 3) float64, m
        Every block's nodes where they are, the blocks in the order of ``fields``.
    cells : list of (str, (t, 4 or 10) int64)
        One ("tetra" or "tetra10", point indices) per run of consecutive blocks of one element.
    point_data : dict
        ``displacement`` (sum n, 3) m, world.
    cell_data : dict of list
        Per cell block: ``stress`` (t, 9) Pa, row-major, tension positive (a 2-D array is what meshio writes with
        its NumberOfComponents, which ParaView reads as a tensor; meshio writes a (t, 3, 3) one as a single
        component), ``von_mises`` (t,) Pa, ``min_principal`` and ``max_principal`` (t,) Pa, ``block_index`` (t,)
        int64, model order.
    """
    index = {block_id: i for i, block_id in enumerate(block_ids)}
    starts = np.concatenate([[0], np.cumsum([len(entry["nodes"]) for entry in fields])])
    blocks = []     # (cell type, tetrahedra as point indices, cell data) of each block
    for start, entry in zip(starts, fields):
        principal = np.asarray(entry["principal_stress"], float)
        blocks.append((TETRAHEDRON_CELLS[entry["element"]], start + np.asarray(entry["tetrahedra"], np.int64),
                       {"stress": voigt_tensors(entry["stress"]).reshape(-1, 9),
                        "von_mises": von_mises(entry["stress"]),
                        "min_principal": principal[:, 0], "max_principal": principal[:, -1],
                        "block_index": np.full(len(principal), index[entry["block"]], np.int64)}))
    cells, cell_data = [], {name: [] for name in blocks[0][2]}
    for kind, run in itertools.groupby(blocks, key=lambda block: block[0]):
        run = list(run)
        cells.append((kind, np.vstack([tetrahedra for _, tetrahedra, _ in run])))
        for name, values in cell_data.items():
            values.append(np.concatenate([data[name] for _, _, data in run]))
    points = np.concatenate([np.asarray(entry["nodes"], float) for entry in fields])
    displacement = np.concatenate([np.asarray(entry["displacement"], float) for entry in fields])
    return points, cells, {"displacement": displacement}, cell_data


def write_deformable(path, fields, block_ids):
    """Write the .vtu of the deformable blocks' tetrahedra (`deformable_data`)."""
    points, cells, point_data, cell_data = deformable_data(fields, block_ids)
    meshio.Mesh(points, cells, point_data=point_data, cell_data=cell_data).write(path, file_format="vtu")


def write_blocks(path, model, result, k):
    """Write the .vtu of the blocks at frame ``k`` (None: a result without frames)."""
    points, cells = polyhedron_cells(model, posed_vertices(model, *frame_pose(result, k)))
    data = {name: split_by_cells(values, cells) for name, values in block_cell_data(model, result, k).items()}
    meshio.Mesh(points, cells, cell_data=data).write(path, file_format="vtu")


def write_contacts(path, contacts):
    """Write the .vtu of the contact points (vertex cells) and their forces."""
    cells = [("vertex", np.arange(len(contacts.point), dtype=np.int64)[:, None])]
    meshio.Mesh(contacts.point, cells, point_data=contact_point_data(contacts)).write(path, file_format="vtu")


def write_entity_names(path, entities):
    """Write the names the ``entity_<level>`` codes index (module docstring); nothing when no block has an entity."""
    levels = {level: names for level, (_, names) in entity_codes(entities).items()}
    if levels:
        Path(path).write_text(json.dumps({"no_entity": NO_ENTITY, "levels": levels}, indent=1), encoding="utf-8")


def write_collection(path, datasets):
    """Write a VTK collection (.pvd) of ``datasets``, (time s, part, file name relative to the .pvd) each."""
    root = ET.Element("VTKFile", type="Collection", version="0.1", byte_order="LittleEndian")
    collection = ET.SubElement(root, "Collection")
    for time, part, name in datasets:
        ET.SubElement(collection, "DataSet", timestep=repr(float(time)), group="", part=str(part), file=name)
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def write_vtk(model, result, folder):
    """Write a result as VTK files for ParaView into ``folder`` (created if missing; module docstring).

    Parameters
    ----------
    model : Model
        The result's model (its blocks' faces and initial pose).
    result : Result
    folder : str or os.PathLike

    Returns
    -------
    Path
        The .pvd collection.

    Raises
    ------
    ModelError
        When the model is not the result's (engine.post.poses.check_same_blocks), or the frames carry no pose.
    """
    check_same_blocks(model, result)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    frames = [None] if result.frames is None else list(range(len(result.frames.t)))
    datasets = []
    for n, k in enumerate(frames):
        time = 0.0 if k is None else result.frames.t[k]
        write_blocks(folder / BLOCK_FILE.format(n), model, result, k)
        datasets.append((time, BLOCK_PART, BLOCK_FILE.format(n)))
        if n == len(frames) - 1 and len(result.contacts.point):
            write_contacts(folder / CONTACT_FILE.format(n), result.contacts)
            datasets.append((time, CONTACT_PART, CONTACT_FILE.format(n)))
        if n == len(frames) - 1 and result.extra.get("deformable"):
            write_deformable(folder / DEFORMABLE_FILE.format(n), result.extra["deformable"], result.blocks.ids)
            datasets.append((time, DEFORMABLE_PART, DEFORMABLE_FILE.format(n)))
    write_entity_names(folder / ENTITY_FILE, result.blocks.entity)
    write_collection(folder / COLLECTION_FILE, datasets)
    return folder / COLLECTION_FILE
