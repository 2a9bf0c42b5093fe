"""The components that build a model: Blocks, Supports, Material & Joint, Loads, Ground Motion and
the generators (Arch, Wall, Spandrel Wall, Cylinder).

Each function takes the component's `runtime.Context` and its inputs in the order of the
component's ``metadata.json``; an input left unconnected arrives as None (a list input as an
empty list).
"""
from __future__ import absolute_import

import csv
import json
import math

from . import conversions, entities
from .client import DEFAULT_URL, ExtradosClient
from .items import DEFAULT, Block, GroundMotion, Load, Material, unwrapped
from .runtime import outputs

#: Seconds a component waits for each answer of the service by default: long enough for the
#: first analysis after installing, when the engine compiles its kernels (they are cached after).
DEFAULT_TIMEOUT_S = 120.0
#: Id prefix of the support blocks made from a Supports component's geometry.
SUPPORT_PREFIX = "support"
#: The ground slab of the Supports component: it overhangs the blocks' footprint by this fraction
#: of the model's size on every side, and is this fraction of that size thick.
GROUND_OVERHANG = 0.1
GROUND_THICKNESS = 0.05
GROUND_ID = "ground"
#: A point load's point may lie this far outside its block (times the model's size): points
#: picked on a face in Rhino sit on it to the document's tolerance, not exactly.
LOAD_POINT_TOLERANCE = 1e-6


def present(values):
    """The connected values of a list input (Grasshopper sends None for empty branches)."""
    return [v for v in (values or []) if v is not None]


def number(value, name, default, minimum=None, positive=False):
    """A finite float input, its default when unconnected; ValueError naming the input otherwise."""
    if value is None:
        return default
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        raise ValueError("%s must be a finite number" % name)
    if positive and not value > 0.0:
        raise ValueError("%s must be positive; got %g" % (name, value))
    if minimum is not None and value < minimum:
        raise ValueError("%s must be at least %g; got %g" % (name, minimum, value))
    return value


def client_of(service):
    """The Service component's client, or one for the local service at the default address."""
    return service if service is not None else ExtradosClient(DEFAULT_URL, timeout=DEFAULT_TIMEOUT_S)


def block_entries(blocks):
    """The block dicts of a Blocks input (Block items, or dicts from a script)."""
    return [unwrapped(block, Block) for block in present(blocks)]


# --- Blocks and Supports ---------------------------------------------------------------

def block_ids(ids, count):
    """One id per piece: the ids given, or one prefix numbered (``"arch"`` -> arch0, arch1, ...)."""
    ids = present(ids)
    if not ids:
        return None
    if len(ids) == 1 and count > 1:
        return ["%s%d" % (ids[0], i) for i in range(count)]
    return [str(i) for i in ids]


def block_entities(entity, count):
    """One entity dict (or None) per piece: the Entity items in order (an empty item: none), or one for all."""
    given = list(entity or [])
    if not given:
        return [None] * count
    if len(given) == 1:
        given = given * count
    if len(given) != count:
        raise ValueError("Entity: %d entities for %d pieces of geometry (give one per piece, or one for all)"
                         % (len(given), count))
    return [entities.entity_from_text(value, "Entity[%d]" % i) for i, value in enumerate(given)]


@outputs("Blocks", "Ids")
def blocks(context, geometry, ids, material, entity):
    """Blocks: closed convex Breps or Meshes -> Extrados blocks (checked, faces turned outward), each with
    its entity (seed 002 sec. 2.1) when Entity gives one."""
    pieces = present(geometry)
    if not pieces:
        raise ValueError("connect closed convex Breps or Meshes to Geometry")
    name = None if material is None else (material.name if isinstance(material, Material) else str(material))
    entries = conversions.blocks_from_geometry(pieces, block_ids(ids, len(pieces)), materials=name,
                                               tolerance=context.document_tolerance())
    for entry, given in zip(entries, block_entities(entity, len(entries))):
        if given is not None:
            entry["entity"] = given
    units = context.document_units()
    if units not in (None, "Meters"):
        context.warn("the Rhino document is in %s but Extrados works in metres: scale the geometry to metres "
                     "(e.g. by 0.001 from millimetres) before Blocks" % units.lower())
    context.message("%d blocks" % len(entries))
    return [Block(e, material_given=name is not None) for e in entries], [e["id"] for e in entries]


