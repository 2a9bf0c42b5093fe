"""Hand-built cone complementarity problems for the solver tests (no collision code involved).

Contact convention (``engine.contact.frames``, ``engine.solvers.delassus``): the contact frame rows
are (n, u, v), the normal n points from body a into body b, and the Jacobian row of direction d at
point p is [d, (p - x_b) x d] for body b and [-d, -(p - x_a) x d] for body a, so that u_n > 0 is
separation and a positive gamma_n pushes b away from a.

Units: SI, g = 9.81 m/s^2; static steps use h = 1 s, so impulses equal forces in N.
"""
from dataclasses import dataclass

import numpy as np

from extrados.engine.solvers import Problem

GRAVITY = 9.81
#: Normal and tangential compliance of the hand-built joints (s/kg): a few 1e-4 of the diagonal of N
#: of a 1000 kg unit box (4/m = 4e-3), small enough to look rigid, large enough to fix the
#: tangential impulses of over-constrained joints within a few hundred iterations.
JOINT_COMPLIANCE = 1e-6


def box_inverse_inertia(mass, sides):
    """World-frame inverse inertia (axis-aligned) of a box of ``mass`` (kg) and ``sides`` (a, b, c) (m)."""
    a, b, c = sides
    return np.diag([12.0 / (mass * (b * b + c * c)), 12.0 / (mass * (a * a + c * c)),
                    12.0 / (mass * (a * a + b * b))])


def contact_jacobian(point, frame, centre, sign):
    """Rows [sign d, sign (p - x) x d] for the directions d of ``frame`` (3, 3); returns (3, 6)."""
    jacobian = np.empty((3, 6))
    jacobian[:, :3] = sign * frame
    jacobian[:, 3:] = sign * np.cross(point - centre, frame)
    return jacobian


@dataclass
class Scene:
    """A problem together with what the checks need.

    Attributes
    ----------
    problem : Problem
    free_velocity : (n_b, 6) float64
        M^-1 h f, the body velocity without contacts; the velocity after the step is
        free_velocity + problem.velocity(gamma).
    mass : float
        Mass of each box (kg).
    step : float
        Time step h (s).
    """

    problem: Problem
    free_velocity: np.ndarray
    mass: float
    step: float


