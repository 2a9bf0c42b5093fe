"""Masonry panel for the diagonal compression test (ASTM E519; seed 004 sec. 5.2, Table 4).

A square running-bond panel of box blocks stands on one corner, its loaded diagonal vertical.
It is drawn in panel coordinates (u along the bed joints, w across the courses, the lower
corner at u = w = 0, the upper one at u = W, w = H) and turned by 45 degrees about y into the
world's x-z plane (`diagonal_frame`), thickness along y centred on y = 0:

    x = (u - w) / sqrt(2),   z = (u + w) / sqrt(2).

A square panel (W = H) then has its lower corner at the origin and its upper corner right
above it at z = W sqrt(2). Even courses hold W / l whole blocks, odd courses are shifted by
half a block with a half block at each end (engine.generators.wall.course_joints), so the
edges are flush; the defaults give the paper's 840 x 840 x 100 mm panel of 210 x 60 x 100 mm
blocks: 14 courses, 7 x 4 + 7 x 5 = 63 blocks.

Two loading shoes, as E519's steel shoes, cradle the two corners. A convex block cannot
seat a convex corner on both its faces, so each shoe is two support blocks, one under the bed
face and one against the head faces, each ``shoe_length`` long from the corner:

    base_bed, base_head          fixed, under the lower corner
    actuator_bed, actuator_head  the loading shoe on the upper corner, moved down the diagonal
                                 at ``loading_speed`` by the document's support_motion

Joints: the default joint "mortar" between blocks is the cohesive law of seed 004 with the
parameters of Table 4, set 1 or set 2 (``mortar`` = 1 or 2), or a dry Coulomb joint
(``mortar`` = 0); the shoes bear on the panel through the dry Coulomb joint "shoe"
(joint_assignments). The paper's initial stiffnesses K0 are penalty values (K0 -> inf); here
both modes take the finite ``joint_stiffness``, 1e12 Pa/m by default: the elastic openings
sigma / K0 are then 0.33 um (mode I) and 1.6 um (mode II), far below the ultimate openings
(1 and 4 mm), and the compliance of a contact point, 1 / (K0 a) with a ~ 3e-3 m^2, is about
4e-10 m/N.
"""
import math

from extrados.engine.generators import (
    Generator, block_entry, check_count, check_non_negative, check_positive, described_parameters,
    model_document, quad_prism,
)
from extrados.engine.generators.wall import course_joints

#: Seed 004 Table 1 (mode I) and Table 2 (mode II), identified on the couplet tests (sec. 4.2); energy_ratio 0.5
#: splits the softening as Table 4 does. Their joint fails to friction 0.7 (sec. 4.2.2, fig. 11).
TABLE_1_MODE_I = {"stiffness": 1.5e11, "strength": 4.0e4, "energy": 0.79, "energy_ratio": 0.5,
                  "ultimate_opening": 1.4e-4}
TABLE_2_MODE_II = {"stiffness": 5.8e10, "strength": 1.1e5, "energy": 34.0, "energy_ratio": 0.5,
                   "ultimate_opening": 2.51e-3}
#: Seed 004 Table 4: cohesive zone parameters of the two sets (stiffness added by the generator).
TABLE_4 = {
    1: {"mode_I": {"strength": 0.33e6, "energy": 16.0, "ultimate_opening": 1.0e-3, "energy_ratio": 0.5},
        "mode_II": {"strength": 1.63e6, "energy": 700.0, "ultimate_opening": 4.0e-3, "energy_ratio": 0.5}},
    2: {"mode_I": {"strength": 0.33e6, "energy": 8.0, "ultimate_opening": 1.0e-3, "energy_ratio": 0.5},
        "mode_II": {"strength": 1.63e6, "energy": 350.0, "ultimate_opening": 4.0e-3, "energy_ratio": 0.5}},
}
#: ``mortar`` values: 0 a dry Coulomb joint, else a set of TABLE_4.
DRY = 0
MORTAR_JOINT = "mortar"
SHOE_JOINT = "shoe"
BASE_IDS = ("base_bed", "base_head")
ACTUATOR_IDS = ("actuator_bed", "actuator_head")
#: A panel side must be a whole number of blocks (or courses) to this fraction of a block.
WHOLE_RELATIVE = 1e-9
#: cos 45 deg = sin 45 deg, one number, so that a square panel's corners share x exactly.
HALF_SQRT2 = math.sqrt(0.5)


