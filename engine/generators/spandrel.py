"""Spandrel wall: a running-bond wall with a semicircular arch opening (seed 000 sec. 3 fig. 8, sec. 4).

Geometry: the wall runs along x, centred on x = 0, from z = 0 to z = H, over
y in [-thickness/2, thickness/2], on the support slab "ground" (top face z = 0).
The opening is a semicircle of intrados radius R centred at the origin, with
springings at x = -R and x = +R on z = 0. Its arch ring holds n voussoirs
"v0".."v{n-1}" (from the left springing) with radial joints at
theta_k = pi k / n, straight intrados chords on radius R and straight extrados
chords on radius R_e = R + t_ring (`engine.generators.arch.voussoir_section`).

The extrados polygon E (the ring's outer chords closed by the ground line) is
convex; the spandrel fill is the wall rectangle minus E. Each course c is the
band z in [c h, (c + 1) h] of the fill (h = H / courses). Over any x-interval
between two consecutive extrados corners the ring's outline is a single chord,
so cutting the band at the running-bond joints and at the corners' x gives
convex cells: rectangles, clipped where they meet the ring by the outer side
of that chord. Within one running-bond block, neighbouring cells are joined
whenever their union is still convex (a corner below the band or above it
needs no cut). The spandrel blocks next to the ring thus lie on the voussoirs'
extrados planes face to face, and every joint is a shared plane: zero gap, no
overlap.

A cell below a fifth of a whole block's face (`SMALL_CELL_FRACTION`) is joined
to the neighbour that makes the smallest convex stone. A corner just below a
bed joint leaves such a cell (a triangle, or a thin slab over a flat key stone)
that no neighbour in its course can take, so its vertical sides are continued
as joints through the next course: the cell laid over it then has the same
width, and the two make one stone across the bed joint, as cut stones beside
an arch often are.

The fill volume is exactly (L H - A_E) thickness and the ring's is
(A_E - A_I) thickness, with the chord polygons' areas
A = 1/2 n r^2 sin(pi / n) for r = R_e and r = R: blocks total
(L H - A_I) thickness.
"""
import bisect
import math

from extrados.engine.generators import (
    Generator, block_entry, check_count, check_non_negative, check_positive, described_parameters,
    ground_slab, model_document, polygon_area,
)
from extrados.engine.generators.arch import joint_direction, voussoir_section
from extrados.engine.tolerance import TOL

#: A spandrel cell smaller than this fraction of a whole block's face (course height x block
#: length) is joined to a neighbour when the union stays convex.
SMALL_CELL_FRACTION = 0.2


# --- convex polygons in the x-z plane ------------------------------------------------

def polygon_prism(section_xz, y_min, y_max):
    """Vertices and outward faces of a convex polygon in the x-z plane extruded along y.

    Seen from -y the x-z plane shows x to the right and z up, so a section
    listed counter-clockwise in (x, z) gives the face at ``y_min`` an outward
    (-y) normal in the listed order; the face at ``y_max`` is the polygon
    reversed, and the side over section edge i -> j is [i, i + m, j + m, j].

    Parameters
    ----------
    section_xz : sequence of m >= 3 (x, z) pairs
        Convex polygon, counter-clockwise in (x, z), m.
    y_min, y_max : float
        Extent of the extrusion, m, ``y_min < y_max``.

    Returns
    -------
    vertices : list of 2 m [x, y, z] lists
        The section at ``y_min`` (0 .. m-1), then at ``y_max`` (m .. 2m-1), m.
    faces : list of m + 2 lists of int
        Vertex indices, counter-clockwise seen from outside.
    """
    m = len(section_xz)
    if m < 3 or not polygon_area(section_xz) > 0.0 or not y_max > y_min:
        raise ValueError(f"degenerate or clockwise prism section {section_xz} over y in [{y_min}, {y_max}]")
    vertices = [[float(x), float(y_min), float(z)] for x, z in section_xz]
    vertices += [[float(x), float(y_max), float(z)] for x, z in section_xz]
    faces = [list(range(m)), list(range(2 * m - 1, m - 1, -1))]
    faces += [[i, i + m, (i + 1) % m + m, (i + 1) % m] for i in range(m)]
    return vertices, faces


