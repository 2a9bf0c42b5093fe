"""The blocks' architectural entities (seed 002 sec. 2.1) as integer codes per level, for colouring and filtering.

A block's entity (model_schema.json, $defs/entity) names its building, wall, leaf (facing), course, stone and
type. Viewers colour by numbers, so each level becomes one code per block: the index of the block's name at
that level among the level's names in natural order ("course 2" before "course 10", as the browser viewer
and the Grasshopper components list them), NO_ENTITY where the block has none. Name k has the colour
``entity_colour(k)``, the viewer's and Grasshopper's rule (gh_components/extrados_gh/entities.py), so a
course has one colour in the viewer, in Grasshopper and in a glTF export. Free attributes are not coded: their values are
the user's, and each export keeps the entity whole where its format can (a glTF node's extras).
"""
import colorsys
import re

import numpy as np

#: The levels of an entity, from the largest to the smallest, and the block's type.
ENTITY_LEVELS = ("building", "wall", "leaf", "course", "stone", "type")
#: The code of a block that has no name at a level.
NO_ENTITY = -1
#: Name k's hue is k times the golden-ratio conjugate of a turn (every hue differs from all earlier ones), its
#: lightness alternates between the two; HSL saturation 0.7 (the viewer's and Grasshopper's rule).
GOLDEN_TURN = 0.6180339887498949
SATURATION = 0.7
LIGHTNESS = (0.55, 0.4)
#: RGB of a block with no name at the level coloured by (the viewer's neutral grey).
NO_ENTITY_COLOUR = (184, 184, 184)


def natural_order(name):
    """Sort key of a name whose runs of digits compare as numbers, the rest case-blind ("2" before "10")."""
    return [(0, int(run), "") if run.isdigit() else (1, 0, run.lower()) for run in re.split(r"(\d+)", name) if run]


def entity_colour(k):
    """RGB (0-255) of the k-th name (k from 0) of an entity level in natural order; distinct for every k."""
    red, green, blue = colorsys.hls_to_rgb((k * GOLDEN_TURN) % 1.0, LIGHTNESS[k % len(LIGHTNESS)], SATURATION)
    return tuple(int(round(255 * channel)) for channel in (red, green, blue))


def entity_codes(entities):
    """Per entity level that some block names, each block's code and the names the codes index.

    Parameters
    ----------
    entities : sequence of dict or None
        Each block's entity in model order (engine.result.BlockResults.entity).

    Returns
    -------
    dict
        {level: (codes (n_blocks,) int64, names list of str)}, levels in ENTITY_LEVELS order, only those
        some block names; ``names[codes[i]]`` is block i's name at that level, NO_ENTITY where it has none.
    """
    coded = {}
    for level in ENTITY_LEVELS:
        given = [(entity or {}).get(level) for entity in entities]
        names = sorted({name for name in given if name is not None}, key=natural_order)
        if names:
            index = {name: code for code, name in enumerate(names)}
            coded[level] = (np.array([index.get(name, NO_ENTITY) for name in given], np.int64), names)
    return coded
