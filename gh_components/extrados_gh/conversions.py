# -*- coding: utf-8 -*-
"""Conversions between Rhino geometry and the Extrados model and result documents.

The Grasshopper components use this module inside Rhino (RhinoCommon under
IronPython 2.7 in Rhino 7, CPython 3 in Rhino 8) and the tests use it with
``rhino3dm`` under CPython. Both libraries name their attributes alike, so the
functions here take geometry objects and read only what the two share:

- ``Mesh.Vertices`` (``Point3dAt(i)``, or a list of Point3f with X, Y, Z) and ``Mesh.Faces``
  (RhinoCommon gives a MeshFace with A, B, C, D; rhino3dm a 4-tuple; a
  triangle repeats its third index as D);
- ``Brep.Vertices[i].Location``, ``Brep.Edges[i].IsLinear()``,
  ``Brep.Faces[i].IsPlanar()``, ``.OrientationIsReversed``, ``.Loops``,
  ``.OuterLoop.Trims`` and each trim's start vertex;
- ``Point3d``, ``Vector3d``, ``Line``, ``Polyline`` and ``Transform`` of the
  geometry module a caller passes in (``Rhino.Geometry`` or ``rhino3dm``).

Model side (DESIGN sec. 4): `block_from_mesh`, `block_from_brep`,
`blocks_from_geometry`, `point_load`, `model_document`. Result side (DESIGN
sec. 5): `contact_force_lines`, `joint_resultant_vectors`, `thrust_polylines`,
`block_matrices`, `block_transforms`, `transformed_copy`.

Python 2.7 and 3 syntax, standard library only: no numpy, no f-strings.
"""
from __future__ import division

import math
from functools import reduce

TYPE_CHECKING = False
if TYPE_CHECKING:  # read by the type check only (tests/test_gh_typecheck.py): RhinoCommon types
    from typing import Optional, Union  # noqa: F401
    import Rhino.Geometry  # noqa: F401

MODEL_FORMAT = "extrados.model/1"
#: m/s^2, the g of DESIGN sec. 7 (the generators use the same value).
STANDARD_GRAVITY = 9.81
#: Name of the material and joint law a document gets when the caller names none, and their
#: values: the model schema's defaults (engine/io/model_schema.json; tests/test_gh_conversions.py
#: checks that they agree, since this package cannot import the engine).
DEFAULT_MATERIAL = "stone"
DEFAULT_DENSITY = 2000.0
DEFAULT_JOINT = "dry"
DEFAULT_FRICTION = 0.6


class Tolerance(object):
    """The tolerances of the conversions, each relative to the block's size (its bounding-box diagonal).

    Rhino models are drawn to a document tolerance (typically 0.001 of a unit), far coarser
    than floating point; these values sit between the two.
    """
    #: Two mesh or brep vertices closer than this (times the size) are one vertex: Rhino meshes
    #: often repeat a corner once per face so that each face carries its own normal.
    weld = 1e-9
    #: A face whose area is below this (times the size squared) is degenerate.
    area = 1e-12
    #: A block whose volume is below this (times the size cubed) is degenerate.
    volume = 1e-12
    #: Two adjacent faces are coplanar when the sine of the angle between their normals and the
    #: distances of their vertices to each other's plane (times the size) are below this.
    coplanar = 1e-9
    #: A face's vertex off its plane, or a block vertex outside a face plane, by more than this
    #: (times the size) makes the block non-planar or non-convex: the engine's own check
    #: (engine.tolerance TOL.convexity_relative), made here so the component names the block.
    convexity = 1e-6


TOL = Tolerance()


class ConversionError(ValueError):
    """A piece of geometry that cannot become a block; ``block_id`` names it."""

    def __init__(self, message, block_id=None):
        if block_id is not None:
            message = "block '%s': %s" % (block_id, message)
        ValueError.__init__(self, message)
        self.block_id = block_id


# --- small vector helpers (tuples of 3 floats) --------------------------------

def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _scaled(a, s):
    return (a[0] * s, a[1] * s, a[2] * s)


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _norm(a):
    return math.sqrt(_dot(a, a))


