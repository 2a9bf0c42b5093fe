"""A model document from a CAD or mesh file: each closed body a block.

Formats: OBJ, STL, PLY and glTF/GLB read by trimesh (engine.io.cad.mesh_files), Rhino .3dm read by
rhino3dm (engine.io.cad.rhino_files). Units: metres unless ``units`` or ``scale`` says otherwise; a
.3dm file's own model unit when neither is given. Axes: z up, except glTF/GLB, whose specification
puts y up (Blender and Rhino follow it when they export): such a file is turned x, y, z -> x, -z, y
unless ``up="z"`` is given.
"""
import math
from pathlib import Path
from typing import NamedTuple

import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.generators import DEFAULT_MAX_BLOCKS
from extrados.engine.io.cad.bodies import body_block
from extrados.engine.io.cad.mesh_files import MESH_TYPES, mesh_bodies
from extrados.engine.io.cad.rhino_files import rhino_bodies
from extrados.engine.io.model_document import FORMAT

#: Metres per unit of the ``units`` a caller may name.
UNITS = {"m": 1.0, "cm": 0.01, "mm": 1e-3, "in": 0.0254, "ft": 0.3048}
#: Rotations from a file's axes to the engine's z up, by the file's up axis.
TO_Z_UP = {"z": np.eye(3), "y": np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])}
#: The up axis of a format when the caller gives none: glTF's specification says y.
DEFAULT_UP = {".glb": "y", ".gltf": "y"}
#: A body is a support when its name or a level of its layer path is one of these (any case).
SUPPORT_NAMES = ("support", "supports", "ground")
#: The reader of each file suffix.
READERS = {**{suffix: mesh_bodies for suffix in MESH_TYPES}, ".3dm": rhino_bodies}


class Imported(NamedTuple):
    """A model document read from a file, and what the import did per block."""

    document: dict   # the model document: format, units and blocks
    report: tuple    # BlockReport per block, in block order


def metres_per_unit(units, scale, file):
    """Metres per file unit from ``units`` (a name of UNITS) or ``scale``; None when neither is given."""
    if units is not None and scale is not None:
        raise ModelError("give units or scale, not both", path=file)
    if units is not None:
        if units not in UNITS:
            raise ModelError(f"unknown units {units!r} (known: {', '.join(UNITS)})", path=file)
        return UNITS[units]
    if scale is not None and not (isinstance(scale, (int, float)) and math.isfinite(scale) and scale > 0):
        raise ModelError(f"scale must be a positive number of metres per file unit, not {scale!r}", path=file)
    return scale


def checked_path(path):
    """The file as a Path; ModelError when it is missing, empty or of a format not read."""
    path = Path(path)
    if path.suffix.lower() not in READERS:
        raise ModelError(f"unknown file type {path.suffix or '(no suffix)'!r}; import reads "
                         f"{', '.join(sorted(READERS))} (and a model document, .json)", path=str(path))
    if not path.is_file():
        raise ModelError("no such file", path=str(path))
    if path.stat().st_size == 0:
        raise ModelError("the file is empty", path=str(path))
    return path


def unique_ids(names):
    """Ids of the names in order, the second 'a' becoming 'a_2' (then 'a_3', ...; never an id taken).

    Returns
    -------
    ids : list of str
    renamed : dict, index -> the name it had
    """
    taken = set(names)
    seen = set()
    ids, renamed = [], {}
    for index, name in enumerate(names):
        candidate, k = name, 1
        while candidate in seen or (candidate != name and candidate in taken):
            k += 1
            candidate = f"{name}_{k}"
        if candidate != name:
            renamed[index] = name
        seen.add(candidate)
        ids.append(candidate)
    return ids, renamed


def is_support(body, support_names):
    """Whether a body's name or a level of its layer path is one of ``support_names`` (any case)."""
    wanted = {name.casefold() for name in ([support_names] if isinstance(support_names, str) else support_names)}
    levels = body.layer.split("::") if body.layer else []
    return any(label.casefold() in wanted for label in [body.name, *levels])


def import_file(path, *, hull=False, units=None, scale=None, up=None, support_names=SUPPORT_NAMES,
                max_blocks=DEFAULT_MAX_BLOCKS):
    """A model document of the closed bodies of a CAD or mesh file.

    Parameters
    ----------
    path : str or os.PathLike
        An .obj, .stl, .ply, .glb, .gltf or .3dm file.
    hull : bool
        Replace a non-convex body by its convex hull (the deviation is reported) instead of refusing it.
    units : str, optional
        The file's length unit, a key of UNITS ('mm', ...).
    scale : float, optional
        Metres per file unit, instead of ``units``.
    up : {'z', 'y'}, optional
        The file's up axis; default z, y for glTF/GLB.
    support_names : str or sequence of str
        Names (of a body or a layer level) that make a body a support, compared in any case.
    max_blocks : int
        Refuse a file of more bodies than this.

    Returns
    -------
    Imported
        The document's blocks carry ``id`` (the body's name, made unique), ``vertices`` (m),
        ``faces`` (polygons), ``support`` and ``entity`` where they apply.

    Raises
    ------
    ModelError
        A file that cannot be read, or a body that is open, not convex (without ``hull``) or has no
        volume; the message names the file and the body.
    """
    path = checked_path(path)
    file = str(path)
    to_metres = metres_per_unit(units, scale, file)
    up = DEFAULT_UP.get(path.suffix.lower(), "z") if up is None else up
    if up not in TO_Z_UP:
        raise ModelError(f"up must be 'z' or 'y', not {up!r}", path=file)
    bodies = READERS[path.suffix.lower()](path, to_metres, TO_Z_UP[up])
    if not bodies:
        raise ModelError("no closed bodies found in the file", path=file)
    if len(bodies) > max_blocks:
        raise ModelError(f"{len(bodies)} bodies, more than the limit of {max_blocks} blocks (raise max_blocks, "
                         f"--max-blocks)", path=file)
    ids, renamed = unique_ids([body.name for body in bodies])
    blocks, report = [], []
    for index, (body, block_id) in enumerate(zip(bodies, ids)):
        block, entry = body_block(body, block_id, file, hull=hull, support=is_support(body, support_names))
        if index in renamed:
            entry = entry._replace(changes=(f"renamed from '{renamed[index]}' (the name repeats)", *entry.changes))
        blocks.append(block)
        report.append(entry)
    return Imported({"format": FORMAT, "units": "SI", "blocks": blocks}, tuple(report))