def ground_slab(entries):
    """A support box under the blocks' footprint, its top at their lowest point."""
    points = [p for e in entries for p in e["vertices"]]
    size = conversions.block_size(entries)
    lo = [min(p[k] for p in points) - GROUND_OVERHANG * size for k in range(2)]
    hi = [max(p[k] for p in points) + GROUND_OVERHANG * size for k in range(2)]
    top = min(p[2] for p in points)
    bottom = top - GROUND_THICKNESS * size
    vertices = [[lo[0], lo[1], bottom], [hi[0], lo[1], bottom], [hi[0], hi[1], bottom], [lo[0], hi[1], bottom],
                [lo[0], lo[1], top], [hi[0], lo[1], top], [hi[0], hi[1], top], [lo[0], hi[1], top]]
    faces = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]]
    return {"id": GROUND_ID, "vertices": vertices, "faces": faces, "material": conversions.DEFAULT_MATERIAL,
            "support": True}


@outputs("Blocks", "Supports")
def supports(context, blocks, ids, geometry, ground):
    """Supports: fix blocks by id, add support solids, and optionally a ground slab under everything."""
    items = [b if isinstance(b, Block) else Block(b) for b in present(blocks)]
    if not items:
        raise ValueError("connect the Blocks output of a Blocks component")
    fixed = set(str(i) for i in present(ids))
    known = set(b.id for b in items)
    unknown = sorted(fixed - known)
    if unknown:
        raise ValueError("Ids: no block is called %s (the blocks are %s)" % (", ".join("'%s'" % u for u in unknown),
                                                                          _some(sorted(known))))
    out = []
    for item in items:
        data = dict(item.data)
        data["support"] = bool(data.get("support")) or item.id in fixed
        out.append(Block(data, item.material_given))
    solids = present(geometry)
    if solids:
        extra = conversions.blocks_from_geometry(solids, ["%s%d" % (SUPPORT_PREFIX, i) for i in range(len(solids))],
                                                 supports=[True] * len(solids), tolerance=context.document_tolerance())
        out.extend(Block(e, material_given=False) for e in extra)
    if ground:
        out.append(Block(ground_slab([b.data for b in out]), material_given=False))
    support_ids = [b.id for b in out if b.data["support"]]
    if not support_ids:
        context.warn("no block is a support: the structure will fall (fix some by id, or set Ground)")
    context.message("%d supports" % len(support_ids))
    return out, support_ids


def _some(names, shown=8):
    return ", ".join(names[:shown]) + (", ..." if len(names) > shown else "")


# --- Material & Joint --------------------------------------------------------------------

#: Joint laws of the model document (DESIGN sec. 4).
LAWS = ("coulomb", "mohr_coulomb", "cohesive")
#: The numbers of a cohesive mode, in the order the Mode I and Mode II inputs take them.
MODE_FIELDS = ("stiffness", "strength", "energy", "energy_ratio", "ultimate_opening")
#: Seed 004 Tables 1 and 2 (limestone with lime mortar, Bordeaux): the cohesive law's modes when none
#: is given. Pa/m, Pa, J/m2, -, m.
SEED_004_MODES = {"mode_I": (1.5e11, 4.0e4, 0.79, 0.5, 1.4e-4), "mode_II": (5.8e10, 1.1e5, 34.0, 0.5, 2.51e-3)}


def cohesive_mode(values, name, default):
    """A cohesive mode from five numbers (stiffness Pa/m, strength Pa, energy J/m2, energy ratio, ultimate m)."""
    values = present(values) or list(default)
    if len(values) != len(MODE_FIELDS):
        raise ValueError("%s takes %d numbers: %s; got %d" % (name, len(MODE_FIELDS), ", ".join(MODE_FIELDS),
                                                              len(values)))
    return dict((field, number(v, "%s %s" % (name, field), None, minimum=0.0))
                for field, v in zip(MODE_FIELDS, values))


