"""Conventional thrust line of a voussoir arch under vertical loads (graphical statics).

The graphical method seed 000 (sec. 3.1) compares the effective thrust line with:
a funicular polygon of the loads, placed by a three-point choice or a chosen
horizontal thrust, admissible when it stays inside the arch (Heyman, "The stone
skeleton", Int. J. Solids Struct. 2, 1966; Heyman, "The Masonry Arch", 1982, ch. 3).

Conventions
-----------
The arch lies in its vertical plane, coordinates (x, z), z up. Its n voussoirs are
separated by n + 1 plane joints; joint j runs from its intrados point I_j to its
extrados point E_j, with d_j = E_j - I_j. Joints 0 and n are the springings (the
faces on the abutments); voussoir k lies between joints k and k + 1. Voussoirs are
numbered so that n_j = (d_z, -d_x) / |d_j| points from voussoir j - 1 into voussoir j
(for an arch whose joints run outward: numbered from the left springing, as the
`arch` generator does). Loads are vertical: P_i (N, downward positive) on voussoir
k_i with its line of action at x = x_i.

Method (equations referred to as (1)-(7) in the code)
----------------------------------------------------
(1) With horizontal thrust H > 0 and left vertical reaction V_A acting at a point A,
    the part left of joint j (abutment and voussoirs 0 .. j-1) pushes the part right
    of it with F_j = (H, V_A - W_j), W_j = sum_{k_i < j} P_i. Its line of action L_j
    is where the moment of the left part's forces vanishes:
        H (z - z_A) = V_A (x - x_A) - sum_{k_i < j} P_i (x - x_i).
(2) Divided by H, with S_j = sum_{k_i < j} P_i x_i:
        L_j:  z = a + b x - c (W_j x - S_j),   a = z_A - V_A x_A / H,  b = V_A / H,  c = 1 / H,
    so, for fixed loads, the height of every line of action at any x is linear in
    (a, b, c). A three-point choice (three points on joints) or a thrust and two
    points fix (a, b, c) by a 3 x 3 linear system.
(3) Funicular polygon: L_j and L_{j+1} differ by the loads of voussoir j and meet on
    their resultant, x = (S_{j+1} - S_j) / (W_{j+1} - W_j). Between two supports at
    equal heights its vertices lie at z = M(x) / H, M the moment of a simply supported
    beam under the same loads (a parabola for equal loads at equal spacing).
(4) With f_j(p) = a + b p_x - c (W_j p_x - S_j) - p_z, the height of L_j above p, L_j
    crosses the line of joint j at I_j + s_j d_j, s_j = f_j(I_j) / (f_j(I_j) - f_j(E_j))
    (0 at the intrados, 1 at the extrados): the joint's centre of pressure.
(5) Admissible: every joint in compression, F_j . n_j > 0, with its centre of pressure
    inside it. As f_j(E_j) - f_j(I_j) = (b - c W_j) d_x - d_z = -|d_j| F_j . n_j / H,
    compression is f_j(E_j) < f_j(I_j), and with 0 <= s_j <= 1 both become
        f_j(I_j) >= 0 >= f_j(E_j),
    two inequalities per joint, linear in (a, b, c).
(6) The minimum- and maximum-thrust lines maximise and minimise c = 1 / H subject to
    (5) at every joint and c >= 0: linear programs (scipy.optimize.linprog, HiGHS).
(5') Sliding (seed 000 sec. 3.1's a-posteriori check, made part of the search): with friction mu,
    |F_j . t_j| <= mu F_j . n_j, t_j = d_j / |d_j|. As F_j / H = (1, b - c W_j), both signs are
    (+-t_j - mu n_j) . (1, b - c W_j) <= 0, two more inequalities per joint, linear in (b, c).
    A line that meets (5) and (5') exists exactly when the arch stands under the loads as rigid
    blocks with Coulomb joints (the static theorem with friction, as the limit-analysis LP).
(7) Geometric safety factor (Heyman 1969): scale every joint about its midpoint M_j,
    I_j(lam) = M_j - lam h_j, E_j(lam) = M_j + lam h_j, h_j = d_j / 2, loads unchanged.
    The scaled joints nest, so (5) is feasible for every lam above some lam*; lam* is
    found by bisection on the feasibility of (5) and GSF = 1 / lam*, the ratio of the
    thickness to the least thickness (same centreline) that contains a thrust line.
    The limit line is the least-thrust line inside the section scaled by lam*; it
    touches the scaled section at the hinges. GSF < 1 when no line fits.

All linear programs run in dimensionless units, lengths over the section's size L
and forces over the total load W (unknowns a / L, b, c W), so that the solver's
absolute tolerances mean the same for every arch.

The module is kept whole at about 500 lines: steps (1)-(7) are one derivation over the same
unknowns (a, b, c), and the bounds of (5)-(7) are built from the scaled rows and lines of
(2)-(4), which a split would have to share as public names.
"""
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from extrados.engine.errors import ModelError
from extrados.engine.generators import STANDARD_GRAVITY
from extrados.engine.generators.arch import joint_direction
from extrados.engine.tolerance import TOL

