"""The cone complementarity problem of one time step, the only thing a solver sees.

Seed 000 sec. 2.4-2.6: find impulses gamma with

    gamma in Upsilon  _|_  N gamma + r in Upsilon^*,                               (eq. 38)
    N = D^T M^-1 D + E,                                                            (eq. 33, 43)
    r = D^T M^-1 k~ + b,                                                           (eq. 34)

equivalently (for symmetric positive definite N) the convex program

    min 1/2 gamma^T N gamma + gamma^T r   s.t.  gamma in Upsilon.                  (eq. 39-40)

Cohesive joints (mortar) replace the cone Upsilon_i of a contact by the shifted, truncated set
S_i = {n >= -T_i, ||t|| <= C_i + mu_i n} of ``engine.solvers.cone`` (C1); the program is then
min f over the product of the S_i and eq. 38 becomes the variational inequality
gamma in S, (N gamma + r)^T (gamma' - gamma) >= 0 for all gamma' in S, whose natural map
gamma - Pi_S(gamma - s (N gamma + r)) the residual measures. Without cohesion S_i = Upsilon_i.

Conventions
-----------
* Impulses are stored per contact as (n_c, 3) arrays ordered (gamma_n, gamma_u, gamma_v);
  the seed orders (u, v, n) in eq. 15.
* Contact i couples bodies ``body_a[i]`` and ``body_b[i]``. The relative contact velocity in the
  frame (n, u, v) is u_i = J_a,i v_a + J_b,i v_b with J (3, 6) acting on the body twist
  [linear velocity, angular velocity] in world frame, i.e. u_i = D_i^T v. The impulse gamma_i
  applies the generalized impulse J_a,i^T gamma_i to body a and J_b,i^T gamma_i to body b.
* ``rhs`` already contains the free motion D^T M^-1 k~ (and the stabilization b), so the body
  velocity after the step is v+ = M^-1 k~ + ``velocity(gamma)``: the caller adds M^-1 k~.

Every operator is matrix-free and costs O(n_c + n_b): M^-1 D gamma is accumulated per body
(scatter) and D^T v is gathered per contact.

Parallel runs. A large problem is cut into at most ``MAX_PARTS`` runs of consecutive contacts
(``Problem.partition``), one thread each. The gather and the projections are independent per
contact. The scatter D gamma = sum_i J_i^T gamma_i would race on a body shared by two runs, so each
run adds into its own (n_b, 6) accumulator and the accumulators are summed per body afterwards, in
run order. The cuts depend on n_c alone: the rounding, hence every result, is the same whatever the
number of threads.

Every parallel kernel is called through ``Problem.run_parallel`` and the ``ThreadGovernor`` of
``engine.solvers.threads``, which runs it on one thread while that is faster.
"""
from functools import cached_property

import numpy as np
from numba import njit, prange

from extrados.engine.solvers.cone import project_cohesive_point, project_cohesive_sets
from extrados.engine.solvers.threads import ThreadGovernor
from extrados.engine.tolerance import TOL

#: Fewest contacts per run. A problem of fewer than twice as many contacts runs on the calling
#: thread: waking others would cost more than the work they share.
PART_CONTACTS = 4096
#: Most runs. Each run keeps an (n_b, 6) accumulator that is cleared and summed on every product:
#: on two cores an APGD pass over 59,500 contacts took the same time with 2 or 4 runs and 14% longer
#: with 8.
MAX_PARTS = 4
#: Chooses the thread count of every parallel kernel of the solvers.
GOVERNOR = ThreadGovernor()
#: The largest finite float64; anything larger in magnitude, or NaN, is not finite.
LARGEST_FLOAT = np.finfo(np.float64).max


@njit(cache=True)
def scatter_part(start, stop, body_a, body_b, jacobian_a, jacobian_b, gamma, impulse):
    """Generalized impulse D gamma of contacts start..stop-1, summed per body.

    Contact i adds J_a,i^T gamma_i to body a and J_b,i^T gamma_i to body b.

    Parameters
    ----------
    start, stop : int
        Contact range.
    body_a, body_b : (n_c,) int64
        Body indices of each contact.
    jacobian_a, jacobian_b : (n_c, 3, 6) float64
        Contact Jacobians (rows n, u, v; columns linear then angular, world frame).
    gamma : (n_c, 3) float64
        Impulses (gamma_n, gamma_u, gamma_v).
    impulse : (n_b, 6) float64
        Overwritten with [force, moment] impulse per body (N s, N m s).
    """
    impulse[:] = 0.0
    for i in range(start, stop):
        a = body_a[i]
        b = body_b[i]
        for k in range(6):
            impulse[a, k] += (jacobian_a[i, 0, k] * gamma[i, 0] + jacobian_a[i, 1, k] * gamma[i, 1]
                              + jacobian_a[i, 2, k] * gamma[i, 2])
            impulse[b, k] += (jacobian_b[i, 0, k] * gamma[i, 0] + jacobian_b[i, 1, k] * gamma[i, 1]
                              + jacobian_b[i, 2, k] * gamma[i, 2])


