"""Strain rate of an in-plane wall on triangle cells of block centroids (seed 001 sec. 3.1).

The centroids of the blocks, projected on the wall's plane, are the vertices of a Delaunay
triangulation, fixed once on the drawn wall so that each triangle follows its three blocks.
In a triangle T the velocity is interpolated linearly from its vertices (eq. 14, shape
functions N_i), so its gradient is constant (eq. 16),

    grad V_T = sum_i u_i (x) grad N_i = [u_2 - u_1, u_3 - u_1] [x_2 - x_1, x_3 - x_1]^-1,

exact for any affine velocity field, and the strain rate is its symmetric part (eq. 15). The
cell of a block is the triangles around its centroid (seed 001 fig. 5); its strain rate is
the area-weighted mean over them (eq. 17). Two invariants of the in-plane (2 x 2) rate D,

    dilation rate  tr D                  (eq. 18, opening of joints)
    shear rate     sqrt(D_d : D_d),  D_d = D - (tr D / 2) 1   (eq. 19, sliding),

accumulate over time into the cumulated dilation and shear of every cell. Over a recorded
interval the displacement of the centroids stands in for u dt, with the gradient taken in the
mid-interval configuration: a rigid rotation then gives exactly zero strain (the Cayley
transform of a rotation is skew), and a simple shear exactly its shear.

The macroscopic strain indicator (eq. 59) adds, after each interval, the fraction S_c / S_T
of the cells' area that is critical: cells whose cumulated dilation and cumulated shear both
exceed their thresholds. It counts intervals, as the paper's counts time steps.
"""
from dataclasses import dataclass

import numpy as np
from scipy.spatial import Delaunay

from extrados.engine.tolerance import TOL

#: Default critical cumulated dilation (eq. 59): a joint opening of 0.4 mm across a 0.4 m cell.
DILATION_THRESHOLD = 1e-3
#: Default critical cumulated shear sqrt(D_d : D_d) dt (eq. 59): an engineering shear of
#: 1.4e-3 (sqrt(2) times this), a joint slip of about 0.6 mm across a 0.4 m cell.
SHEAR_THRESHOLD = 1e-3
#: In-plane tensors are 2 x 2: the deviator removes tr / 2.
PLANE_DIMENSION = 2


@dataclass(frozen=True)
class WallPlane:
    """The best-fit plane of the centroids of a wall, with in-plane axes."""

    origin: np.ndarray  # (3,) float64, m, mean of the centroids
    axes: np.ndarray    # (2, 3) float64, orthonormal rows: e_1 along the wall (horizontal), e_2 up it
    normal: np.ndarray  # (3,) float64, unit, e_1 ^ e_2

    def coordinates(self, points):
        """(n, 2) float64, m, in-plane coordinates of points (n, 3)."""
        return (points - self.origin) @ self.axes.T

    def components(self, vectors):
        """(n, 2) float64, in-plane components of vectors (n, 3)."""
        return vectors @ self.axes.T


@dataclass(frozen=True)
class StrainCells:
    """The fixed triangulation of a wall's block centroids."""

    plane: WallPlane
    blocks: np.ndarray     # (n_cells,) int64, block of each vertex (cell centre)
    triangles: np.ndarray  # (n_triangles, 3) int64, indices into blocks, counter-clockwise in the plane
    area: np.ndarray       # (n_triangles,) float64, m^2, drawn area of each triangle
    cell_area: np.ndarray  # (n_cells,) float64, m^2, drawn area of each cell (its triangles)


@dataclass(frozen=True)
class StrainHistory:
    """Cumulated invariants of every cell and the strain indicator at each recorded time."""

    t: np.ndarray          # (n_frames,) float64, s
    dilation: np.ndarray   # (n_frames, n_cells) float64, cumulated tr D dt (eq. 18)
    shear: np.ndarray      # (n_frames, n_cells) float64, cumulated sqrt(D_d : D_d) dt (eq. 19)
    indicator: np.ndarray  # (n_frames,) float64, macroscopic strain indicator (eq. 59)