def _finite(values):
    for v in values:
        if math.isinf(v) or math.isnan(v):
            return False
    return True


def _count(collection):
    """Number of items of a RhinoCommon list (``Count``) or a rhino3dm one (``len``)."""
    count = getattr(collection, "Count", None)
    if isinstance(count, int):
        return count
    return len(collection)


def _xyz(point):
    # type: (Union[Rhino.Geometry.Point3d, Rhino.Geometry.Point3f, Rhino.Geometry.Vector3d]) -> tuple
    """(x, y, z) floats of a Point3d, Point3f or Vector3d."""
    return (float(point.X), float(point.Y), float(point.Z))


def _size(points):
    """Diagonal of the bounding box of points, m."""
    lo = [min(p[k] for p in points) for k in range(3)]
    hi = [max(p[k] for p in points) for k in range(3)]
    return _norm(_sub(hi, lo))


def _polygon_normal(points):
    """Newell's normal of a polygon: twice its vector area, pointing where the loop turns counter-clockwise."""
    n = (0.0, 0.0, 0.0)
    for i in range(len(points)):
        n = _add(n, _cross(points[i], points[(i + 1) % len(points)]))
    return n


# --- geometry -> block --------------------------------------------------------

def _mesh_face_indices(face):
    # type: (Rhino.Geometry.MeshFace) -> list
    """Vertex indices of a mesh face: a RhinoCommon MeshFace or a rhino3dm 4-tuple."""
    if isinstance(face, (tuple, list)):
        a, b, c, d = face
    else:
        a, b, c, d = face.A, face.B, face.C, face.D
    return [a, b, c] if c == d else [a, b, c, d]


def _weld(points, faces, tolerance):
    """Merge coincident vertices, drop unused ones and repeated indices in a face.

    Returns
    -------
    vertices : list of (x, y, z)
    faces : list of list of int, indices into vertices; faces with under 3 distinct corners are kept
        (as they are) for the caller to reject.
    """
    representative = []
    kept = []
    for p in points:
        for k, q in enumerate(kept):
            if _norm(_sub(p, q)) <= tolerance:
                representative.append(k)
                break
        else:
            representative.append(len(kept))
            kept.append(p)
    welded = []
    for face in faces:
        loop = []
        for i in face:
            j = representative[i]
            if not loop or loop[-1] != j:
                loop.append(j)
        if len(loop) > 1 and loop[0] == loop[-1]:
            loop.pop()
        welded.append(loop)
    used = sorted(set(j for loop in welded for j in loop))
    new_index = dict((j, n) for n, j in enumerate(used))
    return [kept[j] for j in used], [[new_index[j] for j in loop] for loop in welded]


def _signed_volume(vertices, faces):
    """Volume of a closed polyhedron, positive when its faces point outward (divergence theorem).

    V = 1/6 sum over faces of sum over fan triangles (p0, pi, pi+1) of p0 . (pi x pi+1).
    """
    volume = 0.0
    for face in faces:
        p0 = vertices[face[0]]
        for i in range(1, len(face) - 1):
            volume += _dot(p0, _cross(vertices[face[i]], vertices[face[i + 1]]))
    return volume / 6.0


def _edge_uses(faces):
    """Map of each undirected edge (i, j), i < j, to its directed uses [(face, i, j), ...]."""
    uses = {}
    for f, face in enumerate(faces):
        for k in range(len(face)):
            i, j = face[k], face[(k + 1) % len(face)]
            uses.setdefault((min(i, j), max(i, j)), []).append((f, i, j))
    return uses