#: HiGHS status code (scipy.optimize.linprog) of an optimal solution.
LP_OPTIMAL = 0
#: HiGHS's primal feasibility tolerance (scipy default): in the dimensionless units the
#: programs run in, a line may stray this far (times the section size) outside a joint.
LP_FEASIBILITY = 1e-7
#: Relative width at which the bisection on the thickness factor lam* stops. LP_FEASIBILITY
#: is a length in units of the section size; on joints a tenth of that size (t = 0.15 R
#: spans 0.07 of 2 R + t) it blurs lam* by about 1e-6, so finer steps would resolve noise.
SAFETY_FACTOR_RELATIVE = 1e-6
#: The bisection gives up (no line fits at any thickness) beyond this thickness factor:
#: 2^20 times the section would already contain any line whose joints are compressed.
MAX_THICKNESS_FACTOR = 2.0 ** 20


@dataclass(frozen=True)
class ArchSection:
    """Joints of a voussoir arch in its vertical (x, z) plane, springing to springing."""

    intrados: np.ndarray  # (n_joints, 2) float64, m, (x, z) of each joint's intrados end I_j
    extrados: np.ndarray  # (n_joints, 2) float64, m, (x, z) of each joint's extrados end E_j

    @property
    def n_voussoirs(self):
        return len(self.intrados) - 1

    @property
    def size(self):
        """Largest extent of the section's joint points (m), the unit of length of the programs."""
        return float(np.ptp(np.concatenate([self.intrados, self.extrados]), axis=0).max())


@dataclass(frozen=True)
class VerticalLoads:
    """Vertical loads on the voussoirs, structure of arrays over n_loads loads."""

    voussoir: np.ndarray  # (n_loads,) int64, the voussoir each load acts on
    x: np.ndarray         # (n_loads,) float64, m, its line of action
    force: np.ndarray     # (n_loads,) float64, N, downward positive


@dataclass(frozen=True)
class ThrustLine:
    """A funicular of the loads: its thrust, its joint crossings and its polygon."""

    thrust: float             # H, N
    left_reaction: float      # V_A, N, upward vertical force of the left abutment
    coefficients: np.ndarray  # (3,) float64, (a m, b, c 1/N) of eq. (2)
    crossing: np.ndarray      # (n_joints, 2) float64, m, where L_j crosses joint j (eq. 4)
    fraction: np.ndarray      # (n_joints,) float64, s_j: 0 at the intrados, 1 at the extrados
    polygon: np.ndarray       # (n_vertices, 2) float64, m, springing crossings and the vertices of eq. (3)

    def to_dict(self, name, y=0.0):
        """An entry of the result document's "thrust_lines": the joint crossings at depth y (m)."""
        points = np.column_stack([self.crossing[:, 0], np.full(len(self.crossing), y), self.crossing[:, 1]])
        return {"name": name, "points": points.tolist(), "thrust": float(self.thrust)}


