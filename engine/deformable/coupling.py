"""Deformable blocks in the step's contact problem (issue 23; seed 001 eq. 9-13).

Per step, for every deformable block b: the weights of its contacts on its surface (engine.deformable.surface_map),
hence H_b (3k x 3n_b), the elastic velocity of its k contacts in their frames from its nodes' elastic velocities
(body frame; sign -1 when b is the contact's body_a, the frames' rows n, u, v turned into the body frame by
R_b^T). Then

* the gap of each contact gains the elastic displacement across it, H_b u_e (normal row);
* the free contact velocity r gains H_b v_e,free, the elastic velocity without contact impulses (eq. 9);
* the Delassus operator gains W_b = H_b G_b H_b^T, the condensed flexibility (eq. 11-12), as a dense block of
  the FlexibleProblem (engine.solvers.flexible_problem). With H_b = T_b (w_b x I_3), w_b (k x b) the contacts'
  weights on the boundary nodes and T_b their signed frames in the body frame, W_b = T_b W_xyz T_b^T: W_xyz,
  in the body's axes, is kept while the weights stay (a step whose contacts barely move), the frames turn it;
* after the solve, v_e+ = v_e,free + G_b H_b^T gamma and u_e+ by eq. 9 (``ElasticStep.finish``).

A static solve (h = 1 s) uses the elastic compliance G_s: the solution's u_e is the blocks' elastic
displacement under the contact forces and their own weight.
"""
from dataclasses import dataclass, field, replace

import numpy as np

from extrados.engine.collision.feature_id import is_edge_point, is_interior_point
from extrados.engine.deformable.surface_map import point_weights, polygon_weights
from extrados.engine.solvers.flexible_problem import FlexibleProblem


@dataclass
class ElasticState:
    """Elastic displacements and velocities of the deformable blocks, body frames: block index -> (3n,)."""

    displacement: dict = field(default_factory=dict)   # m
    velocity: dict = field(default_factory=dict)       # m/s
    surface: dict = field(default_factory=dict, repr=False)     # `cached_pair_weights`' cache, kept between steps
    condensed: dict = field(default_factory=dict, repr=False)   # `ElasticStep.condensed`'s cache, likewise

    @classmethod
    def at_rest(cls, bodies):
        """No elastic displacement or velocity in any of ``bodies`` (block index -> ElasticBody)."""
        return cls({b: np.zeros(3 * body.n_nodes) for b, body in bodies.items()},
                   {b: np.zeros(3 * body.n_nodes) for b, body in bodies.items()})


@dataclass
class BlockContacts:
    """The contacts of one deformable block and where they sit on its surface."""

    rows: np.ndarray      # (k,) int64 contact indices
    sign: np.ndarray      # (k,) float64, +1 where the block is body_b, -1 where it is body_a
    weights: np.ndarray   # (k, b) float64, weights of the block's boundary nodes (ElasticBody.boundary_nodes)


#: A pair's surface weights are reused while its contact points stay within this fraction of the block's size
#: of where they were computed (in the block's frame): a settling wall's joints shift by microns per step.
SURFACE_REUSE = 1e-4


def pair_weights(body, points, normal, tolerance, outline=None):
    """(m, n) weights of a pair's contact points (m, 3) on the block's surface, body frame (surface_map): a mortar
    over the joint polygon for three points or more (a joint cut into points, engine.deformable.joint_points,
    gives the ``outline`` (m,) bool of its polygon's points), the surface under each point otherwise."""
    if outline is not None:
        return polygon_weights(body.mesh, points, normal, tolerance, outline, body.contact_spacing)
    if len(points) >= 3:
        return polygon_weights(body.mesh, points, normal, tolerance)
    return np.array([point_weights(body.mesh, p) for p in points])


def cached_pair_weights(cache, key, body, points, normal, tolerance, outline=None):
    """`pair_weights`, reused from ``cache`` (key -> (points, weights)) when the points moved less than
    SURFACE_REUSE of the block's size since they were computed."""
    kept = cache.get(key)
    reach = SURFACE_REUSE * body.size
    if kept is not None and kept[0].shape == points.shape and np.abs(kept[0] - points).max() <= reach:
        return kept[1]
    weights = pair_weights(body, points, normal, tolerance, outline)[:, body.boundary_nodes]
    cache[key] = (points, weights)
    return weights