@njit(cache=True)
def body_velocity_range(start, stop, impulse, inverse_mass, inverse_inertia, velocity):
    """Velocity change w_B = M_B^-1 t_B of bodies start..stop-1, t_B the impulse summed over runs.

    Parameters
    ----------
    start, stop : int
        Body range.
    impulse : (n_parts, n_b, 6) float64
        Impulse per run and body (``scatter_part``), summed in run order.
    inverse_mass : (n_b,) float64
        Inverse masses (1/kg).
    inverse_inertia : (n_b, 3, 3) float64
        World-frame inverse inertia tensors.
    velocity : (n_b, 6) float64
        Rows start..stop-1 receive [linear (m/s), angular (rad/s)].

    Returns
    -------
    float
        sum_B t_B^T M_B^-1 t_B over the range; over all bodies, gamma^T D^T M^-1 D gamma.
    """
    energy = 0.0
    total = np.empty(6)  # (6,) float64
    for body in range(start, stop):
        total[:] = 0.0
        for part in range(impulse.shape[0]):
            for k in range(6):
                total[k] += impulse[part, body, k]
        # M^-1 = blockdiag(m^-1 I_3, I^-1) per body
        for k in range(3):
            velocity[body, k] = inverse_mass[body] * total[k]
            velocity[body, 3 + k] = (inverse_inertia[body, k, 0] * total[3] + inverse_inertia[body, k, 1] * total[4]
                                     + inverse_inertia[body, k, 2] * total[5])
        for k in range(6):
            energy += total[k] * velocity[body, k]
    return energy


@njit(cache=True)
def delassus_part(start, stop, body_a, body_b, jacobian_a, jacobian_b, compliance, velocity, gamma, out):
    """Rows start..stop-1 of N gamma = D^T w + E gamma, given w = M^-1 D gamma per body.

    Parameters
    ----------
    start, stop : int
        Contact range.
    body_a, body_b : (n_c,) int64
        Body indices of each contact.
    jacobian_a, jacobian_b : (n_c, 3, 6) float64
        Contact Jacobians.
    compliance : (n_c, 3) float64
        Diagonal of E (s/kg).
    velocity : (n_b, 6) float64
        w = M^-1 D gamma.
    gamma : (n_c, 3) float64
        Impulses.
    out : (n_c, 3) float64
        Rows start..stop-1 receive (N gamma)_i (m/s).
    """
    for i in range(start, stop):
        a = body_a[i]
        b = body_b[i]
        for row in range(3):
            total = 0.0
            for k in range(6):
                total += jacobian_a[i, row, k] * velocity[a, k] + jacobian_b[i, row, k] * velocity[b, k]
            out[i, row] = total + compliance[i, row] * gamma[i, row]


@njit(cache=True)
def body_velocity_kernel(body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia, gamma):
    """Generalized velocity change M^-1 D gamma of every body, on the calling thread.

    Parameters
    ----------
    body_a, body_b : (n_c,) int64
        Body indices of each contact.
    jacobian_a, jacobian_b : (n_c, 3, 6) float64
        Contact Jacobians (rows n, u, v; columns linear then angular, world frame).
    inverse_mass : (n_b,) float64
        Inverse masses (1/kg), zero for supports.
    inverse_inertia : (n_b, 3, 3) float64
        World-frame inverse inertia tensors, zero for supports.
    gamma : (n_c, 3) float64
        Impulses (gamma_n, gamma_u, gamma_v).

    Returns
    -------
    (n_b, 6) float64
        Velocity change [linear (m/s), angular (rad/s)] of each body.
    """
    n_bodies = inverse_mass.shape[0]
    impulse = np.empty((1, n_bodies, 6))  # (1, n_b, 6) float64
    scatter_part(0, gamma.shape[0], body_a, body_b, jacobian_a, jacobian_b, gamma, impulse[0])
    velocity = np.empty((n_bodies, 6))  # (n_b, 6) float64
    body_velocity_range(0, n_bodies, impulse, inverse_mass, inverse_inertia, velocity)
    return velocity


@njit(cache=True, parallel=True)
def body_velocity_parallel(contact_bounds, body_bounds, body_a, body_b, jacobian_a, jacobian_b, inverse_mass,
                           inverse_inertia, gamma, impulse, velocity):
    """M^-1 D gamma with one thread per run (see the module docstring).

    Parameters
    ----------
    contact_bounds, body_bounds : (n_parts + 1,) int64
        Runs of contacts and of bodies (``Problem.partition``).
    body_a ... gamma
        As in ``body_velocity_kernel``.
    impulse : (n_parts, n_b, 6) float64
        Scratch accumulators.
    velocity : (n_b, 6) float64
        Receives M^-1 D gamma.

    Returns
    -------
    float
        gamma^T D^T M^-1 D gamma.
    """
    n_parts = contact_bounds.shape[0] - 1
    for part in prange(n_parts):
        scatter_part(contact_bounds[part], contact_bounds[part + 1], body_a, body_b, jacobian_a, jacobian_b, gamma,
                     impulse[part])
    energy = np.empty(n_parts)  # (n_parts,) float64
    for part in prange(n_parts):
        energy[part] = body_velocity_range(body_bounds[part], body_bounds[part + 1], impulse, inverse_mass,
                                           inverse_inertia, velocity)
    return energy.sum()