@dataclass(frozen=True)
class ThrustBounds:
    """The thrust lines a section admits under given loads (eq. 6-7)."""

    minimum: ThrustLine       # least thrust inside the section; None when no line fits
    maximum: ThrustLine       # greatest; None when no line fits or a straight line fits (H unbounded)
    geometric_safety_factor: float  # thickness over the least thickness that contains a line
    limit: ThrustLine         # the line in the least thickness, touching it at the hinges


# --- input ------------------------------------------------------------------------

def arch_section(intrados, extrados):
    """An ArchSection from joint end points, checked.

    Parameters
    ----------
    intrados, extrados : (n_joints, 2) array_like, m
        (x, z) of each joint's intrados and extrados ends, n_joints >= 2, springing to
        springing, oriented as the module docstring says.

    Returns
    -------
    ArchSection

    Raises
    ------
    ModelError
        Wrong shapes, non-finite values or a joint of zero length (path ``section.*``).
    """
    intrados, extrados = np.asarray(intrados, float), np.asarray(extrados, float)
    for name, points in (("intrados", intrados), ("extrados", extrados)):
        if points.ndim != 2 or points.shape[1] != 2 or len(points) < 2:
            raise ModelError(f"expected (n_joints >= 2, 2) points (x, z); got shape {points.shape}",
                             path=f"section.{name}")
        if not np.isfinite(points).all():
            raise ModelError("points must be finite", path=f"section.{name}")
    if intrados.shape != extrados.shape:
        raise ModelError(f"{len(extrados)} extrados points for {len(intrados)} intrados points",
                         path="section.extrados")
    section = ArchSection(intrados, extrados)
    short = np.flatnonzero(np.linalg.norm(extrados - intrados, axis=1) <= TOL.geometric_relative * section.size)
    if len(short):
        raise ModelError("the joint's intrados and extrados points coincide", path=f"section.extrados[{short[0]}]")
    return section


def semicircular_section(radius, thickness, voussoirs):
    """Joints of the `arch` generator's semicircular arch: radial, from the left springing.

    Parameters
    ----------
    radius, thickness : float
        Centreline radius R and radial thickness t, m (intrados R - t/2, extrados R + t/2).
    voussoirs : int
        Number of voussoirs n.

    Returns
    -------
    ArchSection
        n + 1 radial joints, joint j at pi j / n from the left springing.
    """
    direction = np.array([joint_direction(j, voussoirs) for j in range(voussoirs + 1)])
    return arch_section((radius - thickness / 2.0) * direction, (radius + thickness / 2.0) * direction)


def voussoir_polygons(section):
    """(n_voussoirs, 4, 2) sections of the voussoirs, m: E_k, I_k, I_{k+1}, E_{k+1} (straight chords)."""
    return np.stack([section.extrados[:-1], section.intrados[:-1], section.intrados[1:], section.extrados[1:]], axis=1)


def self_weight(section, density, depth, gravity=STANDARD_GRAVITY):
    """Weights of the voussoirs (straight intrados and extrados chords), at their centroids.

    Shoelace formulas over each voussoir's polygon (x_i, z_i), i = 0..3:
        A = 1/2 sum (x_i z_{i+1} - x_{i+1} z_i),  x_G = sum (x_i + x_{i+1})(x_i z_{i+1} - x_{i+1} z_i) / (6 A).

    Parameters
    ----------
    section : ArchSection
    density : float
        kg/m^3.
    depth : float
        Extent of the arch normal to its plane, m.
    gravity : float
        m/s^2.

    Returns
    -------
    VerticalLoads
        One load per voussoir, density gravity depth |A| N at x_G.
    """
    polygon = voussoir_polygons(section)
    following = np.roll(polygon, -1, axis=1)
    cross = polygon[:, :, 0] * following[:, :, 1] - following[:, :, 0] * polygon[:, :, 1]  # (n_voussoirs, 4)
    area = 0.5 * cross.sum(axis=1)
    centroid_x = ((polygon[:, :, 0] + following[:, :, 0]) * cross).sum(axis=1) / (6.0 * area)
    return VerticalLoads(np.arange(section.n_voussoirs), centroid_x, density * gravity * depth * np.abs(area))