def diagonal_frame(section_uw):
    """The (x, z) pairs of (u, w) panel coordinates turned by 45 degrees about y.

    The rotation x = (u - w) / sqrt(2), z = (u + w) / sqrt(2) keeps a counter-clockwise
    section counter-clockwise and sends the panel diagonal (1, 1) to the vertical (0, sqrt 2).
    """
    return [((u - w) * HALF_SQRT2, (u + w) * HALF_SQRT2) for u, w in section_uw]


def panel_box(u_range, w_range, y_range):
    """Vertices and outward faces of the block over u_range x w_range (panel coordinates, m), turned."""
    (u0, u1), (w0, w1) = u_range, w_range
    return quad_prism(diagonal_frame([(u0, w0), (u1, w0), (u1, w1), (u0, w1)]), *y_range)


def whole_count(name, length, unit):
    """The whole number of ``unit`` in ``length``; ValueError naming ``name`` when it is not whole."""
    count = round(length / unit)
    if count < 1 or abs(count * unit - length) > WHOLE_RELATIVE * unit:
        raise ValueError(f"{name} must be a whole number of blocks ({unit:g} m); got {length!r}")
    return count


def cohesive_joint(mortar, friction, joint_stiffness):
    """The joint law of Table 4 set ``mortar`` with both K0 = ``joint_stiffness`` (Pa/m), or Coulomb's (0)."""
    if mortar == DRY:
        return {"law": "coulomb", "friction": float(friction)}
    modes = {mode: dict(values, stiffness=float(joint_stiffness)) for mode, values in TABLE_4[mortar].items()}
    return {"law": "cohesive", "friction": float(friction), **modes}


def overlap(first, second):
    """Length (m) shared by two intervals (lo, hi); negative when they are apart."""
    return min(first[1], second[1]) - max(first[0], second[0])


