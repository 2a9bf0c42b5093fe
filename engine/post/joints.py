"""Joint resultants read against their joint polygons (seed 000 sec. 3.1).

A joint carries its resultant N (compression) at the centre of pressure c. Read as an
engineer reads a masonry section:

- eccentricity e = c - g, with g the centroid of the joint polygon;
- c inside the polygon: a compressive joint can carry it (a rigid no-tension joint);
- c inside the central kernel (core): a linear normal stress over the polygon that
  carries N at c has no tension anywhere (middle third of a rectangle);
- shear utilisation |V| / (mu N): 1 on the Coulomb cone;
- reactions: the resultants of the joints of each support block, summed.

Central kernel. With r measured from g in the joint plane, A the area and
J = int r r^T dA the second moments, the linear stress that carries N at e is
    sigma(r) = N (1/A + e^T J^-1 r),                                          (1)
(int sigma dA = N and int r sigma dA = N e). It is non-negative over the polygon iff it
is at every vertex r_i: 1 + A e^T J^-1 r_i >= 0. The kernel is this intersection of
half-planes; its vertices are the antipoles of the edge lines: for the edge line
n^T r = d (n outward, d > 0), the resultant whose neutral axis is that line is at
    e = -J n / (A d),                                                          (2)
one kernel vertex per polygon edge, in the edges' counter-clockwise order.

Degenerate joints. Contacts of an edge on a face (two points, or more in a line) make
a segment; a vertex on a face makes a point. A segment of length L is read as a line
section with uniform stress per length, so its kernel is its middle third (eq. 2 in one
dimension: J / (A d) = (L^3 / 12) / (L L / 2) = L / 6); a point is its own centroid and
kernel.
"""
import numpy as np

from extrados.engine.result import JointAdmissibility, SupportReactions
from extrados.engine.tolerance import TOL


def plane_basis(normal):
    """Unit vectors u, v with (normal, u, v) right-handed and orthonormal.

    Parameters
    ----------
    normal : (..., 3) float64, unit

    Returns
    -------
    u, v : (..., 3) float64
    """
    helper = np.zeros(np.shape(normal))
    np.put_along_axis(helper, np.argmin(np.abs(normal), axis=-1)[..., None], 1.0, axis=-1)
    u = np.cross(helper, normal)
    u /= np.linalg.norm(u, axis=-1, keepdims=True)
    return u, np.cross(normal, u)


def cross2(a, b):
    """z component of the cross product of 2-vectors, (...) from (..., 2) and (..., 2)."""
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def polygon_moments(polygon):
    """Area, centroid and centroidal second moments of a simple polygon (or of a stack of them).

    Shoelace sums over the edges p -> q with c_pq = p x q:
        A = sum c_pq / 2,   A g = sum c_pq (p + q) / 6,
        int r r^T dA = sum c_pq (2 p p^T + 2 q q^T + p q^T + q p^T) / 24   (about the origin),
    then J = int r r^T dA - A g g^T (parallel axes).

    Parameters
    ----------
    polygon : (..., k, 2) float64, m, k >= 3, counter-clockwise

    Returns
    -------
    area : (...) float64, m^2
    centroid : (..., 2) float64, m
    second_moment : (..., 2, 2) float64, m^4, J = int (r - g)(r - g)^T dA
    """
    p = polygon
    q = np.roll(polygon, -1, axis=-2)
    c = cross2(p, q)
    area = 0.5 * c.sum(axis=-1)
    centroid = (c[..., None] * (p + q)).sum(axis=-2) / (6.0 * area[..., None])
    outer = 2.0 * np.einsum("...ni,...nj->...nij", p, p) + 2.0 * np.einsum("...ni,...nj->...nij", q, q)
    outer += np.einsum("...ni,...nj->...nij", p, q) + np.einsum("...ni,...nj->...nij", q, p)
    about_origin = np.einsum("...n,...nij->...ij", c, outer) / 24.0
    return area, centroid, about_origin - area[..., None, None] * centroid[..., :, None] * centroid[..., None, :]


def drop_straight_corners(polygon):
    """The polygon without corners that turn by less than TOL.patch_area (collinear, repeated or reflex).

    Parameters
    ----------
    polygon : (k, 2) float64, m, counter-clockwise

    Returns
    -------
    (k', 2) float64, k' <= k
    """
    while len(polygon) >= 3:
        straight = np.flatnonzero(corner_turns(polygon) <= TOL.patch_area)
        if len(straight) == 0:
            break
        polygon = np.delete(polygon, straight[0], axis=0)
    return polygon