def vertical_loads(section, voussoir, x, force):
    """VerticalLoads on a section, checked.

    Parameters
    ----------
    section : ArchSection
    voussoir : (n_loads,) array_like of int
        The voussoir each load acts on, 0 .. n_voussoirs - 1.
    x : (n_loads,) array_like, m
        Line of action of each load.
    force : (n_loads,) array_like, N
        Downward positive.

    Raises
    ------
    ModelError
        Mismatched lengths, non-finite values or an unknown voussoir (path ``loads.*``).
    """
    voussoir, x, force = np.atleast_1d(voussoir), np.atleast_1d(np.asarray(x, float)), np.atleast_1d(
        np.asarray(force, float))
    if not len(voussoir) == len(x) == len(force):
        raise ModelError(f"{len(voussoir)} voussoirs, {len(x)} positions and {len(force)} forces", path="loads")
    for name, values in (("x", x), ("force", force)):
        bad = np.flatnonzero(~np.isfinite(values))
        if len(bad):
            raise ModelError("must be finite", path=f"loads.{name}[{bad[0]}]")
    if not np.issubdtype(voussoir.dtype, np.integer):
        raise ModelError(f"voussoir indices must be integers; got {voussoir.dtype}", path="loads.voussoir")
    outside = np.flatnonzero((voussoir < 0) | (voussoir >= section.n_voussoirs))
    if len(outside):
        raise ModelError(f"no voussoir {voussoir[outside[0]]} (the arch has {section.n_voussoirs})",
                         path=f"loads.voussoir[{outside[0]}]")
    return VerticalLoads(voussoir.astype(np.int64), x, force)


def combined(*loads):
    """All the given VerticalLoads as one (self-weight, point loads, extra dead loads)."""
    return VerticalLoads(*(np.concatenate([getattr(group, name) for group in loads])
                           for name in ("voussoir", "x", "force")))


# --- lines of action --------------------------------------------------------------

def left_totals(section, loads):
    """W_j and S_j of eq. (1)-(2): load (N) and its moment about x = 0 (N m) left of each joint.

    Returns
    -------
    total, moment : (n_joints,) float64 each
    """
    n = section.n_voussoirs
    per_voussoir = np.bincount(loads.voussoir, weights=loads.force, minlength=n)
    moment = np.bincount(loads.voussoir, weights=loads.force * loads.x, minlength=n)
    return np.concatenate([[0.0], np.cumsum(per_voussoir)]), np.concatenate([[0.0], np.cumsum(moment)])


@dataclass(frozen=True)
class _Scaled:
    """A section and its loads in the programs' units: lengths / size, forces / total load."""

    length: float          # m, the unit of length
    force: float           # N, the unit of force
    intrados: np.ndarray   # (n_joints, 2) float64
    extrados: np.ndarray   # (n_joints, 2) float64
    total: np.ndarray      # (n_joints,) float64, W_j / force
    moment: np.ndarray     # (n_joints,) float64, S_j / (force length)


def _scaled(section, loads):
    """The _Scaled view of a section and its loads; ModelError when there is no load."""
    total, moment = left_totals(section, loads)
    force = float(np.abs(loads.force).sum())
    if not force > 0.0:
        raise ModelError("the arch carries no load: every line of action is the same straight line",
                         path="loads.force")
    length = section.size
    return _Scaled(length, force, section.intrados / length, section.extrados / length, total / force,
                   moment / (force * length))


def _rows(scaled, joint, points):
    """Rows r_j with f_joint(p) = r_j . (a, b, c) - p_z (eq. 4), scaled units.

    joint : (m,) int64; points : (m, 2) float64, scaled; returns (m, 3) float64.
    """
    x = points[:, 0]
    return np.column_stack([np.ones_like(x), x, -(scaled.total[joint] * x - scaled.moment[joint])])