def _closed_block(block_id, points, faces, material, support, merge_coplanar, what):
    """The block entry of a polyhedron given by points and face loops, checked and oriented outward."""
    for p in points:
        if not _finite(p):
            raise ConversionError("%s has a vertex with a non-finite coordinate %r" % (what, list(p)), block_id)
    if len(points) < 4 or len(faces) < 4:
        raise ConversionError("%s is degenerate (%d vertices, %d faces)" % (what, len(points), len(faces)),
                              block_id)
    size = _size(points)
    if not size > 0.0:
        raise ConversionError("%s is degenerate (all vertices coincide)" % what, block_id)
    vertices, loops = _weld(points, faces, TOL.weld * size)
    for f, loop in enumerate(loops):
        if len(loop) < 3 or _norm(_polygon_normal([vertices[i] for i in loop])) <= 2.0 * TOL.area * size ** 2:
            raise ConversionError("%s face %d is degenerate (zero area)" % (what, f), block_id)
    uses = _edge_uses(loops)
    naked = sum(1 for u in uses.values() if len(u) == 1)
    if naked:
        raise ConversionError("%s is not closed (%d naked edges)" % (what, naked), block_id)
    shared = sum(1 for u in uses.values() if len(u) > 2)
    if shared:
        raise ConversionError("%s is not manifold (%d edges shared by more than two faces)" % (what, shared),
                              block_id)
    flipped = sum(1 for u in uses.values() if u[0][1] == u[1][1])
    if flipped:
        raise ConversionError("%s faces are not consistently oriented (%d edges)" % (what, flipped), block_id)
    volume = _signed_volume(vertices, loops)
    if abs(volume) <= TOL.volume * size ** 3:
        raise ConversionError("%s is degenerate (zero volume)" % what, block_id)
    if volume < 0.0:
        loops = [list(reversed(loop)) for loop in loops]
    if merge_coplanar:
        loops = _merged_coplanar(vertices, loops, size)
    _check_convex(vertices, loops, TOL.convexity * size, what, block_id)
    return {"id": block_id, "vertices": [list(p) for p in vertices], "faces": loops,
            "material": material if material is not None else DEFAULT_MATERIAL, "support": bool(support)}


def _check_convex(vertices, loops, tolerance, what, block_id):
    """ConversionError when a face is not planar or a vertex lies outside a face's plane (faces outward)."""
    for f, loop in enumerate(loops):
        corners = [vertices[i] for i in loop]
        normal = _polygon_normal(corners)
        unit = _scaled(normal, 1.0 / _norm(normal))
        centre = _scaled(reduce(_add, corners), 1.0 / len(corners))
        off_plane = max(abs(_dot(_sub(c, centre), unit)) for c in corners)
        if off_plane > tolerance:
            raise ConversionError("%s face %d is not planar (a corner is %.3g m off its plane)" % (what, f, off_plane),
                                  block_id)
        outside = max(_dot(_sub(v, centre), unit) for v in vertices)
        if outside > tolerance:
            raise ConversionError("%s is not convex: a vertex lies %.3g m outside face %d (split it into convex blocks)"
                                  % (what, outside, f), block_id)


def _merged_coplanar(vertices, loops, size):
    """Faces with each region of adjacent coplanar faces made one polygon, where that polygon is simple and convex.

    A region whose boundary is not one loop, or whose loop turns the wrong way at a corner, keeps its faces
    (the engine takes coplanar triangles as they are).
    """
    normals = []
    for loop in loops:
        n = _polygon_normal([vertices[i] for i in loop])
        normals.append(_scaled(n, 1.0 / _norm(n)))
    uses = _edge_uses(loops)
    neighbours = [[] for _ in loops]
    for u in uses.values():
        (f, _, _), (g, _, _) = u
        neighbours[f].append(g)
        neighbours[g].append(f)

    def coplanar(f, g):
        if _norm(_cross(normals[f], normals[g])) > TOL.coplanar or _dot(normals[f], normals[g]) < 0.0:
            return False
        origin = vertices[loops[f][0]]
        return all(abs(_dot(_sub(vertices[i], origin), normals[f])) <= TOL.coplanar * size for i in loops[g])

    region = [None] * len(loops)  # type: list
    regions = []
    for start in range(len(loops)):
        if region[start] is not None:
            continue
        region[start] = len(regions)
        members, stack = [start], [start]
        while stack:
            f = stack.pop()
            for g in neighbours[f]:
                if region[g] is None and coplanar(start, g):
                    region[g] = region[start]
                    members.append(g)
                    stack.append(g)
        regions.append(sorted(members))

    merged = []
    for members in regions:
        polygon = _region_polygon(vertices, [loops[f] for f in members], normals[members[0]]) \
            if len(members) > 1 else None
        if polygon is None:
            merged.extend(loops[f] for f in members)
        else:
            merged.append(polygon)
    return merged


