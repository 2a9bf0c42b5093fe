// Blocks by their architectural entity (seed 002 sec. 2.1): the levels a model's blocks carry
// (building, wall, leaf, course, stone, type and each attribute key), one colour per value of a
// level, and which blocks a filter on a level's values keeps. Blocks without the level are "none".
import * as THREE from 'three';

/** The entity's named levels, in the order of the model schema ($defs/entity). */
export const ENTITY_LEVELS = ['building', 'wall', 'leaf', 'course', 'stone', 'type'];
/** What the legend and the filter call a block that lacks the level. */
export const NONE = 'none';
/** Neutral grey of a block without the level: no hue, so it reads apart from every value's colour. */
export const NONE_COLOUR = 0xb8b8b8;
/** Prefix of an attribute key as a level ("attributes.phase"). */
const ATTRIBUTE_PREFIX = 'attributes.';
// Value k gets hue k times the golden-ratio conjugate (of a turn): every hue differs from all
// earlier ones and neighbours in the list are far apart; lightness alternates for a second cue.
const GOLDEN_TURN = 0.6180339887498949;
const SATURATION = 0.7;
const LIGHTNESS = [0.55, 0.4];

/** The text of `level` in a block's entity (null entity or missing key: NONE). */
/** A model's blocks, or none when it has no list of them (a malformed file: the service says what is wrong). */
function blocksOf(model) {
  return Array.isArray(model?.blocks) ? model.blocks : [];
}

export function entityValue(entity, level) {
  const value = level.startsWith(ATTRIBUTE_PREFIX)
    ? entity?.attributes?.[level.slice(ATTRIBUTE_PREFIX.length)] : entity?.[level];
  return value === undefined || value === null ? NONE : String(value);
}

/** The levels some block of the model has: named levels first, then attribute keys (sorted). */
export function entityLevels(model) {
  const entities = blocksOf(model).map((block) => block?.entity).filter(Boolean);
  const named = ENTITY_LEVELS.filter((level) => entities.some((entity) => level in entity));
  const keys = new Set(entities.flatMap((entity) => Object.keys(entity.attributes || {})));
  return [...named, ...[...keys].sort().map((key) => ATTRIBUTE_PREFIX + key)];
}

/** Sorts "2" before "10" (courses are numbered) and NONE last. */
function compareValues(a, b) {
  if (a === NONE || b === NONE) return (a === NONE) - (b === NONE);
  return a.localeCompare(b, undefined, {numeric: true});
}

/** The distinct values of `level` over the model's blocks, in natural order, NONE last when present. */
export function entityValues(model, level) {
  const values = new Set(blocksOf(model).map((block) => entityValue(block?.entity, level)));
  return [...values].sort(compareValues);
}

/**
 * The colour of the k-th value of a level (k from 0); distinct for every k. HSL in sRGB, as CSS reads it
 * (and as gh_components/extrados_gh/entities.py computes it for Grasshopper).
 */
export function valueColour(k) {
  return new THREE.Color().setHSL((k * GOLDEN_TURN) % 1, SATURATION, LIGHTNESS[k % LIGHTNESS.length],
                                  THREE.SRGBColorSpace);
}

/** {value: THREE.Color} for the values of a level, NONE neutral. */
export function valueColours(values) {
  const colours = new Map();
  values.filter((value) => value !== NONE).forEach((value, k) => colours.set(value, valueColour(k)));
  if (values.includes(NONE)) colours.set(NONE, new THREE.Color(NONE_COLOUR));
  return colours;
}

/**
 * The ids of the blocks a filter keeps: those whose `level` has one of `values`.
 *
 * @param {object} model  the model document
 * @param {string|null} level  the level filtered on; null keeps every block
 * @param {Set<string>} values  the values kept (NONE for blocks without the level)
 * @returns {Set<string>}  block ids
 */
export function keptBlocks(model, level, values) {
  const blocks = blocksOf(model);
  return new Set(blocks.filter((block) => !level || values.has(entityValue(block.entity, level)))
    .map((block) => block.id));
}

/**
 * The result with only what acts on kept blocks: contacts and joints with a kept block on either
 * side, thrust lines through a kept block. Blocks, frames and the rest are left as they are.
 */
export function resultOnBlocks(result, kept) {
  const touches = (entry) => entry.blocks.some((id) => kept.has(id));
  return {...result, contacts: result.contacts.filter(touches), interfaces: result.interfaces.filter(touches),
          thrust_lines: (result.thrust_lines || []).filter(touches)};
}