def _point_conditions(section, scaled, points, count):
    """Rows and right-hand sides saying the line passes through ``count`` (joint, fraction) points.

    Raises ModelError (path ``points[k]``) for a wrong count, an unknown joint or a
    non-finite fraction.
    """
    if len(points) != count:
        raise ModelError(f"expected {count} (joint, fraction) points; got {len(points)}", path="points")
    for k, (joint, fraction) in enumerate(points):
        if isinstance(joint, bool) or not isinstance(joint, (int, np.integer)) \
                or not 0 <= joint <= section.n_voussoirs:
            raise ModelError(f"no joint {joint!r} (joints 0 .. {section.n_voussoirs})", path=f"points[{k}][0]")
        if not np.isfinite(fraction):
            raise ModelError("the fraction along the joint must be finite", path=f"points[{k}][1]")
    joint = np.array([j for j, _ in points], np.int64)
    fraction = np.array([s for _, s in points], float)[:, None]
    xz = scaled.intrados[joint] + fraction * (scaled.extrados[joint] - scaled.intrados[joint])
    return _rows(scaled, joint, xz), xz[:, 1]


def _solved(rows, right):
    """(a, b, c) in scaled units from three linear conditions; ModelError when they do not fix one line."""
    if np.linalg.matrix_rank(rows) < 3:
        raise ModelError("these conditions do not fix one line (two points on the same line of action?)",
                         path="points")
    return np.linalg.solve(rows, right)


def line_through(section, loads, points):
    """The funicular through three points on joints: the three-point choice of eq. (2).

    Parameters
    ----------
    section : ArchSection
    loads : VerticalLoads
    points : sequence of 3 (joint, fraction)
        Joint index and position along it, 0 at the intrados and 1 at the extrados
        (0.5 the joint's middle); e.g. [(0, 0.5), (n // 2, 1.0), (n, 0.5)].

    Returns
    -------
    ThrustLine
    """
    scaled = _scaled(section, loads)
    rows, right = _point_conditions(section, scaled, points, 3)
    return _thrust_line(scaled, _solved(rows, right))


def line_with_thrust(section, loads, thrust, points):
    """The funicular of horizontal thrust H through two points on joints.

    Parameters
    ----------
    section : ArchSection
    loads : VerticalLoads
    thrust : float
        H, N, positive.
    points : sequence of 2 (joint, fraction)
        As in `line_through`, e.g. both springings [(0, 0.5), (n, 0.5)].

    Returns
    -------
    ThrustLine
    """
    if isinstance(thrust, bool) or not (np.isfinite(thrust) and thrust > 0.0):
        raise ModelError(f"the horizontal thrust must be positive; got {thrust!r}", path="thrust")
    scaled = _scaled(section, loads)
    rows, right = _point_conditions(section, scaled, points, 2)
    # the third condition: c W = W / H
    rows = np.vstack([rows, [0.0, 0.0, 1.0]])
    right = np.append(right, scaled.force / thrust)
    return _thrust_line(scaled, _solved(rows, right))


# --- a line: crossings and polygon ------------------------------------------------

def _joint_heights(scaled, coefficients, intrados, extrados):
    """f_j(I_j) and f_j(E_j) of eq. (4) for every joint, scaled units; (n_joints,) each."""
    joint = np.arange(len(intrados))
    return (_rows(scaled, joint, intrados) @ coefficients - intrados[:, 1],
            _rows(scaled, joint, extrados) @ coefficients - extrados[:, 1])


def _crossings(scaled, coefficients):
    """Eq. (4): s_j and the crossing points (scaled) of every L_j with its joint's line."""
    above_intrados, above_extrados = _joint_heights(scaled, coefficients, scaled.intrados, scaled.extrados)
    fraction = above_intrados / (above_intrados - above_extrados)
    return fraction, scaled.intrados + fraction[:, None] * (scaled.extrados - scaled.intrados)


