"""Edge-edge contacts (seed 000 sec. 2.2, 2.5): step 3 of the narrow phase.

When the separating-axis test chooses the cross product of two edges, the blocks touch edge
across edge: one contact midway between the closest points of the two edges, its normal the
axis from A to B, its gap the separation along it.
"""
from numba import njit

from extrados.engine.collision.feature_id import KIND_EDGE_EDGE, encode_feature
from extrados.engine.collision.separating_axis import edge_pair_axis
from extrados.engine.collision.vectors import along, dot, row, subtract


@njit(cache=True)
def closest_points_on_segments(p0, p1, q0, q1):
    """Closest points of segments p0-p1 and q0-q1 (non-degenerate), as 3-tuples.

    Minimize |p0 + s u - q0 - t w|^2 over s, t in [0, 1]: the unconstrained s is
    (b f - c e) / (a e - b^2) with a = u.u, b = u.w, c = u.r, e = w.w, f = w.r, r = p0 - q0;
    clamp it, take the best t = (b s + f) / e, and if t is clamped recompute s.
    """
    u = subtract(p1, p0)
    w = subtract(q1, q0)
    r = subtract(p0, q0)
    a = dot(u, u)
    b = dot(u, w)
    c = dot(u, r)
    e = dot(w, w)
    f = dot(w, r)
    denominator = a * e - b * b
    s = min(max((b * f - c * e) / denominator, 0.0), 1.0) if denominator > 0.0 else 0.0
    t = (b * s + f) / e
    if t < 0.0:
        t = 0.0
        s = min(max(-c / a, 0.0), 1.0)
    elif t > 1.0:
        t = 1.0
        s = min(max((b - c) / a, 0.0), 1.0)
    return along(p0, s, u), along(q0, t, w)


@njit(cache=True, inline="always")
def closest_points_of_edges(geometry, a, b, edge_a, edge_b):
    """Closest points (3-tuples, world) of global edge edge_a of block a and edge_b of block b."""
    va0 = geometry.vertex_start[a]
    vb0 = geometry.vertex_start[b]
    return closest_points_on_segments(row(geometry.vertex, va0 + geometry.edge_vertex[edge_a, 0]),
                                      row(geometry.vertex, va0 + geometry.edge_vertex[edge_a, 1]),
                                      row(geometry.vertex, vb0 + geometry.edge_vertex[edge_b, 0]),
                                      row(geometry.vertex, vb0 + geometry.edge_vertex[edge_b, 1]))


@njit(cache=True, inline="always")
def edge_contact(geometry, thresholds, a, b, feature, contacts, slot):
    """Step 3: one contact midway between the closest points of two crossing edges, written at ``slot``.

    ``feature`` is (KIND_EDGE_EDGE, edge_a, edge_b), global edges of a and b; the other arguments
    are those of ``narrow_phase.feature_contacts``. Returns 1, or 0 when the edges are further
    apart than the envelope.
    """
    _, edge_a, edge_b = feature
    _, separation, axis = edge_pair_axis(geometry, a, b, edge_a, edge_b, thresholds.parallel_sine_squared)
    if separation > thresholds.envelope:
        return 0
    on_a, on_b = closest_points_of_edges(geometry, a, b, edge_a, edge_b)
    for i in range(3):
        contacts.point[slot, i] = 0.5 * (on_a[i] + on_b[i])
        contacts.normal[slot, i] = axis[i]
    contacts.gap[slot] = separation
    contacts.feature_id[slot] = encode_feature(KIND_EDGE_EDGE, edge_a - geometry.edge_start[a],
                                               edge_b - geometry.edge_start[b], 0)
    return 1