def wall_plane(points):
    """The plane an in-plane wall's centroids lie in, or None when they do not span one.

    Parameters
    ----------
    points : (n, 3) float64, m

    Returns
    -------
    WallPlane or None
        None for fewer than three points, collinear points, or points whose spread off their
        best-fit plane exceeds TOL.wall_plane_relative of their spread in it. e_2 is the
        vertical projected on the plane (the direction of largest spread for a level plane);
        e_1 is e_2 ^ normal with its largest component positive.
    """
    if len(points) < 3:
        return None
    origin = points.mean(axis=0)
    _, spread, basis = np.linalg.svd(points - origin, full_matrices=False)
    if spread[1] <= TOL.wall_plane_relative * spread[0] or spread[2] > TOL.wall_plane_relative * spread[1]:
        return None
    normal = basis[2]
    up = np.array([0.0, 0.0, 1.0]) - normal[2] * normal
    if np.linalg.norm(up) <= TOL.wall_plane_relative:
        up = basis[0]
    up /= np.linalg.norm(up)
    along = np.cross(up, normal)
    if along[np.abs(along).argmax()] < 0.0:
        along, normal = -along, -normal
    return WallPlane(origin, np.stack([along, up]), normal)


def signed_areas(points, triangles):
    """(n_t,) float64, m^2, signed areas of triangles (n_t, 3) of in-plane points (n, 2)."""
    edge_1 = points[triangles[:, 1]] - points[triangles[:, 0]]
    edge_2 = points[triangles[:, 2]] - points[triangles[:, 0]]
    return 0.5 * (edge_1[:, 0] * edge_2[:, 1] - edge_1[:, 1] * edge_2[:, 0])


def cell_areas(triangles, area, n_cells):
    """(n_cells,) float64, m^2, total area of the triangles around each vertex (n_t,) areas."""
    total = np.zeros(n_cells)
    np.add.at(total, triangles.ravel(), np.repeat(np.abs(area), 3))
    return total


def centroid_triangles(points):
    """Delaunay triangles of in-plane centroids, slivers left out.

    Parameters
    ----------
    points : (n, 2) float64, m, not all collinear

    Returns
    -------
    (n_t, 3) int64, counter-clockwise; triangles thinner than TOL.strain_cell_area_relative of
    the median area are dropped (collinear centroids along the hull)
    """
    triangles = Delaunay(points).simplices.astype(np.int64)
    area = signed_areas(points, triangles)
    triangles[area < 0.0] = triangles[area < 0.0][:, [0, 2, 1]]
    area = np.abs(area)
    return triangles[area > TOL.strain_cell_area_relative * np.median(area)]


def strain_cells(mechanics):
    """The triangulated centroids of the movable blocks of an in-plane wall, as drawn.

    Returns
    -------
    StrainCells or None
        None when the centroids do not span a plane (a column, a 3D dome) or give no triangle.
    """
    blocks = np.flatnonzero(~mechanics.is_support)
    plane = wall_plane(mechanics.position0[blocks])
    if plane is None:
        return None
    points = plane.coordinates(mechanics.position0[blocks])
    triangles = centroid_triangles(points)
    if not len(triangles):
        return None
    area = signed_areas(points, triangles)
    return StrainCells(plane, blocks, triangles, area, cell_areas(triangles, area, len(blocks)))


def triangle_velocity_gradients(points, velocity, triangles):
    """Velocity gradient of the linear interpolation in each triangle (seed 001 eq. 14, 16).

    Parameters
    ----------
    points : (n, 2) float64, m, in-plane vertex positions
    velocity : (n, 2) float64, m/s (or m, a displacement), in-plane vertex velocities
    triangles : (n_t, 3) int64

    Returns
    -------
    gradient : (n_t, 2, 2) float64, 1/s, gradient[t, a, b] = d V_a / d x_b
    area : (n_t,) float64, m^2, signed areas; a triangle thinner than TOL.strain_cell_area_relative
        of the median (flattened by the motion) has area and gradient zero
    """
    edges = np.stack([points[triangles[:, 1]] - points[triangles[:, 0]],
                      points[triangles[:, 2]] - points[triangles[:, 0]]], axis=2)    # (n_t, 2, 2) columns
    jumps = np.stack([velocity[triangles[:, 1]] - velocity[triangles[:, 0]],
                      velocity[triangles[:, 2]] - velocity[triangles[:, 0]]], axis=2)
    det = edges[:, 0, 0] * edges[:, 1, 1] - edges[:, 0, 1] * edges[:, 1, 0]
    inverse = np.stack([np.stack([edges[:, 1, 1], -edges[:, 0, 1]], axis=1),
                        np.stack([-edges[:, 1, 0], edges[:, 0, 0]], axis=1)], axis=1)
    usable = np.abs(det) > TOL.strain_cell_area_relative * np.median(np.abs(det))
    scale = np.divide(1.0, det, out=np.zeros_like(det), where=usable)
    return jumps @ inverse * scale[:, None, None], np.where(usable, 0.5 * det, 0.0)