@njit(cache=True, parallel=True)
def delassus_parallel(contact_bounds, body_bounds, body_a, body_b, jacobian_a, jacobian_b, inverse_mass,
                      inverse_inertia, compliance, gamma, impulse, velocity, out):
    """N gamma = D^T M^-1 D gamma + E gamma with one thread per run: scatter, M^-1 per body, gather.

    Parameters
    ----------
    contact_bounds, body_bounds : (n_parts + 1,) int64
        Runs of contacts and of bodies (``Problem.partition``).
    body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia, compliance
        The operator (see ``Problem``).
    gamma : (n_c, 3) float64
        Impulses.
    impulse : (n_parts, n_b, 6) float64
        Scratch accumulators.
    velocity : (n_b, 6) float64
        Receives M^-1 D gamma.
    out : (n_c, 3) float64
        Receives N gamma (m/s).
    """
    n_parts = contact_bounds.shape[0] - 1
    for part in prange(n_parts):
        scatter_part(contact_bounds[part], contact_bounds[part + 1], body_a, body_b, jacobian_a, jacobian_b, gamma,
                     impulse[part])
    for part in prange(n_parts):
        body_velocity_range(body_bounds[part], body_bounds[part + 1], impulse, inverse_mass, inverse_inertia,
                            velocity)
    for part in prange(n_parts):
        delassus_part(contact_bounds[part], contact_bounds[part + 1], body_a, body_b, jacobian_a, jacobian_b,
                      compliance, velocity, gamma, out)


@njit(cache=True)
def contact_velocity_kernel(body_a, body_b, jacobian_a, jacobian_b, body_velocity):
    """Relative contact velocities D^T v = J_a v_a + J_b v_b in each contact frame.

    Parameters
    ----------
    body_a, body_b : (n_c,) int64
        Body indices of each contact.
    jacobian_a, jacobian_b : (n_c, 3, 6) float64
        Contact Jacobians.
    body_velocity : (n_b, 6) float64
        Body twists [linear, angular] in world frame.

    Returns
    -------
    (n_c, 3) float64
        Velocities (u_n, u_u, u_v) per contact.
    """
    n_contacts = body_a.shape[0]
    out = np.empty((n_contacts, 3))  # (n_c, 3) float64
    for i in range(n_contacts):
        a = body_a[i]
        b = body_b[i]
        for row in range(3):
            total = 0.0
            for k in range(6):
                total += jacobian_a[i, row, k] * body_velocity[a, k] + jacobian_b[i, row, k] * body_velocity[b, k]
            out[i, row] = total
    return out


@njit(cache=True)
def diagonal_blocks_kernel(body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia, compliance):
    """Diagonal blocks N_ii = J_a M_a^-1 J_a^T + J_b M_b^-1 J_b^T + E_i of the Delassus operator.

    Returns
    -------
    (n_c, 3, 3) float64
        Symmetric positive definite 3x3 blocks.
    """
    n_contacts = body_a.shape[0]
    blocks = np.zeros((n_contacts, 3, 3))  # (n_c, 3, 3) float64
    for i in range(n_contacts):
        for side in range(2):
            body = body_a[i] if side == 0 else body_b[i]
            jacobian = jacobian_a[i] if side == 0 else jacobian_b[i]
            for row in range(3):
                for col in range(3):
                    # linear part m^-1 J_lin J_lin^T
                    linear = 0.0
                    for k in range(3):
                        linear += jacobian[row, k] * jacobian[col, k]
                    # angular part J_ang I^-1 J_ang^T
                    angular = 0.0
                    for k in range(3):
                        for m in range(3):
                            angular += jacobian[row, 3 + k] * inverse_inertia[body, k, m] * jacobian[col, 3 + m]
                    blocks[i, row, col] += inverse_mass[body] * linear + angular
        for row in range(3):
            blocks[i, row, row] += compliance[i, row]
    return blocks


@njit(cache=True)
def diagonal_scale_kernel(body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia, compliance):
    """Mean eigenvalue trace(N_ii) / 3 of each diagonal block of the Delassus operator.

    Only the three diagonal entries of N_ii = J_a M_a^-1 J_a^T + J_b M_b^-1 J_b^T + E_i are formed,
    a third of the work of ``diagonal_blocks_kernel``; the sums run in the same order, so the
    result equals the trace of its blocks bit for bit.

    Returns
    -------
    (n_c,) float64
        trace(N_ii) / 3 (s/kg), > 0 because E_i > 0.
    """
    n_contacts = body_a.shape[0]
    scale = np.empty(n_contacts)  # (n_c,) float64
    for i in range(n_contacts):
        trace = 0.0
        for row in range(3):
            entry = 0.0  # N_ii[row, row]
            for side in range(2):
                body = body_a[i] if side == 0 else body_b[i]
                jacobian = jacobian_a[i] if side == 0 else jacobian_b[i]
                linear = 0.0
                for k in range(3):
                    linear += jacobian[row, k] * jacobian[row, k]
                angular = 0.0
                for k in range(3):
                    for m in range(3):
                        angular += jacobian[row, 3 + k] * inverse_inertia[body, k, m] * jacobian[row, 3 + m]
                entry += inverse_mass[body] * linear + angular
            trace += entry + compliance[i, row]
        scale[i] = trace / 3.0
    return scale


