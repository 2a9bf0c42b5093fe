"""A result as VTK files for ParaView: the posed blocks and the contact forces per frame, and their time series.

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
- ``entities.json``, when blocks have entities (seed 002 sec. 2.1): {"no_entity": NO_ENTITY, "levels":
  {level: [names]}}, the names that the cell data ``entity_<level>`` codes (engine.post.entities), so that
  ParaView colours by wall, course or type and the legend can be read by name.
- ``result.pvd``: the VTK collection of every file with its frame's time, part 0 the blocks and part 1 the
  contacts at the time they have (ParaView: File > Open, the time series plays with the Time controls).

A dynamic result's stresses are those of its last step (engine.post.stress, seed 001 eq. 55): earlier frames
carry the stress fields as nan, so that every frame has the same fields. Units SI (m, m/s, rad, rad/s, N, Pa).
"""
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import meshio
import numpy as np

from extrados.engine.post.entities import NO_ENTITY, entity_codes
from extrados.engine.post.poses import check_same_blocks, frame_pose, posed_vertices, quaternion_rotation

BLOCK_FILE = "blocks_{:04d}.vtu"
CONTACT_FILE = "contacts_{:04d}.vtu"
COLLECTION_FILE = "result.pvd"
ENTITY_FILE = "entities.json"
#: The pvd's part of each dataset.
BLOCK_PART, CONTACT_PART = 0, 1
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
    write_entity_names(folder / ENTITY_FILE, result.blocks.entity)
    write_collection(folder / COLLECTION_FILE, datasets)
    return folder / COLLECTION_FILE
