"""Closed bodies of an OBJ, STL, PLY or glTF/GLB file, read by trimesh.

A file is read as a scene: each node that places a mesh (with its transform) gives the mesh's
closed pieces (engine.io.cad.pieces), each a body named by the node (OBJ: the object; STL and PLY,
which have no names: the file's stem); a glTF node's or mesh's ``extras`` give its entity fields.
Nodes are taken in the order of their names, so that ids never depend on how trimesh walks its
scene graph.
"""
import numpy as np
import trimesh

from extrados.engine.errors import ModelError
from extrados.engine.io.cad.bodies import ENTITY_FIELDS, Body, check_finite
from extrados.engine.io.cad.pieces import closed_pieces

#: The file types trimesh reads for us, by suffix.
MESH_TYPES = {".obj": "obj", ".stl": "stl", ".ply": "ply", ".glb": "glb", ".gltf": "gltf"}


def read_scene(path):
    """The trimesh Scene of a mesh file; ModelError naming the file when trimesh cannot read it."""
    file_type = MESH_TYPES[path.suffix.lower()]
    try:
        return trimesh.load(str(path), file_type=file_type, force="scene", process=False, split_objects=True,
                            group_material=False)
    # trimesh's parsers raise whatever their format code meets on a file that is not of its type
    # (struct.error, KeyError, IndexError, ValueError, UnicodeDecodeError, ...): all mean "not this format".
    except Exception as exc:   # noqa: BLE001
        raise ModelError(f"not a readable {file_type.upper()} file ({type(exc).__name__}: {exc})",
                         path=str(path)) from None


def mesh_bodies(path, to_metres, to_z_up):
    """The closed bodies of a mesh file, in metres and z up.

    Parameters
    ----------
    path : pathlib.Path
    to_metres : float or None
        Metres per file unit; None: metres.
    to_z_up : (3, 3) float64
        Rotation from the file's axes to z up.

    Returns
    -------
    list of Body, one per connected piece of each mesh node
    """
    scene = read_scene(path)
    to_metres = 1.0 if to_metres is None else to_metres
    node_extras = {child: data.get("metadata") or {} for (_, child), data in scene.graph.transforms.edge_data.items()}
    bodies = []
    for node in sorted(scene.graph.nodes_geometry):
        transform, geometry_name = scene.graph[node]
        mesh = scene.geometry[geometry_name]
        if not isinstance(mesh, trimesh.Trimesh):
            raise ModelError(f"node '{node}' is a {type(mesh).__name__}, not a closed surface", path=str(path))
        name = path.stem if path.suffix.lower() in (".stl", ".ply") else node
        check_finite(name, mesh.vertices, str(path))
        mesh = welded(mesh)
        placed = to_metres * trimesh.transform_points(mesh.vertices, transform) @ to_z_up.T
        properties = entity_extras({**(mesh.metadata or {}), **node_extras.get(node, {})})
        bodies.extend(piece_body(name, placed, mesh.faces[piece], properties)
                      for piece in closed_pieces(placed, mesh.faces))
    return bodies


def entity_extras(extras):
    """(key, text) pairs of the entity fields among a glTF node's and its mesh's ``extras`` (Blender
    writes an object's custom properties there). Only ENTITY_FIELDS are taken: trimesh keeps its own
    keys beside them (units, shape)."""
    return tuple((key, str(extras[key])) for key in ENTITY_FIELDS
                 if isinstance(extras.get(key), (str, int, float)) and not isinstance(extras[key], bool))


def welded(mesh):
    """A copy of a mesh with its equal vertices merged: an STL repeats each corner in every triangle."""
    mesh = mesh.copy()
    mesh.merge_vertices(merge_tex=True, merge_norm=True)
    return mesh


def piece_body(name, vertices, triangles, properties):
    """A Body of the triangles of one piece, with only the vertices they use."""
    used, corners = np.unique(triangles, return_inverse=True)
    return Body(name, vertices[used], corners.reshape(-1, 3).tolist(), properties=properties)