def symmetric_gradient(gradient):
    """(n, 2, 2) strain rate D = (grad V + grad V^T) / 2 (seed 001 eq. 15)."""
    return 0.5 * (gradient + np.transpose(gradient, (0, 2, 1)))


def cell_strain_rates(cells, points, velocity):
    """Strain rate of every cell, the area-weighted mean over its triangles (seed 001 eq. 15-17).

    Parameters
    ----------
    cells : StrainCells
    points : (n_cells, 2) float64, m, in-plane centroids (current configuration)
    velocity : (n_cells, 2) float64, m/s, in-plane centroid velocities (a displacement gives
        the strain increment)

    Returns
    -------
    (n_cells, 2, 2) float64, 1/s; zero in a cell with no usable triangle
    """
    gradient, area = triangle_velocity_gradients(points, velocity, cells.triangles)
    weight = np.abs(area)
    n_cells = len(points)
    total = np.zeros((n_cells, 2, 2))
    weighted = symmetric_gradient(gradient) * weight[:, None, None]
    np.add.at(total, cells.triangles.ravel(), np.repeat(weighted, 3, axis=0))
    area_sum = cell_areas(cells.triangles, weight, n_cells)
    return np.divide(total, area_sum[:, None, None], out=np.zeros_like(total), where=area_sum[:, None, None] > 0.0)


def rate_invariants(rate):
    """Dilation and shear rates of in-plane strain rates (the integrands of seed 001 eq. 18-19).

    Parameters
    ----------
    rate : (n, 2, 2) float64, 1/s, symmetric

    Returns
    -------
    dilation : (n,) float64, tr D
    shear : (n,) float64, sqrt(D_d : D_d) with D_d = D - (tr D / 2) 1
    """
    dilation = np.trace(rate, axis1=1, axis2=2)
    deviator = rate - (dilation / PLANE_DIMENSION)[:, None, None] * np.eye(PLANE_DIMENSION)
    return dilation, np.sqrt(np.einsum("nij,nij->n", deviator, deviator))


def critical_fraction(dilation, shear, cell_area, dilation_threshold, shear_threshold):
    """S_c / S_T of seed 001 eq. 59: the area fraction of cells past both thresholds.

    Parameters
    ----------
    dilation, shear : (n_cells,) float64, cumulated invariants (eq. 18-19)
    cell_area : (n_cells,) float64, m^2
    dilation_threshold, shear_threshold : float

    Returns
    -------
    float in [0, 1]
    """
    critical = (dilation > dilation_threshold) & (shear > shear_threshold)
    return float(cell_area[critical].sum() / cell_area.sum())


def cumulated_strain(cells, t, position, dilation_threshold=DILATION_THRESHOLD, shear_threshold=SHEAR_THRESHOLD):
    """Cumulated dilation and shear of every cell and the strain indicator over a run (eq. 18-19, 59).

    Parameters
    ----------
    cells : StrainCells
    t : (n_frames,) float64, s, increasing
    position : (n_frames, n_blocks, 3) float64, m, centres of mass of every block at each time
    dilation_threshold, shear_threshold : float
        A cell is critical (eq. 59) when its cumulated dilation and its cumulated shear both exceed these.

    Returns
    -------
    StrainHistory, zero at the first time
    """
    points = cells.plane.coordinates(position[:, cells.blocks].reshape(-1, 3)).reshape(len(t), -1, 2)
    n_cells = len(cells.blocks)
    dilation = np.zeros((len(t), n_cells))
    shear = np.zeros((len(t), n_cells))
    indicator = np.zeros(len(t))
    for k in range(1, len(t)):
        increment = cell_strain_rates(cells, 0.5 * (points[k] + points[k - 1]), points[k] - points[k - 1])
        step_dilation, step_shear = rate_invariants(increment)
        dilation[k] = dilation[k - 1] + step_dilation
        shear[k] = shear[k - 1] + step_shear
        indicator[k] = indicator[k - 1] + critical_fraction(dilation[k], shear[k], cells.cell_area,
                                                            dilation_threshold, shear_threshold)
    return StrainHistory(np.asarray(t, float), dilation, shear, indicator)