@njit(cache=True)
def row_sum_bound_kernel(body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia, compliance):
    """Upper bounds on the absolute row sums sum_j |N_ij| of the Delassus operator.

    Entrywise |N| = |D^T M^-1 D + E| <= |D|^T |M^-1| |D| + E, so the row sums of N are bounded by
    the product of that nonnegative operator with a vector of ones: a scatter of |J|^T 1 per body,
    |M^-1| per body, a gather with |J|.

    Returns
    -------
    (n_c, 3) float64
        Bounds (s/kg) on the rows (n, u, v) of each contact, >= the diagonal of N.
    """
    n_contacts = body_a.shape[0]
    n_bodies = inverse_mass.shape[0]
    # h_B = sum over the contact sides on B of |J|^T 1
    column_sums = np.zeros((n_bodies, 6))  # (n_b, 6) float64
    for i in range(n_contacts):
        for k in range(6):
            column_sums[body_a[i], k] += (abs(jacobian_a[i, 0, k]) + abs(jacobian_a[i, 1, k])
                                          + abs(jacobian_a[i, 2, k]))
            column_sums[body_b[i], k] += (abs(jacobian_b[i, 0, k]) + abs(jacobian_b[i, 1, k])
                                          + abs(jacobian_b[i, 2, k]))
    # q_B = |M_B^-1| h_B
    weighted = np.empty((n_bodies, 6))  # (n_b, 6) float64
    for body in range(n_bodies):
        for k in range(3):
            weighted[body, k] = abs(inverse_mass[body]) * column_sums[body, k]
            weighted[body, 3 + k] = (abs(inverse_inertia[body, k, 0]) * column_sums[body, 3]
                                     + abs(inverse_inertia[body, k, 1]) * column_sums[body, 4]
                                     + abs(inverse_inertia[body, k, 2]) * column_sums[body, 5])
    out = np.empty((n_contacts, 3))  # (n_c, 3) float64
    for i in range(n_contacts):
        a = body_a[i]
        b = body_b[i]
        for row in range(3):
            total = compliance[i, row]
            for k in range(6):
                total += abs(jacobian_a[i, row, k]) * weighted[a, k] + abs(jacobian_b[i, row, k]) * weighted[b, k]
            out[i, row] = total
    return out


@njit(cache=True)
def natural_map_norm(gamma_n, gamma_u, gamma_v, gradient_n, gradient_u, gradient_v, friction, cohesion, tension,
                     step):
    """||gamma_i - Pi_i(gamma_i - s_i g_i)|| / s_i of one contact (m/s), the term of ``Problem.residual``.

    Parameters
    ----------
    gamma_n, gamma_u, gamma_v : float
        Impulse of the contact.
    gradient_n, gradient_u, gradient_v : float
        Its row of g = N gamma + r (m/s).
    friction : float
        Friction coefficient.
    cohesion, tension : float
        Cohesion C_i and tensile cap T_i (N s) of the set S_i (``cone.project_cohesive_point``).
    step : float
        Positive step s_i (s/kg).

    Returns
    -------
    float
        nan when an input is not finite.
    """
    if not (np.isfinite(gamma_n) and np.isfinite(gamma_u) and np.isfinite(gamma_v) and np.isfinite(gradient_n)
            and np.isfinite(gradient_u) and np.isfinite(gradient_v)):
        return np.nan
    n, u, v = project_cohesive_point(gamma_n - step * gradient_n, gamma_u - step * gradient_u,
                                     gamma_v - step * gradient_v, friction, cohesion, tension)
    dn = gamma_n - n
    du = gamma_u - u
    dv = gamma_v - v
    return np.sqrt(dn * dn + du * du + dv * dv) / step


@njit(cache=True)
def natural_residual_part(start, stop, gamma, gradient, friction, cohesion, step):
    """Largest natural-map term over contacts start..stop-1 (see ``natural_map_norm``).

    Returns
    -------
    float
        The largest term (m/s); zero for an empty range; nan when an input is not finite.
    """
    largest = 0.0
    for i in range(start, stop):
        value = natural_map_norm(gamma[i, 0], gamma[i, 1], gamma[i, 2], gradient[i, 0], gradient[i, 1],
                                 gradient[i, 2], friction[i], cohesion[i, 0], cohesion[i, 1], step[i])
        if np.isnan(value):
            return value
        if value > largest:
            largest = value
    return largest