def blocks_contacts(bodies, contacts, position, rotations, tolerance, cache=None):
    """BlockContacts of every deformable block (``bodies``: block index -> ElasticBody) among ``contacts``
    (engine.collision.detect.Contacts), the blocks' centres ``position`` (n_blocks, 3) and ``rotations``
    (n_blocks, 3, 3) body to world; a block's faces within ``tolerance`` (m) of a joint plane carry it.
    ``cache`` (a dict kept between steps, ElasticState.surface) saves recomputing the weights of pairs that
    barely moved."""
    cache = {} if cache is None else cache
    used = set()
    rows = {block: [] for block in bodies}
    signs = {block: [] for block in bodies}
    weights = {block: [] for block in bodies}
    for pair in range(contacts.n_pairs):
        start, stop = contacts.pair_start[pair], contacts.pair_start[pair + 1]
        a, b = int(contacts.body_a[start]), int(contacts.body_b[start])
        for block, side in ((a, -1.0), (b, 1.0)):
            body = bodies.get(block)
            if body is None:
                continue
            rotation = rotations[block]
            local = (contacts.point[start:stop] - position[block]) @ rotation                # body frame
            ids = contacts.feature_id[start:stop]
            key = (block, a, b, tuple(ids))
            outline = ~is_interior_point(ids) if is_edge_point(ids).any() else None
            found = cached_pair_weights(cache, key, body, local, rotation.T @ contacts.normal[start], tolerance,
                                        outline)
            rows[block].extend(range(start, stop))
            signs[block].extend([side] * (stop - start))
            weights[block].append(found)
            used.add(key)
    if len(cache) > 2 * len(used):                    # pairs that have gone: keep the cache to the live ones
        for key in set(cache) - used:
            del cache[key]
    return {block: BlockContacts(np.array(rows[block], np.int64), np.array(signs[block]),
                                 np.vstack(weights[block]) if weights[block]
                                 else np.zeros((0, len(body.boundary_nodes))))
            for block, body in bodies.items()}


def signed_frames(frame_rows, rotation, found):
    """T_b (k, 3, 3): each contact's frame rows (n, u, v) in the block's body frame, times its sign; with them
    H_b = T_b (w_b x I_3), w_b the contacts' weights on the boundary nodes. ``frame_rows`` (k, 3, 3) world rows."""
    return found.sign[:, None, None] * (frame_rows @ rotation)


def mapped_velocity(found, turned, boundary_velocity):
    """(k, 3) H_b v: the elastic velocity of the block's contacts in their frames from its boundary nodes'
    velocities ``boundary_velocity`` (b, 3), body frame; ``turned`` of `signed_frames`."""
    return np.einsum("rab,rb->ra", turned, found.weights @ boundary_velocity)


def mapped_impulse(found, turned, gamma):
    """(b, 3) H_b^T gamma: the boundary nodes' impulses (body frame) of the contacts' impulses ``gamma`` (k, 3)
    in their frames."""
    return found.weights.T @ np.einsum("rab,ra->rb", turned, gamma)


def turned_flexibility(local, turned):
    """W_b = T_b W_xyz T_b^T (3k, 3k): the condensed flexibility in the contacts' frames from ``local``, the one
    in the body's axes, (w_b x I_3) G_b (w_b x I_3)^T (`Flexibility.condensed`)."""
    k = len(turned)
    blocks = local.reshape(k, 3, k, 3)
    left = np.einsum("rac,rcsd->rasd", turned, blocks, optimize=True)
    return np.einsum("rasd,sbd->rasb", left, turned, optimize=True).reshape(3 * k, 3 * k)