def _region_polygon(vertices, loops, normal):
    """The one convex boundary loop of a region of coplanar faces, or None."""
    directed = set()
    for loop in loops:
        for k in range(len(loop)):
            directed.add((loop[k], loop[(k + 1) % len(loop)]))
    following = {}
    for i, j in directed:
        if (j, i) in directed:
            continue
        if i in following:
            return None
        following[i] = j
    start = next(iter(following))
    polygon = [start]
    while True:
        nxt = following[polygon[-1]]
        if nxt == start:
            break
        if nxt in polygon or nxt not in following:
            return None
        polygon.append(nxt)
    if len(polygon) != len(following):
        return None
    for k in range(len(polygon)):
        a, b, c = (vertices[polygon[k - 1]], vertices[polygon[k]], vertices[polygon[(k + 1) % len(polygon)]])
        if _dot(_cross(_sub(b, a), _sub(c, b)), normal) < 0.0:
            return None
    return polygon


def block_from_mesh(mesh, block_id, material=None, support=False, merge_coplanar=True):
    # type: (Rhino.Geometry.Mesh, str, Optional[str], bool, bool) -> dict
    """The model-document block of a closed mesh.

    Parameters
    ----------
    mesh : Rhino.Geometry.Mesh or rhino3dm.Mesh
        A closed mesh of a convex block, m. Coincident vertices are welded; faces may point
        in or out (a block pointing inward is turned inside out).
    block_id : str
        The block's id.
    material : str, optional
        Material name; `DEFAULT_MATERIAL` when None.
    support : bool
        Whether the block is fixed.
    merge_coplanar : bool
        Make each region of adjacent coplanar faces one polygon where that polygon is convex.

    Returns
    -------
    dict
        ``{"id", "vertices", "faces", "material", "support"}`` (DESIGN sec. 4).

    Raises
    ------
    ConversionError
        An open, non-manifold, inconsistently oriented or degenerate mesh, or a non-finite vertex.
    """
    if mesh is None:
        raise ConversionError("no mesh given", block_id)
    vertices = mesh.Vertices
    # Point3dAt gives the double-precision vertices where the mesh keeps them; indexing gives Point3f
    at = getattr(vertices, "Point3dAt", None) or vertices.__getitem__
    points = [_xyz(at(i)) for i in range(_count(vertices))]
    faces = mesh.Faces
    loops = [_mesh_face_indices(faces[i]) for i in range(_count(faces))]
    return _closed_block(block_id, points, loops, material, support, merge_coplanar, "mesh")


def _trim_start_vertex(trim):
    # type: (Rhino.Geometry.BrepTrim) -> int
    """Index of a trim's start vertex: rhino3dm's StartVertexIndex or RhinoCommon's StartVertex.VertexIndex."""
    index = getattr(trim, "StartVertexIndex", None)
    if index is None:
        index = trim.StartVertex.VertexIndex
    return index


def _trim_edge(brep, trim):
    # type: (Rhino.Geometry.Brep, Rhino.Geometry.BrepTrim) -> Optional[Rhino.Geometry.BrepEdge]
    """The brep edge under a trim (RhinoCommon's Edge; rhino3dm's EdgeIndex into the brep's edges), or None for a
    singular trim."""
    if hasattr(trim, "Edge"):
        return trim.Edge
    index = getattr(trim, "EdgeIndex", -1)
    return brep.Edges[index] if index is not None and index >= 0 else None


def _extrusion_brep(extrusion):
    # type: (Rhino.Geometry.Extrusion) -> Rhino.Geometry.Brep
    """The brep of an extrusion, its kinky faces split (RhinoCommon's ToBrep(splitKinkyFaces); rhino3dm's
    ToBrep takes the same flag)."""
    return extrusion.ToBrep(True)


