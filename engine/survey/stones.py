"""What a survey says of its stones: measured points grouped by stone, and the stone table."""
from typing import NamedTuple

import numpy as np

from extrados.engine.errors import ModelError

#: The entity fields of a block (the model schema's ``entity`` object) that a stone table may give
#: as columns; every other column of a CSV stone table is a free attribute.
ENTITY_FIELDS = ("building", "wall", "leaf", "course", "stone", "type")
#: How a stone was surveyed: its visible face only (extruded by a depth, seed 002 sec. 4.3), or
#: all round (its convex hull, sec. 4.1).
SURVEY_KINDS = ("face", "all_round")


class SurveyError(ModelError):
    """A survey that cannot become blocks: ``path`` names the file and its row or point
    (``wall.csv, row 7``), or ``stone`` the stone (``stone 'c3s12'``)."""

    def __init__(self, message, path=None, stone=None, block=None):
        self.stone = stone
        super().__init__(message, path=path or (f"stone '{stone}'" if stone is not None else None), block=block)


class StonePoints(NamedTuple):
    """The measured points of one stone."""

    stone: str                 # the stone's id, as the survey labels it
    points: np.ndarray         # (n_points, 3) float64, m
    corners: np.ndarray        # (n_corners, 3) float64, m: the measured outline in order; (0, 3) when none


class StoneInfo(NamedTuple):
    """What the stone table says of one stone."""

    entity: dict               # the block's entity object (model schema), ``stone`` filled in
    depth: float = None        # m, extrusion depth of this stone; None: its type's
    survey: str = "face"       # one of SURVEY_KINDS
    reference_volume: float = None   # m^3, a volume to compare the block's with (an all-round stone)
    station: tuple = None      # (3,) m, where the stone's face was seen from, over survey_to_model's viewpoint


def grouped_points(labels, points, corner_order, where):
    """StonePoints per stone, in the order the stones first appear.

    Parameters
    ----------
    labels : sequence of str, (n_points,)
    points : (n_points, 3) float64, m
    corner_order : (n_points,) float64
        The point's rank in its stone's measured outline; NaN for a point that is no corner.
    where : callable
        ``where(k)`` names point k in an error (a file's row).

    Raises
    ------
    SurveyError
        Two corners of one stone with the same rank.
    """
    names, first, inverse = np.unique(np.asarray(labels, dtype=str), return_index=True, return_inverse=True)
    order = np.argsort(first)                                   # stones in the order they first appear
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    point_stone = rank[inverse.ravel()]                         # (n_points,) the stone of each point
    by_stone = np.argsort(point_stone, kind="stable")
    grouped = []
    for stone, rows in zip(names[order].tolist(), np.split(by_stone, np.cumsum(np.bincount(point_stone))[:-1])):
        corner_rows = rows[~np.isnan(corner_order[rows])]
        corner_rows = corner_rows[np.argsort(corner_order[corner_rows], kind="stable")]
        repeated = np.flatnonzero(np.diff(corner_order[corner_rows]) == 0.0)
        if len(repeated):
            row = corner_rows[repeated[0] + 1]
            raise SurveyError(f"stone '{stone}' has two corners numbered {corner_order[row]:g}", path=where(row))
        grouped.append(StonePoints(stone, points[rows], points[corner_rows]))
    return grouped
