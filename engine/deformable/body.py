"""A deformable block as a rigid frame carrying small elastic displacements (issue 23; seed 001 sec. 2.1-2.2).

The block's nodal velocities split into the rigid motion of its frame, which the rigid engine integrates as
before (position, orientation, the block's mass and inertia), and an elastic part that is mass-orthogonal to
the six rigid modes Phi (3n x 6: a translation and a rotation about the centre of mass at every node),

    v = Phi w + v_e,   Phi^T M v_e = 0,

held in the block's body frame. A rotation of the frame however large strains nothing: the strain comes from
v_e alone (the co-rotational frame the issue asks for). Loads proportional to mass (gravity, ground motion)
move the rigid modes only. The elastic part follows the theta-method of seed 001 eq. 9:

    (M + h^2 theta^2 K) v_e+ = (M - h^2 theta (1 - theta) K) v_e - h K u_e + P^T (H^T gamma),
    u_e+ = u_e + h ((1 - theta) v_e + theta v_e+),

unconditionally stable for theta >= 1/2, P^T = I - M Phi M_r^-1 Phi^T the projection that removes from a
load its rigid-mode part (M_r = Phi^T M Phi). Its flexibility, the map from a nodal impulse to the elastic
velocity change, is

    G = (M + h^2 theta^2 K)^-1 - Phi M_r^-1 Phi^T                                       (seed 001 eq. 11)

(since (M + h^2 theta^2 K) Phi = M Phi). A static solve (h = 1 s, engine.analysis.static) uses the elastic
compliance itself, G_s f = u with K u = P^T f and Phi^T M u = 0, from the bordered system
[[K, M Phi], [Phi^T M, 0]] [u; lambda] = [f; 0]. Its blocks' rigid frames follow the elastic settlement delta
by a velocity delta / h that the static CCP pays for with an unbalanced force M delta / h^2: the forces are
right to (T / h)^2, T = L sqrt(rho / E) the block's elastic time (2e-6 for a 1 m stone block, 2e-2 for a
100 m one; tests/test_deformable_blocks.py).

Each factorisation is kept per (h, theta): a run of constant step factorises once.
"""
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import splu

from extrados.engine.deformable.elasticity import lumped_mass, stiffness

#: The key of the static compliance among a body's factorisations.
STATIC = "static"


def rigid_modes(nodes):
    """Phi (3n x 6): nodal velocities of a unit velocity along x, y, z and a unit rotation about x, y, z (about
    the origin, the centre of mass); the velocity of node x under rotation w is w x x = -[x]_x w."""
    n = len(nodes)
    modes = np.zeros((n, 3, 6))
    modes[:, :, :3] = np.eye(3)
    x, y, z = nodes[:, 0], nodes[:, 1], nodes[:, 2]
    modes[:, 0, 4], modes[:, 0, 5] = z, -y
    modes[:, 1, 3], modes[:, 1, 5] = -z, x
    modes[:, 2, 3], modes[:, 2, 4] = y, -x
    return modes.reshape(3 * n, 6)


#: A Flexibility keeps G among the boundary dofs that contacts have touched, each column solved once; past this many
#: dofs (72 MB) it starts again from the ones the current contacts touch.
MOST_KNOWN_DOFS = 3000


@dataclass
class Flexibility:
    """One factorisation of a body: the static compliance or the theta-method's (M + h^2 theta^2 K).

    G among the boundary dofs under contacts (``known``, positions in ``boundary_dofs``) is kept as a dense
    block and grown column by column as contacts reach new faces: a step whose contacts stay on the same
    faces condenses its flexibility by sparse products alone, whatever their frames or weights."""

    solve: object              # callable (3n, k) -> (3n, k): G applied to nodal impulses, body frame
    boundary_dofs: np.ndarray  # (3 b,) the boundary nodes' degrees of freedom
    n_dofs: int                # 3 n
    known: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # (m,) sorted positions
    block: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))       # (m, m) G among them

    def condensed(self, weights):
        """(w x I_3) G (w x I_3)^T (3k, 3k), in the body's axes, of k points with ``weights`` (k, b) on the
        boundary nodes (eq. 11 before the contacts' frames turn it, engine.deformable.coupling)."""
        nodes = np.flatnonzero(np.any(weights != 0.0, axis=0))                   # the faces' nodes under contacts
        touched = (3 * nodes[:, None] + np.arange(3)).ravel()                     # their dofs among boundary_dofs
        part = sparse.kron(sparse.csr_matrix(weights[:, nodes]), sparse.identity(3), format="csr")
        spread = part @ self.among(touched)                                       # (3k, t) (w x I_3) G
        block = np.asarray((part @ spread.T).T)                                   # G symmetric
        return 0.5 * (block + block.T)

    def among(self, positions):
        """(t, t) G among the boundary dofs at ``positions`` (sorted, unique), solving only unknown columns."""
        if len(np.union1d(self.known, positions)) > MOST_KNOWN_DOFS:
            self.known, self.block = np.zeros(0, np.int64), np.zeros((0, 0))
        missing = np.setdiff1d(positions, self.known)
        if len(missing):
            self._add_columns(missing)
        index = np.searchsorted(self.known, positions)
        return self.block[np.ix_(index, index)]

    def _add_columns(self, missing):
        """Grow ``block`` by G's columns at the boundary positions ``missing`` (one multi-column solve)."""
        impulse = np.zeros((self.n_dofs, len(missing)))
        impulse[self.boundary_dofs[missing], np.arange(len(missing))] = 1.0
        columns = self.solve(impulse)                                              # (3n, m)
        known = np.union1d(self.known, missing)
        old, new = np.searchsorted(known, self.known), np.searchsorted(known, missing)
        block = np.empty((len(known), len(known)))
        block[np.ix_(old, old)] = self.block
        cross = columns[self.boundary_dofs[self.known]]                            # G[old, new]
        block[np.ix_(old, new)], block[np.ix_(new, old)] = cross, cross.T
        own = columns[self.boundary_dofs[missing]]
        block[np.ix_(new, new)] = 0.5 * (own + own.T)
        self.known, self.block = known, block