def corner_turns(polygon):
    """(..., k) cross product of the edges in and out of each corner of (..., k, 2) polygons (m^2)."""
    return cross2(polygon - np.roll(polygon, 1, axis=-2), np.roll(polygon, -1, axis=-2) - polygon)


def farthest_pair(points):
    """The two points (2, 2) farthest apart among (k, 2) points, k >= 2."""
    distance = np.linalg.norm(points[:, None] - points[None], axis=2)
    i, j = np.unravel_index(np.argmax(distance), distance.shape)
    return points[[i, j]]


def by_angle(points):
    """(..., k, 2) points sorted by their angle about their mean (counter-clockwise from -x), stably."""
    offset = points - points.mean(axis=-2, keepdims=True)
    order = np.argsort(np.arctan2(offset[..., 1], offset[..., 0]), axis=-1, kind="stable")
    return np.take_along_axis(points, order[..., None], axis=-2)


def joint_outline(points):
    """The joint's section as a convex polygon, a segment or a point.

    Parameters
    ----------
    points : (k, 2) float64, m, the contact points of a joint in its plane, any order

    Returns
    -------
    (k', 2) float64
        A counter-clockwise polygon (k' >= 3, area above TOL.patch_area), else the two
        ends of the segment (k' = 2), else one point (k' = 1, all within TOL.length).
    """
    mean = points.mean(axis=0)
    if len(points) == 1 or np.linalg.norm(points - mean, axis=1).max() <= TOL.length:
        return mean[None]
    polygon = drop_straight_corners(by_angle(points))
    if len(polygon) >= 3 and polygon_moments(polygon)[0] > TOL.patch_area:
        return polygon
    return farthest_pair(points)


def full_outlines(points):
    """`joint_outline` of m joints of k >= 2 points each, where it keeps all k points.

    Parameters
    ----------
    points : (m, k, 2) float64, m

    Returns
    -------
    outline : (m, k, 2) float64
        For k >= 3 the points by angle, for k = 2 the points as given: what `joint_outline` returns
        where ``kept``.
    kept : (m,) bool
        The outline is that: the points spread beyond TOL.length and, for k >= 3, no corner is
        straight and the area exceeds TOL.patch_area. Elsewhere `joint_outline` drops points.
    """
    spread = np.linalg.norm(points - points.mean(axis=1, keepdims=True), axis=2).max(axis=1)
    kept = spread > TOL.length
    if points.shape[1] == 2:
        return points, kept
    outline = by_angle(points)
    kept &= (corner_turns(outline) > TOL.patch_area).all(axis=1)
    # shoelace area, as polygon_moments (which would divide by a zero area here)
    kept &= 0.5 * cross2(outline, np.roll(outline, -1, axis=1)).sum(axis=1) > TOL.patch_area
    return outline, kept


def outline_centroid(outline):
    """(..., 2) centroid of (..., k, 2) outlines of `joint_outline`: area centroid, midpoint or the point."""
    if outline.shape[-2] >= 3:
        return polygon_moments(outline)[1]
    return outline.mean(axis=-2)


def central_kernel(outline):
    """Corners of the central kernel of an outline of `joint_outline` (eq. 2).

    Parameters
    ----------
    outline : (..., k, 2) float64, m, convex counter-clockwise polygons, segments or points

    Returns
    -------
    (..., k, 2) float64, m
        One antipole per edge for a polygon, counter-clockwise; the middle third of a
        segment; the point itself.
    """
    if outline.shape[-2] < 3:
        middle = outline.mean(axis=-2, keepdims=True)
        return middle + (outline - middle) / 3.0
    area, centroid, second_moment = polygon_moments(outline)
    edge = np.roll(outline, -1, axis=-2) - outline
    outward = np.stack([edge[..., 1], -edge[..., 0]], axis=-1) / np.linalg.norm(edge, axis=-1)[..., None]
    distance = np.einsum("...ni,...ni->...n", outward, outline - centroid[..., None, :])
    return centroid[..., None, :] - (outward @ second_moment) / (area[..., None, None] * distance[..., None])


