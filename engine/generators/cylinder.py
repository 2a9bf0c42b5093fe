"""Masonry cylinder of concentric rings of voussoir-like blocks on a partial support (seed 000 sec. 3.2, fig. 10).

Geometry: the cylinder stands on z = 0 with its axis on z, outer radius R,
height H in equal courses. Seen from above, a course is cut by nested regular
polygons, its ring boundaries, all centred on the axis: boundary k has M_k
corners on the circle of radius r_k at the angles phi + 2 pi j / M_k. Ring k,
between boundaries k and k + 1, holds M_k blocks; block j of it has one chord
of boundary k as its inner side, the rays at the angles of corners j and j + 1
of boundary k as its sides, and the M_{k+1} / M_k chords of boundary k + 1
between them as its outer side. M_{k+1} is M_k or a multiple of it, so those
rays meet corners of boundary k + 1 and neighbouring rings share faces exactly.
A block's plan is convex: the inner side is one straight chord, the outer
chain bulges outward. A solid cylinder (thickness = radius) has a core block,
the M-gon of its first boundary.

Sizes: the radial thickness (R for a solid cylinder) is split into rings of
about ``ring_width``; M starts at ``blocks_per_ring`` on the innermost boundary
and doubles outward while the chords stay at least ``block_length`` long
(`boundary_sides`). Bond: odd courses have their boundaries half a ring width
further in (rings of half width at the inner and outer faces, a smaller core)
and are turned by pi / M_max, half the angle of the finest ring's blocks, so
that no radial joint of an odd course lies over one of an even course.

Support: the base rests on slabs with top face z = 0, except over a central
regular polygon of ``gap_sides`` corners on the circle of radius ``gap_radius``
(the octagonal unsupported area of seed 000 fig. 10, corners at the angles
2 pi j / gap_sides): one trapezoidal slab "ground{j}" outside each side of that
polygon, or one slab "ground" when gap_radius is 0.

Volume: course c holds the outer polygon less the inner one (none when solid),
h (1/2 M r² sin(2 pi / M))_outer - h (...)_inner, with h its height and M the
corner counts of its outermost and innermost boundaries.
"""
import math

from extrados.engine.generators import (
    Generator, block_entry, check_count, check_non_negative, check_positive, described_parameters,
    model_document,
)
from extrados.engine.generators.spandrel import polygon_prism
from extrados.engine.tolerance import TOL

#: Id of the one full slab; the slabs around a gap are "ground0", "ground1", ...
GROUND_ID = "ground"


# --- plan geometry ---------------------------------------------------------------------------

def plan_prism(section_xy, z_min, z_max):
    """Vertices and outward faces of a convex polygon in the x-y plane extruded along z.

    Seen from +z the x-y plane shows x to the right and y up, so a section listed
    counter-clockwise in (x, y) is the top face (at ``z_max``, normal +z) in the
    listed order; the bottom face is the polygon reversed, and the side over
    section edge i -> j is [i, j, j + m, i + m].

    Parameters
    ----------
    section_xy : sequence of m >= 3 (x, y) pairs
        Convex polygon, counter-clockwise in (x, y), m.
    z_min, z_max : float
        Extent of the extrusion, m, ``z_min < z_max``.

    Returns
    -------
    vertices : list of 2 m [x, y, z] lists
        The section at ``z_min`` (0 .. m-1), then at ``z_max`` (m .. 2m-1), m.
    faces : list of m + 2 lists of int
        Vertex indices, counter-clockwise seen from outside.
    """
    # the x-z prism of the spandrel wall extruded along y, with y and z exchanged: a reflection,
    # which turns every face inside out, hence the reversed loops; each side then starts at its
    # section corner i, as listed above
    vertices, faces = polygon_prism(section_xy, z_min, z_max)
    faces = [face[::-1] for face in faces]
    sides = [face[-1:] + face[:-1] for face in faces[2:]]
    return [[x, z, y] for x, y, z in vertices], faces[:2] + sides


def corner(radius, angle):
    """(x, y) of the point at ``radius`` (m) and ``angle`` (rad) from the x axis."""
    return radius * math.cos(angle), radius * math.sin(angle)


def regular_polygon_area(radius, sides):
    """Area (m²) of a regular polygon of ``sides`` corners on a circle of ``radius``: 1/2 M r² sin(2 pi / M)."""
    return 0.5 * sides * radius * radius * math.sin(2.0 * math.pi / sides)


# --- rings -----------------------------------------------------------------------------------

def boundary_radii(radius, thickness, rings, odd):
    """Radii (m) of a course's ring boundaries, innermost first, outer face last.

    Even courses cut the thickness into ``rings`` equal rings; odd courses move
    every cut half a ring width inward and add one half a width inside the outer
    face, so their rings next to the faces are half as wide (a solid cylinder's
    core: half the radius of an even course's).
    """
    inner = radius - thickness
    width = thickness / rings
    if odd:
        cuts = [inner + (k - 0.5) * width for k in range(1, rings + 1)]
    else:
        cuts = [inner + k * width for k in range(1, rings)]
    return ([inner] if inner > 0.0 else []) + cuts + [radius]