@outputs("Material")
def material(context, name, density, friction, law, normal_stiffness, shear_stiffness, cohesion, tensile_strength,
             mode_i, mode_ii):
    """Material & Joint: density of the blocks and the law of their joints (DESIGN sec. 4).

    coulomb: dry friction, rigid or compliant with the stiffnesses (Pa/m, seed 000 eq. 43).
    mohr_coulomb: lime mortar as cohesion and tensile strength (Pa), lost for good once exceeded (seed 002).
    cohesive: mortar by the fracture law of seed 004, Mode I and Mode II five numbers each (default:
    the paper's Tables 1 and 2); friction is the broken joint's.
    """
    name = str(name) if name else DEFAULT.name
    kind = str(law or "coulomb")
    if kind not in LAWS:
        raise ValueError("Law must be one of %s; got '%s'" % (", ".join(LAWS), kind))
    joint = {"law": kind, "friction": number(friction, "Friction", DEFAULT.data["law"]["friction"], minimum=0.0)}
    if kind == "coulomb":
        if normal_stiffness is not None:
            joint["normal_stiffness"] = number(normal_stiffness, "Normal stiffness", None, positive=True)
        if shear_stiffness is not None:
            joint["shear_stiffness"] = number(shear_stiffness, "Shear stiffness", None, positive=True)
    elif kind == "mohr_coulomb":
        if cohesion is None or tensile_strength is None:
            raise ValueError("a mohr_coulomb joint needs Cohesion and Tensile strength (Pa)")
        joint["cohesion"] = number(cohesion, "Cohesion", None, minimum=0.0)
        joint["tensile_strength"] = number(tensile_strength, "Tensile strength", None, minimum=0.0)
    else:
        if not present(mode_i) or not present(mode_ii):
            context.remark("Mode I and Mode II not given: seed 004 Tables 1 and 2 (limestone, lime mortar)")
        joint["mode_I"] = cohesive_mode(mode_i, "Mode I", SEED_004_MODES["mode_I"])
        joint["mode_II"] = cohesive_mode(mode_ii, "Mode II", SEED_004_MODES["mode_II"])
    inputs_of_law = (("Normal stiffness", normal_stiffness, "coulomb"), ("Shear stiffness", shear_stiffness, "coulomb"),
                     ("Cohesion", cohesion, "mohr_coulomb"), ("Tensile strength", tensile_strength, "mohr_coulomb"),
                     ("Mode I", present(mode_i) or None, "cohesive"), ("Mode II", present(mode_ii) or None, "cohesive"))
    ignored = [label for label, value, owner in inputs_of_law if value is not None and owner != kind]
    if ignored:
        context.warn("%s: not used by a %s joint" % (", ".join(ignored), kind))
    item = Material({"name": name, "density": number(density, "Density", DEFAULT.data["density"], positive=True),
                     "joint": name, "law": joint})
    context.message("%s, %s" % (name, kind))
    return (item,)


# --- Loads and Ground Motion ----------------------------------------------------------------

def block_at(point, entries, tolerance):
    """The id of the block a point lies in or on: the one it lies deepest in (the first of them for a
    point on a face two blocks share); None when it is on none."""
    depth, found = None, None
    for entry in entries:
        outside = conversions.block_contains(entry, point, tolerance)
        if outside <= 0.0 and (depth is None or outside < depth):
            depth, found = outside, entry["id"]
    return found


@outputs("Loads")
def loads(context, blocks, points, forces, ids, acceleration, live):
    """Loads: point loads (N at points on blocks) and a body acceleration (m/s2) of all blocks.

    Each point finds its block among Blocks, unless Ids names them (one id, or one per point).
    Live loads are the ones a load factor analysis multiplies (default: live).
    """
    live = True if live is None else bool(live)
    points, forces = present(points), present(forces)
    if len(forces) == 1 and len(points) > 1:
        forces = forces * len(points)
    if len(points) != len(forces):
        raise ValueError("%d points for %d forces: give one force, or one per point" % (len(points), len(forces)))
    names = [str(i) for i in present(ids)]
    if names and len(names) not in (1, len(points)):
        raise ValueError("%d ids for %d points: give one id, or one per point" % (len(names), len(points)))
    entries = block_entries(blocks)
    tolerance = LOAD_POINT_TOLERANCE * (conversions.block_size(entries) or 1.0)
    out = []
    for k, (point, force) in enumerate(zip(points, forces)):
        if names:
            block_id = names[0] if len(names) == 1 else names[k]
        else:
            if not entries:
                raise ValueError("connect Blocks (to find the block under each point) or give Ids")
            block_id = block_at(point, entries, tolerance)
            if block_id is None:
                raise ValueError("Points[%d] %s lies on no block" % (k, list(conversions.point_xyz(point))))
        out.append(Load(conversions.point_load(block_id, point, force, live)))
    if acceleration is not None:
        vector = conversions.vector3(acceleration, "Acceleration")
        out.append(Load({"kind": "body_acceleration", "blocks": "all", "acceleration": vector, "live": live}))
    context.message("%d loads" % len(out))
    return (out,)


