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
* Contact i couples bodies ``body_a[i]`` and ``body_b[i]`` through the Jacobians J_a,i, J_b,i (3, 6),
  u_i = D_i^T v = J_a,i v_a + J_b,i v_b (``engine.solvers.delassus``).
* ``rhs`` already contains the free motion D^T M^-1 k~ (and the stabilization b), so the body
  velocity after the step is v+ = M^-1 k~ + ``velocity(gamma)``: the caller adds M^-1 k~.

Every operator is matrix-free and costs O(n_c + n_b) (``engine.solvers.delassus``); the residual is
the natural map of ``engine.solvers.residual``; the arrays are checked by ``engine.solvers.checks``.
The numba kernels read the problem as one bundle: ``Problem.operator`` (an ``Operator``) for the
products with N, ``Problem.arrays`` (a ``ProblemArrays``) for the iterations of the solvers.

Parallel runs. A large problem is cut into at most ``MAX_PARTS`` runs of consecutive contacts
(``Problem.partition``), one thread each; the cuts depend on n_c alone, so every result is the same
whatever the number of threads. Every parallel kernel is called through ``Problem.run_parallel`` and
the ``ThreadGovernor`` of ``engine.solvers.threads``, which runs it on one thread while that is
faster.
"""
import copy
from collections import namedtuple
from functools import cached_property

import numpy as np

from extrados.engine.solvers.checks import check_entries, frozen
from extrados.engine.solvers.cone import project_cohesive_sets, project_parallel
from extrados.engine.solvers.delassus import (Operator, Partition, body_velocity_kernel, body_velocity_parallel,
                                              contact_velocity_kernel, delassus_kernel, delassus_parallel,
                                              diagonal_blocks_kernel, diagonal_scale_kernel, row_sum_bound_kernel)
from extrados.engine.solvers.residual import natural_residual_kernel, natural_residual_parallel
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


#: A ``Problem`` as the numba kernels of the solvers read it (``Problem.arrays``): the fields of
#: ``Operator`` (so that the kernels of ``engine.solvers.delassus`` take it for one), of ``Partition``,
#: then the rest. Flat, not made of those two: numba hands a parallel loop body no nested tuple.
ProblemArrays = namedtuple("ProblemArrays", Operator._fields + Partition._fields + (
    "rhs",            # (n_c, 3) float64, r (m/s) ordered (n, u, v), eq. 34
    "friction",       # (n_c,) float64, mu_i
    "cohesion",       # (n_c, 2) float64, cohesion C_i and tensile cap T_i (N s)
    "residual_step",  # (n_c,) float64, steps s_i of Problem.residual
    "rhs_scale",      # float, Problem.rhs_scale (m/s)
))


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
    free_velocity : (n_b, 6) float, keyword only, optional
        M^-1 k~, the bodies' velocity at the end of the step without contact impulses (m/s, rad/s), for a
        caller that asks how fast the solution moves (engine.solvers.auto.clearly_moving); None when omitted.
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
    row sums, partition and kernel bundles (``operator``, ``arrays``) safe.
    """

    def __init__(self, body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia,
                 compliance, friction, rhs, *, cohesion=None, free_velocity=None, copy=True):
        self.body_a = frozen(body_a, np.int64, (None,), "body_a", copy)  # (n_c,) int64
        n_c = self.body_a.shape[0]
        self.body_b = frozen(body_b, np.int64, (n_c,), "body_b", copy)  # (n_c,) int64
        self.jacobian_a = frozen(jacobian_a, np.float64, (n_c, 3, 6), "jacobian_a", copy)  # (n_c, 3, 6) float64
        self.jacobian_b = frozen(jacobian_b, np.float64, (n_c, 3, 6), "jacobian_b", copy)  # (n_c, 3, 6) float64
        self.inverse_mass = frozen(inverse_mass, np.float64, (None,), "inverse_mass", copy)  # (n_b,) float64
        n_b = self.inverse_mass.shape[0]
        self.inverse_inertia = frozen(inverse_inertia, np.float64, (n_b, 3, 3), "inverse_inertia", copy)  # (n_b, 3, 3)
        self.compliance = frozen(compliance, np.float64, (n_c, 3), "compliance", copy)  # (n_c, 3) float64
        self.friction = frozen(friction, np.float64, (n_c,), "friction", copy)  # (n_c,) float64
        self.rhs = frozen(rhs, np.float64, (n_c, 3), "rhs", copy)  # (n_c, 3) float64
        if cohesion is None:
            cohesion = np.zeros((n_c, 2))
        self.cohesion = frozen(cohesion, np.float64, (n_c, 2), "cohesion", copy)  # (n_c, 2) float64 [C_i, T_i]
        self.free_velocity = None if free_velocity is None else frozen(
            free_velocity, np.float64, (n_b, 6), "free_velocity", copy)  # (n_b, 6) float64 or None
        check_entries(self)
        self.operator = Operator(self.body_a, self.body_b, self.jacobian_a, self.jacobian_b, self.inverse_mass,
                                 self.inverse_inertia, self.compliance)  # the arrays of N, for its kernels

    def with_rhs(self, rhs):
        """The same problem with the free velocity ``rhs`` (n_c, 3) m/s instead of its own; N, its diagonal, row
        sums and partition are shared, not recomputed (engine.solvers.coulomb shifts r_n every outer iteration).

        Raises
        ------
        ValueError
            When ``rhs`` has the wrong shape or non-finite entries.
        """
        shifted = copy.copy(self)
        shifted.__dict__.pop("arrays", None)
        shifted.__dict__.pop("rhs_scale", None)
        shifted.rhs = frozen(rhs, np.float64, (self.n_contacts, 3), "rhs", True)
        return shifted

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
        Partition
            contact_bounds (n_parts + 1,) int64: run k holds contacts
            contact_bounds[k]..contact_bounds[k + 1]-1; body_bounds (n_parts + 1,) int64: the bodies
            cut into as many runs, for the per-body step of the scatter.

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
        return Partition(contact_bounds, body_bounds)

    @property
    def parallel(self):
        """True when the operators run as parallel kernels (more than one run)."""
        return self.partition.contact_bounds.shape[0] > 2

    def run_parallel(self, name, kernel, *args):
        """Call the parallel kernel ``kernel(*args)`` through the shared ``GOVERNOR``.

        Its timings are kept per kernel ``name`` and size class (the bit length of n_c), so that
        they carry over from one problem to the next of a time-stepping run.
        """
        return GOVERNOR.run((name, self.n_contacts.bit_length()), kernel, *args)

    @cached_property
    def arrays(self):
        """The problem as one bundle for the numba kernels of the solvers (``ProblemArrays``)."""
        return ProblemArrays(*self.operator, *self.partition, self.rhs, self.friction, self.cohesion,
                             self.residual_step, self.rhs_scale)

    @cached_property
    def _diagonal(self):
        blocks = diagonal_blocks_kernel(self.operator)
        blocks.flags.writeable = False
        return blocks, self._diagonal_scale

    @cached_property
    def _diagonal_scale(self):
        # scalar scale: mean eigenvalue trace(N_ii)/3, > 0 because E_i > 0
        scale = diagonal_scale_kernel(self.operator)
        scale.flags.writeable = False
        return scale

    @cached_property
    def _row_sums(self):
        bound = row_sum_bound_kernel(self.operator)
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
            return body_velocity_kernel(self.operator, gamma)
        impulse = np.empty((self.partition.contact_bounds.shape[0] - 1, self.n_bodies, 6))  # (n_parts, n_b, 6)
        velocity = np.empty((self.n_bodies, 6))  # (n_b, 6) float64
        self.run_parallel("velocity", body_velocity_parallel, self.operator, self.partition, gamma, impulse, velocity)
        return velocity

    def contact_velocity(self, body_velocity):
        """Relative contact velocities D^T v (m/s) of body twists ``body_velocity`` (n_b, 6).

        Returns
        -------
        (n_c, 3) float64
            (u_n, u_u, u_v) per contact.
        """
        return contact_velocity_kernel(self.operator, np.ascontiguousarray(body_velocity, dtype=np.float64))

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
        if not self.parallel:
            return delassus_kernel(self.operator, gamma)
        impulse = np.empty((self.partition.contact_bounds.shape[0] - 1, self.n_bodies, 6))  # (n_parts, n_b, 6)
        velocity = np.empty((self.n_bodies, 6))  # (n_b, 6) float64, M^-1 D gamma
        out = np.empty((self.n_contacts, 3))  # (n_c, 3) float64
        self.run_parallel("apply", delassus_parallel, self.operator, self.partition, gamma, impulse, velocity, out)
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
            self.run_parallel("project", project_parallel, self.partition.contact_bounds, gamma, self.friction,
                              self.cohesion, out)
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
            largest = self.run_parallel("residual", natural_residual_parallel, self.partition.contact_bounds, gamma,
                                        gradient, self.friction, self.cohesion, step)
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
