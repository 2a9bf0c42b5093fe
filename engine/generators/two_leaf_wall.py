"""Wall of two ashlar facings with a core between them (seed 002 sec. 5, the Tour Saint-Laurent).

"The Tour Saint-Laurent walls being constructed of two ashlar facings with mortar infill
in-between": the wall runs along x, centred on x = 0, from z = 0 up, ``thickness`` along y:

    outer facing   y in [-t/2, -t/2 + d]      ashlar of length l, running bond (engine.generators.wall)
    core           y in [-t/2 + d, t/2 - d]   smaller blocks: each half-block cell of a course
                                              cut into ``core_pieces`` across the core
    inner facing   y in [t/2 - d, t/2]        the outer facing's bond

with d the facing depth. Every ``through_stone_courses``-th course (the course numbered
through_stone_courses - 1 first) bonds the two facings together: every other ashlar of it (the
even ones from -x) is a through stone, spanning the whole thickness in place of the two facing
stones and the core cells behind them. The core's joints lie over the facings' vertical joints and
half-way between them, so the cells of a course fit a through stone exactly.

Joints: the facings' joints are dry Coulomb ("dry"); the core's (core to core, and core to
facing) are "core": dry as well when ``core_mortar`` is 0 (a rubble core), the mohr_coulomb law
(cohesion and tensile strength) when 1, or the cohesive law of seed 004 Table 4 set 1 when 2
(engine.generators.panel), a mortared core.
"""
from extrados.engine.generators import (
    Generator, block_entry, box, check_count, check_non_negative, check_positive, described_parameters,
    ground_slab, model_document,
)
from extrados.engine.generators.panel import cohesive_joint
from extrados.engine.generators.wall import course_joints

CORE_JOINT = "core"
#: ``core_mortar`` values: dry rubble, the mohr_coulomb law, the cohesive law of seed 004 Table 4 set 1.
DRY_CORE, MOHR_COULOMB_CORE, COHESIVE_CORE = 0, 1, 2
#: The set of seed 004 Table 4 a cohesive core takes.
COHESIVE_SET = 1


def core_joint(core_mortar, friction, cohesion, tensile_strength, joint_stiffness):
    """The joint law of the core (see the module docstring)."""
    if core_mortar == MOHR_COULOMB_CORE:
        return {"law": "mohr_coulomb", "friction": float(friction), "cohesion": float(cohesion),
                "tensile_strength": float(tensile_strength)}
    return cohesive_joint(COHESIVE_SET if core_mortar == COHESIVE_CORE else 0, friction, joint_stiffness)


def is_through_course(course, through_stone_courses):
    """Whether a course holds through stones (every ``through_stone_courses``-th; 0: none)."""
    return through_stone_courses > 0 and course % through_stone_courses == through_stone_courses - 1


def stone(block_id, course, leaf, kind, geometry):
    """A block entry with its entity (seed 002 sec. 2.1): wall "two_leaf", its leaf, course and type."""
    entry = block_entry(block_id, *geometry)
    entry["entity"] = {"wall": "two_leaf", "leaf": leaf, "course": str(course), "stone": block_id, "type": kind}
    return entry


def course_blocks(course, x, z_range, y_faces, through):
    """(block entries, ids of its core blocks) of one course.

    Parameters
    ----------
    course : int
    x : list of float
        The course's vertical joints, m, from -x.
    z_range : (float, float), m
    y_faces : list of float
        The y of the wall's faces and of the core's cuts: [-t/2, facing, core cuts..., facing, t/2].
    through : bool
        Even ashlars of the course span the thickness.
    """
    blocks, core = [], []
    for index in range(len(x) - 1):
        x_range = (x[index], x[index + 1])
        if through and index % 2 == 0:
            blocks.append(stone(f"c{course}t{index}", course, "through", "through_stone",
                                box(x_range, (y_faces[0], y_faces[-1]), z_range)))
            continue
        blocks.append(stone(f"c{course}o{index}", course, "outer", "stretcher",
                            box(x_range, (y_faces[0], y_faces[1]), z_range)))
        blocks.append(stone(f"c{course}i{index}", course, "inner", "stretcher",
                            box(x_range, (y_faces[-2], y_faces[-1]), z_range)))
        middle = 0.5 * (x_range[0] + x_range[1])
        for half, cell in enumerate(((x_range[0], middle), (middle, x_range[1]))):
            for piece in range(len(y_faces) - 3):
                core.append(stone(f"c{course}k{index}_{half}_{piece}", course, "core", "core",
                                  box(cell, y_faces[piece + 1:piece + 3], z_range)))
    return blocks + core, [block["id"] for block in core]


def touching_pairs(blocks, ids):
    """[(a, b)] of block ids: one of ``ids`` and any block it shares a face of positive area with
    (axis-aligned boxes: equal bounds on one axis, overlapping intervals on the other two)."""
    extents = {block["id"]: [(min(v[k] for v in block["vertices"]), max(v[k] for v in block["vertices"]))
                             for k in range(3)] for block in blocks}
    pairs = []
    names = list(extents)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if a not in ids and b not in ids:
                continue
            ea, eb = extents[a], extents[b]
            shared = [min(ea[k][1], eb[k][1]) - max(ea[k][0], eb[k][0]) for k in range(3)]
            if sorted(shared)[0] == 0.0 and min(sorted(shared)[1:]) > 0.0:
                pairs.append((a, b))
    return pairs