def _within(test, tolerance):
    """A RhinoCommon / rhino3dm shape test (IsPlanar, IsLinear) to ``tolerance``, or to its default when None."""
    return bool(test() if tolerance is None else test(float(tolerance)))


def _is_true(value):
    """A Rhino flag that one library gives as a property and the other as a method."""
    return bool(value() if callable(value) else value)


def block_from_brep(brep, block_id, material=None, support=False, merge_coplanar=True, tolerance=None):
    # type: (Rhino.Geometry.Brep, str, Optional[str], bool, bool, Optional[float]) -> dict
    """The model-document block of a closed brep with planar faces and straight edges.

    Each brep face becomes one polygon, the vertices of its outer loop in order (reversed
    where the face's orientation is reversed against its surface).

    Parameters
    ----------
    brep : Rhino.Geometry.Brep or rhino3dm.Brep
        A closed solid with planar faces without holes, m. An Extrusion is turned into a brep.
    block_id, material, support, merge_coplanar
        As in `block_from_mesh`.
    tolerance : float, optional
        The document's absolute tolerance (model units): a face within it of a plane is planar, an edge
        within it of a line is straight. Without one the libraries' default of about 2e-10 applies, which
        refuses lofted or split NURBS faces drawn to a usual tolerance.

    Returns
    -------
    dict
        The block entry (DESIGN sec. 4).

    Raises
    ------
    ConversionError
        An open brep, a curved face or edge, a face with a hole, or degenerate geometry.
    """
    if brep is None:
        raise ConversionError("no brep given", block_id)
    if not hasattr(brep, "Faces") and hasattr(brep, "ToBrep"):
        brep = _extrusion_brep(brep)
    if not _is_true(brep.IsSolid):
        raise ConversionError("brep is not a closed solid", block_id)
    vertices = brep.Vertices
    points = [_xyz(vertices[i].Location) for i in range(_count(vertices))]
    loops = []
    faces = brep.Faces
    for f in range(_count(faces)):
        face = faces[f]
        if not _within(face.IsPlanar, tolerance):
            raise ConversionError("brep face %d is not planar (only planar faces make a block)" % f, block_id)
        if _count(face.Loops) != 1:
            raise ConversionError("brep face %d has a hole (%d loops)" % (f, _count(face.Loops)), block_id)
        trims = face.OuterLoop.Trims
        loop = []
        for t in range(_count(trims)):
            trim = trims[t]
            edge = _trim_edge(brep, trim)
            if edge is None:
                raise ConversionError("brep face %d has a singular edge" % f, block_id)
            if not _within(edge.IsLinear, tolerance):
                raise ConversionError("brep face %d has a curved edge" % f, block_id)
            loop.append(_trim_start_vertex(trim))
        if _is_true(face.OrientationIsReversed):
            loop.reverse()
        loops.append(loop)
    return _closed_block(block_id, points, loops, material, support, merge_coplanar, "brep")


def _is_mesh(item):
    return hasattr(item, "TopologyEdges") or (hasattr(item, "Faces") and hasattr(item, "Normals"))


