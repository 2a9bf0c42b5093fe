"""A closed body read from a CAD or mesh file, checked and turned into a block of the model document.

A block of the engine is a closed convex polyhedron (engine.geometry.polyhedron). A body is one
when its surface is closed and it fills its convex hull: the hull's surface keeps to the body's and
its volume is the hull's. A body that is not is refused with the reason, or, when the user asks,
replaced by its hull (seed 002 sec. 4.1, "blocky simplification") with the deviation reported.
"""
from typing import NamedTuple

import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.geometry.face_planes import snapped_to_face_planes
from extrados.engine.geometry.hull import hull_block
from extrados.engine.geometry.polyhedron import (GeometryError, block_volume, check_closed, face_centroids, face_loops,
                                                 face_normals)
from extrados.engine.geometry.surface_distance import distance_to_surface, surface_samples
from extrados.engine.tolerance import TOL

#: The properties of a CAD object (user strings, glTF extras) that become its block's entity fields (seed 002 sec. 2.1).
ENTITY_FIELDS = ("building", "wall", "leaf", "course", "stone", "type")


class Body(NamedTuple):
    """One closed surface of a file, in metres and z up (the readers convert)."""

    name: str              # the object's or node's name in the file ('' when it has none)
    vertices: np.ndarray   # (n, 3) float64, m
    faces: list            # polygons of vertex indices, wound alike (all outward or all inward)
    layer: str = ""        # full layer path ('Wall::Supports'), '' when the format has none
    properties: tuple = ()  # (key, text) pairs: a .3dm object's user strings, a glTF node's entity extras


class BlockReport(NamedTuple):
    """What the import did to one body."""

    id: str                # the block's id in the model document
    name: str              # the body's name in the file
    volume: float          # m^3, of the block
    hull_distance: float   # m, largest distance of the block's surface from the body's (0: the body was convex)
    volume_change: float   # (hull volume - body volume) / hull volume: the part of the block the body left empty
    changes: tuple         # what was changed, in words ('renamed from ...', 'replaced by its convex hull ...')


def on_hull_faces(vertices, faces, hull_vertices, hull_faces, distance):
    """Whether every face of a body lies in a face plane of its hull, within ``distance`` (m).

    A closed surface whose faces all lie on its hull's surface is that surface: the body is its hull,
    and is convex. The test costs one distance per vertex and hull face (the sampled distance of
    `hull_deviation` one per sample, body face and side), so convex bodies, nearly all, skip that.
    """
    loops = face_loops(hull_faces)
    normals = face_normals(hull_vertices, loops)
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    offsets = -np.einsum("ij,ij->i", normals, face_centroids(hull_vertices, loops))
    off_plane = np.abs(vertices @ normals.T + offsets)                     # (n_vertices, n_hull_faces) m
    body = face_loops(faces)
    farthest = np.maximum.reduceat(off_plane[body.corner], body.start[:-1], axis=0)   # (n_faces, n_hull_faces)
    return bool((farthest.min(axis=1) <= distance).all())


def hull_deviation(vertices, faces, hull_vertices, hull_faces):
    """How far a closed body is from its convex hull.

    Parameters
    ----------
    vertices : (n, 3) float64, m
    faces : list of planar polygons, wound alike
    hull_vertices : (m, 3) float64, m
    hull_faces : list of convex polygons of the hull (engine.geometry.hull.hull_block)

    Returns
    -------
    distance : float
        m, the largest distance of the hull's surface from the body's, over the hull's corners,
        side midpoints, face centroids and the points halfway between (engine.geometry.surface_distance):
        the one-sided Hausdorff distance where the farthest point is among them, as for an L prism
        (a square of side a less a corner square of side b): the centre line of the hull face across
        the corner lies (a - b) / 2 from the L's two inner faces.
    body_volume : float
        m^3, |sum of the signed tetrahedra of the faces| (divergence theorem; any winding, if alike).
    """
    samples = surface_samples(hull_vertices, hull_faces)
    return float(distance_to_surface(samples, vertices, faces).max()), abs(block_volume(vertices, faces))


def check_wound_alike(faces, n_vertices):
    """Raise GeometryError unless the faces of a closed surface are wound alike: each edge runs one
    way in one face and the other way in the other, without which its volume cannot be measured."""
    loops = face_loops(faces)
    keys, count = np.unique(loops.corner * n_vertices + loops.following, return_counts=True)
    if (count > 1).any():
        start, end = divmod(int(keys[np.argmax(count > 1)]), n_vertices)
        raise GeometryError(f"faces are not wound alike (edge {start}-{end} runs the same way in two faces); "
                            f"turn them all outward")


