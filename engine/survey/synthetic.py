"""A synthetic survey of a model's blocks: noisy points on the face of each block that a viewpoint sees.

For examples and checks of the survey path (seed 002 sec. 4.3) against blocks whose shape is known:
each chosen block shows the survey its face turned most towards the viewpoint; points are drawn
uniformly over that face (fan triangles picked by area) and, a given fraction of them, uniformly along
its edges (where a photogrammetrist measures the joints), its corners included, then moved by
isotropic Gaussian noise of standard deviation sigma. The stone table gives each stone the block's
entity and its true depth behind that face, so that a survey without noise gives the blocks back.
"""
import numpy as np

from extrados.engine.geometry.polyhedron import face_loops, face_normals
from extrados.engine.survey.stones import StoneInfo, StonePoints


def seen_face(vertices, faces, viewpoint):
    """Index of the face of a block whose outward unit normal points most towards ``viewpoint``."""
    loops = face_loops(faces)
    normal = face_normals(vertices, loops)
    normal /= np.linalg.norm(normal, axis=1)[:, None]
    centre = np.array([vertices[face].mean(axis=0) for face in faces])
    towards = np.asarray(viewpoint, float) - centre
    return int(np.argmax(np.einsum("fi,fi->f", normal, towards) / np.linalg.norm(towards, axis=1)))


def points_on_polygon(corners, n_inside, n_edge, rng):
    """(n_inside + n_edge + k, 3) points: uniform over a convex polygon (k, 3), along its boundary, its corners."""
    first, second, third = corners[0], corners[1:-1], corners[2:]
    area = 0.5 * np.linalg.norm(np.cross(second - first, third - first), axis=1)      # (k - 2,) fan triangles
    triangle = rng.choice(len(area), size=n_inside, p=area / area.sum())
    r1, r2 = rng.uniform(size=(2, n_inside))
    swap = r1 + r2 > 1.0                                          # fold the square onto the triangle
    r1[swap], r2[swap] = 1.0 - r1[swap], 1.0 - r2[swap]
    inside = first + r1[:, None] * (second[triangle] - first) + r2[:, None] * (third[triangle] - first)
    following = np.roll(corners, -1, axis=0)
    length = np.linalg.norm(following - corners, axis=1)
    edge = rng.choice(len(corners), size=n_edge, p=length / length.sum())
    along = rng.uniform(size=n_edge)[:, None]
    return np.vstack([inside, corners[edge] + along * (following[edge] - corners[edge]), corners])


def synthetic_survey(blocks, viewpoint, points_per_stone, sigma, rng, edge_fraction=0.5):
    """Noisy points on the face each block turns to the viewpoint, and the matching stone table.

    Parameters
    ----------
    blocks : sequence of dict
        Model-document blocks (``id``, ``vertices``, ``faces``, optional ``entity``) to survey.
    viewpoint : (3,) array_like, m
        The survey station.
    points_per_stone : int
        Points drawn on each face, besides its corners.
    sigma : float, m
        Standard deviation of the noise added to each coordinate.
    rng : numpy.random.Generator
    edge_fraction : float
        Share of the points drawn along the face's edges.

    Returns
    -------
    stones : list of StonePoints
        One per block, in the blocks' order, no measured corners.
    stone_table : dict
        {block id: StoneInfo}: the block's entity and its depth (m) behind the surveyed face.
    """
    stones, table = [], {}
    n_edge = int(round(edge_fraction * points_per_stone))
    for block in blocks:
        vertices = np.asarray(block["vertices"], float)
        face = block["faces"][seen_face(vertices, block["faces"], viewpoint)]
        corners = vertices[face]
        exact = points_on_polygon(corners, points_per_stone - n_edge, n_edge, rng)
        stones.append(StonePoints(block["id"], exact + rng.normal(0.0, sigma, exact.shape), np.zeros((0, 3))))
        normal = np.cross(corners[1] - corners[0], corners[2] - corners[0])
        depth = float(np.abs((vertices - corners[0]) @ (normal / np.linalg.norm(normal))).max())
        table[block["id"]] = StoneInfo(dict(block.get("entity", {})), depth=depth)
    return stones, table