@outputs("Motion")
def ground_motion(context, direction, frequency, peak_acceleration, duration, record, record_step, from_rest=None,
                  velocity=None):
    """Ground Motion: the supports' motion, a sine or a record of accelerations (m/s2 along Direction), or a
    constant velocity.

    A Record (numbers along Direction, or vectors) with its Record step (s) wins over a Velocity (m/s, a vector,
    for Duration s or the whole run), which wins over the sine. From rest starts the sine with the ground at rest
    (displacement D (1 - cos 2 pi f t)) instead of at speed (D sin 2 pi f t, seed 000).
    """
    axis = conversions.vector3(direction if direction is not None else (1.0, 0.0, 0.0), "Direction")
    length = math.sqrt(sum(a * a for a in axis))
    if length == 0.0:
        raise ValueError("Direction must not be zero")
    axis = [a / length for a in axis]
    samples = present(record)
    if samples:
        dt = number(record_step, "Record step", None, positive=True)
        if dt is None:
            raise ValueError("a Record needs its Record step (s between samples)")
        if hasattr(samples[0], "X") or isinstance(samples[0], (list, tuple)):
            accelerations = [conversions.vector3(s, "Record[%d]" % k) for k, s in enumerate(samples)]
        else:
            accelerations = [[number(s, "Record[%d]" % k, None) * a for a in axis] for k, s in enumerate(samples)]
        data = {"kind": "record", "dt": dt, "accelerations": accelerations}
    elif velocity is not None:
        data = {"kind": "velocity", "velocity": conversions.vector3(velocity, "Velocity")}
        if duration is not None:
            data["duration"] = number(duration, "Duration", None, positive=True)
    else:
        data = {"kind": "sine", "direction": axis, "frequency": number(frequency, "Frequency", 1.0, positive=True),
                "peak_acceleration": number(peak_acceleration, "Peak acceleration", 0.2 * conversions.STANDARD_GRAVITY)}
        if duration is not None:
            data["duration"] = number(duration, "Duration", None, positive=True)
        if from_rest:
            data["start"] = "from_rest"
    item = GroundMotion(data)
    context.message(item.summary())
    return (item,)


# --- survey ----------------------------------------------------------------------------------

def table_rows(text):
    """The rows (dicts) of a stone table given as text: a JSON list of objects, or CSV with a header line."""
    text = (text or "").strip()
    if not text:
        return []
    if text.startswith("["):
        try:
            rows = json.loads(text)
        except ValueError as error:
            raise ValueError("Stones is not JSON: %s" % error)
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise ValueError("Stones as JSON must be a list of objects {stone, type, ...}")
        return rows
    lines = [line for line in csv.reader(text.splitlines()) if any(field.strip() for field in line)]
    header = [column.strip().lower() for column in lines[0]]
    for k, fields in enumerate(lines[1:]):
        if len(fields) != len(header):
            raise ValueError("Stones, line %d: %d fields, but the header has %d" % (k + 2, len(fields), len(header)))
    return [dict((column, field.strip()) for column, field in zip(header, fields)) for fields in lines[1:]]


def depth_table(items):
    """{stone type: depth in m} of Depths items ``TYPE DEPTH`` (e.g. ``stretcher 0.25``)."""
    depths = {}
    for k, item in enumerate(present(items)):
        parts = str(item).split()
        if len(parts) != 2:
            raise ValueError("Depths[%d] must be TYPE DEPTH (e.g. stretcher 0.25); got %r" % (k, str(item)))
        depths[parts[0]] = number(parts[1], "Depths[%d]" % k, None, positive=True)
    return depths


