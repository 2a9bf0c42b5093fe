"""Conventional thrust lines of any arch-like chain of blocks in a model (seed 000 sec. 3.1).

engine.post.funicular draws the conventional lines of graphical statics (Heyman, "The
stone skeleton", Int. J. Solids Struct. 2, 1966; "The Masonry Arch", 1982, ch. 3) for a
section given in its vertical plane. This module builds that section from a model and
a solved result, so that the lines sit next to the effective thrust line
(engine.post.thrust) of the same chain, as seed 000 (sec. 3.1, fig. 8) compares them.

The section of a chain
----------------------
1. The chain is the effective thrust line's: named, or found automatically. Its
   movable blocks c_0 .. c_{n-1} are the voussoirs; a support at either end is the
   abutment beyond it. Joint 0 is the interface of c_0 with the abutment, or else with
   the block outside the chain across its most loaded joint (the chain's springing);
   joint n likewise for c_{n-1}; joint k (0 < k < n) lies between c_{k-1} and c_k.
2. The chain's plane is the vertical plane that best fits the voussoirs' centres of
   mass: through their mean, along the principal direction of their horizontal
   positions, x increasing from c_0 to c_{n-1}, z up. Gravity must be vertical and the
   centres within TOL.wall_plane_relative of the plane's length off it.
3. Each joint polygon (its contact points) is cut by the plane: a segment whose ends
   are I_j and E_j, named so that n_j = (d_z, -d_x) / |d_j|, d_j = E_j - I_j, points from
   voussoir j - 1 into voussoir j (engine.post.funicular's convention): the joint's
   normal, turned into the downstream block and seen in the plane, picks the naming.
4. The loads are vertical: each voussoir's mass loads (weight and any body
   acceleration) at its centre of mass, and every point load on it at its point, at
   the result's factor of the live loads (1 for a static result); their horizontal
   components are left out, as graphical statics of vertical loads leaves them.

engine.post.funicular.thrust_bounds then gives the minimum- and maximum-thrust lines
and the limit line with the geometric safety factor; their joint crossings are mapped
back to 3-D in the plane.
"""
from dataclasses import dataclass

import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.post.funicular import arch_section, combined, thrust_bounds, vertical_loads
from extrados.engine.post.stress import point_loads
from extrados.engine.post.thrust import CHAIN_PATH, effective_thrust_line_of_result, loaded_joints, result_interfaces
from extrados.engine.tolerance import TOL

UP = np.array([0.0, 0.0, 1.0])
#: Names of the result document's "thrust_lines" entries, in the order they are written.
CONVENTIONAL_NAMES = ("minimum_thrust", "maximum_thrust", "limit")


@dataclass(frozen=True)
class VerticalPlane:
    """A vertical plane with coordinates (x, z): x along ``axis`` from ``origin``, z the height."""

    origin: np.ndarray  # (3,) float64, m, at z = 0
    axis: np.ndarray    # (3,) float64, unit, horizontal

    @property
    def normal(self):
        """(3,) float64, unit horizontal normal of the plane."""
        return np.cross(self.axis, UP)

    def coordinates(self, points):
        """(n, 2) float64, m, plane coordinates (x, z) of (n, 3) points (projected onto the plane)."""
        points = np.asarray(points, float).reshape(-1, 3)
        return np.column_stack([(points - self.origin) @ self.axis, points[:, 2]])

    def points(self, xz):
        """(n, 3) float64, m, the points of the plane at (n, 2) plane coordinates (x, z)."""
        xz = np.asarray(xz, float).reshape(-1, 2)
        return self.origin + xz[:, :1] * self.axis + xz[:, 1:] * UP


@dataclass(frozen=True)
class ChainSection:
    """A chain of blocks cut by its vertical plane: what engine.post.funicular needs."""

    blocks: tuple    # (n_voussoirs + 2,) str: the block beyond joint 0, the voussoirs, the block beyond joint n
    plane: VerticalPlane
    section: object  # funicular.ArchSection, joints in plane coordinates
    loads: object    # funicular.VerticalLoads, on the voussoirs


# --- the plane (step 2) ------------------------------------------------------------

