"""The idealised wall of a survey: its courses level, its facings plane (seed 002 sec. 1, 5).

"A historical building is a structure viewed as deformed": the survey gives the as-built geometry,
course deformations included, and the archaeologists ask when they appeared. Comparing the as-built
wall with the wall as it was meant to be built needs the latter, which the survey also gives:

1. each stone's face: its least-squares plane and quad (`face_plane.fit_plane`, `quad_outline`);
2. each facing (the stones of one wall seen from one station, or of one leaf when the stone table
   gives no station): the least-squares plane of all its points, the facing's mean wall plane;
3. each course (the stones of one wall with one ``course`` entity, both leaves): its lower and upper
   bed heights, the means over its stones of the heights of their quads' lower and upper edges; the
   bed joint between two courses, one above the other, at the mean of the lower one's upper bed and
   the upper one's lower bed;
4. each stone's idealised face: the rectangle on its facing's plane between its quad's extreme
   positions along the level line of that plane, and between its course's bed joints.

The idealised stones carry their rectangle as four measured corners, so that `survey_to_model`
outlines them exactly (the plane residual and the quad deviation 0).
"""
from collections import defaultdict

import numpy as np

from extrados.engine.survey.face_plane import fit_plane
from extrados.engine.survey.quad_outline import quad_outline
from extrados.engine.survey.stones import StonePoints, SurveyError

#: Up, the direction in which bed joints are levelled (the model's gravity is along -z).
UP = np.array([0.0, 0.0, 1.0])
#: A facing whose normal lies within this sine of up (a plane within 6 degrees of level) has no level
#: line to lay courses along; a wall's facing, leaning by a few degrees, is far from it.
LEVEL_FACING_SINE = 0.1


def stone_quads(stones):
    """{stone id: (4, 3) corners of its face's quad, m} (step 1)."""
    quads = {}
    for stone in stones:
        plane = fit_plane(stone.points, stone.stone)
        quads[stone.stone] = quad_outline(plane, stone.points, stone.corners, stone.stone)[0].corners
    return quads


def entity_key(stone, info, field):
    """The stone's wall and its ``field`` entity (course or leaf); SurveyError when either is missing."""
    missing = [name for name in ("wall", field) if name not in info.entity]
    if missing:
        raise SurveyError(f"no {' or '.join(missing)} in its entity: cannot idealise its "
                          f"{'course' if field == 'course' else 'facing'}", stone=stone)
    return info.entity["wall"], info.entity[field]


def facing_key(stone, info):
    """The facing a stone's face belongs to: its wall and station, or its wall and leaf."""
    if info.station is not None:
        return info.entity.get("wall"), tuple(info.station)
    return entity_key(stone, info, "leaf")


def course_beds(stones, stone_table, quads):
    """{(wall, course): (lower, upper) bed joint heights, m} (step 3)."""
    edges = defaultdict(list)
    for stone in stones:
        z = np.sort(quads[stone.stone][:, 2])
        edges[entity_key(stone.stone, stone_table[stone.stone], "course")].append((z[:2].mean(), z[2:].mean()))
    mean = {key: np.mean(values, axis=0) for key, values in edges.items()}
    beds = {}
    for wall in {key[0] for key in mean}:
        courses = sorted((key for key in mean if key[0] == wall), key=lambda key: mean[key][0])
        lower = [mean[courses[0]][0]] + [0.5 * (mean[below][1] + mean[above][0])
                                         for below, above in zip(courses, courses[1:])]
        upper = lower[1:] + [mean[courses[-1]][1]]
        beds.update({key: (low, high) for key, low, high in zip(courses, lower, upper)})
    return beds


def point_on_plane(plane, level, along, height):
    """(n, 3) points of a plane at positions ``along`` the level line ``level`` (unit, horizontal) from the
    plane's centroid, and at heights ``height`` (m)."""
    rise = np.cross(plane.normal, level)                        # in the plane, across the level line
    offset = np.asarray(along)[:, None] * level
    climb = (np.asarray(height) - plane.centroid[2] - offset[:, 2]) / rise[2]
    return plane.centroid + offset + climb[:, None] * rise


def idealised_survey(stones, stone_table):
    """The stones of a survey with their faces snapped to level courses and plane facings.

    Parameters
    ----------
    stones : list of StonePoints
        The as-built survey, stones surveyed on their face.
    stone_table : dict
        {stone id: StoneInfo}; every stone's entity needs ``wall`` and ``course``, and ``leaf`` unless the
        stone has a station.

    Returns
    -------
    list of StonePoints
        In the survey's order, each its idealised rectangle as its four measured corners (and points).

    Raises
    ------
    SurveyError
        Naming a stone without a table entry or without the entity fields above; a facing plane that is
        level (a floor has no courses to level).
    """
    missing = [stone.stone for stone in stones if stone.stone not in stone_table]
    if missing:
        raise SurveyError("no entry in the stone table", stone=missing[0])
    quads = stone_quads(stones)
    beds = course_beds(stones, stone_table, quads)
    facings = defaultdict(list)
    for stone in stones:
        facings[facing_key(stone.stone, stone_table[stone.stone])].append(stone)
    idealised = {}
    for members in facings.values():
        plane = fit_plane(np.vstack([stone.points for stone in members]), members[0].stone)
        level = np.cross(UP, plane.normal)
        if not np.linalg.norm(level) > LEVEL_FACING_SINE:
            raise SurveyError("its facing's plane is nearly level: no courses to level", stone=members[0].stone)
        level /= np.linalg.norm(level)
        for stone in members:
            along = (quads[stone.stone] - plane.centroid) @ level
            low, high = beds[entity_key(stone.stone, stone_table[stone.stone], "course")]
            corners = point_on_plane(plane, level, [along.min(), along.max(), along.max(), along.min()],
                                     [low, low, high, high])
            idealised[stone.stone] = StonePoints(stone.stone, corners, corners)
    return [idealised[stone.stone] for stone in stones]