def boundary_sides(radii, blocks_per_ring, block_length):
    """Corners M_k of each boundary: blocks_per_ring on the first, doubling outward while chords stay >= block_length.

    Parameters
    ----------
    radii : list of float
        Boundary radii, innermost first, m.
    blocks_per_ring : int
        M of the innermost boundary.
    block_length : float
        Shortest chord (m) a doubling may leave.

    Returns
    -------
    list of int
        M_k for each boundary; each a power-of-two multiple of the one before.
    """
    sides = [blocks_per_ring]
    for r in radii[1:]:
        m = sides[-1]
        while 2.0 * r * math.sin(math.pi / (2 * m)) >= block_length:
            m *= 2
        sides.append(m)
    return sides


def ring_block_plan(r_in, m_in, r_out, m_out, j, turn):
    """Plan (x, y) of block j of a ring, counter-clockwise: its inner chord backward, then its outer chain.

    Parameters
    ----------
    r_in, r_out : float
        Inner and outer boundary radii, m.
    m_in, m_out : int
        Their corner counts, m_out a multiple of m_in.
    j : int
        Block index, 0 .. m_in - 1, counter-clockwise from the angle ``turn``.
    turn : float
        Angle of the course's corner 0, rad.
    """
    step = m_out // m_in
    inner = [corner(r_in, turn + 2.0 * math.pi * (j + s) / m_in) for s in (1, 0)]
    outer = [corner(r_out, turn + 2.0 * math.pi * (j * step + s) / m_out) for s in range(step + 1)]
    return inner + outer


def course_plans(radii, sides, solid, turn):
    """Plans of one course's blocks: [(ring, index, polygon)], the core (ring 0 of a solid cylinder) first.

    Ring numbers count from the innermost; a hollow cylinder's first ring is ring 0.
    """
    plans = []
    if solid:
        plans.append((0, 0, [corner(radii[0], turn + 2.0 * math.pi * s / sides[0]) for s in range(sides[0])]))
    for k in range(len(radii) - 1):
        ring = k + 1 if solid else k
        plans += [(ring, j, ring_block_plan(radii[k], sides[k], radii[k + 1], sides[k + 1], j, turn))
                  for j in range(sides[k])]
    return plans


def course_layout(radius, thickness, rings, blocks_per_ring, block_length, course):
    """Boundary radii (m), corner counts and turn (rad) of one course (module docstring, bond)."""
    radii = boundary_radii(radius, thickness, rings, course % 2 == 1)
    sides = boundary_sides(radii, blocks_per_ring, block_length)
    turn = 0.0
    if course % 2 == 1:
        even_sides = boundary_sides(boundary_radii(radius, thickness, rings, False), blocks_per_ring, block_length)
        turn = math.pi / max(sides + even_sides)
    return radii, sides, turn


# --- supports --------------------------------------------------------------------------------

def ground_slabs(gap_radius, gap_sides, reach, depth):
    """Support slabs with top face z = 0 around an unsupported regular polygon (module docstring).

    Parameters
    ----------
    gap_radius : float
        Circumradius of the unsupported polygon, m; 0 for one full slab.
    gap_sides : int
        Its corners, the first at angle 0.
    reach : float
        Circumradius of the polygon the slabs fill out to, m, above gap_radius.
    depth : float
        Slab thickness, m.

    Returns
    -------
    list of dict
        Block entries of the slabs, supports.
    """
    outer = [corner(reach, 2.0 * math.pi * s / gap_sides) for s in range(gap_sides)]
    if gap_radius == 0.0:
        return [block_entry(GROUND_ID, *plan_prism(outer, -depth, 0.0), support=True)]
    inner = [corner(gap_radius, 2.0 * math.pi * s / gap_sides) for s in range(gap_sides)]
    return [block_entry(f"{GROUND_ID}{s}", *plan_prism(
        [inner[s], outer[s], outer[(s + 1) % gap_sides], inner[(s + 1) % gap_sides]], -depth, 0.0),
        support=True) for s in range(gap_sides)]


# --- the document ------------------------------------------------------------------------------

def check_cylinder(radius, thickness, height, courses, ring_width, blocks_per_ring, block_length, gap_radius,
                   gap_sides):
    """Raise ValueError, naming the parameter, unless the dimensions make a cylinder on a support."""
    for name, value in (("radius", radius), ("thickness", thickness), ("height", height),
                        ("ring_width", ring_width), ("block_length", block_length)):
        check_positive(name, value)
    if not thickness <= radius:
        raise ValueError(f"thickness must not exceed radius {radius!r} (equal: a solid cylinder); got {thickness!r}")
    check_count("courses", courses, 1)
    check_count("blocks_per_ring", blocks_per_ring, 3)
    check_non_negative("gap_radius", gap_radius)
    if not gap_radius < radius:
        raise ValueError(f"gap_radius must be below radius {radius!r} so that the cylinder rests on something; "
                         f"got {gap_radius!r}")
    check_count("gap_sides", gap_sides, 3)