def outside_distance(point, outline):
    """How far a point lies outside an outline of `joint_outline` (m); <= 0 inside.

    Parameters
    ----------
    point : (..., 2) float64, m
    outline : (..., k, 2) float64, m, convex counter-clockwise polygons, segments or points

    Returns
    -------
    (...) float64
        Distance to the point or the segment; for a polygon, the largest signed distance
        beyond its edge lines (negative inside, a lower bound of the distance outside).
    """
    if outline.shape[-2] == 1:
        return np.linalg.norm(point - outline[..., 0, :], axis=-1)
    if outline.shape[-2] == 2:
        a, b = outline[..., 0, :], outline[..., 1, :]
        along = np.einsum("...i,...i->...", point - a, b - a) / np.einsum("...i,...i->...", b - a, b - a)
        closest = a + np.clip(along, 0.0, 1.0)[..., None] * (b - a)
        return np.linalg.norm(point - closest, axis=-1)
    edge = np.roll(outline, -1, axis=-2) - outline
    return (cross2(point[..., None, :] - outline, edge) / np.linalg.norm(edge, axis=-1)).max(axis=-1)


def containment_tolerance(outline):
    """Distance (m) within which a point counts as inside an outline: TOL.geometric_relative of its size.

    (..., k, 2) outlines give (...) tolerances.
    """
    size = np.linalg.norm(outline.max(axis=-2) - outline.min(axis=-2), axis=-1)
    return np.maximum(TOL.length, TOL.geometric_relative * size)


def shear_utilisation(shear_force, normal_force, friction):
    """|V| / (mu N) of each joint: 1 on the Coulomb cone.

    Parameters
    ----------
    shear_force, normal_force : (n,) float64, N
    friction : (n,) float64

    Returns
    -------
    (n,) float64
        inf where the joint has no shear capacity (mu N <= 0); never NaN.
    """
    capacity = friction * normal_force
    ratio = np.full(len(capacity), np.inf)
    np.divide(np.abs(shear_force), capacity, out=ratio, where=capacity > 0.0)
    return ratio


def closed_joints(normal_force):
    """(n,) bool: the joint carries more than TOL.open_contact_relative of the largest joint force."""
    largest = np.abs(normal_force).max(initial=0.0)
    return (normal_force > 0.0) & (normal_force > TOL.open_contact_relative * largest)


def read_outlines(outline, origin, basis, centre):
    """Centroid, eccentricity, containment and kernel of joints from their outlines, in world coordinates.

    Parameters
    ----------
    outline : (..., k, 2) float64, m, in-plane outlines (`joint_outline`) about ``origin``
    origin : (..., 3) float64, m
    basis : (..., 2, 3) float64, rows u, v of each joint plane
    centre : (..., 3) float64, m, centres of pressure

    Returns
    -------
    centroid : (..., 3), eccentricity : (..., 3), in_polygon : (...) bool, in_kernel : (...) bool,
    kernel : (..., k, 3)
    """
    centroid = outline_centroid(outline)
    centre_2d = np.einsum("...i,...ji->...j", centre - origin, basis)
    kernel = central_kernel(outline)
    tolerance = containment_tolerance(outline)
    in_polygon = outside_distance(centre_2d, outline) <= tolerance
    in_kernel = outside_distance(centre_2d, kernel) <= tolerance
    return (origin + in_world(centroid, basis), in_world(centre_2d - centroid, basis), in_polygon, in_kernel,
            origin[..., None, :] + kernel @ basis)


def in_world(vector, basis):
    """(..., 3) world vectors of (..., 2) in-plane components on (..., 2, 3) bases."""
    return np.einsum("...j,...ji->...i", vector, basis)


def joint_planes(points, normal):
    """Origin (mean of the points, (..., 3)) and in-plane basis (rows u, v, (..., 2, 3)) of joints.

    ``points`` is (..., k, 3), ``normal`` (..., 3).
    """
    return points.mean(axis=-2), np.stack(plane_basis(normal), axis=-2)


def read_joint(points, normal, centre):
    """Centroid, eccentricity, containment and kernel of one joint, in world coordinates."""
    origin, basis = joint_planes(points, normal)
    outline = joint_outline((points - origin) @ basis.T)
    return read_outlines(outline, origin, basis, centre)


def read_joints_of_size(points, normal, centre):
    """`read_joint` of m joints of k >= 2 points each whose outline keeps all k points.

    Parameters
    ----------
    points : (m, k, 3) float64, m
    normal, centre : (m, 3) float64

    Returns
    -------
    kept : (m,) bool, the joints read here (`full_outlines`); the other rows are not meaningful
    centroid, eccentricity : (m, 3); in_polygon, in_kernel : (m,) bool; kernel : (m, k, 3)
    """
    origin, basis = joint_planes(points, normal)
    outline, kept = full_outlines((points - origin[:, None]) @ np.swapaxes(basis, 1, 2))
    with np.errstate(divide="ignore", invalid="ignore"):   # rows not kept may be degenerate
        return (kept, *read_outlines(outline, origin, basis, centre))