@dataclass
class ElasticBody:
    """A block's mesh, stiffness and mass in its body frame (nodes about the centre of mass)."""

    mesh: object               # TetraMesh, nodes in the body frame
    young: float               # Pa
    poisson: float
    density: float             # kg/m^3
    theta: float = 0.6         # of the theta-method (seed 001 eq. 9)
    contact_spacing: float = None  # m, its joints' edges cut into contact points (engine.deformable.joint_points)
    factorisations: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.stiffness = stiffness(self.mesh, self.young, self.poisson)           # (3n, 3n) CSR, N/m
        self.mass = lumped_mass(self.mesh, self.density)                           # (3n,) kg
        self.modes = rigid_modes(self.mesh.nodes)                                  # (3n, 6)
        self.modal_mass = self.modes.T @ (self.mass[:, None] * self.modes)         # (6, 6) M_r
        self.boundary_nodes = np.unique(self.mesh.boundary)                        # (b,) node indices
        self.boundary_dofs = (3 * self.boundary_nodes[:, None] + np.arange(3)).ravel()   # (3 b,)
        self.size = float(np.ptp(self.mesh.nodes, axis=0).max())                   # m, largest extent

    @property
    def n_nodes(self):
        return len(self.mesh.nodes)

    def rigid_part(self, impulse):
        """Phi M_r^-1 Phi^T f of nodal impulses f (3n, k): the rigid motion they give the block's mesh."""
        return self.modes @ np.linalg.solve(self.modal_mass, self.modes.T @ impulse)

    def flexibility(self, h, static=False):
        """The Flexibility of a step of length h (s) by the theta-method, or the static compliance."""
        key = STATIC if static else float(h)
        if key not in self.factorisations:
            self.factorisations[key] = self._static() if static else self._dynamic(float(h))
        return self.factorisations[key]

    def _dynamic(self, h):
        matrix = sparse.diags(self.mass) + (h * self.theta) ** 2 * self.stiffness
        factor = splu(matrix.tocsc())

        def solve(impulse):
            return factor.solve(impulse) - self.rigid_part(impulse)
        return Flexibility(solve, self.boundary_dofs, 3 * self.n_nodes)

    def _static(self):
        coupling = self.mass[:, None] * self.modes                                 # M Phi (3n, 6)
        bordered = sparse.bmat([[self.stiffness, sparse.csr_matrix(coupling)],
                                [sparse.csr_matrix(coupling.T), None]]).tocsc()
        factor = splu(bordered)
        n = 3 * self.n_nodes

        def solve(impulse):
            padded = np.vstack([impulse, np.zeros((6, impulse.shape[1]))])
            return factor.solve(padded)[:n]
        return Flexibility(solve, self.boundary_dofs, 3 * self.n_nodes)

    def free_velocity(self, displacement, velocity, h):
        """v_e of the step without contact impulses (3n,), body frame (seed 001 eq. 9 with R = 0)."""
        lagging = self.mass * velocity - h * h * self.theta * (1.0 - self.theta) * (self.stiffness @ velocity)
        load = lagging - h * (self.stiffness @ displacement)
        return self.flexibility(h).solve(load[:, None])[:, 0]

    def advance(self, displacement, velocity, velocity_end, h):
        """u_e at the end of the step: u_e + h ((1 - theta) v_e + theta v_e+) (seed 001 eq. 9)."""
        return displacement + h * ((1.0 - self.theta) * velocity + self.theta * velocity_end)
