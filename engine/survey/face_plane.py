"""The least-squares plane of a stone's measured face and the face's outline in it (seed 002 sec. 4.3).

Plane: the centroid c of the n points and the unit normal n minimising sum_k (n . (p_k - c))^2,
the right singular vector of the centred points (P - c) = U S V^T for the smallest singular value
s_3; the residuals d_k = n . (p_k - c) are the points' out-of-plane distances, of RMS s_3 / sqrt(n).
With isotropic measurement noise of standard deviation sigma, E[RMS^2] = sigma^2 (n - 3) / n.

Outline: the 2D convex hull (scipy.spatial.ConvexHull) of the points, or of the measured corners
when the survey gives them, projected onto the plane; a face is convex once outlined, the blocky
simplification of sec. 4.1 for an eroded or bevelled edge. Qhull keeps points that lie on a hull
edge to round-off (points measured along a straight joint) as corners; a corner within
TOL.geometric_relative times the outline's size of the chord of its neighbours is dropped.
"""
from typing import NamedTuple

import numpy as np
from scipy.spatial import ConvexHull, QhullError

from extrados.engine.survey.stones import SurveyError
from extrados.engine.tolerance import TOL


class FacePlane(NamedTuple):
    """A fitted face plane and its residuals."""

    centroid: np.ndarray       # (3,) float64, m
    normal: np.ndarray         # (3,) float64, unit; its sign is arbitrary until `extrusion` orients it
    axes: np.ndarray           # (2, 3) float64, unit in-plane axes u, v with u x v = normal
    rms_m: float               # RMS out-of-plane distance of the points
    max_m: float               # largest out-of-plane distance


class FaceOutline(NamedTuple):
    """A convex face outline in its plane."""

    corners: np.ndarray        # (n_corners, 3) float64, m, on the plane, counter-clockwise about the normal
    area_m2: float
    deviation_m: float         # largest distance of a measured corner inside the outline (0 when convex)


def fit_plane(points, stone):
    """The least-squares plane of a stone's face points.

    Parameters
    ----------
    points : (n, 3) float64, m
    stone : str
        Named in errors.

    Raises
    ------
    SurveyError
        Fewer than 3 points, or points on one line (no plane).
    """
    if len(points) < 3:
        raise SurveyError(f"{len(points)} points; a face plane needs at least 3", stone=stone)
    centroid = points.mean(axis=0)
    _, singular, right = np.linalg.svd(points - centroid, full_matrices=False)
    if not singular[1] > TOL.geometric_relative * singular[0]:
        raise SurveyError(f"its {len(points)} points lie on one line: they span no face plane", stone=stone)
    distance = (points - centroid) @ right[2]                   # (n,) out-of-plane distances, m
    axes = np.array([right[0], np.cross(right[2], right[0])])
    return FacePlane(centroid, right[2], axes, float(np.sqrt(np.mean(distance ** 2))),
                     float(np.abs(distance).max()))


def in_plane(plane, points):
    """(n, 2) coordinates (u, v) in m of the points' projections onto the plane."""
    return (points - plane.centroid) @ plane.axes.T


def without_straight_corners(ring):
    """A convex polygon (k, 2) less the corners that lie on the chord of their neighbours to round-off."""
    tolerance = TOL.geometric_relative * np.ptp(ring, axis=0).max()
    while len(ring) > 3:
        before, after = np.roll(ring, 1, axis=0), np.roll(ring, -1, axis=0)
        chord = after - before
        cross = chord[:, 0] * (ring[:, 1] - before[:, 1]) - chord[:, 1] * (ring[:, 0] - before[:, 0])
        distance = np.abs(cross) / np.linalg.norm(chord, axis=1)           # (k,) m from the neighbours' chord
        straightest = int(np.argmin(distance))
        if distance[straightest] > tolerance:
            break
        ring = np.delete(ring, straightest, axis=0)
    return ring


def outline(plane, points, corners, stone):
    """The convex outline of a face in its plane.

    Parameters
    ----------
    plane : FacePlane
    points : (n, 3) float64, m
        The face's measured points.
    corners : (k, 3) float64, m
        The measured outline in order, or (0, 3): then the outline is the hull of the points.
    stone : str

    Returns
    -------
    FaceOutline
        ``deviation_m`` is the largest distance of a measured corner inside the hull of the corners
        (a non-convex or bevelled outline simplified); 0 when the outline is the points' hull.

    Raises
    ------
    SurveyError
        Fewer than 3 corners, or an outline of zero area.
    """
    measured = len(corners) > 0
    if measured and len(corners) < 3:
        raise SurveyError(f"{len(corners)} measured corners; an outline needs at least 3", stone=stone)
    uv = in_plane(plane, corners if measured else points)
    try:
        hull = ConvexHull(uv)
    except QhullError:
        raise SurveyError("its face outline has zero area", stone=stone) from None
    inside = -(uv @ hull.equations[:, :2].T + hull.equations[:, 2]).max(axis=1)   # (k,) m to the hull's edge
    deviation = float(inside.max()) if measured else 0.0
    ring = without_straight_corners(uv[hull.vertices])         # counter-clockwise in (u, v)
    return FaceOutline(plane.centroid + ring @ plane.axes, float(hull.volume), deviation)