def check_vertical_gravity(gravity):
    """Raise ModelError (path ``gravity``) unless gravity points down within TOL.parallel_cosine."""
    gravity = np.asarray(gravity, float)
    magnitude = np.linalg.norm(gravity)
    if not magnitude > 0.0 or -gravity[2] < TOL.parallel_cosine * magnitude:
        raise ModelError(f"conventional thrust lines need gravity along -z (vertical loads); got {gravity.tolist()}",
                         path="gravity")


def vertical_plane(centres, path=CHAIN_PATH):
    """The vertical plane that best fits the centres of a chain's blocks (step 2).

    Parameters
    ----------
    centres : (n_voussoirs, 3) array_like, m
        Centres of mass of the chain's blocks, in chain order.
    path : str
        Where the chain sits in the request, for error messages.

    Returns
    -------
    VerticalPlane
        Through the centres' mean at z = 0, x increasing from the first centre to the last.

    Raises
    ------
    ModelError
        The centres fix no plane (one block, or all on a vertical line), or they lie off
        their best plane by more than TOL.wall_plane_relative of their extent along it.
    """
    horizontal = np.asarray(centres, float).reshape(-1, 3)[:, :2]
    if len(horizontal) < 2:
        raise ModelError(f"a chain of {len(horizontal)} movable block(s) fixes no vertical plane", path=path)
    middle = horizontal.mean(axis=0)
    _, _, directions = np.linalg.svd(horizontal - middle)  # rows: principal directions, largest spread first
    along, off = (horizontal - middle) @ directions[0], (horizontal - middle) @ directions[-1]
    length = np.ptp(along)
    if length <= TOL.length:
        raise ModelError("the chain's block centres lie on one vertical line: they fix no vertical plane", path=path)
    if np.abs(off).max() > TOL.wall_plane_relative * length:
        raise ModelError(f"the chain's block centres lie up to {np.abs(off).max():.3g} m off their best vertical "
                         f"plane (more than {TOL.wall_plane_relative:g} of its {length:.3g} m): the chain is not an "
                         "arch in a vertical plane", path=path)
    sign = 1.0 if along[-1] >= along[0] else -1.0
    return VerticalPlane(np.array([middle[0], middle[1], 0.0]), sign * np.array([*directions[0], 0.0]))


def chain_plane(model, chain, path=CHAIN_PATH):
    """`vertical_plane` of a named chain's movable blocks, after checking gravity; checks a request early.

    Parameters
    ----------
    model : Model
    chain : sequence of str
        Block ids, known in the model; supports (which may end a chain) are left out.
    """
    check_vertical_gravity(model.gravity)
    mechanics = model.mechanics
    index = {block_id: i for i, block_id in enumerate(mechanics.block_ids)}
    movable = [index[block_id] for block_id in chain if not mechanics.is_support[index[block_id]]]
    return vertical_plane(mechanics.position0[movable], path)


# --- the joints (steps 1 and 3) --------------------------------------------------------

def springing_joint(is_support, interfaces, loaded, chain, block, used):
    """Joint index of ``block``'s springing: its loaded joint with a block outside ``chain``,
    on a support first, then the most loaded; not in ``used``; None when there is none."""
    first, second = interfaces.body_first, interfaces.body_second
    outside = np.where(first == block, second, first)
    candidates = [j for j in np.flatnonzero(loaded & ((first == block) | (second == block)))
                  if outside[j] not in chain and j not in used]
    if not candidates:
        return None
    return int(min(candidates, key=lambda j: (not is_support[outside[j]], -interfaces.normal_force[j])))


def chain_joints(block_ids, is_support, interfaces, line, path=CHAIN_PATH):
    """Voussoirs and joints of an effective thrust line's chain (step 1).

    Parameters
    ----------
    block_ids : sequence of str
    is_support : (n_blocks,) bool
    interfaces : Interfaces
    line : EffectiveThrustLine
    path : str
        Where the chain sits in the request, for error messages.

    Returns
    -------
    blocks : list of int
        (n_voussoirs + 2,) block indices: beyond joint 0, the voussoirs, beyond joint n.
    joints : list of int
        (n_voussoirs + 1,) joint indices into ``interfaces``.
    """
    index = {block_id: i for i, block_id in enumerate(block_ids)}
    chain = [index[block_id] for block_id in line.blocks]
    joints = [int(j) for j in line.joint]
    voussoirs = [b for b in chain if not is_support[b]]
    loaded = loaded_joints(interfaces)
    for end in (0, -1):
        if is_support[chain[end]]:
            continue
        joint = springing_joint(is_support, interfaces, loaded, set(voussoirs), chain[end], used=joints)
        if joint is None:
            raise ModelError(f"block '{block_ids[chain[end]]}' ends the chain but bears on no block outside it: "
                             "the chain has no springing there", path=path)
        beyond = int(interfaces.body_first[joint] + interfaces.body_second[joint] - chain[end])
        chain, joints = ([beyond] + chain, [joint] + joints) if end == 0 else (chain + [beyond], joints + [joint])
    return chain, joints