def check_finite(name, vertices, file):
    """ModelError naming a body's first vertex that is not a finite number (NaN, inf)."""
    if not np.isfinite(vertices).all():
        row = int(np.argwhere(~np.isfinite(vertices))[0][0])
        raise ModelError(f"body '{name}': vertex {row} is not a finite number", path=file)


def format_length(metres):
    """A length for a message, in mm: '18 mm', '0.0012 mm'."""
    return f"{metres * 1e3:.3g} mm"


def body_hull(body):
    """The convex hull of a closed body as a block.

    Returns
    -------
    vertices : (m, 3) float64, m, the hull's corners put on its faces' best-fit planes
    faces : list of polygons, counter-clockwise seen from outside
    drawn_to : float
        m, the precision the body is taken to be drawn to: TOL.import_rounding_relative times its
        largest coordinate, or TOL.convexity_relative times its size when more. Hull triangles within
        it of one plane are one face.

    Raises
    ------
    GeometryError
        An open or non-manifold surface, faces not wound alike, no volume.
    """
    size = float(np.ptp(body.vertices, axis=0).max())
    drawn_to = max(TOL.import_rounding_relative * float(np.abs(body.vertices).max()), TOL.convexity_relative * size)
    check_closed(body.faces, len(body.vertices))
    check_wound_alike(body.faces, len(body.vertices))
    vertices, faces = hull_block(body.vertices, coplanar=drawn_to)
    return snapped_to_face_planes(vertices, faces), faces, drawn_to


def body_block(body, block_id, file, hull=False, support=False):
    """The model-document block of a body, and what was done to it.

    Parameters
    ----------
    body : Body
    block_id : str
    file : str
        The file, for messages.
    hull : bool
        Replace a non-convex body by its convex hull instead of refusing it.
    support : bool

    Returns
    -------
    block : dict
        ``id``, ``vertices`` (m), ``faces`` (polygons merged from coplanar triangles), ``support``
        when true, ``entity`` when the body has a layer or properties.
    report : BlockReport

    Raises
    ------
    ModelError
        A non-finite coordinate, what `body_hull` refuses, or (without ``hull``) a non-convex body;
        the message names the file and the body.
    """
    label = f"body '{body.name or block_id}'"

    def refuse(reason):
        return ModelError(f"{label}: {reason}", path=file, block=block_id)

    check_finite(body.name or block_id, body.vertices, file)
    try:
        vertices, faces, drawn_to = body_hull(body)
    except GeometryError as exc:
        raise refuse(str(exc)) from None
    volume = block_volume(vertices, faces)
    if on_hull_faces(body.vertices, body.faces, vertices, faces, drawn_to):
        distance, volume_change, convex = 0.0, 0.0, True
    else:
        distance, body_volume = hull_deviation(body.vertices, body.faces, vertices, faces)
        volume_change = (volume - body_volume) / volume
        size = float(np.ptp(body.vertices, axis=0).max())
        convex = distance <= drawn_to and volume_change <= TOL.hull_volume_per_distance * drawn_to / size
    changes = []
    if not convex:
        deviation = f"{format_length(distance)} from its hull (volume {100 * volume_change:.3g} % below)"
        if not hull:
            raise refuse(f"not convex, {deviation}; ask for its convex hull (hull=True, --hull) to use it")
        changes.append(f"replaced by its convex hull: the body lies up to {deviation}")
    block = {"id": block_id, "vertices": vertices.tolist(), "faces": faces}
    if support:
        block["support"] = True
    entity = body_entity(body)
    if entity:
        block["entity"] = entity
    report = BlockReport(block_id, body.name, volume, 0.0 if convex else distance,
                         0.0 if convex else volume_change, tuple(changes))
    return block, report


def body_entity(body):
    """The entity of a body (seed 002 sec. 2.1): the properties named by ENTITY_FIELDS as its fields,
    its other properties (a mason mark, a phase) and its layer's full path (``layer``) as attributes."""
    strings = {key: text for key, text in body.properties if text}
    entity = {key: strings.pop(key) for key in ENTITY_FIELDS if key in strings}
    if body.layer:
        strings["layer"] = body.layer
    if strings:
        entity["attributes"] = strings
    return entity
