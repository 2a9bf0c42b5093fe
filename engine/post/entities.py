"""The blocks' architectural entities (seed 002 sec. 2.1) as integer codes per level, for colouring and filtering.

A block's entity (model_schema.json, $defs/entity) names its building, wall, leaf (facing), course, stone and
type. Viewers colour by numbers, so each level becomes one code per block: the index of the block's name at
that level among the level's names in order of first appearance (model order: a wall's courses come bottom
up as they were laid), NO_ENTITY where the block has none. Free attributes are not coded: their values are
the user's, and each export keeps the entity whole where its format can (a glTF node's extras).
"""
import numpy as np

#: The levels of an entity, from the largest to the smallest, and the block's type.
ENTITY_LEVELS = ("building", "wall", "leaf", "course", "stone", "type")
#: The code of a block that has no name at a level.
NO_ENTITY = -1


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
        names = list(dict.fromkeys(name for name in given if name is not None))
        if names:
            index = {name: code for code, name in enumerate(names)}
            coded[level] = (np.array([index.get(name, NO_ENTITY) for name in given], np.int64), names)
    return coded
