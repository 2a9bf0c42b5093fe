"""Average stress tensor of rigid blocks (seed 001 sec. 3.2, eq. 24-57).

For a rigid block of volume V with centre of mass G, the mean of the stress over the block
follows from div sigma + f = 0 with the body force f = rho (g - gamma) (eq. 20-24):

    <sigma>_ik = (1/V) ( sum_l F_i^l GM_k^l  -  int rho gamma_i GM_k dV )            (eq. 25, 34)

The first index is the force component, the second the arm (eq. 24: T_i x_k). At rest, or
while the block does not rotate, only the contact sum remains (eq. 35). A rotating block
has acceleration gamma(M) = gamma(G) + alpha ^ GM + omega ^ (omega ^ GM) (eq. 28), and with
J = int rho GM (x) GM dV = (tr(I) / 2) 1 - I (eq. 41, 45: the "I0 delta - I" of the paper)
the two rotational terms are (eq. 46-54)

    sigma_2 = -(1/V) [alpha]_x J                    [a]_x b = a ^ b (eq. 43)
    sigma_3 = (1/V) ( |omega|^2 J - omega (x) (J omega) )

so the dynamic average stress (eq. 55) is

    <sigma> = (1/V) ( sum_l F^l (x) GM^l - [alpha]_x J + |omega|^2 J - omega (x) (J omega) ).

Its antisymmetric part is, by Euler's equation I alpha + omega ^ I omega = sum GM ^ F, zero:
the rotational terms restore the symmetry that eq. 35 loses in motion. The printed eq. 55
(first term F (x) GM, as here) has the alpha term with the opposite sign, carried over from
eq. 42, and the omega term transposed; as printed its antisymmetric part does not vanish, so
the terms above are derived anew from eq. 24 (tests/test_stress.py checks the symmetry).

Concentrated applied loads (`point` loads of the model) act on the block surface like contact
forces and enter the sum; gravity and body accelerations are uniform over the block and add
nothing about G (eq. 32-34). Sign convention: tension positive, compression negative.
"""
from dataclasses import dataclass

import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.geometry.quaternion import quat_to_matrices
from extrados.engine.tolerance import TOL

#: 3/2 in q = sqrt(3/2 s : s), so that q is |sigma| in uniaxial stress.
VON_MISES_FACTOR = 1.5


@dataclass(frozen=True)
class PointLoads:
    """Concentrated applied forces on the blocks, as contact forces are (structure-of-arrays)."""

    block: np.ndarray  # (n_loads,) int64, block the load acts on
    arm: np.ndarray    # (n_loads, 3) float64, m, from the block's centre of mass to the point, world
    force: np.ndarray  # (n_loads, 3) float64, N, world


@dataclass(frozen=True)
class BlockRotation:
    """The rotational state of the blocks that eq. 55 needs, over one time step."""

    rotation: np.ndarray              # (n_blocks, 3, 3) float64, body -> world rotation A
    angular_velocity: np.ndarray      # (n_blocks, 3) float64, rad/s, world
    angular_acceleration: np.ndarray  # (n_blocks, 3) float64, rad/s^2, world


def point_loads(model, live_factor=1.0):
    """The `point` loads of a model at a factor of its live loads.

    The arm is taken from the drawn centre of mass, as the engine's load wrench takes it, so the
    moment the stress sees is the one the equilibrium was solved with.

    Parameters
    ----------
    model : Model
    live_factor : float
        Multiplier of the loads marked `live` (dead loads stay at 1).

    Returns
    -------
    PointLoads
    """
    mech = model.mechanics
    index = {bid: i for i, bid in enumerate(mech.block_ids)}
    loads = [load for load in model.loads if load["kind"] == "point"]
    block = np.array([index[load["block"]] for load in loads], np.int64)
    factor = np.array([live_factor if model.is_live(load) else 1.0 for load in loads])
    force = np.array([load["force"] for load in loads], float).reshape(-1, 3) * factor[:, None]
    point = np.array([load["point"] for load in loads], float).reshape(-1, 3)
    return PointLoads(block, point - mech.position0[block], force)


def no_point_loads():
    """PointLoads with no load."""
    return PointLoads(np.zeros(0, np.int64), np.zeros((0, 3)), np.zeros((0, 3)))


