"""Labelled point clouds: PLY (plyfile) and LAS/LAZ (laspy), one label per point naming its stone.

A laser scan or a photogrammetric dense cloud segmented stone by stone carries the stone of each
point in a per-point property: in PLY an integer property or a list of bytes (the stone's name
as text) of the ``vertex`` element; in LAS the ``point_source_id``, the ``classification`` or an
extra dimension. Points whose label is ``unlabelled`` (an integer label) belong to no stone
(mortar, vegetation) and are left out.
"""
from pathlib import Path

import laspy
import numpy as np
import plyfile

from extrados.engine.survey.stones import SurveyError, grouped_points


def checked_coordinates(points, name):
    """(n, 3) float64 coordinates; SurveyError naming the first point that is not finite."""
    points = np.asarray(points, dtype=float)
    bad = np.flatnonzero(~np.isfinite(points).all(axis=1))
    if len(bad):
        raise SurveyError(f"point {bad[0]} has a coordinate that is not a finite number", path=name)
    return points


def labelled_stones(labels, points, name, unlabelled):
    """StonePoints of the labelled points; ``labels`` (n,) int or str; SurveyError when none is labelled."""
    keep = np.asarray(labels != unlabelled, dtype=bool)
    if not keep.any():
        raise SurveyError(f"no point carries a stone label (all are {unlabelled!r})", path=name)
    corner_order = np.full(int(keep.sum()), np.nan)          # a cloud measures no outline
    return grouped_points(labels[keep], points[keep], corner_order, lambda k: name)


def ply_labels(values, label, name):
    """The labels of a PLY property: its integers, or its byte lists decoded as text."""
    if values.dtype != object:
        if not np.issubdtype(values.dtype, np.integer):
            raise SurveyError(f"property '{label}' is {values.dtype}, not an integer or text (a list of bytes)",
                              path=name)
        return values.astype(np.int64)
    try:
        return np.array([bytes(np.asarray(value, dtype=np.uint8)).decode("ascii") for value in values], dtype=object)
    except (ValueError, UnicodeDecodeError) as exc:
        raise SurveyError(f"property '{label}' is not ASCII text: {exc}", path=name) from None


def read_ply(path, label="stone", unlabelled=-1):
    """The stones of a labelled PLY point cloud.

    Parameters
    ----------
    path : str or os.PathLike
    label : str
        The ``vertex`` property naming each point's stone: integer, or a list of bytes (ASCII text).
    unlabelled : int or str
        The label of points that belong to no stone.

    Returns
    -------
    list of StonePoints
        In the order the stones first appear; no measured outlines.

    Raises
    ------
    SurveyError
        Naming the file: not a PLY file, no ``vertex`` element or no x, y, z or label property
        (listing those it has), a point whose coordinates are not finite.
    """
    name = Path(path).name
    try:
        data = plyfile.PlyData.read(str(path))
    except (OSError, plyfile.PlyParseError, ValueError, EOFError) as exc:
        raise SurveyError(f"not a readable PLY file: {exc}", path=name) from None
    if "vertex" not in data:
        elements = ", ".join(element.name for element in data.elements) or "none"
        raise SurveyError(f"no 'vertex' element (the file has: {elements})", path=name)
    vertex = data["vertex"]
    properties = [prop.name for prop in vertex.properties]
    for needed in ("x", "y", "z", label):
        if needed not in properties:
            raise SurveyError(f"the vertex element has no property '{needed}' (it has: {', '.join(properties)})",
                              path=name)
    points = checked_coordinates(np.column_stack([vertex[axis] for axis in "xyz"]), name)
    return labelled_stones(ply_labels(vertex[label], label, name), points, name, unlabelled)


def read_las(path, label="point_source_id", unlabelled=-1):
    """The stones of a labelled LAS or LAZ point cloud (laspy; LAZ through its lazrs back end).

    Parameters
    ----------
    path : str or os.PathLike
    label : str
        The point dimension naming each point's stone: ``point_source_id``, ``classification`` or an
        extra dimension's name.
    unlabelled : int
        The label of points that belong to no stone (e.g. 0 with ``classification``, "never classified").

    Returns
    -------
    list of StonePoints
        In the order the stones first appear; coordinates scaled and offset as the header says (m).

    Raises
    ------
    SurveyError
        Naming the file: not a LAS/LAZ file, no such dimension (listing those it has).
    """
    name = Path(path).name
    try:
        cloud = laspy.read(str(path))
    except (OSError, laspy.errors.LaspyException, ValueError) as exc:
        raise SurveyError(f"not a readable LAS/LAZ file: {exc}", path=name) from None
    dimensions = list(cloud.point_format.dimension_names)
    if label not in dimensions:
        raise SurveyError(f"no point dimension '{label}' (the file has: {', '.join(dimensions)})", path=name)
    points = checked_coordinates(np.column_stack([cloud.x, cloud.y, cloud.z]), name)
    labels = np.asarray(cloud[label])
    if not np.issubdtype(labels.dtype, np.integer):
        raise SurveyError(f"dimension '{label}' is {labels.dtype}, not an integer label", path=name)
    return labelled_stones(labels.astype(np.int64), points, name, unlabelled)