@outputs("Blocks", "Meshes", "Ids", "Report")
def survey(context, points, stone_ids, stones, depths, viewpoint, outline, service):
    """Survey: the stones of a survey (points on each stone's visible face, labelled by stone) as blocks, each face
    extruded into the wall by its type's depth away from the Viewpoint (seed 002; the service's /v1/survey)."""
    points, labels = present(points), [str(s) for s in present(stone_ids)]
    if not points:
        raise ValueError("connect Points: the surveyed points of the stones' faces")
    if len(labels) == 1 and len(points) > 1:
        labels = labels * len(points)
    if len(labels) != len(points):
        raise ValueError("%d Stone ids for %d Points: give one id per point" % (len(labels), len(points)))
    rows = []
    for label, point in zip(labels, points):
        x, y, z = conversions.point_xyz(point)
        rows.append({"stone": label, "x": x, "y": y, "z": z})
    body = {"points": rows, "stones": table_rows(stones), "depths": depth_table(depths)}
    if viewpoint is not None:
        body["viewpoint"] = conversions.vector3(viewpoint, "Viewpoint")
    if outline:
        body["outline"] = str(outline)
    answer = client_of(service).survey(body)
    blocks = answer["model"]["blocks"]
    report = ["%s: plane RMS %s mm, depth %s m" % (stone["stone"], _millimetres(stone.get("plane_rms_m")),
                                                   stone.get("depth_m")) for stone in answer["report"]["stones"]]
    context.message("%d blocks" % len(blocks))
    return ([Block(dict((k, v) for k, v in b.items() if k != "material"), material_given=False) for b in blocks],
            [conversions.mesh_from_block(b, context.geometry) for b in blocks], [b["id"] for b in blocks], report)


def _millimetres(metres):
    return "-" if metres is None else "%.2f" % (1e3 * metres)


# --- generators ------------------------------------------------------------------------------

def generated(context, service, name, params):
    """Blocks, material, loads, meshes and ids of the model the service's generator ``name`` builds."""
    given = dict((key, value) for key, value in params.items() if value is not None)
    document = client_of(service).example(name, **given)
    joint = document["default_joint"]
    materials = [Material({"name": key, "density": value["density"], "joint": joint,
                           "law": document["joints"][joint]}) for key, value in sorted(document["materials"].items())]
    blocks = [Block(b) for b in document["blocks"]]
    meshes = [conversions.mesh_from_block(b, context.geometry) for b in document["blocks"]]
    loads = [Load(load) for load in document.get("loads", [])]
    context.message("%d blocks" % len(blocks))
    return blocks, materials[0], loads, meshes, [b.id for b in blocks]


GENERATOR_OUTPUTS = ("Blocks", "Material", "Loads", "Meshes", "Ids")


@outputs(*GENERATOR_OUTPUTS)
def arch(context, radius, thickness, depth, voussoirs, friction, density, service):
    """Arch: a semicircular arch of voussoirs on a ground slab (engine.generators.arch)."""
    return generated(context, service, "arch", {"radius": radius, "thickness": thickness, "depth": depth,
                                                "voussoirs": voussoirs, "friction": friction, "density": density})


@outputs(*GENERATOR_OUTPUTS)
def wall(context, courses, blocks_per_course, block_length, block_height, depth, friction, density, service):
    """Wall: a running-bond wall of box blocks on a ground slab (engine.generators.wall)."""
    return generated(context, service, "wall", {"courses": courses, "blocks_per_course": blocks_per_course,
                                                "block_length": block_length, "block_height": block_height,
                                                "depth": depth, "friction": friction, "density": density})


@outputs(*GENERATOR_OUTPUTS)
def spandrel_wall(context, length, height, thickness, opening_radius, ring_thickness, voussoirs, course_height,
                  block_length, friction, density, service):
    """Spandrel Wall: a wall with a semicircular arch opening (seed 000 fig. 8)."""
    return generated(context, service, "spandrel_wall", {
        "length": length, "height": height, "thickness": thickness, "opening_radius": opening_radius,
        "ring_thickness": ring_thickness, "voussoirs": voussoirs, "course_height": course_height,
        "block_length": block_length, "friction": friction, "density": density})


@outputs(*GENERATOR_OUTPUTS)
def cylinder(context, radius, thickness, height, courses, ring_width, blocks_per_ring, block_length, gap_radius,
             gap_sides, friction, density, service):
    """Cylinder: rings of blocks, unsupported over a central polygon (seed 000 fig. 10)."""
    return generated(context, service, "cylinder", {
        "radius": radius, "thickness": thickness, "height": height, "courses": courses, "ring_width": ring_width,
        "blocks_per_ring": blocks_per_ring, "block_length": block_length, "gap_radius": gap_radius,
        "gap_sides": gap_sides, "friction": friction, "density": density})
