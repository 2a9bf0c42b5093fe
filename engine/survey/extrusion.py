"""A face outline extruded into the wall: the prism of seed 002 sec. 4.3 ("the extrusion vector is
given by the computed plane, the depth is given by the archaeologist's expertise").

Which side of the face is "into the wall" the plane alone cannot say. The survey does: the visible
face was seen from a viewpoint (the station, the camera), so the wall lies beyond the face, away
from it; or the user gives the direction into the wall (the normal of a wall reference plane).

The depth comes from the stone itself or from its type (header, stretcher, voussoir, quoin,
through_stone, core, ...). Seed 002 sec. 5 says the Tour Saint-Laurent facings differ in depth by
type of hewn stone but gives no figures, so the depth table is the user's and has no defaults.
"""
import numpy as np

from extrados.engine.survey.stones import SurveyError

#: A face seen within this cosine of edge-on (about 84 degrees off its normal) cannot say which side is
#: into the wall: measurement noise tilts a plane fitted to a few hundred points by a fraction of a
#: degree, far less than the 6 degrees this leaves.
EDGE_ON_COSINE = 0.1


def into_wall_normal(plane, stone, viewpoint=None, into_wall=None):
    """The face plane's unit normal pointing into the wall.

    Parameters
    ----------
    plane : FacePlane
    stone : str
    viewpoint : (3,) array_like, m, optional
        Where the face was seen from: the normal is flipped to point away from it.
    into_wall : (3,) array_like, optional
        A direction into the wall (a wall reference plane's normal): the normal is flipped to point along it.

    Raises
    ------
    SurveyError
        The face is seen edge-on (within EDGE_ON_COSINE).
    """
    if viewpoint is not None:
        direction = plane.centroid - np.asarray(viewpoint, float)
    else:
        direction = np.asarray(into_wall, float)
    cosine = float(plane.normal @ direction) / np.linalg.norm(direction)
    if abs(cosine) < EDGE_ON_COSINE:
        source = "viewpoint" if viewpoint is not None else "direction into the wall"
        raise SurveyError(f"its face is seen edge-on from the {source} ({np.degrees(np.arccos(abs(cosine))):.1f} "
                          "degrees off its normal): cannot tell which side is into the wall", stone=stone)
    return plane.normal if cosine > 0.0 else -plane.normal


def stone_depth(stone, info, depth_table):
    """The extrusion depth (m) of a stone and where it comes from ("stone" or "type").

    Parameters
    ----------
    stone : str
    info : StoneInfo
    depth_table : dict
        {stone type: depth in m}.

    Raises
    ------
    SurveyError
        The stone has no depth of its own and its type none in the table (or no type).
    """
    if info.depth is not None:
        return info.depth, "stone"
    kind = info.entity.get("type")
    if kind is None:
        raise SurveyError("no depth: give the stone a depth or a type in the stone table", stone=stone)
    if kind not in depth_table:
        known = ", ".join(sorted(depth_table)) or "none"
        raise SurveyError(f"no depth for its type '{kind}' in the depth table (it has: {known})", stone=stone)
    depth = depth_table[kind]
    if not (isinstance(depth, (int, float)) and not isinstance(depth, bool) and np.isfinite(depth) and depth > 0):
        raise SurveyError(f"the depth table gives type '{kind}' the depth {depth!r}, not a positive number (m)",
                          stone=stone)
    return float(depth), "type"


def prism(corners, inward, depth):
    """Vertices and outward faces of a face outline extruded by ``depth`` along ``inward``.

    Parameters
    ----------
    corners : (k, 3) float64, m
        The convex outline, in order around the face.
    inward : (3,) float64, unit
    depth : float, m

    Returns
    -------
    vertices : (2k, 3) float64, m
        The outline (0..k-1), then the outline moved into the wall (k..2k-1).
    faces : list of list of int
        The face, the back and k sides, each counter-clockwise seen from outside.
    """
    k = len(corners)
    vertices = np.vstack([corners, corners + depth * inward])
    # the face's outward normal is -inward: its corners go clockwise about inward
    turn = np.cross(corners[1] - corners[0], corners[2] - corners[1]) @ inward
    front = list(range(k))[::-1] if turn > 0.0 else list(range(k))
    faces = [front, [k + i for i in front[::-1]]]
    faces += [[j, i, k + i, k + j] for i, j in zip(front, front[1:] + front[:1])]
    return vertices, faces
