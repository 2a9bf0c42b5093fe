"""Running-bond wall whose base is unsupported over a central span (seed 000 sec. 3.2, fig. 9).

Geometry: the wall runs along x, centred on x = 0, from z = 0 to z = H, over
y in [-thickness/2, thickness/2]. Its courses and vertical joints are those of
the spandrel fill of `engine.generators.spandrel` (the "same regular bond
pattern of the previous spandrels", seed 000 sec. 3.2): course c is the band
z in [c h, (c + 1) h], h = H / courses, cut at `spandrel.course_joints`.

Two support slabs carry the wall, "ground_left" under x <= -gap/2 and
"ground_right" under x >= gap/2, their top faces on z = 0; nothing is under
|x| < gap/2. A bottom block across a slab's edge rests on it only in part.
Blocks total length x height x thickness in volume.
"""
from extrados.engine.generators import (
    Generator, block_entry, box, check_non_negative, check_positive, described_parameters, model_document,
)
from extrados.engine.generators.spandrel import course_joints

#: Ids of the two support slabs.
LEFT_SUPPORT, RIGHT_SUPPORT = "ground_left", "ground_right"


def course_bounds(length, joints):
    """x of a course's block ends, from -length/2 to +length/2: the wall's ends and its joints, m."""
    return [-length / 2.0, *joints, length / 2.0]


def wall_block_id(course, index):
    """Id of block ``index`` (from -x) of ``course`` (from the bottom)."""
    return f"c{course}b{index}"


def check_wall_over_gap(length, height, thickness, gap, course_height, block_length):
    """Raise ValueError, naming the parameter, unless the dimensions make a wall over a gap."""
    for name, value in (("length", length), ("height", height), ("thickness", thickness), ("gap", gap),
                        ("course_height", course_height), ("block_length", block_length)):
        check_positive(name, value)
    if not gap < length:
        raise ValueError(f"gap must be below length {length!r} so that both ends are supported; got {gap!r}")
    if not course_height <= height:
        raise ValueError(f"course_height must not exceed height {height!r}; got {course_height!r}")


def wall_over_gap(length=16.2, height=5.0, thickness=0.8, gap=7.6, course_height=0.5, block_length=1.0,
                  density=1800.0, friction=0.4):
    """Model document of a running-bond wall supported at both ends only (seed 000 fig. 9a).

    The defaults are the wall of seed 000 sec. 4 with the span of its arch opening
    (2 x 3.8 m) left unsupported.

    Parameters
    ----------
    length, height, thickness : float
        Wall size along x, z and y, m.
    gap : float
        Width of the unsupported central span of the base, m, below length.
    course_height : float
        Nominal course height, m; the wall holds round(height / course_height) courses.
    block_length : float
        Length of a whole running-bond block, m.
    density : float
        kg/m³.
    friction : float
        Coulomb friction coefficient of every joint.

    Returns
    -------
    dict
        The model document: blocks "c{course}b{index}" (index from -x), then the
        supports "ground_left" and "ground_right".
    """
    check_wall_over_gap(length, height, thickness, gap, course_height, block_length)
    check_positive("density", density)
    check_non_negative("friction", friction)
    y_range = (-thickness / 2.0, thickness / 2.0)
    courses = max(1, round(height / course_height))
    bed = height / courses
    blocks = []
    for c in range(courses):
        x = course_bounds(length, course_joints(c, length, block_length))
        z_range = (c * bed, (c + 1) * bed if c < courses - 1 else height)
        blocks += [block_entry(wall_block_id(c, i), *box((x[i], x[i + 1]), y_range, z_range))
                   for i in range(len(x) - 1)]
    # Each slab reaches the wall's height beyond the wall's end, so that a toppled wall lands on it.
    reach = height
    slab_y = (y_range[0] - reach, y_range[1] + reach)
    blocks.append(block_entry(LEFT_SUPPORT, *box((-length / 2.0 - reach, -gap / 2.0), slab_y, (-bed, 0.0)),
                              support=True))
    blocks.append(block_entry(RIGHT_SUPPORT, *box((gap / 2.0, length / 2.0 + reach), slab_y, (-bed, 0.0)),
                              support=True))
    return model_document(blocks, friction, density)


GENERATOR = Generator(
    name="wall_over_gap",
    function=wall_over_gap,
    help="Running-bond wall on two slabs, its base unsupported over a central span (seed 000 fig. 9).",
    parameters=described_parameters(wall_over_gap, {
        "length": ("m", "wall length along x", "> 0, > gap"),
        "height": ("m", "wall height (z)", "> 0"),
        "thickness": ("m", "wall thickness (y)", "> 0"),
        "gap": ("m", "width of the unsupported central span of the base", "> 0, < length"),
        "course_height": ("m", "nominal course height (height / courses, rounded)", "> 0, <= height"),
        "block_length": ("m", "length of a whole running-bond block", "> 0"),
        "density": ("kg/m^3", "density of the stone", "> 0"),
        "friction": ("", "Coulomb friction coefficient of the joints", ">= 0"),
    }),
)