def _polygon(scaled, coefficients, crossing):
    """Eq. (3): the springing crossings and, between them, where L_k meets L_{k+1} for each loaded voussoir k."""
    a, b, c = coefficients
    load = np.diff(scaled.total)
    loaded = np.flatnonzero(load != 0.0)
    x = np.diff(scaled.moment)[loaded] / load[loaded]
    z = a + b * x - c * (scaled.total[loaded] * x - scaled.moment[loaded])
    return np.vstack([crossing[:1], np.column_stack([x, z]), crossing[-1:]])


def _thrust_line(scaled, coefficients):
    """The ThrustLine, in SI, of scaled coefficients (a / L, b, c W)."""
    fraction, crossing = _crossings(scaled, coefficients)
    polygon = _polygon(scaled, coefficients, crossing)
    a, b, cw = coefficients
    thrust = scaled.force / cw
    return ThrustLine(thrust=float(thrust), left_reaction=float(b * thrust),
                      coefficients=np.array([a * scaled.length, b, cw / scaled.force]),
                      crossing=crossing * scaled.length, fraction=fraction, polygon=polygon * scaled.length)


# --- bounds: eq. (5)-(7) ------------------------------------------------------------

def _scaled_joints(scaled, factor):
    """Joint ends of the section scaled by ``factor`` about each joint's midpoint (eq. 7)."""
    middle = 0.5 * (scaled.intrados + scaled.extrados)
    half = 0.5 * (scaled.extrados - scaled.intrados)
    return middle - factor * half, middle + factor * half


def _admissible_program(scaled, factor, friction=None):
    """Eq. (5) as A_ub x <= b_ub over x = (a, b, c), for the section scaled by ``factor``; with
    ``friction`` (mu) also eq. (5').

    f_j(I_j) >= 0 is -r(I_j) . x <= -I_z, and f_j(E_j) <= 0 is r(E_j) . x <= E_z.
    """
    intrados, extrados = _scaled_joints(scaled, factor)
    joint = np.arange(len(intrados))
    matrix = np.vstack([-_rows(scaled, joint, intrados), _rows(scaled, joint, extrados)])
    right = np.concatenate([-intrados[:, 1], extrados[:, 1]])
    if friction is None:
        return matrix, right
    sliding, sliding_right = _friction_rows(scaled, friction)
    return np.vstack([matrix, sliding]), np.concatenate([right, sliding_right])


def _friction_rows(scaled, friction):
    """Eq. (5'): (+-t_j - mu n_j) . (1, b - c W_j) <= 0 as rows over (a, b, c) and right-hand sides."""
    d = scaled.extrados - scaled.intrados
    tangent = d / np.linalg.norm(d, axis=1)[:, None]
    normal = np.column_stack([tangent[:, 1], -tangent[:, 0]])
    rows, right = [], []
    for sign in (1.0, -1.0):
        direction = sign * tangent - friction * normal        # (n_joints, 2)
        rows.append(np.column_stack([np.zeros(len(d)), direction[:, 1], -scaled.total * direction[:, 1]]))
        right.append(-direction[:, 0])
    return np.vstack(rows), np.concatenate(right)


#: Bounds of (a, b, c): a and b free, c = W / H >= 0 (a compressive, finite-or-infinite thrust).
_BOUNDS = [(None, None), (None, None), (0.0, None)]


def _extreme_line(scaled, factor, sense, friction=None):
    """Eq. (6): coefficients of the line of least (sense = -1: largest c) or greatest (sense = +1)
    thrust inside the section scaled by ``factor``.

    Returns
    -------
    (3,) float64 or None
        None when no line fits, when the extreme is unbounded, or when the greatest
        thrust is unbounded (c = 0 within LP_FEASIBILITY: a straight line fits).
    """
    matrix, right = _admissible_program(scaled, factor, friction)
    solved = linprog([0.0, 0.0, float(sense)], A_ub=matrix, b_ub=right, bounds=_BOUNDS, method="highs")
    if solved.status != LP_OPTIMAL or solved.x[2] <= LP_FEASIBILITY:
        return None
    return solved.x


