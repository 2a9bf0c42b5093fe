"""Closed bodies of a Rhino .3dm file, read by rhino3dm.

Each Brep, Extrusion or Mesh object is a body named by the object's Name, with its layer's full
path and its user strings. A Brep (an Extrusion as its Brep) whose faces are planar with straight
edges is read exactly: a face is the polygon of its outer loop's vertices, wound by the face's
orientation. A Brep with curved faces is read from the render meshes Rhino saved with it; rhino3dm
itself makes none, so such a Brep written without them is refused. The file's model unit
(Settings.ModelUnitSystem) gives the scale unless the caller gives one.
"""
from collections import Counter

import numpy as np
import rhino3dm
import trimesh

from extrados.engine.errors import ModelError
from extrados.engine.io.cad.bodies import Body
from extrados.engine.io.cad.mesh_files import welded

#: Metres per unit of the Rhino unit systems a drawing of masonry is made in.
RHINO_UNITS = {"Millimeters": 1e-3, "Centimeters": 1e-2, "Decimeters": 0.1, "Meters": 1.0, "Inches": 0.0254,
               "Feet": 0.3048}
#: A face is planar when it is within this of its plane, in the file's units: rhino3dm's own default
#: absolute tolerance of a model (Settings.ModelAbsoluteTolerance) when the file gives none.
PLANAR_TOLERANCE_DEFAULT = 1e-3


def read_model(path):
    """The File3dm of a .3dm file; ModelError naming the file when it is not one."""
    model = rhino3dm.File3dm.Read(str(path))
    if model is None:
        raise ModelError("not a readable Rhino .3dm file", path=str(path))
    return model


def file_unit(model):
    """Metres per unit of a File3dm's model unit; 1 when the unit is none or not a length unit listed."""
    return RHINO_UNITS.get(str(model.Settings.ModelUnitSystem).rsplit(".", 1)[-1], 1.0)


def planar_brep_faces(brep, tolerance):
    """Vertices and polygons of a Brep whose faces are planar, bounded by straight edges and without
    openings; None when it has another face.

    Returns
    -------
    vertices : (n, 3) float64, file units
    faces : list of polygons of vertex indices, counter-clockwise about the outward normal
    """
    if not all(face.IsPlanar(tolerance) and len(face.Loops) == 1 for face in brep.Faces):
        return None
    if not all(edge.IsLinear(tolerance) for edge in brep.Edges):
        return None
    vertices = np.array([[v.Location.X, v.Location.Y, v.Location.Z] for v in brep.Vertices], float)
    faces = []
    for face in brep.Faces:
        # a trim's start vertex walks the outer loop counter-clockwise about the surface normal
        polygon = [trim.StartVertexIndex for trim in face.OuterLoop.Trims]
        faces.append(polygon[::-1] if face.OrientationIsReversed else polygon)
    return vertices, faces


def render_mesh(brep):
    """The render meshes Rhino saved with a Brep's faces, joined and welded; None when there are none."""
    meshes = [face.GetMesh(rhino3dm.MeshType.Any) for face in brep.Faces]
    if any(mesh is None for mesh in meshes):
        return None
    return joined([mesh_arrays(mesh) for mesh in meshes])


def mesh_arrays(mesh):
    """(vertices (n, 3), triangles (m, 3)) of a rhino3dm Mesh, its quads split in two."""
    vertices = np.array([[p.X, p.Y, p.Z] for p in mesh.Vertices], float)
    triangles = []
    for k in range(len(mesh.Faces)):
        a, b, c, d = mesh.Faces[k]
        triangles.append((a, b, c))
        if d != c:
            triangles.append((a, c, d))
    return vertices, np.array(triangles, np.int64).reshape(-1, 3)


def joined(parts):
    """One welded mesh (vertices, faces) of the (vertices, triangles) parts."""
    offsets = np.cumsum([0] + [len(v) for v, _ in parts])
    mesh = welded(trimesh.Trimesh(np.concatenate([v for v, _ in parts]),
                                  np.concatenate([t + o for (_, t), o in zip(parts, offsets)]), process=False))
    return np.asarray(mesh.vertices), np.asarray(mesh.faces).tolist()


def object_surface(geometry, tolerance):
    """(vertices, faces) of a Brep, Extrusion, Surface or Mesh in file units; None for other objects
    (curves, points, text), which are no bodies; the string 'curved' for a curved Brep saved without meshes."""
    if isinstance(geometry, rhino3dm.Extrusion):
        geometry = geometry.ToBrep(False)
    elif isinstance(geometry, rhino3dm.Surface):   # a sphere or a torus is stored as one surface
        geometry = rhino3dm.Brep.CreateFromSurface(geometry)
    if isinstance(geometry, rhino3dm.Mesh):
        return joined([mesh_arrays(geometry)])
    if not isinstance(geometry, rhino3dm.Brep):
        return None
    return planar_brep_faces(geometry, tolerance) or render_mesh(geometry) or "curved"


def rhino_bodies(path, to_metres, to_z_up):
    """The closed bodies of a .3dm file, in metres and z up.

    Parameters
    ----------
    path : pathlib.Path
    to_metres : float or None
        Metres per file unit; None: the file's own model unit.
    to_z_up : (3, 3) float64
        Rotation from the file's axes to z up.

    Returns
    -------
    list of Body, in the file's object order
    """
    model = read_model(path)
    scale = file_unit(model) if to_metres is None else to_metres
    tolerance = model.Settings.ModelAbsoluteTolerance or PLANAR_TOLERANCE_DEFAULT
    layers = {layer.Index: layer.FullPath for layer in model.Layers}
    bodies, skipped = [], Counter()
    for index, item in enumerate(model.Objects):
        attributes = item.Attributes
        name = attributes.Name or f"object{index}"
        surface = object_surface(item.Geometry, tolerance)
        if surface is None:
            skipped[type(item.Geometry).__name__] += 1
            continue
        if isinstance(surface, str):
            raise ModelError(f"body '{name}': curved faces and no render mesh in the file (mesh it in Rhino, "
                             f"or save the file from Rhino, which stores render meshes)", path=str(path))
        vertices, faces = surface
        bodies.append(Body(name, scale * vertices @ to_z_up.T, faces, layers.get(attributes.LayerIndex, ""),
                           tuple(attributes.GetUserStrings())))
    if not bodies:
        found = ", ".join(f"{count} {kind}" for kind, count in sorted(skipped.items())) or "no objects"
        raise ModelError(f"no Brep, Extrusion, Surface or Mesh object in the file ({found}; a block instance "
                         f"must be exploded first)", path=str(path))
    return bodies