def contact_stress(mechanics, position, contacts, contact_force, loads=None):
    """Average stress of every block from its surface forces alone (seed 001 eq. 34-35).

        <sigma>_ik = (1/V) sum_l F_i^l GM_k^l

    Parameters
    ----------
    mechanics : Mechanics
    position : (n_blocks, 3) float64, m, centres of mass at which the contacts were found
    contacts : Contacts
    contact_force : (n_c, 3) float64, N, force on body_b from body_a (body_a receives the opposite)
    loads : PointLoads, optional
        Concentrated applied loads, added as surface forces.

    Returns
    -------
    (n_blocks, 3, 3) float64, Pa, tension positive
    """
    loads = loads or no_point_loads()
    moment = np.zeros((mechanics.n_blocks, 3, 3))  # (n_blocks, 3, 3) float64, N m, sum F (x) GM
    arm_b = contacts.point - position[contacts.body_b]
    arm_a = contacts.point - position[contacts.body_a]
    np.add.at(moment, contacts.body_b, np.einsum("ni,nk->nik", contact_force, arm_b))
    np.add.at(moment, contacts.body_a, np.einsum("ni,nk->nik", -contact_force, arm_a))
    np.add.at(moment, loads.block, np.einsum("ni,nk->nik", loads.force, loads.arm))
    return moment / mechanics.volume[:, None, None]


def second_moments(inertia):
    """Second moments of mass J = int rho GM (x) GM dV from the inertia tensor (seed 001 eq. 41, 45).

    I = int rho (|x|^2 1 - x (x) x) dV gives tr(I) = 2 int rho |x|^2 dV = 2 I0, so J = I0 1 - I.

    Parameters
    ----------
    inertia : (n, 3, 3) float64, kg m^2, about the centre of mass

    Returns
    -------
    (n, 3, 3) float64, kg m^2; diag(A, B, C) of eq. 45 in principal axes
    """
    half_trace = 0.5 * np.trace(inertia, axis1=1, axis2=2)
    return half_trace[:, None, None] * np.eye(3) - inertia


def cross_matrices(vector):
    """(n, 3, 3) matrices [a]_x with [a]_x b = a ^ b (seed 001 eq. 43) of vectors (n, 3)."""
    x, y, z = vector[:, 0], vector[:, 1], vector[:, 2]
    zero = np.zeros_like(x)
    return np.stack([np.stack([zero, -z, y], axis=1),
                     np.stack([z, zero, -x], axis=1),
                     np.stack([-y, x, zero], axis=1)], axis=1)


def rotational_inertia_stress(second_moment, volume, angular_velocity, angular_acceleration):
    """Rotational inertia terms of the average stress of rigid blocks (seed 001 eq. 46-55).

        sigma_2 + sigma_3 = (1/V) ( -[alpha]_x J + |omega|^2 J - omega (x) (J omega) )

    Zero for a block that does not rotate. For a block spinning at a constant omega about a
    principal axis e_3, (1/V) omega^2 diag(A, B, 0): the centrifugal tension, e.g.
    rho omega^2 a^2 / 12 along a box side a.

    Parameters
    ----------
    second_moment : (n, 3, 3) float64, kg m^2, world frame (`second_moments`)
    volume : (n,) float64, m^3
    angular_velocity : (n, 3) float64, rad/s, world
    angular_acceleration : (n, 3) float64, rad/s^2, world

    Returns
    -------
    (n, 3, 3) float64, Pa
    """
    spin = np.einsum("nij,nj->ni", second_moment, angular_velocity)  # (n, 3) J omega
    speed2 = np.einsum("ni,ni->n", angular_velocity, angular_velocity)
    moment = (-cross_matrices(angular_acceleration) @ second_moment
              + speed2[:, None, None] * second_moment
              - np.einsum("ni,nk->nik", angular_velocity, spin))
    return moment / volume[:, None, None]


def block_stress(mechanics, position, contacts, contact_force, loads=None, rotation=None):
    """Average stress tensor of every block: eq. 35, or eq. 55 when the blocks rotate (seed 001).

    Parameters
    ----------
    mechanics : Mechanics
    position : (n_blocks, 3) float64, m, centres of mass at which the contacts were found
    contacts : Contacts
    contact_force : (n_c, 3) float64, N, force on body_b from body_a
    loads : PointLoads, optional
    rotation : BlockRotation, optional
        The blocks' rotation over the step; None: they do not rotate (eq. 35). Supports get no
        rotational term.

    Returns
    -------
    (n_blocks, 3, 3) float64, Pa, tension positive
    """
    stress = contact_stress(mechanics, position, contacts, contact_force, loads)
    if rotation is None:
        return stress
    movable = ~mechanics.is_support
    world = rotation.rotation @ mechanics.inertia_body @ np.transpose(rotation.rotation, (0, 2, 1))
    stress[movable] += rotational_inertia_stress(second_moments(world[movable]), mechanics.volume[movable],
                                                 rotation.angular_velocity[movable],
                                                 rotation.angular_acceleration[movable])
    return stress