def _fits(scaled, factor, friction=None):
    """Whether a line with compressed joints fits the section scaled by ``factor`` (feasibility of eq. 5;
    with ``friction``, of eq. 5' too)."""
    matrix, right = _admissible_program(scaled, factor, friction)
    solved = linprog([0.0, 0.0, 0.0], A_ub=matrix, b_ub=right, bounds=_BOUNDS, method="highs")
    return solved.status == LP_OPTIMAL


def _least_thickness_factor(scaled, friction=None):
    """Eq. (7): the least factor lam* on the thickness that contains a line (with ``friction``, one that also
    meets eq. 5'), by bisection.

    Returns the upper end of the final bracket, a factor at which a line fits.
    """
    low, high = 0.0, 1.0
    while not _fits(scaled, high, friction):
        low, high = high, 2.0 * high
        if high > MAX_THICKNESS_FACTOR:
            raise ModelError("no thrust line with every joint in compression exists at any thickness",
                             path="section")
    while high - low > SAFETY_FACTOR_RELATIVE * high:
        middle = 0.5 * (low + high)
        low, high = (low, middle) if _fits(scaled, middle, friction) else (middle, high)
    return high


def thrust_bounds(section, loads):
    """Minimum- and maximum-thrust lines inside the section, geometric safety factor and limit line.

    Parameters
    ----------
    section : ArchSection
    loads : VerticalLoads

    Returns
    -------
    ThrustBounds
        ``minimum`` / ``maximum`` are None when no line fits (then the geometric
        safety factor is below 1); ``maximum`` is also None when a straight line fits
        (the thrust is unbounded).
    """
    scaled = _scaled(section, loads)
    factor = _least_thickness_factor(scaled)
    limit = _line_or_none(scaled, _extreme_line(scaled, factor, -1.0))
    if limit is None:
        raise ModelError("only a straight line (an unbounded thrust) fits the least thickness", path="section")
    return ThrustBounds(minimum=_line_or_none(scaled, _extreme_line(scaled, 1.0, -1.0)),
                        maximum=_line_or_none(scaled, _extreme_line(scaled, 1.0, 1.0)),
                        geometric_safety_factor=1.0 / factor, limit=limit)


def limit_live_factor(section, dead, live, friction=None, start=1.0, relative=1e-4):
    """Largest factor on the live loads at which a line fits the section (geometric safety factor at least 1,
    as `thrust_bounds` finds it), with ``friction`` one that also passes the sliding check at every joint
    (eq. 5'), by bisection.

    Parameters
    ----------
    section : ArchSection
    dead, live : VerticalLoads
        Dead loads, and live loads at factor 1.
    friction : float, optional
        mu; left out, sliding is not checked (Heyman's no-sliding hypothesis).
    start : float
        A first factor to try; doubled until a line no longer fits.
    relative : float
        Width of the final bracket over its upper end.

    Returns
    -------
    float, the lower end of the final bracket (a factor at which a line fits); 0 when none fits at any
    positive factor tried.
    """
    def fits(factor):
        loads = combined(dead, VerticalLoads(live.voussoir, live.x, factor * live.force))
        try:
            if friction is None:     # where thrust_bounds also finds the limit line
                return thrust_bounds(section, loads).geometric_safety_factor >= 1.0
            return _least_thickness_factor(_scaled(section, loads), friction) <= 1.0
        except ModelError:    # no load, or no line at any thickness
            return False

    low, high = 0.0, float(start)
    while fits(high):
        low, high = high, 2.0 * high
        if high > MAX_THICKNESS_FACTOR:
            raise ModelError("a line fits at every live factor: the live loads do not load the arch toward "
                             "collapse", path="live")
    while high - low > relative * high:
        middle = 0.5 * (low + high)
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def _line_or_none(scaled, coefficients):
    return None if coefficients is None else _thrust_line(scaled, coefficients)
