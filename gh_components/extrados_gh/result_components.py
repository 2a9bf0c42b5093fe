"""The components that draw a result: Contact Forces, Joint Resultants, Thrust Lines, Mechanism, Block Stress,
Blocks At Frame and Block Entities.

Forces are drawn as lines from their point of application, ``scale`` metres per newton. Left
unset, the scale draws the largest force as `AUTO_SCALE_FRACTION` of the model's size, so a
first look needs no tuning.
"""
from __future__ import absolute_import

import json
import math

from . import conversions, entities
from .items import Result
from .model_components import number, present
from .runtime import outputs

#: The largest force of a drawing is this fraction of the model's size when no scale is given.
AUTO_SCALE_FRACTION = 0.25
#: Colours of the browser viewer (server/static/scene.js), RGB.
STATE_COLOURS = {"stick": (31, 111, 209), "slip": (242, 140, 40), "open": (154, 160, 166)}
#: Blue (compression) through white to red (tension): the ramp of stress values.
COMPRESSION_COLOUR, ZERO_COLOUR, TENSION_COLOUR = (33, 102, 172), (247, 247, 247), (178, 24, 43)
STRESS_INVARIANTS = ("p", "q")
#: Block Stress's strain invariants (seed 001 eq. 18-19), cumulated on the centroid cells of a Simulate run.
STRAIN_INVARIANTS = ("shear", "dilation")
CONVENTIONAL_LINES = ("minimum_thrust", "maximum_thrust", "limit")


def result_of(result):
    """The Result item of an Analyze or Simulate output; ValueError when unconnected."""
    if not isinstance(result, Result):
        raise ValueError("connect the Result output of Analyze or Simulate")
    return result


def _length(vector):
    return math.sqrt(sum(float(c) * float(c) for c in vector))


def force_scale(result, forces, scale):
    """``scale`` (m/N), or the one drawing the largest of ``forces`` at a quarter of the model's size."""
    if scale is not None:
        return number(scale, "Scale", None, positive=True)
    largest = max([_length(f) for f in forces] or [0.0])
    size = conversions.block_size(result.model["blocks"])
    return AUTO_SCALE_FRACTION * size / largest if largest > 0.0 else 0.0


def _vector(geometry, xyz):
    return geometry.Vector3d(float(xyz[0]), float(xyz[1]), float(xyz[2]))


@outputs("Lines", "Vectors", "Points", "States", "Colours", "Magnitudes", "Bonds")
def contact_forces(context, result, scale):
    """Contact Forces: one line per loaded contact point, coloured stick, slip or open (N), and the bond of
    each (intact, damaged or broken for mortar joints, empty for dry ones)."""
    result = result_of(result)
    contacts = [c for c in result.data.get("contacts", []) if _length(c["force"]) > 0.0]
    factor = force_scale(result, [c["force"] for c in contacts], scale)
    drawn = conversions.contact_force_lines({"contacts": contacts}, factor, context.geometry)
    lines = [line for line, _ in drawn]
    states = [state for _, state in drawn]
    context.message("%d forces" % len(lines))
    return (lines, [_vector(context.geometry, c["force"]) for c in contacts],
            [conversions.rhino_point(context.geometry, c["point"]) for c in contacts], states,
            [context.colour(STATE_COLOURS.get(s, STATE_COLOURS["open"])) for s in states],
            [_length(c["force"]) for c in contacts], [c.get("bond", "") for c in contacts])


@outputs("Lines", "Centres", "Vectors", "Eccentricity", "In kernel", "Normal force", "Shear force", "Bonds",
         "Damage")
def joint_resultants(context, result, scale):
    """Joint Resultants: each joint's resultant at its centre of pressure, with its eccentricity (m)
    from the joint polygon's centroid and whether it lies in the kernel (no tension needed), and for
    mortar joints their bond (intact, damaged, broken) and mean damage (0 intact to 1 broken)."""
    result = result_of(result)
    joints = [j for j in result.data.get("interfaces", []) if j.get("centre") is not None]
    factor = force_scale(result, [j["force"] for j in joints], scale)
    drawn = conversions.joint_resultant_vectors({"interfaces": joints}, factor, context.geometry)
    context.message("%d joints" % len(drawn))
    return ([line for _, _, line in drawn], [centre for centre, _, _ in drawn],
            [_vector(context.geometry, j["force"]) for j in joints], [j.get("eccentricity") for j in joints],
            [j.get("in_kernel") for j in joints], [j.get("normal_force") for j in joints],
            [j.get("shear_force") for j in joints], [j.get("bond", "") for j in joints],
            [j.get("damage") for j in joints])