@dataclass
class ElasticStep:
    """The deformable blocks' part of one step: their contacts, maps and flexibilities."""

    bodies: dict          # block index -> ElasticBody
    found: dict           # block index -> BlockContacts
    h: float              # s
    static: bool
    free: dict = field(default_factory=dict)      # block index -> (3n,) v_e,free
    frames: dict = field(default_factory=dict)    # block index -> T_b (k, 3, 3) of `signed_frames`, set by ``problem``

    def elastic_gap(self, contacts, state, elastic):
        """``contacts`` with each gap opened by the elastic displacement across it, H u_e (normal rows)."""
        gap = np.array(contacts.gap, float)
        rotations = state.rotation_matrices()
        for block, found in self.found.items():
            body, displacement = self.bodies[block], elastic.displacement[block]
            if not np.any(displacement) or len(found.rows) == 0:
                continue
            local = displacement.reshape(-1, 3)[body.boundary_nodes]             # (b, 3)
            normal = contacts.normal[found.rows] @ rotations[block]               # (k, 3) body frame
            gap[found.rows] += found.sign * np.einsum("rj,jc,rc->r", found.weights, local, normal)
        return replace(contacts, gap=gap)

    def problem(self, problem, frame, state, elastic):
        """The FlexibleProblem of ``problem`` (a Problem) with the blocks' flexibility and free elastic velocity."""
        rotations = state.rotation_matrices()
        rhs = np.array(problem.rhs)
        blocks = []
        for block, found in self.found.items():
            body = self.bodies[block]
            if len(found.rows) == 0:
                continue
            turned = signed_frames(frame[found.rows], rotations[block], found)
            self.frames[block] = turned
            blocks.append((found.rows, turned_flexibility(self.condensed(block, found, elastic.condensed), turned)))
            if not self.static:
                free = body.free_velocity(elastic.displacement[block], elastic.velocity[block], self.h)
                self.free[block] = free
                rhs[found.rows] += mapped_velocity(found, turned, free.reshape(-1, 3)[body.boundary_nodes])
        return FlexibleProblem(problem.body_a, problem.body_b, problem.jacobian_a, problem.jacobian_b,
                               problem.inverse_mass, problem.inverse_inertia, problem.compliance, problem.friction,
                               rhs, cohesion=problem.cohesion, free_velocity=problem.free_velocity,
                               flexibility=blocks, static=self.static)

    def condensed(self, block, found, cache):
        """(w_b x I_3) G_b (w_b x I_3)^T of ``block`` (3k, 3k), its contacts' condensed flexibility in its body's
        axes, reused from ``cache`` (ElasticState.condensed) while their weights are the ones it was computed
        for (`cached_pair_weights` keeps them while the points barely move); the frames turn it each step."""
        key = (block, self.h, self.static)
        kept = cache.get(key)
        if kept is not None and np.array_equal(kept[0], found.weights):
            return kept[1]
        condensed = self.bodies[block].flexibility(self.h, self.static).condensed(found.weights)
        cache[key] = (found.weights, condensed)
        return condensed

    def contact_velocity(self, problem, gamma):
        """(n_c, 3) the elastic part of the contacts' velocity at the end of the step: free plus W_e gamma."""
        velocity = problem.flexible_velocity(gamma)
        for block, free in self.free.items():
            found, body = self.found[block], self.bodies[block]
            velocity[found.rows] += mapped_velocity(found, self.frames[block], free.reshape(-1, 3)[body.boundary_nodes])
        return velocity

    def finish(self, gamma, elastic):
        """The ElasticState at the end of the step from the impulses ``gamma`` (n_c, 3): for a static solve the
        elastic displacement under the contact forces (velocities zero), else the theta-method's update."""
        displacement, velocity = {}, {}
        for block, body in self.bodies.items():
            found = self.found.get(block)
            response = np.zeros(3 * body.n_nodes)
            if found is not None and len(found.rows) and block in self.frames:
                impulse = np.zeros(3 * body.n_nodes)
                impulse[body.boundary_dofs] = mapped_impulse(found, self.frames[block], gamma[found.rows]).ravel()
                response = body.flexibility(self.h, self.static).solve(impulse[:, None])[:, 0]
            if self.static:
                displacement[block], velocity[block] = response, np.zeros(3 * body.n_nodes)
                continue
            start_v = elastic.velocity[block]
            free = self.free.get(block)
            if free is None:                  # a block without contacts moves freely
                free = body.free_velocity(elastic.displacement[block], start_v, self.h)
            end_v = free + response
            velocity[block] = end_v
            displacement[block] = body.advance(elastic.displacement[block], start_v, end_v, self.h)
        return ElasticState(displacement, velocity, elastic.surface, elastic.condensed)


def elastic_step(bodies, contacts, state, h, static, tolerance):
    """The ElasticStep of ``contacts`` (deformable ``bodies``: block index -> ElasticBody) at ``state``."""
    found = blocks_contacts(bodies, contacts, state.position, state.rotation_matrices(), tolerance,
                            state.elastic.surface)
    return ElasticStep(bodies, found, h, static)