def step_rotation(orientation, velocity_start, velocity_end, time_step):
    """BlockRotation over one time step: omega at its start, alpha = (omega+ - omega-) / h.

    These are the values the time integrator balances (I alpha = M - omega- ^ I omega-, seed 000
    eq. 29-31, with I at the step's start orientation), so eq. 55 comes out symmetric to the
    accuracy of the contact solve.

    Parameters
    ----------
    orientation : (n_blocks, 4) float64, quaternions [w, x, y, z] at the start of the step
    velocity_start, velocity_end : (n_blocks, 6) float64, [m/s, rad/s] twists, world
    time_step : float, s

    Returns
    -------
    BlockRotation
    """
    omega = velocity_start[:, 3:]
    return BlockRotation(quat_to_matrices(orientation), omega.copy(), (velocity_end[:, 3:] - omega) / time_step)


def principal_stresses(stress):
    """Principal stresses and directions of the symmetric part of each tensor.

    Parameters
    ----------
    stress : (n, 3, 3) float64, Pa

    Returns
    -------
    values : (n, 3) float64, Pa, ascending: the most compressive (most negative) first
    directions : (n, 3, 3) float64, directions[n, k] the unit direction of values[n, k], its
        largest-magnitude component made positive (a direction has no sign)
    """
    values, vectors = np.linalg.eigh(symmetric_part(stress))
    directions = np.transpose(vectors, (0, 2, 1))
    rows = np.arange(directions.shape[0])[:, None]
    leading = directions[rows, np.arange(3)[None, :], np.abs(directions).argmax(axis=2)]
    return values, directions * np.where(leading < 0.0, -1.0, 1.0)[:, :, None]


def symmetric_part(stress):
    """(n, 3, 3) (sigma + sigma^T) / 2."""
    return 0.5 * (stress + np.transpose(stress, (0, 2, 1)))


def stress_invariants(stress):
    """The invariants p and q of each average stress tensor.

    Seed 001 reports a spherical and a deviatoric invariant (figs. 15-21, Table I, p_wall and
    q_wall) without writing them out; we use the Roscoe-Burland p and q the names come from:

        p = -tr(sigma) / 3                  mean pressure, positive in compression
        q = sqrt(3/2 s : s),  s = sym(sigma) - (tr(sigma) / 3) 1,  |sigma| in uniaxial stress

    Parameters
    ----------
    stress : (n, 3, 3) float64, Pa, tension positive

    Returns
    -------
    p : (n,) float64, Pa
    q : (n,) float64, Pa, >= 0
    """
    mean = np.trace(stress, axis1=1, axis2=2) / 3.0
    deviator = symmetric_part(stress) - mean[:, None, None] * np.eye(3)
    return -mean, np.sqrt(VON_MISES_FACTOR * np.einsum("nij,nij->n", deviator, deviator))


def stress_asymmetry(stress):
    """Relative asymmetry of each tensor, seed 001 eq. 57 in 3D.

        delta = ||sigma - sigma^T|| / (sqrt(2) ||sigma||)    (Frobenius norms)

    which in 2D is eq. 57, |sigma_12 - sigma_21| / ||sigma||. Zero for a zero tensor.

    Parameters
    ----------
    stress : (n, 3, 3) float64

    Returns
    -------
    (n,) float64, in [0, 1]
    """
    skew = np.linalg.norm(stress - np.transpose(stress, (0, 2, 1)), axis=(1, 2))
    norm = np.linalg.norm(stress, axis=(1, 2))
    return np.divide(skew, np.sqrt(2.0) * norm, out=np.zeros_like(norm), where=norm > 0.0)


def block_heights(mechanics):
    """(n_blocks,) float64, m, vertical extent of each block as drawn."""
    polyhedra = mechanics.polyhedra
    z = polyhedra.vertex_local[:, 2]
    start = polyhedra.vertex_start[:-1]
    return np.maximum.reduceat(z, start) - np.minimum.reduceat(z, start)