class SceneBuilder:
    """Collects bodies and contacts and assembles a Problem with r = D^T M^-1 h f."""

    def __init__(self):
        self.centres, self.inverse_masses, self.inverse_inertias, self.forces = [], [], [], []
        self.body_a, self.body_b, self.jacobian_a, self.jacobian_b, self.friction = [], [], [], [], []

    def add_support(self, centre=(0.0, 0.0, 0.0)):
        """A fixed body; returns its index."""
        return self._add(np.asarray(centre, float), 0.0, np.zeros((3, 3)), np.zeros(6))

    def add_box(self, centre, mass, sides=(1.0, 1.0, 1.0), force=(0.0, 0.0, -GRAVITY)):
        """A box loaded at its centre by ``force``, a force per unit mass (m/s^2), gravity by default."""
        force = np.concatenate([mass * np.asarray(force, float), np.zeros(3)])
        return self._add(np.asarray(centre, float), 1.0 / mass, box_inverse_inertia(mass, sides), force)

    def _add(self, centre, inverse_mass, inverse_inertia, force):
        self.centres.append(centre)
        self.inverse_masses.append(inverse_mass)
        self.inverse_inertias.append(inverse_inertia)
        self.forces.append(force)
        return len(self.centres) - 1

    def add_contact(self, body_a, body_b, point, normal, friction):
        """A contact at ``point`` with normal from a to b, tangents completing a right-handed frame."""
        normal = np.asarray(normal, float) / np.linalg.norm(normal)
        helper = np.array([1.0, 0.0, 0.0]) if abs(normal[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
        tangent_u = np.cross(helper, normal)
        tangent_u /= np.linalg.norm(tangent_u)
        frame = np.stack([normal, tangent_u, np.cross(normal, tangent_u)])
        point = np.asarray(point, float)
        self.body_a.append(body_a)
        self.body_b.append(body_b)
        self.jacobian_a.append(contact_jacobian(point, frame, self.centres[body_a], -1.0))
        self.jacobian_b.append(contact_jacobian(point, frame, self.centres[body_b], +1.0))
        self.friction.append(friction)

    def add_face_contacts(self, body_a, body_b, height, half_width, friction):
        """Four corner contacts of a horizontal square joint at ``height`` (normal +z, a below b)."""
        for x in (-half_width, half_width):
            for y in (-half_width, half_width):
                self.add_contact(body_a, body_b, (x, y, height), (0.0, 0.0, 1.0), friction)

    def build(self, mass, step=1.0, compliance=JOINT_COMPLIANCE):
        """Assemble the Scene with r = D^T (M^-1 h f)."""
        inverse_mass = np.array(self.inverse_masses)
        inverse_inertia = np.array(self.inverse_inertias)
        forces = np.array(self.forces)
        free = np.empty_like(forces)
        free[:, :3] = step * inverse_mass[:, None] * forces[:, :3]
        free[:, 3:] = step * np.einsum("bij,bj->bi", inverse_inertia, forces[:, 3:])
        body_a, body_b = np.array(self.body_a), np.array(self.body_b)
        jacobian_a, jacobian_b = np.array(self.jacobian_a), np.array(self.jacobian_b)
        rhs = np.einsum("cij,cj->ci", jacobian_a, free[body_a]) + np.einsum("cij,cj->ci", jacobian_b, free[body_b])
        problem = Problem(body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia,
                          np.full((len(body_a), 3), compliance), np.array(self.friction), rhs)
        return Scene(problem, free, mass, step)


def box_on_ground(mass=1000.0, friction=0.6):
    """(a) One unit box resting on the ground on its four bottom corners, static step h = 1 s."""
    builder = SceneBuilder()
    ground = builder.add_support()
    box = builder.add_box((0.0, 0.0, 0.5), mass)
    builder.add_face_contacts(ground, box, 0.0, 0.5, friction)
    return builder.build(mass)


def stack(n_boxes=5, mass=1000.0, friction=0.6):
    """(b) A column of ``n_boxes`` unit boxes on the ground; joint k (from the bottom) has 4 corner contacts."""
    builder = SceneBuilder()
    below = builder.add_support()
    for k in range(n_boxes):
        box = builder.add_box((0.0, 0.0, k + 0.5), mass)
        builder.add_face_contacts(below, box, float(k), 0.5, friction)
        below = box
    return builder.build(mass)


def box_on_slope(slope_deg=30.0, push_ratio=0.5, mass=1000.0, friction=0.3):
    """(c) A unit box on a slope of ``slope_deg`` pushed sideways, in the frame of the slope.

    The slope is the plane z = 0 with gravity tilted: g (sin theta, 0, -cos theta); the push is a
    force push_ratio m g sin theta along +y (across the slope) at the centre of mass.
    """
    theta = np.radians(slope_deg)
    load = GRAVITY * np.array([np.sin(theta), push_ratio * np.sin(theta), -np.cos(theta)])
    builder = SceneBuilder()
    ground = builder.add_support()
    box = builder.add_box((0.0, 0.0, 0.5), mass, force=load)
    builder.add_face_contacts(ground, box, 0.0, 0.5, friction)
    return builder.build(mass), load


def random_problem(seed, n_bodies=10, n_supports=2, n_contacts=12, equal_tangents=False):
    """(d) A random well-conditioned problem: random Jacobians, masses and inertias, mu in [0.2, 1],
    compliance log-uniform in [1e-6, 1e-3], a right-hand side pressing most contacts closed.
    ``equal_tangents``: the two tangential compliances of a contact equal, as the engine's contact laws
    make them (engine.contact.laws)."""
    rng = np.random.default_rng(seed)
    inverse_mass = 1.0 / rng.uniform(1.0, 10.0, n_bodies)
    factors = rng.normal(size=(n_bodies, 3, 3))
    inverse_inertia = np.linalg.inv(factors @ factors.transpose(0, 2, 1) + np.eye(3))
    inverse_mass[:n_supports] = 0.0
    inverse_inertia[:n_supports] = 0.0
    body_a = rng.integers(0, n_bodies, n_contacts)
    body_b = (body_a + rng.integers(1, n_bodies, n_contacts)) % n_bodies
    body_b[body_b < n_supports] = n_supports + rng.integers(0, n_bodies - n_supports, np.sum(body_b < n_supports))
    body_a[body_a == body_b] = (body_b[body_a == body_b] + 1) % n_bodies
    jacobian_a = rng.normal(size=(n_contacts, 3, 6))
    jacobian_b = rng.normal(size=(n_contacts, 3, 6))
    compliance = 10.0 ** rng.uniform(-6.0, -3.0, (n_contacts, 3))
    if equal_tangents:
        compliance[:, 2] = compliance[:, 1]
    friction = rng.uniform(0.2, 1.0, n_contacts)
    rhs = rng.normal(size=(n_contacts, 3))
    rhs[:, 0] -= 1.0
    return Problem(body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia, compliance, friction, rhs)