def two_leaf_wall(courses=6, blocks_per_course=4, block_length=0.5, block_height=0.3, thickness=0.9,
                  facing_depth=0.25, core_pieces=2, through_stone_courses=3, core_mortar=0, friction=0.6,
                  cohesion=1e5, tensile_strength=5e4, joint_stiffness=1e12, density=2200.0):
    """Model document of a wall of two running-bond ashlar facings with a core between them.

    Parameters
    ----------
    courses : int
        Courses, >= 1.
    blocks_per_course : int
        Whole ashlars in the even courses of each facing, >= 2; the wall is n l long.
    block_length, block_height : float
        Ashlar size along x and z, m; a course is one ashlar high.
    thickness : float
        Wall thickness (y), m, more than twice ``facing_depth``.
    facing_depth : float
        Depth of each facing's ashlars (y), m.
    core_pieces : int
        Core blocks across the core, >= 1.
    through_stone_courses : int
        Every this many courses, a course of through stones; 0 for none.
    core_mortar : int
        0: dry rubble core; 1: mohr_coulomb mortar; 2: cohesive mortar (seed 004 Table 4 set 1).
    friction : float
        Coulomb friction coefficient of every joint.
    cohesion, tensile_strength : float
        Pa, of a mohr_coulomb core.
    joint_stiffness : float
        Pa/m, K0 of both modes of a cohesive core.
    density : float
        kg/m^3.

    Returns
    -------
    dict
        The model document; blocks "c{course}o{k}" (outer facing), "c{course}i{k}" (inner facing),
        "c{course}t{k}" (through stones), "c{course}k{k}_{half}_{piece}" (core), then "ground". Each
        block but the ground carries its entity (wall "two_leaf"; leaf "outer", "inner", "through" or
        "core"; course; type "stretcher", "through_stone" or "core").
    """
    check_count("courses", courses, 1)
    check_count("blocks_per_course", blocks_per_course, 2)
    for name, value in (("block_length", block_length), ("block_height", block_height), ("thickness", thickness),
                        ("facing_depth", facing_depth), ("cohesion", cohesion), ("joint_stiffness", joint_stiffness),
                        ("density", density)):
        check_positive(name, value)
    check_non_negative("friction", friction)
    check_non_negative("tensile_strength", tensile_strength)
    check_count("core_pieces", core_pieces, 1)
    check_count("through_stone_courses", through_stone_courses, 0)
    if core_mortar not in (DRY_CORE, MOHR_COULOMB_CORE, COHESIVE_CORE):
        raise ValueError(f"core_mortar must be 0, 1 or 2; got {core_mortar!r}")
    if not thickness > 2.0 * facing_depth:
        raise ValueError(f"thickness must exceed twice facing_depth ({2 * facing_depth:g} m) to leave a core; "
                         f"got {thickness!r}")
    length = blocks_per_course * block_length
    core = thickness - 2.0 * facing_depth
    y_faces = [-thickness / 2.0] + [-thickness / 2.0 + facing_depth + core * k / core_pieces
                                    for k in range(core_pieces + 1)] + [thickness / 2.0]
    blocks, core_ids = [], []
    for course in range(courses):
        x = [-length / 2.0 + m * block_length / 2.0 for m in course_joints(course, blocks_per_course, True)]
        entries, core_of_course = course_blocks(course, x, (course * block_height, (course + 1) * block_height),
                                                y_faces, is_through_course(course, through_stone_courses))
        blocks += entries
        core_ids += core_of_course
    reach = courses * block_height
    blocks.append(ground_slab((-length / 2.0 - reach, length / 2.0 + reach),
                              (-thickness / 2.0 - reach, thickness / 2.0 + reach), block_height))
    document = model_document(blocks, friction, density)
    document["joints"][CORE_JOINT] = core_joint(core_mortar, friction, cohesion, tensile_strength, joint_stiffness)
    document["joint_assignments"] = [{"blocks": [a, b], "joint": CORE_JOINT}
                                     for a, b in touching_pairs(blocks, set(core_ids))]
    return document


GENERATOR = Generator(
    name="two_leaf_wall",
    function=two_leaf_wall,
    help="Wall of two running-bond ashlar facings with a rubble or mortared core and through stones (seed 002 sec. 5).",
    parameters=described_parameters(two_leaf_wall, {
        "courses": ("", "number of courses", ">= 1"),
        "blocks_per_course": ("", "whole ashlars in the even courses of each facing", ">= 2"),
        "block_length": ("m", "ashlar length along the wall (x)", "> 0"),
        "block_height": ("m", "ashlar height, one course (z)", "> 0"),
        "thickness": ("m", "wall thickness (y)", "> 0, more than 2 facing_depth"),
        "facing_depth": ("m", "depth of each facing's ashlars (y)", "> 0"),
        "core_pieces": ("", "core blocks across the core", ">= 1"),
        "through_stone_courses": ("", "a course of through stones every this many courses (0: none)", ">= 0"),
        "core_mortar": ("", "core joints: 0 dry rubble, 1 mohr_coulomb mortar, 2 cohesive mortar (seed 004 set 1)",
                        "0, 1 or 2"),
        "friction": ("", "Coulomb friction coefficient of every joint", ">= 0"),
        "cohesion": ("Pa", "cohesion of a mohr_coulomb core", "> 0"),
        "tensile_strength": ("Pa", "tensile strength of a mohr_coulomb core", ">= 0"),
        "joint_stiffness": ("Pa/m", "initial stiffness K0 of both modes of a cohesive core", "> 0"),
        "density": ("kg/m^3", "density of the blocks", "> 0"),
    }),
)