def joint_admissibility(interfaces, contact_point, contact_friction):
    """Eccentricity, kernel, containment and shear utilisation of every joint.

    Joints of equal point counts are read together (`read_joints_of_size`); those whose outline
    drops points (straight corners, slivers, a single point) one by one (`read_joint`).

    Parameters
    ----------
    interfaces : Interfaces
        From `engine.post.interfaces.interface_resultants`.
    contact_point : (n_c, 3) float64, m
        The contact points; those of joint k are polygon_start[k]:polygon_start[k + 1].
    contact_friction : (n_c,) float64
        Friction coefficient of each contact (one joint law per joint).

    Returns
    -------
    JointAdmissibility
        For a joint that is not closed the centre is the mean of its points
        (`interface_resultants`) and the other fields describe that point.
    """
    starts = interfaces.polygon_start
    counts = np.diff(starts)
    n_pairs = len(counts)
    centroid = np.zeros((n_pairs, 3))
    eccentricity = np.zeros((n_pairs, 3))
    in_polygon = np.zeros(n_pairs, bool)
    in_kernel = np.zeros(n_pairs, bool)
    kernels = {}                                                  # joint -> (k', 3) kernel corners
    for k in np.unique(counts[counts >= 2]):
        rows = np.flatnonzero(counts == k)
        points = contact_point[starts[rows][:, None] + np.arange(k)]   # (m, k, 3)
        kept, *read = read_joints_of_size(points, interfaces.normal[rows], interfaces.centre[rows])
        rows = rows[kept]
        centroid[rows], eccentricity[rows], in_polygon[rows], in_kernel[rows] = (value[kept] for value in read[:4])
        kernels.update(zip(rows.tolist(), read[4][kept]))
    for j in sorted(set(range(n_pairs)) - kernels.keys()):
        centroid[j], eccentricity[j], in_polygon[j], in_kernel[j], kernels[j] = read_joint(
            contact_point[starts[j]:starts[j + 1]], interfaces.normal[j], interfaces.centre[j])
    ordered = [kernels[j] for j in range(n_pairs)]
    kernel_start = np.zeros(n_pairs + 1, np.int64)
    np.cumsum([len(kernel) for kernel in ordered], out=kernel_start[1:])
    return JointAdmissibility(
        closed=closed_joints(interfaces.normal_force), centroid=centroid, eccentricity_vector=eccentricity,
        eccentricity=np.linalg.norm(eccentricity, axis=1), in_polygon=in_polygon, in_kernel=in_kernel,
        shear_utilisation=shear_utilisation(interfaces.shear_force, interfaces.normal_force,
                                            contact_friction[starts[:-1]]),
        kernel=np.concatenate(ordered) if ordered else np.zeros((0, 3)), kernel_start=kernel_start)


def support_reactions(interfaces, is_support, centre_of_mass):
    """The force and moment each support applies to the structure: its joints' resultants, summed.

    Joint k applies F_k (at its centre c_k, with the couple M_k about c_k) on its first
    block from its second. A support that is the second block applies F_k on the
    structure; one that is the first applies -F_k. About the support's centre of mass x_s:
        R_s = sum +-F_k,   M_s = sum +-(M_k + (c_k - x_s) x F_k).

    Parameters
    ----------
    interfaces : Interfaces
    is_support : (n_blocks,) bool
    centre_of_mass : (n_blocks, 3) float64, m, where each block is now

    Returns
    -------
    SupportReactions
        One row per support block that shares a joint, in block order.
    """
    first, second = interfaces.body_first, interfaces.body_second
    sign = np.where(is_support[second], 1.0, 0.0) - np.where(is_support[first], 1.0, 0.0)
    support = np.where(is_support[second], second, first)
    touching = sign != 0.0
    blocks = np.unique(support[touching])
    row = np.searchsorted(blocks, support[touching])
    point = centre_of_mass[blocks]
    force = sign[touching, None] * interfaces.force[touching]
    arm = interfaces.centre[touching] - point[row]
    moment = sign[touching, None] * interfaces.moment[touching] + np.cross(arm, force)
    total_force = np.zeros((len(blocks), 3))
    total_moment = np.zeros((len(blocks), 3))
    np.add.at(total_force, row, force)
    np.add.at(total_moment, row, moment)
    return SupportReactions(blocks.astype(np.int64), total_force, total_moment, point)