@njit(cache=True)
def natural_residual_kernel(gamma, gradient, friction, cohesion, step):
    """Largest natural-map residual max_i ||gamma_i - Pi_i(gamma_i - s_i g_i)|| / s_i.

    Parameters
    ----------
    gamma : (n_c, 3) float64
        Impulses.
    gradient : (n_c, 3) float64
        g = N gamma + r (m/s).
    friction : (n_c,) float64
        Friction coefficients.
    cohesion : (n_c, 2) float64
        Cohesion C_i and tensile cap T_i (N s).
    step : (n_c,) float64
        Positive steps s_i (s/kg).

    Returns
    -------
    float
        The residual in velocity units (m/s); zero when there are no contacts; nan when gamma or
        the gradient is not finite.
    """
    return natural_residual_part(0, gamma.shape[0], gamma, gradient, friction, cohesion, step)


@njit(cache=True, parallel=True)
def natural_residual_parallel(contact_bounds, gamma, gradient, friction, cohesion, step):
    """``natural_residual_kernel`` with one thread per run of ``contact_bounds`` (n_parts + 1,)."""
    n_parts = contact_bounds.shape[0] - 1
    largest = np.empty(n_parts)  # (n_parts,) float64
    for part in prange(n_parts):
        largest[part] = natural_residual_part(contact_bounds[part], contact_bounds[part + 1], gamma, gradient,
                                              friction, cohesion, step)
    worst = 0.0
    for part in range(n_parts):
        if np.isnan(largest[part]):
            return largest[part]
        worst = max(worst, largest[part])
    return worst


@njit(cache=True, parallel=True)
def project_parallel(contact_bounds, gamma, friction, cohesion, out):
    """``cone.project_cohesive_sets`` with one thread per run of ``contact_bounds`` (n_parts + 1,)."""
    for part in prange(contact_bounds.shape[0] - 1):
        for i in range(contact_bounds[part], contact_bounds[part + 1]):
            n, u, v = project_cohesive_point(gamma[i, 0], gamma[i, 1], gamma[i, 2], friction[i], cohesion[i, 0],
                                             cohesion[i, 1])
            out[i, 0] = n
            out[i, 1] = u
            out[i, 2] = v


@njit(cache=True)
def count_non_finite(values):
    """Number of NaN and infinite entries of ``values`` (n,) float64.

    |x| <= LARGEST_FLOAT fails exactly for NaN and +-inf; a count without an early exit lets the
    loop vectorize (three times faster than stopping at the first).
    """
    count = 0
    for i in range(values.shape[0]):
        count += not (abs(values[i]) <= LARGEST_FLOAT)
    return count


@njit(cache=True)
def first_outside(bodies, n_bodies):
    """Index of the first entry of ``bodies`` (n,) int64 outside 0..n_bodies-1; -1 when none."""
    for i in range(bodies.shape[0]):
        if bodies[i] < 0 or bodies[i] >= n_bodies:
            return i
    return -1


@njit(cache=True)
def first_equal(body_a, body_b):
    """Index of the first contact whose two bodies (n,) int64 are the same; -1 when none."""
    for i in range(body_a.shape[0]):
        if body_a[i] == body_b[i]:
            return i
    return -1


@njit(cache=True)
def first_row_not_positive(values):
    """Index of the first row of ``values`` (n, m) float64 with an entry <= 0; -1 when none."""
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            if values[i, j] <= 0.0:
                return i
    return -1


@njit(cache=True)
def first_row_negative(values):
    """Index of the first row of ``values`` (n, m) float64 with an entry below 0; -1 when none."""
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            if values[i, j] < 0.0:
                return i
    return -1


@njit(cache=True)
def first_negative(values):
    """Index of the first entry of ``values`` (n,) float64 below 0; -1 when none."""
    for i in range(values.shape[0]):
        if values[i] < 0.0:
            return i
    return -1


def _shape_matches(got, wanted):
    """True when the shape ``got`` has the entries of ``wanted`` (None entries free)."""
    if len(got) != len(wanted):
        return False
    for size, want in zip(got, wanted):
        if want is not None and size != want:
            return False
    return True


def _frozen(array, dtype, shape, name, copy=True):
    """A read-only contiguous array of ``array`` checked against ``shape`` (None entries free).

    A copy unless ``copy`` is False and ``array`` is already C-contiguous of type ``dtype``: then
    ``array`` itself is flagged read-only and returned. Float arrays must be finite.
    """
    out = np.array(array, dtype=dtype, order="C") if copy else np.asarray(array, dtype=dtype, order="C")
    if not _shape_matches(out.shape, shape):
        wanted = tuple("*" if s is None else s for s in shape)
        raise ValueError(f"Problem.{name}: expected shape {wanted}, got {out.shape}")
    if dtype is np.float64 and count_non_finite(out.reshape(-1)):
        raise ValueError(f"Problem.{name}: contains non-finite values")
    out.flags.writeable = False
    return out