@outputs("Effective", "Conventional", "Names", "Thrusts", "Safety factor")
def thrust_lines(context, result):
    """Thrust Lines: the effective line (centres of pressure, joint to joint) and, when Analyze asked
    for them, the conventional minimum- and maximum-thrust lines and the limit line."""
    result = result_of(result)
    lines = result.data.get("thrust_lines", [])
    for line in lines:
        if line.get("error"):
            context.warn("%s line: %s" % (line.get("name"), line["error"]))
    drawn = dict(conversions.thrust_polylines({"thrust_lines": [ln for ln in lines if ln.get("points")]},
                                              context.geometry))
    effective = drawn.get("effective")
    conventional = [drawn[name] for name in CONVENTIONAL_LINES if name in drawn]
    names = [name for name in CONVENTIONAL_LINES if name in drawn]
    thrusts = [ln.get("thrust") for ln in lines if ln.get("name") in names]
    safety = [ln.get("geometric_safety_factor") for ln in lines if ln.get("geometric_safety_factor") is not None]
    if effective is None and not lines:
        context.warn("the result has no thrust line: name the arch's blocks in Analyze's Chain")
    context.message("%d lines" % ((effective is not None) + len(conventional)))
    return effective, conventional, names, thrusts, safety[0] if safety else None


@outputs("Hinges", "Hinge blocks", "Velocities", "Moving", "Sliding", "Factor")
def mechanism(context, result, scale):
    """Mechanism: the collapse mechanism of a load factor result, read at the first factor that fails: the
    hinges' pivots with the block pairs they join, each moving block's velocity as a line from its centre
    (the fastest a quarter of the model's size unless Scale, m per unit of the dimensionless velocity, is
    set), the moving blocks' ids, the sliding block pairs and the factor the mechanism is read at."""
    result = result_of(result)
    found = (result.data.get("load_factor_report") or {}).get("mechanism")
    if not found:
        if result.data.get("analysis") != "load_factor":
            raise ValueError("connect the Result of a load factor analysis (Analyze with Type load_factor)")
        context.warn("no mechanism: the structure stands at the largest factor tried (max_factor)")
        return [], [], [], [], [], None
    geometry = context.geometry
    hinges = found.get("hinges", [])
    centres = dict((b["id"], b["position"]) for b in result.data.get("blocks", []))
    moving = [b for b in found.get("blocks", []) if _length(b["velocity"]) > 0.0 and b["id"] in centres]
    largest = max([_length(b["velocity"]) for b in moving] or [0.0])
    if scale is not None:
        factor = number(scale, "Scale", None, positive=True)
    else:
        size = conversions.block_size(result.model["blocks"])
        factor = AUTO_SCALE_FRACTION * size / largest if largest > 0.0 else 0.0
    lines = []
    for block in moving:
        start = centres[block["id"]]
        end = [c + factor * v for c, v in zip(start, block["velocity"])]
        lines.append(geometry.Line(conversions.rhino_point(geometry, start), conversions.rhino_point(geometry, end)))
    context.message("%d hinges" % len(hinges))
    return ([conversions.rhino_point(geometry, h["pivot"]) for h in hinges], ["|".join(h["blocks"]) for h in hinges],
            lines, [b["id"] for b in moving], ["|".join(pair) for pair in found.get("sliding", [])],
            found.get("factor"))


def ramp(value, largest):
    """Colour of a stress value on the blue-white-red ramp reaching its ends at +-``largest``."""
    t = 0.0 if largest <= 0.0 else max(-1.0, min(1.0, value / largest))
    end = TENSION_COLOUR if t > 0.0 else COMPRESSION_COLOUR
    t = abs(t)
    return tuple(int(round(z + t * (e - z))) for z, e in zip(ZERO_COLOUR, end))


@outputs("Centres", "Values", "Colours", "Axes", "Principal", "Ids", "Kappa")
def block_stress(context, result, invariant, scale):
    """Block Stress: each block's average stress (seed 001): p (mean pressure) or q (deviatoric), Pa,
    and its principal axes drawn through the block's centre, ``scale`` metres per pascal; or the cumulated
    shear or dilation of its centroid cell (seed 001 eq. 18-19) with the strain indicator kappa (eq. 59)."""
    result = result_of(result)
    invariant = str(invariant or "p")
    if invariant in STRAIN_INVARIANTS:
        return block_strain(context, result, invariant)
    if invariant not in STRESS_INVARIANTS:
        raise ValueError("Invariant must be p, q, shear or dilation; got '%s'" % invariant)
    blocks = [b for b in result.data.get("blocks", []) if not b.get("support") and b.get("principal_stress")]
    values = [b[invariant] for b in blocks]
    largest = max([abs(v) for v in values] or [0.0])
    # p is positive in compression: its colour is that of -p, compression blue as the principal values
    signed = [-v for v in values] if invariant == "p" else values
    principal = [v for b in blocks for v in b["principal_stress"]["values"]]
    peak = max([abs(v) for v in principal] or [0.0])
    if scale is not None:
        factor = number(scale, "Scale", None, positive=True)
    else:
        size = conversions.block_size(result.model["blocks"])
        factor = AUTO_SCALE_FRACTION * size / peak if peak > 0.0 else 0.0
    g = context.geometry
    centres, axes = [], []
    for b in blocks:
        centre = b["position"]
        centres.append(conversions.rhino_point(g, centre))
        for value, direction in zip(b["principal_stress"]["values"], b["principal_stress"]["directions"]):
            half = [0.5 * factor * abs(value) * d for d in direction]
            axes.append(g.Line(conversions.rhino_point(g, [c - h for c, h in zip(centre, half)]),
                               conversions.rhino_point(g, [c + h for c, h in zip(centre, half)])))
    context.message("%s, %d blocks" % (invariant, len(blocks)))
    return (centres, values, [context.colour(ramp(v, largest)) for v in signed], axes, principal,
            [b["id"] for b in blocks], None)