def joint_ends(polygon, plane):
    """Ends (2, 2) of the segment where ``plane`` cuts a convex joint polygon, in plane coordinates, or None.

    The cut of the polygon's convex hull is the hull of its corners on the plane
    (within TOL.length) and of the crossings P_a + s_a / (s_a - s_b) (P_b - P_a) of every
    pair of corners on opposite sides, s the signed distances to the plane.
    """
    polygon = np.asarray(polygon, float).reshape(-1, 3)
    distance = (polygon - plane.origin) @ plane.normal
    a, b = np.triu_indices(len(polygon), k=1)
    crossing = distance[a] * distance[b] < 0.0
    a, b = a[crossing], b[crossing]
    fraction = distance[a] / (distance[a] - distance[b])
    cut = np.vstack([polygon[np.abs(distance) <= TOL.length],
                     polygon[a] + fraction[:, None] * (polygon[b] - polygon[a])])
    xz = plane.coordinates(cut)
    if len(xz) < 2:
        return None
    gap = np.linalg.norm(xz[:, None, :] - xz[None, :, :], axis=2)
    first, last = np.unravel_index(np.argmax(gap), gap.shape)
    return None if gap[first, last] <= TOL.length else xz[[first, last]]


def intrados_first(ends, normal_xz):
    """(I, E) from a joint's two ends: n = (d_z, -d_x), d = E - I, along ``normal_xz`` (step 3).

    ends : (2, 2) float64, m; normal_xz : (2,) float64, the joint normal into the downstream block, in the plane.
    """
    d = ends[1] - ends[0]
    return (ends[0], ends[1]) if d[1] * normal_xz[0] - d[0] * normal_xz[1] > 0.0 else (ends[1], ends[0])


def joint_section(result, plane, blocks, joints, path=CHAIN_PATH):
    """(intrados, extrados), each (n_joints, 2) float64, m: the joints of a Result cut by the chain's plane (step 3)."""
    ids, interfaces, points = result.blocks.ids, result.interfaces, result.contacts.point
    starts = interfaces.polygon_start
    intrados, extrados = [], []
    for k, joint in enumerate(joints):
        downstream = blocks[k + 1]
        ends = joint_ends(points[starts[joint]:starts[joint + 1]], plane)
        if ends is None:
            raise ModelError(f"the chain's vertical plane misses the joint between '{ids[blocks[k]]}' and "
                             f"'{ids[downstream]}'", path=path)
        into = interfaces.normal[joint] * (1.0 if interfaces.body_first[joint] == downstream else -1.0)
        inner, outer = intrados_first(ends, np.array([into @ plane.axis, into[2]]))
        intrados.append(inner)
        extrados.append(outer)
    return np.array(intrados), np.array(extrados)


# --- the loads (step 4) -------------------------------------------------------------------

def live_factor_of_result(result):
    """The factor of the live loads a Result stands under: 1 for static, its load factor for load_factor."""
    if result.analysis == "static":
        return 1.0
    if result.analysis == "load_factor":
        return result.load_factor or 0.0
    raise ModelError(f"conventional thrust lines need a static or load_factor result, not {result.analysis!r}",
                     path="analysis.thrust_line.conventional")