def ring_count(thickness, ring_width):
    """Rings of an even course: the thickness over ring_width, rounded, at least one."""
    return max(1, round(thickness / ring_width))


def cylinder(radius=8.1, thickness=8.1, height=5.0, courses=10, ring_width=0.8, blocks_per_ring=8,
             block_length=1.0, gap_radius=3.8, gap_sides=8, density=1800.0, friction=0.4):
    """Model document of a masonry cylinder of voussoir-like rings on a partial support (seed 000 fig. 10).

    The defaults are seed 000's: the height and span of the wall of fig. 9
    (5.0 m, 16.2 m) and an octagonal unsupported area whose circumscribed
    diameter is that wall's unsupported span (7.6 m).

    Parameters
    ----------
    radius : float
        Outer radius R, m (the outer face is a regular polygon on that circle).
    thickness : float
        Radial thickness of the wall, m, at most R; R gives a solid cylinder.
    height : float
        m.
    courses : int
        Courses of equal height, >= 1.
    ring_width : float
        Nominal radial width of a ring, m.
    blocks_per_ring : int
        Blocks of the innermost ring (corners of the core), >= 3.
    block_length : float
        Shortest chord a ring's doubling of its block count may leave, m.
    gap_radius : float
        Circumradius of the unsupported central polygon, m, below R; 0: fully supported.
    gap_sides : int
        Corners of that polygon, >= 3.
    density : float
        kg/m³.
    friction : float
        Coulomb friction coefficient of every joint.

    Returns
    -------
    dict
        The model document: blocks "c{course}r{ring}b{index}" (rings from the
        innermost, a solid cylinder's core being ring 0; index counter-clockwise),
        then the slabs.
    """
    check_cylinder(radius, thickness, height, courses, ring_width, blocks_per_ring, block_length, gap_radius,
                   gap_sides)
    check_positive("density", density)
    check_non_negative("friction", friction)
    solid = thickness >= radius - TOL.length
    thickness = radius if solid else thickness
    rings = ring_count(thickness, ring_width)
    bed = height / courses
    blocks = []
    for c in range(courses):
        radii, sides, turn = course_layout(radius, thickness, rings, blocks_per_ring, block_length, c)
        z_range = (c * bed, (c + 1) * bed if c < courses - 1 else height)
        blocks += [block_entry(f"c{c}r{ring}b{j}", *plan_prism(plan, *z_range))
                   for ring, j, plan in course_plans(radii, sides, solid, turn)]
    # The slabs reach the cylinder's height beyond it, so that a toppled block lands on them.
    reach = (radius + height) / math.cos(math.pi / gap_sides)
    blocks += ground_slabs(gap_radius, gap_sides, reach, bed)
    return model_document(blocks, friction, density)


def cylinder_volume(radius, thickness, height, courses, ring_width, blocks_per_ring, block_length):
    """Volume (m³) of a cylinder's blocks in closed form (module docstring), for checks."""
    solid = thickness >= radius - TOL.length
    thickness = radius if solid else thickness
    rings = ring_count(thickness, ring_width)
    total = 0.0
    for c in range(courses):
        radii, sides, _ = course_layout(radius, thickness, rings, blocks_per_ring, block_length, c)
        area = regular_polygon_area(radii[-1], sides[-1])
        if not solid:
            area -= regular_polygon_area(radii[0], sides[0])
        total += area * height / courses
    return total


GENERATOR = Generator(
    name="cylinder",
    function=cylinder,
    help="Masonry cylinder of rings of voussoir-like blocks, unsupported over a central polygon (seed 000 fig. 10).",
    parameters=described_parameters(cylinder, {
        "radius": ("m", "outer radius", "> 0"),
        "thickness": ("m", "radial thickness of the wall (equal to radius: a solid cylinder)", "> 0, <= radius"),
        "height": ("m", "height (z)", "> 0"),
        "courses": ("", "number of courses of equal height", ">= 1"),
        "ring_width": ("m", "nominal radial width of a ring of blocks", "> 0"),
        "blocks_per_ring": ("", "blocks of the innermost ring; outer rings double it", ">= 3"),
        "block_length": ("m", "shortest chord left by doubling a ring's block count", "> 0"),
        "gap_radius": ("m", "circumradius of the unsupported central polygon (0: fully supported)", ">= 0, < radius"),
        "gap_sides": ("", "corners of the unsupported polygon (8: seed 000's octagon)", ">= 3"),
        "density": ("kg/m^3", "density of the stone", "> 0"),
        "friction": ("", "Coulomb friction coefficient of the joints", ">= 0"),
    }),
)