def diagonal_panel(width=0.84, height=0.84, thickness=0.1, block_length=0.21, block_height=0.06, density=1200.0,
                   friction=0.8, mortar=1, joint_stiffness=1e12, shoe_length=0.15, shoe_thickness=0.03,
                   loading_speed=2e-3):
    """Model document of a running-bond panel on its corner between two loading shoes (seed 004 sec. 5.2).

    Parameters
    ----------
    width, height : float
        Panel size along the bed joints and across the courses, m; whole numbers of
        block_length and block_height.
    thickness : float
        Panel thickness (y), m.
    block_length, block_height : float
        Whole block size along and across the courses, m.
    density : float
        kg/m^3 (Table 4: 1200).
    friction : float
        Coulomb friction coefficient of the mortar after failure and of the shoes (Table 4: 0.8).
    mortar : int
        0: dry Coulomb joints; 1 or 2: the cohesive law of Table 4, set 1 or set 2.
    joint_stiffness : float
        K0 of both cohesive modes, Pa/m (the paper's penalty stiffness).
    shoe_length : float
        Length of each shoe piece along its panel edge from the corner, m, at most the shorter side.
    shoe_thickness : float
        Thickness of the shoe pieces, m.
    loading_speed : float
        m/s, the speed at which the loading shoe moves down the diagonal in a dynamic run: the
        document's ``support_motion`` (kind velocity) on `ACTUATOR_IDS`, displacement control.

    Returns
    -------
    dict
        The model document; panel blocks "c{course}b{index}" (course from the lower corner's bed
        edge, index along u), then `BASE_IDS` (support) and `ACTUATOR_IDS` (support, to be moved).
    """
    check_positive("width", width)
    check_positive("height", height)
    check_positive("thickness", thickness)
    check_positive("block_length", block_length)
    check_positive("block_height", block_height)
    check_positive("density", density)
    check_non_negative("friction", friction)
    check_count("mortar", mortar, DRY)
    if mortar != DRY and mortar not in TABLE_4:
        raise ValueError(f"mortar must be 0 (dry) or a set of Table 4 ({', '.join(map(str, TABLE_4))}); got {mortar!r}")
    check_positive("joint_stiffness", joint_stiffness)
    check_positive("shoe_length", shoe_length)
    check_positive("shoe_thickness", shoe_thickness)
    check_positive("loading_speed", loading_speed)
    per_course = whole_count("width", width, block_length)
    if per_course < 2:
        raise ValueError(f"width must hold at least 2 blocks of {block_length:g} m; got {width!r}")
    courses = whole_count("height", height, block_height)
    if shoe_length > min(width, height):
        raise ValueError(f"shoe_length must not exceed the shorter panel side {min(width, height):g} m; "
                         f"got {shoe_length!r}")
    half = width / (2 * per_course)
    course_height = height / courses
    y_range = (-thickness / 2.0, thickness / 2.0)
    blocks = []
    bed_edges = {0: [], courses - 1: []}   # course -> [(block id, (u0, u1))] of the first and last courses
    head_edges = {True: [], False: []}      # at u = 0? -> [(block id, (w0, w1))] of each course's end blocks
    for course in range(courses):
        u = [m * half for m in course_joints(course, per_course, True)]
        w_range = (course * course_height, (course + 1) * course_height)
        for index in range(len(u) - 1):
            block_id = f"c{course}b{index}"
            blocks.append(block_entry(block_id, *panel_box((u[index], u[index + 1]), w_range, y_range)))
            if course in bed_edges:
                bed_edges[course].append((block_id, (u[index], u[index + 1])))
            if index == 0:
                head_edges[True].append((block_id, w_range))
            if index == len(u) - 2:
                head_edges[False].append((block_id, w_range))
    t, s = shoe_thickness, shoe_length
    # shoe id -> (u range, w range, the panel edge it bears on, the part of that edge it covers)
    shoes = {"base_bed": ((0.0, s), (-t, 0.0), bed_edges[0], (0.0, s)),
             "base_head": ((-t, 0.0), (0.0, s), head_edges[True], (0.0, s)),
             "actuator_bed": ((width - s, width), (height, height + t), bed_edges[courses - 1], (width - s, width)),
             "actuator_head": ((width, width + t), (height - s, height), head_edges[False], (height - s, height))}
    blocks += [block_entry(shoe_id, *panel_box(u_range, w_range, y_range), support=True)
               for shoe_id, (u_range, w_range, _, _) in shoes.items()]
    assignments = [{"blocks": [shoe_id, block_id], "joint": SHOE_JOINT}
                   for shoe_id, (_, _, edge, covered) in shoes.items()
                   for block_id, span in edge if overlap(span, covered) > WHOLE_RELATIVE * (span[1] - span[0])]
    document = model_document(blocks, friction, density)
    document["joints"] = {MORTAR_JOINT: cohesive_joint(mortar, friction, joint_stiffness),
                          SHOE_JOINT: {"law": "coulomb", "friction": float(friction)}}
    document["default_joint"] = MORTAR_JOINT
    document["joint_assignments"] = assignments
    document["support_motion"] = {"kind": "velocity", "velocity": [0.0, 0.0, -float(loading_speed)],
                                  "blocks": list(ACTUATOR_IDS)}
    return document


GENERATOR = Generator(
    name="panel",
    function=diagonal_panel,
    help="Running-bond panel on its corner between loading shoes, for diagonal compression (seed 004 sec. 5.2).",
    parameters=described_parameters(diagonal_panel, {
        "width": ("m", "panel size along the bed joints", "> 0, a multiple of block_length"),
        "height": ("m", "panel size across the courses", "> 0, a multiple of block_height"),
        "thickness": ("m", "panel thickness (y)", "> 0"),
        "block_length": ("m", "block length along the courses", "> 0"),
        "block_height": ("m", "block height (course height)", "> 0"),
        "density": ("kg/m^3", "density of the blocks", "> 0"),
        "friction": ("", "Coulomb friction coefficient of the mortar after failure and of the shoes", ">= 0"),
        "mortar": ("", "joint between blocks: 0 dry Coulomb, 1 or 2 the cohesive law of seed 004 Table 4 set 1 / 2",
                   "0, 1 or 2"),
        "joint_stiffness": ("Pa/m", "initial stiffness K0 of both cohesive modes (the paper's penalty value)", "> 0"),
        "shoe_length": ("m", "length of each shoe piece along its panel edge from the corner", "> 0"),
        "shoe_thickness": ("m", "thickness of the shoe pieces", "> 0"),
        "loading_speed": ("m/s", "speed of the loading shoe down the diagonal in a dynamic run (displacement control)",
                          "> 0"),
    }),
)
