"""The cone complementarity problem of one time step, the only thing a solver sees.

Seed 000 sec. 2.4-2.6: find impulses gamma with

    gamma in Upsilon  _|_  N gamma + r in Upsilon^*,                               (eq. 38)
    N = D^T M^-1 D + E,                                                            (eq. 33, 43)
    r = D^T M^-1 k~ + b,                                                           (eq. 34)

equivalently (for symmetric positive definite N) the convex program

    min 1/2 gamma^T N gamma + gamma^T r   s.t.  gamma in Upsilon.                  (eq. 39-40)

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
"""
from functools import cached_property

import numpy as np
from numba import njit

from engine.solvers.cone import project_cone_point, project_cones
from engine.tolerance import TOL


@njit(cache=True)
def body_velocity_kernel(body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia, gamma):
    """Generalized velocity change M^-1 D gamma of every body.

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
    # generalized impulse D gamma per body: sum over contacts of J^T gamma_i
    impulse = np.zeros((n_bodies, 6))  # (n_b, 6) float64
    for i in range(gamma.shape[0]):
        a = body_a[i]
        b = body_b[i]
        for k in range(6):
            impulse[a, k] += (jacobian_a[i, 0, k] * gamma[i, 0] + jacobian_a[i, 1, k] * gamma[i, 1]
                              + jacobian_a[i, 2, k] * gamma[i, 2])
            impulse[b, k] += (jacobian_b[i, 0, k] * gamma[i, 0] + jacobian_b[i, 1, k] * gamma[i, 1]
                              + jacobian_b[i, 2, k] * gamma[i, 2])
    # M^-1 = blockdiag(m^-1 I_3, I^-1) per body
    velocity = np.empty((n_bodies, 6))  # (n_b, 6) float64
    for body in range(n_bodies):
        for k in range(3):
            velocity[body, k] = inverse_mass[body] * impulse[body, k]
            velocity[body, 3 + k] = (inverse_inertia[body, k, 0] * impulse[body, 3]
                                     + inverse_inertia[body, k, 1] * impulse[body, 4]
                                     + inverse_inertia[body, k, 2] * impulse[body, 5])
    return velocity


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
def natural_residual_kernel(gamma, gradient, friction, step):
    """Largest natural-map residual max_i ||gamma_i - Pi_i(gamma_i - s_i g_i)|| / s_i.

    Parameters
    ----------
    gamma : (n_c, 3) float64
        Impulses.
    gradient : (n_c, 3) float64
        g = N gamma + r (m/s).
    friction : (n_c,) float64
        Friction coefficients.
    step : (n_c,) float64
        Positive steps s_i (s/kg).

    Returns
    -------
    float
        The residual in velocity units (m/s); zero when there are no contacts.
    """
    largest = 0.0
    for i in range(gamma.shape[0]):
        s = step[i]
        n, u, v = project_cone_point(gamma[i, 0] - s * gradient[i, 0], gamma[i, 1] - s * gradient[i, 1],
                                     gamma[i, 2] - s * gradient[i, 2], friction[i])
        dn = gamma[i, 0] - n
        du = gamma[i, 1] - u
        dv = gamma[i, 2] - v
        value = np.sqrt(dn * dn + du * du + dv * dv) / s
        if value > largest:
            largest = value
    return largest


def _frozen(array, dtype, shape, name):
    """A read-only contiguous copy of ``array`` checked against ``shape`` (None entries free)."""
    out = np.array(array, dtype=dtype, copy=True, order="C")
    if out.ndim != len(shape) or any(want is not None and got != want for got, want in zip(out.shape, shape)):
        wanted = tuple("*" if s is None else s for s in shape)
        raise ValueError(f"Problem.{name}: expected shape {wanted}, got {out.shape}")
    if dtype == np.float64 and not np.all(np.isfinite(out)):
        raise ValueError(f"Problem.{name}: contains non-finite values")
    out.flags.writeable = False
    return out


class Problem:
    """The CCP(N, r, Upsilon) of one time step for n_c contacts between n_b bodies.

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

    Notes
    -----
    All arrays are stored as read-only copies: a Problem is fixed once built, which makes the cached
    diagonal blocks safe.
    """

    def __init__(self, body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia,
                 compliance, friction, rhs):
        self.body_a = _frozen(body_a, np.int64, (None,), "body_a")  # (n_c,) int64
        n_c = self.body_a.shape[0]
        self.body_b = _frozen(body_b, np.int64, (n_c,), "body_b")  # (n_c,) int64
        self.jacobian_a = _frozen(jacobian_a, np.float64, (n_c, 3, 6), "jacobian_a")  # (n_c, 3, 6) float64
        self.jacobian_b = _frozen(jacobian_b, np.float64, (n_c, 3, 6), "jacobian_b")  # (n_c, 3, 6) float64
        self.inverse_mass = _frozen(inverse_mass, np.float64, (None,), "inverse_mass")  # (n_b,) float64
        n_b = self.inverse_mass.shape[0]
        self.inverse_inertia = _frozen(inverse_inertia, np.float64, (n_b, 3, 3), "inverse_inertia")  # (n_b, 3, 3)
        self.compliance = _frozen(compliance, np.float64, (n_c, 3), "compliance")  # (n_c, 3) float64
        self.friction = _frozen(friction, np.float64, (n_c,), "friction")  # (n_c,) float64
        self.rhs = _frozen(rhs, np.float64, (n_c, 3), "rhs")  # (n_c, 3) float64
        for name in ("body_a", "body_b"):
            bodies = getattr(self, name)
            bad = np.flatnonzero((bodies < 0) | (bodies >= n_b))
            if bad.size:
                raise ValueError(f"Problem.{name}[{bad[0]}]: body index {bodies[bad[0]]} outside 0..{n_b - 1}")
        same = np.flatnonzero(self.body_a == self.body_b)
        if same.size:
            raise ValueError(f"Problem.body_b[{same[0]}]: contact joins body {self.body_a[same[0]]} to itself")
        bad = np.flatnonzero(np.any(self.compliance <= 0.0, axis=1))
        if bad.size:
            raise ValueError(f"Problem.compliance[{bad[0]}]: entries must be > 0, got {self.compliance[bad[0]]}")
        bad = np.flatnonzero(self.friction < 0.0)
        if bad.size:
            raise ValueError(f"Problem.friction[{bad[0]}]: must be >= 0, got {self.friction[bad[0]]}")
        bad = np.flatnonzero(self.inverse_mass < 0.0)
        if bad.size:
            raise ValueError(f"Problem.inverse_mass[{bad[0]}]: must be >= 0, got {self.inverse_mass[bad[0]]}")

    @property
    def n_contacts(self):
        """Number of contacts n_c."""
        return self.body_a.shape[0]

    @property
    def n_bodies(self):
        """Number of bodies n_b."""
        return self.inverse_mass.shape[0]

    @cached_property
    def _diagonal(self):
        blocks = diagonal_blocks_kernel(self.body_a, self.body_b, self.jacobian_a, self.jacobian_b,
                                        self.inverse_mass, self.inverse_inertia, self.compliance)
        # scalar scale: mean eigenvalue trace(N_ii)/3, > 0 because E_i > 0
        scale = np.trace(blocks, axis1=1, axis2=2) / 3.0
        blocks.flags.writeable = False
        scale.flags.writeable = False
        return blocks, scale

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
        return body_velocity_kernel(self.body_a, self.body_b, self.jacobian_a, self.jacobian_b,
                                    self.inverse_mass, self.inverse_inertia, np.ascontiguousarray(gamma))

    def contact_velocity(self, body_velocity):
        """Relative contact velocities D^T v (m/s) of body twists ``body_velocity`` (n_b, 6).

        Returns
        -------
        (n_c, 3) float64
            (u_n, u_u, u_v) per contact.
        """
        return contact_velocity_kernel(self.body_a, self.body_b, self.jacobian_a, self.jacobian_b,
                                       np.ascontiguousarray(body_velocity))

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
        return self.contact_velocity(self.velocity(gamma)) + self.compliance * gamma

    def gradient(self, gamma):
        """Gradient N gamma + r of the objective, the contact velocity u of eq. 37 (n_c, 3)."""
        return self.apply(gamma) + self.rhs

    def objective(self, gamma):
        """Objective f(gamma) = 1/2 gamma^T N gamma + gamma^T r (eq. 39-40), in J (kg m^2/s^2)."""
        return float(np.sum(gamma * (0.5 * self.apply(gamma) + self.rhs)))

    def project(self, gamma):
        """Euclidean projection Pi_Upsilon(gamma) onto the product of Coulomb cones (n_c, 3)."""
        out = np.empty((self.n_contacts, 3))
        project_cones(np.ascontiguousarray(gamma, dtype=np.float64), self.friction, out)
        return out

    def diagonal_blocks(self):
        """Diagonal blocks of N and a scalar scale per contact.

        Returns
        -------
        blocks : (n_c, 3, 3) float64
            N_ii (s/kg), read-only.
        scale : (n_c,) float64
            trace(N_ii) / 3 (s/kg), the mean eigenvalue of each block, read-only; its inverse is the
            diagonal preconditioner of the gradient solvers and the residual's step.
        """
        return self._diagonal

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
        if not (np.all(np.isfinite(gamma)) and np.all(np.isfinite(gradient))):
            return float("nan")
        _, scale = self._diagonal
        step = 1.0 / scale
        return natural_residual_kernel(gamma, np.ascontiguousarray(gradient), self.friction, step) / self.rhs_scale

    def initial_impulse(self, gamma0=None):
        """A feasible starting point: Pi_Upsilon(gamma0), or zero when ``gamma0`` is None.

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