def chain_loads(model, section, voussoirs, plane, live_factor):
    """Vertical loads on the voussoirs (step 4), downward positive.

    Parameters
    ----------
    model : Model
    section : ArchSection
    voussoirs : sequence of int
        (n_voussoirs,) block indices in chain order.
    plane : VerticalPlane
    live_factor : float
        Multiplier of the live loads.

    Returns
    -------
    VerticalLoads
        Mass loads at the centres of mass, then point loads at their points.
    """
    mechanics = model.mechanics
    voussoirs = np.asarray(voussoirs, np.int64)
    points = point_loads(model, live_factor)
    on_chain = np.isin(points.block, voussoirs)
    chain_position = {int(b): k for k, b in enumerate(voussoirs)}
    point_voussoir = np.array([chain_position[int(b)] for b in points.block[on_chain]], np.int64)
    point_x = plane.coordinates(points.arm[on_chain] + mechanics.position0[points.block[on_chain]])[:, 0]
    point_up = points.force[on_chain, 2]  # (n_points,) N, upward positive
    # the load wrench's vertical force less its point loads: weight and body accelerations, at the centre
    total_up = mechanics.dead_wrench[voussoirs, 2] + live_factor * mechanics.live_wrench[voussoirs, 2]
    mass_up = total_up - np.bincount(point_voussoir, weights=point_up, minlength=len(voussoirs))
    centre_x = plane.coordinates(mechanics.position0[voussoirs])[:, 0]
    return combined(vertical_loads(section, np.arange(len(voussoirs)), centre_x, -mass_up),
                    vertical_loads(section, point_voussoir, point_x, -point_up))


# --- the lines ----------------------------------------------------------------------------

def chain_section(model, result, chain=None, path=CHAIN_PATH):
    """The ChainSection of a result's chain: its effective thrust line's, named or automatic.

    Parameters
    ----------
    model : Model
        The analysed model.
    result : Result
        Its static or load_factor result.
    chain : sequence of str, optional
        Block ids of a named chain (engine.post.thrust.named_chain); by default the automatic chain.
    path : str
        Where the chain sits in the request, for error messages.

    Raises
    ------
    ModelError
        No chain, a chain not in a vertical plane, gravity not vertical, a joint open,
        missing or missed by the plane (module docstring).
    """
    check_vertical_gravity(model.gravity)
    block_ids, is_support, interfaces = result_interfaces(result)
    line = effective_thrust_line_of_result(result, chain=chain, path=path)
    if line is None:
        raise ModelError("no chain of blocks between two supports was found: name one", path=path)
    blocks, joints = chain_joints(block_ids, is_support, interfaces, line, path)
    voussoirs = blocks[1:-1]
    plane = vertical_plane(model.mechanics.position0[voussoirs], path)
    section = arch_section(*joint_section(result, plane, blocks, joints, path))
    loads = chain_loads(model, section, voussoirs, plane, live_factor_of_result(result))
    return ChainSection(tuple(block_ids[b] for b in blocks), plane, section, loads)


def line_document(name, line, plane, blocks, missing):
    """A "thrust_lines" entry: the joint crossings in 3-D and the thrust H (N); ``missing`` says why line is None."""
    if line is None:
        return {"name": name, "points": [], "blocks": list(blocks), "error": missing}
    return {"name": name, "points": plane.points(line.crossing).tolist(), "blocks": list(blocks),
            "thrust": float(line.thrust)}


def conventional_thrust_lines(model, result, chain=None, path=CHAIN_PATH):
    """The result document's conventional "thrust_lines" entries of a chain (`CONVENTIONAL_NAMES`).

    Parameters
    ----------
    model, result, chain, path
        As in `chain_section`.

    Returns
    -------
    list of 3 dict
        ``{"name", "points": [[x, y, z], ...] (m, one per joint, springing to springing),
        "blocks", "thrust" (N)}`` for the minimum- and maximum-thrust lines and the limit
        line, which also carries "geometric_safety_factor"; a line that does not exist
        has ``"points": []`` and an "error" saying why.
    """
    cut = chain_section(model, result, chain, path)
    bounds = thrust_bounds(cut.section, cut.loads)
    none_fits = f"no thrust line fits inside the joints (geometric safety factor {bounds.geometric_safety_factor:.4g})"
    unbounded = "the thrust is unbounded: a straight line fits inside the joints"
    limit = line_document("limit", bounds.limit, cut.plane, cut.blocks, None)
    limit["geometric_safety_factor"] = float(bounds.geometric_safety_factor)
    return [line_document("minimum_thrust", bounds.minimum, cut.plane, cut.blocks, none_fits),
            line_document("maximum_thrust", bounds.maximum, cut.plane, cut.blocks,
                          none_fits if bounds.minimum is None else unbounded),
            limit]


def error_documents(error, blocks=()):
    """The conventional "thrust_lines" entries when the section or its lines cannot be drawn."""
    return [{"name": name, "points": [], "blocks": list(blocks), "error": str(error)} for name in CONVENTIONAL_NAMES]
