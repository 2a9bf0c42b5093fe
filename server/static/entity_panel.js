// The viewer's entity controls: the entity levels among the "Colour blocks by" choices, the
// "Show only" filter (a level and a tick box per value), and the legend of a level's colours.
import {entityLevels, entityValue, entityValues, keptBlocks, valueColours} from '/static/entity.js';

const $ = (id) => document.getElementById(id);
/** Prefix of a "Colour blocks by" choice that colours by an entity level ("entity:course"). */
const ENTITY_MODE = 'entity:';

/** The entity level the blocks are coloured by, or null (state or displacement). */
export function colouringLevel() {
  const mode = $('block-colouring').value;
  return mode.startsWith(ENTITY_MODE) ? mode.slice(ENTITY_MODE.length) : null;
}

/** Remove the options of `select` that are not in `keep`; the value chosen before. */
function replaceLevelOptions(select, keep) {
  const chosen = select.value;
  for (const option of [...select.options]) if (!keep.includes(option.value)) option.remove();
  return chosen;
}

/**
 * Offer the model's entity levels for colouring and filtering; a choice still offered stays chosen.
 *
 * @param {object} model  the model document shown
 * @param {string[]} colourings  the colourings that are not entity levels (state, displacement)
 */
export function showEntityLevels(model, colourings) {
  const levels = entityLevels(model);
  const colouring = $('block-colouring');
  const chosen = replaceLevelOptions(colouring, colourings);
  for (const level of levels) colouring.append(new Option(`entity: ${level}`, ENTITY_MODE + level));
  if ([...colouring.options].some((option) => option.value === chosen)) colouring.value = chosen;
  else colouring.value = colourings[0];

  const filter = $('filter-level');
  const filtered = replaceLevelOptions(filter, ['']);
  for (const level of levels) filter.append(new Option(level, level));
  filter.value = levels.includes(filtered) ? filtered : '';
  $('entity-filter').hidden = levels.length === 0;
  showFilterValues(model);
}

/** One box per value of the filter's level (none when it is off), ticked unless unticked before on that level. */
export function showFilterValues(model) {
  const level = $('filter-level').value;
  const box = $('filter-values');
  const unticked = new Set(box.dataset.level === level
    ? [...box.querySelectorAll('input:not(:checked)')].map((input) => input.value) : []);
  box.dataset.level = level;
  const boxes = (level ? entityValues(model, level) : []).map((value) => {
    const label = document.createElement('label');
    label.className = 'check';
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.checked = !unticked.has(value);
    input.value = value;
    label.append(input, ` ${value}`);
    return label;
  });
  box.replaceChildren(...boxes);
}

/** The ids of the blocks the filter keeps (every block when it is off). */
export function filteredBlocks(model) {
  const level = $('filter-level').value || null;
  const ticked = [...$('filter-values').querySelectorAll('input:checked')].map((input) => input.value);
  return keptBlocks(model, level, new Set(ticked));
}

/**
 * The colours of the colouring level over the model's blocks.
 *
 * @returns {{values: Map<string, THREE.Color>, blocks: Map<string, THREE.Color>}}  by value (NONE
 *   neutral) and by block id
 */
export function levelColours(model) {
  const level = colouringLevel();
  const values = valueColours(entityValues(model, level));
  const blocks = new Map(model.blocks.map((block) => [block.id, values.get(entityValue(block.entity, level))]));
  return {values, blocks};
}

/** The legend's rows for the colouring level: [value, css colour], NONE for the blocks without it. */
export function levelLegend(colours) {
  return [...colours].map(([value, colour]) => [value, `#${colour.getHexString()}`]);
}