def blocks_from_geometry(items, ids=None, supports=None, materials=None, merge_coplanar=True, tolerance=None):
    """Block entries of a list of meshes and breps (mixed).

    Parameters
    ----------
    items : list of Mesh, Brep or Extrusion
    ids : list of str, optional
        One id per item; ``"b0", "b1", ...`` when None.
    supports : list of bool, or collection of ids, optional
        Per item flags, or the ids of the support blocks; none when None.
    materials : str or list of str, optional
        One material for all, or one per item.
    tolerance : float, optional
        The document's absolute tolerance for breps (`block_from_brep`).

    Returns
    -------
    list of dict

    Raises
    ------
    ConversionError
        A piece that is not a closed convex-faced solid, a repeated id, or lists of the wrong length.
    """
    items = list(items)
    ids = ["b%d" % i for i in range(len(items))] if ids is None else [str(i) for i in ids]
    if len(ids) != len(items):
        raise ConversionError("%d ids for %d pieces of geometry" % (len(ids), len(items)))
    seen = set()
    for block_id in ids:
        if block_id in seen:
            raise ConversionError("the id is used twice", block_id)
        seen.add(block_id)
    if supports is None:
        flags = [False] * len(items)
    else:
        supports = list(supports)
        if all(isinstance(s, bool) for s in supports):
            if len(supports) != len(items):
                raise ConversionError("%d support flags for %d pieces of geometry" % (len(supports), len(items)))
            flags = supports
        else:
            names = set(str(s) for s in supports)
            unknown = names - seen
            if unknown:
                raise ConversionError("support ids %s name no block" % sorted(unknown))
            flags = [block_id in names for block_id in ids]
    if materials is None or not isinstance(materials, (list, tuple)):
        materials = [materials] * len(items)
    elif len(materials) != len(items):
        raise ConversionError("%d materials for %d pieces of geometry" % (len(materials), len(items)))
    blocks = []
    for item, block_id, flag, material in zip(items, ids, flags, materials):
        if _is_mesh(item):
            blocks.append(block_from_mesh(item, block_id, material, flag, merge_coplanar))
        elif hasattr(item, "Faces") or hasattr(item, "ToBrep"):
            blocks.append(block_from_brep(item, block_id, material, flag, merge_coplanar, tolerance))
        else:
            raise ConversionError("cannot make a block of a %s" % type(item).__name__, block_id)
    return blocks


# --- the model document ---------------------------------------------------------

def point_load(block_id, point, force, live=False):
    """A point load entry (DESIGN sec. 4): force (N) at point (m) on a block; ``live`` loads a load factor multiplies.

    ``point`` and ``force`` may be Point3d / Vector3d or 3-sequences.
    """
    return {"kind": "point", "block": str(block_id), "point": vector3(point, "point"),
            "force": vector3(force, "force"), "live": bool(live)}


def vector3(value, name):
    """[x, y, z] of a Point3d, Vector3d or 3-sequence; ConversionError naming ``name`` unless 3 finite numbers."""
    if hasattr(value, "X"):
        xyz = list(_xyz(value))
    else:
        xyz = [float(v) for v in value]
    if len(xyz) != 3 or not _finite(xyz):
        raise ConversionError("%s must be 3 finite numbers; got %r" % (name, xyz))
    return xyz


def model_document(blocks, materials=None, joints=None, default_joint=None, loads=None, gravity=None,
                   settings=None, joint_assignments=None, support_motion=None):
    """A model document ``extrados.model/1`` (DESIGN sec. 4) with the keys the generators write.

    Parameters
    ----------
    blocks : list of dict
        Block entries (`block_from_mesh`, `block_from_brep`, `blocks_from_geometry`).
    materials : dict, optional
        ``{name: {"density": kg/m^3}}``; ``{"stone": {"density": 2000}}`` when None.
    joints : dict, optional
        ``{name: law}``; one Coulomb law ``"dry"`` (friction 0.6) when None.
    default_joint : str, optional
        The joint between blocks not assigned one; the only joint, or ``"dry"``, when None.
    loads : list of dict, optional
        Load entries (`point_load`, or body accelerations); the key is left out when empty.
    gravity : 3-sequence or Vector3d, optional
        m/s^2; ``[0, 0, -9.81]`` when None.
    settings, joint_assignments, support_motion : optional
        Copied into the document when given.

    Returns
    -------
    dict

    Raises
    ------
    ConversionError
        A block naming a material the document lacks, a repeated block id, or a default joint not in joints.
    """
    materials = {DEFAULT_MATERIAL: {"density": DEFAULT_DENSITY}} if materials is None else dict(materials)
    joints = {DEFAULT_JOINT: {"law": "coulomb", "friction": DEFAULT_FRICTION}} if joints is None else dict(joints)
    if default_joint is None:
        default_joint = DEFAULT_JOINT if DEFAULT_JOINT in joints or len(joints) != 1 else next(iter(joints))
    if default_joint not in joints:
        raise ConversionError("default joint %r is not among the joints %s" % (default_joint, sorted(joints)))
    seen = set()
    copies = []
    for block in blocks:
        if block["id"] in seen:
            raise ConversionError("the id is used twice", block["id"])
        seen.add(block["id"])
        if block.get("material") not in materials:
            raise ConversionError("material %r is not among the materials %s" % (block.get("material"),
                                                                                   sorted(materials)), block["id"])
        copies.append(dict(block))
    document = {
        "format": MODEL_FORMAT,
        "units": "SI",
        "gravity": [0.0, 0.0, -STANDARD_GRAVITY] if gravity is None else vector3(gravity, "gravity"),
        "materials": materials,
        "joints": joints,
        "default_joint": default_joint,
        "blocks": copies,
    }
    if loads:
        document["loads"] = list(loads)
    if joint_assignments:
        document["joint_assignments"] = list(joint_assignments)
    if support_motion:
        document["support_motion"] = dict(support_motion)
    if settings:
        document["settings"] = dict(settings)
    return document