def height_layers(height, band):
    """Layer of each height: sorted upwards, a layer takes every height within ``band`` of its lowest.

    Parameters
    ----------
    height : (n,) float64, m
    band : float, m

    Returns
    -------
    (n,) int64, layer index, 0 the lowest
    """
    order = np.argsort(height, kind="stable")
    label = np.empty(len(height), np.int64)
    layer, bottom = -1, -np.inf
    for i in order:
        if height[i] > bottom + band:
            layer, bottom = layer + 1, height[i]
        label[i] = layer
    return label


def course_layers(mechanics):
    """Blocks grouped in courses by the drawn height of their centres (supports left out).

    Centres within TOL.layer_band_relative times the median block height of the lowest centre
    of a layer are one layer.

    Returns
    -------
    list of (n_members,) int64 arrays, block indices of each layer from the bottom up
    """
    movable = np.flatnonzero(~mechanics.is_support)
    band = TOL.layer_band_relative * float(np.median(block_heights(mechanics)[movable]))
    label = height_layers(mechanics.position0[movable, 2], band)
    return [movable[label == k] for k in range(label.max(initial=-1) + 1)]


def group_summaries(mechanics, position, stress, groups):
    """Volume-weighted averages of groups of blocks (seed 001 Table I), all groups in one pass.

    Parameters
    ----------
    mechanics : Mechanics
    position : (n_blocks, 3) float64, m
    stress : (n_blocks, 3, 3) float64, Pa
    groups : list of (n_members,) int64 arrays, block indices (an empty group's means are NaN)

    Returns
    -------
    list of dict, one per group: blocks (ids), volume (m^3), z (volume-weighted mean height of the
    centres, m), stress (volume-weighted mean tensor, Pa) and p, q (volume-weighted means of the blocks'
    invariants, Pa, as Table I averages them; p of the mean tensor is the same, q of it is not)
    """
    if not groups:
        return []
    members = np.concatenate(groups).astype(np.int64)
    label = np.repeat(np.arange(len(groups)), [len(group) for group in groups])
    volume = mechanics.volume[members]
    p, q = stress_invariants(stress[members])
    weighted = np.column_stack([np.ones_like(volume), position[members, 2], p, q,
                                stress[members].reshape(-1, 9)]) * volume[:, None]
    sums = np.zeros((len(groups), weighted.shape[1]))
    np.add.at(sums, label, weighted)   # per group: volume, then the weighted sums
    with np.errstate(invalid="ignore"):
        means = sums[:, 1:] / sums[:, :1]
    return [{"blocks": [mechanics.block_ids[i] for i in group], "volume": float(total),
             "z": float(mean[0]), "stress": mean[3:].reshape(3, 3).tolist(), "p": float(mean[1]), "q": float(mean[2])}
            for group, total, mean in zip(groups, sums[:, 0].tolist(), means)]


def group_members(mechanics, name, ids):
    """(n_members,) int64 block indices of a user group of block ids; ModelError on an unknown id."""
    index = {bid: i for i, bid in enumerate(mechanics.block_ids)}
    unknown = [bid for bid in ids if bid not in index]
    if unknown:
        raise ModelError(f"group {name!r}: unknown block {unknown[0]!r}", path=f"groups.{name}")
    return np.array([index[bid] for bid in ids], np.int64)


def stress_summary(mechanics, position, stress, groups=None):
    """Per-layer and whole-structure averages of the block stresses (seed 001 figs. 15-21, Table I).

    Parameters
    ----------
    mechanics : Mechanics
    position : (n_blocks, 3) float64, m, centres of mass
    stress : (n_blocks, 3, 3) float64, Pa, tension positive
    groups : dict of str -> list of str, optional
        A user grouping, name -> block ids; by default the courses of `course_layers`.

    Returns
    -------
    dict with "layers": [`group_summaries` + "name"] from the bottom up (or in the order of
    ``groups``; empty groups left out) and "structure": the summary of every movable block
    without its list of ids (supports are left out: they carry the reactions, not the
    masonry's stress)
    """
    if groups is None:
        named = [(f"layer {k}", members) for k, members in enumerate(course_layers(mechanics))]
    else:
        named = [(name, group_members(mechanics, name, ids)) for name, ids in groups.items()]
    named = [(name, members) for name, members in named if len(members)]
    movable = np.flatnonzero(~mechanics.is_support)
    *layers, structure = group_summaries(mechanics, position, stress,
                                         [members for _, members in named] + [movable])
    del structure["blocks"]
    return {"layers": [dict(name=name, **layer) for (name, _), layer in zip(named, layers)], "structure": structure}
