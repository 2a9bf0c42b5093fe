"""Blocks by their architectural entity (seed 002 sec. 2.1), for the Grasshopper components.

An entity (the model schema's ``$defs/entity``) names a block's building, wall, leaf (facing), course,
stone and type, with free ``attributes``. Here: an entity read from a Grasshopper input (JSON text), the
value of one level of it (an attribute as ``attributes.KEY``), a level's values in natural order, and a
distinct colour per value, the same rule as the browser viewer (server/static/entity.js).
"""
from __future__ import absolute_import

import json

#: The entity's named levels, in the order of the model schema.
ENTITY_LEVELS = ("building", "wall", "leaf", "course", "stone", "type")
#: The value of a level a block's entity lacks (or a block without an entity).
NONE = "none"
#: Neutral grey of the blocks without the level (the viewer's NONE_COLOUR), RGB.
NONE_COLOUR = (184, 184, 184)
#: Prefix of an attribute key as a level ("attributes.phase").
ATTRIBUTE_PREFIX = "attributes."
#: Value k gets hue k times the golden-ratio conjugate (of a turn), so every hue differs from all earlier
#: ones; lightness alternates between the two for a second cue. Saturation and lightness as in HSL, 0-1.
GOLDEN_TURN = 0.6180339887498949
SATURATION = 0.7
LIGHTNESS = (0.55, 0.4)


def entity_from_text(value, where):
    """The entity dict of one Entity input item: JSON object text, a dict (from a script), or None/empty.

    ValueError naming ``where`` (e.g. ``Entity[3]``) when the text is not a JSON object. Its keys and values
    are checked by the service against the model schema, which names the block's field.
    """
    if value is None or value == "":
        return None
    if isinstance(value, dict):
        return value
    try:
        entity = json.loads(str(value))
    except ValueError as error:
        raise ValueError("%s is not JSON (%s): %s" % (where, error, value))
    if not isinstance(entity, dict):
        raise ValueError("%s must be a JSON object such as {\"course\": \"3\"}; got %s" % (where, value))
    return entity


def entity_value(entity, level):
    """The text of ``level`` in an entity (None or a missing key: `NONE`); booleans as JSON writes them."""
    if level.startswith(ATTRIBUTE_PREFIX):
        value = (entity or {}).get("attributes", {}).get(level[len(ATTRIBUTE_PREFIX):])
    else:
        value = (entity or {}).get(level)
    if value is None:
        return NONE
    return json.dumps(value) if isinstance(value, bool) else str(value)


def entity_levels(entities):
    """The levels some entity has: the named ones first, then ``attributes.KEY`` sorted by key."""
    present = [e for e in entities if e]
    named = [level for level in ENTITY_LEVELS if any(level in e for e in present)]
    keys = sorted(set(key for e in present for key in e.get("attributes", {})))
    return named + [ATTRIBUTE_PREFIX + key for key in keys]


def natural_key(text):
    """Sort key that puts "2" before "10": runs of digits compare as numbers, the rest case-blind."""
    runs = []
    for char in text:
        if runs and char.isdigit() == runs[-1][-1].isdigit():
            runs[-1] += char
        else:
            runs.append(char)
    return [(0, int(run), "") if run.isdigit() else (1, 0, run.lower()) for run in runs]


def level_values(values):
    """The distinct ``values`` in natural order, `NONE` last."""
    distinct = sorted(set(v for v in values if v != NONE), key=natural_key)
    return distinct + ([NONE] if NONE in values else [])


def _hue_channel(p, q, t):
    """One RGB channel of an HSL colour (the standard HSL-to-RGB conversion), 0-1."""
    t %= 1.0
    if t < 1.0 / 6.0:
        return p + (q - p) * 6.0 * t
    if t < 0.5:
        return q
    if t < 2.0 / 3.0:
        return p + (q - p) * (2.0 / 3.0 - t) * 6.0
    return p


def value_colour(k):
    """The colour of the k-th value of a level (k from 0), RGB 0-255; distinct for every k."""
    hue, lightness = (k * GOLDEN_TURN) % 1.0, LIGHTNESS[k % len(LIGHTNESS)]
    q = lightness * (1.0 + SATURATION) if lightness < 0.5 else lightness + SATURATION - lightness * SATURATION
    p = 2.0 * lightness - q
    return tuple(int(round(255 * _hue_channel(p, q, hue + shift))) for shift in (1.0 / 3.0, 0.0, -1.0 / 3.0))


def value_colours(values):
    """{value: RGB} for a level's distinct values (`level_values`), `NONE` neutral grey."""
    colours = dict((value, value_colour(k)) for k, value in enumerate(v for v in values if v != NONE))
    colours[NONE] = NONE_COLOUR
    return colours