# --- result -> geometry ---------------------------------------------------------

def rhino_point(geometry, xyz):
    """A ``Point3d`` of the geometry module at a 3-sequence."""
    return geometry.Point3d(float(xyz[0]), float(xyz[1]), float(xyz[2]))


def contact_force_lines(result, scale, geometry):
    """One line per contact carrying a force: from the contact point along the force times ``scale``.

    Parameters
    ----------
    result : dict
        A result document (DESIGN sec. 5).
    scale : float
        m per N.
    geometry : module
        ``Rhino.Geometry`` or ``rhino3dm``.

    Returns
    -------
    list of (Line, str)
        Each line (length ``|force| * scale``) with the contact's state (stick, slip, open).
    """
    lines = []
    for contact in result.get("contacts", []):
        force = contact["force"]
        if _norm(force) > 0.0:
            start = contact["point"]
            end = _add(start, _scaled(force, scale))
            line = geometry.Line(rhino_point(geometry, start), rhino_point(geometry, end))
            lines.append((line, contact.get("state")))
    return lines


def joint_resultant_vectors(result, scale, geometry):
    """The resultant of each joint (interface) drawn at its centre of pressure.

    Returns
    -------
    list of (Point3d, Vector3d, Line)
        Centre, force times ``scale`` (m per N) and the line from the centre along it.
    """
    vectors = []
    for interface in result.get("interfaces", []):
        centre = interface.get("centre")
        if centre is None or not _finite(centre):
            continue
        force = _scaled(interface["force"], scale)
        start = rhino_point(geometry, centre)
        vectors.append((start, geometry.Vector3d(force[0], force[1], force[2]),
                        geometry.Line(start, rhino_point(geometry, _add(centre, force)))))
    return vectors


def thrust_polylines(result, geometry):
    """Each thrust line of a result as ``(name, Polyline)``, the points in the result's order."""
    polylines = []
    for line in result.get("thrust_lines", []):
        points = [rhino_point(geometry, p) for p in line.get("points", []) if p is not None and _finite(p)]
        polylines.append((line.get("name"), geometry.Polyline(points)))
    return polylines


def _rotation_rows(q):
    """Rows of the rotation matrix of a unit quaternion [w, x, y, z] (engine.geometry.quaternion.quat_to_rows)."""
    w, x, y, z = [float(v) for v in q]
    return ((1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)),
            (2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)),
            (2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)))


