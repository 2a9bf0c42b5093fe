"""Running-bond wall of box blocks on a ground slab (DESIGN sec. 7, Ferris & Tin-Loi wall 1).

The wall runs along x, centred on x = 0 and y = 0, from z = 0 up. Even courses
(0, 2, ...) hold ``blocks_per_course`` whole blocks; odd courses are shifted by
half a block. Every vertical joint lies on a multiple of half a block length,
x_m = -L/2 + m l/2, so the blocks of a course share their end faces exactly
and the joints of odd courses sit exactly over the middles of the even ones.
"""
from extrados.engine.generators import (
    Generator, block_entry, box, check_count, check_finite, check_flag, check_non_negative, check_positive,
    described_parameters, ground_slab, lateral_acceleration_loads, model_document,
)


def course_joints(course, blocks_per_course, half_blocks):
    """Half-block indices m of the vertical joints of a course, from -x to +x.

    Even courses: whole blocks, m = 0, 2, ..., 2n. Odd courses: shifted by half
    a block, m = 1, 3, ..., 2n - 1, with a half block at each end (m = 0 and
    2n added) when ``half_blocks``, else toothed ends.
    """
    n = blocks_per_course
    if course % 2 == 0:
        return list(range(0, 2 * n + 1, 2))
    shifted = list(range(1, 2 * n, 2))
    return [0] + shifted + [2 * n] if half_blocks else shifted


def running_bond_wall(courses=6, blocks_per_course=5, block_length=0.4, block_height=0.175, depth=0.2,
                      friction=0.65, density=2000.0, half_blocks=True, lateral_acceleration=0.0):
    """Model document of a running-bond wall; the defaults are Ferris & Tin-Loi wall 1.

    Parameters
    ----------
    courses : int
        Number of courses, >= 1, numbered from the bottom.
    blocks_per_course : int
        Whole blocks in the even courses, >= 2; the wall is L = n l long.
    block_length, block_height, depth : float
        Block size along x, z and y, m.
    friction : float
        Coulomb friction coefficient of the joints.
    density : float
        kg/m³.
    half_blocks : bool
        Odd courses end in half blocks (flush ends); otherwise they hold n - 1
        whole blocks and the ends are toothed.
    lateral_acceleration : float
        A live body acceleration along +x on all blocks, m/s²; 0 for none.

    Returns
    -------
    dict
        The model document; blocks "c{course}b{index}" (index from -x), then "ground".
    """
    check_count("courses", courses, 1)
    check_count("blocks_per_course", blocks_per_course, 2)
    check_positive("block_length", block_length)
    check_positive("block_height", block_height)
    check_positive("depth", depth)
    check_non_negative("friction", friction)
    check_positive("density", density)
    check_flag("half_blocks", half_blocks)
    check_finite("lateral_acceleration", lateral_acceleration)
    length = blocks_per_course * block_length
    half = block_length / 2.0
    y_range = (-depth / 2.0, depth / 2.0)
    blocks = []
    for course in range(courses):
        x = [-length / 2.0 + m * half for m in course_joints(course, blocks_per_course, half_blocks)]
        z_range = (course * block_height, (course + 1) * block_height)
        blocks += [block_entry(f"c{course}b{index}", *box((x[index], x[index + 1]), y_range, z_range))
                   for index in range(len(x) - 1)]
    # The slab reaches the wall's height beyond it, so that a toppled wall lands on it.
    reach = courses * block_height
    blocks.append(ground_slab((-length / 2.0 - reach, length / 2.0 + reach),
                              (y_range[0] - reach, y_range[1] + reach), block_height))
    return model_document(blocks, friction, density, lateral_acceleration_loads(lateral_acceleration))


GENERATOR = Generator(
    name="wall",
    function=running_bond_wall,
    help="Running-bond wall of box blocks on a ground slab (default: Ferris & Tin-Loi wall 1).",
    parameters=described_parameters(running_bond_wall, {
        "courses": ("", "number of courses", ">= 1"),
        "blocks_per_course": ("", "whole blocks in the even courses", ">= 2"),
        "block_length": ("m", "block length along the wall (x)", "> 0"),
        "block_height": ("m", "block height (z)", "> 0"),
        "depth": ("m", "wall thickness (y)", "> 0"),
        "friction": ("", "Coulomb friction coefficient of the joints", ">= 0"),
        "density": ("kg/m^3", "density of the blocks", "> 0"),
        "half_blocks": ("", "half blocks at the ends of odd courses (flush ends); false: toothed ends",
                        "true or false"),
        "lateral_acceleration": ("m/s^2", "live body acceleration along +x on all blocks (0: none)", "any"),
    }),
)