class Problem:
    """The CCP(N, r, Upsilon) of one time step for n_c contacts between n_b bodies, cohesive joints included.

    Parameters
    ----------
    body_a, body_b : (n_c,) int
        Indices of the two bodies of each contact (distinct).
    jacobian_a, jacobian_b : (n_c, 3, 6) float
        Rows (n, u, v) of each contact frame; columns [linear, angular] velocity of the body in
        world frame, so that u_i = J_a,i v_a + J_b,i v_b = D_i^T v.
    inverse_mass : (n_b,) float
        Inverse masses (1/kg); zero for supports.
    inverse_inertia : (n_b, 3, 3) float
        World-frame inverse inertia tensors (1/(kg m^2)); zero for supports.
    compliance : (n_c, 3) float
        Diagonal of E_i (s/kg) ordered (n, u, v), all entries > 0 (seed eq. 43).
    friction : (n_c,) float
        Friction coefficients mu_i >= 0.
    rhs : (n_c, 3) float
        r = D^T M^-1 k~ + b (m/s) ordered (n, u, v) (seed eq. 34): the free contact velocity.
    cohesion : (n_c, 2) float, keyword only, optional
        Cohesion C_i and tensile cap T_i per contact, both >= 0, in impulses (N s: the caller
        multiplies the forces by the time step). Contact i then admits
        S_i = {n >= -T_i, ||t|| <= C_i + mu_i n} (``engine.solvers.cone``, C1) instead of its Coulomb
        cone. Zeros when omitted: every contact has its cone, and every result is as without it.
    copy : bool, keyword only
        True (default): every array is stored as a read-only copy. False: an array already
        C-contiguous of the stored type is taken over without a copy and flagged read-only; for a
        caller that hands over arrays it has just built and keeps no other reference to
        (``engine.contact.assemble``). The checks are the same either way.

    Raises
    ------
    ValueError
        Naming the field (and the first bad entry) of a wrong shape, a non-finite float, a body
        index out of range, a contact of a body with itself, compliance <= 0, friction < 0,
        cohesion < 0 or inverse mass < 0.

    Notes
    -----
    All arrays are read-only: a Problem is fixed once built, which makes the cached diagonal blocks,
    row sums and partition safe.
    """

    def __init__(self, body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia,
                 compliance, friction, rhs, *, cohesion=None, copy=True):
        self.body_a = _frozen(body_a, np.int64, (None,), "body_a", copy)  # (n_c,) int64
        n_c = self.body_a.shape[0]
        self.body_b = _frozen(body_b, np.int64, (n_c,), "body_b", copy)  # (n_c,) int64
        self.jacobian_a = _frozen(jacobian_a, np.float64, (n_c, 3, 6), "jacobian_a", copy)  # (n_c, 3, 6) float64
        self.jacobian_b = _frozen(jacobian_b, np.float64, (n_c, 3, 6), "jacobian_b", copy)  # (n_c, 3, 6) float64
        self.inverse_mass = _frozen(inverse_mass, np.float64, (None,), "inverse_mass", copy)  # (n_b,) float64
        n_b = self.inverse_mass.shape[0]
        self.inverse_inertia = _frozen(inverse_inertia, np.float64, (n_b, 3, 3), "inverse_inertia", copy)  # (n_b, 3, 3)
        self.compliance = _frozen(compliance, np.float64, (n_c, 3), "compliance", copy)  # (n_c, 3) float64
        self.friction = _frozen(friction, np.float64, (n_c,), "friction", copy)  # (n_c,) float64
        self.rhs = _frozen(rhs, np.float64, (n_c, 3), "rhs", copy)  # (n_c, 3) float64
        if cohesion is None:
            cohesion = np.zeros((n_c, 2))
        self.cohesion = _frozen(cohesion, np.float64, (n_c, 2), "cohesion", copy)  # (n_c, 2) float64 [C_i, T_i]
        for name in ("body_a", "body_b"):
            bodies = getattr(self, name)
            bad = first_outside(bodies, n_b)
            if bad >= 0:
                raise ValueError(f"Problem.{name}[{bad}]: body index {bodies[bad]} outside 0..{n_b - 1}")
        same = first_equal(self.body_a, self.body_b)
        if same >= 0:
            raise ValueError(f"Problem.body_b[{same}]: contact joins body {self.body_a[same]} to itself")
        bad = first_row_not_positive(self.compliance)
        if bad >= 0:
            raise ValueError(f"Problem.compliance[{bad}]: entries must be > 0, got {self.compliance[bad]}")
        bad = first_negative(self.friction)
        if bad >= 0:
            raise ValueError(f"Problem.friction[{bad}]: must be >= 0, got {self.friction[bad]}")
        bad = first_row_negative(self.cohesion)
        if bad >= 0:
            raise ValueError(f"Problem.cohesion[{bad}]: cohesion and tensile cap must be >= 0, "
                             f"got {self.cohesion[bad]}")
        bad = first_negative(self.inverse_mass)
        if bad >= 0:
            raise ValueError(f"Problem.inverse_mass[{bad}]: must be >= 0, got {self.inverse_mass[bad]}")

    @property
    def n_contacts(self):
        """Number of contacts n_c."""
        return self.body_a.shape[0]

    @property
    def n_bodies(self):
        """Number of bodies n_b."""
        return self.inverse_mass.shape[0]

    @cached_property
    def partition(self):
        """Runs of the parallel kernels (see the module docstring).

        Returns
        -------
        contact_bounds : (n_parts + 1,) int64
            Run k holds contacts contact_bounds[k]..contact_bounds[k + 1]-1.
        body_bounds : (n_parts + 1,) int64
            The bodies cut into as many runs, for the per-body step of the scatter.

        Notes
        -----
        n_parts = min(MAX_PARTS, n_c // PART_CONTACTS), at least 1; with one run every operator
        runs on the calling thread.
        """
        n_parts = max(1, min(MAX_PARTS, self.n_contacts // PART_CONTACTS))
        runs = np.arange(n_parts + 1, dtype=np.int64)
        contact_bounds = runs * self.n_contacts // n_parts  # (n_parts + 1,) int64
        body_bounds = runs * self.n_bodies // n_parts  # (n_parts + 1,) int64
        contact_bounds.flags.writeable = False
        body_bounds.flags.writeable = False
        return contact_bounds, body_bounds

    @property
    def parallel(self):
        """True when the operators run as parallel kernels (more than one run)."""
        return self.partition[0].shape[0] > 2

    def run_parallel(self, name, kernel, *args):
        """Call the parallel kernel ``kernel(*args)`` through the shared ``GOVERNOR``.

        Its timings are kept per kernel ``name`` and size class (the bit length of n_c), so that
        they carry over from one problem to the next of a time-stepping run.
        """
        return GOVERNOR.run((name, self.n_contacts.bit_length()), kernel, *args)

    @cached_property
    def _diagonal(self):
        blocks = diagonal_blocks_kernel(self.body_a, self.body_b, self.jacobian_a, self.jacobian_b,
                                        self.inverse_mass, self.inverse_inertia, self.compliance)
        blocks.flags.writeable = False
        return blocks, self._diagonal_scale

    @cached_property
    def _diagonal_scale(self):
        # scalar scale: mean eigenvalue trace(N_ii)/3, > 0 because E_i > 0
        scale = diagonal_scale_kernel(self.body_a, self.body_b, self.jacobian_a, self.jacobian_b,
                                      self.inverse_mass, self.inverse_inertia, self.compliance)
        scale.flags.writeable = False
        return scale

    @cached_property
    def _row_sums(self):
        bound = row_sum_bound_kernel(self.body_a, self.body_b, self.jacobian_a, self.jacobian_b, self.inverse_mass,
                                     self.inverse_inertia, self.compliance)
        bound.flags.writeable = False
        return bound

    @cached_property
    def rhs_scale(self):
        """Velocity scale max(||r||_inf, floor) (m/s) that makes the residual dimensionless."""
        largest = float(np.max(np.abs(self.rhs))) if self.rhs.size else 0.0
        return max(largest, TOL.residual_velocity_floor)

    def velocity(self, gamma):
        """Generalized velocity change M^-1 D gamma of every body.

        The velocity after the step is M^-1 k~ + velocity(gamma); ``rhs`` already holds the free
        part D^T M^-1 k~, so the caller adds M^-1 k~ itself.

        Parameters
        ----------
        gamma : (n_c, 3) float64
            Impulses (N s) ordered (n, u, v).

        Returns
        -------
        (n_b, 6) float64
            [linear (m/s), angular (rad/s)] per body; zero rows for supports.
        """
        gamma = np.ascontiguousarray(gamma, dtype=np.float64)
        if not self.parallel:
            return body_velocity_kernel(self.body_a, self.body_b, self.jacobian_a, self.jacobian_b,
                                        self.inverse_mass, self.inverse_inertia, gamma)
        contact_bounds, body_bounds = self.partition
        impulse = np.empty((contact_bounds.shape[0] - 1, self.n_bodies, 6))  # (n_parts, n_b, 6) scratch
        velocity = np.empty((self.n_bodies, 6))  # (n_b, 6) float64
        self.run_parallel("velocity", body_velocity_parallel, contact_bounds, body_bounds, self.body_a, self.body_b,
                          self.jacobian_a, self.jacobian_b, self.inverse_mass, self.inverse_inertia, gamma, impulse,
                          velocity)
        return velocity

    def contact_velocity(self, body_velocity):
        """Relative contact velocities D^T v (m/s) of body twists ``body_velocity`` (n_b, 6).

        Returns
        -------
        (n_c, 3) float64
            (u_n, u_u, u_v) per contact.
        """
        return contact_velocity_kernel(self.body_a, self.body_b, self.jacobian_a, self.jacobian_b,
                                       np.ascontiguousarray(body_velocity, dtype=np.float64))

    def apply(self, gamma):
        """Delassus product N gamma = D^T M^-1 D gamma + E gamma (eq. 33, 43).

        Parameters
        ----------
        gamma : (n_c, 3) float64
            Impulses.

        Returns
        -------
        (n_c, 3) float64
            Contact velocities (m/s).
        """
        gamma = np.ascontiguousarray(gamma, dtype=np.float64)
        contact_bounds, body_bounds = self.partition
        impulse = np.empty((contact_bounds.shape[0] - 1, self.n_bodies, 6))  # (n_parts, n_b, 6) scratch
        velocity = np.empty((self.n_bodies, 6))  # (n_b, 6) float64, M^-1 D gamma
        out = np.empty((self.n_contacts, 3))  # (n_c, 3) float64
        if self.parallel:
            self.run_parallel("apply", delassus_parallel, contact_bounds, body_bounds, self.body_a, self.body_b,
                              self.jacobian_a, self.jacobian_b, self.inverse_mass, self.inverse_inertia,
                              self.compliance, gamma, impulse, velocity, out)
        else:
            scatter_part(0, self.n_contacts, self.body_a, self.body_b, self.jacobian_a, self.jacobian_b, gamma,
                         impulse[0])
            body_velocity_range(0, self.n_bodies, impulse, self.inverse_mass, self.inverse_inertia, velocity)
            delassus_part(0, self.n_contacts, self.body_a, self.body_b, self.jacobian_a, self.jacobian_b,
                          self.compliance, velocity, gamma, out)
        return out

    def gradient(self, gamma):
        """Gradient N gamma + r of the objective, the contact velocity u of eq. 37 (n_c, 3)."""
        gradient = self.apply(gamma)
        gradient += self.rhs
        return gradient

    def objective(self, gamma):
        """Objective f(gamma) = 1/2 gamma^T N gamma + gamma^T r (eq. 39-40), in J (kg m^2/s^2)."""
        return float(np.sum(gamma * (0.5 * self.apply(gamma) + self.rhs)))

    def project(self, gamma):
        """Euclidean projection of gamma (n_c, 3) onto the product of the sets S_i (without cohesion, the cones)."""
        gamma = np.ascontiguousarray(gamma, dtype=np.float64)
        out = np.empty((self.n_contacts, 3))
        if self.parallel:
            self.run_parallel("project", project_parallel, self.partition[0], gamma, self.friction, self.cohesion,
                              out)
        else:
            project_cohesive_sets(gamma, self.friction, self.cohesion, out)
        return out

    def diagonal_blocks(self):
        """Diagonal blocks of N and a scalar scale per contact.

        Returns
        -------
        blocks : (n_c, 3, 3) float64
            N_ii (s/kg), read-only.
        scale : (n_c,) float64
            trace(N_ii) / 3 (s/kg), the mean eigenvalue of each block, read-only; its inverse is the
            step of the residual and the diagonal preconditioner of SPG.
        """
        return self._diagonal

    def row_sums(self):
        """Upper bounds on the absolute row sums of N, sum_j |N_ij| <= (|D|^T |M^-1| |D| 1 + E 1)_i.

        With P = diag(1 / max over the three rows of contact i), Gershgorin's theorem bounds every
        eigenvalue of P N, hence of P^1/2 N P^1/2, by 1.

        Returns
        -------
        (n_c, 3) float64
            Bounds (s/kg) on the rows (n, u, v) of each contact, read-only.
        """
        return self._row_sums

    def residual(self, gamma, gradient=None):
        """Dimensionless CCP residual of ``gamma``.

        With g = N gamma + r and s_i = 1 / scale_i (see ``diagonal_blocks``),

            rho(gamma) = max_i ||gamma_i - Pi_i(gamma_i - s_i g_i)|| / s_i  /  max(||r||_inf, floor).

        The natural map gamma - Pi(gamma - s g) vanishes exactly at solutions of eq. 38 (the fixed
        point of the projected gradient); dividing by s_i makes each term a velocity, and dividing
        by the largest free velocity ||r||_inf makes it dimensionless.

        Parameters
        ----------
        gamma : (n_c, 3) float64
            Impulses, feasible or not.
        gradient : (n_c, 3) float64, optional
            N gamma + r when the caller already has it (saves one product).

        Returns
        -------
        float
            rho >= 0; nan when gamma or the gradient is not finite.
        """
        gamma = np.ascontiguousarray(gamma, dtype=np.float64)
        if gradient is None:
            gradient = self.gradient(gamma)
        gradient = np.ascontiguousarray(gradient, dtype=np.float64)
        step = self.residual_step
        if self.parallel:
            largest = self.run_parallel("residual", natural_residual_parallel, self.partition[0], gamma, gradient,
                                        self.friction, self.cohesion, step)
        else:
            largest = natural_residual_kernel(gamma, gradient, self.friction, self.cohesion, step)
        return float(largest) / self.rhs_scale

    @cached_property
    def residual_step(self):
        """Steps s_i = 1 / scale_i of ``residual`` (see ``diagonal_blocks``), (n_c,) float64, read-only."""
        step = 1.0 / self._diagonal_scale
        step.flags.writeable = False
        return step

    def initial_impulse(self, gamma0=None):
        """A feasible starting point: the projection of ``gamma0``, or zero (in every S_i) when it is None.

        Raises
        ------
        ValueError
            When ``gamma0`` has the wrong shape or non-finite entries.
        """
        if gamma0 is None:
            return np.zeros((self.n_contacts, 3))
        gamma0 = np.asarray(gamma0, dtype=np.float64)
        if gamma0.shape != (self.n_contacts, 3):
            raise ValueError(f"gamma0: expected shape ({self.n_contacts}, 3), got {gamma0.shape}")
        if not np.all(np.isfinite(gamma0)):
            raise ValueError("gamma0: contains non-finite values")
        return self.project(gamma0)