def block_strain(context, result, invariant):
    """Block Stress's outputs for a strain invariant: the blocks of the strain cells, their cumulated shear or
    dilation (dimensionless, coloured white to red by its largest), no axes, and kappa at the run's end."""
    strain = result.data.get("strain")
    if not strain:
        raise ValueError("the result has no strains: they come with Simulate runs of walls whose blocks lie in a "
                         "plane")
    values = list(strain[invariant])
    largest = max([abs(v) for v in values] or [0.0])
    positions = dict((b["id"], b["position"]) for b in result.data["blocks"])
    centres = [conversions.rhino_point(context.geometry, positions[block_id]) for block_id in strain["blocks"]]
    kappa = strain["history"]["indicator"][-1]
    context.message("%s, %d cells, kappa %.3g" % (invariant, len(values), kappa))
    return (centres, values, [context.colour(ramp(v, largest)) for v in values], [], [], list(strain["blocks"]),
            kappa)


@outputs("Geometry", "Transforms", "Time", "Ids")
def blocks_at_frame(context, result, frame, geometry, ids):
    """Blocks At Frame: the blocks posed as in one frame of a dynamic result.

    Without Geometry the blocks are drawn as meshes of the model; with Geometry (and Ids when its
    order is not the model's), those objects are moved instead, keeping their detail.
    """
    result = result_of(result)
    frames = result.data.get("frames") or []
    if not frames:
        raise ValueError("the result has no frames: Blocks At Frame needs a Simulate result")
    index = int(number(frame, "Frame", 0.0))
    if not -len(frames) <= index < len(frames):
        raise ValueError("Frame %d is outside the result's %d frames (0 to %d)" % (index, len(frames),
                                                                                 len(frames) - 1))
    transforms = conversions.block_transforms(result.data, index, context.geometry)
    model_blocks = dict((b["id"], b) for b in result.model["blocks"])
    pieces = present(geometry)
    names = [str(i) for i in present(ids)] or [b["id"] for b in result.model["blocks"]][:len(pieces)]
    if pieces and len(names) != len(pieces):
        raise ValueError("%d ids for %d pieces of geometry" % (len(names), len(pieces)))
    unknown = [n for n in names if n not in transforms]
    if unknown:
        raise ValueError("Ids: no block is called '%s' in the result" % unknown[0])
    if not pieces:
        names = [b["id"] for b in result.model["blocks"]]
        pieces = [conversions.mesh_from_block(model_blocks[n], context.geometry) for n in names]
    moved = [conversions.transformed_copy(p, transforms[n]) for p, n in zip(pieces, names)]
    time = frames[index]["t"]
    context.message("t = %.3f s" % time)
    return moved, [transforms[n] for n in names], time, names


@outputs("Ids", "Building", "Wall", "Leaf", "Course", "Stone", "Type", "Attributes", "Levels", "Values", "Colours",
         "Legend", "Legend colours", "Meshes")
def block_entities(context, result, level):
    """Block Entities: each block's entity (seed 002 sec. 2.1) as parallel lists, one item per block in
    model order, and the blocks coloured by one level's values, for filtering and previews."""
    result = result_of(result)
    blocks = result.data.get("blocks", [])
    found = [b.get("entity") for b in blocks]
    levels = entities.entity_levels(found)
    if not levels:
        context.warn("no block has an entity: give Blocks an Entity input, or a model whose blocks have one")
    level = str(level) if level else ("course" if "course" in levels else (levels or ["course"])[0])
    if levels and level not in levels:
        raise ValueError("Level '%s' is not a level of these blocks; they have %s" % (level, ", ".join(levels)))
    values = [entities.entity_value(e, level) for e in found]
    legend = entities.level_values(values)
    colours = entities.value_colours(legend)
    named = [[entities.entity_value(e, name) for e in found] for name in entities.ENTITY_LEVELS]
    attributes = [json.dumps(e["attributes"], sort_keys=True) if e and e.get("attributes") else "" for e in found]
    model_blocks = dict((b["id"], b) for b in result.model["blocks"])
    meshes = [conversions.mesh_from_block(model_blocks[b["id"]], context.geometry) for b in blocks]
    context.message("%s: %d values" % (level, len(legend)))
    return tuple([[b["id"] for b in blocks]] + named + [
        attributes, levels, values, [context.colour(colours[v]) for v in values], legend,
        [context.colour(colours[v]) for v in legend], meshes])