def cross(o, a, b):
    """z-component of (a - o) x (b - o) in the x-z plane: > 0 when o -> a -> b turns counter-clockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull(points):
    """Counter-clockwise convex hull of (x, z) points, without points on its edges (Andrew's monotone chain).

    A point within TOL.length (m) of the line through its hull neighbours is on
    that line: cells built from one chord line share their corners only up to
    round-off.
    """
    unique = sorted(set((float(x), float(z)) for x, z in points))

    def chain(sequence):
        hull = []
        for point in sequence:
            while len(hull) >= 2 and cross(hull[-2], hull[-1], point) <= TOL.length * math.dist(hull[-2], point):
                hull.pop()
            hull.append(point)
        return hull[:-1]

    return chain(unique) + chain(reversed(unique))


def clip_outside_line(polygon, start, end):
    """The part of a convex polygon to the right of the directed line start -> end (Sutherland-Hodgman step).

    Parameters
    ----------
    polygon : list of (x, z)
        Convex, counter-clockwise.
    start, end : (x, z)
        Two points of the line; the kept side is where cross(start, end, p) <= 0.

    Returns
    -------
    list of (x, z)
        The clipped polygon, counter-clockwise, possibly empty.
    """
    def side(p):
        return cross(start, end, p)

    kept = []
    for p, q in zip(polygon, polygon[1:] + polygon[:1]):
        sp, sq = side(p), side(q)
        if sp <= 0.0:
            kept.append(p)
        if (sp < 0.0 < sq) or (sq < 0.0 < sp):
            s = sp / (sp - sq)
            kept.append((p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])))
    return convex_hull(kept) if len(kept) >= 3 else []


def convex_union(polygon_a, polygon_b):
    """The union of two interior-disjoint convex polygons when it is convex, else None.

    The union is convex exactly when the convex hull adds no area:
    area(hull(A u B)) = area(A) + area(B), up to TOL.length times the hull's perimeter.
    """
    hull = convex_hull(list(polygon_a) + list(polygon_b))
    perimeter = sum(math.dist(p, q) for p, q in zip(hull, hull[1:] + hull[:1]))
    excess = polygon_area(hull) - polygon_area(polygon_a) - polygon_area(polygon_b)
    return hull if excess <= TOL.length * perimeter else None


# --- the ring ----------------------------------------------------------------------------

def chord_polygon(radius, voussoirs):
    """Corners (x, z) of the ring's chords on a radius, from the left springing (-r, 0) to the right (r, 0)."""
    return [(radius * x, radius * z) for x, z in (joint_direction(k, voussoirs) for k in range(voussoirs + 1))]


def chord_polygon_area(radius, voussoirs):
    """Area (m²) bounded by the n chords on a radius and the ground line: 1/2 n r² sin(pi / n)."""
    return 0.5 * voussoirs * radius * radius * math.sin(math.pi / voussoirs)


def keystone_id(voussoirs):
    """Id of the key stone: the voussoir at the crown, v{n // 2} (for even n, the one just right of the crown)."""
    check_count("voussoirs", voussoirs, 2)
    return f"v{voussoirs // 2}"


# --- the fill ---------------------------------------------------------------------------------

def course_joints(course, length, block_length):
    """x of the vertical joints inside a course, from -x to +x.

    Running bond centred on x = 0: even courses have joints at whole multiples
    of the block length, odd courses halfway between; joints closer than half a
    block to a wall end are left out, so end blocks are 1/2 to 3/2 blocks long.
    """
    shift = 0.5 * (course % 2)
    reach = length / 2.0 - block_length / 2.0 + TOL.length
    count = math.ceil(length / (2.0 * block_length)) + 1
    return [x for x in ((m + shift) * block_length for m in range(-count, count + 1)) if abs(x) <= reach]


def course_cells(z_range, x_range, joints, extrados):
    """Convex cells of one course: the band cut at the running-bond joints and the extrados corners.

    Parameters
    ----------
    z_range : (float, float)
        The course's bed joints, m.
    x_range : (float, float)
        The wall's ends, m.
    joints : list of float
        Running-bond joints inside the course, increasing, m.
    extrados : list of (x, z)
        Extrados corners from the left springing to the right (`chord_polygon`).

    Returns
    -------
    list of (block, polygon)
        Non-empty cells from -x to +x: the index of the running-bond block that
        holds the cell and its counter-clockwise (x, z) polygon.
    """
    z0, z1 = z_range
    corner_x = [x for x, _ in extrados]
    cuts = sorted(set([*x_range, *joints, *corner_x]))
    cells = []
    for a, b in zip(cuts, cuts[1:]):
        if b - a <= TOL.length:
            continue
        cell = [(a, z0), (b, z0), (b, z1), (a, z1)]
        middle = 0.5 * (a + b)
        if corner_x[0] < middle < corner_x[-1]:
            # The ring's outline over [a, b] is chord k; the fill is on its outer side.
            k = bisect.bisect_right(corner_x, middle) - 1
            cell = clip_outside_line(cell, extrados[k + 1], extrados[k])
        if cell and polygon_area(cell) > TOL.length * (b - a + z1 - z0):
            cells.append((bisect.bisect_right(joints, middle), cell))
    return cells


def joined_cells(cells):
    """Join neighbouring cells of the same running-bond block while their union is convex (left to right)."""
    joined = []
    for block, cell in cells:
        if joined and joined[-1][0] == block:
            union = convex_union(joined[-1][1], cell)
            if union is not None:
                joined[-1] = (block, union)
                continue
        joined.append((block, cell))
    return [cell for _, cell in joined]


def leftmost(polygon):
    """Smallest x of a polygon's corners, m."""
    return min(x for x, _ in polygon)


def joined_small_cells(courses, smallest_area):
    """Join each cell below smallest_area, smallest first, to the neighbour that makes the smallest convex stone.

    Neighbours are the cells of its own course and of the courses above and
    below; a cell with no neighbour that keeps the union convex stays as it is.

    Parameters
    ----------
    courses : list of list of polygon
        Cells of each course from -x to +x.
    smallest_area : float
        m².

    Returns
    -------
    list of list of polygon
        The cells after joining, each course from -x to +x; a stone that spans
        two courses is kept in the lower one.
    """
    courses = [list(cells) for cells in courses]
    while True:
        small = sorted(((polygon_area(cell), c, i) for c, cells in enumerate(courses)
                        for i, cell in enumerate(cells) if polygon_area(cell) < smallest_area))
        for _, c, i in small:
            cell = courses[c][i]
            unions = [(polygon_area(union), d, other, union)
                      for d in (c - 1, c, c + 1) if 0 <= d < len(courses) for other in courses[d]
                      if other is not cell and (union := convex_union(cell, other)) is not None]
            if unions:
                _, d, other, union = min(unions, key=lambda candidate: candidate[0])
                courses[c] = [p for p in courses[c] if p is not cell]
                courses[d] = [p for p in courses[d] if p is not other]
                lower = min(c, d)
                courses[lower] = sorted(courses[lower] + [union], key=leftmost)
                break
        else:
            return courses


def continued_joints(cells, z_top, ring_top, joints_above, smallest_area, block_length):
    """The running-bond joints of the next course, arranged so that each small cell at the bed joint can join up.

    A ring corner just below a bed joint leaves, beside its vertical cut, a
    small cell between the next chord and the bed joint (a triangle; a thin slab
    over a flat key stone). The cell above it joins it into one convex stone
    (`joined_small_cells`) when its bottom edge is the small cell's top edge.
    So each end of that top edge is continued as a joint up through the next
    course, unless the end lies on a chord that goes on rising through the
    bed joint (then the cell above follows the same chord), and the running-bond
    joints over the small cell or within half a block of it are left out.

    Parameters
    ----------
    cells : list of polygon
        The cells of a course.
    z_top : float
        Its upper bed joint, m.
    ring_top : float
        Highest point of the extrados, m.
    joints_above : list of float
        The running-bond joints of the next course, m.
    smallest_area : float
        m², see `SMALL_CELL_FRACTION`.
    block_length : float
        m.

    Returns
    -------
    list of float
        The next course's joints, increasing, m.
    """
    continued, covered = [], []
    for cell in cells:
        top = [x for x, z in cell if abs(z - z_top) <= TOL.length]
        if polygon_area(cell) >= smallest_area or len(top) < 2:
            continue
        ends = (min(top), max(top))
        for end in ends:
            vertical_side = any(abs(end - x) <= TOL.length and z < z_top - TOL.length for x, z in cell)
            if vertical_side or z_top >= ring_top - TOL.length:
                continued.append(end)
        covered.append((ends[0] - block_length / 2.0, ends[1] + block_length / 2.0))
    kept = [x for x in joints_above if not any(low < x < high for low, high in covered)]
    return sorted(set(kept + continued))


def spandrel_sections(length, height, opening_radius, ring_thickness, voussoirs, course_height, block_length):
    """Cross-sections of the ring and the fill in the x-z plane.

    Returns
    -------
    voussoirs : list of polygon
        Voussoir k from the left springing, counter-clockwise (x, z), m.
    courses : list of list of polygon
        The fill cells of each course from -x to +x.
    """
    centreline = opening_radius + ring_thickness / 2.0
    ring = [voussoir_section(centreline, ring_thickness, voussoirs, k) for k in range(voussoirs)]
    extrados = chord_polygon(opening_radius + ring_thickness, voussoirs)
    ring_top = max(z for _, z in extrados)
    courses = max(1, round(height / course_height))
    bed = height / courses
    smallest_area = SMALL_CELL_FRACTION * bed * block_length
    x_range = (-length / 2.0, length / 2.0)
    fill = []
    joints = course_joints(0, length, block_length)
    for c in range(courses):
        z_range = (c * bed, (c + 1) * bed if c < courses - 1 else height)
        cells = joined_cells(course_cells(z_range, x_range, joints, extrados))
        if fill:
            # Small cells of the course below join the cells laid over them, then this course's own.
            fill[-1], cells = joined_small_cells([fill[-1], cells], smallest_area)
        else:
            (cells,) = joined_small_cells([cells], smallest_area)
        fill.append(cells)
        joints = continued_joints(cells, z_range[1], ring_top, course_joints(c + 1, length, block_length),
                                  smallest_area, block_length)
    return ring, joined_small_cells(fill, smallest_area)


def check_spandrel_wall(length, height, thickness, opening_radius, ring_thickness, voussoirs, course_height,
                        block_length):
    """Raise ValueError, naming the parameter, unless the dimensions make a wall with an opening."""
    for name, value in (("length", length), ("height", height), ("thickness", thickness),
                        ("opening_radius", opening_radius), ("ring_thickness", ring_thickness),
                        ("course_height", course_height), ("block_length", block_length)):
        check_positive(name, value)
    check_count("voussoirs", voussoirs, 2)
    extrados = opening_radius + ring_thickness
    if not extrados < length / 2.0:
        raise ValueError(f"opening_radius must leave a pier each side: opening_radius + ring_thickness "
                         f"= {extrados!r} must be below length / 2 = {length / 2.0!r}")
    if not extrados < height:
        raise ValueError(f"opening_radius must leave wall above the crown: opening_radius + ring_thickness "
                         f"= {extrados!r} must be below height = {height!r}")
    if not course_height <= height:
        raise ValueError(f"course_height must not exceed height {height!r}; got {course_height!r}")


def spandrel_wall(length=16.2, height=5.0, thickness=0.8, opening_radius=3.8, ring_thickness=0.6, voussoirs=15,
                  course_height=0.5, block_length=1.0, density=1800.0, friction=0.4):
    """Model document of a running-bond wall with a semicircular arch opening (seed 000 fig. 8, sec. 4).

    Parameters
    ----------
    length, height, thickness : float
        Wall size along x, z and y, m.
    opening_radius : float
        Intrados radius R of the opening, m; springings at x = +-R on z = 0.
    ring_thickness : float
        Radial depth of the voussoirs, m; opening_radius + ring_thickness must stay
        below height and below length / 2.
    voussoirs : int
        Number of voussoirs n >= 2, ids "v0".."v{n-1}" from the left springing; the
        key stone is `keystone_id` (v{n // 2}).
    course_height : float
        Nominal course height, m; the wall holds round(height / course_height)
        courses of equal height.
    block_length : float
        Length of a whole running-bond block, m.
    density : float
        kg/m³.
    friction : float
        Coulomb friction coefficient of every joint.

    Returns
    -------
    dict
        The model document: voussoirs "v{k}", spandrel blocks "s{course}_{index}"
        (index from -x; a block that spans two courses at the ring counts in the
        lower), then "ground".
    """
    check_spandrel_wall(length, height, thickness, opening_radius, ring_thickness, voussoirs, course_height,
                        block_length)
    check_positive("density", density)
    check_non_negative("friction", friction)
    y_range = (-thickness / 2.0, thickness / 2.0)
    ring, courses = spandrel_sections(length, height, opening_radius, ring_thickness, voussoirs, course_height,
                                      block_length)
    blocks = [block_entry(f"v{k}", *polygon_prism(section, *y_range)) for k, section in enumerate(ring)]
    blocks += [block_entry(f"s{c}_{i}", *polygon_prism(cell, *y_range))
               for c, cells in enumerate(courses) for i, cell in enumerate(cells)]
    # The slab reaches the wall's height beyond it, so that a toppled wall lands on it.
    reach = height
    blocks.append(ground_slab((-length / 2.0 - reach, length / 2.0 + reach),
                              (y_range[0] - reach, y_range[1] + reach), course_height))
    return model_document(blocks, friction, density)


GENERATOR = Generator(
    name="spandrel_wall",
    function=spandrel_wall,
    help="Running-bond wall with a semicircular arch opening on a ground slab (seed 000 fig. 8, sec. 4).",
    parameters=described_parameters(spandrel_wall, {
        "length": ("m", "wall length along x", "> 0, > 2 (opening_radius + ring_thickness)"),
        "height": ("m", "wall height (z)", "> 0, > opening_radius + ring_thickness"),
        "thickness": ("m", "wall thickness (y)", "> 0"),
        "opening_radius": ("m", "intrados radius R of the semicircular opening", "> 0"),
        "ring_thickness": ("m", "radial depth of the voussoirs", "> 0"),
        "voussoirs": ("", "number of voussoirs; the key stone is v{n // 2}", ">= 2"),
        "course_height": ("m", "nominal course height (height / courses, rounded)", "> 0, <= height"),
        "block_length": ("m", "length of a whole running-bond block", "> 0"),
        "density": ("kg/m^3", "density of the stone", "> 0"),
        "friction": ("", "Coulomb friction coefficient of the joints", ">= 0"),
    }),
)