def block_matrices(result, frame_index, reference_index=0):
    """4x4 matrices taking each block from a reference frame of a dynamic result to another frame.

    A block posed at centre c and rotation R maps body points b to c + R b, so the motion from
    frame r to frame k is x -> c_k + R_k R_r^T (x - c_r).

    Parameters
    ----------
    result : dict
        A result document with ``frames`` (DESIGN sec. 5) and ``blocks`` in the frames' order.
    frame_index : int
        The frame to move to (negative counts from the end).
    reference_index : int
        The frame the geometry is drawn at; the first frame by default.

    Returns
    -------
    dict
        Block id -> 4x4 nested list (row-major, last row [0, 0, 0, 1]).
    """
    frames = result.get("frames") or []
    if not frames:
        raise ConversionError("the result has no frames (only dynamic results do)")
    frame, reference = frames[frame_index], frames[reference_index]
    ids = [b["id"] for b in result["blocks"]]
    matrices = {}
    for n, block_id in enumerate(ids):
        rk, rr = _rotation_rows(frame["orientations"][n]), _rotation_rows(reference["orientations"][n])
        # R = R_k R_r^T: entry (i, j) = sum_m R_k[i][m] R_r[j][m]
        rotation = [[sum(rk[i][m] * rr[j][m] for m in range(3)) for j in range(3)] for i in range(3)]
        ck, cr = frame["positions"][n], reference["positions"][n]
        translation = [ck[i] - sum(rotation[i][j] * cr[j] for j in range(3)) for i in range(3)]
        matrices[block_id] = [rotation[0] + [translation[0]], rotation[1] + [translation[1]],
                              rotation[2] + [translation[2]], [0.0, 0.0, 0.0, 1.0]]
    return matrices


def rhino_transform(matrix, geometry):
    """A ``Transform`` of the geometry module holding a 4x4 nested list."""
    transform = geometry.Transform(1.0)
    for i in range(4):
        for j in range(4):
            setattr(transform, "M%d%d" % (i, j), float(matrix[i][j]))
    return transform


def block_transforms(result, frame_index, geometry, reference_index=0):
    """Block id -> ``Transform`` from the reference frame to ``frame_index`` (see `block_matrices`)."""
    return dict((block_id, rhino_transform(m, geometry))
                for block_id, m in block_matrices(result, frame_index, reference_index).items())


def transformed_copy(geometry_object, transform):
    # type: (Rhino.Geometry.GeometryBase, Rhino.Geometry.Transform) -> Rhino.Geometry.GeometryBase
    """A transformed duplicate of a mesh or brep; the original is left as it is."""
    copy = geometry_object.Duplicate()
    copy.Transform(transform)
    return copy


def mesh_from_block(block, geometry):
    """A closed ``Mesh`` of the geometry module drawing a block entry (DESIGN sec. 4).

    Triangles and quads are kept; a larger face, convex as every block face is, is split
    into a fan of triangles from its first corner.
    """
    mesh = geometry.Mesh()
    # double-precision corners: rhino3dm's AddPoint3d; RhinoCommon's Add once the list holds doubles
    if hasattr(mesh.Vertices, "UseDoublePrecisionVertices"):
        mesh.Vertices.UseDoublePrecisionVertices = True
    add = getattr(mesh.Vertices, "AddPoint3d", None) or mesh.Vertices.Add
    for x, y, z in block["vertices"]:
        add(float(x), float(y), float(z))
    for face in block["faces"]:
        if len(face) in (3, 4):
            mesh.Faces.AddFace(*[int(i) for i in face])
        else:
            for k in range(1, len(face) - 1):
                mesh.Faces.AddFace(int(face[0]), int(face[k]), int(face[k + 1]))
    normals = getattr(mesh, "Normals", None)
    if hasattr(normals, "ComputeNormals"):
        normals.ComputeNormals()
    return mesh


def block_contains(block, point, tolerance):
    """How far (m) a point lies outside a block: the largest distance above its face planes.

    Zero or less means inside or on the block; a point within ``tolerance`` of a face
    counts as on it. Faces are outward (DESIGN sec. 4), so a face's normal by its corners'
    cross products points away from the block.
    """
    vertices = block["vertices"]
    outside = -float("inf")
    for face in block["faces"]:
        corners = [vertices[i] for i in face]
        normal = _polygon_normal(corners)
        length = _norm(normal)
        if length == 0.0:
            continue
        outside = max(outside, _dot(_sub(point_xyz(point), corners[0]), normal) / length)
    return outside - tolerance


def point_xyz(point):
    """(x, y, z) floats of a Point3d or a 3-sequence."""
    return _xyz(point) if hasattr(point, "X") else tuple(float(v) for v in point)


def block_size(blocks):
    """The diagonal (m) of the bounding box of block entries: a length scale for drawings."""
    points = [p for block in blocks for p in block["vertices"]]
    return _size(points) if points else 0.0
